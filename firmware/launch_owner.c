/* The launch's one owner (fw_launch.h): start, claim, fail, finish and
 * complete. The scheduler (scheduler.c) runs a hart's share between them. */
#include <string.h>

#include "fw_board.h"
#include "fw_isolation.h"
#include "fw_launch.h"
#include "fw_mmio.h"
#include "fw_wait.h"
#include "rvhal/rvhal_launch_geometry.h"
#include "rvhal/rvhal_launch_rules.h"

fw_launch_t fw_launches[FW_LANES] = {{.lane = 0, .shared = &fw_user_shared[0]},
                                     {.lane = 1, .shared = &fw_user_shared[1]}};
volatile uintptr_t fw_launch_gen;
volatile uint32_t fw_wake_reasons[RVHAL_MAX_HARTS];

volatile uintptr_t fw_retired; /* launches whose completion is written */
uintptr_t fw_started;          /* launches started (a list's launches share a seq) */
uint64_t fw_launch_cmd_end_mtime; /* fw_launch.h */
static volatile uint32_t pair_left; /* launches of the running pair not yet ended */

/* The watch window of a lone launch (RVHAL_LAUNCH_WATCH): while it is open
 * an idle hart may start the ring's next launch beside it, late, in lane
 * 1. One word, (window serial << 2) | state, so that the watcher's CAS
 * fails on a window closed and reopened since it looked: lane 0's launch
 * finishing closes it (OPEN -> CLOSED: alone), the watcher takes it (OPEN
 * -> TAKEN: a pair). Nothing else writes it once open. */
enum { WATCH_CLOSED = 0, WATCH_OPEN = 1, WATCH_TAKEN = 2, WATCH_STATE = 3 };
static volatile uintptr_t watch_word;
static volatile uint32_t watch_hart;  /* the hart that watches: the first lane 0 leaves idle */
static volatile uintptr_t late_gen;   /* the generation a late lane 1 was let in at (fw_launch_join) */

static rvhal_launch_slot_t *slot_of(uint64_t seq) { return &FW_CTRL->ring.slots[seq % RVHAL_RING_SLOTS]; }

/* Inline (in start, itself inlined): a return from a call ends QEMU's
 * translation block. */
static inline __attribute__((always_inline)) int32_t check_desc(const rvhal_launch_desc_t *d, const void *args,
                                                                uint64_t seq) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  if (d->seq != seq) return RVHAL_BAD_LAUNCH;
  if (d->entry < b->program_base || d->entry >= b->program_base + b->program_size) return RVHAL_BAD_LAUNCH;
  if (d->args != (uintptr_t)args || d->args_size > RVHAL_ARGS_MAX) return RVHAL_BAD_LAUNCH;
  if (!rvhal_launch_work_dim_ok(d->work_dim)) return RVHAL_BAD_LAUNCH;
  for (int i = 0; i < 3; i++)
    if (d->num_groups[i] == 0 || d->local_size[i] == 0) return RVHAL_BAD_LAUNCH;
  if (d->harts == 0 || d->harts > fw_num_harts) return RVHAL_BAD_LAUNCH;
  if (!rvhal_launch_team_ok(d->harts, d->harts_per_group, rvhal_launch_group_items(d->local_size)))
    return RVHAL_BAD_LAUNCH;
  if (!rvhal_launch_chunk_ok(d->chunk_groups, d->num_groups[0])) return RVHAL_BAD_LAUNCH;
  if (d->flags & RVHAL_LAUNCH_NON_UNIFORM) {
    for (int i = 0; i < 3; i++)
      if (!rvhal_launch_last_size_ok(d->local_size[i], d->last_local_size[i])) return RVHAL_BAD_LAUNCH;
    if (!rvhal_launch_team_ok(d->harts, d->harts_per_group, rvhal_launch_smallest_group(d->last_local_size)))
      return RVHAL_BAD_LAUNCH;
  }
  uint64_t groups; /* the claim counters count them in a device word */
  if (__builtin_mul_overflow(d->num_groups[0], d->num_groups[1], &groups) ||
      __builtin_mul_overflow(groups, d->num_groups[2], &groups) || groups > UINTPTR_MAX)
    return RVHAL_BAD_LAUNCH;
  if (d->num_local_args > RVHAL_MAX_LOCAL_ARGS) return RVHAL_BAD_LAUNCH;
  if (d->num_installs > RVHAL_MAX_INSTALLS) return RVHAL_BAD_LAUNCH;
  for (uint32_t i = 0; i < d->num_installs; i++) {
    const rvhal_install_t *in = &d->install[i];
    uint64_t n = in->copy_size + in->zero_size;
    if (in->dst < b->program_base || n > b->program_size || in->dst - b->program_base > b->program_size - n)
      return RVHAL_BAD_LAUNCH;
    if (in->src < b->staging_base || in->copy_size > b->staging_size ||
        in->src - b->staging_base > b->staging_size - in->copy_size)
      return RVHAL_BAD_LAUNCH;
  }
  return RVHAL_OK;
}

/* Copy the program's segments into place with the harts' own stores, so
 * that no stale translation of earlier code survives. */
static void install_program(const rvhal_launch_desc_t *d) {
  for (uint32_t i = 0; i < d->num_installs; i++) {
    const rvhal_install_t *in = &d->install[i];
    memcpy((void *)(uintptr_t)in->dst, (const void *)(uintptr_t)in->src, (size_t)in->copy_size);
    memset((void *)(uintptr_t)(in->dst + in->copy_size), 0, (size_t)in->zero_size);
  }
}

static int32_t last_status; /* of the last launch completed (RVHAL_LAUNCH_AFTER_OK) */

static void write_done(uint64_t seq, int32_t status, uint32_t fault_hart, uint64_t start) {
  rvhal_completion_t *done = &slot_of(seq)->done;
  done->status = status;
  done->fault_hart = fault_hart;
  done->start_mtime = start;
  done->end_mtime = fw_time_now();
  fw_fence();
  done->seq = seq;
}

/* Every ring launch up to `seq` has its record: tell the host. */
static void publish(uint64_t seq) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  fw_store_u64(&ctrl->ring.completed, seq);
  fw_fence(); /* pairs with the host's fence between host_waiting and completed */
  if (__atomic_load_n(&ctrl->ring.host_waiting, __ATOMIC_ACQUIRE)) fw_host_notify();
}

/* Write the completion record, publish it, wake the host if it sleeps. */
void fw_launch_complete(uint64_t seq, int32_t status, uint32_t fault_hart, uint64_t start) {
  last_status = status;
  write_done(seq, status, fault_hart, start);
  publish(seq);
}

/* A launch of a pair ended, in either order. `completed` moves over ended
 * launches only, and never back: lane 0 (seq) publishes its own end before
 * it counts itself out; whoever counts out last publishes seq + 1. */
static void complete_paired(const fw_launch_t *L, uint64_t seq, int32_t status, uint32_t fault_hart, uint64_t start) {
  write_done(seq, status, fault_hart, start);
  if (L->lane == 0) publish(seq);
  if (__atomic_sub_fetch(&pair_left, 1, __ATOMIC_ACQ_REL) == 0) publish(L->lane == 0 ? seq + 1 : seq);
}

void fw_launch_pair_done(void) {
  last_status = fw_launches[0].status != RVHAL_OK ? fw_launches[0].status : fw_launches[1].status;
}

int fw_launch_cancelled(const rvhal_launch_desc_t *d) {
  return (d->flags & RVHAL_LAUNCH_AFTER_OK) && last_status != RVHAL_OK;
}

/* Where a launch's end is written: its ring slot, or its list's record. */
static void complete(const fw_launch_t *L, uint64_t seq, int32_t status, uint32_t fault_hart, uint64_t start) {
  rvhal_cmd_status_t *st = L->cmd_status;
  if (L->paired) {
    complete_paired(L, seq, status, fault_hart, start);
    return;
  }
  if (!st) {
    fw_launch_complete(seq, status, fault_hart, start);
    return;
  }
  st->status = status;
  st->fault_hart = fault_hart;
  st->start_mtime = start;
  st->end_mtime = fw_launch_cmd_end_mtime = fw_time_now();
  st->seq = seq;
}

/* A skippable launch wakes its harts as a tree, each only while groups are
 * left to claim: its first hart wakes the second, its h-th (h >= 1, once
 * it joined, counted from 0) its 2h-th and 2h+1-th. A launch done before
 * its helpers could start (an empty
 * kernel: hart 0 runs 4 groups in less time than one wake-up takes) wakes
 * one hart for nothing, not all: each wake-up is an IPI through QEMU's
 * global lock and a futex round trip for the woken hart's thread, on the
 * same 2 host cores as the harts doing the work. A long launch reaches
 * its last hart after log2(harts) wake-ups. */
static void wake_helpers(const fw_launch_t *L, uint32_t h) {
  const uintptr_t u = L->shared->next_chunk;
  const uintptr_t claimed = L->next_chunk > u ? L->next_chunk : u;
  if (claimed >= L->total_chunks || __atomic_load_n(&L->abort, __ATOMIC_RELAXED)) return; /* they would find nothing */
  const uint32_t first = h ? 2 * h : 1, last = h ? 2 * h + 1 : 1;
  for (uint32_t i = first; i <= last && i < L->participants; i++) fw_wake(L->base + i, FW_WAKE_LAUNCH);
}

/* Set up launch `seq` (checked) in lane L from hart `base`: everything but
 * the generation that lets its harts in. */
static inline __attribute__((always_inline)) void setup(fw_launch_t *L, uint64_t seq, const rvhal_launch_desc_t *d,
                                                        uint64_t start, uint32_t base) {
  L->seq = seq;
  L->desc = d;
  L->entry = (hal_kernel_entry_t)(uintptr_t)d->entry;
  L->privileged = (d->flags & RVHAL_LAUNCH_PRIVILEGED) != 0;
  L->args = (void *)(uintptr_t)d->args;
  L->non_uniform = (d->flags & RVHAL_LAUNCH_NON_UNIFORM) != 0;
  if (L->non_uniform) {
    fw_nonuniform_setup(&L->nu, d);
    L->chunks_per_row = rvhal_launch_chunks_per_row(d->num_groups[0], L->nu.full_x, d->chunk_groups);
  } else {
    L->chunks_per_row = rvhal_launch_chunks_per_row(d->num_groups[0], d->num_groups[0], d->chunk_groups);
  }
  L->total_chunks = L->chunks_per_row * d->num_groups[1] * d->num_groups[2];
  L->participants = d->harts;
  L->base = base;
  L->team_size = d->harts_per_group;
  L->start_mtime = start;
  L->next_chunk = 0;
  L->shared->next_chunk = 0; /* U-mode claims (user_loop.c) */
  L->shared->abort = 0;
  /* Counters keep their meaning (docs/counters.md): every participant takes
   * part, with 0 groups if it came late. */
  L->skippable = L->team_size == 1 && !(FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) &&
                 !(d->flags & RVHAL_LAUNCH_COUNTERS);
  L->status = RVHAL_OK;
  L->abort = 0;
  L->fault_hart = 0;
  fw_teams_reset(base, L->participants / L->team_size, L->team_size);
  if (d->num_installs) { /* most launches run the program already there: no call, no fence.i (each ends
                           QEMU's translation block) */
    fw_isolation_install_begin(); /* page tables: program pages are RX for S-mode too */
    install_program(d);
    fw_user_program_installed(d);
    __asm__ volatile("fence.i" ::: "memory");
  }
  L->turn = 0;
  L->arrived = 0;
  const uintptr_t tag = (fw_launch_gen + 1) << FW_MEMBERS_TAG_SHIFT;
  /* hart 0 is in lane 0's launch from the start; lane 1's first hart joins */
  L->members = L->lane == 0 ? tag | FW_MEMBERS_IN(0) | FW_MEMBERS_TOOK_PART(0) : tag;
  for (uint32_t h = base; h < base + L->participants; h++) fw_harts[h].assigned = L;
}

/* Let the harts of the launches set up in (then) into them: publish the
 * generation, wake them. */
static inline __attribute__((always_inline)) void let_in(const fw_launch_t *pair) {
  const fw_launch_t *L = &fw_launches[0];
  __atomic_store_n(&fw_launch_gen, fw_launch_gen + 1, __ATOMIC_RELEASE);
  fw_fence();
  if (L->skippable) wake_helpers(L, 0);
  else
    for (uint32_t i = 1; i < L->participants; i++) fw_wake(i, FW_WAKE_LAUNCH);
  if (!pair) return;
  if (pair->skippable) fw_wake(pair->base, FW_WAKE_LAUNCH); /* it wakes the rest (fw_launch_join) */
  else
    for (uint32_t i = 0; i < pair->participants; i++) fw_wake(pair->base + i, FW_WAKE_LAUNCH);
}

/* Inlined into both callers: the tail call would cross a page of code,
 * which ends QEMU's translation block. Lane 0, from hart 0. */
static inline __attribute__((always_inline)) int32_t start(uint64_t seq, const rvhal_launch_desc_t *d,
                                                           const void *args, rvhal_cmd_status_t *st, uint64_t start) {
  fw_launch_t *L = &fw_launches[0];
  L->cmd_status = st;
  L->paired = 0;
  L->watched = 0;
  int32_t rc = check_desc(d, args, seq);
  if (rc == RVHAL_OK && !st && fw_launch_cancelled(d)) rc = RVHAL_CANCELLED;
  if (rc != RVHAL_OK) {
    complete(L, seq, rc, 0, start);
    return rc;
  }
  fw_started++;
  setup(L, seq, d, start, 0);
  fw_harts[0].launch = L;
  return RVHAL_OK;
}

/* The ring's launch `seq`, beside lane 0's launch A: if it says it may
 * overlap, is checked, needs no program installed (one program area: it
 * runs A's program) and fits on the harts A leaves, the first of them
 * rounded up to whole teams. Neither may count or trace (a hart's counters
 * describe one launch), nor run in exact timing (its harts' counts must
 * not depend on a neighbour). Returns the first hart of its lane, 0 if it
 * does not pair. Its RVHAL_LAUNCH_AFTER_OK is not looked at: A runs, so
 * the launch before A succeeded or A did not depend on it (the first of
 * its queue's launches on the ring), and A's own outcome it does not wait
 * for (it does not depend on A). */
static uint32_t pair_base(const fw_launch_t *A, uint64_t seq) {
  const uint32_t no_pair = RVHAL_LAUNCH_CMDLIST | RVHAL_LAUNCH_COUNTERS | RVHAL_LAUNCH_TRACE;
  if ((FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) || (A->desc->flags & no_pair) || A->cmd_status)
    return 0;
  if (fw_load_u64(&FW_CTRL->ring.submitted) < seq) return 0;
  const rvhal_launch_slot_t *slot = slot_of(seq);
  const rvhal_launch_desc_t *d = &slot->desc;
  if (!(d->flags & RVHAL_LAUNCH_OVERLAP) || (d->flags & no_pair) || d->num_installs) return 0;
  if (check_desc(d, slot->args, seq) != RVHAL_OK) return 0;
  const uint32_t team = d->harts_per_group; /* checked: divides harts */
  const uint32_t base = (A->participants + team - 1) / team * team;
  if (base >= fw_num_harts || d->harts > fw_num_harts - base) return 0;
  return base;
}

/* Whether lone launch A opens a watch window: the host said more may
 * follow (RVHAL_LAUNCH_WATCH), a hart is left idle, and A is skippable
 * (a late lane 1 takes a generation of its own: a hart of A waking after
 * it still joins, but a team or counting launch could not wait for a
 * hart that misread it) and may pair (pair_base). */
static int watchable(const fw_launch_t *A) {
  const uint32_t no_pair = RVHAL_LAUNCH_CMDLIST | RVHAL_LAUNCH_COUNTERS | RVHAL_LAUNCH_TRACE;
  return (A->desc->flags & RVHAL_LAUNCH_WATCH) && !(A->desc->flags & no_pair) && A->skippable && !A->cmd_status &&
         A->participants < fw_num_harts;
}

/* Hart 0, before A's generation is published. */
static void open_window(fw_launch_t *A) {
  A->watched = 1;
  pair_left = 2;
  watch_hart = A->participants;
  __atomic_store_n(&watch_word, ((watch_word >> 2) + 1) << 2 | WATCH_OPEN, __ATOMIC_RELEASE);
}

/* Lane 0's launch is over: close its window. 1 if a launch was started
 * beside it meanwhile (the window was taken): it ends as one of a pair. */
static int close_window(void) {
  uintptr_t v = __atomic_load_n(&watch_word, __ATOMIC_ACQUIRE);
  while ((v & WATCH_STATE) == WATCH_OPEN)
    if (__atomic_compare_exchange_n(&watch_word, &v, (v & ~(uintptr_t)WATCH_STATE) | WATCH_CLOSED, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      return 0;
  return (v & WATCH_STATE) == WATCH_TAKEN;
}

/* The watcher found the ring's next launch waiting while window w is open:
 * start it in lane 1, if it may pair and the window is still w. */
static void start_late(uintptr_t w) {
  fw_launch_t *A = &fw_launches[0], *B = &fw_launches[1];
  const uint64_t seq = A->seq + 1; /* A's fields are window w's while w is open: the CAS below checks */
  const uint32_t base = pair_base(A, seq);
  if (!base || !__atomic_compare_exchange_n(&watch_word, &w, (w & ~(uintptr_t)WATCH_STATE) | WATCH_TAKEN, 0,
                                            __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return;
  B->paired = 1;
  B->cmd_status = NULL;
  setup(B, seq, &slot_of(seq)->desc, fw_time_now(), base);
  late_gen = fw_launch_gen + 1;
  __atomic_store_n(&fw_launch_gen, late_gen, __ATOMIC_RELEASE);
  fw_fence();
  if (B->skippable) fw_wake(B->base, FW_WAKE_LAUNCH); /* it wakes the rest (fw_launch_join) */
  else
    for (uint32_t i = 0; i < B->participants; i++) fw_wake(B->base + i, FW_WAKE_LAUNCH);
}

/* The watcher sleeps on its own timer, looking at the ring each time it
 * fires, the interval doubling from 1/WATCH_FIRST_HZ to 1/WATCH_LAST_HZ:
 * a launch that follows at once starts within a few times the time it
 * took to come, and a long launch costs one idle hart's wake-up every 2 ms
 * (never a spin). Hart 0 is not disturbed: it runs lane 0's work. */
#define WATCH_FIRST_HZ 20000 /* 50 us */
#define WATCH_LAST_HZ 500    /* 2 ms */

void fw_launch_watch(fw_hart_t *hart) {
  const uint32_t me = hart->index;
  uint64_t interval = fw_board.timebase_hz / WATCH_FIRST_HZ, last = fw_board.timebase_hz / WATCH_LAST_HZ;
  if (!interval) interval = 1;
  for (;;) {
    fw_ipi_clear(me);
    fw_fence();
    const uintptr_t w = __atomic_load_n(&watch_word, __ATOMIC_ACQUIRE);
    if ((w & WATCH_STATE) != WATCH_OPEN || watch_hart != me ||
        __atomic_load_n(&fw_launch_gen, __ATOMIC_ACQUIRE) != hart->seen_gen)
      return; /* lane 0's launch ended, or a launch needs this hart */
    if (fw_load_u64(&FW_CTRL->ring.submitted) > fw_launches[0].seq) {
      start_late(w);
      return; /* started, or it may not pair: watch no more */
    }
    fw_sleep_until(me, fw_time_now() + interval);
    if (interval < last) interval = interval * 2 < last ? interval * 2 : last;
  }
}

int fw_launch_late_pair(void) {
  if (!fw_launches[0].watched || (__atomic_load_n(&watch_word, __ATOMIC_ACQUIRE) & WATCH_STATE) != WATCH_TAKEN)
    return 0;
  fw_started++; /* the watcher's (hart 0 owns the count) */
  fw_launch_wait_retired_slow();
  return 1;
}

int fw_launch_join(fw_hart_t *hart, uintptr_t gen) {
  fw_launch_t *L = hart->assigned;
  /* A late lane 1 took a generation of its own while lane 0's launch ran:
   * lane 0's harts woken since still join theirs. */
  const uintptr_t tag = (L->lane == 0 && gen == late_gen ? gen - 1 : gen) << FW_MEMBERS_TAG_SHIFT;
  const uintptr_t in = FW_MEMBERS_IN(hart->index), took_part = FW_MEMBERS_TOOK_PART(hart->index);
  uintptr_t v = __atomic_load_n(&L->members, __ATOMIC_ACQUIRE);
  do {
    /* Another launch's word, or this one closed: its fields may be
     * rewritten at any time now. participants is read before the CAS,
     * which fails if the launch changed since v was read. */
    if ((v & ~(FW_MEMBERS_IN_MASK | (FW_MEMBERS_IN_MASK << RVHAL_MAX_HARTS) | FW_MEMBERS_CLOSED)) != tag ||
        (v & FW_MEMBERS_CLOSED) || hart->index < L->base || hart->index - L->base >= L->participants)
      return 0;
  } while (!__atomic_compare_exchange_n(&L->members, &v, v | in | took_part, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  hart->launch = L;
  if (L->skippable) wake_helpers(L, hart->index - L->base);
  return 1;
}

int32_t fw_launch_start(uint64_t seq, uint32_t *out_taken) {
  rvhal_launch_slot_t *slot = slot_of(seq);
  const uint64_t now = fw_time_now();
  *out_taken = 1;
  int32_t rc = start(seq, &slot->desc, slot->args, NULL, now);
  if (rc != RVHAL_OK) return rc;
  fw_launch_t *A = &fw_launches[0], *B = &fw_launches[1];
  const uint32_t base = pair_base(A, seq + 1);
  if (!base) {
    if (watchable(A)) open_window(A);
    let_in(NULL);
    if (A->watched) fw_wake(watch_hart, FW_WAKE_WATCH);
    return RVHAL_OK;
  }
  rvhal_launch_slot_t *next = slot_of(seq + 1);
  A->paired = B->paired = 1;
  B->cmd_status = NULL;
  pair_left = 2;
  fw_started++;
  setup(B, seq + 1, &next->desc, now, base);
  *out_taken = 2;
  let_in(B);
  return RVHAL_OK;
}

int32_t fw_launch_start_cmd(uint64_t seq, const rvhal_launch_desc_t *d, const void *args, rvhal_cmd_status_t *st,
                            uint64_t now) {
  int32_t rc = start(seq, d, args, st, now);
  if (rc == RVHAL_OK) let_in(NULL);
  return rc;
}

/* The first failure wins: its status and hart are the launch's. */
static void first_failure(fw_launch_t *L, int32_t status, uint32_t hart) {
  int32_t expected = RVHAL_OK;
  if (__atomic_compare_exchange_n(&L->status, &expected, status, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    L->fault_hart = hart;
}

void fw_launch_fail(const fw_hart_t *hart, int32_t status) {
  fw_launch_t *L = hart->launch;
  first_failure(L, status, hart->index);
  __atomic_store_n(&L->abort, 1, __ATOMIC_RELEASE);
  L->shared->abort = 1;
  fw_fence();
  for (uint32_t i = L->base; i < L->base + L->participants; i++)
    if (i != hart->index) fw_wake(i, FW_WAKE_ABORT);
}

/* The last hart to finish also knows when the launch ended: it gives every
 * participant its idle cycles: the launch's span minus its own. In exact
 * timing the teams ran in turn, so the launch's span is that of the
 * longest hart, as if they had run side by side. */
static void account_idle(const fw_launch_t *L, uintptr_t members) {
  uint64_t first = UINT64_MAX, last = 0, longest = 0;
  for (uint32_t i = L->base; i < L->base + L->participants; i++) {
    if (!(members & FW_MEMBERS_TOOK_PART(i))) continue; /* (every participant takes part when counting) */
    rvhal_hart_block_t *b = fw_harts[i].block;
    if (b->start_cycle < first) first = b->start_cycle;
    if (b->end_cycle > last) last = b->end_cycle;
    if (b->end_cycle - b->start_cycle > longest) longest = b->end_cycle - b->start_cycle;
  }
  uint64_t span = FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING ? longest : last - first;
  for (uint32_t i = L->base; i < L->base + L->participants; i++) {
    if (!(members & FW_MEMBERS_TOOK_PART(i))) continue;
    rvhal_hart_block_t *b = fw_harts[i].block;
    b->counters[RVHAL_HART_COUNTER_IDLE_CYCLES] = span - (b->end_cycle - b->start_cycle);
  }
}

void fw_launch_finish(fw_hart_t *hart) {
  fw_launch_t *L = hart->launch;
  uint64_t seq = L->seq, start = L->start_mtime;
  /* Leave. A hart here found nothing left to claim (or the launch failed):
   * in a skippable launch it closes it, for a hart joining now would find
   * nothing either. Otherwise the launch closes once every participant
   * has taken part. */
  const uintptr_t all = (FW_MEMBERS_IN_MASK >> (RVHAL_MAX_HARTS - L->participants)) << (RVHAL_MAX_HARTS + L->base);
  const uintptr_t close = L->skippable ? FW_MEMBERS_CLOSED : 0;
  uintptr_t v = __atomic_load_n(&L->members, __ATOMIC_ACQUIRE), left;
  do {
    left = (v & ~FW_MEMBERS_IN(hart->index)) | close;
    if (!(left & FW_MEMBERS_IN_MASK) && (left & all) == all) left |= FW_MEMBERS_CLOSED;
  } while (!__atomic_compare_exchange_n(&L->members, &v, left, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE));
  if ((left & FW_MEMBERS_IN_MASK) || !(left & FW_MEMBERS_CLOSED)) return;
  if (L->watched && close_window()) L->paired = 1; /* a launch was started beside it */
  /* Every kernel call of the launch has returned: a canary broken now was
   * broken by this launch, on whichever hart (a kernel may store into
   * another hart's stack after that hart checked its own): it fails this
   * launch, not the next one there. Of a pair, each looks at its own
   * harts (the other's still run). */
  const uint32_t lo = L->paired ? L->base : 0, hi = L->paired ? L->base + L->participants : fw_num_harts;
  for (uint32_t h = lo; h < hi; h++)
    if (fw_stack_canary_broken(h)) first_failure(L, RVHAL_STACK_OVERFLOW, h);
  if (L->desc->flags & RVHAL_LAUNCH_COUNTERS) account_idle(L, left);
  complete(L, seq, L->status, L->fault_hart, start);
  __atomic_add_fetch(&fw_retired, 1, __ATOMIC_RELEASE);
  if (hart->index != 0) fw_wake(0, FW_WAKE_RETIRED); /* hart 0 may wait to reuse the lanes */
}

/* Exact timing: the teams run one after another. QEMU runs every hart on
 * one thread under -icount anyway, in turns whose length depends on timers
 * and real time; taking turns explicitly makes each hart's span (and so its
 * cycles) its own work only, the same on every run. A team waits, asleep,
 * for its turn; the one before it hands over with an IPI. */
void fw_launch_wait_turn(const fw_hart_t *hart, uint32_t team) {
  fw_launch_t *L = hart->launch; /* lane 0: exact timing runs no pairs */
  /* Everyone must be asleep before the first team starts, or QEMU could run
   * a hart just woken for the launch inside hart 0's span. */
  if (hart->index != 0) {
    if (__atomic_add_fetch(&L->arrived, 1, __ATOMIC_ACQ_REL) == L->participants - 1) fw_wake(0, FW_WAKE_TURN);
  } else {
    FW_WAIT_UNTIL(0, __atomic_load_n(&L->arrived, __ATOMIC_ACQUIRE) == L->participants - 1);
  }
  FW_WAIT_UNTIL(hart->index, __atomic_load_n(&L->turn, __ATOMIC_ACQUIRE) == team ||
                                 __atomic_load_n(&L->abort, __ATOMIC_ACQUIRE));
}

void fw_launch_pass_turn(uint32_t next_team) {
  fw_launch_t *L = &fw_launches[0]; /* exact timing runs no pairs */
  __atomic_store_n(&L->turn, next_team, __ATOMIC_RELEASE);
  fw_fence();
  for (uint32_t i = next_team * L->team_size; i < (next_team + 1) * L->team_size && i < L->participants; i++)
    fw_wake(i, FW_WAKE_TURN);
}

/* Lingering instead would take the host core, or under -icount the one
 * thread every hart runs on, from the harts still working: it added the
 * whole linger to exact launches. */
void fw_launch_wait_retired_slow(void) {
  FW_WAIT_UNTIL(0, fw_launch_all_retired());
}

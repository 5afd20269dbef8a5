/* The work-group scheduler. Hart 0 takes a launch from the ring, wakes as
 * many harts as the launch uses, and every participant then claims chunks of
 * work-groups with an atomic counter until none are left (a dynamic
 * schedule: a hart that finishes early takes more). Each claim becomes one
 * kernel call whose hal_sched_info says which groups it runs. The last hart
 * to finish writes the completion and wakes the host. */
#include <string.h>

#include "fw.h"
#include "fw_board.h"
#include "fw_counters.h"
#include "fw_mmio.h"
#include "fw_speed.h"

static rvhal_launch_slot_t *slot_of(uint64_t seq) { return &FW_CTRL->ring.slots[seq % RVHAL_RING_SLOTS]; }

static volatile uintptr_t fw_retired; /* last launch whose completion is written */

static int32_t check_desc(const rvhal_launch_desc_t *d, const rvhal_launch_slot_t *slot, uint64_t seq) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  if (d->seq != seq) return RVHAL_BAD_LAUNCH;
  if (d->entry < b->program_base || d->entry >= b->program_base + b->program_size) return RVHAL_BAD_LAUNCH;
  if (d->args != (uintptr_t)slot->args || d->args_size > RVHAL_ARGS_MAX) return RVHAL_BAD_LAUNCH;
  if (d->work_dim < 1 || d->work_dim > 3) return RVHAL_BAD_LAUNCH;
  for (int i = 0; i < 3; i++)
    if (d->num_groups[i] == 0 || d->local_size[i] == 0) return RVHAL_BAD_LAUNCH;
  if (d->harts == 0 || d->harts > fw_num_harts) return RVHAL_BAD_LAUNCH;
  /* Teams: harts [j*T, (j+1)*T) run one group together; each needs an item. */
  uint64_t items = (uint64_t)d->local_size[0] * d->local_size[1] * d->local_size[2];
  if (d->harts_per_group == 0 || d->harts % d->harts_per_group || d->harts_per_group > items) return RVHAL_BAD_LAUNCH;
  if (d->chunk_groups == 0 || d->chunk_groups > d->num_groups[0]) return RVHAL_BAD_LAUNCH;
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

/* Write the completion record, publish it, wake the host if it sleeps. */
static void complete(uint64_t seq, int32_t status, uint32_t fault_hart, uint64_t start) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  rvhal_completion_t *done = &slot_of(seq)->done;
  done->status = status;
  done->fault_hart = fault_hart;
  done->start_mtime = start;
  done->end_mtime = fw_board.time_now();
  fw_fence();
  done->seq = seq;
  fw_store_u64(&ctrl->ring.completed, seq);
  fw_fence(); /* pairs with the host's fence between host_waiting and completed */
  if (__atomic_load_n(&ctrl->ring.host_waiting, __ATOMIC_ACQUIRE)) fw_notify_host();
}

/* The last hart to finish also knows when the launch ended: it gives every
 * participant its idle cycles: the launch's span minus its own. In exact
 * timing the teams ran in turn, so the launch's span is that of the
 * longest hart, as if they had run side by side. */
static void account_idle(void) {
  fw_launch_t *L = &fw_launch;
  uint64_t first = UINT64_MAX, last = 0, longest = 0;
  for (uint32_t i = 0; i < L->participants; i++) {
    rvhal_hart_block_t *b = fw_harts[i].block;
    if (b->start_cycle < first) first = b->start_cycle;
    if (b->end_cycle > last) last = b->end_cycle;
    if (b->end_cycle - b->start_cycle > longest) longest = b->end_cycle - b->start_cycle;
  }
  uint64_t span = FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING ? longest : last - first;
  for (uint32_t i = 0; i < L->participants; i++) {
    rvhal_hart_block_t *b = fw_harts[i].block;
    b->counters[RVHAL_HART_COUNTER_IDLE_CYCLES] = span - (b->end_cycle - b->start_cycle);
  }
}

static void finish_share(fw_hart_t *hart) {
  fw_launch_t *L = &fw_launch;
  uint64_t seq = L->seq, start = L->start_mtime;
  if (__atomic_add_fetch(&L->finished, 1, __ATOMIC_ACQ_REL) != L->participants) return;
  if (L->desc->flags & RVHAL_LAUNCH_COUNTERS) account_idle();
  complete(seq, L->status, L->fault_hart, start);
  __atomic_store_n(&fw_retired, (uintptr_t)seq, __ATOMIC_RELEASE);
  if (hart->index != 0) fw_board.ipi_send(0); /* hart 0 may wait to reuse fw_launch */
}

static void stack_check(fw_hart_t *hart) {
  volatile uint64_t *canary = fw_stack_canary(hart->index);
  if (*canary == FW_STACK_CANARY) return;
  *canary = FW_STACK_CANARY;
  int32_t expected = RVHAL_OK;
  __atomic_compare_exchange_n(&fw_launch.status, &expected, RVHAL_STACK_OVERFLOW, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
  fw_launch.fault_hart = hart->index;
}

/* What a hart's claim loop tallies; kept in memory so that it survives the
 * longjmp out of a trapping kernel. */
typedef struct share_tally {
  uint64_t groups, kernel_cycles;
} share_tally_t;

/* Claim groups until none are left, one kernel call per claim. A trap in
 * the kernel longjmps out of here, to run_share. */
static void __attribute__((noinline)) claim_loop(fw_hart_t *hart, hal_sched_info_t *sched, volatile share_tally_t *t) {
  fw_launch_t *L = &fw_launch;
  const int exact = (FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) != 0;
  const uintptr_t teams = L->participants / L->team_size, team = hart->index / L->team_size;
  const rvhal_launch_desc_t *d = L->desc;
  const int counting = (d->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  const uint32_t rank = hart->call.team_rank;
  fw_hart_t *leader = &fw_harts[hart->index - rank];
  const uintptr_t chunk = (uintptr_t)d->chunk_groups, ngx = (uintptr_t)d->num_groups[0];
  const uintptr_t ngy = (uintptr_t)d->num_groups[1], per_row = (uintptr_t)L->chunks_per_row;
  const uintptr_t total = (uintptr_t)L->total_chunks;
  for (uintptr_t k = 0;; k++) {
    /* The team's leader claims the next groups (exact timing: deals them in
     * a fixed rotation, so every run gives each hart the same work). In a
     * team, one barrier both ends the previous call and publishes the claim.
     * Claims alternate between two slots: a teammate reads slot k&1 after
     * barrier k, and the leader cannot write it again (claim k+2) before
     * that teammate reached barrier k+1. */
    if (rank == 0) {
      uintptr_t claim;
      if (L->abort) claim = total;
      else if (exact) claim = team + k * teams;
      else claim = __atomic_fetch_add((volatile uintptr_t *)&L->next_chunk, 1, __ATOMIC_RELAXED);
      leader->chunk[k & 1] = claim;
    }
    fw_team_barrier(&hart->call);
    const uintptr_t c = leader->chunk[k & 1];
    if (c >= total) return;
    uintptr_t row = c / per_row, gx = (c - row * per_row) * chunk;
    uintptr_t n = ngx - gx < chunk ? ngx - gx : chunk;
    sched->group_id_start[0] = gx;
    sched->group_id_start[1] = row % ngy;
    sched->group_id_start[2] = row / ngy;
    sched->num_groups_per_call[0] = n;
    uint64_t k0 = 0;
    if (counting) {
      uint32_t g[3] = {(uint32_t)gx, (uint32_t)(row % ngy), (uint32_t)(row / ngy)};
      fw_trace(hart, RVHAL_TRACE_CALL_BEGIN, (uint32_t)n, g);
      k0 = fw_read_mcycle();
    }
    hart->in_kernel = 1;
    L->entry(L->args, sched);
    hart->in_kernel = 0;
    if (counting) {
      t->kernel_cycles += fw_read_mcycle() - k0;
      fw_trace(hart, RVHAL_TRACE_CALL_END, 0, 0);
    }
    if (rank == 0) t->groups += n;
  }
}

/* claim_loop, with the landing place for a trapping kernel. Nothing here is
 * live across setjmp but the arguments. */
static void __attribute__((noinline)) run_protected(fw_hart_t *hart, hal_sched_info_t *sched,
                                                    volatile share_tally_t *t) {
  if (setjmp(hart->recover) == 0) claim_loop(hart, sched, t);
  else hart->in_kernel = 0; /* the trap handler recorded why */
}

/* Exact timing: the teams run one after another. QEMU runs every hart on
 * one thread under -icount anyway, in turns whose length depends on timers
 * and real time; taking turns explicitly makes each hart's span (and so its
 * cycles) its own work only, the same on every run. A team waits, asleep,
 * for its turn; the one before it hands over with an IPI. */
static void wait_turn(fw_hart_t *hart, uint32_t team) {
  fw_launch_t *L = &fw_launch;
  /* Everyone must be asleep before the first team starts, or QEMU could run
   * a hart just woken for the launch inside hart 0's span. */
  if (hart->index != 0) {
    if (__atomic_add_fetch(&L->arrived, 1, __ATOMIC_ACQ_REL) == L->participants - 1) fw_board.ipi_send(0);
  } else {
    while (__atomic_load_n(&L->arrived, __ATOMIC_ACQUIRE) != L->participants - 1) {
      fw_wfi();
      fw_board.ipi_clear(0);
    }
  }
  for (;;) {
    fw_board.ipi_clear(hart->index);
    fw_fence();
    if (__atomic_load_n(&L->turn, __ATOMIC_ACQUIRE) == team || __atomic_load_n(&L->abort, __ATOMIC_ACQUIRE)) return;
    fw_wfi();
  }
}

/* Exact timing: a hart whose turn came sleeps ~1 us before it starts
 * counting. The hart that handed over still runs a few instructions on its
 * way to wfi; under -icount they advance the one clock every hart reads, so
 * inside this hart's span they would add cycles now and then, as QEMU's
 * time slices fall. Asleep, this hart lets them finish first. */
#define SETTLE_TICKS (RVHAL_BOARD_TIMEBASE_HZ / 1000000 + 1)

static void settle(fw_hart_t *hart) {
  const uint64_t until = fw_board.time_now() + SETTLE_TICKS;
  fw_board.timer_set(hart->index, until);
  csr_set(mie, MIP_MTIP);
  while (fw_board.time_now() < until) {
    fw_board.ipi_clear(hart->index); /* a stale IPI must not turn this into a spin */
    fw_wfi();
  }
  csr_clear(mie, MIP_MTIP);
  fw_board.timer_set(hart->index, FW_TIMER_OFF);
}

static void pass_turn(uint32_t next_team) {
  fw_launch_t *L = &fw_launch;
  __atomic_store_n(&L->turn, next_team, __ATOMIC_RELEASE);
  fw_fence();
  for (uint32_t i = next_team * L->team_size; i < (next_team + 1) * L->team_size && i < L->participants; i++)
    fw_board.ipi_send(i);
}

/* One hart's part of a launch. */
static void run_share(fw_hart_t *hart) {
  fw_launch_t *L = &fw_launch;
  const rvhal_launch_desc_t *d = L->desc;
  rvhal_hart_block_t *blk = hart->block;
  hal_sched_info_t sched;
  for (int i = 0; i < 3; i++) {
    sched.num_groups_total[i] = d->num_groups[i];
    sched.global_offset[i] = d->global_offset[i];
    sched.local_size[i] = d->local_size[i];
    sched.num_groups_per_call[i] = 1;
  }
  sched.num_dim = d->work_dim;
  sched.hal_extra = (uintptr_t)&hart->call;
  const uint32_t rank = hart->index % L->team_size;
  hart->call.team_rank = rank;
  hart->call.team_size = L->team_size;
  hart->call.team = &fw_harts[hart->index - rank].team;
  hart->call.launch = d;
  hart->barrier_sense = 0;

  const int counting = (d->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  const int exact = (FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) != 0;
  const uint32_t team = hart->index / L->team_size;
  uint64_t i0 = 0;
  fw_launch_tlb_flush(d->flags, &FW_CTRL->boot);
  if (exact) {
    wait_turn(hart, team);
    settle(hart);
  }
  blk->trace_events = 0;
  blk->trace_dropped = 0;
  if (counting) {
    memset(blk->counters, 0, sizeof(uint64_t) * RVHAL_NUM_HART_COUNTERS);
    blk->counters_seq = L->seq;
    i0 = fw_instret(hart);
    blk->start_cycle = fw_read_mcycle();
  }
  volatile share_tally_t tally = {0, 0};
  run_protected(hart, &sched, &tally);
  stack_check(hart);
  if (exact && rank == 0) pass_turn(team + 1);

  if (counting) {
    uint64_t *ctr = blk->counters;
    ctr[RVHAL_HART_COUNTER_GROUPS] += tally.groups;
    ctr[RVHAL_HART_COUNTER_KERNEL_CYCLES] = tally.kernel_cycles;
    ctr[RVHAL_HART_COUNTER_INSTRET] = fw_instret(hart) - i0;
    blk->end_cycle = fw_read_mcycle();
    ctr[RVHAL_HART_COUNTER_CYCLES] = blk->end_cycle - blk->start_cycle;
  }
  finish_share(hart);
}

/* Hart 0 sleeps until the last hart has retired launch `seq` (it sends an
 * IPI when it is not hart 0). Lingering instead would take the host core,
 * or under -icount the one thread every hart runs on, from the harts still
 * working: measured, it added the whole 500 us linger to exact launches. */
static void wait_retired(uint64_t seq) {
  while (__atomic_load_n(&fw_retired, __ATOMIC_ACQUIRE) != (uintptr_t)seq) {
    fw_wfi();
    fw_board.ipi_clear(0);
  }
}

void fw_run_launch(uint64_t seq) {
  fw_launch_t *L = &fw_launch;

  rvhal_launch_slot_t *slot = slot_of(seq);
  const rvhal_launch_desc_t *d = &slot->desc;
  uint64_t start = fw_board.time_now();
  int32_t rc = check_desc(d, slot, seq);
  if (rc != RVHAL_OK) {
    complete(seq, rc, 0, start);
    return;
  }

  L->seq = seq;
  L->desc = d;
  L->entry = (hal_kernel_entry_t)(uintptr_t)d->entry;
  L->args = (void *)(uintptr_t)d->args;
  L->chunks_per_row = (d->num_groups[0] + d->chunk_groups - 1) / d->chunk_groups;
  L->total_chunks = L->chunks_per_row * d->num_groups[1] * d->num_groups[2];
  L->participants = d->harts;
  L->team_size = d->harts_per_group;
  L->start_mtime = start;
  L->next_chunk = 0;
  L->finished = 0;
  L->status = RVHAL_OK;
  L->abort = 0;
  L->fault_hart = 0;
  for (uint32_t i = 0; i < L->participants; i += L->team_size) {
    fw_harts[i].arrived = 0;
    fw_harts[i].sense = 0;
  }
  install_program(d);
  __asm__ volatile("fence.i" ::: "memory");
  L->turn = 0;
  L->arrived = 0;
  __atomic_store_n(&fw_launch_gen, fw_launch_gen + 1, __ATOMIC_RELEASE);
  fw_fence();
  for (uint32_t i = 1; i < L->participants; i++) fw_board.ipi_send(i);
  run_share(&fw_harts[0]);
  wait_retired(seq);
}

void fw_worker_loop(fw_hart_t *hart) {
  for (;;) {
    fw_board.ipi_clear(hart->index);
    fw_fence();
    uint64_t gen = __atomic_load_n(&fw_launch_gen, __ATOMIC_ACQUIRE);
    if (gen != hart->seen_gen) {
      hart->seen_gen = gen;
      if (hart->index < fw_launch.participants) {
        __asm__ volatile("fence.i" ::: "memory"); /* hart 0 may have installed a program */
        run_share(hart);
      }
      continue;
    }
    fw_wfi();
  }
}

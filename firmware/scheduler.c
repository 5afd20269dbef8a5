/* The work-group scheduler: one hart's share of a launch. Hart 0 starts a
 * launch from the ring, or two side by side (launch_owner.c wakes as many
 * harts as they use), and every
 * participant then claims chunks of work-groups until none are left (a
 * dynamic schedule: a hart that finishes early takes more). Each claim
 * becomes one kernel call whose hal_sched_info says which groups it runs.
 * The last hart to finish completes the launch (launch_owner.c). */
#include <string.h>

#include "fw.h"
#include "fw_board.h"
#include "fw_claim.h"
#include "fw_counters.h"
#include "fw_launch.h"
#include "fw_mmio.h"
#include "fw_wait.h"
#include "fw_speed.h"

/* The stack canary above the guard: a kernel frame that jumped the guard
 * overwrote it. */
static void stack_check(fw_hart_t *hart) {
  if (fw_stack_canary_broken(hart->index)) fw_launch_fail(hart, RVHAL_STACK_OVERFLOW);
}

/* One kernel call. In U-mode through fw_user_call (start.S), which keeps
 * no register but sp and gp: declared clobbered here, so that only
 * claim_loop's live values are kept, and nothing the kernel left in a
 * register is used. Privileged launches: an ordinary call. */
static inline void kernel_call(const fw_hart_t *hart, void *args, hal_sched_info_t *sched, uintptr_t entry,
                               uintptr_t sp) {
  if (!hart->launch->privileged) {
    register uintptr_t a0 __asm__("a0") = (uintptr_t)args, a1 __asm__("a1") = (uintptr_t)sched;
    register uintptr_t a2 __asm__("a2") = entry, a3 __asm__("a3") = sp;
    register uintptr_t a4 __asm__("a4") = (uintptr_t)fw_scratch_of(hart->index); /* no csrr in fw_user_call */
    __asm__ volatile("call fw_user_call"
                     : "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3), "+r"(a4)
                     :
                     : "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a5", "a6", "a7", "s0", "s1", "s2",
                       "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "memory");
    return;
  }
  fw_priv_call(args, sched, entry, sp);
}

/* What a hart's claim loop tallies; kept in memory so that it survives the
 * longjmp out of a trapping kernel. */
typedef struct share_tally {
  uint64_t groups, kernel_cycles;
} share_tally_t;

/* Claim k of this hart's team: the team's leader claims the next groups
 * (exact timing: deals them in a fixed rotation, so every run gives each
 * hart the same work). In a team, one barrier both ends the previous call
 * and publishes the claim. Claims alternate between two slots: a teammate
 * reads slot k&1 after barrier k, and the leader cannot write it again
 * (claim k+2) before that teammate reached barrier k+1. A team whose
 * claims are dealt (fw_launch_team_dealt) needs neither: each member deals
 * its own. The barrier comes from the caller (claim_loop_nonuniform's). */
static inline __attribute__((always_inline)) uintptr_t team_claim(fw_hart_t *hart, fw_launch_t *L, uintptr_t k,
                                                                  uintptr_t teams,
                                                                  uintptr_t team, uintptr_t total, int exact,
                                                                  int dealt, int teamed,
                                                                  void (*barrier)(const rvhal_call_info_t *)) {
  if (dealt) return fw_launch_claim(L, team, k, teams, 1, total);
  fw_team_t *tm = hart->team;
  if (hart->call.team_rank == 0) tm->chunk[k & 1] = fw_launch_claim(L, team, k, teams, exact, total);
  if (teamed) barrier(&hart->call);
  return tm->chunk[k & 1];
}

/* Claim groups until none are left, one kernel call per claim. A trap in
 * the kernel longjmps out of here, to run_share. */
static void __attribute__((noinline)) claim_loop(fw_hart_t *hart, hal_sched_info_t *sched, volatile share_tally_t *t) {
  fw_launch_t *L = hart->launch;
  const int exact = (FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) != 0;
  const uintptr_t teams = L->participants / L->team_size, team = (hart->index - L->base) / L->team_size;
  const rvhal_launch_desc_t *d = L->desc;
  const int counting = (d->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  const uint32_t rank = hart->call.team_rank;
  const uintptr_t chunk = (uintptr_t)d->chunk_groups, ngx = (uintptr_t)d->num_groups[0];
  const uintptr_t ngy = (uintptr_t)d->num_groups[1], per_row = (uintptr_t)L->chunks_per_row;
  const uintptr_t total = (uintptr_t)L->total_chunks;
  const int dealt = fw_launch_team_dealt(L, teams, exact); /* every member deals its team's claims */
  const int teamed = L->team_size > 1 && !dealt; /* alone, the barrier is a no-op: no call per claim */
  for (uintptr_t k = 0;; k++) {
    const uintptr_t c = team_claim(hart, L, k, teams, team, total, exact, dealt, teamed, fw_team_barrier);
    if (c >= total) return;
    const uintptr_t n = fw_claim_groups(sched, c, chunk, ngx, ngy, per_row);
    uint64_t k0 = 0;
    if (counting) {
      uint32_t g[3] = {(uint32_t)sched->group_id_start[0], (uint32_t)sched->group_id_start[1],
                       (uint32_t)sched->group_id_start[2]};
      fw_trace(hart, RVHAL_TRACE_CALL_BEGIN, (uint32_t)n, g);
      k0 = fw_read_mcycle();
    }
    hart->in_kernel = 1;
    kernel_call(hart, hart->kernel_args, sched, (uintptr_t)L->entry, hart->kernel_sp);
    hart->in_kernel = 0;
    if (counting) {
      t->kernel_cycles += fw_read_mcycle() - k0;
      fw_trace(hart, RVHAL_TRACE_CALL_END, 0, 0);
    }
    if (rank == 0) t->groups += n;
  }
}

/* The same for a non-uniform launch, whose calls also set their groups' size
 * and offset (fw_claim.h). A loop of its own: made from one inline body, the
 * uniform loop came out compiled differently. */
/* fw_team_barrier for claim_loop_nonuniform, through a pointer the
 * optimizer cannot follow: a second direct call changed how claim_loop's
 * was compiled (partly out of line, one instruction more per team claim). */
static void (*volatile team_barrier_nonuniform)(const rvhal_call_info_t *ci) = fw_team_barrier;

static void __attribute__((noinline)) claim_loop_nonuniform(fw_hart_t *hart, hal_sched_info_t *sched,
                                                            volatile share_tally_t *t) {
  fw_launch_t *L = hart->launch;
  const int exact = (FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) != 0;
  const uintptr_t teams = L->participants / L->team_size, team = (hart->index - L->base) / L->team_size;
  const rvhal_launch_desc_t *d = L->desc;
  const int counting = (d->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  const uint32_t rank = hart->call.team_rank;
  const uintptr_t chunk = (uintptr_t)d->chunk_groups, per_row = (uintptr_t)L->chunks_per_row;
  const uintptr_t total = (uintptr_t)L->total_chunks;
  const int dealt = fw_launch_team_dealt(L, teams, exact);
  const int teamed = L->team_size > 1 && !dealt; /* alone, the barrier is a no-op: no call per claim */
  for (uintptr_t k = 0;; k++) {
    const uintptr_t c =
        team_claim(hart, L, k, teams, team, total, exact, dealt, teamed, team_barrier_nonuniform);
    if (c >= total) return;
    const uintptr_t n = fw_claim_groups_nonuniform(sched, c, chunk, per_row, &L->nu);
    uint64_t k0 = 0;
    if (counting) {
      uint32_t g[3] = {(uint32_t)sched->group_id_start[0], (uint32_t)sched->group_id_start[1],
                       (uint32_t)sched->group_id_start[2]};
      fw_trace(hart, RVHAL_TRACE_CALL_BEGIN, (uint32_t)n, g);
      k0 = fw_read_mcycle();
    }
    hart->in_kernel = 1;
    kernel_call(hart, hart->kernel_args, sched, (uintptr_t)L->entry, hart->kernel_sp);
    hart->in_kernel = 0;
    if (counting) {
      t->kernel_cycles += fw_read_mcycle() - k0;
      fw_trace(hart, RVHAL_TRACE_CALL_END, 0, 0);
    }
    if (rank == 0) t->groups += n;
  }
}

/* Whether this share's claims run in U-mode (user_loop.c): a hart alone in
 * its team (a team's claims meet in a firmware barrier), no timeline (its
 * events go to firmware memory), not privileged. */
static int user_claims(const fw_launch_t *L) {
  return !L->privileged && L->team_size == 1 && !(L->desc->flags & RVHAL_LAUNCH_TRACE);
}

/* The U-mode claim loop's state, in the kernel's block: once per share. */
static void user_loop_setup(fw_hart_t *hart, hal_sched_info_t *sched) {
  const fw_launch_t *L = hart->launch;
  const rvhal_launch_desc_t *d = L->desc;
  fw_uloop_t *u = &hart->user->loop;
  u->shared = L->shared;
  u->sched = sched;
  u->entry = L->entry;
  u->args = hart->kernel_args;
  u->chunk = (uintptr_t)d->chunk_groups;
  u->ngx = (uintptr_t)d->num_groups[0];
  u->ngy = (uintptr_t)d->num_groups[1];
  u->per_row = (uintptr_t)L->chunks_per_row;
  u->total = (uintptr_t)L->total_chunks;
  u->team = hart->index - L->base; /* teams of one */
  u->teams = L->participants;
  u->exact = (FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) != 0;
  u->counting = (d->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  u->groups = 0;
  u->kernel_cycles = 0;
  if (L->non_uniform) u->nu = L->nu;
}

/* claim_loop (or the U-mode one), with the landing place for a trapping
 * kernel. Nothing here is live across setjmp but the arguments. */
static void __attribute__((noinline)) run_protected(fw_hart_t *hart, hal_sched_info_t *sched,
                                                    volatile share_tally_t *t) {
  if (setjmp(hart->recover) == 0) {
    /* FS off (after setjmp, which saves FP registers): the kernel's first FP
     * instruction turns it on (trap.c). Whoever longjmps turns it on first. */
    const fw_launch_t *L = hart->launch;
    if (!L->privileged) {
      /* xPP = U for fw_user_call, in the same write (each CSR access ends
       * QEMU's translation block). */
      xcsr_clear(CSR_XSTATUS, XSTATUS_FS_MASK | XSTATUS_XPP_MASK);
      /* In U-mode an enabled interrupt of the firmware's mode traps at once:
       * xie = 0 for the share (team_wait turns it on while it sleeps); the
       * old value is what the share's end and a trap's unwinding restore. */
      unsigned long ie;
      __asm__ volatile("csrrw %0, " FW_STR(CSR_XIE) ", zero" : "=r"(ie)::"memory");
      fw_scratch_of(hart->index)->ie = ie;
    }
    const int non_uniform = L->non_uniform;
    if (user_claims(L)) {
      hart->in_kernel = 1;
      kernel_call(hart, &hart->user->loop, 0,
                  non_uniform ? (uintptr_t)fw_user_loop_nonuniform : (uintptr_t)fw_user_loop, hart->kernel_sp);
      hart->in_kernel = 0;
    } else if (non_uniform) {
      claim_loop_nonuniform(hart, sched, t);
    } else {
      claim_loop(hart, sched, t);
    }
  } else {
    hart->in_kernel = 0; /* the trap handler recorded why */
  }
}

/* Exact timing: a hart whose turn came sleeps ~1 us before it starts
 * counting. The hart that handed over still runs a few instructions on its
 * way to wfi; under -icount they advance the one clock every hart reads, so
 * inside this hart's span they would add cycles now and then, as QEMU's
 * time slices fall. Asleep, this hart lets them finish first. */
static void settle(fw_hart_t *hart) {
  const uint64_t until = fw_time_now() + fw_board.timebase_hz / 1000000 + 1;
  while (fw_time_now() < until) {
    fw_ipi_clear(hart->index); /* a stale IPI must not turn this into a spin */
    fw_sleep_until(hart->index, until);
  }
}

/* One hart's part of a launch. */
void fw_run_share(fw_hart_t *hart) {
  fw_launch_t *L = hart->launch;
  const rvhal_launch_desc_t *d = L->desc;
  rvhal_hart_block_t *blk = hart->block;
  const uint32_t rank = hart->index % L->team_size;
  hart->call.team_rank = rank;
  hart->call.team_size = L->team_size;
  hart->team = fw_team(hart->index - rank); /* (base is a multiple of team_size) */
  hart->call.team = &hart->team->shared;
  hart->call.launch = d;
  hart->barrier_sense = 0;
  fw_user_setup(hart); /* the kernel's copy of the call info, and its memory map */
  hal_sched_info_t *sched = &hart->user->sched;
  for (int i = 0; i < 3; i++) {
    sched->num_groups_total[i] = d->num_groups[i];
    sched->global_offset[i] = d->global_offset[i];
    sched->local_size[i] = d->local_size[i];
    sched->num_groups_per_call[i] = 1;
  }
  sched->num_dim = d->work_dim;

  const int counting = (d->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  const int exact = (FW_CTRL->boot.flags & RVHAL_BOOT_EXACT_TIMING) != 0;
  const uint32_t team = (hart->index - L->base) / L->team_size;
  uint64_t i0 = 0;
  fw_launch_tlb_flush(d->flags, &FW_CTRL->boot);
  if (exact) {
    fw_launch_wait_turn(hart, team);
    settle(hart);
  }
  blk->trace_events = 0;
  blk->trace_dropped = 0;
  if (counting) {
    memset(blk->counters, 0, sizeof(uint64_t) * RVHAL_NUM_HART_COUNTERS);
    memset(hart->user->counters, 0, sizeof hart->user->counters);
    blk->counters_seq = L->seq;
    /* VS to Initial: Dirty at the share's end says its kernel wrote vector
     * state (vector_groups; the firmware itself never does). */
    xcsr_clear(CSR_XSTATUS, XSTATUS_VS_MASK);
    xcsr_set(CSR_XSTATUS, XSTATUS_VS_INITIAL);
    i0 = fw_instret(hart);
    blk->start_cycle = fw_read_mcycle();
  }
  volatile share_tally_t tally = {0, 0};
  const int user_loop = user_claims(L);
  if (user_loop) user_loop_setup(hart, sched);
  run_protected(hart, sched, &tally);
  if (user_loop) { /* the U-mode loop's tally (kernel memory: counters only) */
    tally.groups = hart->user->loop.groups;
    tally.kernel_cycles = hart->user->loop.kernel_cycles;
  }
  xcsr_set(CSR_XSTATUS, XSTATUS_FS_INITIAL);
  xcsr_write(CSR_XIE, fw_scratch_of(hart->index)->ie);
  stack_check(hart);
  if (exact && rank == 0) fw_launch_pass_turn(team + 1);

  if (counting) {
    uint64_t *ctr = blk->counters;
    for (int i = 0; i < RVHAL_NUM_HART_COUNTERS; i++) ctr[i] += hart->user->counters[i]; /* the SDK's */
    ctr[RVHAL_HART_COUNTER_GROUPS] += tally.groups;
    ctr[RVHAL_HART_COUNTER_KERNEL_CYCLES] = tally.kernel_cycles;
    ctr[RVHAL_HART_COUNTER_INSTRET] = fw_instret(hart) - i0;
    blk->end_cycle = fw_read_mcycle();
    ctr[RVHAL_HART_COUNTER_CYCLES] = blk->end_cycle - blk->start_cycle;
    if ((xcsr_read(CSR_XSTATUS) & XSTATUS_VS_MASK) == XSTATUS_VS_MASK)
      ctr[RVHAL_HART_COUNTER_VECTOR_GROUPS] += tally.groups;
    /* FP: the share started with FS off and the kernel's first FP
     * instruction trapped (trap.c). A privileged launch keeps the FPU on and
     * the SDK resets FS each call: not measured there (0). */
    if (hart->user->call.fp_live) ctr[RVHAL_HART_COUNTER_FP_GROUPS] += tally.groups;
  }
  fw_launch_finish(hart);
}

/* Hart 0: launch `seq` (and the one after it beside it, if it may: at
 * once, or late, started by the watcher), its own share of it, then wait
 * for the others. Returns the next ring launch's seq. */
uint64_t fw_run_launch(uint64_t seq) {
  uint32_t taken;
  if (fw_launch_start(seq, &taken) != RVHAL_OK) return seq + 1;
  fw_run_share(&fw_harts[0]);
  fw_launch_wait_retired(seq);
  if (taken == 1 && fw_launch_late_pair()) taken = 2;
  if (taken == 2) fw_launch_pair_done();
  return seq + taken;
}

void fw_worker_loop(fw_hart_t *hart) {
  for (;;) {
    uintptr_t gen;
    FW_WAIT_UNTIL(hart->index, (gen = __atomic_load_n(&fw_launch_gen, __ATOMIC_ACQUIRE)) != hart->seen_gen);
    hart->seen_gen = gen;
    if (fw_launch_join(hart, gen)) {
      __asm__ volatile("fence.i" ::: "memory"); /* hart 0 may have installed a program */
      fw_run_share(hart);
    } else {
      fw_launch_watch(hart);
    }
  }
}

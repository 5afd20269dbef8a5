/* The cross-hart barrier of a team (the harts that run one work-group
 * together): an arrival counter with sense reversal. Harts that arrive
 * early sleep in wfi; the last one flips the sense and wakes them with
 * IPIs. Never a spin: under -icount a spinning hart would keep the others
 * from running at all. A hart woken because the launch was aborted (another
 * hart trapped) leaves the kernel instead of waiting forever. The teams
 * themselves (fw_team.h) are this file's. */
#include "fw.h"
#include "fw_board.h"
#include "fw_counters.h"
#include "fw_launch.h"
#include "fw_mmio.h"
#include "fw_wait.h"

static fw_team_t teams[RVHAL_MAX_HARTS];

void fw_teams_reset(uint32_t first, uint32_t n, uint32_t size) {
  for (uint32_t j = 0; j < n; j++) {
    fw_team_t *t = &teams[first + j * size];
    t->first = first + j * size;
    t->size = size;
    t->arrived = 0;
    t->sense = 0;
  }
}

fw_team_t *fw_team(uint32_t first) { return &teams[first]; }

/* Kept out of line: compiled into fw_team_barrier, its register saves ran
 * even for a hart alone in its team, at every call. */
static int __attribute__((noinline)) team_wait(const rvhal_call_info_t *ci) {
  const uint32_t size = ci->team_size;
  fw_hart_t *me = &fw_harts[ci->hart_index];
  fw_team_t *t = me->team;
  const uint32_t sense = me->barrier_sense ^ 1u;
  me->barrier_sense = sense;

  if (__atomic_add_fetch(&t->arrived, 1, __ATOMIC_ACQ_REL) == size) {
    t->arrived = 0;
    __atomic_store_n(&t->sense, sense, __ATOMIC_RELEASE);
    fw_fence();
    for (uint32_t i = t->first; i < t->first + size; i++)
      if (i != ci->hart_index) fw_wake(i, FW_WAKE_BARRIER);
    return 0;
  }
  const int counting = (ci->launch->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  const uint64_t c0 = counting ? fw_read_mcycle() : 0;
  if (counting) fw_trace(me, RVHAL_TRACE_WAIT_BEGIN, 0, 0);
  const unsigned long ie = xcsr_read(CSR_XIE); /* 0 in a U-mode share (scheduler.c): wfi needs the IPI on */
  xcsr_write(CSR_XIE, fw_scratch_of(ci->hart_index)->ie);
  FW_WAIT_UNTIL(ci->hart_index, __atomic_load_n(&t->sense, __ATOMIC_ACQUIRE) == sense ||
                                    __atomic_load_n(&me->launch->abort, __ATOMIC_ACQUIRE));
  xcsr_write(CSR_XIE, ie);
  if (__atomic_load_n(&t->sense, __ATOMIC_ACQUIRE) != sense) return 1; /* the launch failed */
  if (counting) {
    ci->counters[RVHAL_HART_COUNTER_BARRIER_WAIT_CYCLES] += fw_read_mcycle() - c0;
    fw_trace(me, RVHAL_TRACE_WAIT_END, 0, 0);
  }
  return 0;
}

int fw_team_wait(const rvhal_call_info_t *ci) { return ci->team_size > 1 ? team_wait(ci) : 0; }

/* A kernel in the firmware's mode (a privileged launch) calls this
 * directly, as does claim_loop for a team; an aborted launch leaves the
 * kernel from here. */
void fw_team_barrier(const rvhal_call_info_t *ci) {
  if (ci->team_size > 1 && team_wait(ci)) {
    fw_harts[ci->hart_index].in_kernel = 0;
    xcsr_set(CSR_XSTATUS, XSTATUS_FS_INITIAL); /* FS may be off (scheduler.c); longjmp restores FP registers */
    longjmp(fw_harts[ci->hart_index].recover, 1);
  }
}

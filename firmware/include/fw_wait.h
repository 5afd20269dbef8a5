/* How one hart waits for another, and why it was woken. A waiting hart
 * never spins (under -icount a spinning hart keeps the others from running
 * at all; without it, it steals a host core): it clears its software
 * interrupt, fences, tests its condition and sleeps in wfi; whoever makes
 * the condition true wakes it with fw_wake, naming the reason. The reasons
 * are kept per hart (fw_wake_reasons, for a debugger or a trace; apart
 * from fw_hart_t, whose size the scheduler's hot path is tuned to);
 * a waiter still tests its own condition, so a wake-up for another reason
 * only costs it one more test. */
#ifndef FW_WAIT_H
#define FW_WAIT_H

#include "fw.h"
#include "fw_board.h"
#include "fw_mmio.h"

typedef enum fw_wake_reason {
  FW_WAKE_RELEASE = 0, /* cold boot is done: warm-boot */
  FW_WAKE_ONLINE,      /* (hart 0) a hart checked in */
  FW_WAKE_LAUNCH,      /* a launch started: take part */
  FW_WAKE_BARRIER,     /* the team barrier released */
  FW_WAKE_TURN,        /* exact timing: this team's turn, or all are asleep (hart 0) */
  FW_WAKE_ABORT,       /* the launch failed: leave the kernel */
  FW_WAKE_RETIRED,     /* (hart 0) the launch is completed */
  FW_WAKE_WATCH,       /* watch the ring beside a launch (fw_launch_watch) */
} fw_wake_reason_t;

extern volatile uint32_t fw_wake_reasons[RVHAL_MAX_HARTS]; /* launch_owner.c */

static inline void fw_wake(uint32_t index, fw_wake_reason_t why) {
  __atomic_fetch_or(&fw_wake_reasons[index], 1u << why, __ATOMIC_RELAXED);
  fw_ipi_send(index);
}

/* Sleep until `cond` holds (hart `index` is the calling hart). */
#define FW_WAIT_UNTIL(index, cond) \
  do {                             \
    for (;;) {                     \
      fw_ipi_clear(index);         \
      fw_fence();                  \
      if (cond) break;             \
      fw_wfi();                    \
    }                              \
  } while (0)

/* The one timed sleep: until the timer reaches `until` (hart `index` is the
 * calling hart), or any interrupt wakes it first; one wfi, the timer off
 * again after. */
static inline void fw_sleep_until(uint32_t index, uint64_t until) {
  fw_timer_set(index, until);
  xcsr_set(CSR_XIE, XIP_TIMER);
  fw_wfi();
  xcsr_clear(CSR_XIE, XIP_TIMER);
  fw_timer_set(index, FW_TIMER_OFF);
}

#endif /* FW_WAIT_H */

/* Hart 0's ring loop: take launches from the ring. After each launch it stays
 * awake for a short, bounded while (linger), watching the ring, so that
 * back-to-back launches skip the doorbell (an interrupt through QEMU's main
 * loop costs several times what a watched ring does: docs/performance.md,
 * "Launch latency"). Then it sleeps in wfi
 * until the host's doorbell. It lingers only between launches, when the
 * other harts are asleep, never while harts wait for each other.
 * "polling" tells the host whether to ring; with a fence on each side
 * (Dekker) no launch is missed. On a board without a doorbell interrupt
 * (spike: HTIF raises none) hart 0 sleeps on its own timer instead and
 * looks at the ring each time it fires: only hart 0 wakes, never a spin.
 * The interval starts at the board's poll_ticks after a launch and doubles
 * while nothing comes, up to 1/POLL_MAX_HZ: a device left idle then costs
 * the host little (docs/performance.md, "An idle device"), at the price of
 * up to 1/POLL_MAX_HZ for the first launch after a long idle. */
#include "fw.h"
#include "fw_board.h"
#include "fw_mmio.h"
#include "fw_wait.h"

#define POLL_MAX_HZ 50 /* the longest poll interval: 20 ms */

/* A wake-up nobody sleeps for: a doorbell rung while hart 0 was already
 * awake, another hart's "retired" IPI after hart 0 saw the launch retire
 * without waiting. Left pending, it is not just harmless: while any
 * interrupt is pending QEMU takes its global lock and checks for
 * interrupts at every exit from translated code, and launches ran slower
 * (mip.MEIP left pending through a whole queue of launches:
 * docs/performance.md, "Figures behind the code's choices").
 * Reading xip costs no lock; only what is pending is cleared. */
static inline void fw_clear_stale_wakes(void) {
  const uintptr_t ip = xcsr_read(CSR_XIP);
  if (ip & XIP_SOFT) fw_ipi_clear(0);
  if (ip & XIP_EXT) fw_doorbell_ack();
}

void fw_ring_loop(fw_hart_t *hart) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  rvhal_ring_t *ring = &ctrl->ring;
  const uint64_t linger = ctrl->boot.linger_ticks;
  uint64_t next = fw_load_u64(&ring->completed) + 1;
  uint64_t linger_until = 0;
  const int polled = fw_doorbell_polled();
  const uint64_t poll_max = fw_board.timebase_hz / POLL_MAX_HZ;
  uint64_t poll = fw_board.poll_ticks;
  (void)hart;

  for (;;) {
    if (fw_load_u64(&ring->submitted) >= next) {
      ctrl->fw.polling = 1;
      fw_clear_stale_wakes();
      if (ring->slots[next % RVHAL_RING_SLOTS].desc.flags & RVHAL_LAUNCH_CMDLIST) fw_run_cmdlist(next++);
      else next = fw_run_launch(next); /* one launch, or two side by side */
      linger_until = fw_time_now() + linger;
      poll = fw_board.poll_ticks;
      continue;
    }
    if (fw_time_now() < linger_until) {
      /* Watch the ring; read the (slow, MMIO) clock only now and then. */
      for (int i = 0; i < 256 && fw_load_u64(&ring->submitted) < next; i++) {
      }
      continue;
    }
    ctrl->fw.polling = 0;
    fw_fence();
    if (fw_load_u64(&ring->submitted) >= next) continue;
    if (polled) {
      fw_sleep_until(0, fw_time_now() + poll); /* polled doorbell: the timer or an IPI wakes hart 0 */
      if (poll < poll_max) poll = poll * 2 < poll_max ? poll * 2 : poll_max;
      fw_ipi_clear(0);
      continue;
    }
    fw_wfi();
    fw_ipi_clear(0);
    fw_doorbell_ack();
  }
}

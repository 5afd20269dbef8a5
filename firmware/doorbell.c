/* Hart 0's loop: take launches from the ring. After each launch it stays
 * awake for a short, bounded while (linger), watching the ring, so that
 * back-to-back launches skip the doorbell (an interrupt through QEMU's main
 * loop costs 50-100 us here; a watched ring ~10 us). Then it sleeps in wfi
 * until the host's doorbell. It lingers only between launches, when the
 * other harts are asleep, never while harts wait for each other.
 * "polling" tells the host whether to ring; with a fence on each side
 * (Dekker) no launch is missed. */
#include "fw.h"
#include "fw_board.h"
#include "fw_mmio.h"

void fw_notify_host(void) { fw_board.host_notify(); }

void fw_doorbell_loop(fw_hart_t *hart) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  rvhal_ring_t *ring = &ctrl->ring;
  const uint64_t linger = ctrl->boot.linger_ticks;
  uint64_t next = fw_load_u64(&ring->completed) + 1;
  uint64_t linger_until = 0;
  (void)hart;

  for (;;) {
    if (fw_load_u64(&ring->submitted) >= next) {
      ctrl->fw.polling = 1;
      fw_run_launch(next++);
      linger_until = fw_board.time_now() + linger;
      continue;
    }
    if (fw_board.time_now() < linger_until) {
      /* Watch the ring; read the (slow, MMIO) clock only now and then. */
      for (int i = 0; i < 256 && fw_load_u64(&ring->submitted) < next; i++) {
      }
      continue;
    }
    ctrl->fw.polling = 0;
    fw_fence();
    if (fw_load_u64(&ring->submitted) >= next) continue;
    fw_wfi();
    fw_board.ipi_clear(0);
    fw_board.doorbell_ack();
  }
}

/* Hart 0's loop: take launches from the ring. After work it lingers for a
 * short while, checking the ring on a fast timer, so back-to-back launches
 * need no doorbell; then it sleeps until the host's doorbell interrupt.
 * "polling" tells the host which of the two it is doing; together with a
 * fence on each side (Dekker) no launch is ever missed. */
#include "fw.h"
#include "fw_board.h"
#include "fw_mmio.h"

void fw_notify_host(void) { fw_board.host_notify(); }

void fw_doorbell_loop(fw_hart_t *hart) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  rvhal_ring_t *ring = &ctrl->ring;
  const uint64_t linger = ctrl->boot.linger_ticks;
  const uint64_t poll = ctrl->boot.poll_ticks ? ctrl->boot.poll_ticks : 1;
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
    uint64_t now = fw_board.time_now();
    if (now < linger_until) {
      ctrl->fw.polling = 1;
      fw_board.timer_set(0, now + poll);
      fw_wfi();
      fw_board.ipi_clear(0);
      if (csr_read(mip) & MIP_MEIP) fw_board.doorbell_ack();
      continue;
    }
    ctrl->fw.polling = 0;
    fw_fence();
    if (fw_load_u64(&ring->submitted) >= next) continue;
    fw_board.timer_set(0, FW_TIMER_OFF);
    fw_wfi();
    fw_board.ipi_clear(0);
    fw_board.doorbell_ack();
  }
}

/* Hooks of <your board> (firmware/include/fw_board.h). Point them at the
 * drivers board.cmake lists; leave optional ones NULL. */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

static int template_init(void) {
  fw_uart_init();
  return 0;
}

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    .doorbell = FW_DOORBELL_IRQ, /* FW_DOORBELL_POLL with RVHAL_BOARD_DOORBELL_POLLED 1 */
    .poll_ticks = (uint64_t)RVHAL_BOARD_TIMEBASE_HZ / 1000000 * RVHAL_BOARD_POLL_US,
    .init = template_init,
    .hart_init = 0,  /* optional */
    .hart_start = 0, /* optional: harts not started at reset (SBI HSM: sbi_hart_start) */
    .ipi_send = clint_ipi_send,
    .ipi_clear = clint_ipi_clear,
    .time_now = clint_time_now,
    .timer_set = clint_timer_set,
    .doorbell_enable = uart_doorbell_enable, /* NULL when polled */
    .doorbell_ack = uart_doorbell_ack,       /* NULL when polled */
    .host_notify = uart_notify_host,
};

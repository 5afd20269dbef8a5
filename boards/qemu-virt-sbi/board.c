/* Hooks of virt under OpenSBI: SBI for IPIs, timer and hart start; the
 * ns16550 and the PLIC's S-mode contexts for the host link. */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

static int virt_sbi_init(void) {
  fw_uart_init();
  return 0;
}

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    .doorbell = FW_DOORBELL_IRQ,
    .init = virt_sbi_init,
    .hart_start = sbi_hart_start,
    .ipi_send = sbi_ipi_send,
    .ipi_clear = sbi_ipi_clear,
    .time_now = sbi_time_now,
    .timer_set = sbi_timer_set,
    .doorbell_enable = uart_doorbell_enable,
    .doorbell_ack = uart_doorbell_ack,
    .host_notify = uart_notify_host,
};

/* Hooks of the QEMU virt board: the generic ns16550, PLIC and CLINT drivers. */
#include "fw_board.h"
#include "fw_drivers.h"

static int virt_init(void) {
  ns16550_init();
  return 0;
}

const fw_board_t fw_board = {
    .init = virt_init,
    .hart_init = 0,
    .ipi_send = clint_ipi_send,
    .ipi_clear = clint_ipi_clear,
    .time_now = clint_time_now,
    .timer_set = clint_timer_set,
    .doorbell_enable = uart_doorbell_enable,
    .doorbell_ack = uart_doorbell_ack,
    .host_notify = uart_notify_host,
};

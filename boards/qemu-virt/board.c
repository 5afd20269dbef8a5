/* Hooks of the QEMU virt board: ns16550 UART, PLIC and CLINT drivers. */
#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

static int virt_init(void) {
  fw_uart_init();
  return 0;
}

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    .doorbell = FW_DOORBELL_IRQ,
    .init = virt_init,
    .ipi_send = clint_ipi_send,
    .ipi_clear = clint_ipi_clear,
    .time_now = clint_time_now,
    .timer_set = clint_timer_set,
    .doorbell_enable = uart_doorbell_enable,
    .doorbell_ack = uart_doorbell_ack,
    .host_notify = uart_notify_host,
};

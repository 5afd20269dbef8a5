/* Hooks of <your board>. Fill fw_board with the generic drivers of
 * firmware/drivers/ where the board has an ns16550 UART, a PLIC and a
 * CLINT, or with your own functions (e.g. a SiFive UART driver) where it
 * does not. Every hook is described in firmware/include/fw_board.h. */
#include "fw_board.h"
#include "fw_drivers.h"

static int template_init(void) {
  ns16550_init();
  return 0;
}

const fw_board_t fw_board = {
    .init = template_init,
    .hart_init = 0, /* optional: per-hart set-up (e.g. PMP, caches) */
    .ipi_send = clint_ipi_send,
    .ipi_clear = clint_ipi_clear,
    .time_now = clint_time_now,
    .timer_set = clint_timer_set,
    .doorbell_enable = uart_doorbell_enable, /* host link over ns16550 + PLIC */
    .doorbell_ack = uart_doorbell_ack,
    .host_notify = uart_notify_host,
};

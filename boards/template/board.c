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

static void template_doorbell_enable(void) {
  plic_route_to_hart(RVHAL_BOARD_UART_IRQ, RVHAL_BOARD_FIRST_HART);
  ns16550_enable_rx_irq();
}

static uint32_t template_doorbell_ack(void) {
  uint32_t src, n = 0;
  while ((src = plic_claim(RVHAL_BOARD_FIRST_HART)) != 0) {
    n += ns16550_drain_rx();
    plic_complete(RVHAL_BOARD_FIRST_HART, src);
  }
  return n + ns16550_drain_rx();
}

static void template_host_notify(void) { ns16550_putc('!'); }

const fw_board_t fw_board = {
    .name = RVHAL_BOARD_NAME,
    .init = template_init,
    .hart_init = 0, /* optional: per-hart set-up (e.g. PMP, caches) */
    .ipi_send = clint_ipi_send,
    .ipi_clear = clint_ipi_clear,
    .time_now = clint_time_now,
    .timer_set = clint_timer_set,
    .doorbell_enable = template_doorbell_enable,
    .doorbell_ack = template_doorbell_ack,
    .host_notify = template_host_notify,
};

/* The host link over the console UART (ns16550 or SiFive) whose receive
 * interrupt goes through a PLIC to the first hart: a byte from the host is
 * the doorbell, a byte to the host wakes it. The fw_board_t doorbell and
 * notify hooks of any board with these parts. */
#include "board.h"
#include "fw_drivers.h"

int uart_link_init(void) {
  fw_uart_init();
  return 0;
}

void uart_doorbell_enable(void) {
  plic_route_to_hart(RVHAL_BOARD_UART_IRQ, RVHAL_BOARD_FIRST_HART);
  fw_uart_enable_rx_irq();
}

/* Claims and completes the pending PLIC sources, draining the UART's
 * receive FIFO; returns the doorbell bytes read. */
uint32_t uart_doorbell_ack(void) {
  uint32_t src, n = 0;
  while ((src = plic_claim(RVHAL_BOARD_FIRST_HART)) != 0) {
    n += fw_uart_drain_rx();
    plic_complete(RVHAL_BOARD_FIRST_HART, src);
  }
  return n + fw_uart_drain_rx();
}

void uart_notify_host(void) { fw_uart_putc('!'); }

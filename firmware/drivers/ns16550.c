/* ns16550a UART: console output and the host doorbell (a received byte
 * raises the RX interrupt). */
#include "board.h"
#include "fw_drivers.h"
#include "fw_mmio.h"

#define REG(n) ((uintptr_t)RVHAL_BOARD_UART_BASE + ((uintptr_t)(n) << RVHAL_BOARD_UART_REG_SHIFT))
#define UART_RBR_THR 0
#define UART_IER 1
#define UART_FCR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define LSR_DR 0x01
#define LSR_THRE 0x20

void fw_uart_init(void) {
  mmio_write8(REG(UART_IER), 0x00);
  mmio_write8(REG(UART_LCR), 0x03); /* 8N1 */
  /* No FIFO: QEMU arms a receive-timeout timer in FIFO mode, and any timer
   * firing in the middle of a launch changes how -icount interleaves harts. */
  mmio_write8(REG(UART_FCR), 0x00);
  mmio_write8(REG(UART_MCR), 0x08); /* OUT2: let the interrupt out on PC-style wiring */
}

void fw_uart_enable_rx_irq(void) { mmio_write8(REG(UART_IER), 0x01); }

void fw_uart_putc(char c) {
  while (!(mmio_read8(REG(UART_LSR)) & LSR_THRE)) {
  }
  mmio_write8(REG(UART_RBR_THR), (uint8_t)c);
}

uint32_t fw_uart_drain_rx(void) {
  uint32_t n = 0;
  while (mmio_read8(REG(UART_LSR)) & LSR_DR) {
    (void)mmio_read8(REG(UART_RBR_THR));
    n++;
  }
  return n;
}

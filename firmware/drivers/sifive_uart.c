/* SiFive UART (FU540 / sifive_u): console output and the host doorbell (a
 * received byte raises the receive-watermark interrupt). */
#include "board.h"
#include "fw_drivers.h"
#include "fw_mmio.h"

#define REG(off) ((uintptr_t)RVHAL_BOARD_UART_BASE + (off))
#define TXDATA 0x00
#define RXDATA 0x04
#define TXCTRL 0x08
#define RXCTRL 0x0c
#define IE 0x10
#define DATA_FLAG (1u << 31) /* TXDATA: full; RXDATA: empty */
#define IE_RXWM 0x2

void fw_uart_init(void) {
  mmio_write32(REG(IE), 0);
  mmio_write32(REG(TXCTRL), 1); /* txen */
  mmio_write32(REG(RXCTRL), 1); /* rxen, watermark 0: any byte raises it */
}

void fw_uart_enable_rx_irq(void) { mmio_write32(REG(IE), IE_RXWM); }

void fw_uart_putc(char c) {
  while (mmio_read32(REG(TXDATA)) & DATA_FLAG) {
  }
  mmio_write32(REG(TXDATA), (uint8_t)c);
}

uint32_t fw_uart_drain_rx(void) {
  uint32_t n = 0;
  while (!(mmio_read32(REG(RXDATA)) & DATA_FLAG)) n++;
  return n;
}

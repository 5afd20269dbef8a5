/* Hooks of shakti_c: CLINT for IPIs and timers, the Shakti UART's transmit
 * register to wake the host (its own driver, here: only this board has
 * it), no doorbell interrupt (polled). */
#include <stdint.h>

#include "board.h"
#include "fw_board.h"
#include "fw_drivers.h"

#define SHAKTI_UART_TX 0x04     /* write: one byte out */
#define SHAKTI_UART_STATUS 0x0c /* bit 1: transmit FIFO full */
#define SHAKTI_UART_TX_FULL 0x2u

static void shakti_uart_notify_host(void) {
  volatile uint8_t *uart = (volatile uint8_t *)(uintptr_t)RVHAL_BOARD_UART_BASE;
  for (int spins = 0; spins < 100000 && (uart[SHAKTI_UART_STATUS] & SHAKTI_UART_TX_FULL);
       spins++) {
  }
  *(volatile uint32_t *)(uart + SHAKTI_UART_TX) = '!';
}

const fw_board_t fw_board = {
    FW_BOARD_FACTS, /* from board.h */
    FW_HOOKS_CLINT,
    .doorbell = FW_DOORBELL_POLL,
    .poll_ticks = (uint64_t)RVHAL_BOARD_TIMEBASE_HZ / 1000000 * RVHAL_BOARD_POLL_US,
    .host_notify = shakti_uart_notify_host,
};

/* What the firmware core needs from a board: data from boards/<name>/board.h
 * and these hooks, filled in by boards/<name>/board.c (usually with the
 * generic drivers in firmware/drivers/). */
#ifndef FW_BOARD_H
#define FW_BOARD_H

#include <stdint.h>

#include "board.h"
#include "fw_speed.h" /* FW_TIMER_OFF */

typedef struct fw_board {
  /* Hart 0, once, before any other hart runs: bring up UART, interrupt
   * controller, timers. Returns 0 or a negative rvhal_status_t. */
  int (*init)(void);
  /* Per hart, once, after init. Optional. */
  void (*hart_init)(uint32_t hart_index);
  /* Software interrupt to a hart (wakes it from wfi), and its clear. */
  void (*ipi_send)(uint32_t hart_index);
  void (*ipi_clear)(uint32_t hart_index);
  /* Device time in timebase ticks; per-hart timer deadline. */
  uint64_t (*time_now)(void);
  void (*timer_set)(uint32_t hart_index, uint64_t deadline);
  /* The host doorbell: make it raise hart 0's external interrupt; then, after
   * each wake-up, drain and acknowledge it (returns bytes drained). */
  void (*doorbell_enable)(void);
  uint32_t (*doorbell_ack)(void);
  /* Wake the host: it will look at the control block. */
  void (*host_notify)(void);
} fw_board_t;

extern const fw_board_t fw_board;

#endif /* FW_BOARD_H */

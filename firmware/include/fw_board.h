/* What the firmware core needs from a board, in the manner of OpenSBI's
 * sbi_platform: a versioned struct of facts and hooks, filled in by
 * boards/<name>/board.c (usually with the drivers in firmware/drivers/).
 * The core reads board facts from here or from the boot configuration the
 * host wrote, never from the board's macros, and calls the hooks through the
 * wrappers below, which skip the optional ones a board leaves NULL. */
#ifndef FW_BOARD_H
#define FW_BOARD_H

#include <stdint.h>

#include "fw_asm.h"
#include "fw_mmio.h" /* fw_csr_time */
#include "fw_speed.h" /* FW_TIMER_OFF */

#define FW_BOARD_VERSION 1

/* The facts every board states in its board.h, as fw_board_t's first
 * initialisers: `const fw_board_t fw_board = {FW_BOARD_FACTS, .doorbell =
 * ..., hooks}` (boards/template/board.c). */
#define FW_BOARD_FACTS                                                                       \
  .version = FW_BOARD_VERSION, .name = RVHAL_BOARD_NAME, .first_hart = RVHAL_BOARD_FIRST_HART, \
  .max_harts = RVHAL_BOARD_MAX_HARTS, .ram_base = RVHAL_BOARD_RAM_BASE, .timebase_hz = RVHAL_BOARD_TIMEBASE_HZ, \
  .time_csr = RVHAL_BOARD_TIME_CSR

/* How the host's doorbell reaches hart 0. */
#define FW_DOORBELL_IRQ 0  /* an external interrupt (doorbell_enable/ack) */
#define FW_DOORBELL_POLL 1 /* none: hart 0 looks at the ring on a timer */

typedef struct fw_board {
  uint32_t version;       /* FW_BOARD_VERSION */
  uint32_t first_hart;    /* hart id of hart index 0; offset pinned for start.S */
  uint32_t max_harts;     /* harts from first_hart on that may run kernels */
  uint32_t doorbell;      /* FW_DOORBELL_* */
  uint64_t ram_base;      /* guest physical address of RAM */
  uint64_t timebase_hz;   /* time_now ticks per second */
  uint64_t poll_ticks;    /* FW_DOORBELL_POLL: how often hart 0 looks */
  /* 1: the harts read device time from the time CSR (QEMU's machines have
   * it in every mode; under SBI it is always there): read inline, with no
   * MMIO and no call: an MMIO read of mtime takes QEMU's global lock (~3 per
   * launch); 0: through time_now (many real cores trap rdtime in M-mode). */
  uint32_t time_csr;
  const char *name;
  /* Optional: the boot hart, once, before any other hart runs: UART,
   * interrupt controller, timers. Returns 0 or a negative rvhal_status_t. */
  int (*init)(void);
  /* Optional: per hart, once, after init. */
  void (*hart_init)(uint32_t hart_index);
  /* Optional: start a hart that is not running (SBI HSM); M-mode boards
   * start all harts at reset and leave it NULL. */
  int (*hart_start)(uint32_t hart_index, uintptr_t entry);
  /* Required: a software interrupt to a hart (wakes it from wfi), its clear. */
  void (*ipi_send)(uint32_t hart_index);
  void (*ipi_clear)(uint32_t hart_index);
  /* Required (time_now: unless time_csr): device time in timebase ticks;
   * per-hart timer deadline. */
  uint64_t (*time_now)(void);
  void (*timer_set)(uint32_t hart_index, uint64_t deadline);
  /* FW_DOORBELL_IRQ: make the doorbell raise hart 0's external interrupt;
   * then, after each wake-up, drain and acknowledge it. */
  void (*doorbell_enable)(void);
  uint32_t (*doorbell_ack)(void);
  /* Required: wake the host: it will look at the control block. */
  void (*host_notify)(void);
} fw_board_t;

_Static_assert(__builtin_offsetof(fw_board_t, first_hart) == FW_BOARD_FIRST_HART_OFS, "start.S reads it");
_Static_assert(__builtin_offsetof(fw_board_t, max_harts) == FW_BOARD_MAX_HARTS_OFS, "start.S reads it");

extern const fw_board_t fw_board;

static inline int fw_board_init(void) { return fw_board.init ? fw_board.init() : 0; }
static inline void fw_board_hart_init(uint32_t i) {
  if (fw_board.hart_init) fw_board.hart_init(i);
}
static inline void fw_ipi_send(uint32_t i) { fw_board.ipi_send(i); }
static inline void fw_ipi_clear(uint32_t i) { fw_board.ipi_clear(i); }
static inline uint64_t fw_time_now(void) { return fw_board.time_csr ? fw_csr_time() : fw_board.time_now(); }
static inline void fw_timer_set(uint32_t i, uint64_t deadline) { fw_board.timer_set(i, deadline); }
static inline int fw_doorbell_polled(void) { return fw_board.doorbell == FW_DOORBELL_POLL; }
static inline void fw_doorbell_enable(void) {
  if (fw_board.doorbell_enable) fw_board.doorbell_enable();
}
static inline uint32_t fw_doorbell_ack(void) { return fw_board.doorbell_ack ? fw_board.doorbell_ack() : 0; }
static inline void fw_host_notify(void) { fw_board.host_notify(); }

#endif /* FW_BOARD_H */

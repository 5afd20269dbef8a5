/* MMIO accessors and CSR helpers for the firmware. */
#ifndef FW_MMIO_H
#define FW_MMIO_H

#include <stdint.h>

#include "fw_csr.h"

static inline void mmio_write8(uintptr_t addr, uint8_t v) { *(volatile uint8_t *)addr = v; }
static inline uint8_t mmio_read8(uintptr_t addr) { return *(volatile uint8_t *)addr; }
static inline void mmio_write32(uintptr_t addr, uint32_t v) { *(volatile uint32_t *)addr = v; }
static inline uint32_t mmio_read32(uintptr_t addr) { return *(volatile uint32_t *)addr; }

static inline void fw_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }
static inline void fw_fence(void) { __asm__ volatile("fence rw, rw" ::: "memory"); }

/* 64-bit counters on both XLENs (FW_CSR_CYCLE, FW_CSR_INSTRET: fw_csr.h). */

#if __riscv_xlen == 64
#define FW_READ_COUNTER64(name)                                  \
  ({                                                             \
    uint64_t v_;                                                 \
    __asm__ volatile("csrr %0, " name : "=r"(v_)::"memory");     \
    v_;                                                          \
  })
#else
#define FW_READ_COUNTER64(name)                                                   \
  ({                                                                              \
    uint32_t hi_, lo_, hi2_;                                                      \
    do {                                                                          \
      __asm__ volatile("csrr %0, " name "h" : "=r"(hi_)::"memory");               \
      __asm__ volatile("csrr %0, " name : "=r"(lo_)::"memory");                   \
      __asm__ volatile("csrr %0, " name "h" : "=r"(hi2_)::"memory");              \
    } while (hi_ != hi2_);                                                        \
    ((uint64_t)hi_ << 32) | lo_;                                                  \
  })
#endif

static inline uint64_t fw_read_mcycle(void) { return FW_READ_COUNTER64(FW_CSR_CYCLE); }
static inline uint64_t fw_read_minstret(void) { return FW_READ_COUNTER64(FW_CSR_INSTRET); }
/* The time CSR (mtime as the hart sees it), where the board has one
 * (fw_board_t.time_csr; under SBI, always). */
static inline uint64_t fw_csr_time(void) { return FW_READ_COUNTER64("time"); }

#endif /* FW_MMIO_H */

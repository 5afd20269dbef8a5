/* MMIO accessors and CSR helpers for the firmware. */
#ifndef FW_MMIO_H
#define FW_MMIO_H

#include <stdint.h>

static inline void mmio_write8(uintptr_t addr, uint8_t v) { *(volatile uint8_t *)addr = v; }
static inline uint8_t mmio_read8(uintptr_t addr) { return *(volatile uint8_t *)addr; }
static inline void mmio_write32(uintptr_t addr, uint32_t v) { *(volatile uint32_t *)addr = v; }
static inline uint32_t mmio_read32(uintptr_t addr) { return *(volatile uint32_t *)addr; }

#define csr_read(csr)                                        \
  ({                                                         \
    unsigned long v_;                                        \
    __asm__ volatile("csrr %0, " #csr : "=r"(v_)::"memory"); \
    v_;                                                      \
  })
#define csr_write(csr, val) __asm__ volatile("csrw " #csr ", %0" ::"rK"((unsigned long)(val)) : "memory")
#define csr_set(csr, val) __asm__ volatile("csrs " #csr ", %0" ::"rK"((unsigned long)(val)) : "memory")
#define csr_clear(csr, val) __asm__ volatile("csrc " #csr ", %0" ::"rK"((unsigned long)(val)) : "memory")

#define MIP_MSIP (1ul << 3)
#define MIP_MTIP (1ul << 7)
#define MIP_MEIP (1ul << 11)

static inline void fw_wfi(void) { __asm__ volatile("wfi" ::: "memory"); }
static inline void fw_fence(void) { __asm__ volatile("fence rw, rw" ::: "memory"); }

/* 64-bit counters on both XLENs. */
static inline uint64_t fw_read_mcycle(void) {
#if __riscv_xlen == 64
  return csr_read(mcycle);
#else
  uint32_t hi, lo, hi2;
  do {
    hi = csr_read(mcycleh);
    lo = csr_read(mcycle);
    hi2 = csr_read(mcycleh);
  } while (hi != hi2);
  return ((uint64_t)hi << 32) | lo;
#endif
}

static inline uint64_t fw_read_minstret(void) {
#if __riscv_xlen == 64
  return csr_read(minstret);
#else
  uint32_t hi, lo, hi2;
  do {
    hi = csr_read(minstreth);
    lo = csr_read(minstret);
    hi2 = csr_read(minstreth);
  } while (hi != hi2);
  return ((uint64_t)hi << 32) | lo;
#endif
}

#endif /* FW_MMIO_H */

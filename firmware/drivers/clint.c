/* CLINT (ACLINT MSWI + MTIMER): inter-hart interrupts and the machine timer. */
#include "board.h"
#include "fw_drivers.h"
#include "fw_mmio.h"

#define CLINT ((uintptr_t)RVHAL_BOARD_CLINT_BASE)
#define MSIP(h) (CLINT + 4u * (RVHAL_BOARD_FIRST_HART + (h)))
#define MTIMECMP(h) (CLINT + 0x4000u + 8u * (RVHAL_BOARD_FIRST_HART + (h)))
#define MTIME (CLINT + 0xbff8u)

void clint_ipi_send(uint32_t hart_index) { mmio_write32(MSIP(hart_index), 1); }
void clint_ipi_clear(uint32_t hart_index) { mmio_write32(MSIP(hart_index), 0); }

uint64_t clint_time_now(void) {
#if __riscv_xlen == 64
  return *(volatile uint64_t *)MTIME;
#else
  uint32_t hi, lo;
  do {
    hi = mmio_read32(MTIME + 4);
    lo = mmio_read32(MTIME);
  } while (hi != mmio_read32(MTIME + 4));
  return ((uint64_t)hi << 32) | lo;
#endif
}

void clint_timer_set(uint32_t hart_index, uint64_t deadline) {
#if __riscv_xlen == 64
  *(volatile uint64_t *)MTIMECMP(hart_index) = deadline;
#else
  /* Raise the high word first so no intermediate value fires early. */
  mmio_write32(MTIMECMP(hart_index) + 4, 0xffffffffu);
  mmio_write32(MTIMECMP(hart_index), (uint32_t)deadline);
  mmio_write32(MTIMECMP(hart_index) + 4, (uint32_t)(deadline >> 32));
#endif
}

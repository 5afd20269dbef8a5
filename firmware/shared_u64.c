/* 64-bit words the host and the firmware share in the control block
 * (serials, ring positions): on RV32 two halves, read and written so that
 * the reader never sees a value from the future. */
#include "fw.h"

uint64_t fw_load_u64(const volatile uint64_t *p) {
#if __riscv_xlen == 64
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#else
  const volatile uint32_t *w = (const volatile uint32_t *)p;
  uint32_t hi, lo;
  do {
    hi = w[1];
    lo = w[0];
  } while (hi != w[1]);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return ((uint64_t)hi << 32) | lo;
#endif
}

/* Stores a monotonically growing value so that a host reading it halfway
 * through (RV32: two stores) sees a value no larger than the new one. */
void fw_store_u64(volatile uint64_t *p, uint64_t v) {
#if __riscv_xlen == 64
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#else
  volatile uint32_t *w = (volatile uint32_t *)p;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  w[0] = (uint32_t)v;
  w[1] = (uint32_t)(v >> 32);
#endif
}

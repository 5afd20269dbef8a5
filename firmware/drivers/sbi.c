/* The firmware as an S-mode payload of an SBI implementation (OpenSBI):
 * IPIs, the timer and hart start are SBI calls (v0.2+ extensions IPI, TIME,
 * HSM); time is the time CSR; an IPI arrives as the supervisor software
 * interrupt, cleared in sip. */
#include "board.h"
#include "fw_drivers.h"
#include "fw_mmio.h"

#define SBI_EXT_TIME 0x54494D45
#define SBI_EXT_IPI 0x735049
#define SBI_EXT_HSM 0x48534D

typedef struct {
  long error, value;
} sbi_ret_t;

static sbi_ret_t sbi_call(unsigned long ext, unsigned long fid, unsigned long a0, unsigned long a1,
                          unsigned long a2) {
  register unsigned long r0 __asm__("a0") = a0;
  register unsigned long r1 __asm__("a1") = a1;
  register unsigned long r2 __asm__("a2") = a2;
  register unsigned long r6 __asm__("a6") = fid;
  register unsigned long r7 __asm__("a7") = ext;
  __asm__ volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r6), "r"(r7) : "memory");
  return (sbi_ret_t){(long)r0, (long)r1};
}

void sbi_ipi_send(uint32_t hart_index) {
  sbi_call(SBI_EXT_IPI, 0, 1, RVHAL_BOARD_FIRST_HART + hart_index, 0);
}

void sbi_ipi_clear(uint32_t hart_index) {
  (void)hart_index;
  xcsr_clear(CSR_XIP, XIP_SOFT);
}

/* Time: the time CSR, which an SBI implementation always provides (it
 * emulates it where the core traps rdtime); fw_time_now reads it inline. */
_Static_assert(RVHAL_BOARD_TIME_CSR, "an SBI board reads time from the time CSR: set RVHAL_BOARD_TIME_CSR 1");

/* Only for the calling hart, as SBI's set_timer; the core only ever sets
 * its own. */
void sbi_timer_set(uint32_t hart_index, uint64_t deadline) {
  (void)hart_index;
#if __riscv_xlen == 64
  sbi_call(SBI_EXT_TIME, 0, deadline, 0, 0);
#else
  sbi_call(SBI_EXT_TIME, 0, (uint32_t)deadline, (uint32_t)(deadline >> 32), 0);
#endif
}

int sbi_hart_start(uint32_t hart_index, uintptr_t entry) {
  sbi_ret_t r = sbi_call(SBI_EXT_HSM, 0, RVHAL_BOARD_FIRST_HART + hart_index, entry, 0);
  return r.error == 0 ? 0 : -1;
}

/* The firmware's services, reached the way this kernel runs: in U-mode
 * (call info without a services table) through ecall (abi/rvhal/rvhal_ecall.h),
 * otherwise through the table's function pointers. */
#include "rvhal/rvhal_ecall.h"
#include "rvhal_kernel.h"

static inline void ecall5(uintptr_t n, uintptr_t a0, uintptr_t a1, uintptr_t a2, uintptr_t a3, uintptr_t a4) {
  register uintptr_t r7 __asm__("a7") = n, r0 __asm__("a0") = a0, r1 __asm__("a1") = a1;
  register uintptr_t r2 __asm__("a2") = a2, r3 __asm__("a3") = a3, r4 __asm__("a4") = a4;
  __asm__ volatile("ecall" ::"r"(r7), "r"(r0), "r"(r1), "r"(r2), "r"(r3), "r"(r4) : "memory");
}

void rvhal_svc_team_barrier(const rvhal_call_info_t *ci) {
  if (ci->services) ci->services->team_barrier(ci);
  else ecall5(RVHAL_ECALL_TEAM_BARRIER, 0, 0, 0, 0, 0);
}

void rvhal_svc_print(const rvhal_call_info_t *ci, uint64_t item, const char *text, uint32_t len, uint32_t flags) {
  if (ci->services) ci->services->print(ci, item, text, len, flags);
  else ecall5(RVHAL_ECALL_PRINT, (uintptr_t)item, (uintptr_t)(item >> 16 >> 16), (uintptr_t)text, len, flags);
}

void rvhal_svc_fail(const rvhal_call_info_t *ci, int32_t status, const char *detail, uint64_t value) {
  if (ci->services) ci->services->fail(ci, status, detail, value);
  ecall5(RVHAL_ECALL_FAIL, (uintptr_t)(uint32_t)status, (uintptr_t)detail, (uintptr_t)value,
         (uintptr_t)(value >> 16 >> 16), 0);
  __builtin_unreachable();
}

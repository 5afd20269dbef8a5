/* The ecall ABI between a kernel in U-mode and the firmware (M- or S-mode;
 * a privileged launch runs the kernel in the firmware's mode, which calls
 * through the function pointers of rvhal_services_t). A kernel knows which
 * to use from rvhal_call_info_t.services: NULL means ecall.
 *
 * a7 holds the number, a0.. the arguments (64-bit values as two words, low
 * first, so rv32 and rv64 agree); nothing is returned and every register
 * but the arguments is preserved. Pointers a kernel passes must lie in
 * memory it may read; otherwise the launch stops with RVHAL_KERNEL_TRAP
 * naming the pointer. A kernel returns from its call by returning to the
 * address the firmware put in ra: firmware code a kernel may run but not
 * write, which makes the RVHAL_ECALL_RETURN ecall. */
#ifndef RVHAL_ABI_ECALL_H
#define RVHAL_ABI_ECALL_H

/* Sleep until every hart of the caller's team has called it. */
#define RVHAL_ECALL_TEAM_BARRIER 1
/* a0/a1 = work-item (global linear id), a2 = text, a3 = length, a4 = RVHAL_PRINT_* flags:
 * one print record for this hart's ring. */
#define RVHAL_ECALL_PRINT 2
/* a0 = the kernel's code, a1 = detail (NUL-terminated, at most 63 bytes
 * kept), a2/a3 = value: stop the launch with an error. The host reports
 * RVHAL_KERNEL_FAILED naming the code unless the code is one a kernel may
 * give as the status (rvhal_status_kernel_may_report). Does not return. */
#define RVHAL_ECALL_FAIL 3
/* Back to the firmware: what the code at the return address does (taken on
 * a short path at the trap entry). Made by a kernel itself it ends the
 * firmware's whole call into U-mode: under the U-mode claim loop, the rest
 * of this hart's share, whose groups other harts may still claim; like any
 * write to the claim page, it can only skip work of its own launch. Does
 * not return. */
#define RVHAL_ECALL_RETURN 4

#endif /* RVHAL_ABI_ECALL_H */

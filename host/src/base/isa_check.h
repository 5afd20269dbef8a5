/* Can a device's harts run a kernel? The kernel ELF's .riscv.attributes
 * (Tag_RISCV_arch, "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0") against
 * the device's ISA ("rv64imafdc"): every single-letter extension the
 * kernel was built for, and the base a multi-letter one needs (zve* -> v,
 * zfh* -> f), must be the device's. Other multi-letter extensions (zicsr,
 * zifencei, zmmul, ...) are taken as present. */
#ifndef RVHAL_HOST_ISA_CHECK_H
#define RVHAL_HOST_ISA_CHECK_H

#include <stddef.h>

/* 0 if the device runs it; else -1 with the missing extensions in
 * missing[0, cap) ("v", "fd") and, for a malformed string, why. */
int rvhal_isa_check(const char *kernel_arch, const char *device_isa, char *missing, size_t cap);

/* The single-letter extensions of an ISA string, "g" expanded, in
 * canonical order ("imafdcv"), into out (cap bytes); -1 if it is not an ISA
 * string ("rv32"/"rv64" then extensions). */
int rvhal_isa_letters(const char *isa, unsigned *out_xlen, char *out, size_t cap);

/* The kernel ABI of a device with ISA `isa`: its integer ABI and the widest
 * float ABI its harts have registers for ("lp64d" with D, "lp64f" with F
 * only, "lp64" with neither; "ilp32..." on RV32). Every kernel a device
 * loads is built for it (one kernel set per ABI, docs/kernels.md). NULL if
 * `isa` is not an ISA string. */
const char *rvhal_isa_kernel_abi(const char *isa);

/* The ABI an ELF header says its code uses: the XLEN's integer ABI and
 * e_flags' EF_RISCV_FLOAT_ABI ("lp64d", "ilp32", ...; "lp64q" for quad). */
const char *rvhal_elf_float_abi(unsigned xlen, unsigned e_flags);

#endif /* RVHAL_HOST_ISA_CHECK_H */

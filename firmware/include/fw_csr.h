/* The firmware's privilege mode in one place. The core is written against
 * "x-mode" names; an M-mode build (FW_PRIV_S undefined: the firmware owns
 * the machine) maps them to the m* CSRs, an S-mode build (FW_PRIV_S: the
 * firmware is a payload of an SBI implementation such as OpenSBI) to the
 * s* CSRs, with IPIs, timers and hart start going through SBI calls in the
 * board's drivers (drivers/sbi.c). Counters are read through the
 * unprivileged cycle/instret CSRs, which both modes may read.
 *
 * Both builds run kernels in U-mode (fw_user_call in start.S): the M-mode
 * one isolates them with PMP (isolation_pmp.c), the S-mode one with Sv39
 * page tables (isolation_pt.c); firmware/CMakeLists.txt picks the file.
 * FW_PRIV_S is tested here only. */
#ifndef FW_CSR_H
#define FW_CSR_H

#ifdef FW_PRIV_S
#define CSR_XSTATUS sstatus
#define CSR_XIE sie
#define CSR_XIP sip
#define CSR_XTVEC stvec
#define CSR_XSCRATCH sscratch
#define CSR_XEPC sepc
#define CSR_XCAUSE scause
#define CSR_XTVAL stval
#define XIP_SOFT (1ul << 1)
#define XIP_TIMER (1ul << 5)
#define XIP_EXT (1ul << 9)
#define XSTATUS_XPP_X (1ul << 8) /* sstatus.SPP = S */
#define XSTATUS_XPP_MASK (1ul << 8)
#define XSTATUS_XPIE (1ul << 5)
#define XRET sret
#define FW_PRIV_NAME "S"
#define FW_CSR_CYCLE "cycle" /* the unprivileged shadows: S-mode may read them */
#define FW_CSR_INSTRET "instret"
#define FW_START_HARTID      /* SBI passes the hart id in a0 */
#define FW_HAS_SFENCE 1      /* by definition */
#else
#define CSR_XSTATUS mstatus
#define CSR_XIE mie
#define CSR_XIP mip
#define CSR_XTVEC mtvec
#define CSR_XSCRATCH mscratch
#define CSR_XEPC mepc
#define CSR_XCAUSE mcause
#define CSR_XTVAL mtval
#define XIP_SOFT (1ul << 3)
#define XIP_TIMER (1ul << 7)
#define XIP_EXT (1ul << 11)
#define XSTATUS_XPP_X (3ul << 11) /* mstatus.MPP = M */
#define XSTATUS_XPP_MASK (3ul << 11)
#define XSTATUS_XPIE (1ul << 7)
#define XRET mret
#define FW_PRIV_NAME "M"
#define FW_CSR_CYCLE "mcycle"
#define FW_CSR_INSTRET "minstret"
#define FW_START_HARTID csrr a0, mhartid
#define FW_HAS_SFENCE 0      /* only if the hart has S-mode: misa */
#endif
/* mstatus.FS and sstatus.FS are the same field. Firmware built without F
 * (a board whose RVHAL_BOARD_ISA has no F, boards/qemu-virt-imac) runs only
 * soft-float kernels: it never turns FS on (QEMU keeps the field read-only
 * zero on such harts) and has no lazy-FP trap (trap.c). */
#ifdef __riscv_flen
#define FW_HAS_FP 1
#define XSTATUS_FS_INITIAL (1ul << 13)
#else
#define FW_HAS_FP 0
#define XSTATUS_FS_INITIAL 0ul
#endif
#define XSTATUS_FS_MASK (3ul << 13)
/* mstatus.VS and sstatus.VS: read-only zero on harts without V. */
#define XSTATUS_VS_INITIAL (1ul << 9)
#define XSTATUS_VS_MASK (3ul << 9) /* also Dirty */

#define FW_CAUSE_ECALL_U 8 /* xcause of an ecall from U-mode (both firmware modes) */

#ifndef __ASSEMBLER__
/* Expand the x-mode name first, then stringize it. */
#define FW_STR_(x) #x
#define FW_STR(x) FW_STR_(x)
#define xcsr_read(csr)                                              \
  ({                                                                \
    unsigned long v_;                                               \
    __asm__ volatile("csrr %0, " FW_STR(csr) : "=r"(v_)::"memory"); \
    v_;                                                             \
  })
#define xcsr_write(csr, val) __asm__ volatile("csrw " FW_STR(csr) ", %0" ::"rK"((unsigned long)(val)) : "memory")
#define xcsr_set(csr, val) __asm__ volatile("csrs " FW_STR(csr) ", %0" ::"rK"((unsigned long)(val)) : "memory")
#define xcsr_clear(csr, val) __asm__ volatile("csrc " FW_STR(csr) ", %0" ::"rK"((unsigned long)(val)) : "memory")

/* Whether sfence.vma exists here (misa is M-mode's to read). */
static inline int fw_has_sfence(void) { return FW_HAS_SFENCE || (xcsr_read(misa) & (1ul << ('S' - 'A'))) != 0; }

#endif

#endif /* FW_CSR_H */

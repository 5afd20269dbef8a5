/* Reset entry for every hart, the trap entry, and two stack switches.
 * Each hart gets a small boot stack from its index, which later serves as
 * its trap stack (xscratch), then enters fw_hart_entry(index, hartid).
 * M-mode: every hart starts here at reset; the hart id is mhartid. S-mode
 * (under an SBI firmware): the boot hart starts here, the others when it
 * starts them through SBI HSM; the hart id arrives in a0. A hart outside
 * the board's range (sifive_u's E51 monitor core: no FPU) parks before it
 * touches any FP state. */
#include "fw_asm.h"
#include "fw_csr.h"
#include "rvhal/rvhal_ecall.h"
#include "rvhal/rvhal_protocol.h"

  .section .text.start, "ax", @progbits
  .globl _start
_start:
  csrw CSR_XIE, zero
  FW_START_HARTID           /* a0 = hart id */
  mv s1, a0                 /* s1 = hart id */
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  la t0, fw_trap_entry
  csrw CSR_XTVEC, t0
  la t2, fw_board
  lw t1, FW_BOARD_FIRST_HART_OFS(t2)
  sub a0, a0, t1            /* a0 = hart index */
  li t1, RVHAL_MAX_HARTS
  bgeu a0, t1, fw_park
  lw t1, FW_BOARD_MAX_HARTS_OFS(t2)
  bgeu a0, t1, fw_park
#ifdef __riscv_flen
  li t0, XSTATUS_FS_INITIAL /* kernels may use the FPU */
  csrs CSR_XSTATUS, t0
  csrw fcsr, zero
#endif
  /* Kernels may use the vector unit (RVV); on harts without V the field
   * stays zero. Left on: the firmware's own code touches no vector state,
   * and no vector register survives a call (psABI), so a barrier's context
   * switch has none to save. */
  li t0, XSTATUS_VS_INITIAL
  csrs CSR_XSTATUS, t0
  mv tp, zero
  la sp, fw_boot_stacks
  addi t0, a0, 1
  li t1, FW_BOOT_STACK_SIZE
  mul t0, t0, t1
  add sp, sp, t0
  addi sp, sp, -FW_SCRATCH_SIZE /* the scratch, then the stack below it */
  sw a0, FW_SCRATCH_INDEX_OFS(sp)
  sw s1, FW_SCRATCH_HARTID_OFS(sp)
  REG_S zero, FW_SCRATCH_HART_OFS(sp)
  csrw CSR_XSCRATCH, sp
  mv a1, s1
  call fw_hart_entry
  .globl fw_park
fw_park:
  csrw CSR_XIE, zero
1:
  wfi
  j 1b

/* Traps: switch to this hart's trap stack, save every register, call C. */
  .section .text, "ax", @progbits
  .align 4
  .globl fw_trap_entry
fw_trap_entry:
  csrrw sp, CSR_XSCRATCH, sp
  /* Fast path: a U-mode kernel returning, i.e. fw_user_return's ecall
   * (RVHAL_ECALL_RETURN in a7), goes straight back to the firmware's
   * fw_user_call. An ecall, not a fault: no page walk, no PMP check, and
   * the number is in a register, not a CSR (each CSR access ends QEMU's
   * translation block). */
  REG_S t0, FW_SCRATCH_T0_OFS(sp)
  csrr t0, CSR_XCAUSE
  addi t0, t0, -FW_CAUSE_ECALL_U
  bnez t0, 2f
  REG_S t1, FW_SCRATCH_T1_OFS(sp)
  li t1, RVHAL_ECALL_RETURN
  bne a7, t1, 1f
  csrw CSR_XSCRATCH, sp
  REG_L ra, FW_SCRATCH_RA_OFS(sp)
  REG_L sp, FW_SCRATCH_FWSP_OFS(sp)
  .option push
  .option norelax
  la gp, __global_pointer$
  .option pop
  ret
1:
  REG_L t1, FW_SCRATCH_T1_OFS(sp)
2:
  REG_L t0, FW_SCRATCH_T0_OFS(sp)
  addi sp, sp, -(FW_TRAP_FRAME_WORDS * SZREG)
  REG_S x1, 1*SZREG(sp)
  REG_S x3, 3*SZREG(sp)
  REG_S x4, 4*SZREG(sp)
  REG_S x5, 5*SZREG(sp)
  REG_S x6, 6*SZREG(sp)
  REG_S x7, 7*SZREG(sp)
  REG_S x8, 8*SZREG(sp)
  REG_S x9, 9*SZREG(sp)
  REG_S x10, 10*SZREG(sp)
  REG_S x11, 11*SZREG(sp)
  REG_S x12, 12*SZREG(sp)
  REG_S x13, 13*SZREG(sp)
  REG_S x14, 14*SZREG(sp)
  REG_S x15, 15*SZREG(sp)
  REG_S x16, 16*SZREG(sp)
  REG_S x17, 17*SZREG(sp)
  REG_S x18, 18*SZREG(sp)
  REG_S x19, 19*SZREG(sp)
  REG_S x20, 20*SZREG(sp)
  REG_S x21, 21*SZREG(sp)
  REG_S x22, 22*SZREG(sp)
  REG_S x23, 23*SZREG(sp)
  REG_S x24, 24*SZREG(sp)
  REG_S x25, 25*SZREG(sp)
  REG_S x26, 26*SZREG(sp)
  REG_S x27, 27*SZREG(sp)
  REG_S x28, 28*SZREG(sp)
  REG_S x29, 29*SZREG(sp)
  REG_S x30, 30*SZREG(sp)
  REG_S x31, 31*SZREG(sp)
  csrr t0, CSR_XSCRATCH
  REG_S t0, 2*SZREG(sp)
  .option push
  .option norelax
  la gp, __global_pointer$  /* the kernel may have its own gp */
  .option pop
  mv a0, sp
  call fw_trap_handler
  /* Resume the interrupted code. */
  addi t0, sp, FW_TRAP_FRAME_WORDS * SZREG
  csrw CSR_XSCRATCH, t0
  REG_L x1, 1*SZREG(sp)
  REG_L x3, 3*SZREG(sp)
  REG_L x4, 4*SZREG(sp)
  REG_L x5, 5*SZREG(sp)
  REG_L x6, 6*SZREG(sp)
  REG_L x7, 7*SZREG(sp)
  REG_L x8, 8*SZREG(sp)
  REG_L x9, 9*SZREG(sp)
  REG_L x10, 10*SZREG(sp)
  REG_L x11, 11*SZREG(sp)
  REG_L x12, 12*SZREG(sp)
  REG_L x13, 13*SZREG(sp)
  REG_L x14, 14*SZREG(sp)
  REG_L x15, 15*SZREG(sp)
  REG_L x16, 16*SZREG(sp)
  REG_L x17, 17*SZREG(sp)
  REG_L x18, 18*SZREG(sp)
  REG_L x19, 19*SZREG(sp)
  REG_L x20, 20*SZREG(sp)
  REG_L x21, 21*SZREG(sp)
  REG_L x22, 22*SZREG(sp)
  REG_L x23, 23*SZREG(sp)
  REG_L x24, 24*SZREG(sp)
  REG_L x25, 25*SZREG(sp)
  REG_L x26, 26*SZREG(sp)
  REG_L x27, 27*SZREG(sp)
  REG_L x28, 28*SZREG(sp)
  REG_L x29, 29*SZREG(sp)
  REG_L x30, 30*SZREG(sp)
  REG_L x31, 31*SZREG(sp)
  REG_L x2, 2*SZREG(sp)
  XRET

/* void fw_call_on_stack(void *arg, void (*fn)(void *), uintptr_t stack_top) */
  .globl fw_call_on_stack
fw_call_on_stack:
  mv sp, a2
  la ra, fw_park
  jr a1

/* void fw_trap_leave_to(uintptr_t trap_stack_top, void (*fn)(void))
 * Leave trap context for fn, in the firmware's mode, on the trap stack. */
  .globl fw_trap_leave_to
fw_trap_leave_to:
  csrw CSR_XSCRATCH, a0
  csrw CSR_XEPC, a1
  mv sp, a0
  li t0, XSTATUS_XPP_X
  csrs CSR_XSTATUS, t0
  /* Interrupts stay off in the firmware: xRET copies xPIE into xIE, and a
   * trap from U-mode left the kernel's (1) there. */
  li t0, XSTATUS_XPIE
  csrc CSR_XSTATUS, t0
  XRET

/* void fw_user_call(void *args, hal_sched_info_t *sched, uintptr_t entry, uintptr_t user_sp,
 *                   fw_scratch_t *scratch)
 * Enter the kernel in U-mode with ra pointing at fw_user_return, whose
 * ecall the trap entry turns into this function's return. Only sp and gp survive it (the caller declares
 * every other register clobbered, so that only its live values are saved,
 * and nothing the kernel left in a register is trusted). The caller has set
 * xie = 0 (an enabled interrupt would trap in U-mode at once) and
 * xPP = U (every xRET leaves it so). */
  .globl fw_user_call
fw_user_call:
  /* a4: this hart's scratch, what xscratch holds (a CSR read would end
   * QEMU's translation block) */
  REG_S sp, FW_SCRATCH_FWSP_OFS(a4)
  REG_S ra, FW_SCRATCH_RA_OFS(a4)
  csrw CSR_XEPC, a2
  la ra, fw_user_return
  mv sp, a3
  XRET

/* void fw_priv_call(void *args, hal_sched_info_t *sched, uintptr_t entry, uintptr_t user_sp)
 * A kernel call in the firmware's own mode, on the kernel's stack. */
  .globl fw_priv_call
fw_priv_call:
  addi sp, sp, -16*SZREG
  REG_S ra, 0*SZREG(sp)
  REG_S s0, 1*SZREG(sp)
  mv s0, sp
  mv sp, a3
  jalr a2
  mv sp, s0
  REG_L ra, 0*SZREG(sp)
  REG_L s0, 1*SZREG(sp)
  addi sp, sp, 16*SZREG
  ret

/* The address a U-mode kernel returns to: on the page of firmware code
 * U-mode may run but not write (.usertext, with the U-mode claim loop). */
  .pushsection .usertext, "ax", @progbits
  .globl fw_user_return
  .align 2
fw_user_return:
  li a7, RVHAL_ECALL_RETURN
  ecall
  .popsection

  .section .noinit.stacks, "aw", @nobits
  .align 4
  .globl fw_main_stacks
fw_main_stacks:
  .space FW_MAIN_STACK_SIZE * RVHAL_MAX_HARTS

  .section .noinit.stacks, "aw", @nobits
  .align 4
  .globl fw_boot_stacks
fw_boot_stacks:
  .space FW_BOOT_STACK_SIZE * RVHAL_MAX_HARTS

/* Work-item context switches (barrier.c). A context is ra, sp, s0 and s1
 * (rvhal_context_t): where and on which stack the item resumes, and the
 * registers compilers may use as frame and base pointer.
 *
 * rvhal_barrier_enter is what barrier() calls from the kernel, through an
 * asm that tells the compiler every register but sp, s0, s1, gp and tp is
 * clobbered (kernel_if.h): the compiler keeps across the barrier only what
 * the kernel still needs, on the item's own stack, and a switch here
 * saves nothing but ra, sp, s0 and s1. Anything beyond a switch (the group's
 * first barrier, the last item of a round, divergence) goes to C,
 * rvhal_barrier_slow, which switches with rvhal_context_switch: that one
 * keeps its C caller's callee-saved integer registers on the stack and
 * resumes through them. Either kind of switch resumes either kind of
 * context. Offsets: context_offsets.h. */
#include "context_offsets.h"

#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define LW_U lwu
#else
#define REG_S sw
#define REG_L lw
#define LW_U lw
#endif

  .text
  .align 2
  /* a0 = the item's exec_state_t (its own, not the kernel's copy). */
  .globl rvhal_barrier_enter
  .type rvhal_barrier_enter, @function
rvhal_barrier_enter:
  REG_L t0, RVHAL_E_GROUP(a0)
  lw t1, RVHAL_G_FAST(t0)
  lw t2, RVHAL_E_LAST(a0)
  beqz t1, 1f
  bnez t2, 1f
  lw t1, RVHAL_G_WAITING(t0)
  REG_L t3, RVHAL_E_CTX(a0)
  REG_L t4, RVHAL_E_NEXT_CTX(a0)
  addi t1, t1, 1
  sw t1, RVHAL_G_WAITING(t0)
  REG_S ra, 0*SZREG(t3)
  REG_S sp, 1*SZREG(t3)
  REG_S s0, 2*SZREG(t3)
  REG_S s1, 3*SZREG(t3)
  REG_L ra, 0*SZREG(t4)
  REG_L sp, 1*SZREG(t4)
  REG_L s0, 2*SZREG(t4)
  REG_L s1, 3*SZREG(t4)
  ret
1:
  tail rvhal_barrier_slow
  .size rvhal_barrier_enter, .-rvhal_barrier_enter

  /* void rvhal_context_switch(rvhal_context_t *from, rvhal_context_t *to),
   * from C: ra and s2-s11 kept on this stack until the switch back. */
  .globl rvhal_context_switch
  .type rvhal_context_switch, @function
rvhal_context_switch:
  addi sp, sp, -12*SZREG
  REG_S ra, 0*SZREG(sp)
  REG_S s2, 2*SZREG(sp)
  REG_S s3, 3*SZREG(sp)
  REG_S s4, 4*SZREG(sp)
  REG_S s5, 5*SZREG(sp)
  REG_S s6, 6*SZREG(sp)
  REG_S s7, 7*SZREG(sp)
  REG_S s8, 8*SZREG(sp)
  REG_S s9, 9*SZREG(sp)
  REG_S s10, 10*SZREG(sp)
  REG_S s11, 11*SZREG(sp)
  lla t0, 2f
  REG_S t0, 0*SZREG(a0)
  REG_S sp, 1*SZREG(a0)
  REG_S s0, 2*SZREG(a0)
  REG_S s1, 3*SZREG(a0)
  REG_L ra, 0*SZREG(a1)
  REG_L sp, 1*SZREG(a1)
  REG_L s0, 2*SZREG(a1)
  REG_L s1, 3*SZREG(a1)
  ret
2:
  REG_L ra, 0*SZREG(sp)
  REG_L s2, 2*SZREG(sp)
  REG_L s3, 3*SZREG(sp)
  REG_L s4, 4*SZREG(sp)
  REG_L s5, 5*SZREG(sp)
  REG_L s6, 6*SZREG(sp)
  REG_L s7, 7*SZREG(sp)
  REG_L s8, 8*SZREG(sp)
  REG_L s9, 9*SZREG(sp)
  REG_L s10, 10*SZREG(sp)
  REG_L s11, 11*SZREG(sp)
  addi sp, sp, 12*SZREG
  ret
  .size rvhal_context_switch, .-rvhal_context_switch

  /* void rvhal_context_resume(const rvhal_context_t *to): an item that
   * returned hands over; its own context is never resumed. */
  .globl rvhal_context_resume
  .type rvhal_context_resume, @function
rvhal_context_resume:
  REG_L ra, 0*SZREG(a0)
  REG_L sp, 1*SZREG(a0)
  REG_L s0, 2*SZREG(a0)
  REG_L s1, 3*SZREG(a0)
  ret
  .size rvhal_context_resume, .-rvhal_context_resume

/* First code of a new work-item context: s0 holds its rvhal_fiber_t. */
  .globl rvhal_fiber_entry
  .type rvhal_fiber_entry, @function
rvhal_fiber_entry:
  mv a0, s0
  jal ra, rvhal_fiber_main
1:
  j 1b
  .size rvhal_fiber_entry, .-rvhal_fiber_entry

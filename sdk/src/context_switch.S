/* The work-item context switch of C code (barrier.c). A context is ra, sp,
 * s0 and s1 (rvhal_context_t): where and on which stack the item resumes,
 * and the registers compilers may use as frame and base pointer.
 *
 * barrier() switches inline, in the kernel (kernel_if.h), saving nothing
 * but those four: its asm told the compiler every other register is lost.
 * Anything beyond that switch (the group's first barrier, the last item
 * of a round, the end of a group) is C, in barrier.c, which switches here:
 * this one keeps its C caller's callee-saved integer registers on the
 * stack and resumes through them. Either kind of switch resumes either
 * kind of context, and every switch jumps with a0 = the context it
 * resumes: a fresh one takes it as its rvhal_fiber_t (RVHAL_FIBER_FN_). */
#if __riscv_xlen == 64
#define SZREG 8
#define REG_S sd
#define REG_L ld
#else
#define SZREG 4
#define REG_S sw
#define REG_L lw
#endif

  .text
  .align 2
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
  mv a0, a1
  REG_L ra, 0*SZREG(a0)
  REG_L sp, 1*SZREG(a0)
  REG_L s0, 2*SZREG(a0)
  REG_L s1, 3*SZREG(a0)
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

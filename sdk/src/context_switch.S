/* void rvhal_context_switch(rvhal_context_t *from, rvhal_context_t *to)
 * Saves the callee-saved integer state of the running work-item into *from
 * and resumes the one in *to. The FP registers are saved and restored apart
 * (rvhal_fp_save/restore), only when needed (barrier.c). Layout: ra, sp,
 * s0-s11, then fs0-fs11 (8 bytes each); see rvhal_context_t. */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define SZREG 8
#else
#define REG_S sw
#define REG_L lw
#define SZREG 4
#endif
#define FS_OFS (14 * SZREG)

  .text
  .align 2
  .globl rvhal_context_switch
  .type rvhal_context_switch, @function
rvhal_context_switch:
  REG_S ra, 0*SZREG(a0)
  REG_S sp, 1*SZREG(a0)
  REG_S s0, 2*SZREG(a0)
  REG_S s1, 3*SZREG(a0)
  REG_S s2, 4*SZREG(a0)
  REG_S s3, 5*SZREG(a0)
  REG_S s4, 6*SZREG(a0)
  REG_S s5, 7*SZREG(a0)
  REG_S s6, 8*SZREG(a0)
  REG_S s7, 9*SZREG(a0)
  REG_S s8, 10*SZREG(a0)
  REG_S s9, 11*SZREG(a0)
  REG_S s10, 12*SZREG(a0)
  REG_S s11, 13*SZREG(a0)
  REG_L ra, 0*SZREG(a1)
  REG_L sp, 1*SZREG(a1)
  REG_L s0, 2*SZREG(a1)
  REG_L s1, 3*SZREG(a1)
  REG_L s2, 4*SZREG(a1)
  REG_L s3, 5*SZREG(a1)
  REG_L s4, 6*SZREG(a1)
  REG_L s5, 7*SZREG(a1)
  REG_L s6, 8*SZREG(a1)
  REG_L s7, 9*SZREG(a1)
  REG_L s8, 10*SZREG(a1)
  REG_L s9, 11*SZREG(a1)
  REG_L s10, 12*SZREG(a1)
  REG_L s11, 13*SZREG(a1)
  ret
  .size rvhal_context_switch, .-rvhal_context_switch

#if defined(__riscv_flen) && __riscv_flen >= 64
  .globl rvhal_fp_save
  .type rvhal_fp_save, @function
rvhal_fp_save:
  fsd fs0, FS_OFS+0*8(a0)
  fsd fs1, FS_OFS+1*8(a0)
  fsd fs2, FS_OFS+2*8(a0)
  fsd fs3, FS_OFS+3*8(a0)
  fsd fs4, FS_OFS+4*8(a0)
  fsd fs5, FS_OFS+5*8(a0)
  fsd fs6, FS_OFS+6*8(a0)
  fsd fs7, FS_OFS+7*8(a0)
  fsd fs8, FS_OFS+8*8(a0)
  fsd fs9, FS_OFS+9*8(a0)
  fsd fs10, FS_OFS+10*8(a0)
  fsd fs11, FS_OFS+11*8(a0)
  ret
  .size rvhal_fp_save, .-rvhal_fp_save

  .globl rvhal_fp_restore
  .type rvhal_fp_restore, @function
rvhal_fp_restore:
  fld fs0, FS_OFS+0*8(a0)
  fld fs1, FS_OFS+1*8(a0)
  fld fs2, FS_OFS+2*8(a0)
  fld fs3, FS_OFS+3*8(a0)
  fld fs4, FS_OFS+4*8(a0)
  fld fs5, FS_OFS+5*8(a0)
  fld fs6, FS_OFS+6*8(a0)
  fld fs7, FS_OFS+7*8(a0)
  fld fs8, FS_OFS+8*8(a0)
  fld fs9, FS_OFS+9*8(a0)
  fld fs10, FS_OFS+10*8(a0)
  fld fs11, FS_OFS+11*8(a0)
  ret
  .size rvhal_fp_restore, .-rvhal_fp_restore
#elif defined(__riscv_flen)
#error "rvhal SDK: single-precision-only FPU configurations are not supported"
#endif

/* First code of a new work-item context: s0 holds its rvhal_fiber_t. */
  .globl rvhal_fiber_entry
  .type rvhal_fiber_entry, @function
rvhal_fiber_entry:
  mv a0, s0
  call rvhal_fiber_main
1:
  j 1b
  .size rvhal_fiber_entry, .-rvhal_fiber_entry

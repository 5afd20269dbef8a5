/* Constants shared by the firmware's C and assembly. */
#ifndef FW_ASM_H
#define FW_ASM_H

#define FW_BOOT_STACK_SIZE 2048 /* start-up, then trap handling, per hart */

/* Per-hart scratch (fw_scratch_t, fw.h), in the top bytes of each hart's
 * boot stack, just above its trap stack: xscratch holds its address while
 * the hart runs outside a trap, as OpenSBI's sbi_scratch. start.S fills it
 * in at these offsets. */
#define FW_SCRATCH_SIZE 64
#define FW_SCRATCH_INDEX_OFS 0  /* uint32_t hart index */
#define FW_SCRATCH_HARTID_OFS 4 /* uint32_t hart id (mhartid, or a0 from SBI) */
#define FW_SCRATCH_HART_OFS 8   /* fw_hart_t *, set by boot.c */
/* M-mode, while a kernel runs in U-mode (fw_user_call, start.S): */
#define FW_SCRATCH_FWSP_OFS 16  /* the firmware's sp to return to */
#define FW_SCRATCH_IE_OFS 24    /* mie to restore after the share (U-mode runs with mie = 0) */
#define FW_SCRATCH_T0_OFS 32    /* the trap entry's first two temporaries */
#define FW_SCRATCH_T1_OFS 40
#define FW_SCRATCH_RA_OFS 48    /* fw_user_call's return address */
/* The stack each hart's firmware loop runs on (firmware memory: kernels run
 * on the hart stacks of the layout, and cannot reach this one). */
#define FW_MAIN_STACK_SIZE 8192
#define FW_TRAP_FRAME_WORDS 32  /* x0..x31; slot 2 holds the interrupted sp */

/* Offsets into fw_board_t (fw_board.h) that start.S reads. */
#define FW_BOARD_FIRST_HART_OFS 4
#define FW_BOARD_MAX_HARTS_OFS 8

#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define SZREG 8
#else
#define REG_S sw
#define REG_L lw
#define SZREG 4
#endif

#endif /* FW_ASM_H */

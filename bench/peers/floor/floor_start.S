/* Reset entry of the floor (floor.c): every hart turns its FPU on, gets
 * its stack from its hart id and calls floor_main(hartid) in M-mode; no
 * trap handling (a trap jumps to 0 and the host's read times out). */
  .section .text.start, "ax"
  .globl _start
_start:
  li t0, 0x6000           /* mstatus.FS: the FPU on (the float kernels) */
  csrs mstatus, t0
  csrw mtvec, zero
  csrr a0, mhartid
  li t0, 8                /* FLOOR_MAX_HARTS */
  bgeu a0, t0, 2f
  la sp, floor_stacks
  li t0, 65536            /* FLOOR_STACK */
  addi t1, a0, 1
  mul t1, t1, t0
  add sp, sp, t1
  call floor_main
2:
  wfi
  j 2b

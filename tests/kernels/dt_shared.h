/* Constants shared by the device-test kernels (tests/kernels/dt_*.c, built
 * for the device) and their host tests (tests/device/): written once
 * here, included from both sides. Fixed-width types only. */
#ifndef RVHAL_TEST_DT_SHARED_H
#define RVHAL_TEST_DT_SHARED_H

#include <stdint.h>

/* dt_args.c / args.c: each work-item's slice of `out`, and where in it the
 * raw argument struct is copied. */
#define ARGS_SLICE 1024u
#define ARGS_RAW_AT 512u

/* dt_ndrange.c / ndrange.c: uint64_t fields per work-item record, and the
 * value of field 26 in every record written. */
#define NDR_FIELDS 31
#define NDR_MAGIC 0x6e6472616e67654eull
/* dt_ndrange.c's ndrange_local: rounds of write, barrier, read per item. */
#define NDR_LOCAL_ROUNDS 3u

/* dt_trap.c / trap.c: info[2] once the faulting item reached its fault. */
#define TRAP_REACHED 0x7261707465737421ull
#define TRAP_INFO_FAULT_ADDR 5 /* info[5]: where trap_load / trap_store fault (the board's fault_addr) */

/* dt_prog_a.c: prog_a_affine's .rodata table and .data bias (the kernel
 * keeps its own copies in those sections: the test checks they are its
 * own). out[i] = prog_a_formula(in[i], k, table[i % 8], bias). */
#define PROG_A_TABLE {0x11u, 0x22u, 0x33u, 0x44u, 0x55u, 0x66u, 0x77u, 0x88u}
#define PROG_A_BIAS 1000u

static inline uint32_t prog_a_formula(uint32_t in, uint32_t k, uint32_t table_entry, uint32_t bias) {
  return in * 3u + k + table_entry + bias;
}

/* dt_prog_b.c (variant 1) and dt_prog_b2.c (variant 2): prog_b_mix's table
 * and bias. out[i] = prog_b_formula(in[i], k, table[i % 8], bias). */
#define PROG_B_TABLE(variant) {0x9000u * (variant), 0xa000u, 0xb000u, 0xc000u, 0xd000u, 0xe000u, 0xf000u, 0x1000u}
#define PROG_B_BIAS(variant) (6u + (variant))

static inline uint32_t prog_b_formula(uint32_t in, uint32_t k, uint32_t table_entry, uint32_t bias) {
  return ((in ^ k) + table_entry) * bias;
}

/* What the host expects: prog_a_affine, and prog_b_mix of dt_prog_b. */
static inline uint32_t want_a(uint32_t in, uint32_t k, uint32_t i) {
  static const uint32_t table[8] = PROG_A_TABLE;
  return prog_a_formula(in, k, table[i % 8], PROG_A_BIAS);
}

static inline uint32_t want_b(uint32_t in, uint32_t k, uint32_t i) {
  static const uint32_t table[8] = PROG_B_TABLE(1);
  return prog_b_formula(in, k, table[i % 8], PROG_B_BIAS(1));
}

/* dt_hostile.c / hostile.c: what hostile_act does (its `what` argument). */
#define HOSTILE_FORGE_COMPLETION 1 /* forged completion record: fault_hart = value, then spins */
#define HOSTILE_PRINT_HEAD 2       /* its print ring's head = value, then spins */
#define HOSTILE_PRINT_LOOP 3       /* print() for ever */
#define HOSTILE_WIPE_STAGING 4     /* every staged program overwritten with `value` bytes */
#define HOSTILE_BOOT_CONFIG 5      /* the boot configuration's program_size = 0 */
#define HOSTILE_SPIN 6             /* never returns */
#define HOSTILE_ECALL 7            /* traps: ecall with a7 = -1, no service (mcause 8 from U-mode, 11 from M) */
#define HOSTILE_EBREAK 8           /* breakpoint (3) */
#define HOSTILE_JUMP_WILD 9        /* jumps to address 0x10 (instruction access fault, 1) */
#define HOSTILE_AMO_MISALIGNED 10  /* AMO on an odd address (store/AMO address misaligned, 6) */
#define HOSTILE_DIVERGE 11         /* every item but local id 0 calls barrier() */
#define HOSTILE_PRINT_ONCE 12      /* item 0 prints "hostile <value>" and returns */
#define HOSTILE_STACK_BOTTOM 13    /* a `value`-byte stack array touched only at its bottom */
#define HOSTILE_WIPE_FIRMWARE 14   /* the firmware's first `value` bytes zeroed */
#define HOSTILE_WIPE_CTRL 15       /* the control block after the boot configuration zeroed */
#define HOSTILE_WIPE_STACKS 16     /* every other hart's stack zeroed */
#define HOSTILE_FIBER_STACK 17     /* after a barrier, local id 1 (on a work-item stack) does HOSTILE_STACK_BOTTOM */
#define HOSTILE_LAYOUT 18          /* (privileged) marks[0..35] = firmware, control block, staging, stacks base,
                                      hart stack size, harts, then the rest of the boot configuration's
                                      layout (HOSTILE_LAYOUT_*): 64-bit values as two words, low first */
#define HOSTILE_LAYOUT_VALUES 18
#define HOSTILE_LOAD_AT 24         /* item 0 loads one word at address `value` (into marks[0]) */
#define HOSTILE_STORE_AT 19        /* item 0 stores one word at address `value` */
#define HOSTILE_ECALL_PRINT_AT 20  /* (U-mode) the print ecall with 16 bytes of text at address `value` */
#define HOSTILE_READ_STATUS 21     /* reads sstatus (privileged state: illegal instruction in U-mode, 2) */
#define HOSTILE_FAIL_CODE 22       /* item 0 calls the SDK's fail with code (int32_t)value, "hostile fail", 0x1234 */
#define HOSTILE_FORGE_FIELD 23     /* (privileged) a forged completion record, then spins: value 1 seq + 7,
                                      2 status (int32_t)(value >> 32) on hart 0, 3 end_mtime before start_mtime */
#define HOSTILE_MARK_STACK 25      /* each group's hart fills its stack below its sp with RESIDUE_MARK
                                      (value: stacks base | hart stack size / 64 KiB), and the work-item
                                      stacks of its pool the group's items may use */
#define RESIDUE_MARK 0x52455349u   /* "RESI": a word a later program must not find */
#define HOSTILE_SP_BELOW 26        /* item 0 stores one word `value` bytes below its sp: a frame not probed
                                      (built without -fstack-clash-protection), written only at its bottom */
#define HOSTILE_DIVERGE_LATE 27    /* every item calls barrier() twice, but in the launch's last group local
                                      id `value` calls it once (after groups that ran as contexts) */

#endif /* RVHAL_TEST_DT_SHARED_H */

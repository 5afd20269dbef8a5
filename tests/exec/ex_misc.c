/* Execution-model tests (tests/exec/): a loop of a known instruction count,
 * print volume and order, and initialised __local_variable storage. */
#include "test_kernel.h"

/* ex_asm_loop: `n` iterations of a two-instruction loop (addi, bnez), in
 * inline assembly so that the compiler can neither change nor remove it:
 * mv + beqz + 2n instructions, so launches with n and 0 differ by exactly
 * 2n instructions. out[0] = what is left of the counter (0). */
typedef struct {
  __global uintptr_t *out;
  uintptr_t n;
} ex_asm_loop_args;

static void ex_asm_loop_item(const ex_asm_loop_args *a, exec_state_t *e) {
  (void)e;
  uintptr_t left;
  __asm__ volatile("mv %0, %1\n"
                   "beqz %0, 2f\n"
                   "1: addi %0, %0, -1\n"
                   "bnez %0, 1b\n"
                   "2:\n"
                   : "=&r"(left)
                   : "r"(a->n));
  a->out[0] = left;
}

RVHAL_KERNEL(ex_asm_loop, ex_asm_loop_args, ex_asm_loop_item, RVHAL_GLOBAL(out), RVHAL_VALUE(n))

/* ex_print_lines: every item prints `lines` lines of 40 characters:
 * "V item=IIIII line=LLLLL sum=SSSSSSSSSS.." with a checksum of the two
 * numbers, no barrier. */
typedef struct {
  uint lines;
} ex_print_lines_args;

static void ex_print_lines_item(const ex_print_lines_args *a, exec_state_t *e) {
  uint id = (uint)global_linear(e);
  for (uint l = 0; l < a->lines; l++) print(e, "V item=%05u line=%05u sum=%010u..\n", id, l, id * 100003u + l * 7u);
}

RVHAL_KERNEL(ex_print_lines, ex_print_lines_args, ex_print_lines_item, RVHAL_VALUE(lines))

/* ex_print_phases: `phases` phases separated by barriers; in each, every
 * item prints one line "P group=G phase=P item=I". */
typedef struct {
  uint phases;
} ex_print_phases_args;

static void ex_print_phases_item(const ex_print_phases_args *a, exec_state_t *e) {
  uint g = (uint)group_linear(e);
  uint id = (uint)global_linear(e);
  for (uint p = 0; p < a->phases; p++) {
    if (p) barrier(e);
    print(e, "P group=%u phase=%u item=%u\n", g, p, id);
  }
}

RVHAL_KERNEL(ex_print_phases, ex_print_phases_args, ex_print_phases_item, RVHAL_VALUE(phases))

/* ex_init: an initialised __local_variable must hold its initial value at
 * the start of every group, whatever the previous group did to it.
 * mode 0 (no barrier): each item takes a ticket from `seven` with an
 * atomic increment: a group's items must get 7 .. 7+n-1, each once.
 * mode 1 (barriers): every item reads `seven` (7 expected), fills its slot
 * of a local buffer; item 0 then sets `seven` to 1000 + group, and every
 * item reads that back and checks its slot. out has 2 uints per item:
 * mode 0: ticket, 0; mode 1: first read, second read (or ~0 if the local
 * buffer slot was overwritten). */
typedef struct {
  __global uint *out;
  uintptr_t tile; /* local buffer: n uints */
  uint mode;
} ex_init_args;

static void ex_init_item(const ex_init_args *a, exec_state_t *e) {
  __local_variable uint seven = 7;
  __local_variable uint pad[3] = {1, 2, 3}; /* more initialised data around it */
  volatile uint *sv = &seven;
  __local volatile uint *tile = rvhal_local_arg(e, 0);
  const uint lid = (uint)get_local_linear_id(e);
  const uint g = (uint)group_linear(e);
  __global uint *o = a->out + 2 * global_linear(e);
  if (a->mode == 0) {
    o[0] = atomic_inc(&seven);
    o[1] = pad[0] + pad[1] + pad[2] - 6; /* 0 */
    return;
  }
  tile[lid] = 0xC0DE0000u ^ lid ^ g << 12;
  uint first = *sv;
  barrier(e);
  if (lid == 0) *sv = 1000 + g;
  barrier(e);
  uint second = *sv;
  if (tile[lid] != (0xC0DE0000u ^ lid ^ g << 12)) second = ~0u;
  o[0] = first;
  o[1] = second;
}

RVHAL_KERNEL(ex_init, ex_init_args, ex_init_item, RVHAL_GLOBAL(out), RVHAL_LOCAL(tile), RVHAL_VALUE(mode))

/* ex_fp: uses the FPU (leaves mstatus.FS dirty): out[i] = i * scale + 0.5. */
typedef struct {
  __global float *out;
  float scale;
} ex_fp_args;

static void ex_fp_item(const ex_fp_args *a, exec_state_t *e) {
  size_t i = global_linear(e);
  a->out[i] = (float)i * a->scale + 0.5f;
}

RVHAL_KERNEL(ex_fp, ex_fp_args, ex_fp_item, RVHAL_GLOBAL(out), RVHAL_VALUE(scale))

/* Device tests: program B of tests/device/programs.c: other tables and
 * another formula than program A. dt_prog_b2.c builds the same code with
 * other constants (PROG_B_VARIANT), so both programs have their kernels at
 * the same addresses. */
#include "dt_shared.h"
#include "kernel_if.h"

#ifndef PROG_B_VARIANT
#define PROG_B_VARIANT 1
#endif

static const uint prog_b_table[8] = PROG_B_TABLE(PROG_B_VARIANT);
static volatile uint prog_b_bias = PROG_B_BIAS(PROG_B_VARIANT); /* .data */

typedef struct {
  __global uint *out;
  __global const uint *in;
  uint k;
} prog_b_args;

static void prog_b_item(const prog_b_args *a, exec_state_t *e) {
  size_t i = get_global_id(0, e);
  a->out[i] = prog_b_formula(a->in[i], a->k, prog_b_table[i % 8], prog_b_bias);
}

RVHAL_KERNEL(prog_b_mix, prog_b_args, prog_b_item, RVHAL_GLOBAL(out), RVHAL_GLOBAL(in), RVHAL_VALUE(k))

/* A second kernel, so B has more than one. */
typedef struct {
  __global uint *out;
  uint v;
} prog_b_fill_args;

static void prog_b_fill_item(const prog_b_fill_args *a, exec_state_t *e) {
  size_t i = get_global_id(0, e);
  a->out[i] = a->v + (uint)i;
}

RVHAL_KERNEL(prog_b_fill, prog_b_fill_args, prog_b_fill_item, RVHAL_GLOBAL(out), RVHAL_VALUE(v))

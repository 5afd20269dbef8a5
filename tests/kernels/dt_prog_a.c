/* Device tests: program A of tests/device/programs.c (and the good kernels
 * of tests/device/errors.c). Its results depend on its own .rodata and
 * .data, so running with another program's data installed shows. */
#include "dt_shared.h"
#include "kernel_if.h"

static const uint prog_a_table[8] = PROG_A_TABLE;
static volatile uint prog_a_bias = PROG_A_BIAS; /* .data */

typedef struct {
  __global uint *out;
  __global const uint *in;
  uint k;
} prog_a_args;

static void prog_a_item(const prog_a_args *a, exec_state_t *e) {
  size_t i = get_global_id(0, e);
  a->out[i] = prog_a_formula(a->in[i], a->k, prog_a_table[i % 8], prog_a_bias);
}

RVHAL_KERNEL(prog_a_affine, prog_a_args, prog_a_item, RVHAL_GLOBAL(out), RVHAL_GLOBAL(in), RVHAL_VALUE(k))

/* Uses a local buffer: out[i] = sum over the group of in[j] * (j - group start + 1). */
typedef struct {
  __global uint *out;
  __global const uint *in;
  uintptr_t tile; /* local buffer of local_size uints at least */
} prog_a_local_args;

static void prog_a_local_item(const prog_a_local_args *a, exec_state_t *e) {
  __local uint *t = rvhal_local_arg(e, 0);
  size_t lid = get_local_id(0, e), n = get_local_size(0, e), i = get_global_id(0, e);
  t[lid] = a->in[i] * (uint)(lid + 1);
  barrier(e);
  uint s = 0;
  for (size_t j = 0; j < n; j++) s += t[j];
  a->out[i] = s;
}

RVHAL_KERNEL(prog_a_local, prog_a_local_args, prog_a_local_item, RVHAL_GLOBAL(out), RVHAL_GLOBAL(in), RVHAL_LOCAL(tile))

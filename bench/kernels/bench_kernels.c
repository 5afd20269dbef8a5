/* Kernels for rvhal-bench. */
#include "kernel_if.h"

/* A work-item that does nothing: all it costs is the runtime's. */
typedef struct {
  uint unused;
} nothing_args;

static void nothing_item(const nothing_args *a, exec_state_t *e) {
  (void)a;
  (void)e;
}

RVHAL_KERNEL(bench_nothing, nothing_args, nothing_item, RVHAL_VALUE(unused))

/* `rounds` barriers per work-item and nothing else. */
typedef struct {
  uint rounds;
} barriers_args;

static void barriers_item(const barriers_args *a, exec_state_t *e) {
  for (uint i = 0; i < a->rounds; i++) barrier(e);
}

RVHAL_KERNEL(bench_barriers, barriers_args, barriers_item, RVHAL_VALUE(rounds))

/* vector_add through the SDK: one element per work-item. */
typedef struct {
  __global const uint *a, *b;
  __global uint *c;
} vadd_args;

static void vadd_item(const vadd_args *p, exec_state_t *e) {
  size_t i = get_global_id(0, e);
  p->c[i] = p->a[i] + p->b[i];
}

RVHAL_KERNEL(bench_vadd, vadd_args, vadd_item, RVHAL_GLOBAL(a), RVHAL_GLOBAL(b), RVHAL_GLOBAL(c))

/* The same loop straight on the ABI entry, without the SDK: each group is
 * a contiguous slice of `per_group` elements. The baseline for the SDK's
 * cost. RVHAL_KERNEL_META declares its arguments, so launches are checked. */
void bench_vadd_direct(void *args, const hal_sched_info_t *sched);

typedef struct {
  __global const uint *a, *b;
  __global uint *c;
  uint64_t per_group; /* packed as an 8-byte value: 8-aligned on RV32 too */
} vadd_direct_args;

RVHAL_KERNEL_META(bench_vadd_direct, vadd_direct_args, RVHAL_GLOBAL(a), RVHAL_GLOBAL(b), RVHAL_GLOBAL(c),
                  RVHAL_VALUE(per_group))

void bench_vadd_direct(void *args, const hal_sched_info_t *sched) {
  const vadd_direct_args *p = args;
  const size_t per_group = (size_t)p->per_group;
  for (size_t g = 0; g < sched->num_groups_per_call[0]; g++) {
    size_t start = (sched->group_id_start[0] + g) * per_group;
    for (size_t i = start; i < start + per_group; i++) p->c[i] = p->a[i] + p->b[i];
  }
}

/* `rounds` rounds of `work` steps of arithmetic, a barrier after each round
 * (none when rounds is 0: then `work` steps once): work between barriers
 * against barriers, for choosing how many harts share a group. */
typedef struct {
  __global uint *out;
  uint work, rounds;
} work_args;

static void work_item(const work_args *a, exec_state_t *e) {
  uint acc = (uint)get_global_id(0, e);
  uint rounds = a->rounds ? a->rounds : 1;
  for (uint r = 0; r < rounds; r++) {
    for (uint i = 0; i < a->work; i++) acc = acc * 1664525u + 1013904223u;
    if (a->rounds) barrier(e);
  }
  a->out[get_global_id(0, e)] = acc;
}

RVHAL_KERNEL(bench_work, work_args, work_item, RVHAL_GLOBAL(out), RVHAL_VALUE(work), RVHAL_VALUE(rounds))

/* Scalar twins of tests/kernels/rvv_ops.c (same arguments, same chunk per
 * work-item), built by GCC 12, which does not vectorize for RVV: rvhal-bench
 * rvv compares them with the vector kernels on the same device. */
__kernel void scalar_vadd(__global uint *a, __global uint *b, __global uint *c, uint per_item, exec_state_t *e) {
  size_t at = (size_t)get_global_id(0, e) * per_item;
  for (uint i = 0; i < per_item; i++) c[at + i] = a[at + i] + b[at + i];
}
RVHAL_KERNEL_ENTRY(scalar_vadd, RVHAL_GLOBAL(uint *, a), RVHAL_GLOBAL(uint *, b), RVHAL_GLOBAL(uint *, c),
                   RVHAL_VALUE(uint, per_item))

__kernel void scalar_saxpy(float alpha, __global float *x, __global float *y, uint per_item, exec_state_t *e) {
  size_t at = (size_t)get_global_id(0, e) * per_item;
  for (uint i = 0; i < per_item; i++) y[at + i] = __builtin_fmaf(alpha, x[at + i], y[at + i]);
}
RVHAL_KERNEL_ENTRY(scalar_saxpy, RVHAL_VALUE(float, alpha), RVHAL_GLOBAL(float *, x), RVHAL_GLOBAL(float *, y),
                   RVHAL_VALUE(uint, per_item))

__kernel void scalar_vredsum(__global uint *in, __global uint *out, uint per_item, exec_state_t *e) {
  size_t item = get_global_id(0, e), at = item * per_item;
  uint sum = 0;
  for (uint i = 0; i < per_item; i++) sum += in[at + i];
  out[item] = sum;
}
RVHAL_KERNEL_ENTRY(scalar_vredsum, RVHAL_GLOBAL(uint *, in), RVHAL_GLOBAL(uint *, out), RVHAL_VALUE(uint, per_item))

__kernel void scalar_matmul(__global float *A, __global float *B, __global float *C, uint n, exec_state_t *e) {
  size_t r = get_global_id(0, e);
  for (size_t j = 0; j < n; j++) {
    float acc = 0.0f;
    for (size_t k = 0; k < n; k++) acc = __builtin_fmaf(A[r * n + k], B[k * n + j], acc);
    C[r * n + j] = acc;
  }
}
RVHAL_KERNEL_ENTRY(scalar_matmul, RVHAL_GLOBAL(float *, A), RVHAL_GLOBAL(float *, B), RVHAL_GLOBAL(float *, C),
                   RVHAL_VALUE(uint, n))

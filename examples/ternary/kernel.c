/* ternary: per element, a select and a nested ternary expression:
 *   out[i]     = cond[i] ? a[i] : b[i]
 *   clamped[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]) */
#include "kernel_if.h"

__kernel void ternary(__global int *cond, __global float *a, __global float *b, __global float *out, __global int *x,
                      __global int *clamped, int lo, int hi, exec_state_t *ctx) {
  size_t i = get_global_id(0, ctx);
  out[i] = cond[i] ? a[i] : b[i];
  clamped[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
}

typedef struct {
  __global int *cond;
  __global float *a;
  __global float *b;
  __global float *out;
  __global int *x;
  __global int *clamped;
  int lo;
  int hi;
} ternary_args;

static void ternary_item(const ternary_args *p, exec_state_t *e) {
  ternary(p->cond, p->a, p->b, p->out, p->x, p->clamped, p->lo, p->hi, e);
}

RVHAL_KERNEL(ternary_entry, ternary_args, ternary_item, RVHAL_GLOBAL(cond), RVHAL_GLOBAL(a), RVHAL_GLOBAL(b), RVHAL_GLOBAL(out), RVHAL_GLOBAL(x), RVHAL_GLOBAL(clamped), RVHAL_VALUE(lo), RVHAL_VALUE(hi))

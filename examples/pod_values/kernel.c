/* pod_values: POD arguments of every size, in an order that needs padding
 * between them (char, int64, short, a 24-byte struct, int, float, double),
 * combined into one integer and one floating-point result per work-item.
 * Work-item 0 also writes back each value as it arrived. */
#include "kernel_if.h"
#include "pod_values.h"

__kernel void pod_values(__global int64_t *out_i, signed char c, int64_t l, short s, pod_triple_t t, int i, float f,
                         double d, __global double *out_f, __global pod_echo_t *echo, exec_state_t *ctx) {
  size_t g = get_global_id(0, ctx);
  out_i[g] = l + (int64_t)c * (int64_t)g + (int64_t)s * 3 + (int64_t)i * (int64_t)(g & 7) + t.a + t.d;
  /* f * g rounds to float before the double additions: no step can be fused,
   * so the host's same expression gives the same bits. */
  float fg = f * (float)g;
  out_f[g] = ((d + (double)fg) + t.c) + (double)t.b;
  if (g == 0) {
    echo->l = l;
    echo->d = d;
    echo->t = t;
    echo->i = i;
    echo->f = f;
    echo->s = s;
    echo->c = c;
  }
}

typedef struct {
  __global int64_t *out_i;
  signed char c;
  int64_t l;
  short s;
  RVHAL_PACKED_ARG(pod_triple_t) t;
  int i;
  float f;
  double d;
  __global double *out_f;
  __global pod_echo_t *echo;
} pod_values_args;

static void pod_values_item(const pod_values_args *a, exec_state_t *e) {
  pod_values(a->out_i, a->c, a->l, a->s, a->t, a->i, a->f, a->d, a->out_f, a->echo, e);
}

RVHAL_KERNEL(pod_values_entry, pod_values_args, pod_values_item, RVHAL_GLOBAL(out_i), RVHAL_VALUE(c), RVHAL_VALUE(l), RVHAL_VALUE(s), RVHAL_VALUE(t), RVHAL_VALUE(i), RVHAL_VALUE(f), RVHAL_VALUE(d), RVHAL_GLOBAL(out_f), RVHAL_GLOBAL(echo))

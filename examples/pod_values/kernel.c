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

/* Values of every size, a 24-byte struct aligned to 32 in the pack: the
 * generated argument struct aligns each value as the pack does. */
RVHAL_KERNEL_ENTRY(pod_values, RVHAL_GLOBAL(int64_t *, out_i), RVHAL_VALUE(signed char, c), RVHAL_VALUE(int64_t, l),
                   RVHAL_VALUE(short, s), RVHAL_VALUE(pod_triple_t, t), RVHAL_VALUE(int, i), RVHAL_VALUE(float, f),
                   RVHAL_VALUE(double, d), RVHAL_GLOBAL(double *, out_f), RVHAL_GLOBAL(pod_echo_t *, echo))

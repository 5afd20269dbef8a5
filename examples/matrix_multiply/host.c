/* matrix_multiply (2-D, naive): C (48x80) = A (48x40) x B (40x80), floats in
 * [-1, 1], one work-item per element of C in square groups. Each element is
 * checked against a double-precision host product: the device sums in float
 * (and its compiler may fuse the multiply-adds), so the tolerance is the
 * float rounding bound (k + 2) * FLT_EPSILON * sum |a * b|. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define M 48 /* rows of A and C */
#define K 40 /* columns of A, rows of B */
#define N 80 /* columns of B and C */

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  hal_program_t prog;
  hal_kernel_t kern;
  int rc = example_load(ctx, "matrix_multiply", "matrix_multiply_entry", &prog, &kern, summary, cap);
  if (rc) return rc;
  const uint32_t local = ctx->local_size ? ctx->local_size : 8;
  const uint32_t m = example_round_up(M, local), n = example_round_up(N, local), k = K;
  float *a = malloc((size_t)m * k * 4), *b = malloc((size_t)k * n * 4), *c = malloc((size_t)m * n * 4);
  uint32_t seed = 19;
  hal_addr_t da = 0, db = 0, dc = 0;
  if (!a || !b || !c) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < (size_t)m * k; i++) a[i] = (float)((double)example_rand(&seed) / 2147483648.0 - 1.0);
  for (size_t i = 0; i < (size_t)k * n; i++) b[i] = (float)((double)example_rand(&seed) / 2147483648.0 - 1.0);
  const float nan_marker = __builtin_nanf("");
  if ((rc = rvhal_mem_alloc(ctx->dev, (size_t)m * k * 4, 0, &da)) ||
      (rc = rvhal_mem_alloc(ctx->dev, (size_t)k * n * 4, 0, &db)) ||
      (rc = rvhal_mem_alloc(ctx->dev, (size_t)m * n * 4, 0, &dc)) ||
      (rc = rvhal_mem_write(ctx->dev, da, a, (size_t)m * k * 4)) ||
      (rc = rvhal_mem_write(ctx->dev, db, b, (size_t)k * n * 4)) ||
      (rc = rvhal_mem_fill(ctx->dev, dc, &nan_marker, 4, (size_t)m * n * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_arg_t args[6] = {rvhal_arg_global(da),          rvhal_arg_global(db),          rvhal_arg_global(dc),
                       rvhal_arg_value(&m, sizeof m), rvhal_arg_value(&k, sizeof k), rvhal_arg_value(&n, sizeof n)};
  hal_ndrange_t nd = {.global = {n, m, 1}, .local = {local, local, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, kern, &nd, args, 6, 2, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, c, dc, (size_t)m * n * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  size_t bad = 0;
  double worst = 0; /* largest error as a fraction of its tolerance */
  for (uint32_t row = 0; row < m; row++)
    for (uint32_t col = 0; col < n; col++) {
      double ref = 0, mag = 0;
      for (uint32_t i = 0; i < k; i++) {
        double p = (double)a[(size_t)row * k + i] * b[(size_t)i * n + col];
        ref += p;
        mag += fabs(p);
      }
      const double tol = (k + 2) * (double)FLT_EPSILON * mag;
      const double got = c[(size_t)row * n + col], err = fabs(got - ref);
      if (!(err <= tol)) {
        if (bad++ == 0)
          snprintf(summary, cap, "C[%u][%u] = %.9g, expected %.9g (error %.3g > tolerance %.3g)", row, col, got, ref,
                   err, tol);
      } else if (tol > 0 && err / tol > worst) {
        worst = err / tol;
      }
    }
  if (bad) {
    size_t len = strlen(summary);
    snprintf(summary + len, cap - len, "; %zu of %u elements", bad, m * n);
    rc = -1;
  } else {
    snprintf(summary, cap, "2-D, %ux%u = %ux%u * %ux%u in groups of %ux%u", m, n, m, k, k, n, local, local);
    if (ctx->verbose) printf("    matrix_multiply: largest error %.2f of its tolerance\n", worst);
  }
out:
  rvhal_mem_free(ctx->dev, da);
  rvhal_mem_free(ctx->dev, db);
  rvhal_mem_free(ctx->dev, dc);
  rvhal_program_free(ctx->dev, prog);
  free(a);
  free(b);
  free(c);
  return rc;
}

const example_t example_matrix_multiply = {"matrix_multiply", "C = A x B, naive, 48x40 by 40x80 floats (2-D)", run};

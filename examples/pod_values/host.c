/* pod_values: a kernel taking POD values of 1, 2, 4, 8 and 24 bytes (signed
 * char, short, int, int64, float, double and a struct) between global
 * buffers; 480 work-items combine them, and work-item 0 echoes them back.
 * Everything is checked exactly: the floating-point expression has no step
 * the device compiler could fuse, so host and device round alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pod_values.h"
#include "example.h"

#define N 480

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 16, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "pod_values", "pod_values_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t n = example_round_up(N, local);
  const signed char c = -7;
  const int64_t l = -(INT64_C(1) << 40) + 12345;
  const short s = -12345;
  const pod_triple_t t = {.a = -42, .b = 0.25f, .c = -1e10 + 0.5, .d = INT64_C(0x123456789a)};
  const int i = 123456789;
  const float f = 0.3f;
  const double d = 2.718281828459045;
  int64_t *out_i = malloc((size_t)n * 8);
  double *out_f = malloc((size_t)n * 8);
  pod_echo_t echo;
  hal_addr_t di = 0, df = 0, de = 0;
  if (!out_i || !out_f) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  const uint8_t ff = 0xff;
  if ((rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)n * 8, 0, &di)) ||
      (rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)n * 8, 0, &df)) ||
      (rc = rvhal_mem_alloc(ctx->dev, sizeof echo, 0, &de)) || (rc = rvhal_mem_fill(ctx->dev, di, &ff, 1, (hal_size_t)n * 8)) ||
      (rc = rvhal_mem_fill(ctx->dev, df, &ff, 1, (hal_size_t)n * 8)) || (rc = rvhal_mem_fill(ctx->dev, de, &ff, 1, sizeof echo))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_arg_t args[10] = {rvhal_arg_global(di), rvhal_arg_value(&c, 1), rvhal_arg_value(&l, 8),
                        rvhal_arg_value(&s, 2), rvhal_arg_value(&t, sizeof t), rvhal_arg_value(&i, 4),
                        rvhal_arg_value(&f, 4), rvhal_arg_value(&d, 8), rvhal_arg_global(df),
                        rvhal_arg_global(de)};
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 10, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, out_i, di, (hal_size_t)n * 8)) ||
      (rc = rvhal_mem_read(ctx->dev, out_f, df, (hal_size_t)n * 8)) || (rc = rvhal_mem_read(ctx->dev, &echo, de, sizeof echo))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  /* The values as received first: a wrong one says which argument broke. */
  rc = -1;
  if (echo.c != c) snprintf(summary, cap, "signed char arrived as %d, sent %d", echo.c, c);
  else if (echo.s != s) snprintf(summary, cap, "short arrived as %d, sent %d", echo.s, s);
  else if (echo.i != i) snprintf(summary, cap, "int arrived as %d, sent %d", echo.i, i);
  else if (echo.l != l) snprintf(summary, cap, "int64 arrived as %lld, sent %lld", (long long)echo.l, (long long)l);
  else if (memcmp(&echo.f, &f, 4)) snprintf(summary, cap, "float arrived as %.9g, sent %.9g", echo.f, f);
  else if (memcmp(&echo.d, &d, 8)) snprintf(summary, cap, "double arrived as %.17g, sent %.17g", echo.d, d);
  else if (echo.t.a != t.a || memcmp(&echo.t.b, &t.b, 4) || memcmp(&echo.t.c, &t.c, 8) || echo.t.d != t.d)
    snprintf(summary, cap, "24-byte struct arrived as {%d, %.9g, %.17g, %lld}, sent {%d, %.9g, %.17g, %lld}", echo.t.a,
             echo.t.b, echo.t.c, (long long)echo.t.d, t.a, t.b, t.c, (long long)t.d);
  else rc = 0;
  if (rc) goto out;
  size_t bad = 0;
  for (uint32_t g = 0; g < n; g++) {
    int64_t wi = l + (int64_t)c * (int64_t)g + (int64_t)s * 3 + (int64_t)i * (int64_t)(g & 7) + t.a + t.d;
    volatile float fg = f * (float)g; /* rounded to float, as on the device */
    double wf = ((d + (double)fg) + t.c) + (double)t.b;
    if (out_i[g] != wi && bad++ == 0)
      snprintf(summary, cap, "out_i[%u] = %lld, expected %lld", g, (long long)out_i[g], (long long)wi);
    if (memcmp(&out_f[g], &wf, 8) && bad++ == 0)
      snprintf(summary, cap, "out_f[%u] = %.17g, expected %.17g", g, out_f[g], wf);
  }
  if (bad) {
    size_t len = strlen(summary);
    snprintf(summary + len, cap - len, "; %zu values differ", bad);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, %u items in groups of %u; 7 POD values", n, local);
  }
out:
  rvhal_mem_free(ctx->dev, di);
  rvhal_mem_free(ctx->dev, df);
  rvhal_mem_free(ctx->dev, de);
  rvhal_program_free(ctx->dev, prog);
  free(out_i);
  free(out_f);
  return rc;
}

const example_t example_pod_values = {"pod_values", "POD arguments of 1, 2, 4, 8 and 24 bytes combined per item",
                                      run};

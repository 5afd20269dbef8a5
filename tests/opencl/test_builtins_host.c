/* The OpenCL C built-in library on the host: sdk/opencl/builtins/ (*.cl) and
 * the test driver compiled by clang-16 for x86-64, called directly, checked
 * against long double / exact references (clt_check.c).
 *   test_opencl_builtins [family] [math samples]
 * family: math, convert, half, integer, other (default: all). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clt_check.h"

/* The library calls fdlibm's __kernel_tan, which picolibc's libc has and
 * glibc does not: here in long double (the device tests use picolibc's). */
double __kernel_tan(double x, double y, int k);
double __kernel_tan(double x, double y, int k) {
  long double t = tanl((long double)x + y);
  return (double)(k == 1 ? t : -1 / t);
}

static int host_run(void *ctx, int32_t op, const int32_t p[4], void *const in[CLT_MAX_IN],
                    void *const out[CLT_MAX_OUT], uint32_t n) {
  (void)ctx;
  return clt_dispatch(op, p, in, out, 0, n);
}

int main(int argc, char **argv) {
  clt_options_t o = {.math_samples = 4800, .samples = 960, .all_widths = 1, .half_stride = 1, .verbose = 1};
  if (argc > 1 && argv[1][0] != '-') o.only = argv[1];
  if (argc > 2) o.math_samples = (uint32_t)strtoul(argv[2], NULL, 0);
  return clt_check_all(host_run, NULL, &o) ? 1 : 0;
}

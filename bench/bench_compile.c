/* rvhal-bench section "compile": OpenCL C to a kernel ELF
 * (rvhal_opencl_compile), the step every clBuildProgram from source and
 * every `rvhal cc` takes. Programs: the peers' four kernels and
 * bench_opencl.cl (small: what a build costs beyond starting tools), and a
 * math kernel of the CTS's test_bruteforce shape (exp on float4, the
 * built-in library's code linked in). Each build twice, alternately: with
 * the compiler's LLVM process (started by the first build, then kept, as
 * in any program that builds more than once) and with the tools alone
 * (RVHAL_LLVM_SERVER=0: llvm-link, opt and llc each time); wall-time
 * medians. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"
#include "rvhal/rvhal.h"

static const char math_kernel[] =
    "__kernel void math_kernel4(__global float4 *out, __global float4 *in) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = exp(in[i]);\n"
    "}\n"
    "__kernel void math_kernel(__global float *out, __global float *in) {\n"
    "  size_t i = get_global_id(0);\n"
    "  out[i] = exp(in[i]);\n"
    "}\n";

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
    free(s);
    s = NULL;
  }
  if (s) s[n] = '\0';
  fclose(f);
  return s;
}

/* Builds src `runs` times each way; prints the medians. 0, or -1 when a build failed. */
static int one(const char *name, const char *src, uint32_t xlen, int runs) {
  double *wall[2] = {calloc((size_t)runs, sizeof(double)), calloc((size_t)runs, sizeof(double))};
  const char *old = getenv("RVHAL_LLVM_SERVER");
  char *saved = old ? strdup(old) : NULL;
  int rc = wall[0] && wall[1] ? 0 : -1;
  for (int r = 0; r < runs && !rc; r++)
    for (int tools = 0; tools < 2 && !rc; tools++) {
      if (tools) setenv("RVHAL_LLVM_SERVER", "0", 1);
      else if (saved) setenv("RVHAL_LLVM_SERVER", saved, 1);
      else unsetenv("RVHAL_LLVM_SERVER");
      rvhal_opencl_compile_desc_t d = {src, 0, name, NULL, xlen, NULL};
      void *elf = NULL;
      size_t size = 0;
      char *log = NULL;
      double t0 = bench_now_us();
      int st = rvhal_opencl_compile(&d, &elf, &size, &log);
      wall[tools][r] = (bench_now_us() - t0) / 1e3;
      if (st) {
        printf("compile %-26s failed: %s: %s\n", name, rvhal_status_name(st), rvhal_last_error());
        rc = -1;
      }
      free(elf);
      free(log);
    }
  if (saved) setenv("RVHAL_LLVM_SERVER", saved, 1);
  else unsetenv("RVHAL_LLVM_SERVER");
  free(saved);
  if (!rc)
    printf("compile %-26s RV%u  %7.1f ms with the LLVM process  %7.1f ms with the tools alone (medians of %d)\n",
           name, xlen, bench_stats(wall[0], (size_t)runs).median, bench_stats(wall[1], (size_t)runs).median, runs);
  free(wall[0]);
  free(wall[1]);
  return rc;
}

void bench_compile(const char *cl_dir, int runs) {
  if (runs > 5) runs = 5;
  static const char *const files[] = {"peers/opencl/vector_add.cl", "peers/opencl/matmul.cl",
                                      "peers/opencl/blur.cl", "peers/opencl/histogram.cl",
                                      "kernels/bench_opencl.cl"};
  if (one("exp (test_bruteforce shape)", math_kernel, 64, runs)) return; /* no clang: said once */
  one("exp (test_bruteforce shape)", math_kernel, 32, runs);
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", cl_dir, files[i]);
    char *src = slurp(path);
    if (!src) {
      printf("compile %-26s cannot read %s\n", strrchr(files[i], '/') + 1, path);
      continue;
    }
    one(strrchr(files[i], '/') + 1, src, 64, runs);
    free(src);
  }
}

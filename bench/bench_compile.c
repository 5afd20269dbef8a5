/* rvhal-bench section "compile": OpenCL C to a kernel ELF
 * (rvhal_opencl_compile), the step every clBuildProgram from source and
 * every `rvhal cc` takes. Programs: the peers' four kernels and
 * bench_opencl.cl (small: what a build costs beyond the LLVM tools'
 * starts), and a math kernel of the CTS's test_bruteforce shape (exp on
 * float4, the built-in library's code linked in). Per build: wall time
 * and the CPU time of the tools it ran (RUSAGE_CHILDREN); medians. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

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

static double children_cpu_us(void) {
  struct rusage r;
  getrusage(RUSAGE_CHILDREN, &r);
  return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
}

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

/* Builds src `runs` times; prints the medians. 0, or -1 when a build failed. */
static int one(const char *name, const char *src, uint32_t xlen, int runs) {
  double *wall = calloc((size_t)runs, sizeof *wall), *cpu = calloc((size_t)runs, sizeof *cpu);
  int rc = wall && cpu ? 0 : -1;
  for (int r = 0; r < runs && !rc; r++) {
    rvhal_opencl_compile_desc_t d = {src, 0, name, NULL, xlen, NULL};
    void *elf = NULL;
    size_t size = 0;
    char *log = NULL;
    double c0 = children_cpu_us(), t0 = bench_now_us();
    int st = rvhal_opencl_compile(&d, &elf, &size, &log);
    wall[r] = (bench_now_us() - t0) / 1e3;
    cpu[r] = (children_cpu_us() - c0) / 1e3;
    if (st) {
      printf("compile %-26s failed: %s: %s\n", name, rvhal_status_name(st), rvhal_last_error());
      rc = -1;
    }
    free(elf);
    free(log);
  }
  if (!rc)
    printf("compile %-26s RV%u  %7.1f ms wall  %7.1f ms in the tools (medians of %d)\n", name, xlen,
           bench_stats(wall, (size_t)runs).median, bench_stats(cpu, (size_t)runs).median, runs);
  free(wall);
  free(cpu);
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

/* rvhal-bench icd: what an OpenCL program pays over the C API for the
 * same launch. An empty kernel (one work-item) through
 * clEnqueueNDRangeKernel + clFinish (the system's ICD loader, then the
 * rvhal ICD) against rvhal_kernel_exec, and the same launch with an event
 * (a queue command, run by the queue's thread), same
 * device and harts; the two alternate in rounds so both see the same
 * machine load. Wall-clock, so noisy on a shared machine: medians. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"

#define CL_BENCH_CHECK(expr)                                                     \
  do {                                                                           \
    cl_int e_ = (expr);                                                          \
    if (e_ != CL_SUCCESS) {                                                      \
      fprintf(stderr, "rvhal-bench: %s: OpenCL error %d\n", #expr, e_);          \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

static cl_device_id rvhal_cl_device(uint32_t index) {
  cl_platform_id ps[16];
  cl_uint n = 0;
  CL_BENCH_CHECK(clGetPlatformIDs(16, ps, &n));
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[64] = "";
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strcmp(name, "rvhal")) continue;
    cl_device_id ds[32];
    cl_uint nd = 0;
    CL_BENCH_CHECK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 32, ds, &nd));
    if (index < nd) return ds[index];
  }
  fprintf(stderr, "rvhal-bench: no rvhal OpenCL device %u (OCL_ICD_VENDORS=%s)\n", index,
          getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "");
  exit(1);
}

static unsigned char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "rvhal-bench: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc(*size);
  if (!b || fread(b, 1, *size, f) != *size) exit(1);
  fclose(f);
  return b;
}

void bench_icd(const char *kernel_dir, int launches, uint32_t harts) {
  /* The build tree's ICD unless the caller chose the vendors. */
  if (!getenv("OCL_ICD_VENDORS")) setenv("OCL_ICD_VENDORS", RVHAL_BENCH_OPENCL_ICD, 1);
  char hs[16];
  snprintf(hs, sizeof hs, "%u", harts);
  setenv("RVHAL_HARTS", hs, 1); /* the ICD's device gets the C API's harts */
  cl_device_id dev = rvhal_cl_device(bench_device);
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CL_BENCH_CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CL_BENCH_CHECK(err);
  char path[1024];
  snprintf(path, sizeof path, "%s/empty.elf", kernel_dir);
  size_t size;
  unsigned char *elf = read_all(path, &size);
  const unsigned char *bins[1] = {elf};
  cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, NULL, &err);
  CL_BENCH_CHECK(err);
  CL_BENCH_CHECK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
  cl_kernel k = clCreateKernel(p, "empty", &err);
  CL_BENCH_CHECK(err);

  rvhal_device_options_t o = {.num_harts = harts};
  bench_dev_t b = bench_open(kernel_dir, "empty", &o);
  hal_kernel_t hk = bench_kernel(&b, "empty");
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  size_t one = 1;

  enum { ROUNDS = 10 };
  int per = launches / ROUNDS > 0 ? launches / ROUNDS : 1, n = per * ROUNDS;
  double *tc = malloc(sizeof(double) * (size_t)n), *tcl = malloc(sizeof(double) * (size_t)n),
         *tev = malloc(sizeof(double) * (size_t)n);
  for (int i = 0; i < 20; i++) {
    BENCH_CHECK(rvhal_kernel_exec(b.d, b.p, hk, &nd, NULL, 0, 1));
    CL_BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
    CL_BENCH_CHECK(clFinish(q));
  }
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < per; i++) {
      double a = bench_now_us();
      BENCH_CHECK(rvhal_kernel_exec(b.d, b.p, hk, &nd, NULL, 0, 1));
      tc[r * per + i] = bench_now_us() - a;
    }
    for (int i = 0; i < per; i++) {
      double a = bench_now_us();
      CL_BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
      CL_BENCH_CHECK(clFinish(q));
      tcl[r * per + i] = bench_now_us() - a;
    }
    /* With an event the launch is a queue command (the ICD's queue thread). */
    for (int i = 0; i < per; i++) {
      cl_event ev;
      double a = bench_now_us();
      CL_BENCH_CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, &ev));
      CL_BENCH_CHECK(clWaitForEvents(1, &ev));
      tev[r * per + i] = bench_now_us() - a;
      clReleaseEvent(ev);
    }
  }
  bench_stats_t sc = bench_stats(tc, (size_t)n), scl = bench_stats(tcl, (size_t)n), sev = bench_stats(tev, (size_t)n);
  printf("icd     empty kernel, rvhal_kernel_exec                    p50 %6.1f us  p90 %6.1f  (%d launches)\n",
         sc.median, sc.p90, n);
  printf("icd     empty kernel, clEnqueueNDRangeKernel + clFinish    p50 %6.1f us  p90 %6.1f  (%d launches)  "
         "%.2fx the C API\n",
         scl.median, scl.p90, n, scl.median / sc.median);
  printf("icd     empty kernel, clEnqueueNDRangeKernel + event wait  p50 %6.1f us  p90 %6.1f  (%d launches)  "
         "%.2fx the C API\n",
         sev.median, sev.p90, n, sev.median / sc.median);
  free(tc), free(tcl), free(tev), free(elf);
  bench_close(&b);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}

/* An OpenCL program as a user writes one, for install.deb_root: it finds
 * the rvhal platform through the system's ICD loader, compiles an OpenCL C
 * kernel from source with clBuildProgram and runs it.
 *   cl_build ok              the build works and the kernel's sums are right
 *   cl_build missing NEEDLE  the build fails and says NEEDLE (what is missing)
 * Exit 0 when it went as told; the build log and rvhal's message on stdout. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <string.h>

static char notified[2048];

static void CL_CALLBACK on_error(const char *msg, const void *info, size_t cb, void *user) {
  (void)info, (void)cb, (void)user;
  snprintf(notified, sizeof notified, "%s", msg);
}

static const char *source = "__kernel void vadd(__global const float *a, __global const float *b,\n"
                            "                   __global float *c) {\n"
                            "  size_t i = get_global_id(0);\n"
                            "  c[i] = a[i] + b[i];\n"
                            "}\n";

#define FAIL(...) (printf("cl_build: FAIL: " __VA_ARGS__), printf("\n"), 1)

int main(int argc, char **argv) {
  int expect_ok = argc == 2 && !strcmp(argv[1], "ok");
  if (!expect_ok && !(argc == 3 && !strcmp(argv[1], "missing"))) {
    fprintf(stderr, "usage: cl_build ok | cl_build missing NEEDLE\n");
    return 2;
  }
  cl_platform_id ps[16], p = NULL;
  cl_uint np = 0;
  if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS) return FAIL("clGetPlatformIDs: no platform at all");
  for (cl_uint i = 0; i < np && i < 16; i++) {
    char name[64] = "";
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strcmp(name, "rvhal")) p = ps[i];
  }
  if (!p) return FAIL("no rvhal platform among the loader's %u", np);
  cl_device_id dev;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) return FAIL("clGetDeviceIDs");
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, on_error, NULL, &err);
  if (err) return FAIL("clCreateContext: %d", err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  if (err) return FAIL("clCreateProgramWithSource: %d", err);
  cl_int built = clBuildProgram(prog, 1, &dev, "", NULL, NULL);
  static char log[16384];
  log[0] = 0;
  clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  printf("clBuildProgram: %d\nbuild log: %s\nmessage: %s\n", built, log, notified);
  if (!expect_ok) {
    if (built == CL_SUCCESS) return FAIL("clBuildProgram succeeded without the kernel SDK");
    if (!strstr(log, argv[2]) && !strstr(notified, argv[2]))
      return FAIL("neither the build log nor the message names \"%s\"", argv[2]);
    printf("cl_build: the build failed naming \"%s\", as expected\n", argv[2]);
    return 0;
  }
  if (built != CL_SUCCESS) return FAIL("clBuildProgram: %d", built);
  enum { N = 64 };
  float a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f, c[i] = -1;
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  if (err) return FAIL("clCreateCommandQueueWithProperties: %d", err);
  cl_mem ma = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  cl_mem mb = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  cl_mem mc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
  if (err) return FAIL("clCreateBuffer: %d", err);
  cl_kernel k = clCreateKernel(prog, "vadd", &err);
  if (err) return FAIL("clCreateKernel: %d", err);
  clSetKernelArg(k, 0, sizeof ma, &ma);
  clSetKernelArg(k, 1, sizeof mb, &mb);
  clSetKernelArg(k, 2, sizeof mc, &mc);
  size_t global = N;
  if ((err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL)))
    return FAIL("clEnqueueNDRangeKernel: %d (%s)", err, notified);
  if ((err = clEnqueueReadBuffer(q, mc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL)))
    return FAIL("clEnqueueReadBuffer: %d (%s)", err, notified);
  for (int i = 0; i < N; i++)
    if (c[i] != a[i] + b[i]) return FAIL("c[%d] = %g, expected %g", i, c[i], a[i] + b[i]);
  clReleaseMemObject(ma), clReleaseMemObject(mb), clReleaseMemObject(mc);
  clReleaseKernel(k), clReleaseProgram(prog), clReleaseCommandQueue(q), clReleaseContext(ctx);
  printf("cl_build: clBuildProgram compiled vadd, %d sums ok\n", N);
  return 0;
}

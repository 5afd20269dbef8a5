/* An ordinary OpenCL program, nothing rvhal-specific in it: picks the
 * rvhal platform, builds a kernel from OpenCL C source, runs y = a*x + y on
 * the device's RISC-V harts and checks the result on the host. The kernel's
 * time comes from the device's own clock (CL_PROFILING_COMMAND_*).
 *
 *   OCL_ICD_VENDORS=build/opencl/rvhal.icd build/examples/rvhal-opencl-saxpy [N [PLATFORM]]
 *
 * PLATFORM (default rvhal) picks another platform by name, say "Portable
 * Computing Language" (POCL) for bench/opencl_first_result.sh.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *source =
    "__kernel void saxpy(const float a, __global const float *x, __global float *y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i];\n"
    "}\n";

#define TRY(call)                                                                                   \
  do {                                                                                              \
    cl_int e_ = (call);                                                                             \
    if (e_ != CL_SUCCESS) {                                                                         \
      fprintf(stderr, "%s failed: %d (RVHAL_OPENCL_DEBUG=1 prints why)\n", #call, e_);              \
      return 1;                                                                                     \
    }                                                                                               \
  } while (0)

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1 << 16;
  const char *want = argc > 2 ? argv[2] : "rvhal";
  cl_platform_id platforms[8], platform = NULL;
  cl_uint np = 0;
  TRY(clGetPlatformIDs(8, platforms, &np));
  for (cl_uint i = 0; i < np && i < 8; i++) {
    char name[64] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strcmp(name, want)) platform = platforms[i];
  }
  if (!platform) {
    fprintf(stderr, "no OpenCL platform \"%s\" (for rvhal: set OCL_ICD_VENDORS to rvhal.icd)\n", want);
    return 1;
  }
  cl_device_id dev;
  TRY(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &dev, NULL));
  char dname[128], dver[128];
  cl_uint cus;
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof dver, dver, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cus, &cus, NULL);
  printf("opencl saxpy: %s, %u compute units, %s\n", dname, cus, dver);
  fflush(stdout);

  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  TRY(err);
  cl_queue_properties qp[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, qp, &err);
  TRY(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
  TRY(err);
  if (clBuildProgram(prog, 1, &dev, "-cl-std=CL1.2", NULL, NULL) != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "saxpy", &err);
  TRY(err);

  float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), a = 2.0f;
  for (size_t i = 0; i < n; i++) x[i] = (float)i, y[i] = (float)(n - i);
  cl_mem bx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof *x, x, &err);
  TRY(err);
  cl_mem by = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof *y, y, &err);
  TRY(err);
  TRY(clSetKernelArg(k, 0, sizeof a, &a));
  TRY(clSetKernelArg(k, 1, sizeof bx, &bx));
  TRY(clSetKernelArg(k, 2, sizeof by, &by));
  cl_event ev;
  TRY(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev));
  float *out = clEnqueueMapBuffer(q, by, CL_TRUE, CL_MAP_READ, 0, n * sizeof *y, 1, &ev, NULL, &err);
  TRY(err);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += out[i] != a * x[i] + y[i];
  cl_ulong start = 0, end = 0;
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL);
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL);
  printf("opencl saxpy: %zu elements, %s, kernel %.3f ms on the device clock\n", n,
         bad ? "WRONG" : "all correct", (double)(end - start) / 1e6);
  TRY(clEnqueueUnmapMemObject(q, by, out, 0, NULL, NULL));
  TRY(clFinish(q));
  clReleaseEvent(ev);
  clReleaseMemObject(bx), clReleaseMemObject(by);
  clReleaseKernel(k), clReleaseProgram(prog);
  clReleaseCommandQueue(q), clReleaseContext(ctx);
  free(x), free(y);
  return bad ? 1 : 0;
}

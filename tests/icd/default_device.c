/* $RVHAL_OPENCL_DEFAULT_DEVICE picks the device that CL_DEVICE_TYPE_DEFAULT
 * (and so clCreateContextFromType with it) gives, for programs that take
 * the default device, as PolyBench/GPU's do: with a name of the catalogue
 * that device (which runs a kernel), with an unknown name the first device
 * and one line on stderr naming the variable, the value and the names.
 *   default_device        ($RVHAL_OPENCL_DEFAULT_DEVICE set by the test) */
#include <stdint.h>
#include <unistd.h>

#include "cl_test.h"

static const char *src = "__kernel void twice(__global int *v) { v[get_global_id(0)] *= 2; }\n";

/* The default device's stderr line (if any) lands in `err_text`. */
static cl_device_id default_device(char *err_text, size_t cap) {
  char path[] = "/tmp/rvhal-default-device-XXXXXX";
  int fd = mkstemp(path), saved = dup(2);
  if (fd < 0 || saved < 0) return NULL;
  dup2(fd, 2);
  cl_device_id d = NULL;
  cl_uint n = 0;
  cl_int err = clGetDeviceIDs(cl_test_platform(), CL_DEVICE_TYPE_DEFAULT, 1, &d, &n);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  CHECK_CL(err);
  CHECK_EQ_U64(n, 1);
  ssize_t got = pread(fd, err_text, cap - 1, 0);
  err_text[got > 0 ? got : 0] = '\0';
  close(fd);
  unlink(path);
  return d;
}

int main(void) {
  const char *want = getenv("RVHAL_OPENCL_DEFAULT_DEVICE");
  if (!want || !cl_test_platform()) {
    fprintf(stderr, "default_device: set RVHAL_OPENCL_DEFAULT_DEVICE and OCL_ICD_VENDORS\n");
    return 1;
  }
  char said[2048];
  cl_device_id d = default_device(said, sizeof said), all[32];
  cl_uint n = 0;
  CHECK_CL(clGetDeviceIDs(cl_test_platform(), CL_DEVICE_TYPE_ALL, 32, all, &n));
  char name[256] = "";
  if (d) CHECK_CL(clGetDeviceInfo(d, CL_DEVICE_NAME, sizeof name, name, NULL));
  if (strncmp(want, "no-such", 7)) {
    char expect[128];
    snprintf(expect, sizeof expect, "rvhal %s (", want);
    CHECK_MSG(!strncmp(name, expect, strlen(expect)), "the default device is \"%s\", not %s", name, want);
    CHECK_MSG(!said[0], "stderr: %s", said);
    CHECK_MSG(n > 1 && d != all[0], "the named device is not the first one here: the test shows nothing");
    cl_uint bits = 0;
    CHECK_CL(clGetDeviceInfo(d, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL));
    CHECK_EQ_U64(bits, strstr(want, "rv32") ? 32 : 64);
    /* a program that takes the default device runs on it */
    cl_int err;
    cl_context c = clCreateContextFromType(NULL, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
    CHECK_CL(err);
    cl_device_id cd = NULL;
    if (c) CHECK_CL(clGetContextInfo(c, CL_CONTEXT_DEVICES, sizeof cd, &cd, NULL));
    CHECK(cd == d);
    cl_command_queue q = c ? clCreateCommandQueueWithProperties(c, d, NULL, &err) : NULL;
    cl_program p = c ? clCreateProgramWithSource(c, 1, &src, NULL, &err) : NULL;
    if (p) CHECK_CL(clBuildProgram(p, 1, &d, "", NULL, NULL));
    cl_kernel k = p ? clCreateKernel(p, "twice", &err) : NULL;
    int v[16];
    for (int i = 0; i < 16; i++) v[i] = i - 5;
    cl_mem b = c ? clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof v, v, &err) : NULL;
    size_t sixteen = 16;
    if (k && b && q) {
      CHECK_CL(clSetKernelArg(k, 0, sizeof b, &b));
      CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &sixteen, NULL, 0, NULL, NULL));
      CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
      for (int i = 0; i < 16; i++) CHECK_EQ_U64((int64_t)v[i], (int64_t)(2 * (i - 5)));
    } else {
      CHECK_MSG(0, "context, queue, kernel or buffer on the default device");
    }
    if (b) clReleaseMemObject(b);
    if (k) clReleaseKernel(k);
    if (p) clReleaseProgram(p);
    if (q) clReleaseCommandQueue(q);
    if (c) clReleaseContext(c);
  } else {
    CHECK_MSG(d == all[0], "an unknown name changed the default device to \"%s\"", name);
    char expect[160];
    snprintf(expect, sizeof expect, "RVHAL_OPENCL_DEFAULT_DEVICE=%s is no device of this platform", want);
    CHECK_MSG(strstr(said, expect) && strstr(said, "qemu-virt-rv64"), "stderr: \"%s\"", said);
  }
  return check_result("icd.default_device");
}

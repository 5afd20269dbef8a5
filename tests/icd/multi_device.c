/* A context of every device of the platform (the list clGetDeviceIDs
 * gives): one program built for each device from source, a queue per
 * device, and one buffer that kernels on alternating devices change in
 * turn, each seeing the previous one's result (the buffer's contents move
 * to the device that uses it); a sub-buffer written on one device and read
 * on another; clEnqueueMigrateMemObjects; a map on one device after a
 * kernel on another; a kernel held by a user event on one device and one
 * on another enqueued behind it; a 1D buffer image of the buffer read and
 * written by kernels on another device than the buffer's last writer;
 * per-device program and kernel queries; a program compiled and linked
 * for two listed devices. Exits 77
 * (ctest: skipped) when the platform has one device.
 *   multi_device */
#include <stdint.h>

#include "cl_test.h"

static const char *src =
    "__kernel void triple(__global uint *v) { v[get_global_id(0)] *= 3u; }\n"
    "__kernel void bump(__global uint *v, uint by) { v[get_global_id(0)] += by; }\n";

#define N 256u

static void expect(const cl_uint *got, const cl_uint *want, unsigned n, const char *what) {
  unsigned bad = 0;
  for (unsigned i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ < 3) fprintf(stderr, "%s: [%u] = %u, expected %u\n", what, i, got[i], want[i]);
  CHECK_MSG(bad == 0, "%s: %u of %u values differ", what, bad, n);
}

int main(void) {
  cl_platform_id plat = cl_test_platform();
  if (!plat) {
    fprintf(stderr, "no rvhal platform: is OCL_ICD_VENDORS set to build/opencl/rvhal.icd?\n");
    return 1;
  }
  cl_device_id devs[32];
  cl_uint nd = 0;
  CHECK_CL(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 32, devs, &nd));
  if (nd > 32) nd = 32;
  if (nd < 2) {
    printf("SKIP: the platform has %u device; a context of several needs two\n", nd);
    return 77;
  }
  cl_int err;
  cl_context c = clCreateContextFromType(NULL, CL_DEVICE_TYPE_ALL, cl_test_notify, NULL, &err);
  CHECK_CL(err);
  if (!c) return 1;
  cl_uint cn = 0;
  CHECK_CL(clGetContextInfo(c, CL_CONTEXT_NUM_DEVICES, sizeof cn, &cn, NULL));
  CHECK_EQ_U64(cn, nd);

  cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(p, 0, NULL, "", NULL, NULL));
  cl_uint pn = 0;
  cl_device_id pdevs[32];
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof pn, &pn, NULL));
  CHECK_EQ_U64(pn, nd);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof pdevs, pdevs, NULL));
  size_t sizes[32] = {0};
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, NULL));
  for (cl_uint i = 0; i < nd; i++) {
    CHECK_MSG(pdevs[i] == devs[i], "CL_PROGRAM_DEVICES[%u] is not the context's device %u", i, i);
    cl_build_status bs = CL_BUILD_NONE;
    CHECK_CL(clGetProgramBuildInfo(p, devs[i], CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    CHECK_MSG(bs == CL_BUILD_SUCCESS, "device %u: build status %d", i, bs);
    CHECK_MSG(sizes[i] > 0, "device %u: binary size 0", i);
  }
  cl_kernel triple = clCreateKernel(p, "triple", &err);
  CHECK_CL(err);
  cl_kernel bump = clCreateKernel(p, "bump", &err);
  CHECK_CL(err);
  /* Each device's own limits; with several devices a NULL device is refused. */
  for (cl_uint i = 0; i < nd; i++) {
    size_t wg = 0, dev_wg = 0;
    CHECK_CL(clGetKernelWorkGroupInfo(triple, devs[i], CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    CHECK_CL(clGetDeviceInfo(devs[i], CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof dev_wg, &dev_wg, NULL));
    CHECK_EQ_U64(wg, dev_wg);
  }
  size_t wg = 0;
  CHECK_CL_ERR(clGetKernelWorkGroupInfo(triple, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL), CL_INVALID_DEVICE);

  cl_command_queue qs[32];
  for (cl_uint i = 0; i < nd; i++) {
    qs[i] = clCreateCommandQueueWithProperties(c, devs[i], NULL, &err);
    CHECK_CL(err);
  }
  cl_uint host[N], want[N], got[N];
  for (unsigned i = 0; i < N; i++) want[i] = host[i] = i * 7u + 1u;
  cl_mem b = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(triple, 0, sizeof b, &b));
  CHECK_CL(clSetKernelArg(bump, 0, sizeof b, &b));
  size_t global = N;
  /* Alternate devices; each kernel must see the last one's result. The
   * events order the queues (no clFinish in between). */
  cl_event last = NULL;
  for (unsigned round = 0; round < 2 * nd + 1; round++) {
    cl_uint d = round % nd, by = round + 1;
    cl_kernel k = round % 2 ? bump : triple;
    if (k == bump) CHECK_CL(clSetKernelArg(bump, 1, sizeof by, &by));
    cl_event ev = NULL;
    CHECK_CL(clEnqueueNDRangeKernel(qs[d], k, 1, NULL, &global, NULL, last ? 1 : 0, last ? &last : NULL, &ev));
    if (last) clReleaseEvent(last);
    last = ev;
    for (unsigned i = 0; i < N; i++) want[i] = k == bump ? want[i] + by : want[i] * 3u;
  }
  CHECK_CL(clWaitForEvents(1, &last));
  clReleaseEvent(last);
  for (cl_uint d = 0; d < nd; d++) {
    memset(got, 0, sizeof got);
    CHECK_CL(clEnqueueReadBuffer(qs[d], b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    expect(got, want, N, "a buffer changed on alternating devices, read on each");
  }

  /* Written on the last device, the upper half (a sub-buffer) read on the first. */
  cl_buffer_region half = {N / 2 * sizeof(cl_uint), N / 2 * sizeof(cl_uint)};
  cl_mem sub = clCreateSubBuffer(b, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &half, &err);
  CHECK_CL(err);
  for (unsigned i = 0; i < N; i++) host[i] = 1000000u + i;
  CHECK_CL(clEnqueueWriteBuffer(qs[nd - 1], sub, CL_TRUE, 0, N / 2 * sizeof(cl_uint), host, 0, NULL, NULL));
  CHECK_CL(clSetKernelArg(triple, 0, sizeof sub, &sub));
  size_t half_n = N / 2;
  CHECK_CL(clEnqueueNDRangeKernel(qs[nd - 1], triple, 1, NULL, &half_n, NULL, 0, NULL, NULL));
  CHECK_CL(clFinish(qs[nd - 1]));
  for (unsigned i = 0; i < N / 2; i++) want[N / 2 + i] = (1000000u + i) * 3u;
  CHECK_CL(clEnqueueReadBuffer(qs[0], b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  expect(got, want, N, "a sub-buffer changed on the last device, its parent read on the first");

  /* Migrated to device 0 first, then changed there; mapped on the last device. */
  CHECK_CL(clEnqueueMigrateMemObjects(qs[0], 1, &b, 0, 0, NULL, NULL));
  CHECK_CL(clSetKernelArg(triple, 0, sizeof b, &b));
  CHECK_CL(clEnqueueNDRangeKernel(qs[0], triple, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK_CL(clFinish(qs[0]));
  for (unsigned i = 0; i < N; i++) want[i] *= 3u;
  cl_uint *m = clEnqueueMapBuffer(qs[nd - 1], b, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof got, 0, NULL, NULL, &err);
  CHECK_CL(err);
  if (m) {
    expect(m, want, N, "mapped on the last device after a kernel on the first");
    m[5] = 55555u;
    want[5] = 55555u;
    CHECK_CL(clEnqueueUnmapMemObject(qs[nd - 1], b, m, 0, NULL, NULL));
    CHECK_CL(clFinish(qs[nd - 1]));
  }
  CHECK_CL(clEnqueueReadBuffer(qs[0], b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  expect(got, want, N, "written through a map on the last device, read on the first");

  /* A kernel on the first device held back by a user event, then one on the
   * last device using the same buffer: the second enqueue returns at once
   * (the move waits on the queue, not in the call), and both run in order
   * once the event is set. */
  cl_event gate = clCreateUserEvent(c, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(triple, 0, sizeof b, &b));
  cl_uint by = 11;
  CHECK_CL(clSetKernelArg(bump, 1, sizeof by, &by));
  CHECK_CL(clEnqueueNDRangeKernel(qs[0], triple, 1, NULL, &global, NULL, 1, &gate, NULL));
  CHECK_CL(clEnqueueNDRangeKernel(qs[nd - 1], bump, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK_CL(clFlush(qs[nd - 1]));
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  clReleaseEvent(gate);
  for (unsigned i = 0; i < N; i++) want[i] = want[i] * 3u + 11u;
  CHECK_CL(clEnqueueReadBuffer(qs[nd - 1], b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  expect(got, want, N, "a kernel gated by a user event, then one on another device");

  /* A 1D buffer image: read on the last device after a kernel on the first
   * changed its buffer, then written there and the buffer read on the
   * first. A buffer of the same size taken on the last device alone first
   * (a context of its own) puts it at different addresses on the two
   * devices, so each device's descriptor must hold its own. */
  static const char *img_src =
      "__kernel void twice(read_only image1d_buffer_t s, __global uint *o) {\n"
      "  int i = get_global_id(0); o[i] = read_imageui(s, i).x * 2u; }\n"
      "__kernel void fill(write_only image1d_buffer_t d) {\n"
      "  int i = get_global_id(0); write_imageui(d, i, (uint4)(i * 5u, 0, 0, 0)); }\n";
  cl_context solo = clCreateContext(NULL, 1, &devs[nd - 1], NULL, NULL, &err);
  CHECK_CL(err);
  cl_mem pad = clCreateBuffer(solo, CL_MEM_READ_WRITE, sizeof host, NULL, &err); /* where the buffer would go */
  CHECK_CL(err);
  cl_uint iwant[N];
  for (unsigned i = 0; i < N; i++) iwant[i] = host[i] = i * 11u + 2u;
  cl_mem ibuf = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof host, host, &err);
  CHECK_CL(err);
  cl_program ip = clCreateProgramWithSource(c, 1, &img_src, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(ip, 0, NULL, "", NULL, NULL));
  cl_image_format r32 = {CL_R, CL_UNSIGNED_INT32};
  cl_image_desc idesc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = N, .buffer = ibuf};
  cl_mem img = clCreateImage(c, CL_MEM_READ_WRITE, &r32, &idesc, NULL, &err);
  CHECK_CL(err);
  cl_mem out = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof got, NULL, &err);
  CHECK_CL(err);
  cl_kernel twice = clCreateKernel(ip, "twice", &err);
  CHECK_CL(err);
  cl_kernel fill = clCreateKernel(ip, "fill", &err);
  CHECK_CL(err);
  if (img && twice && fill) {
    CHECK_CL(clSetKernelArg(bump, 0, sizeof ibuf, &ibuf));
    by = 3;
    CHECK_CL(clSetKernelArg(bump, 1, sizeof by, &by));
    CHECK_CL(clEnqueueNDRangeKernel(qs[0], bump, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clFinish(qs[0]));
    for (unsigned i = 0; i < N; i++) iwant[i] = (iwant[i] + 3u) * 2u;
    CHECK_CL(clSetKernelArg(twice, 0, sizeof img, &img));
    CHECK_CL(clSetKernelArg(twice, 1, sizeof out, &out));
    CHECK_CL(clEnqueueNDRangeKernel(qs[nd - 1], twice, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(qs[nd - 1], out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    expect(got, iwant, N, "a 1D buffer image read on the last device after a kernel on the first");
    CHECK_CL(clSetKernelArg(fill, 0, sizeof img, &img));
    CHECK_CL(clEnqueueNDRangeKernel(qs[nd - 1], fill, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK_CL(clFinish(qs[nd - 1]));
    for (unsigned i = 0; i < N; i++) iwant[i] = i * 5u;
    CHECK_CL(clEnqueueReadBuffer(qs[0], ibuf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    expect(got, iwant, N, "a 1D buffer image written on the last device, its buffer read on the first");
  }
  if (twice) clReleaseKernel(twice);
  if (fill) clReleaseKernel(fill);
  if (img) clReleaseMemObject(img);
  clReleaseMemObject(out);
  clReleaseMemObject(ibuf);
  clReleaseProgram(ip);
  clReleaseMemObject(pad);
  clReleaseContext(solo);

  /* clCompileProgram + clLinkProgram for the devices listed (the first and
   * the last): built for those, not for the others. */
  cl_device_id ends[2] = {devs[0], devs[nd - 1]};
  cl_program obj = clCreateProgramWithSource(c, 1, &src, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clCompileProgram(obj, 2, ends, "", 0, NULL, NULL, NULL, NULL));
  cl_program linked = clLinkProgram(c, 2, ends, "", 1, &obj, NULL, NULL, &err);
  CHECK_CL(err);
  if (linked) {
    for (cl_uint i = 0; i < nd; i++) {
      cl_build_status bs = CL_BUILD_ERROR;
      CHECK_CL(clGetProgramBuildInfo(linked, devs[i], CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
      CHECK_MSG(bs == (i == 0 || i == nd - 1 ? CL_BUILD_SUCCESS : CL_BUILD_NONE), "linked, device %u: status %d", i, bs);
    }
    cl_kernel lk = clCreateKernel(linked, "triple", &err);
    CHECK_CL(err);
    if (lk) {
      CHECK_CL(clSetKernelArg(lk, 0, sizeof b, &b));
      CHECK_CL(clEnqueueNDRangeKernel(qs[nd - 1], lk, 1, NULL, &global, NULL, 0, NULL, NULL));
      for (unsigned i = 0; i < N; i++) want[i] *= 3u;
      CHECK_CL(clEnqueueReadBuffer(qs[0], b, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
      expect(got, want, N, "a linked program's kernel on the last device, read on the first");
      clReleaseKernel(lk);
    }
    clReleaseProgram(linked);
  }
  clReleaseProgram(obj);

  clReleaseMemObject(sub);
  clReleaseMemObject(b);
  clReleaseKernel(triple);
  clReleaseKernel(bump);
  clReleaseProgram(p);
  for (cl_uint i = 0; i < nd; i++) clReleaseCommandQueue(qs[i]);
  clReleaseContext(c);
  printf("%d checks on %u devices\n", check_count_, nd);
  return check_failures_ ? 1 : 0;
}

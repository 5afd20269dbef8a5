/* OpenCL programs and kernels on an rvhal device, from the SDK's kernel
 * ELFs (programs from binary): CL_PROGRAM_BINARIES round-trips,
 * clCreateKernel by OpenCL or entry name, clCreateKernelsInProgram,
 * clSetKernelArg checked against the metadata (code and a message naming
 * the argument), argument and work-group info, clEnqueueNDRangeKernel with
 * NULL and given local sizes, offsets, __local arguments and sub-buffers,
 * the spec's codes for bad ND-ranges, and a trapping kernel failing its
 * event with rvhal's message while the device keeps working. */
#include <stdint.h>

#include "cl_test.h"

static void vector_add_run(cl_test_env_t *env, cl_command_queue q, cl_kernel k, size_t n, const size_t *offset,
                           const size_t *local, const char *what) {
  cl_int err;
  uint32_t *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)(i * 7 + 1), b[i] = (uint32_t)(i * 1000003u), c[i] = 0xffffffffu;
  cl_mem ba = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, n * 4, a, &err);
  cl_mem bb = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, n * 4, b, &err);
  cl_mem bc = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR | CL_MEM_WRITE_ONLY, n * 4, c, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK_CL(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK_CL(clSetKernelArg(k, 2, sizeof bc, &bc));
  size_t start = offset ? offset[0] : 0, global = n - start;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, offset, &global, local, 0, NULL, NULL));
  /* With a local size, clFinish runs the launch (held until a flush);
   * without, the blocking read submits it first. */
  if (local) CHECK_CL(clFinish(q));
  CHECK_CL(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, n * 4, c, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += c[i] != (i < start ? 0xffffffffu : a[i] + b[i]);
  CHECK_MSG(bad == 0, "vector_add %s: %zu of %zu words wrong", what, bad, n);
  clReleaseMemObject(ba), clReleaseMemObject(bb), clReleaseMemObject(bc);
  free(a), free(b), free(c);
}

static void programs_and_kernels(cl_test_env_t *env, cl_command_queue q) {
  cl_program p = cl_test_program(env, "vector_add.elf");
  CHECK(p != NULL);
  if (!p) return;
  size_t nk = 0;
  char names[256] = "";
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
  CHECK_EQ_U64(nk, 1);
  CHECK_MSG(!strcmp(names, "vector_add"), "kernel names \"%s\"", names);
  cl_program_binary_type bt = 0;
  CHECK_CL(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL));
  CHECK_EQ_U64(bt, CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

  /* CL_PROGRAM_BINARIES round-trips */
  size_t bsize = 0;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsize, &bsize, NULL));
  CHECK(bsize > 64);
  unsigned char *bin = malloc(bsize);
  unsigned char *bins[1] = {bin};
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
  cl_int err, st;
  cl_program p2 = clCreateProgramWithBinary(env->context, 1, &env->device, &bsize, (const unsigned char **)bins, &st, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(p2, 0, NULL, NULL, NULL, NULL));
  /* a damaged binary is refused with CL_INVALID_BINARY */
  bin[1] ^= 0xff;
  CHECK(clCreateProgramWithBinary(env->context, 1, &env->device, &bsize, (const unsigned char **)bins, &st, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_BINARY);
  CHECK_CL_ERR(st, CL_INVALID_BINARY);
  free(bin);

  /* kernels by OpenCL name and by entry name */
  cl_kernel k = clCreateKernel(p2, "vector_add", &err);
  CHECK_CL(err);
  cl_kernel k_entry = clCreateKernel(p, "vector_add_entry", &err);
  CHECK_CL(err);
  CHECK(clCreateKernel(p, "vector_sub", &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_KERNEL_NAME);
  CHECK_MSG(strstr(cl_test_last_msg, "vector_sub") && strstr(cl_test_last_msg, "vector_add"), "message: %s",
            cl_test_last_msg);
  cl_kernel all[2];
  cl_uint made = 0;
  CHECK_CL_ERR(clCreateKernelsInProgram(p, 0, all, NULL), CL_INVALID_VALUE);
  CHECK_CL(clCreateKernelsInProgram(p, 2, all, &made));
  CHECK_EQ_U64(made, 1);
  if (made == 1) clReleaseKernel(all[0]);
  char fname[64] = "";
  cl_uint nargs = 0;
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof fname, fname, NULL));
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  CHECK(!strcmp(fname, "vector_add"));
  CHECK_EQ_U64(nargs, 3);
  /* a kernel holds its program; a program with kernels cannot be rebuilt */
  cl_uint prefs = 0;
  clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof prefs, &prefs, NULL);
  CHECK_EQ_U64(prefs, 2);
  CHECK_CL_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);

  /* clSetKernelArg against the metadata */
  cl_mem buf = clCreateBuffer(env->context, 0, 64, NULL, &err);
  CHECK_CL_ERR(clSetKernelArg(k, 3, sizeof buf, &buf), CL_INVALID_ARG_INDEX);
  CHECK_CL_ERR(clSetKernelArg(k, 1, 4, &buf), CL_INVALID_ARG_SIZE);
  CHECK_MSG(strstr(cl_test_last_msg, "src2") != NULL, "the message names the argument: %s", cl_test_last_msg);
  cl_mem not_mem = (cl_mem)q;
  CHECK_CL_ERR(clSetKernelArg(k, 1, sizeof not_mem, &not_mem), CL_INVALID_MEM_OBJECT);
  size_t one = 1;
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  CHECK_MSG(strstr(cl_test_last_msg, "src1") != NULL, "message: %s", cl_test_last_msg);

  /* launches: NULL local (rvhal's choice), given local, offset */
  size_t n = env->harts * 96 + 32;
  vector_add_run(env, q, k, n, NULL, NULL, "NULL local");
  size_t local = 16;
  vector_add_run(env, q, k, n, NULL, &local, "local 16");
  size_t offset = 32;
  vector_add_run(env, q, k_entry, n, &offset, NULL, "offset 32");
  /* bad ND-ranges */
  CHECK_CL(clSetKernelArg(k, 0, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 1, sizeof buf, &buf));
  CHECK_CL(clSetKernelArg(k, 2, sizeof buf, &buf));
  size_t g16 = 16, l5 = 5, big[3] = {env->max_wg * 2, 1, 1}, l3[3] = {env->max_wg, 2, 1}, g3[3] = {env->max_wg, 2, 1};
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 0, NULL, &g16, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 4, NULL, &g16, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, NULL)); /* 2.1+: NULL global, nothing to run */
  /* a binary's kernel may have non-uniform work-groups (16 = 3 x 5 + 1; icd.non_uniform has the refusals) */
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g16, &l5, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, big, big, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g3, l3, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  size_t zero = 0;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &zero, NULL, 0, NULL, NULL)); /* 2.1+: nothing to run */

  /* kernels on sub-buffers: addresses carry the origin */
  cl_uint align_bits = 0;
  clGetDeviceInfo(env->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL);
  size_t align = align_bits / 8, words = align / 4 * 2;
  cl_mem whole = clCreateBuffer(env->context, 0, align * 4, NULL, &err);
  uint32_t ones = 1, zeroes = 0;
  CHECK_CL(clEnqueueFillBuffer(q, whole, &zeroes, 4, 0, align * 4, 0, NULL, NULL));
  CHECK_CL(clEnqueueFillBuffer(q, whole, &ones, 4, 0, align, 0, NULL, NULL));
  cl_buffer_region r_in = {0, align * 2}, r_out = {align * 2, align * 2};
  cl_mem in = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &r_in, &err);
  cl_mem out = clCreateSubBuffer(whole, 0, CL_BUFFER_CREATE_TYPE_REGION, &r_out, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof in, &in));
  CHECK_CL(clSetKernelArg(k, 1, sizeof in, &in));
  CHECK_CL(clSetKernelArg(k, 2, sizeof out, &out));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &words, NULL, 0, NULL, NULL));
  uint32_t *back = malloc(align * 4);
  CHECK_CL(clEnqueueReadBuffer(q, whole, CL_TRUE, 0, align * 4, back, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < align; i++) bad += back[i] != (i < align / 4 ? 1u : i >= align / 2 && i < align / 2 + align / 4 ? 2u : 0u);
  CHECK_MSG(bad == 0, "sub-buffer launch: %zu words wrong", bad);
  free(back);
  clReleaseMemObject(in), clReleaseMemObject(out), clReleaseMemObject(whole), clReleaseMemObject(buf);
  clReleaseKernel(k), clReleaseKernel(k_entry);
  CHECK_CL(clReleaseProgram(p));
  CHECK_CL(clReleaseProgram(p2));
}

static void local_arguments(cl_test_env_t *env, cl_command_queue q) {
  cl_program p = cl_test_program(env, "reduction.elf");
  CHECK(p != NULL);
  if (!p) return;
  cl_int err;
  cl_kernel k = clCreateKernel(p, "reduction", &err);
  CHECK_CL(err);
  cl_kernel_arg_address_qualifier aq = 0;
  cl_kernel_arg_type_qualifier tq = 0;
  char tname[64] = "", aname[64] = "";
  CHECK_CL(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK_EQ_U64(aq, CL_KERNEL_ARG_ADDRESS_LOCAL);
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK_EQ_U64(aq, CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL));
  CHECK_MSG(!strcmp(tname, "uint*"), "type name \"%s\"", tname);
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof aname, aname, NULL));
  CHECK(!strcmp(aname, "in"));
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  CHECK(tq & CL_KERNEL_ARG_TYPE_CONST);
  CHECK_CL_ERR(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof aname, aname, NULL), CL_INVALID_ARG_INDEX);

  size_t local = env->max_wg < 64 ? env->max_wg : 64, groups = env->harts * 3, n = local * groups;
  uint32_t *in = malloc(n * 4), *partial = malloc(groups * 4);
  for (size_t i = 0; i < n; i++) in[i] = (uint32_t)(i % 1000);
  cl_mem bin = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, n * 4, in, &err);
  cl_mem bpart = clCreateBuffer(env->context, 0, groups * 4, NULL, &err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof bin, &bin));
  CHECK_CL(clSetKernelArg(k, 1, sizeof bpart, &bpart));
  CHECK_CL_ERR(clSetKernelArg(k, 2, local * 4, in), CL_INVALID_ARG_VALUE);
  CHECK_CL_ERR(clSetKernelArg(k, 2, 0, NULL), CL_INVALID_ARG_SIZE);
  CHECK_CL(clSetKernelArg(k, 2, local * 4, NULL));
  cl_ulong lmem = 0;
  size_t wg = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
  CHECK_EQ_U64(lmem, local * 4);
  CHECK_CL(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  CHECK_EQ_U64(wg, env->max_wg);
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, bpart, CL_TRUE, 0, groups * 4, partial, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t g = 0; g < groups; g++) {
    uint32_t s = 0;
    for (size_t i = 0; i < local; i++) s += in[g * local + i];
    bad += partial[g] != s;
  }
  CHECK_MSG(bad == 0, "reduction: %zu of %zu group sums wrong", bad, groups);
  /* more __local memory than the device has */
  CHECK_CL(clSetKernelArg(k, 2, (size_t)env->local_mem + 4, NULL));
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  clReleaseMemObject(bin), clReleaseMemObject(bpart);
  clReleaseKernel(k);
  clReleaseProgram(p);
  free(in), free(partial);
}

/* A held launch (no event) whose kernel and program the application has
 * already released: releasing a buffer, then clFinish, must run it and free
 * them without deadlock. */
static void released_before_finish(cl_test_env_t *env, cl_command_queue q) {
  cl_program p = cl_test_program(env, "vector_add.elf");
  CHECK(p != NULL);
  if (!p) return;
  cl_int err;
  cl_kernel k = clCreateKernel(p, "vector_add", &err);
  size_t n = env->harts * 32;
  uint32_t *host = malloc(n * 4);
  for (size_t i = 0; i < n; i++) host[i] = (uint32_t)i;
  cl_mem a = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, n * 4, host, &err);
  cl_mem c = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_mem tmp = clCreateBuffer(env->context, 0, 64, NULL, &err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK_CL(clSetKernelArg(k, 1, sizeof a, &a));
  CHECK_CL(clSetKernelArg(k, 2, sizeof c, &c));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK_CL(clReleaseKernel(k));
  CHECK_CL(clReleaseProgram(p));
  CHECK_CL(clReleaseMemObject(tmp)); /* submits the held launch, dropping the last kernel reference */
  CHECK_CL(clFinish(q));
  CHECK_CL(clEnqueueReadBuffer(q, c, CL_TRUE, 0, n * 4, host, 0, NULL, NULL));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += host[i] != 2 * (uint32_t)i;
  CHECK_MSG(bad == 0, "%zu words wrong after releasing kernel and program early", bad);
  clReleaseMemObject(a), clReleaseMemObject(c);
  free(host);
}

static void values(cl_test_env_t *env) {
  cl_program p = cl_test_program(env, "pod_values.elf");
  CHECK(p != NULL);
  if (!p) return;
  cl_int err;
  cl_kernel k = clCreateKernel(p, "pod_values", &err);
  CHECK_CL(err);
  int32_t i4 = 5;
  signed char c = 1;
  CHECK_CL_ERR(clSetKernelArg(k, 1, sizeof i4, &i4), CL_INVALID_ARG_SIZE);
  CHECK_MSG(strstr(cl_test_last_msg, "argument 1 (c") != NULL, "message: %s", cl_test_last_msg);
  CHECK_CL_ERR(clSetKernelArg(k, 1, 1, NULL), CL_INVALID_ARG_VALUE);
  CHECK_CL(clSetKernelArg(k, 1, 1, &c));
  clReleaseKernel(k);
  clReleaseProgram(p);
}

static void trap(cl_test_env_t *env, cl_command_queue q) {
  cl_program p = cl_test_program(env, "dt_trap.elf");
  CHECK(p != NULL);
  if (!p) return;
  cl_int err;
  cl_kernel k = clCreateKernel(p, "trap_illegal", &err);
  CHECK_CL(err);
  size_t n = env->harts * 8;
  cl_mem info = clCreateBuffer(env->context, 0, 16 * 8, NULL, &err);
  cl_mem marks = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  uint64_t bad_item = n / 2; /* a uint64_t on RV32 too */
  CHECK_CL(clSetKernelArg(k, 0, sizeof info, &info));
  CHECK_CL(clSetKernelArg(k, 1, sizeof marks, &marks));
  CHECK_CL(clSetKernelArg(k, 2, sizeof bad_item, &bad_item));
  cl_event ev = NULL;
  cl_test_last_msg[0] = 0;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev));
  if (!ev) return;
  CHECK_CL_ERR(clWaitForEvents(1, &ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_MSG(strstr(cl_test_last_msg, "illegal instruction") != NULL, "rvhal's trap message: %s", cl_test_last_msg);
  cl_int status = 0;
  CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
  CHECK_MSG(status < 0, "status %d", status);
  CHECK(clFinish(q) != CL_SUCCESS); /* reports the failure once */
  clReleaseEvent(ev);
  /* the same through a launch clFinish runs itself */
  cl_test_last_msg[0] = 0;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK_CL_ERR(clFinish(q), CL_OUT_OF_RESOURCES);
  CHECK_MSG(strstr(cl_test_last_msg, "illegal instruction") != NULL, "clFinish's message: %s", cl_test_last_msg);
  CHECK_CL(clFinish(q));
  clReleaseKernel(k), clReleaseMemObject(info), clReleaseMemObject(marks), clReleaseProgram(p);
  /* the device keeps working */
  cl_program pv = cl_test_program(env, "vector_add.elf");
  cl_kernel kv = pv ? clCreateKernel(pv, "vector_add", &err) : NULL;
  CHECK(kv != NULL);
  if (kv) vector_add_run(env, q, kv, 256, NULL, NULL, "after a trap");
  if (kv) clReleaseKernel(kv);
  if (pv) clReleaseProgram(pv);
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env) != 0) return 1;
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(env.context, env.device, 0, &err);
  CHECK_CL(err);
  programs_and_kernels(&env, q);
  local_arguments(&env, q);
  values(&env);
  released_before_finish(&env, q);
  trap(&env, q);
  CHECK_CL(clFinish(q));
  CHECK_CL(clReleaseCommandQueue(q));
  CHECK_CL(clReleaseContext(env.context));
  return check_result("icd.kernels");
}

/* OpenCL programs from source on an rvhal device: clBuildProgram runs the
 * OpenCL C compiler with the program's options (a -D reaches the kernel),
 * a compile error fails with CL_BUILD_PROGRAM_FAILURE and clang's
 * diagnostic (file and line) in the build log, the argument info comes from
 * the OpenCL metadata, the binary reads back and builds again, and a second
 * build of the same source hits the binary cache (RVHAL_OPENCL_CACHE_DIR). */
#include <dirent.h>
#include <elf.h>
#include <stdint.h>

#include "cl_test.h"

static const char *saxpy_src =
    "__kernel void saxpy(__global const float *restrict x, __global float *y, const float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i] + BIAS;\n"
    "}\n"
    "__kernel void scale(__global int *v, int k) { v[get_global_id(0)] *= k; }\n";

static int cache_entries(void) {
  const char *dir = getenv("RVHAL_OPENCL_CACHE_DIR");
  DIR *d = dir ? opendir(dir) : NULL;
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) n += strstr(e->d_name, ".elf") && !strstr(e->d_name, ".tmp");
  if (d) closedir(d);
  return n;
}

static cl_program build(cl_test_env_t *env, const char *src, const char *options, cl_int *build_err) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_CL(err);
  *build_err = p ? clBuildProgram(p, 1, &env->device, options, NULL, NULL) : err;
  return p;
}

/* A copy of an ELF binary whose last loadable segment is grown by 1 GiB
 * of zeros: it parses, but no device has room to load it. */
static unsigned char *oversized_copy(const unsigned char *bin, size_t size) {
  unsigned char *c = malloc(size);
  if (!c || size < sizeof(Elf64_Ehdr)) return c;
  memcpy(c, bin, size);
  if (c[EI_CLASS] == ELFCLASS64) {
    Elf64_Ehdr *eh = (Elf64_Ehdr *)c;
    Elf64_Phdr *last = NULL;
    for (unsigned i = 0; i < eh->e_phnum && eh->e_phoff + (i + 1) * sizeof(Elf64_Phdr) <= size; i++) {
      Elf64_Phdr *ph = (Elf64_Phdr *)(c + eh->e_phoff) + i;
      if (ph->p_type == PT_LOAD) last = ph;
    }
    if (last) last->p_memsz += 0x40000000;
  } else {
    Elf32_Ehdr *eh = (Elf32_Ehdr *)c;
    Elf32_Phdr *last = NULL;
    for (unsigned i = 0; i < eh->e_phnum && eh->e_phoff + (i + 1) * sizeof(Elf32_Phdr) <= size; i++) {
      Elf32_Phdr *ph = (Elf32_Phdr *)(c + eh->e_phoff) + i;
      if (ph->p_type == PT_LOAD) last = ph;
    }
    if (last) last->p_memsz += 0x40000000;
  }
  return c;
}

/* Kernel attributes (reqd_work_group_size, work_group_size_hint,
 * vec_type_hint) reach the kernel queries, a launch honours the required
 * size (a NULL local size picks it, another is refused), __local variables
 * count in CL_KERNEL_LOCAL_MEM_SIZE, a __local long16 variable and
 * __local buffer arguments are aligned to 128 bytes, and a kernel name of
 * 2048 characters builds. */
static const char *attr_src =
    "__kernel __attribute__((reqd_work_group_size(4, 1, 1))) __attribute__((work_group_size_hint(8, 1, 1)))\n"
    "__attribute__((vec_type_hint(float4)))\n"
    "void fixed(__global ulong *out, __local char *a, __local char *b) {\n"
    "  __local long16 wide[3];\n"
    "  __local int count[100];\n"
    "  size_t i = get_global_id(0), l = get_local_id(0), next = (l + 1) % 4;\n"
    "  count[l] = (int)i;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  wide[1].s0 = (long)i;\n"
    "  out[i * 4 + 0] = get_local_size(0);\n"
    "  out[i * 4 + 1] = (ulong)&wide[0] % 128 + (ulong)&wide[1] % 128;\n"
    "  out[i * 4 + 2] = (ulong)a % 128 + (ulong)b % 128;\n"
    "  out[i * 4 + 3] = (ulong)count % 4 + (ulong)(count[next] - (int)(i - l + next));\n"
    "}\n"
    "__kernel void plain(__global ulong *out) { out[0] = 1; }\n";

static void attributes_and_local(cl_test_env_t *env, cl_command_queue q) {
  cl_int err, berr;
  cl_program p = build(env, attr_src, "", &berr);
  CHECK_CL(berr);
  cl_kernel k = clCreateKernel(p, "fixed", &err), plain = clCreateKernel(p, "plain", &err);
  CHECK_CL(err);
  if (!k || !plain) return;
  char attrs[256] = "";
  CHECK_CL(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
  CHECK_MSG(strstr(attrs, "reqd_work_group_size(4,1,1)") && strstr(attrs, "work_group_size_hint(8,1,1)") &&
                strstr(attrs, "vec_type_hint(float4)"),
            "CL_KERNEL_ATTRIBUTES: '%s'", attrs);
  CHECK_CL(clGetKernelInfo(plain, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
  CHECK_MSG(attrs[0] == '\0', "plain kernel's attributes: '%s'", attrs);
  size_t cwg[3] = {9, 9, 9};
  CHECK_CL(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
  CHECK(cwg[0] == 4 && cwg[1] == 1 && cwg[2] == 1);
  CHECK_CL(clGetKernelWorkGroupInfo(plain, env->device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof cwg, cwg, NULL));
  CHECK(cwg[0] == 0 && cwg[1] == 0 && cwg[2] == 0);

  const size_t n = 16;
  cl_mem out = clCreateBuffer(env->context, CL_MEM_READ_WRITE, n * 4 * sizeof(cl_ulong), NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_CL(clSetKernelArg(k, 1, 3, NULL)); /* odd sizes: the next buffer still starts aligned */
  CHECK_CL(clSetKernelArg(k, 2, 5, NULL));
  cl_ulong lmem = 0;
  CHECK_CL(clGetKernelWorkGroupInfo(k, env->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL));
  /* count's 400 bytes (wide is shrunk by the optimizer to what it uses), and the 8 bytes of arguments */
  CHECK_MSG(lmem >= 400 + 8 && lmem < 65536, "CL_KERNEL_LOCAL_MEM_SIZE %llu", (unsigned long long)lmem);
  size_t global = n, wrong = 2;
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &wrong, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  cl_ulong got[64];
  CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) {
    CHECK_MSG(got[i * 4] == 4, "item %zu: local size %llu (reqd_work_group_size 4)", i, (unsigned long long)got[i * 4]);
    CHECK_MSG(got[i * 4 + 1] == 0, "item %zu: __local long16 off 128-byte alignment by %llu", i,
              (unsigned long long)got[i * 4 + 1]);
    CHECK_MSG(got[i * 4 + 2] == 0, "item %zu: __local buffers off 128-byte alignment by %llu", i,
              (unsigned long long)got[i * 4 + 2]);
    CHECK(got[i * 4 + 3] == 0);
  }
  clReleaseMemObject(out);
  clReleaseKernel(k), clReleaseKernel(plain);
  clReleaseProgram(p);

  /* the most parameters a kernel takes: one buffer and 127 longs, the
   * 1024 bytes OpenCL's full profile requires (CL_DEVICE_MAX_PARAMETER_SIZE
   * is at least that) */
  size_t max_param = 0;
  CHECK_CL(clGetDeviceInfo(env->device, CL_DEVICE_MAX_PARAMETER_SIZE, sizeof max_param, &max_param, NULL));
  CHECK_MSG(max_param >= 1024, "CL_DEVICE_MAX_PARAMETER_SIZE %zu", max_param);
  /* and no more than 128 8-byte parameters: the CTS builds max/8 - 1 longs and a buffer */
  CHECK_MSG(max_param <= 128 * 8, "CL_DEVICE_MAX_PARAMETER_SIZE %zu: more than 128 longs", max_param);
  enum { NPARAM = 127 };
  static char many_src[NPARAM * 16 + 256];
  size_t at = (size_t)snprintf(many_src, sizeof many_src, "__kernel void many(__global long *out");
  for (int i = 0; i < NPARAM; i++) at += (size_t)snprintf(many_src + at, sizeof many_src - at, ", long a%d", i);
  at += (size_t)snprintf(many_src + at, sizeof many_src - at, ") {\n  out[0] = 0");
  for (int i = 0; i < NPARAM; i++) at += (size_t)snprintf(many_src + at, sizeof many_src - at, " + a%d", i);
  snprintf(many_src + at, sizeof many_src - at, ";\n}\n");
  p = build(env, many_src, "", &berr);
  CHECK_CL(berr);
  k = clCreateKernel(p, "many", &err);
  CHECK_CL(err);
  cl_mem sum = clCreateBuffer(env->context, CL_MEM_READ_WRITE, sizeof(cl_long), NULL, &err);
  CHECK_CL(err);
  cl_long want = 0, got_sum = -1;
  if (k) {
    CHECK_CL(clSetKernelArg(k, 0, sizeof sum, &sum));
    for (int i = 0; i < NPARAM; i++) {
      cl_long v = (cl_long)(i + 1) << 20;
      want += v;
      CHECK_CL(clSetKernelArg(k, (cl_uint)i + 1, sizeof v, &v));
    }
    size_t one = 1;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, sum, CL_TRUE, 0, sizeof got_sum, &got_sum, 0, NULL, NULL));
    clReleaseKernel(k);
  }
  CHECK_MSG(got_sum == want, "128 parameters: sum %lld, want %lld", (long long)got_sum, (long long)want);
  clReleaseMemObject(sum);
  clReleaseProgram(p);

  /* a kernel name of 2048 characters */
  char name[2049];
  for (int i = 0; i < 2048; i++) name[i] = (char)('a' + i % 26);
  name[2048] = '\0';
  char long_src[2200];
  snprintf(long_src, sizeof long_src, "__kernel void %s(__global int *p) { p[0] = 1; }\n", name);
  p = build(env, long_src, "", &berr);
  CHECK_CL(berr);
  k = clCreateKernel(p, name, &err);
  CHECK_CL(err);
  char back[2100] = "";
  if (k) CHECK_CL(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof back, back, NULL));
  CHECK(!strcmp(back, name));
  if (k) clReleaseKernel(k);
  clReleaseProgram(p);
}

/* Code no kernel reaches is dropped: a helper calling read_imagef that no
 * kernel calls, the kernel builds and runs; with -DCALL_HELPER the kernel
 * reaches it, builds too and reads the image
 * (tests/opencl/kernels/unused_image_helper.cl, for rvhal cc). */
static const char *helper_src =
    "float4 sample_at(read_only image2d_t im, sampler_t s, int2 p) { return read_imagef(im, s, p); }\n"
    "#ifdef CALL_HELPER\n"
    "__kernel void scale(__global float *out, __global const float *in, float k, read_only image2d_t im,\n"
    "                    sampler_t s) {\n"
    "  out[get_global_id(0)] = in[get_global_id(0)] * k + sample_at(im, s, (int2)(0, 0)).x;\n"
    "}\n"
    "#else\n"
    "__kernel void scale(__global float *out, __global const float *in, float k) {\n"
    "  out[get_global_id(0)] = in[get_global_id(0)] * k;\n"
    "}\n"
    "#endif\n";

static void unused_image_helper(cl_test_env_t *env, cl_command_queue q) {
  cl_int err, berr;
  cl_program p = build(env, helper_src, "", &berr);
  CHECK_MSG(berr == CL_SUCCESS, "an unused helper calling read_imagef: clBuildProgram returned %d (%s)", berr,
            cl_test_last_msg);
  cl_kernel k = berr == CL_SUCCESS ? clCreateKernel(p, "scale", &err) : NULL;
  if (k) {
    float in[8], out[8] = {0}, f = 2.5f;
    for (int i = 0; i < 8; i++) in[i] = (float)i;
    cl_mem bin = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem bout = clCreateBuffer(env->context, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof bout, &bout));
    CHECK_CL(clSetKernelArg(k, 1, sizeof bin, &bin));
    CHECK_CL(clSetKernelArg(k, 2, sizeof f, &f));
    size_t eight = 8;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &eight, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < 8; i++) CHECK_MSG(out[i] == in[i] * f, "scale: out[%d] = %g, expected %g", i, out[i], in[i] * f);
    clReleaseMemObject(bin);
    clReleaseMemObject(bout);
    clReleaseKernel(k);
  }
  clReleaseProgram(p);

  cl_program reached = build(env, helper_src, "-DCALL_HELPER", &berr);
  CHECK_CL(berr);
  k = berr == CL_SUCCESS ? clCreateKernel(reached, "scale", &err) : NULL;
  if (k) {
    float in[4] = {1, 2, 3, 4}, out[4] = {0}, f = 2.0f, px[4] = {0.25f, 9, 9, 9};
    cl_image_format fmt = {CL_RGBA, CL_FLOAT};
    cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 1, .image_height = 1};
    cl_mem im = clCreateImage(env->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &d, px, &err);
    CHECK_CL(err);
    cl_sampler smp = clCreateSampler(env->context, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    cl_mem bin = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem bout = clCreateBuffer(env->context, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    CHECK_CL(clSetKernelArg(k, 0, sizeof bout, &bout));
    CHECK_CL(clSetKernelArg(k, 1, sizeof bin, &bin));
    CHECK_CL(clSetKernelArg(k, 2, sizeof f, &f));
    CHECK_CL(clSetKernelArg(k, 3, sizeof im, &im));
    CHECK_CL(clSetKernelArg(k, 4, sizeof smp, &smp));
    size_t four = 4;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &four, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, bout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < 4; i++)
      CHECK_MSG(out[i] == in[i] * f + 0.25f, "scale + pixel: out[%d] = %g, expected %g", i, out[i], in[i] * f + 0.25f);
    clReleaseMemObject(bin), clReleaseMemObject(bout), clReleaseMemObject(im), clReleaseSampler(smp);
    clReleaseKernel(k);
  }
  clReleaseProgram(reached);
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env) != 0) return 1;
  cl_int err, berr;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  CHECK_CL(err);

  attributes_and_local(&env, q);

  /* a compile error: the build log holds clang's diagnostic */
  cl_program bad = build(&env, "__kernel void broken(__global int *p) { p[0] = undeclared_name; }\n", "", &berr);
  CHECK_CL_ERR(berr, CL_BUILD_PROGRAM_FAILURE);
  char log[8192] = "";
  cl_build_status status = 0;
  clGetProgramBuildInfo(bad, env.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
  clGetProgramBuildInfo(bad, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
  CHECK_EQ_U64(status, (uint64_t)(int64_t)CL_BUILD_ERROR);
  CHECK_MSG(strstr(log, "undeclared_name") && strstr(log, ":1:"), "build log: %s", log);
  cl_kernel none = clCreateKernel(bad, "broken", &err);
  CHECK(none == NULL);
  CHECK_CL_ERR(err, CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(bad);
  unused_image_helper(&env, q);

  /* a bad option */
  bad = build(&env, saxpy_src, "-cl-no-such-option", &berr);
  CHECK_MSG(berr == CL_INVALID_BUILD_OPTIONS || berr == CL_BUILD_PROGRAM_FAILURE, "bad option: %d", berr);
  clReleaseProgram(bad);

  /* saxpy with -DBIAS=0.5f: the option reaches the kernel */
  int before = cache_entries();
  cl_program p = build(&env, saxpy_src, "-DBIAS=0.5f -cl-std=CL1.2", &berr);
  CHECK_CL(berr);
  char opts[128] = "";
  clGetProgramBuildInfo(p, env.device, CL_PROGRAM_BUILD_OPTIONS, sizeof opts, opts, NULL);
  CHECK(!strcmp(opts, "-DBIAS=0.5f -cl-std=CL1.2"));
  int after = cache_entries();
  CHECK_MSG(after >= 1 && after >= before, "cache entries %d then %d", before, after);
  size_t nk = 0;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
  CHECK_EQ_U64(nk, 2);
  cl_kernel k = clCreateKernel(p, "saxpy", &err);
  CHECK_CL(err);
  /* argument info from the OpenCL metadata */
  char tname[64] = "", aname[64] = "";
  cl_kernel_arg_type_qualifier tq = 0;
  cl_kernel_arg_address_qualifier aq = 0;
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL));
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof aname, aname, NULL));
  CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  CHECK_CL(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  CHECK_MSG(!strcmp(tname, "float*"), "type name \"%s\"", tname);
  CHECK(!strcmp(aname, "x"));
  CHECK_MSG((tq & CL_KERNEL_ARG_TYPE_CONST) && (tq & CL_KERNEL_ARG_TYPE_RESTRICT), "qualifiers 0x%llx",
            (unsigned long long)tq);
  CHECK_EQ_U64(aq, CL_KERNEL_ARG_ADDRESS_PRIVATE);
  double wrong = 1.0;
  CHECK_CL_ERR(clSetKernelArg(k, 2, sizeof wrong, &wrong), CL_INVALID_ARG_SIZE);
  CHECK_MSG(strstr(cl_test_last_msg, "(a") != NULL, "message names the argument: %s", cl_test_last_msg);

  size_t n = env.harts * 100;
  float *x = malloc(n * 4), *y = malloc(n * 4), *out = malloc(n * 4);
  for (size_t i = 0; i < n; i++) x[i] = (float)i * 0.25f, y[i] = 1000.0f - (float)i;
  cl_mem bx = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, n * 4, x, &err);
  cl_mem by = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, n * 4, y, &err);
  float a = 3.0f;
  CHECK_CL(clSetKernelArg(k, 0, sizeof bx, &bx));
  CHECK_CL(clSetKernelArg(k, 1, sizeof by, &by));
  CHECK_CL(clSetKernelArg(k, 2, sizeof a, &a));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, by, CL_TRUE, 0, n * 4, out, 0, NULL, NULL));
  size_t bad_words = 0;
  for (size_t i = 0; i < n; i++) bad_words += out[i] != a * x[i] + y[i] + 0.5f;
  CHECK_MSG(bad_words == 0, "saxpy: %zu of %zu wrong", bad_words, n);

  /* the binary of a source program builds again and runs the same */
  size_t bsize = 0;
  clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof bsize, &bsize, NULL);
  unsigned char *bin = malloc(bsize), *bins[1] = {bin};
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
  cl_program p2 = clCreateProgramWithBinary(env.context, 1, &env.device, &bsize, (const unsigned char **)bins, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(p2, 0, NULL, NULL, NULL, NULL));
  cl_kernel k2 = clCreateKernel(p2, "scale", &err);
  CHECK_CL(err);
  int v[8] = {1, 2, 3, 4, 5, 6, 7, 8}, k3 = -3;
  cl_mem bv = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
  CHECK_CL(clSetKernelArg(k2, 0, sizeof bv, &bv));
  CHECK_CL(clSetKernelArg(k2, 1, sizeof k3, &k3));
  size_t eight = 8;
  CHECK_CL(clEnqueueNDRangeKernel(q, k2, 1, NULL, &eight, NULL, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, bv, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
  for (int i = 0; i < 8; i++) CHECK_EQ_U64((int64_t)v[i], (int64_t)((i + 1) * -3));

  /* a binary the device refuses to load: the build fails with
   * CL_INVALID_BINARY and the log holds exactly the loader's reason (a log
   * built from the one it replaced once read freed memory here) */
  unsigned char *moved = oversized_copy(bin, bsize), *moved_bins[1] = {moved};
  cl_program pm = clCreateProgramWithBinary(env.context, 1, &env.device, &bsize, (const unsigned char **)moved_bins,
                                            NULL, &err);
  CHECK_CL(err);
  if (pm) {
    CHECK_CL_ERR(clBuildProgram(pm, 0, NULL, NULL, NULL, NULL), CL_INVALID_BINARY);
    char mlog[2048] = "";
    CHECK_CL(clGetProgramBuildInfo(pm, env.device, CL_PROGRAM_BUILD_LOG, sizeof mlog, mlog, NULL));
    CHECK_MSG(*mlog && strstr(cl_test_last_msg, mlog), "build log \"%s\" is not the error's reason \"%s\"", mlog,
              cl_test_last_msg);
    /* a second build's log is that build's, not the first one's again */
    CHECK_CL_ERR(clBuildProgram(pm, 0, NULL, NULL, NULL, NULL), CL_INVALID_BINARY);
    char mlog2[2048] = "";
    CHECK_CL(clGetProgramBuildInfo(pm, env.device, CL_PROGRAM_BUILD_LOG, sizeof mlog2, mlog2, NULL));
    CHECK_MSG(!strcmp(mlog2, mlog), "second build log \"%s\"", mlog2);
    clReleaseProgram(pm);
  }
  free(moved);

  /* the same source and options again: served by the cache */
  cl_program p3 = build(&env, saxpy_src, "-DBIAS=0.5f -cl-std=CL1.2", &berr);
  CHECK_CL(berr);
  CHECK_EQ_U64(cache_entries(), after);

  /* clCompileProgram with an embedded header, clLinkProgram of two objects */
  const char *hdr_src = "#define SCALE 3\n", *a_src =
      "#include \"inc/scale.h\"\nint helper(int x);\n"
      "__kernel void linked(__global int *v) { size_t i = get_global_id(0); v[i] = SCALE * helper(v[i]); }\n",
             *b_src = "int helper(int x) { return x + 1; }\n";
  cl_program hdr = clCreateProgramWithSource(env.context, 1, &hdr_src, NULL, &err);
  cl_program pa = clCreateProgramWithSource(env.context, 1, &a_src, NULL, &err);
  cl_program pb = clCreateProgramWithSource(env.context, 1, &b_src, NULL, &err);
  const char *hname = "inc/scale.h";
  CHECK_CL(clCompileProgram(pa, 1, &env.device, "", 1, &hdr, &hname, NULL, NULL));
  CHECK_CL(clCompileProgram(pb, 1, &env.device, "", 0, NULL, NULL, NULL, NULL));
  cl_program_binary_type bt = 0;
  clGetProgramBuildInfo(pa, env.device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
  CHECK_EQ_U64(bt, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program objs[2] = {pa, pb};
  cl_program linked = clLinkProgram(env.context, 1, &env.device, "", 2, objs, NULL, NULL, &err);
  CHECK_CL(err);
  cl_kernel kl = linked ? clCreateKernel(linked, "linked", &err) : NULL;
  CHECK_CL(err);
  if (kl) {
    int w[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    cl_mem bw = clCreateBuffer(env.context, CL_MEM_COPY_HOST_PTR, sizeof w, w, &err);
    CHECK_CL(clSetKernelArg(kl, 0, sizeof bw, &bw));
    CHECK_CL(clEnqueueNDRangeKernel(q, kl, 1, NULL, &eight, NULL, 0, NULL, NULL));
    CHECK_CL(clEnqueueReadBuffer(q, bw, CL_TRUE, 0, sizeof w, w, 0, NULL, NULL));
    for (int i = 0; i < 8; i++) CHECK_EQ_U64((int64_t)w[i], (int64_t)(3 * (i + 1)));
    clReleaseMemObject(bw);
    clReleaseKernel(kl);
  }
  if (linked) clReleaseProgram(linked);
  const char *broken_src = "int helper2(int x) { return x + ; }\n";
  cl_program broken = clCreateProgramWithSource(env.context, 1, &broken_src, NULL, &err);
  CHECK_CL_ERR(clCompileProgram(broken, 1, &env.device, "", 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
  clReleaseProgram(broken);
  clReleaseProgram(hdr), clReleaseProgram(pa), clReleaseProgram(pb);

  clReleaseMemObject(bx), clReleaseMemObject(by), clReleaseMemObject(bv);
  clReleaseKernel(k), clReleaseKernel(k2);
  clReleaseProgram(p), clReleaseProgram(p2), clReleaseProgram(p3);
  clReleaseCommandQueue(q);
  CHECK_CL(clReleaseContext(env.context));
  free(x), free(y), free(out), free(bin);
  return check_result("icd.source");
}

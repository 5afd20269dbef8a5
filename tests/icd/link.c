/* clCompileProgram and clLinkProgram: each object is compiled on its own,
 * with its own options and headers, and linking puts the objects together
 * (as the CTS's test_compiler does it): -D per object, a header folder gone
 * by link time, a type each object defines, a symbol defined twice,
 * objects and libraries round-tripped through CL_PROGRAM_BINARIES, and
 * clBuildProgram of an object binary. */
#include <sys/stat.h>
#include <unistd.h>

#include "cl_test.h"

enum { N = 8 };

static cl_program source(cl_test_env_t *env, const char *src) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_CL(err);
  return p;
}

static cl_program compiled(cl_test_env_t *env, const char *src, const char *options) {
  cl_program p = source(env, src);
  if (p) CHECK_CL(clCompileProgram(p, 1, &env->device, options, 0, NULL, NULL, NULL, NULL));
  return p;
}

static cl_program_binary_type binary_type(cl_test_env_t *env, cl_program p) {
  cl_program_binary_type t = 0;
  CHECK_CL(clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL));
  return t;
}

/* Runs kernel `name` of p over N ints set to their index; out: the ints after. */
static void run(cl_test_env_t *env, cl_command_queue q, cl_program p, const char *name, int out[N]) {
  cl_int err;
  for (int i = 0; i < N; i++) out[i] = -1000;
  cl_kernel k = p ? clCreateKernel(p, name, &err) : NULL;
  CHECK_MSG(k != NULL, "clCreateKernel(%s): %s", name, cl_test_last_msg);
  if (!k) return;
  int v[N];
  for (int i = 0; i < N; i++) v[i] = i;
  cl_mem b = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, sizeof v, v, &err);
  CHECK_CL(err);
  size_t global = N;
  CHECK_CL(clSetKernelArg(k, 0, sizeof b, &b));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof v, out, 0, NULL, NULL));
  clReleaseMemObject(b);
  clReleaseKernel(k);
}

/* The first item that is not mul * i + add, or -1. */
static int first_wrong(const int got[N], int mul, int add) {
  for (int i = 0; i < N; i++)
    if (got[i] != mul * i + add) return i;
  return -1;
}
#define EXPECT_INTS(got, mul, add)                                                                     \
  do {                                                                                                 \
    int w_ = first_wrong(got, mul, add);                                                               \
    CHECK_MSG(w_ < 0, "item %d: %d, expected %d", w_, w_ < 0 ? 0 : got[w_], (mul) * w_ + (add));       \
  } while (0)

static unsigned char *binary_of(cl_program p, size_t *out_size) {
  size_t size = 0;
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size ? size : 1);
  CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  *out_size = size;
  return bin;
}

static cl_program from_binary(cl_test_env_t *env, const unsigned char *bin, size_t size, cl_int *err) {
  cl_int status = 1;
  cl_program p = clCreateProgramWithBinary(env->context, 1, &env->device, &size, &bin, &status, err);
  if (*err == CL_SUCCESS) CHECK_MSG(status == CL_SUCCESS, "binary_status %d", status);
  return p;
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env) != 0) return 1;
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  CHECK_CL(err);
  int got[N];

  /* Each object's own -D; both kernels in the linked program. */
  const char *val_a = "__kernel void ka(__global int *v) { v[get_global_id(0)] += VAL; }\n";
  const char *val_b = "__kernel void kb(__global int *v) { v[get_global_id(0)] *= VAL; }\n";
  cl_program oa = compiled(&env, val_a, "-DVAL=2"), ob = compiled(&env, val_b, "-DVAL=5");
  CHECK_EQ_U64(binary_type(&env, oa), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  /* an object is no executable */
  cl_kernel none = clCreateKernel(oa, "ka", &err);
  CHECK(none == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program ab[2] = {oa, ob};
  cl_program lab = clLinkProgram(env.context, 1, &env.device, "", 2, ab, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_EQ_U64(binary_type(&env, lab), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  size_t nk = 0;
  CHECK_CL(clGetProgramInfo(lab, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
  CHECK_EQ_U64(nk, 2);
  run(&env, q, lab, "ka", got);
  EXPECT_INTS(got, 1, 2);
  run(&env, q, lab, "kb", got);
  EXPECT_INTS(got, 5, 0);
  clReleaseProgram(lab);

  /* A header folder given by -I and removed before the link. */
  char dir[] = "/tmp/rvhal-link-test.XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char hpath[sizeof dir + 16];
  snprintf(hpath, sizeof hpath, "%s/three.h", dir);
  FILE *f = fopen(hpath, "w");
  CHECK(f && fputs("#define THREE 3\n", f) >= 0);
  if (f) fclose(f);
  char inc[sizeof dir + 8];
  snprintf(inc, sizeof inc, "-I%s", dir);
  cl_program oh = compiled(&env, "#include \"three.h\"\n"
                                 "__kernel void kh(__global int *v) { v[get_global_id(0)] *= THREE; }\n", inc);
  unlink(hpath);
  rmdir(dir);
  cl_program lh = clLinkProgram(env.context, 1, &env.device, "", 1, &oh, NULL, NULL, &err);
  CHECK_CL(err);
  run(&env, q, lh, "kh", got);
  EXPECT_INTS(got, 3, 0);
  clReleaseProgram(lh);

  /* The same struct type in two objects, a variable of one used by the
   * other; a function of one called by the other. */
  cl_program os = compiled(&env,
                           "constant struct bar { int x, y; } foo = {7, 9};\n"
                           "int helper(int x) { return x + 1; }\n", "");
  cl_program ou = compiled(&env,
                           "extern constant struct bar { int x, y; } foo;\n"
                           "int helper(int x);\n"
                           "__kernel void ku(__global int *v) { size_t i = get_global_id(0); v[i] = helper(v[i]) * foo.y; }\n",
                           "");
  cl_program su[2] = {os, ou};
  cl_program lsu = clLinkProgram(env.context, 1, &env.device, "", 2, su, NULL, NULL, &err);
  CHECK_CL(err);
  run(&env, q, lsu, "ku", got);
  EXPECT_INTS(got, 9, 9);
  clReleaseProgram(lsu);

  /* A function two objects define: the link fails, and its log names it. */
  cl_program od = compiled(&env, "int helper(int x) { return x - 1; }\n", "");
  cl_program twice[3] = {os, ou, od};
  cl_program bad = clLinkProgram(env.context, 1, &env.device, "", 3, twice, NULL, NULL, &err);
  CHECK_EQ_U64((uint64_t)(int64_t)err, (uint64_t)(int64_t)CL_LINK_PROGRAM_FAILURE);
  if (bad) {
    cl_build_status bs = CL_BUILD_SUCCESS;
    CHECK_CL(clGetProgramBuildInfo(bad, env.device, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    CHECK(bs == CL_BUILD_ERROR);
    char *log = cl_test_build_log(&env, bad);
    CHECK_MSG(log && strstr(log, "helper"), "the log names the symbol: %s", log ? log : "(none)");
    free(log);
    clReleaseProgram(bad);
  }
  /* A compile error is clCompileProgram's, with clang's message. */
  cl_program broken = source(&env, "int f(int x) { return x + ; }\n");
  CHECK_CL_ERR(clCompileProgram(broken, 1, &env.device, "", 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
  char *blog = cl_test_build_log(&env, broken);
  CHECK_MSG(blog && strstr(blog, "error:"), "clang's error in the log: %s", blog ? blog : "(none)");
  free(blog);
  clReleaseProgram(broken);
  /* Linking what is not compiled. */
  cl_program raw = source(&env, val_a);
  CHECK(clLinkProgram(env.context, 1, &env.device, "", 1, &raw, NULL, NULL, &err) == NULL &&
        err == CL_INVALID_OPERATION);

  /* An object through CL_PROGRAM_BINARIES: linked, and built by clBuildProgram. */
  size_t size = 0;
  unsigned char *bin = binary_of(oa, &size);
  cl_program ra = from_binary(&env, bin, size, &err);
  CHECK_CL(err);
  CHECK_EQ_U64(binary_type(&env, ra), CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program rb[2] = {ra, ob};
  cl_program lr = clLinkProgram(env.context, 1, &env.device, "", 2, rb, NULL, NULL, &err);
  CHECK_CL(err);
  run(&env, q, lr, "ka", got);
  EXPECT_INTS(got, 1, 2);
  clReleaseProgram(lr);
  cl_program rb2 = from_binary(&env, bin, size, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(rb2, 1, &env.device, "", NULL, NULL));
  CHECK_EQ_U64(binary_type(&env, rb2), CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  run(&env, q, rb2, "ka", got);
  EXPECT_INTS(got, 1, 2);
  clReleaseProgram(rb2);
  /* cut short, or one byte of a size changed: refused, not read past */
  cl_program cut = from_binary(&env, bin, size - 3, &err);
  CHECK(cut == NULL && err == CL_INVALID_BINARY);
  unsigned char *bent = malloc(size);
  memcpy(bent, bin, size);
  size_t at = 12 + 2 + strlen((const char *)bent + 14) + 1 + 4; /* the first object's size */
  bent[at + 3] ^= 0x40;
  cl_program big = from_binary(&env, bent, size, &err);
  CHECK(big == NULL && err == CL_INVALID_BINARY);
  free(bent);
  free(bin);
  clReleaseProgram(ra);

  /* A library of two objects (through its binary too), linked with a third. */
  cl_program lib = clLinkProgram(env.context, 1, &env.device, "-create-library", 1, &os, NULL, NULL, &err);
  CHECK_CL(err);
  CHECK_EQ_U64(binary_type(&env, lib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  bin = binary_of(lib, &size);
  cl_program rlib = from_binary(&env, bin, size, &err);
  CHECK_CL(err);
  free(bin);
  CHECK_EQ_U64(binary_type(&env, rlib), CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program with_lib[2] = {ou, rlib};
  cl_program ll = clLinkProgram(env.context, 1, &env.device, "", 2, with_lib, NULL, NULL, &err);
  CHECK_CL(err);
  run(&env, q, ll, "ku", got);
  EXPECT_INTS(got, 9, 9);
  clReleaseProgram(ll);
  clReleaseProgram(rlib);
  clReleaseProgram(lib);

  clReleaseProgram(raw);
  clReleaseProgram(od), clReleaseProgram(os), clReleaseProgram(ou), clReleaseProgram(oh);
  clReleaseProgram(oa), clReleaseProgram(ob);
  clReleaseCommandQueue(q);
  CHECK_CL(clReleaseContext(env.context));
  return check_result("icd.link");
}

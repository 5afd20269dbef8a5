/* The device's program store through OpenCL, as pyopencl uses it: programs
 * of ~1 MiB (a 1 MiB __constant table) built from one binary and kept alive
 * until the store is full. The default device holds at least 30 of them
 * (pyopencl's test_algorithm keeps 24-30); the one that does not fit fails
 * clBuildProgram with CL_OUT_OF_RESOURCES (not CL_INVALID_BINARY), its build
 * log naming the store; released programs give their room back, and a
 * program built in the freed room runs. Run with $RVHAL_RAM_MIB too: the
 * store follows the device's RAM. */
#include "cl_test.h"

#define BLOB (1024 * 1024)
#define MAX_PROGRAMS 4096 /* bounds the fill: a 2 GiB device holds ~120 */

static const char *source =
    "#define BLOB (1024 * 1024)\n"
    "__constant uchar blob[BLOB] = {1, 2, 3, [BLOB - 1] = 9};\n"
    "__kernel void peek(__global uint *out, uint tag) {\n"
    "  uint i = get_global_id(0);\n"
    "  out[i] = blob[i == 3 ? BLOB - 1 : i] + tag;\n"
    "}\n";

static cl_program from_binary(cl_test_env_t *env, const unsigned char *bin, size_t size) {
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  cl_program p = clCreateProgramWithBinary(env->context, 1, &env->device, &size, &bin, &status, &err);
  CHECK_MSG(p && err == CL_SUCCESS && status == CL_SUCCESS, "clCreateProgramWithBinary: %d, status %d (%s)", err,
            status, cl_test_last_msg);
  return p;
}

/* Runs peek of p with tag and checks blob's bytes came through. */
static void run_peek(cl_test_env_t *env, cl_program p, cl_uint tag, const char *what) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "peek", &err);
  CHECK_MSG(k != NULL, "%s: clCreateKernel: %d (%s)", what, err, cl_test_last_msg);
  cl_command_queue q = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &err);
  cl_mem out = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 4 * sizeof(cl_uint), NULL, &err);
  if (!k || !q || !out) return;
  CHECK_CL(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_CL(clSetKernelArg(k, 1, sizeof tag, &tag));
  size_t global = 4;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
  cl_uint got[4] = {0};
  CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  const cl_uint want[4] = {1 + tag, 2 + tag, 3 + tag, 9 + tag};
  for (int i = 0; i < 4; i++)
    CHECK_MSG(got[i] == want[i], "%s: out[%d] = %u, expected %u", what, i, got[i], want[i]);
  clReleaseMemObject(out);
  clReleaseCommandQueue(q);
  clReleaseKernel(k);
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env)) return 1;
  const char *ram = getenv("RVHAL_RAM_MIB");

  cl_int err;
  cl_program first = clCreateProgramWithSource(env.context, 1, &source, NULL, &err);
  CHECK_CL(clBuildProgram(first, 1, &env.device, "", NULL, NULL));
  size_t bin_size = 0;
  CHECK_CL(clGetProgramInfo(first, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
  CHECK_MSG(bin_size > BLOB, "the binary has %zu bytes, less than its %d-byte table", bin_size, BLOB);
  unsigned char *bin = malloc(bin_size);
  CHECK_CL(clGetProgramInfo(first, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  run_peek(&env, first, 0, "the program built from source");

  /* Fill the store. */
  static cl_program held[MAX_PROGRAMS];
  size_t n = 0;
  cl_program refused = NULL;
  while (n < MAX_PROGRAMS) {
    cl_program p = from_binary(&env, bin, bin_size);
    if (!p) break;
    err = clBuildProgram(p, 1, &env.device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
      refused = p;
      break;
    }
    held[n++] = p;
  }
  printf("%zu programs of %zu bytes held beside the first (RVHAL_RAM_MIB=%s)\n", n, bin_size, ram ? ram : "unset");
  CHECK_MSG(refused != NULL, "%zu programs of %zu bytes built: the store never filled", n, bin_size);
  if (!ram) /* what pyopencl's test_algorithm keeps alive */
    CHECK_MSG(n + 1 >= 30, "the default device holds %zu programs of %zu bytes, pyopencl keeps 30", n + 1, bin_size);
  if (!refused) return check_result("icd.program_store");
  printf("refused: %s\n", cl_test_last_msg);
  CHECK_MSG(err == CL_OUT_OF_RESOURCES, "a program that does not fit: clBuildProgram returned %d, expected "
            "CL_OUT_OF_RESOURCES (%d)", err, CL_OUT_OF_RESOURCES);
  CHECK_MSG(strstr(cl_test_last_msg, "no room to keep the program") && strstr(cl_test_last_msg, "program store"),
            "the message does not name the store: %s", cl_test_last_msg);
  /* "...(1054096 bytes): N loaded programs hold H of the S MiB program store...": the platform may keep programs of
   * its own on the device, so N counts at least ours; what they hold plus this one exceeds the store. */
  const char *counts = strstr(cl_test_last_msg, "): ");
  unsigned loaded = 0;
  unsigned long long size = 0;
  double hold = 0, store = 0;
  const char *open = counts ? strstr(cl_test_last_msg, "program (") : NULL;
  CHECK_MSG(open && sscanf(open, "program (%llu bytes", &size) == 1 &&
                sscanf(counts, "): %u loaded programs hold %lf of the %lf MiB program store", &loaded, &hold, &store) == 3,
            "the message does not give the sizes: %s", cl_test_last_msg);
  CHECK_MSG(loaded >= n + 1 && hold <= store && hold + size / 1048576.0 > store - 0.01 && size >= BLOB,
            "%zu programs held: the message says %u programs hold %.2f of %.2f MiB, this one %llu bytes", n + 1,
            loaded, hold, store, size);
  char *log = cl_test_build_log(&env, refused);
  CHECK_MSG(log && strstr(log, "no room to keep the program") && strstr(log, "device RAM"),
            "the build log does not say why: %s", log ? log : "(none)");
  free(log);
  cl_build_status status = CL_BUILD_NONE;
  CHECK_CL(clGetProgramBuildInfo(refused, env.device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
  CHECK_MSG(status == CL_BUILD_ERROR, "build status %d after the refusal", status);

  /* Release one: the refused program builds in its room and runs. */
  if (n) {
    CHECK_CL(clReleaseProgram(held[--n]));
    CHECK_CL(clBuildProgram(refused, 1, &env.device, "", NULL, NULL));
    run_peek(&env, refused, 7, "the program built in a released one's room");
    run_peek(&env, n ? held[0] : first, 11, "a program kept since the fill");
  }
  CHECK_CL(clReleaseProgram(refused));
  for (size_t i = 0; i < n; i++) CHECK_CL(clReleaseProgram(held[i]));

  /* Created and released far beyond the limit: each gives its room back. */
  for (size_t i = 0; i < 3 * (n + 2); i++) {
    cl_program p = from_binary(&env, bin, bin_size);
    if (!p) break;
    err = clBuildProgram(p, 1, &env.device, "", NULL, NULL);
    CHECK_MSG(err == CL_SUCCESS, "program %zu of a create/release loop: %d (%s)", i, err, cl_test_last_msg);
    CHECK_CL(clReleaseProgram(p));
    if (err != CL_SUCCESS) break;
  }
  run_peek(&env, first, 13, "the first program after the loop");

  free(bin);
  CHECK_CL(clReleaseProgram(first));
  clReleaseContext(env.context);
  return check_result("icd.program_store");
}

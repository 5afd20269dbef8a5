/* What an OpenCL program that installed no pfn_notify and set no
 * RVHAL_OPENCL_DEBUG sees on stderr when a kernel fails: one line per
 * failure, with rvhal's reason, however many calls report it. Kernels of
 * dt_trap: one that traps with an event waited for, then clFinish (one
 * failure, two calls report it), a blocking read after it (cancelled: no
 * line of its own); one that traps as a held launch clFinish runs; one that
 * hangs (the launch timeout, RVHAL_LAUNCH_TIMEOUT_MS of the test's
 * environment, which the line must name). The test's stderr is captured
 * in a file and counted.
 *   failure_stderr INDEX KERNEL_DIR told|quiet   (quiet: RVHAL_OPENCL_QUIET=1, no line) */
#include <stdint.h>
#include <unistd.h>

#include "cl_test.h"

static void run(cl_test_env_t *env, cl_kernel k, size_t n, uint64_t bad_item, int held, cl_mem marks, cl_mem info) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof info, &info));
  CHECK_CL(clSetKernelArg(k, 1, sizeof marks, &marks));
  CHECK_CL(clSetKernelArg(k, 2, sizeof bad_item, &bad_item));
  if (held) {
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK_CL_ERR(clFinish(q), CL_OUT_OF_RESOURCES);
  } else {
    cl_event ev = NULL;
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev));
    CHECK_CL_ERR(clWaitForEvents(1, &ev), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    uint32_t back[4];
    CHECK(clEnqueueReadBuffer(q, marks, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL) != CL_SUCCESS);
    CHECK(clFinish(q) != CL_SUCCESS);
    clReleaseEvent(ev);
  }
  CHECK_CL(clFinish(q)); /* back in service */
  clReleaseCommandQueue(q);
}

int main(int argc, char **argv) {
  const int quiet = argc > 3 && !strcmp(argv[3], "quiet");
  char path[] = "/tmp/rvhal-failure-stderr-XXXXXX";
  int fd = mkstemp(path);
  int saved = dup(2);
  CHECK(fd >= 0 && saved >= 0);
  if (fd < 0 || saved < 0) return check_result("failure_stderr");
  unlink(path);
  fflush(stderr);
  dup2(fd, 2); /* the library's stderr from here on */

  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env)) return 1;
  cl_program p = cl_test_program(&env, "dt_trap.elf");
  CHECK(p != NULL);
  if (p) {
    cl_int err;
    size_t n = env.harts * 4;
    cl_mem info = clCreateBuffer(env.context, 0, 16 * 8, NULL, &err);
    cl_mem marks = clCreateBuffer(env.context, 0, n * 4, NULL, &err);
    cl_kernel trap = clCreateKernel(p, "trap_illegal", &err), loop = clCreateKernel(p, "trap_loop", &err);
    CHECK(trap && loop);
    run(&env, trap, n, n / 2, 0, marks, info);
    run(&env, trap, n, n / 2, 1, marks, info);
    run(&env, loop, n, n / 2, 0, marks, info);
    clReleaseKernel(trap), clReleaseKernel(loop);
    clReleaseMemObject(info), clReleaseMemObject(marks);
    clReleaseProgram(p);
  }
  clReleaseContext(env.context);

  fflush(stderr);
  dup2(saved, 2);
  static char text[65536];
  ssize_t got = pread(fd, text, sizeof text - 1, 0);
  text[got > 0 ? got : 0] = 0;
  close(fd);
  fprintf(stderr, "%s", text); /* shown, as the program's stderr */
  int lines = 0, traps = 0, timeouts = 0;
  for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
    if (strncmp(l, "rvhal-opencl: ", 14)) continue;
    char *end = strchr(l, '\n');
    if (end) *end = 0;
    lines++;
    traps += strstr(l, "trap_illegal") && strstr(l, "illegal instruction") != NULL;
    timeouts += strstr(l, "trap_loop") && strstr(l, "did not finish") && strstr(l, "RVHAL_LAUNCH_TIMEOUT_MS") != NULL;
    if (end) *end = '\n';
  }
  if (quiet) {
    CHECK_MSG(lines == 0, "RVHAL_OPENCL_QUIET=1: %d lines on stderr", lines);
  } else {
    CHECK_MSG(lines == 3, "%d lines on stderr for 3 failures (two traps, one hang)", lines);
    CHECK_MSG(traps == 2, "%d lines name trap_illegal's illegal instruction, expected 2", traps);
    CHECK_MSG(timeouts == 1, "%d lines name trap_loop's timeout and RVHAL_LAUNCH_TIMEOUT_MS, expected 1", timeouts);
  }
  return check_result("failure_stderr");
}

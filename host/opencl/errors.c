/* Errors stay rvhal's: every failing call returns the specification's code
 * and its message (rvhal's own, naming the value, when rvhal refused) goes
 * to the context's pfn_notify and, with RVHAL_OPENCL_DEBUG=1, to stderr. A
 * command that fails on the device (a kernel that traps or hangs) prints
 * its reason on stderr once, whether or not anything asks, as POCL prints
 * its errors; RVHAL_OPENCL_QUIET=1 silences it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* An environment switch: set to anything but "" or "0". */
static int env_on(const char *name) {
  const char *e = getenv(name);
  return e && *e && strcmp(e, "0") != 0;
}

static int debug_on(void) {
  static int on = -1;
  if (on < 0) on = env_on("RVHAL_OPENCL_DEBUG");
  return on;
}

void rvcl_tell_failure(void *unused, int status, const char *failure) {
  (void)unused;
  static int quiet = -1;
  if (quiet < 0) quiet = env_on("RVHAL_OPENCL_QUIET");
  if (!quiet) fprintf(stderr, "rvhal-opencl: %s (%s)\n", failure, rvhal_status_name(status));
}

const char *rvcl_error_name(cl_int code) {
  switch (code) {
#define N(c) case c: return #c;
    N(CL_SUCCESS) N(CL_DEVICE_NOT_FOUND) N(CL_DEVICE_NOT_AVAILABLE) N(CL_COMPILER_NOT_AVAILABLE)
    N(CL_MEM_OBJECT_ALLOCATION_FAILURE) N(CL_OUT_OF_RESOURCES) N(CL_OUT_OF_HOST_MEMORY)
    N(CL_PROFILING_INFO_NOT_AVAILABLE) N(CL_MEM_COPY_OVERLAP) N(CL_IMAGE_FORMAT_MISMATCH)
    N(CL_IMAGE_FORMAT_NOT_SUPPORTED) N(CL_BUILD_PROGRAM_FAILURE) N(CL_MAP_FAILURE)
    N(CL_MISALIGNED_SUB_BUFFER_OFFSET) N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    N(CL_COMPILE_PROGRAM_FAILURE) N(CL_LINKER_NOT_AVAILABLE) N(CL_LINK_PROGRAM_FAILURE)
    N(CL_DEVICE_PARTITION_FAILED) N(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) N(CL_INVALID_VALUE)
    N(CL_INVALID_DEVICE_TYPE) N(CL_INVALID_PLATFORM) N(CL_INVALID_DEVICE) N(CL_INVALID_CONTEXT)
    N(CL_INVALID_QUEUE_PROPERTIES) N(CL_INVALID_COMMAND_QUEUE) N(CL_INVALID_HOST_PTR)
    N(CL_INVALID_MEM_OBJECT) N(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) N(CL_INVALID_IMAGE_SIZE)
    N(CL_INVALID_SAMPLER) N(CL_INVALID_BINARY) N(CL_INVALID_BUILD_OPTIONS) N(CL_INVALID_PROGRAM)
    N(CL_INVALID_PROGRAM_EXECUTABLE) N(CL_INVALID_KERNEL_NAME) N(CL_INVALID_KERNEL_DEFINITION)
    N(CL_INVALID_KERNEL) N(CL_INVALID_ARG_INDEX) N(CL_INVALID_ARG_VALUE) N(CL_INVALID_ARG_SIZE)
    N(CL_INVALID_KERNEL_ARGS) N(CL_INVALID_WORK_DIMENSION) N(CL_INVALID_WORK_GROUP_SIZE)
    N(CL_INVALID_WORK_ITEM_SIZE) N(CL_INVALID_GLOBAL_OFFSET) N(CL_INVALID_EVENT_WAIT_LIST)
    N(CL_INVALID_EVENT) N(CL_INVALID_OPERATION) N(CL_INVALID_GL_OBJECT) N(CL_INVALID_BUFFER_SIZE)
    N(CL_INVALID_MIP_LEVEL) N(CL_INVALID_GLOBAL_WORK_SIZE) N(CL_INVALID_PROPERTY)
    N(CL_INVALID_IMAGE_DESCRIPTOR) N(CL_INVALID_COMPILER_OPTIONS) N(CL_INVALID_LINKER_OPTIONS)
    N(CL_INVALID_DEVICE_PARTITION_COUNT) N(CL_INVALID_PIPE_SIZE) N(CL_INVALID_DEVICE_QUEUE)
    N(CL_INVALID_SPEC_ID) N(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
#undef N
  }
  return "CL_UNKNOWN_ERROR";
}

static void report(cl_context ctx, const char *func, cl_int code, const char *msg) {
  char line[1200];
  snprintf(line, sizeof line, "%s: %s: %s", func, rvcl_error_name(code), msg);
  if (debug_on()) fprintf(stderr, "rvhal-opencl: %s\n", line);
  if (ctx && ctx->notify) ctx->notify(line, NULL, 0, ctx->notify_user);
}

cl_int rvcl_fail(cl_context ctx, const char *func, cl_int code, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  report(ctx, func, code, msg);
  return code;
}

cl_int rvcl_fail_rvhal(cl_context ctx, const char *func, cl_int code, int status) {
  char msg[1024];
  snprintf(msg, sizeof msg, "%s (%s)", rvhal_last_error(), rvhal_status_name(status));
  report(ctx, func, code, msg);
  return code;
}

cl_int rvcl_exec_status(int status) {
  if (status == RVHAL_OK) return CL_COMPLETE;
  if (status == RVHAL_CANCELLED) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (status == RVHAL_NO_MEMORY) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  return CL_OUT_OF_RESOURCES; /* a trap, a timeout, a lost device: the command could not complete */
}

/* What the OpenCL tests share: the rvhal platform's device the test runs on
 * (argv[1]: its index among the platform's devices; argv[2]: the folder of
 * kernel ELFs for its XLEN), checks that print the OpenCL error's name, and
 * a pfn_notify that keeps the last message (rvhal's, naming the value). */
#ifndef RVHAL_CL_TEST_H
#define RVHAL_CL_TEST_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define CHECK_CL(call)                                                                         \
  do {                                                                                         \
    cl_int cl_e_ = (call);                                                                     \
    CHECK_MSG(cl_e_ == CL_SUCCESS, "%s returned %d (last message: %s)", #call, cl_e_, cl_test_last_msg); \
  } while (0)
#define CHECK_CL_ERR(call, expected)                                                           \
  do {                                                                                         \
    cl_int cl_e_ = (call);                                                                     \
    CHECK_MSG(cl_e_ == (expected), "%s returned %d, expected %s (%d)", #call, cl_e_, #expected, expected); \
  } while (0)

static char cl_test_last_msg[2048];

static void CL_CALLBACK cl_test_notify(const char *msg, const void *info, size_t cb, void *user) {
  (void)info, (void)cb, (void)user;
  snprintf(cl_test_last_msg, sizeof cl_test_last_msg, "%s", msg);
}

typedef struct cl_test_env {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  const char *kernel_dir;
  cl_uint harts, address_bits;
  size_t max_wg;
  cl_ulong local_mem;
} cl_test_env_t;

/* The rvhal platform among those the loader lists (OCL_ICD_VENDORS). */
static inline cl_platform_id cl_test_platform(void) {
  cl_platform_id ps[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, ps, &n) != CL_SUCCESS) return NULL;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[64] = "";
    clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strcmp(name, "rvhal")) return ps[i];
  }
  return NULL;
}

static inline int cl_test_open(int argc, char **argv, cl_test_env_t *env) {
  memset(env, 0, sizeof *env);
  unsigned index = argc > 1 ? (unsigned)atoi(argv[1]) : 0;
  env->kernel_dir = argc > 2 ? argv[2] : ".";
  env->platform = cl_test_platform();
  if (!env->platform) {
    fprintf(stderr, "no rvhal platform: is OCL_ICD_VENDORS set to build/opencl/rvhal.icd?\n");
    return -1;
  }
  cl_device_id ds[32];
  cl_uint n = 0;
  if (clGetDeviceIDs(env->platform, CL_DEVICE_TYPE_ALL, 32, ds, &n) != CL_SUCCESS || index >= n) {
    fprintf(stderr, "rvhal platform has %u devices, no device %u\n", n, index);
    return -1;
  }
  env->device = ds[index];
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof env->harts, &env->harts, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_ADDRESS_BITS, sizeof env->address_bits, &env->address_bits, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof env->max_wg, &env->max_wg, NULL);
  clGetDeviceInfo(env->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof env->local_mem, &env->local_mem, NULL);
  cl_int err;
  env->context = clCreateContext(NULL, 1, &env->device, cl_test_notify, NULL, &err);
  if (!env->context) {
    fprintf(stderr, "clCreateContext: %d\n", err);
    return -1;
  }
  char name[128] = "";
  clGetDeviceInfo(env->device, CL_DEVICE_NAME, sizeof name, name, NULL);
  printf("device %u: %s, %u compute units, %u address bits\n", index, name, env->harts, env->address_bits);
  return 0;
}

/* A program from a kernel ELF of the SDK (CL_PROGRAM_BINARIES' format). */
static inline cl_program cl_test_program(cl_test_env_t *env, const char *elf_name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", env->kernel_dir, elf_name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc((size_t)size);
  size_t got = buf ? fread(buf, 1, (size_t)size, f) : 0;
  fclose(f);
  if (got != (size_t)size) {
    free(buf);
    return NULL;
  }
  size_t len = (size_t)size;
  const unsigned char *bins[1] = {buf};
  cl_int status, err;
  cl_program p = clCreateProgramWithBinary(env->context, 1, &env->device, &len, bins, &status, &err);
  free(buf);
  if (!p) {
    fprintf(stderr, "clCreateProgramWithBinary(%s): %d (%s)\n", path, err, cl_test_last_msg);
    return NULL;
  }
  if (clBuildProgram(p, 1, &env->device, "", NULL, NULL) != CL_SUCCESS) {
    fprintf(stderr, "clBuildProgram(%s) failed: %s\n", path, cl_test_last_msg);
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

/* p's build log on the test's device (free() it; NULL out of memory). */
static inline char *cl_test_build_log(cl_test_env_t *env, cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
  char *log = (char *)calloc(1, n + 1);
  if (log) clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
  return log;
}

static inline cl_uint cl_test_refcount_mem(cl_mem m) {
  cl_uint r = 0;
  clGetMemObjectInfo(m, CL_MEM_REFERENCE_COUNT, sizeof r, &r, NULL);
  return r;
}

#endif /* RVHAL_CL_TEST_H */

/* The device side of the built-in tests: one C SDK kernel that hands each
 * work-item one block (CLT_BLOCK elements) of a driver run. The driver
 * (clt_driver.cl) and the built-in library (sdk/opencl/builtins/ (*.cl)) are
 * OpenCL C compiled by clang-16 for this device; this kernel reaches them
 * through clt_dispatch.c. status[item] receives the driver's answer. */
#include "clt_cases.h"
#include "clt_dispatch.h"
#include "kernel_if.h"

__kernel void clt_run(__global char *in0, __global char *in1, __global char *in2, __global char *in3,
                      __global char *out0, __global char *out1, __global char *out2, __global int *status,
                      int32_t op, int32_t p0, int32_t p1, int32_t p2, int32_t p3, exec_state_t *item) {
  const uint32_t g = get_global_id(0, item);
  void *const in[CLT_MAX_IN] = {in0, in1, in2, in3};
  void *const out[CLT_MAX_OUT] = {out0, out1, out2};
  const int32_t p[4] = {p0, p1, p2, p3};
  status[g] = clt_dispatch(op, p, in, out, g * CLT_BLOCK, CLT_BLOCK);
}

RVHAL_KERNEL_ENTRY(clt_run, RVHAL_GLOBAL(char *, in0), RVHAL_GLOBAL(char *, in1), RVHAL_GLOBAL(char *, in2),
                   RVHAL_GLOBAL(char *, in3), RVHAL_GLOBAL(char *, out0), RVHAL_GLOBAL(char *, out1),
                   RVHAL_GLOBAL(char *, out2), RVHAL_GLOBAL(int *, status), RVHAL_VALUE(int32_t, op),
                   RVHAL_VALUE(int32_t, p0), RVHAL_VALUE(int32_t, p1), RVHAL_VALUE(int32_t, p2),
                   RVHAL_VALUE(int32_t, p3))

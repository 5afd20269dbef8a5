/* Non-uniform work-groups through the OpenCL API on an rvhal device: the
 * device reports CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, a program built
 * as OpenCL C 3.0 runs a 2-D ND-range whose last group along each dimension
 * is smaller (get_local_size, get_enqueued_local_size, get_num_groups, a
 * barrier and __local memory in those groups, every item checked), with
 * clFinish's held launch and with an event; a program built with
 * -cl-uniform-work-group-size, or as OpenCL C 1.2 (no -cl-std), is refused
 * such a range with CL_INVALID_WORK_GROUP_SIZE and a message naming it. */
#include <stdint.h>

#include "cl_test.h"

#define REC 8 /* ulongs per work-item */

static const char *shape_src =
    "__kernel void shape(__global ulong *out, __local uint *scratch) {\n"
    "  size_t n = get_local_size(0) * get_local_size(1), me = get_local_linear_id();\n"
    "  __global ulong *r = out + get_global_linear_id() * 8;\n"
    "  scratch[me] = (uint)me * 3u + 1u;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  r[0] = get_local_size(0); r[1] = get_local_size(1);\n"
    "  r[2] = get_enqueued_local_size(0); r[3] = get_enqueued_local_size(1);\n"
    "  r[4] = get_num_groups(0); r[5] = get_num_groups(1);\n"
    "  r[6] = scratch[(me + 1) % n];\n"
    "  r[7] = get_global_id(0) + 1000 * get_global_id(1);\n"
    "}\n";

static const char *plain_src = "__kernel void plain(__global int *v) { v[get_global_id(0)] = 1; }\n";

static cl_program build(cl_test_env_t *env, const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clBuildProgram(p, 1, &env->device, options, NULL, NULL));
  return p;
}

/* One 2-D launch of `shape` over g with groups of l and offset off, every
 * item's record checked. */
static void run_shape(cl_test_env_t *env, cl_command_queue q, cl_kernel k, const size_t g[2], const size_t l[2],
                      const size_t off[2], int with_event) {
  const size_t items = g[0] * g[1], bytes = items * REC * 8;
  cl_int err;
  cl_mem out = clCreateBuffer(env->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK_CL(clSetKernelArg(k, 1, l[0] * l[1] * 4, NULL));
  cl_event ev = NULL;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 2, off, g, l, 0, NULL, with_event ? &ev : NULL));
  CHECK_CL(clFinish(q));
  if (ev) {
    cl_int st = 1;
    CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    CHECK_EQ_U64(st, CL_COMPLETE);
    clReleaseEvent(ev);
  }
  cl_ulong *r = malloc(bytes);
  CHECK_CL(clEnqueueReadBuffer(q, out, CL_TRUE, 0, bytes, r, 0, NULL, NULL));
  size_t ng[2], bad = 0;
  for (int d = 0; d < 2; d++) ng[d] = (g[d] + l[d] - 1) / l[d];
  for (size_t y = 0; y < g[1]; y++)
    for (size_t x = 0; x < g[0]; x++) {
      const size_t id[2] = {x, y};
      size_t size[2], lid[2];
      for (int d = 0; d < 2; d++) {
        lid[d] = id[d] % l[d];
        size[d] = id[d] / l[d] == ng[d] - 1 ? g[d] - (ng[d] - 1) * l[d] : l[d];
      }
      const size_t n = size[0] * size[1], me = lid[0] + size[0] * lid[1];
      const cl_ulong want[REC] = {size[0], size[1], l[0], l[1], ng[0], ng[1], ((me + 1) % n) * 3 + 1,
                                  (x + off[0]) + 1000 * (y + off[1])};
      const cl_ulong *got = r + (x + g[0] * y) * REC;
      for (int f = 0; f < REC; f++)
        if (got[f] != want[f] && bad++ < 5)
          fprintf(stderr, "%zux%zu/%zux%zu: item (%zu,%zu) field %d: %llu, expected %llu\n", g[0], g[1], l[0], l[1],
                  x, y, f, (unsigned long long)got[f], (unsigned long long)want[f]);
    }
  CHECK_MSG(bad == 0, "%zux%zu in groups of %zux%zu: %zu wrong fields", g[0], g[1], l[0], l[1], bad);
  printf("  %zux%zu in groups of %zux%zu, offset %zu,%zu%s: %zu items ok\n", g[0], g[1], l[0], l[1], off[0], off[1],
         with_event ? ", with an event" : "", items);
  free(r);
  clReleaseMemObject(out);
}

/* A kernel of a program that must have uniform work-groups, over 10 items
 * in groups of 4: refused, the message naming the sizes. */
static void refused(cl_test_env_t *env, cl_command_queue q, const char *options, const char *why) {
  cl_int err;
  cl_program p = build(env, plain_src, options);
  cl_kernel k = clCreateKernel(p, "plain", &err);
  CHECK_CL(err);
  cl_mem v = clCreateBuffer(env->context, CL_MEM_READ_WRITE, 64, NULL, &err);
  CHECK_CL(err);
  CHECK_CL(clSetKernelArg(k, 0, sizeof v, &v));
  size_t g = 10, l = 4;
  cl_test_last_msg[0] = 0;
  CHECK_CL_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  CHECK_MSG(strstr(cl_test_last_msg, "global_work_size[0]=10 is not a multiple of local_work_size[0]=4"),
            "%s: message: %s", why, cl_test_last_msg);
  g = 12; /* a multiple: runs */
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK_CL(clFinish(q));
  printf("  %s: non-uniform refused, uniform runs\n", why);
  clReleaseMemObject(v);
  clReleaseKernel(k);
  clReleaseProgram(p);
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env) != 0) return 1;
  cl_bool nu = CL_FALSE;
  CHECK_CL(clGetDeviceInfo(env.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof nu, &nu, NULL));
  CHECK_EQ_U64(nu, CL_TRUE);
  cl_int err;
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  CHECK_CL(err);

  cl_program p = build(&env, shape_src, "-cl-std=CL3.0");
  cl_kernel k = clCreateKernel(p, "shape", &err);
  CHECK_CL(err);
  const size_t z[2] = {0, 0};
  run_shape(&env, q, k, (size_t[]){13, 7}, (size_t[]){4, 3}, (size_t[]){2, 1}, 0);
  run_shape(&env, q, k, (size_t[]){13, 7}, (size_t[]){4, 3}, z, 1);
  run_shape(&env, q, k, (size_t[]){3, 5}, (size_t[]){8, 2}, z, 0); /* one group of 3 along x */
  run_shape(&env, q, k, (size_t[]){16, 9}, (size_t[]){4, 3}, z, 0); /* uniform */
  /* the largest group the device takes, and one item more */
  const size_t wg = env.max_wg < 256 ? env.max_wg : 256;
  run_shape(&env, q, k, (size_t[]){wg + 1, 1}, (size_t[]){wg, 1}, z, 1);
  clReleaseKernel(k);
  clReleaseProgram(p);

  refused(&env, q, "-cl-std=CL3.0 -cl-uniform-work-group-size", "-cl-std=CL3.0 -cl-uniform-work-group-size");
  refused(&env, q, "", "OpenCL C 1.2 (no -cl-std)");
  refused(&env, q, "-cl-std=CL1.2", "-cl-std=CL1.2");

  clReleaseCommandQueue(q);
  clReleaseContext(env.context);
  return check_result("icd.non_uniform");
}

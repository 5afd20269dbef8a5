/* What an OpenCL C kernel costs against the same kernel through the C SDK,
 * in guest instructions counted exactly (exact timing): clik's vector_add
 * (examples/vector_add, C SDK) against the same body in OpenCL C compiled at
 * run time, same device and ND-range; and the instructions per work-item
 * per barrier of an OpenCL C barrier loop. Instruction counts under
 * -icount are deterministic, so the bounds are not timing. Bounds: the
 * OpenCL C vector add within 5 % of the SDK's instructions (issue 18: at
 * least 0.95 of the C SDK's speed), alone no more than the SDK's, a
 * barrier under 60 instructions per
 * work-item (the C SDK's bound, docs/architecture.md). The OpenCL C entry
 * is the C SDK's (RVHAL_CL_ENTRY): the same row loop, the same plain path
 * for programs without barrier(). The vector add is measured twice: in a
 * program with a barrier (its second kernel), where it runs the general
 * path, and alone, on the plain path as examples/vector_add. */
#include "../exec/exec_util.h"
#include "rvhal/compiler.h"

#define VECTOR_ADD                                                                       \
  "__kernel void vector_add(__global uint *src1, __global uint *src2, __global uint *dst) {\n" \
  "  uint tid = get_global_id(0);\n"                                                        \
  "  dst[tid] = src1[tid] + src2[tid];\n"                                                   \
  "}\n"
static const char plain_source[] = VECTOR_ADD;
static const char source[] =
    VECTOR_ADD
    "__kernel void barriers(uint rounds) {\n"
    "  for (uint i = 0; i < rounds; i++) barrier(CLK_LOCAL_MEM_FENCE);\n"
    "}\n";

static uint64_t instructions(rvhal_device_t *d, hal_program_t p, const char *name, uint64_t global, uint64_t local,
                             const hal_arg_t *args, uint32_t n) {
  hal_kernel_t k = fixture_kernel(d, p, name);
  if (ex_launch(d, p, k, 1, (uint64_t[3]){global, 1, 1}, (uint64_t[3]){local, 1, 1}, args, n, NULL, name)) return 0;
  uint64_t sum = 0, v;
  for (uint32_t h = 0; h < rvhal_device_get_info(d)->num_harts; h++)
    if (rvhal_counter_read(d, RVHAL_HART_COUNTER_INSTRET, &v, h) == 1) sum += v;
  return sum;
}

/* src compiled for d and loaded; 0 on failure (a check failed). */
static hal_program_t compiled(rvhal_device_t *d, const char *src) {
  rvhal_opencl_compile_desc_t desc = {src, 0, "overhead.cl", NULL, rvhal_device_get_info(d)->word_size * 8,
                                      rvhal_device_get_info(d)->isa};
  void *elf = NULL;
  size_t size = 0;
  char *log = NULL;
  int rc = rvhal_opencl_compile(&desc, &elf, &size, &log);
  CHECK_MSG(rc == RVHAL_OK, "opencl_compile: %s\n%s", rvhal_last_error(), log ? log : "");
  free(log);
  hal_program_t p = 0;
  if (!rc) CHECK_OK(rvhal_program_load(d, elf, size, &p));
  free(elf);
  return p;
}

int main(void) {
  ex_clean_env();
  rvhal_device_t *d = ex_device(2, 1, RVHAL_TIMING_EXACT);
  const char *why = NULL;
  hal_program_t sdk = fixture_program(d, "vector_add");
  hal_program_t cl = compiled(d, source), plain = compiled(d, plain_source);
  if (!cl || !plain) return check_result("opencl.overhead");

  const uint64_t N = 1u << 16;
  hal_addr_t a = dt_buffer(d, N * 4, NULL), b = dt_buffer(d, N * 4, NULL), c = dt_buffer(d, N * 4, NULL);
  hal_arg_t args[3] = {rvhal_arg_global(a), rvhal_arg_global(b), rvhal_arg_global(c)};
  instructions(d, sdk, "vector_add_entry", 64, 64, args, 3); /* install both programs */
  instructions(d, cl, "vector_add", 64, 64, args, 3);
  instructions(d, plain, "vector_add", 64, 64, args, 3);
  uint64_t is = instructions(d, sdk, "vector_add_entry", N, 64, args, 3);
  uint64_t ic = instructions(d, cl, "vector_add", N, 64, args, 3);
  uint64_t ip = instructions(d, plain, "vector_add", N, 64, args, 3);
  CHECK_MSG(rvhal_counters_exact(d, &why), "counts are not exact: %s", why ? why : "?");
  CHECK_MSG(is > N && ic > N, "instruction counts %" PRIu64 " and %" PRIu64 " for %" PRIu64 " items", is, ic, N);
  CHECK_MSG(ic * 100 <= is * 105, "vector_add: OpenCL C %" PRIu64 " instructions, C SDK %" PRIu64 ": more than 5 %% over",
            ic, is);
  /* Alone, on the same plain loops as the C SDK's: no more instructions
   * than GCC's (more, 1.014, when the compiler left the row loop's
   * assumption in: opencl_compile.c, drop_assumes). */
  CHECK_MSG(ip <= is, "vector_add alone: OpenCL C %" PRIu64 " instructions, more than the C SDK's %" PRIu64, ip, is);
  printf("vector_add, %" PRIu64 " items in groups of 64 on %u harts: C SDK %" PRIu64 ", OpenCL C %" PRIu64
         " (%.3f) in a program with barrier(), %" PRIu64 " (%.3f) alone\n",
         N, rvhal_device_get_info(d)->num_harts, is, ic, (double)ic / (double)is, ip, (double)ip / (double)is);

  uint32_t r16 = 16, r32 = 32;
  hal_arg_t a16 = rvhal_arg_value(&r16, 4), a32 = rvhal_arg_value(&r32, 4);
  const uint64_t items = 16 * 64;
  uint64_t b16 = instructions(d, cl, "barriers", items, 64, &a16, 1), b32 = instructions(d, cl, "barriers", items, 64, &a32, 1);
  double per_barrier = (double)(b32 - b16) / (double)(items * 16);
  CHECK_MSG(b32 > b16 && per_barrier < 60.0, "OpenCL C barrier: %.2f instructions per work-item per barrier", per_barrier);
  printf("OpenCL C barrier: %.2f instructions per work-item per barrier (16 groups of 64)\n", per_barrier);
  CHECK_OK(rvhal_mem_free(d, a));
  CHECK_OK(rvhal_mem_free(d, b));
  CHECK_OK(rvhal_mem_free(d, c));
  rvhal_device_delete(d);
  return check_result("opencl.overhead");
}

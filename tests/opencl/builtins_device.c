/* The OpenCL C built-in library on the device: sdk/opencl/builtins/ (*.cl) and
 * the test driver compiled by clang-16 for the device's XLEN, linked into
 * the C kernel clt_kernel.elf (clt_kernel.c), run on the harts of the device
 * under test (RV64, or RV32 for the .rv32 variant) with picolibc's libm;
 * every result read back and checked on the host against the same
 * references as the host test (clt_check.c): math in ulps within the
 * OpenCL 1.2 limits, convert_* in every mode, half stores against the
 * exact nearest half, integer functions against 128-bit arithmetic.
 *   builtins_device [family]  (math, convert, half, integer, other) */
#include "clt_cases.h"
#include "clt_check.h"
#include "dev_util.h"

/* Device buffers reused by every run, large enough for the sizes below. */
#define BUF_BYTES (1u << 20)

typedef struct device_runner {
  rvhal_device_t *dev;
  hal_program_t prog;
  hal_kernel_t kernel;
  hal_addr_t in[CLT_MAX_IN], out[CLT_MAX_OUT], status;
  int32_t *status_host;
  uint64_t launches;
} device_runner_t;

static int device_run(void *ctx, int32_t op, const int32_t p[4], void *const in[CLT_MAX_IN],
                      void *const out[CLT_MAX_OUT], uint32_t n) {
  device_runner_t *r = ctx;
  clt_array_shape_t si[CLT_MAX_IN], so[CLT_MAX_OUT];
  if (clt_shapes(op, p, si, so) || n % CLT_BLOCK) {
    fprintf(stderr, "device run: op %d with parameters %d %d %d %d, n %u: not a driver run\n", op, p[0], p[1], p[2],
            p[3], n);
    return -1;
  }
  size_t in_bytes[CLT_MAX_IN], out_bytes[CLT_MAX_OUT];
  for (int i = 0; i < CLT_MAX_IN; i++) in_bytes[i] = (size_t)n * si[i].num / si[i].den * si[i].size;
  for (int i = 0; i < CLT_MAX_OUT; i++) out_bytes[i] = (size_t)n * so[i].num / so[i].den * so[i].size;
  for (int i = 0; i < CLT_MAX_IN + CLT_MAX_OUT; i++) {
    size_t b = i < CLT_MAX_IN ? in_bytes[i] : out_bytes[i - CLT_MAX_IN];
    if (b > BUF_BYTES) {
      fprintf(stderr, "device run: op %d needs %zu bytes in array %d, the test's buffers hold %u\n", op, b, i,
              BUF_BYTES);
      return -1;
    }
  }
  for (int i = 0; i < CLT_MAX_IN; i++)
    if (in_bytes[i] && in[i] && rvhal_mem_write(r->dev, r->in[i], in[i], in_bytes[i])) goto fail;
  const uint32_t items = n / CLT_BLOCK;
  const int32_t junk = 0x7eadbeef;
  if (rvhal_mem_fill(r->dev, r->status, &junk, 4, (size_t)items * 4)) goto fail;
  hal_arg_t a[13];
  for (int i = 0; i < CLT_MAX_IN; i++) a[i] = rvhal_arg_global(r->in[i]);
  for (int i = 0; i < CLT_MAX_OUT; i++) a[CLT_MAX_IN + i] = rvhal_arg_global(r->out[i]);
  a[7] = rvhal_arg_global(r->status);
  a[8] = rvhal_arg_value(&op, 4);
  for (int i = 0; i < 4; i++) a[9 + i] = rvhal_arg_value(&p[i], 4);
  hal_ndrange_t nd = {.global = {items, 1, 1}, .local = {1, 1, 1}};
  if (rvhal_kernel_exec(r->dev, r->prog, r->kernel, &nd, a, 13, 1)) goto fail;
  r->launches++;
  if (rvhal_mem_read(r->dev, r->status_host, r->status, (size_t)items * 4)) goto fail;
  for (uint32_t g = 0; g < items; g++)
    if (r->status_host[g]) {
      fprintf(stderr, "device run: op %d (%d %d %d %d): item %u answered %d\n", op, p[0], p[1], p[2], p[3], g,
              r->status_host[g]);
      return -1;
    }
  for (int i = 0; i < CLT_MAX_OUT; i++)
    if (out_bytes[i] && out[i] && rvhal_mem_read(r->dev, out[i], r->out[i], out_bytes[i])) goto fail;
  return 0;
fail:
  fprintf(stderr, "device run: op %d: %s\n", op, rvhal_last_error());
  return -1;
}

int main(int argc, char **argv) {
  device_runner_t r = {0};
  r.dev = fixture_device(4);
  r.prog = fixture_program(r.dev, "clt_kernel");
  CHECK_OK(rvhal_program_find_kernel(r.dev, r.prog, "clt_run_entry", &r.kernel));
  for (int i = 0; i < CLT_MAX_IN; i++) r.in[i] = dt_buffer(r.dev, BUF_BYTES, NULL);
  for (int i = 0; i < CLT_MAX_OUT; i++) r.out[i] = dt_buffer(r.dev, BUF_BYTES, NULL);
  r.status = dt_buffer(r.dev, BUF_BYTES, NULL);
  r.status_host = malloc(BUF_BYTES);
  /* Fewer samples than the host test: the device's share of the 30 s
   * budget. Every function, type, mode and width still runs. */
  clt_options_t o = {.math_samples = 480, .samples = 240, .all_widths = 0, .half_stride = 13, .verbose = 1};
  if (argc > 1) o.only = argv[1];
  const double t0 = dt_now();
  int failed = clt_check_all(device_run, &r, &o);
  printf("%s: %" PRIu64 " launches in %.1f s\n", rvhal_device_get_info(r.dev)->word_size == 8 ? "RV64" : "RV32",
         r.launches, dt_now() - t0);
  CHECK_MSG(failed == 0, "%d built-in checks failed on the device", failed);
  free(r.status_host);
  rvhal_device_delete(r.dev);
  return check_result("opencl builtins (device)");
}

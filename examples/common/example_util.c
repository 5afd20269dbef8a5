#include <stdio.h>
#include <string.h>

#include "example.h"

int example_fail(char *summary, size_t cap, const char *what, int rc) {
  snprintf(summary, cap, "%s: %s: %s", what, rvhal_status_name(rc), rvhal_last_error());
  return rc ? rc : -1;
}

int example_local_1d(const example_ctx_t *ctx, uint32_t default_local, uint32_t *out_local, char *summary,
                     size_t cap) {
  const uint32_t local = ctx->local_size ? ctx->local_size : default_local;
  const uint32_t max_items = rvhal_device_get_info(ctx->dev)->max_work_group_size;
  if (local > max_items) {
    snprintf(summary, cap, "not run: groups of %u work-items, the device allows at most %u", local, max_items);
    return -1;
  }
  *out_local = local;
  return 0;
}

uint32_t example_link_count(const example_ctx_t *ctx, uint32_t count, size_t item_bytes, uint32_t unit,
                            double seconds) {
  const uint64_t bps = rvhal_device_get_info(ctx->dev)->link_bytes_per_s;
  /* three wire bytes a byte: the write, and the read's reply in hex */
  const double fits = bps ? (double)bps * seconds / 3 / (double)item_bytes : 0;
  if (!bps || fits >= count) return count;
  uint32_t n = (uint32_t)fits;
  n -= n % unit;
  return n < unit ? unit : n;
}

int example_load(const example_ctx_t *ctx, const char *program, const char *kernel, hal_program_t *out_program,
                 hal_kernel_t *out_kernel, char *summary, size_t cap) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.elf", ctx->kernel_dir, program);
  int rc = rvhal_program_load_file(ctx->dev, path, out_program);
  if (rc) return example_fail(summary, cap, "program_load", rc);
  rc = rvhal_program_find_kernel(ctx->dev, *out_program, kernel, out_kernel);
  if (rc) {
    rvhal_program_free(ctx->dev, *out_program);
    return example_fail(summary, cap, "program_find_kernel", rc);
  }
  return 0;
}

uint32_t example_rand(uint32_t *state) {
  /* xorshift32 */
  uint32_t x = *state ? *state : 0x9e3779b9u;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return *state = x;
}

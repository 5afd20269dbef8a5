/* copy_buffer: out[i] = in[i] for 15360 elements of each of 1, 2, 4, 8 and
 * 16 bytes, then a large buffer of 491520 uints (1.875 MiB); fewer behind a
 * slow debug link (example_link_count). Each output sits between guard
 * bytes that must stay as they were; every byte is checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define N_SMALL 15360  /* 240 * 64 */
#define N_LARGE 491520 /* 240 * 2048 */
#define GUARD 64       /* bytes before and after each output */
#define GUARD_BYTE 0xa5

typedef struct copy_run {
  const char *kernel;
  const char *type;
  uint32_t elem_size, count;
} copy_run_t;

static const copy_run_t runs[] = {
    {"copy_uchar_entry", "uchar", 1, N_SMALL}, {"copy_ushort_entry", "ushort", 2, N_SMALL},
    {"copy_uint_entry", "uint", 4, N_SMALL},   {"copy_ulong_entry", "ulong", 8, N_SMALL},
    {"copy_uint4_entry", "uint4", 16, N_SMALL}, {"copy_uint_entry", "uint", 4, N_LARGE},
};

/* One copy; 0 if every byte is right, else a message in summary. */
static int copy_once(const example_ctx_t *ctx, hal_program_t prog, const copy_run_t *r, uint32_t local, uint32_t *seed,
                     char *summary, size_t cap) {
  hal_kernel_t k;
  int rc = rvhal_program_find_kernel(ctx->dev, prog, r->kernel, &k);
  if (rc) return example_fail(summary, cap, "program_find_kernel", rc);
  const uint32_t n = example_round_up(example_link_count(ctx, r->count, r->elem_size, 64, 8.0), local);
  const size_t bytes = (size_t)n * r->elem_size, total = bytes + 2 * GUARD;
  uint8_t *in = malloc(bytes), *out = malloc(total);
  hal_addr_t din = 0, dout = 0;
  if (!in || !out) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < bytes; i++) in[i] = (uint8_t)(example_rand(seed) >> 24);
  const uint8_t guard = GUARD_BYTE;
  if ((rc = rvhal_mem_alloc(ctx->dev, bytes, 0, &din)) || (rc = rvhal_mem_alloc(ctx->dev, total, 0, &dout)) ||
      (rc = rvhal_mem_write(ctx->dev, din, in, bytes)) || (rc = rvhal_mem_fill(ctx->dev, dout, &guard, 1, total))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  /* The output buffer starts GUARD bytes into its allocation. */
  hal_arg_t args[2] = {rvhal_arg_global(din), rvhal_arg_global(dout + GUARD)};
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 2, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, out, dout, total))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  rc = 0;
  for (size_t i = 0; i < GUARD && !rc; i++)
    if (out[i] != GUARD_BYTE || out[GUARD + bytes + i] != GUARD_BYTE) {
      snprintf(summary, cap, "%s copy of %u: guard byte %s the output was overwritten", r->type, n,
               out[i] != GUARD_BYTE ? "before" : "after");
      rc = -1;
    }
  if (!rc && memcmp(out + GUARD, in, bytes)) {
    size_t bad = 0, first = 0;
    for (size_t e = 0; e < n; e++)
      if (memcmp(out + GUARD + e * r->elem_size, in + e * r->elem_size, r->elem_size) && bad++ == 0) first = e;
    snprintf(summary, cap, "%s copy of %u: %zu elements differ, first out[%zu]", r->type, n, bad, first);
    rc = -1;
  }
out:
  rvhal_mem_free(ctx->dev, din);
  rvhal_mem_free(ctx->dev, dout);
  free(in);
  free(out);
  return rc;
}

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 64, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "copy_buffer", "copy_uint_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  uint32_t seed = 5;
  for (size_t i = 0; i < sizeof runs / sizeof *runs && !rc; i++) rc = copy_once(ctx, prog, &runs[i], local, &seed, summary, cap);
  if (!rc)
    snprintf(summary, cap, "1-D, 1-16 B x %u, uint x %u; groups of %u",
             example_round_up(example_link_count(ctx, N_SMALL, 16, 64, 8.0), local),
             example_round_up(example_link_count(ctx, N_LARGE, 4, 64, 8.0), local), local);
  rvhal_program_free(ctx->dev, prog);
  return rc;
}

const example_t example_copy_buffer = {"copy_buffer", "out[i] = in[i] for 1-16 byte elements and a 1.9 MiB buffer", run};

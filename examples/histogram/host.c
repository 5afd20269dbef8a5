/* histogram (1-D): 256-bin histogram of 61440 bytes, half of them drawn from
 * three values so that atomics contend, by 960 work-items each taking every
 * 960th byte; local histograms per group merged into the global one. Every
 * bin is checked against a host count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define BYTES 61440 /* 240 * 256 */
#define ITEMS 960
#define BINS 256

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 64, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "histogram", "histogram_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t items = example_round_up(ITEMS, local), n = BYTES;
  uint8_t *data = malloc(n);
  uint32_t hist[BINS], want[BINS] = {0}, seed = 13;
  hal_addr_t ddata = 0, dhist = 0;
  if (!data) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  static const uint8_t hot[3] = {0, 7, 255};
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = example_rand(&seed);
    data[i] = r & 1 ? hot[(r >> 1) % 3] : (uint8_t)(r >> 24);
    want[data[i]]++;
  }
  const uint32_t zero = 0;
  if ((rc = rvhal_mem_alloc(ctx->dev, n, 0, &ddata)) || (rc = rvhal_mem_alloc(ctx->dev, sizeof hist, 0, &dhist)) ||
      (rc = rvhal_mem_write(ctx->dev, ddata, data, n)) || (rc = rvhal_mem_fill(ctx->dev, dhist, &zero, 4, sizeof hist))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_arg_t args[3] = {rvhal_arg_global(ddata), rvhal_arg_value(&n, sizeof n), rvhal_arg_global(dhist)};
  hal_ndrange_t nd = {.global = {items, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  if ((rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 3, 1, &lo))) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, hist, dhist, sizeof hist))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  size_t bad = 0;
  uint64_t total = 0;
  for (uint32_t b = 0; b < BINS; b++) {
    total += hist[b];
    if (hist[b] != want[b] && bad++ == 0) snprintf(summary, cap, "bin %u = %u, expected %u", b, hist[b], want[b]);
  }
  if (bad) {
    size_t len = strlen(summary);
    snprintf(summary + len, cap - len, "; %zu bins differ, %llu bytes counted of %u", bad, (unsigned long long)total, n);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, %u bytes, %u items in groups of %u", n, items, local);
  }
out:
  rvhal_mem_free(ctx->dev, ddata);
  rvhal_mem_free(ctx->dev, dhist);
  rvhal_program_free(ctx->dev, prog);
  free(data);
  return rc;
}

const example_t example_histogram = {"histogram", "256-bin byte histogram: local atomics, merged with atomic_add",
                                     run};

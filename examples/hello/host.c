/* hello: 240 work-items each print "hello from work-item G (group W,
 * local L)". The host takes the lines through a print callback and checks
 * that every work-item printed exactly one line, with the right ids, and
 * that nothing else was printed. Kernel output goes back to stdout after. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define N 240

typedef struct capture {
  uint32_t n, local;
  uint8_t *seen;      /* lines per work-item */
  size_t lines, bad;  /* lines received; lines that are no work-item's correct line */
  char first_bad[200];
} capture_t;

static void capture_line(void *user, const char *line, size_t len) {
  capture_t *c = user;
  c->lines++;
  char text[160], want[160];
  size_t n = len < sizeof text - 1 ? len : sizeof text - 1;
  memcpy(text, line, n);
  text[n] = '\0';
  unsigned gid;
  int ok = sscanf(text, "hello from work-item %u", &gid) == 1 && gid < c->n;
  if (ok) {
    int w = snprintf(want, sizeof want, "hello from work-item %u (group %u, local %u)", gid, gid / c->local,
                     gid % c->local);
    ok = (size_t)w == len && memcmp(line, want, len) == 0;
  }
  if (ok) {
    if (c->seen[gid] < 255) c->seen[gid]++;
  } else if (c->bad++ == 0) {
    snprintf(c->first_bad, sizeof c->first_bad, "%s", text);
  }
}

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 8, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "hello", "hello_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t n = example_round_up(N, local);
  capture_t cap_state = {.n = n, .local = local, .seen = calloc(n, 1)};
  if (!cap_state.seen) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  rvhal_print_fn_t saved_fn;
  void *saved_user;
  rvhal_device_get_print_fn(ctx->dev, &saved_fn, &saved_user);
  rvhal_device_set_print_fn(ctx->dev, capture_line, &cap_state);
  rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, NULL, 0, 1, &lo);
  rvhal_device_set_print_fn(ctx->dev, saved_fn, saved_user);
  if (rc) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  size_t missing = 0, repeated = 0;
  uint32_t first_missing = 0, first_repeated = 0;
  for (uint32_t g = 0; g < n; g++) {
    if (cap_state.seen[g] == 0 && missing++ == 0) first_missing = g;
    if (cap_state.seen[g] > 1 && repeated++ == 0) first_repeated = g;
  }
  if (cap_state.bad)
    snprintf(summary, cap, "%zu of %zu lines wrong, first: \"%s\"", cap_state.bad, cap_state.lines, cap_state.first_bad);
  else if (missing)
    snprintf(summary, cap, "%zu work-items printed nothing, first %u (%zu lines received)", missing, first_missing,
             cap_state.lines);
  else if (repeated)
    snprintf(summary, cap, "%zu work-items printed more than once, first %u (%u times)", repeated, first_repeated,
             cap_state.seen[first_repeated]);
  else
    snprintf(summary, cap, "1-D, %u items in groups of %u, %zu lines", n, local, cap_state.lines);
  rc = cap_state.bad || missing || repeated ? -1 : 0;
out:
  rvhal_program_free(ctx->dev, prog);
  free(cap_state.seen);
  return rc;
}

const example_t example_hello = {"hello", "every work-item prints its ids; the host checks each line", run};

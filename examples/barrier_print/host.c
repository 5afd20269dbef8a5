/* barrier_print (1-D): kernel print() around a barrier. The host captures
 * the lines (rvhal_device_set_print_fn) and checks that every work-item
 * printed "part A" and "part B" exactly once, and that in each group every
 * "part A" line comes before any "part B" line. It also checks that each
 * item, past the barrier, saw its whole group counted in. The device's
 * print function is put back afterwards. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define N_BASE 240u /* divisible by 1, 2, 3, 4, 5, 6, 8, 16; 480 lines */

typedef struct {
  char **lines;
  size_t count, cap;
  int oom;
  int echo; /* also show the lines (verbose) */
} capture_t;

static void capture(void *user, const char *line, size_t len) {
  capture_t *c = user;
  if (c->echo) printf("%.*s\n", (int)len, line);
  if (c->oom) return;
  if (c->count == c->cap) {
    size_t ncap = c->cap ? 2 * c->cap : 512;
    char **p = realloc(c->lines, ncap * sizeof *p);
    if (!p) {
      c->oom = 1;
      return;
    }
    c->lines = p;
    c->cap = ncap;
  }
  char *s = malloc(len + 1);
  if (!s) {
    c->oom = 1;
    return;
  }
  memcpy(s, line, len);
  s[len] = 0;
  c->lines[c->count++] = s;
}

/* Checks the captured lines; 0 if all is well, else -1 with `summary` set. */
static int check_lines(const capture_t *c, uint32_t n, uint32_t local, char *summary, size_t cap) {
  const uint32_t groups = n / local;
  size_t *line_a = malloc((size_t)n * sizeof *line_a), *line_b = malloc((size_t)n * sizeof *line_b);
  size_t *last_a = malloc((size_t)groups * sizeof *last_a), *first_b = malloc((size_t)groups * sizeof *first_b);
  int rc = -1;
  if (!line_a || !line_b || !last_a || !first_b || c->oom) {
    snprintf(summary, cap, "out of host memory capturing the output");
    goto out;
  }
  const size_t none = (size_t)-1;
  for (uint32_t i = 0; i < n; i++) line_a[i] = line_b[i] = none;
  for (uint32_t g = 0; g < groups; g++) last_a[g] = first_b[g] = none;
  for (size_t k = 0; k < c->count; k++) {
    unsigned g, l, id;
    char part, end;
    if (sscanf(c->lines[k], "group %u item %u global %u: part %c%c", &g, &l, &id, &part, &end) != 4 ||
        (part != 'A' && part != 'B')) {
      snprintf(summary, cap, "line %zu is not a line of the kernel: \"%.100s\"", k + 1, c->lines[k]);
      goto out;
    }
    if (g >= groups || l >= local || id != g * local + l) {
      snprintf(summary, cap, "line %zu: ids inconsistent (group %u, item %u, global %u; %u groups of %u): \"%s\"", k + 1,
               g, l, id, groups, local, c->lines[k]);
      goto out;
    }
    size_t *slot = part == 'A' ? &line_a[id] : &line_b[id];
    if (*slot != none) {
      snprintf(summary, cap, "work-item %u printed part %c twice (lines %zu and %zu)", id, part, *slot + 1, k + 1);
      goto out;
    }
    *slot = k;
    if (part == 'A') last_a[g] = k; /* lines come in order: the last one seen is the latest */
    else if (first_b[g] == none) first_b[g] = k;
  }
  for (uint32_t i = 0; i < n; i++)
    if (line_a[i] == none || line_b[i] == none) {
      snprintf(summary, cap, "work-item %u did not print part %c (%zu lines captured, %u expected)", i,
               line_a[i] == none ? 'A' : 'B', c->count, 2 * n);
      goto out;
    }
  for (uint32_t g = 0; g < groups; g++)
    if (last_a[g] > first_b[g]) {
      snprintf(summary, cap, "group %u: \"%s\" (line %zu) came after \"%s\" (line %zu)", g, c->lines[last_a[g]],
               last_a[g] + 1, c->lines[first_b[g]], first_b[g] + 1);
      goto out;
    }
  rc = 0;
out:
  free(line_a);
  free(line_b);
  free(last_a);
  free(first_b);
  return rc;
}

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 8, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "barrier_print", "barrier_print_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const uint32_t n = example_round_up(N_BASE, local); /* round up to whole groups */
  const uint32_t groups = n / local;
  uint32_t *seen = malloc((size_t)n * sizeof *seen);
  capture_t cap_lines = {.echo = ctx->verbose};
  hal_addr_t darrived = 0, dseen = 0;
  const uint32_t zero = 0;
  if (!seen) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  if ((rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)groups * 4, 0, &darrived)) ||
      (rc = rvhal_mem_alloc(ctx->dev, (hal_size_t)n * 4, 0, &dseen)) ||
      (rc = rvhal_mem_fill(ctx->dev, darrived, &zero, 4, (hal_size_t)groups * 4)) ||
      (rc = rvhal_mem_fill(ctx->dev, dseen, &zero, 4, (hal_size_t)n * 4))) {
    rc = example_fail(summary, cap, "memory", rc);
    goto out;
  }
  hal_ndrange_t nd = {.global = {n, 1, 1}, .local = {local, 1, 1}};
  hal_arg_t args[2] = {rvhal_arg_global(darrived), rvhal_arg_global(dseen)};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  rvhal_print_fn_t saved_fn;
  void *saved_user;
  rvhal_device_get_print_fn(ctx->dev, &saved_fn, &saved_user);
  rvhal_device_set_print_fn(ctx->dev, capture, &cap_lines);
  rc = rvhal_kernel_exec_ex(ctx->dev, prog, k, &nd, args, 2, 1, &lo);
  rvhal_device_set_print_fn(ctx->dev, saved_fn, saved_user); /* put back whatever was there */
  if (rc) {
    rc = example_fail(summary, cap, "kernel_exec", rc);
    goto out;
  }
  if ((rc = rvhal_mem_read(ctx->dev, seen, dseen, (hal_size_t)n * 4))) {
    rc = example_fail(summary, cap, "mem_read", rc);
    goto out;
  }
  if ((rc = check_lines(&cap_lines, n, local, summary, cap))) goto out;
  for (uint32_t i = 0; i < n; i++)
    if (seen[i] != local) {
      snprintf(summary, cap, "work-item %u (group %u) saw %u of its group's %u items arrived past the barrier", i,
               i / local, seen[i], local);
      rc = -1;
      goto out;
    }
  if (cap_lines.count != 2 * (size_t)n) { /* cannot happen once every item printed each part exactly once */
    snprintf(summary, cap, "%zu lines captured, %u expected", cap_lines.count, 2 * n);
    rc = -1;
    goto out;
  }
  snprintf(summary, cap, "1-D, %u items in groups of %u, %zu lines in order", n, local, cap_lines.count);
  rc = 0;
out:
  for (size_t i = 0; i < cap_lines.count; i++) free(cap_lines.lines[i]);
  free(cap_lines.lines);
  rvhal_mem_free(ctx->dev, darrived);
  rvhal_mem_free(ctx->dev, dseen);
  rvhal_program_free(ctx->dev, prog);
  free(seen);
  return rc;
}

const example_t example_barrier_print = {"barrier_print", "print() before and after a barrier, order checked (1-D)",
                                         run};

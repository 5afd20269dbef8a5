/* print() under volume and across barriers (kernels ex_print_lines and
 * ex_print_phases of tests/exec/ex_misc.c).
 *
 * - One hart printing 3000 lines of 40 characters in one launch (each a
 *   record of 64 bytes with its header: 192 KB, three times the hart's
 *   64 KiB print ring): every line arrives exactly once, in order for each
 *   work-item, and no "[rvhal: ...]" note about lost or cut output appears
 *   (a hart whose ring is full waits for the host to drain it). Also with 4
 *   items on that hart, with every hart of the device printing at the same
 *   time, and on an exact-timing device.
 * - Lines printed in barrier-separated phases keep their order across
 *   work-items: in each group, every line of phase p comes before any line
 *   of phase p+1; with groups on one hart each and on a team of harts.
 * Lines are collected with rvhal_device_set_print_fn. */
#include "exec_util.h"

typedef struct lines {
  char **text;
  size_t n, cap;
} lines_t;

static void collect(void *user, const char *line, size_t len) {
  lines_t *l = user;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 4096;
    l->text = realloc(l->text, l->cap * sizeof *l->text);
  }
  char *s = malloc(len + 1);
  memcpy(s, line, len);
  s[len] = '\0';
  l->text[l->n++] = s;
}

static void clear_lines(lines_t *l) {
  for (size_t i = 0; i < l->n; i++) free(l->text[i]);
  l->n = 0;
}

/* Lines of the volume kernel: items x per_item lines, each exactly once, in
 * order per item, and nothing else. */
static void check_volume(const lines_t *l, uint32_t items, uint32_t per_item, const char *what) {
  uint32_t *next = calloc(items, sizeof *next);
  size_t bad = 0, notes = 0;
  for (size_t i = 0; i < l->n; i++) {
    unsigned item = UINT32_MAX, line = 0, sum = 0;
    char tail[8];
    const char *s = l->text[i];
    if (!strncmp(s, "[rvhal:", 7)) {
      if (notes++ < 3) fprintf(stderr, "%s: %s\n", what, s);
      continue;
    }
    int ok = strlen(s) == 40 && sscanf(s, "V item=%5u line=%5u sum=%10u%2s", &item, &line, &sum, tail) == 4 &&
             !strcmp(tail, "..") && item < items && sum == item * 100003u + line * 7u && line == next[item];
    if (ok) {
      next[item]++;
    } else if (bad++ < 5) {
      fprintf(stderr, "%s: line %zu \"%.100s\" unexpected (item's next line: %u)\n", what, i, s,
              item < items ? next[item] : 0);
    }
  }
  CHECK_MSG(notes == 0, "%s: %zu notes about lost or cut output", what, notes);
  CHECK_MSG(bad == 0, "%s: %zu lines missing, repeated, out of order or garbled", what, bad);
  uint32_t short_items = 0;
  for (uint32_t i = 0; i < items; i++) short_items += next[i] != per_item;
  CHECK_MSG(short_items == 0 && l->n == (size_t)items * per_item,
            "%s: %zu lines for %u items x %u; %u items did not print all theirs", what, l->n, items, per_item,
            short_items);
  free(next);
}

static void volume(rvhal_device_t *d, hal_program_t p, lines_t *l, uint32_t groups, uint32_t local,
                   uint32_t per_item, uint32_t harts, const char *what) {
  hal_kernel_t k = fixture_kernel(d, p, "ex_print_lines");
  hal_arg_t a[1] = {rvhal_arg_value(&per_item, 4)};
  uint64_t g[3] = {(uint64_t)groups * local, 1, 1}, lo[3] = {local, 1, 1};
  rvhal_launch_options_t opt = {.harts = harts};
  clear_lines(l);
  double t0 = dt_now();
  if (ex_launch(d, p, k, 1, g, lo, a, 1, &opt, what)) return;
  double t1 = dt_now();
  rvhal_launch_report_t rep;
  CHECK_OK(rvhal_device_last_launch(d, &rep));
  if (harts) CHECK_MSG(rep.harts == harts, "%s: ran on %u harts, asked for %u", what, rep.harts, harts);
  check_volume(l, groups * local, per_item, what);
  printf("  %-60s %6zu lines (%u harts), %.2f s\n", what, l->n, rep.harts, t1 - t0);
}

/* Phases: "P group=G phase=P item=I"; per group, phases never go back, and
 * every (phase, item) appears once. */
static void phases(rvhal_device_t *d, hal_program_t p, lines_t *l, uint32_t dim, const uint64_t global[3],
                   const uint64_t local[3], uint32_t nphases, uint32_t team, const char *what) {
  hal_kernel_t k = fixture_kernel(d, p, "ex_print_phases");
  hal_arg_t a[1] = {rvhal_arg_value(&nphases, 4)};
  rvhal_launch_options_t opt = {.harts_per_group = team};
  uint64_t items = 1, n = 1;
  for (uint32_t i = 0; i < dim; i++) {
    items *= global[i];
    n *= local[i];
  }
  uint64_t groups = items / n;
  clear_lines(l);
  if (ex_launch(d, p, k, dim, global, local, a, 1, &opt, what)) return;
  uint32_t *phase_of_group = calloc(groups, sizeof *phase_of_group);
  uint8_t *seen = calloc(items * nphases, 1);
  size_t bad = 0, backwards = 0, dup = 0;
  for (size_t i = 0; i < l->n; i++) {
    unsigned g, ph, it;
    if (sscanf(l->text[i], "P group=%u phase=%u item=%u", &g, &ph, &it) != 3 || g >= groups || ph >= nphases ||
        it >= items) {
      if (bad++ < 3) fprintf(stderr, "%s: unexpected line \"%.100s\"\n", what, l->text[i]);
      continue;
    }
    if (ph < phase_of_group[g] && backwards++ < 3)
      fprintf(stderr, "%s: line %zu \"%s\" after a line of phase %u of that group\n", what, i, l->text[i],
              phase_of_group[g]);
    if (ph > phase_of_group[g]) phase_of_group[g] = ph;
    if (seen[(size_t)it * nphases + ph]++) dup++;
  }
  CHECK_MSG(bad == 0, "%s: %zu unexpected lines", what, bad);
  CHECK_MSG(backwards == 0, "%s: %zu lines came after a line of a later phase of their group", what, backwards);
  CHECK_MSG(dup == 0 && l->n == items * nphases, "%s: %zu lines (%zu repeated), expected %" PRIu64, what, l->n, dup,
            items * nphases);
  rvhal_launch_report_t rep;
  CHECK_OK(rvhal_device_last_launch(d, &rep));
  printf("  %-60s %6zu lines, %" PRIu64 " groups on %u harts (%u per group)\n", what, l->n, groups, rep.harts,
         rep.harts_per_group);
  free(phase_of_group);
  free(seen);
}

int main(void) {
  ex_clean_env();
  lines_t l = {0};
  rvhal_device_t *d = ex_device(4, 0, RVHAL_TIMING_FAST);
  rvhal_device_set_print_fn(d, collect, &l);
  hal_program_t p = fixture_program(d, "ex_misc");

  volume(d, p, &l, 1, 1, 3000, 1, "fast: 1 hart, 1 item x 3000 lines");
  volume(d, p, &l, 1, 4, 1000, 1, "fast: 1 hart, 4 items x 1000 lines");
  volume(d, p, &l, 4, 1, 3000, 4, "fast: 4 harts, 1 item each x 3000 lines");
  volume(d, p, &l, 1, 1, 12000, 1, "fast: 1 hart, 1 item x 12000 lines");

  uint64_t g1[3] = {16 * 8, 1, 1}, l1[3] = {8, 1, 1};
  phases(d, p, &l, 1, g1, l1, 20, 0, "fast: 16 groups of 8, 20 phases");
  uint64_t g2[3] = {16, 1, 1}, l2[3] = {16, 1, 1};
  phases(d, p, &l, 1, g2, l2, 30, 4, "fast: 1 group of 16 on a team of 4, 30 phases");
  uint64_t g3[3] = {8, 6, 4}, l3[3] = {4, 3, 2};
  phases(d, p, &l, 3, g3, l3, 10, 0, "fast: 3-D, 8 groups of 4x3x2, 10 phases");
  uint64_t g4[3] = {128, 1, 1}, l4[3] = {64, 1, 1};
  phases(d, p, &l, 1, g4, l4, 12, 2, "fast: 2 groups of 64 on 2 teams of 2, 12 phases");
  rvhal_device_delete(d);

  d = ex_device(2, 1, RVHAL_TIMING_EXACT);
  rvhal_device_set_print_fn(d, collect, &l);
  p = fixture_program(d, "ex_misc");
  volume(d, p, &l, 1, 1, 3000, 1, "exact: 1 hart, 1 item x 3000 lines");
  volume(d, p, &l, 2, 1, 3000, 2, "exact: 2 harts, 1 item each x 3000 lines");
  phases(d, p, &l, 1, g2, l2, 30, 2, "exact: 1 group of 16 on a team of 2, 30 phases");
  rvhal_device_delete(d);

  clear_lines(&l);
  free(l.text);
  return check_result("exec.print_volume");
}

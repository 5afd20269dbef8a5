/* Context switches, items and groups as the counters report them
 * (kernels ex_nobar and ex_bars of tests/exec/ex_barrier.c).
 *
 * docs/kernels.md: a group whose items never call barrier() runs as a plain
 * loop, without context switches; at the first barrier() the other items
 * become contexts, and each item reaching a barrier switches to the next.
 * Counting the switches that follow (rvhal_kernel.h, sdk/src/barrier.c):
 * per group and hart running n > 1 of its items, each of the B barrier()
 * calls of each item switches once and each item's return switches once:
 * n * (B + 1); a hart running a single item of the group never switches.
 *
 * So: a barrier-free kernel reports 0 CONTEXT_SWITCHES on every hart for
 * every local size 1..1024, and a kernel with B barriers per item reports
 * exactly GROUPS[h] * n * (B + 1) on hart h (n > 1), or, for one group on a
 * team of T harts, share_r * (B + 1) on member r (share_r > 1). ITEMS must
 * add up to the global size and GROUPS to the number of groups, BARRIERS to
 * items * B, and every item must have run and passed its B barriers.
 *
 * Run on a 4-hart exact-timing device and on a 4-hart fast-timing device
 * with counters on (the counts do not depend on timing). */
#include "exec_util.h"

typedef struct ctx {
  rvhal_device_t *d;
  hal_program_t prog;
  hal_kernel_t k_nobar, k_bars;
  uint32_t harts;
  const char *mode;
} ctx_t;

static void run_case(ctx_t *x, uint32_t dim, uint64_t g0, uint64_t g1, uint64_t g2, uint64_t l0, uint64_t l1,
                     uint64_t l2, uint32_t nbar, int with_barrier_kernel, uint32_t team) {
  uint64_t global[3] = {g0, g1, g2}, local[3] = {l0, l1, l2};
  uint64_t n = 1, items = 1, groups = 1;
  for (uint32_t i = 0; i < 3; i++) {
    if (i >= dim) {
      global[i] = local[i] = 1;
    }
    n *= local[i];
    items *= global[i];
    groups *= global[i] / local[i];
  }
  char what[200];
  snprintf(what, sizeof what, "[%s] %s B=%u, %u-D %" PRIu64 "x%" PRIu64 "x%" PRIu64 " in groups of %" PRIu64 "x%" PRIu64
           "x%" PRIu64 " (%" PRIu64 " items)%s%s",
           x->mode, with_barrier_kernel ? "ex_bars" : "ex_nobar", nbar, dim, global[0], global[1], global[2], local[0],
           local[1], local[2], n, team ? ", team of " : "", team ? (team == 2 ? "2" : "4") : "");
  size_t bytes = (size_t)items * 4;
  hal_addr_t dout = dt_buffer(x->d, bytes, NULL);
  hal_arg_t args[2] = {rvhal_arg_global(dout), rvhal_arg_value(&nbar, 4)};
  rvhal_launch_options_t opt = {.harts_per_group = team};
  if (ex_launch(x->d, x->prog, with_barrier_kernel ? x->k_bars : x->k_nobar, dim, global, local, args,
                with_barrier_kernel ? 2 : 1, &opt, what))
    goto out;
  uint32_t B = with_barrier_kernel ? nbar : 0;

  /* Every item ran and passed its barriers. */
  uint32_t *got = malloc(bytes);
  CHECK_OK(rvhal_mem_read(x->d, got, dout, bytes));
  uint64_t bad = 0;
  for (uint64_t i = 0; i < items; i++) {
    uint32_t want = with_barrier_kernel ? (uint32_t)(i << 16 | B) : (uint32_t)i + 1;
    if (got[i] != want && bad++ < 3) fprintf(stderr, "%s: item %" PRIu64 ": 0x%x, expected 0x%x\n", what, i, got[i], want);
  }
  CHECK_MSG(bad == 0, "%s: %" PRIu64 " items wrote a wrong value", what, bad);
  free(got);

  rvhal_launch_report_t rep;
  CHECK_OK(rvhal_device_last_launch(x->d, &rep));
  ex_counts_t c;
  ex_read_counts(x->d, &c, what);
  CHECK_MSG(ex_sum(&c, RVHAL_HART_COUNTER_ITEMS) == items, "%s: ITEMS sum %" PRIu64 ", expected %" PRIu64, what,
            ex_sum(&c, RVHAL_HART_COUNTER_ITEMS), items);
  CHECK_MSG(ex_sum(&c, RVHAL_HART_COUNTER_GROUPS) == groups, "%s: GROUPS sum %" PRIu64 ", expected %" PRIu64, what,
            ex_sum(&c, RVHAL_HART_COUNTER_GROUPS), groups);
  CHECK_MSG(ex_sum(&c, RVHAL_HART_COUNTER_BARRIERS) == items * B, "%s: BARRIERS sum %" PRIu64 ", expected %" PRIu64,
            what, ex_sum(&c, RVHAL_HART_COUNTER_BARRIERS), items * B);
  uint64_t want_total = 0;
  int failed = 0;
  for (uint32_t h = 0; h < c.harts; h++) {
    uint64_t want, items_h;
    if (rep.harts_per_group > 1) {
      /* One group per team: hart h is member r = h % T of team h / T. */
      uint32_t T = rep.harts_per_group, r = h % T;
      uint64_t share = h < rep.harts ? n * (r + 1) / T - n * r / T : 0;
      uint64_t team_groups = h < rep.harts ? c.v[RVHAL_HART_COUNTER_GROUPS][h - r] : 0;
      items_h = share * team_groups;
      want = share > 1 ? team_groups * share * (B ? B + 1 : 0) : 0;
      if (r) CHECK_MSG(c.v[RVHAL_HART_COUNTER_GROUPS][h] == 0, "%s: team member hart %u counts %" PRIu64 " groups", what,
                       h, c.v[RVHAL_HART_COUNTER_GROUPS][h]);
    } else {
      items_h = c.v[RVHAL_HART_COUNTER_GROUPS][h] * n;
      want = n > 1 && B ? c.v[RVHAL_HART_COUNTER_GROUPS][h] * n * (B + 1) : 0;
    }
    want_total += want;
    uint64_t got_sw = c.v[RVHAL_HART_COUNTER_CONTEXT_SWITCHES][h];
    if (got_sw != want || c.v[RVHAL_HART_COUNTER_ITEMS][h] != items_h ||
        c.v[RVHAL_HART_COUNTER_BARRIERS][h] != items_h * B)
      failed = 1;
    CHECK_MSG(got_sw == want, "%s: hart %u: CONTEXT_SWITCHES %" PRIu64 ", expected %" PRIu64, what, h, got_sw, want);
    CHECK_MSG(c.v[RVHAL_HART_COUNTER_ITEMS][h] == items_h, "%s: hart %u: ITEMS %" PRIu64 ", expected %" PRIu64, what, h,
              c.v[RVHAL_HART_COUNTER_ITEMS][h], items_h);
    CHECK_MSG(c.v[RVHAL_HART_COUNTER_BARRIERS][h] == items_h * B, "%s: hart %u: BARRIERS %" PRIu64 ", expected %" PRIu64,
              what, h, c.v[RVHAL_HART_COUNTER_BARRIERS][h], items_h * B);
  }
  if (failed) ex_print_counts(stderr, &c, what);
  printf("  %-100s switches %8" PRIu64 " (expected %8" PRIu64 "), %u harts\n", what,
         ex_sum(&c, RVHAL_HART_COUNTER_CONTEXT_SWITCHES), want_total, rep.harts);
out:
  CHECK_OK(rvhal_mem_free(x->d, dout));
}

static void run_device(const char *mode, int exact) {
  ctx_t x = {0};
  x.mode = mode;
  x.d = ex_device(4, 1, exact ? RVHAL_TIMING_EXACT : RVHAL_TIMING_FAST); /* 4, or all the board has */
  x.harts = rvhal_device_get_info(x.d)->num_harts;
  x.prog = fixture_program(x.d, "ex_barrier");
  x.k_nobar = fixture_kernel(x.d, x.prog, "ex_nobar");
  x.k_bars = fixture_kernel(x.d, x.prog, "ex_bars");

  /* Barrier-free: never a switch, whatever the local size. */
  static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 16, 63, 64, 100, 255, 256, 512, 1000, 1023, 1024};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    uint64_t l = sizes[i];
    run_case(&x, 1, l * 12, 1, 1, l, 1, 1, 0, 0, 0);
    run_case(&x, 1, l * 8, 1, 1, l, 1, 1, 0, 1, 0); /* ex_bars with B = 0 */
  }
  run_case(&x, 2, 64, 48, 1, 16, 16, 1, 0, 0, 0);
  run_case(&x, 3, 32, 16, 16, 8, 8, 4, 0, 0, 0);
  run_case(&x, 3, 16, 8, 8, 16, 8, 8, 0, 0, 0); /* one group of 1024 */
  run_case(&x, 1, 1024, 1, 1, 1024, 1, 1, 0, 0, 4);
  run_case(&x, 1, 64, 1, 1, 64, 1, 1, 0, 0, 2);

  /* B barriers per item. */
  static const uint32_t bsizes[] = {1, 2, 3, 5, 8, 64, 100, 1000, 1024};
  static const uint32_t bs[] = {1, 2, 7};
  for (size_t i = 0; i < sizeof bsizes / sizeof *bsizes; i++)
    for (size_t j = 0; j < sizeof bs / sizeof *bs; j++) {
      uint64_t l = bsizes[i];
      run_case(&x, 1, l * (l >= 512 ? 4 : 12), 1, 1, l, 1, 1, bs[j], 1, 0);
    }
  run_case(&x, 2, 24, 16, 1, 4, 8, 1, 3, 1, 0);
  run_case(&x, 3, 20, 10, 8, 5, 5, 2, 2, 1, 0);
  run_case(&x, 3, 16, 8, 8, 16, 8, 8, 1, 1, 0);
  /* Teams: one group shared by 2 or 4 harts. */
  run_case(&x, 1, 64, 1, 1, 64, 1, 1, 3, 1, 2);
  run_case(&x, 1, 64, 1, 1, 64, 1, 1, 3, 1, 4);
  run_case(&x, 1, 5, 1, 1, 5, 1, 1, 4, 1, 4);  /* shares 1, 1, 1, 2 */
  run_case(&x, 1, 4, 1, 1, 4, 1, 1, 4, 1, 4);  /* one item per hart: no switch at all */
  run_case(&x, 1, 3, 1, 1, 3, 1, 1, 2, 1, 2);  /* shares 1, 2 */
  run_case(&x, 1, 1024, 1, 1, 1024, 1, 1, 2, 1, 4);
  run_case(&x, 1, 256, 1, 1, 64, 1, 1, 2, 1, 2); /* 4 groups on 2 teams of 2 */
  rvhal_device_delete(x.d);
}

int main(int argc, char **argv) {
  ex_clean_env();
  const char *mode = argc > 1 ? argv[1] : "both";
  if (!strcmp(mode, "exact") || !strcmp(mode, "both")) run_device("exact", 1);
  if (!strcmp(mode, "fast") || !strcmp(mode, "both")) run_device("fast+counters", 0);
  return check_result("exec.context_switches");
}

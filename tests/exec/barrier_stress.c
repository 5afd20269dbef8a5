/* Barriers under stress (kernels: tests/exec/ex_barrier.c).
 *
 * ex_stress_arg / ex_stress_var run rounds of "write my slot of a local
 * tile, barrier, mix in three other items' slots, barrier", with a
 * data-dependent (but group-uniform) number of passes per round, and the
 * host recomputes every work-item's result. Cases: thousands of rounds,
 * 64+ groups on all 4 harts, local sizes 1, 3, 4, 5, 64, 100 and 1024, 1-,
 * 2- and 3-D groups, groups run by one hart or by a team of 2 or 4 harts
 * (rvhal_launch_options_t.harts_per_group), and both kinds of local memory.
 * ex_private checks that groups running at the same time on different harts
 * (and teams running at the same time) each have their own local memory.
 *
 * Modes (argv[1]):
 *   fast      a 4-hart fast-timing device without counters: every case
 *   counters  a 4-hart device with counters on (exact timing): a subset of
 *             the cases, plus the BARRIERS counter: summed over harts it
 *             must equal, over all groups, items x barrier() calls per item;
 *             in a one-group team launch each hart's own count must be its
 *             share of the items x the calls. ITEMS and GROUPS must add up. */
#include "exec_util.h"

typedef struct stress_case {
  const char *name;
  uint32_t dim;
  uint64_t global[3], local[3];
  uint32_t rounds;
  uint32_t ntrips;
  uint32_t trips[8];
  uint32_t harts, harts_per_group;
} stress_case_t;

typedef struct ctx {
  rvhal_device_t *d;
  hal_program_t prog;
  hal_kernel_t k_arg, k_var, k_private;
  int counters;
  uint32_t harts;
} ctx_t;

/* The host's computation of ex_barrier.c's stress_body for one group:
 * acc[n] results; returns the barrier() calls each item makes. */
static uint64_t simulate_group(uint32_t n, uint64_t g, const stress_case_t *c, uint32_t *acc, uint32_t *tile) {
  uint64_t calls = 0;
  for (uint32_t l = 0; l < n; l++) acc[l] = (uint32_t)g * 0x9E3779B9u ^ l * 0x85EBCA6Bu;
  for (uint32_t r = 0; r < c->rounds; r++) {
    uint32_t t = c->trips[(g + r) % c->ntrips];
    for (uint32_t k = 0; k < t; k++) {
      for (uint32_t l = 0; l < n; l++) tile[l] = acc[l] + r * 7u + k;
      for (uint32_t l = 0; l < n; l++)
        acc[l] = acc[l] * 31u + tile[(l + 1) % n] + 3u * tile[(l + n - 1) % n] + 5u * tile[(l + n / 2) % n];
      calls += 2;
    }
  }
  return calls;
}

static void run_stress(ctx_t *x, const stress_case_t *c, int use_var) {
  char what[160];
  snprintf(what, sizeof what, "%s [%s, %s]", c->name, use_var ? "__local_variable" : "local argument",
           x->counters ? "counters" : "fast");
  uint64_t ng[3], l[3];
  for (int i = 0; i < 3; i++) {
    l[i] = i < (int)c->dim ? c->local[i] : 1;
    ng[i] = (i < (int)c->dim ? c->global[i] : 1) / l[i];
  }
  const uint32_t n = (uint32_t)(l[0] * l[1] * l[2]);
  const uint64_t groups = ng[0] * ng[1] * ng[2];
  const size_t out_bytes = (size_t)(groups * n * 4);
  hal_addr_t dout = dt_buffer(x->d, out_bytes, NULL);
  const uint8_t junk = 0xa5;
  CHECK_OK(rvhal_mem_fill(x->d, dout, &junk, 1, out_bytes));
  hal_addr_t dtrips = dt_buffer(x->d, c->ntrips * 4, c->trips);
  uint32_t rounds = c->rounds, ntrips = c->ntrips;
  hal_arg_t args[5];
  uint32_t nargs = 0;
  args[nargs++] = rvhal_arg_global(dout);
  args[nargs++] = rvhal_arg_global(dtrips);
  if (!use_var) args[nargs++] = rvhal_arg_local((hal_size_t)n * 4);
  args[nargs++] = rvhal_arg_value(&rounds, 4);
  args[nargs++] = rvhal_arg_value(&ntrips, 4);
  rvhal_launch_options_t opt = {.harts = c->harts, .harts_per_group = c->harts_per_group};
  double t0 = dt_now();
  int rc = ex_launch(x->d, x->prog, use_var ? x->k_var : x->k_arg, c->dim, c->global, c->local, args, nargs, &opt,
                     what);
  double t1 = dt_now();
  if (rc) goto out;

  rvhal_launch_report_t rep;
  CHECK_OK(rvhal_device_last_launch(x->d, &rep));
  CHECK_MSG(rep.num_groups == groups, "%s: report says %" PRIu64 " groups, expected %" PRIu64, what, rep.num_groups,
            groups);
  if (c->harts_per_group)
    CHECK_MSG(rep.harts_per_group == c->harts_per_group, "%s: ran with %u harts per group, asked for %u", what,
              rep.harts_per_group, c->harts_per_group);
  if (!c->harts && !c->harts_per_group && groups >= x->harts)
    CHECK_MSG(rep.harts == x->harts, "%s: %" PRIu64 " groups ran on %u harts of %u", what, groups, rep.harts,
              x->harts);

  uint32_t *got = malloc(out_bytes), *acc = malloc((size_t)n * 4), *tile = malloc((size_t)n * 4);
  CHECK_OK(rvhal_mem_read(x->d, got, dout, out_bytes));
  uint64_t bad = 0, total_calls = 0, calls_g0 = 0;
  for (uint64_t g = 0; g < groups; g++) {
    uint64_t calls = simulate_group(n, g, c, acc, tile);
    if (g == 0) calls_g0 = calls;
    total_calls += calls * n;
    for (uint32_t i = 0; i < n; i++) {
      if (got[g * n + i] == acc[i]) continue;
      if (bad++ < 5)
        fprintf(stderr, "%s: group %" PRIu64 " item %u: 0x%08x, expected 0x%08x\n", what, g, i, got[g * n + i],
                acc[i]);
    }
  }
  CHECK_MSG(bad == 0, "%s: %" PRIu64 " of %" PRIu64 " work-items ended with a wrong value", what, bad, groups * n);

  if (x->counters) {
    ex_counts_t cnt;
    ex_read_counts(x->d, &cnt, what);
    CHECK_MSG(ex_sum(&cnt, RVHAL_HART_COUNTER_BARRIERS) == total_calls,
              "%s: BARRIERS summed over harts = %" PRIu64 ", expected %" PRIu64 " (items x barrier calls)", what,
              ex_sum(&cnt, RVHAL_HART_COUNTER_BARRIERS), total_calls);
    CHECK_MSG(ex_sum(&cnt, RVHAL_HART_COUNTER_ITEMS) == groups * n, "%s: ITEMS sum %" PRIu64 ", expected %" PRIu64,
              what, ex_sum(&cnt, RVHAL_HART_COUNTER_ITEMS), groups * n);
    CHECK_MSG(ex_sum(&cnt, RVHAL_HART_COUNTER_GROUPS) == groups, "%s: GROUPS sum %" PRIu64 ", expected %" PRIu64,
              what, ex_sum(&cnt, RVHAL_HART_COUNTER_GROUPS), groups);
    int uniform = 1; /* every group makes the same barrier calls: check each hart */
    for (uint32_t i = 1; i < c->ntrips; i++) uniform &= c->trips[i] == c->trips[0];
    if (uniform && rep.harts_per_group == 1)
      for (uint32_t h = 0; h < cnt.harts; h++)
        CHECK_MSG(cnt.v[RVHAL_HART_COUNTER_BARRIERS][h] == cnt.v[RVHAL_HART_COUNTER_ITEMS][h] * calls_g0 &&
                      cnt.v[RVHAL_HART_COUNTER_ITEMS][h] == cnt.v[RVHAL_HART_COUNTER_GROUPS][h] * n,
                  "%s: hart %u: BARRIERS %" PRIu64 ", ITEMS %" PRIu64 ", GROUPS %" PRIu64 "; expected ITEMS x %" PRIu64
                  " and GROUPS x %u", what, h, cnt.v[RVHAL_HART_COUNTER_BARRIERS][h], cnt.v[RVHAL_HART_COUNTER_ITEMS][h],
                  cnt.v[RVHAL_HART_COUNTER_GROUPS][h], calls_g0, n);
    if (groups == 1 && rep.harts_per_group > 1) {
      /* One group on a team: hart r runs items [n*r/T, n*(r+1)/T). */
      uint32_t T = rep.harts_per_group;
      for (uint32_t r = 0; r < T; r++) {
        uint64_t share = (uint64_t)n * (r + 1) / T - (uint64_t)n * r / T;
        CHECK_MSG(cnt.v[RVHAL_HART_COUNTER_ITEMS][r] == share && cnt.v[RVHAL_HART_COUNTER_BARRIERS][r] == share * calls_g0,
                  "%s: team hart %u: ITEMS %" PRIu64 " BARRIERS %" PRIu64 ", expected %" PRIu64 " and %" PRIu64, what,
                  r, cnt.v[RVHAL_HART_COUNTER_ITEMS][r], cnt.v[RVHAL_HART_COUNTER_BARRIERS][r], share,
                  share * calls_g0);
      }
    }
  }
  printf("  %-58s %6" PRIu64 " groups x %4u items, %9" PRIu64 " barrier calls, %u harts (%u/group), %.2f s\n", what,
         groups, n, total_calls, rep.harts, rep.harts_per_group, t1 - t0);
  free(got);
  free(acc);
  free(tile);
out:
  CHECK_OK(rvhal_mem_free(x->d, dout));
  CHECK_OK(rvhal_mem_free(x->d, dtrips));
}

/* ex_private: groups (or teams) running at the same time each stamp and
 * check both of their local tiles; no slot may hold another group's stamp. */
static void run_private(ctx_t *x, const char *name, uint32_t groups, uint32_t n, uint32_t rounds, uint32_t per_group,
                        uint32_t min_harts) {
  char what[160];
  snprintf(what, sizeof what, "private local memory: %s", name);
  size_t bytes = (size_t)groups * 2 * 4;
  hal_addr_t dout = dt_buffer(x->d, bytes, NULL);
  hal_arg_t args[3] = {rvhal_arg_global(dout), rvhal_arg_local((hal_size_t)n * 4), rvhal_arg_value(&rounds, 4)};
  rvhal_launch_options_t opt = {.harts_per_group = per_group};
  uint64_t global[3] = {(uint64_t)groups * n, 1, 1}, local[3] = {n, 1, 1};
  if (min_harts > x->harts / per_group) min_harts = x->harts / per_group ? x->harts / per_group : 1; /* leaders there can be */
  double t0 = dt_now();
  if (ex_launch(x->d, x->prog, x->k_private, 1, global, local, args, 3, &opt, what)) goto out;
  double t1 = dt_now();
  uint32_t *got = malloc(bytes);
  CHECK_OK(rvhal_mem_read(x->d, got, dout, bytes));
  uint64_t bad = 0;
  uint32_t leaders = 0;
  for (uint32_t g = 0; g < groups; g++) {
    bad += got[2 * g];
    uint32_t h = got[2 * g + 1];
    CHECK_MSG(h >= 1 && h <= x->harts, "%s: group %u: leader hart+1 = %u (did it run?)", what, g, h);
    if (h >= 1 && h <= 32) leaders |= 1u << (h - 1);
  }
  CHECK_MSG(bad == 0, "%s: %" PRIu64 " local-memory slots held another group's data", what, bad);
  /* The check above only means something if groups did run side by side. */
  CHECK_MSG((uint32_t)__builtin_popcount(leaders) >= min_harts,
            "%s: groups were led by only %d harts (mask 0x%x), expected at least %u", what, __builtin_popcount(leaders),
            leaders, min_harts);
  printf("  %-58s %6u groups x %4u items, %u rounds, leader harts 0x%x, %.2f s\n", what, groups, n, rounds, leaders,
         t1 - t0);
  free(got);
out:
  CHECK_OK(rvhal_mem_free(x->d, dout));
}

#define ONES {1}
static const stress_case_t fast_cases[] = {
    /* name, dim, global, local, rounds, ntrips, trips, harts, harts_per_group */
    {"1-D, 256 groups of 4, 4096 rounds", 1, {1024, 1, 1}, {4, 1, 1}, 4096, 1, ONES, 0, 0},
    {"1-D, 128 groups of 1, 2000 rounds", 1, {128, 1, 1}, {1, 1, 1}, 2000, 1, ONES, 0, 0},
    {"1-D, 64 groups of 2, 3000 rounds", 1, {128, 1, 1}, {2, 1, 1}, 3000, 1, ONES, 0, 0},
    {"1-D, 96 groups of 3, data-dependent trips", 1, {288, 1, 1}, {3, 1, 1}, 600, 5, {1, 0, 2, 3, 1}, 0, 0},
    {"2-D, 72 groups of 5x1, data-dependent trips", 2, {30, 12, 1}, {5, 1, 1}, 500, 4, {2, 1, 0, 1}, 0, 0},
    {"2-D, 64 groups of 8x8, data-dependent trips", 2, {64, 64, 1}, {8, 8, 1}, 40, 5, {1, 2, 0, 1, 3}, 0, 0},
    {"3-D, 64 groups of 5x5x4 (100)", 3, {20, 20, 16}, {5, 5, 4}, 12, 3, {1, 2, 1}, 0, 0},
    {"3-D, 8 groups of 16x8x8 (1024)", 3, {32, 16, 16}, {16, 8, 8}, 6, 2, {1, 2}, 0, 0},
    {"1-D, 4 groups of 1024", 1, {4096, 1, 1}, {1024, 1, 1}, 8, 1, ONES, 0, 0},
    {"team of 2: 1 group of 64", 1, {64, 1, 1}, {64, 1, 1}, 300, 3, {1, 2, 1}, 2, 2},
    {"team of 4: 1 group of 64", 1, {64, 1, 1}, {64, 1, 1}, 300, 3, {1, 2, 1}, 4, 4},
    {"team of 4: 1 group of 5 (shares 1,1,1,2)", 1, {5, 1, 1}, {5, 1, 1}, 2000, 1, ONES, 4, 4},
    {"team of 4: 1 group of 4 (1 item per hart)", 1, {4, 1, 1}, {4, 1, 1}, 2000, 1, ONES, 4, 4},
    {"team of 2: 1 group of 3", 1, {3, 1, 1}, {3, 1, 1}, 2000, 3, {1, 0, 2}, 2, 2},
    {"team of 4: 1 group of 1024 (3-D 16x8x8)", 3, {16, 8, 8}, {16, 8, 8}, 6, 1, ONES, 4, 4},
    {"team of 2: 1 group of 100 (2-D 10x10)", 2, {10, 10, 1}, {10, 10, 1}, 60, 2, {1, 2}, 2, 2},
    {"two teams of 2 side by side: 2 groups of 64", 1, {128, 1, 1}, {64, 1, 1}, 200, 1, ONES, 4, 2},
    /* Several groups in turn on one team (its harts deal the claims), and
     * more groups than teams (the leaders' claims handed on). */
    {"team of 2: 5 groups of 16 in turn", 1, {80, 1, 1}, {16, 1, 1}, 200, 3, {1, 0, 2}, 2, 2},
    {"two teams of 2: 7 groups of 16", 1, {112, 1, 1}, {16, 1, 1}, 200, 3, {1, 0, 2}, 4, 2},
    {"1 hart per group: 1 group of 64 on 4 harts", 1, {64, 1, 1}, {64, 1, 1}, 300, 1, ONES, 4, 1},
    {"1 hart: 16 groups of 64", 1, {1024, 1, 1}, {64, 1, 1}, 50, 2, {1, 2}, 1, 1},
};

static const stress_case_t counter_cases[] = {
    {"1-D, 64 groups of 4, 1024 rounds", 1, {256, 1, 1}, {4, 1, 1}, 1024, 1, ONES, 0, 0},
    {"1-D, 64 groups of 1, 300 rounds", 1, {64, 1, 1}, {1, 1, 1}, 300, 1, ONES, 0, 0},
    {"2-D, 64 groups of 5x1, data-dependent trips", 2, {40, 8, 1}, {5, 1, 1}, 100, 4, {2, 1, 0, 1}, 0, 0},
    {"3-D, 16 groups of 5x5x4 (100)", 3, {10, 10, 16}, {5, 5, 4}, 6, 3, {1, 2, 1}, 0, 0},
    {"1-D, 4 groups of 1024", 1, {4096, 1, 1}, {1024, 1, 1}, 2, 1, ONES, 0, 0},
    {"team of 2: 1 group of 64", 1, {64, 1, 1}, {64, 1, 1}, 60, 3, {1, 2, 1}, 2, 2},
    {"team of 4: 1 group of 64", 1, {64, 1, 1}, {64, 1, 1}, 60, 3, {1, 2, 1}, 4, 4},
    {"team of 4: 1 group of 5", 1, {5, 1, 1}, {5, 1, 1}, 300, 1, ONES, 4, 4},
    {"team of 4: 1 group of 1024", 1, {1024, 1, 1}, {1024, 1, 1}, 2, 1, ONES, 4, 4},
    {"two teams of 2: 2 groups of 64", 1, {128, 1, 1}, {64, 1, 1}, 40, 1, ONES, 4, 2},
    {"1 hart per group: 1 group of 64", 1, {64, 1, 1}, {64, 1, 1}, 60, 1, ONES, 4, 1},
};

int main(int argc, char **argv) {
  ex_clean_env();
  const char *mode = argc > 1 ? argv[1] : "fast";
  ctx_t x = {0};
  x.counters = !strcmp(mode, "counters");
  if (!x.counters && strcmp(mode, "fast")) {
    fprintf(stderr, "usage: %s fast|counters\n", argv[0]);
    return 2;
  }
  x.d = ex_device(4, x.counters, x.counters ? RVHAL_TIMING_DEFAULT : RVHAL_TIMING_FAST); /* 4, or all it has */
  const rvhal_device_info_t *info = rvhal_device_get_info(x.d);
  x.harts = info->num_harts;
  CHECK_MSG(info->timing == (x.counters ? RVHAL_TIMING_EXACT : RVHAL_TIMING_FAST), "device timing mode %d",
            (int)info->timing);
  x.prog = fixture_program(x.d, "ex_barrier");
  x.k_arg = fixture_kernel(x.d, x.prog, "ex_stress_arg");
  x.k_var = fixture_kernel(x.d, x.prog, "ex_stress_var");
  x.k_private = fixture_kernel(x.d, x.prog, "ex_private");

  const stress_case_t *cases = x.counters ? counter_cases : fast_cases;
  size_t ncases = x.counters ? sizeof counter_cases / sizeof *counter_cases : sizeof fast_cases / sizeof *fast_cases;
  for (size_t i = 0; i < ncases; i++) {
    run_stress(&x, &cases[i], 0);
    run_stress(&x, &cases[i], 1);
  }
  if (!x.counters) {
    /* Fast timing: harts really run side by side. */
    /* Long enough (tens of ms) that every hart, or both teams, claim groups
     * even when the host is busy. */
    run_private(&x, "64 groups of 8 on 4 harts", 64, 8, 1000, 1, 2);
    run_private(&x, "2 teams of 2 harts, 8 groups of 32", 8, 32, 1000, 2, 2);
  } else {
    run_private(&x, "16 groups of 8 on 4 harts (exact: in turn)", 16, 8, 20, 1, 4);
  }
  rvhal_device_delete(x.d);
  if (ex_not_run_count) printf("%d cases not run: the device has %u harts\n", ex_not_run_count, x.harts);
  return check_result(x.counters ? "exec.barrier_stress.counters" : "exec.barrier_stress");
}

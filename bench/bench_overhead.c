/* rvhal-bench sections on the execution model:
 *
 *   overhead  guest instructions the runtime spends, counted exactly (exact
 *             timing, rvhal's QEMU plugin): per work-item of a barrier-free
 *             kernel, per work-item and barrier, per work-group dispatch,
 *             and what recording counters adds per work-group
 *   vadd      wall time of vector_add over 16M elements through the SDK
 *             against the same loop written straight on the ABI entry
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"
#include "rvhal/rvhal.h"

/* Instructions all harts retired in one launch (INSTRET counters). */
static uint64_t launch_instructions(bench_dev_t *b, hal_kernel_t k, uint64_t groups, uint32_t local, uint32_t value,
                                    uint64_t chunk) {
  hal_arg_t arg = rvhal_arg_value(&value, sizeof value);
  hal_ndrange_t nd = {.global = {groups * local, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.chunk_groups = chunk};
  BENCH_CHECK(rvhal_kernel_exec_ex(b->d, b->p, k, &nd, &arg, 1, 1, &lo));
  uint64_t sum = 0, v;
  for (uint32_t h = 0; h < rvhal_device_get_info(b->d)->num_harts; h++)
    if (rvhal_counter_read(b->d, RVHAL_HART_COUNTER_INSTRET, &v, h) == 1) sum += v;
  return sum;
}

/* Instructions hart 0 executes for a whole launch, counters on or off. */
static uint64_t hart0_instructions(bench_dev_t *b, hal_kernel_t k, uint64_t groups, int counters_off) {
  uint32_t value = 0;
  hal_arg_t arg = rvhal_arg_value(&value, sizeof value);
  hal_ndrange_t nd = {.global = {groups, 1, 1}, .local = {1, 1, 1}};
  rvhal_launch_options_t lo = {.chunk_groups = 1, .counters_off = counters_off};
  uint64_t before, after;
  BENCH_CHECK(rvhal_device_instructions(b->d, 0, &before));
  BENCH_CHECK(rvhal_kernel_exec_ex(b->d, b->p, k, &nd, &arg, 1, 1, &lo));
  BENCH_CHECK(rvhal_device_instructions(b->d, 0, &after));
  return after - before;
}

void bench_overhead(const char *kernel_dir) {
  /* One hart, exact timing, counters on, hart 0 asleep between launches
   * (no lingering loop in the counts). */
  rvhal_device_options_t o = {.num_harts = 1, .counters = 1, .timing = RVHAL_TIMING_EXACT,
                              .linger_us = RVHAL_LINGER_OFF};
  bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
  const char *why;
  if (!rvhal_counters_exact(b.d, &why)) printf("overhead: counts are not exact: %s\n", why);
  hal_kernel_t nothing = bench_kernel(&b, "bench_nothing"), barriers = bench_kernel(&b, "bench_barriers");
  launch_instructions(&b, nothing, 4, 4, 0, 1); /* install the program */

  /* per work-item: 64 groups of 1024 items against 64 groups of 1 */
  const uint64_t G = 64;
  uint64_t i1 = launch_instructions(&b, nothing, G, 1, 0, 1), i1024 = launch_instructions(&b, nothing, G, 1024, 0, 1);
  double per_item = (double)(i1024 - i1) / (double)(G * 1023);
  printf("overhead  per work-item, barrier-free kernel          %6.2f instructions  (aim <= 10)\n", per_item);

  /* per barrier: 16 groups of 64 items; 32 barriers each against 16 gives
   * the cost of one more barrier (the kernel's loop around it included),
   * 1 against none the cost of the first (making the contexts, and
   * finishing through them) */
  const uint64_t BG = 16, BL = 64;
  uint64_t b0 = launch_instructions(&b, barriers, BG, BL, 0, 1), b1 = launch_instructions(&b, barriers, BG, BL, 1, 1);
  uint64_t b16 = launch_instructions(&b, barriers, BG, BL, 16, 1), b32 = launch_instructions(&b, barriers, BG, BL, 32, 1);
  double per_barrier = (double)(b32 - b16) / (double)(BG * BL * 16);
  printf("overhead  per work-item per barrier                  %6.2f instructions  (aim <= 60; the kernel's loop "
         "around barrier() included)\n", per_barrier);
  printf("overhead  per work-item, first barrier of a group    %6.2f instructions  (making the contexts, finishing "
         "through them)\n", (double)(b1 - b0) / (double)(BG * BL));

  /* per work-group: one group per claim, 1024 against 64 groups of 1 item */
  uint64_t g64 = launch_instructions(&b, nothing, 64, 1, 0, 1), g1024 = launch_instructions(&b, nothing, 1024, 1, 0, 1);
  double per_group = (double)(g1024 - g64) / 960.0 - per_item;
  printf("overhead  per work-group dispatch (one per claim)    %6.1f instructions  (aim <= 300)\n", per_group);
  uint64_t c64 = launch_instructions(&b, nothing, 64, 1, 0, 0), c1024 = launch_instructions(&b, nothing, 1024, 1, 0, 0);
  printf("overhead  per work-group, default chunking           %6.1f instructions\n",
         (double)(c1024 - c64) / 960.0 - per_item);

  /* counters: the same launch with them on and off */
  const uint64_t CG = 1024;
  hart0_instructions(&b, nothing, CG, 0);
  uint64_t on = hart0_instructions(&b, nothing, CG, 0), off = hart0_instructions(&b, nothing, CG, 1);
  printf("overhead  counters on vs off, per work-group         %6.1f instructions  (aim <= 50; %llu vs %llu for %llu "
         "groups)\n",
         ((double)on - (double)off) / (double)CG, (unsigned long long)on, (unsigned long long)off,
         (unsigned long long)CG);
  bench_close(&b);
}

void bench_vadd(const char *kernel_dir, int runs) {
  if (runs > 5) runs = 5; /* 16M elements a run */
  const uint64_t N = 16u << 20;
  rvhal_device_options_t o = {.num_harts = 4, .ram_size = 512u << 20, .timing = RVHAL_TIMING_FAST};
  bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
  uint32_t harts = rvhal_device_get_info(b.d)->num_harts;
  hal_kernel_t sdk = bench_kernel(&b, "bench_vadd"), direct = bench_kernel(&b, "bench_vadd_direct");
  hal_addr_t a, bb, c;
  BENCH_CHECK(rvhal_mem_alloc(b.d, N * 4, 0, &a));
  BENCH_CHECK(rvhal_mem_alloc(b.d, N * 4, 0, &bb));
  BENCH_CHECK(rvhal_mem_alloc(b.d, N * 4, 0, &c));
  uint32_t *ha, *hb;
  BENCH_CHECK(rvhal_mem_map(b.d, a, N * 4, (void **)&ha));
  BENCH_CHECK(rvhal_mem_map(b.d, bb, N * 4, (void **)&hb));
  for (uint64_t i = 0; i < N; i++) {
    ha[i] = (uint32_t)i;
    hb[i] = (uint32_t)(3 * i);
  }
  uint64_t per_group = N / harts;
  hal_arg_t args[4] = {rvhal_arg_global(a), rvhal_arg_global(bb), rvhal_arg_global(c),
                       rvhal_arg_value(&per_group, sizeof per_group)};
  hal_ndrange_t nd_sdk = {.global = {N, 1, 1}, .local = {64, 1, 1}};
  hal_ndrange_t nd_direct = {.global = {harts, 1, 1}, .local = {1, 1, 1}};
  rvhal_launch_options_t one_each = {.chunk_groups = 1};
  double *ts = malloc(sizeof(double) * (size_t)runs), *td = malloc(sizeof(double) * (size_t)runs);
  for (int r = -1; r < runs; r++) { /* r = -1: warm up (program install, first touch) */
    double t0 = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec(b.d, b.p, sdk, &nd_sdk, args, 3, 1));
    double t1 = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec_ex(b.d, b.p, direct, &nd_direct, args, 4, 1, &one_each));
    double t2 = bench_now_us();
    if (r >= 0) {
      ts[r] = t1 - t0;
      td[r] = t2 - t1;
    }
  }
  uint32_t *hc;
  BENCH_CHECK(rvhal_mem_map(b.d, c, N * 4, (void **)&hc));
  uint64_t bad = 0;
  for (uint64_t i = 0; i < N; i++) bad += hc[i] != (uint32_t)(4 * i);
  double ms = bench_stats(ts, (size_t)runs).median, md = bench_stats(td, (size_t)runs).median;
  printf("vadd      16M elements, %u harts: SDK (groups of 64) %.1f ms, direct loop %.1f ms: SDK at %.0f%% of direct "
         "speed (aim >= 90%%), medians of %d%s\n",
         harts, ms / 1e3, md / 1e3, 100.0 * md / ms, runs, bad ? "  RESULT WRONG" : "");
  free(ts);
  free(td);
  bench_close(&b);
}

/* Repetitions of each teams figure, at most. */
#define TEAMS_RUNS_MAX 7

/* One launch of bench_work: host wall time in microseconds, median of runs
 * (at most TEAMS_RUNS_MAX). */
static double time_work(bench_dev_t *b, hal_kernel_t k, hal_addr_t out, uint64_t groups, uint32_t local, uint32_t work,
                        uint32_t rounds, uint32_t team, int runs) {
  hal_arg_t args[3] = {rvhal_arg_global(out), rvhal_arg_value(&work, sizeof work),
                       rvhal_arg_value(&rounds, sizeof rounds)};
  hal_ndrange_t nd = {.global = {groups * local, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = team};
  double t[TEAMS_RUNS_MAX];
  for (int r = 0; r < runs; r++) {
    double a = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec_ex(b->d, b->p, k, &nd, args, 3, 1, &lo));
    t[r] = bench_now_us() - a;
  }
  return bench_stats(t, (size_t)runs).median;
}

void bench_teams(const char *kernel_dir, int runs) {
  if (runs > TEAMS_RUNS_MAX) runs = TEAMS_RUNS_MAX;
  rvhal_device_options_t o = {.num_harts = 4, .timing = RVHAL_TIMING_FAST};
  bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
  hal_kernel_t k = bench_kernel(&b, "bench_work");
  hal_addr_t out;
  BENCH_CHECK(rvhal_mem_alloc(b.d, 64 * 64 * 4, 0, &out));
  time_work(&b, k, out, 1, 64, 1, 0, 1, 1); /* install */
  static const struct {
    const char *what;
    uint64_t groups;
    uint32_t work, rounds;
  } cases[] = {
      {"1 group of 64, no barrier, 20000 steps/item", 1, 20000, 0},
      {"1 group of 64, 100 barriers, 200 steps between", 1, 200, 100},
      {"1 group of 64, 20 barriers, 1000 steps between", 1, 1000, 20},
      {"2 groups of 64, 20 barriers, 1000 steps between", 2, 1000, 20},
      {"16 groups of 64, 20 barriers, 1000 steps between", 16, 1000, 20},
  };
  printf("teams     wall time (fast timing, 4 harts, medians of %d) by harts per group:\n", runs);
  printf("teams     %-52s %10s %10s %10s  default\n", "", "1", "2", "4");
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double t1 = time_work(&b, k, out, cases[c].groups, 64, cases[c].work, cases[c].rounds, 1, runs);
    double t2 = time_work(&b, k, out, cases[c].groups, 64, cases[c].work, cases[c].rounds, 2, runs);
    double t4 = cases[c].groups == 1 ? time_work(&b, k, out, 1, 64, cases[c].work, cases[c].rounds, 4, runs) : 0;
    double td = time_work(&b, k, out, cases[c].groups, 64, cases[c].work, cases[c].rounds, 0, runs);
    rvhal_launch_report_t rep;
    BENCH_CHECK(rvhal_device_last_launch(b.d, &rep));
    printf("teams     %-52s %8.2fms %8.2fms ", cases[c].what, t1 / 1e3, t2 / 1e3);
    if (t4 > 0) printf("%8.2fms", t4 / 1e3);
    else printf("%10s", "-");
    printf("  %.2fms (%u per group)\n", td / 1e3, rep.harts_per_group);
  }
  bench_close(&b);
}

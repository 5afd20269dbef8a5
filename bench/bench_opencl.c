/* rvhal-bench section "opencl": OpenCL C kernels (bench/kernels/
 * bench_opencl.cl, built by rvhal cc) beside the C SDK's same kernels
 * (bench_kernels.c), on the same device and ND-ranges:
 *   - guest instructions, counted exactly (exact timing, rvhal's QEMU
 *     plugin): per work-item of a barrier-free kernel, per work-item per
 *     barrier, and a whole vector add;
 *   - wall time of vector add over 16M elements, 4 harts, groups of 64
 *     (medians; noisy on a loaded machine, the instruction ratio is not). */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "bench_util.h"
#include "rvhal/rvhal.h"

static uint64_t instructions(bench_dev_t *b, hal_program_t p, hal_kernel_t k, uint64_t global, uint32_t local,
                             const hal_arg_t *args, uint32_t nargs) {
  hal_ndrange_t nd = {.global = {global, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.chunk_groups = 1};
  BENCH_CHECK(rvhal_kernel_exec_ex(b->d, p, k, &nd, args, nargs, 1, &lo));
  uint64_t sum = 0, v;
  for (uint32_t h = 0; h < rvhal_device_get_info(b->d)->num_harts; h++)
    if (rvhal_counter_read(b->d, RVHAL_HART_COUNTER_INSTRET, &v, h) == 1) sum += v;
  return sum;
}

typedef struct side {
  hal_program_t p;
  hal_kernel_t nothing, barriers, vadd;
} side_t;

static side_t side(bench_dev_t *b, hal_program_t p, const char *nothing, const char *barriers, const char *vadd) {
  side_t s = {p, 0, 0, 0};
  BENCH_CHECK(rvhal_program_find_kernel(b->d, p, nothing, &s.nothing));
  BENCH_CHECK(rvhal_program_find_kernel(b->d, p, barriers, &s.barriers));
  BENCH_CHECK(rvhal_program_find_kernel(b->d, p, vadd, &s.vadd));
  return s;
}

static double per_item(bench_dev_t *b, const side_t *s) {
  uint32_t v = 0;
  hal_arg_t a = rvhal_arg_value(&v, 4);
  const uint64_t G = 64;
  uint64_t i1 = instructions(b, s->p, s->nothing, G, 1, &a, 1), i1024 = instructions(b, s->p, s->nothing, G * 1024, 1024, &a, 1);
  return (double)(i1024 - i1) / (double)(G * 1023);
}

static double per_barrier(bench_dev_t *b, const side_t *s) {
  const uint64_t BG = 16, BL = 64;
  uint32_t r16 = 16, r32 = 32;
  hal_arg_t a16 = rvhal_arg_value(&r16, 4), a32 = rvhal_arg_value(&r32, 4);
  uint64_t b16 = instructions(b, s->p, s->barriers, BG * BL, BL, &a16, 1);
  uint64_t b32 = instructions(b, s->p, s->barriers, BG * BL, BL, &a32, 1);
  return (double)(b32 - b16) / (double)(BG * BL * 16);
}

static hal_addr_t filled(bench_dev_t *b, uint64_t n, uint32_t mul) {
  hal_addr_t a;
  uint32_t *h;
  BENCH_CHECK(rvhal_mem_alloc(b->d, n * 4, 0, &a));
  BENCH_CHECK(rvhal_mem_map(b->d, a, n * 4, (void **)&h));
  for (uint64_t i = 0; i < n; i++) h[i] = (uint32_t)(mul * i);
  return a;
}

static uint64_t wrong_sums(bench_dev_t *b, hal_addr_t c, uint64_t n) {
  uint32_t *h;
  BENCH_CHECK(rvhal_mem_map(b->d, c, n * 4, (void **)&h));
  uint64_t bad = 0;
  for (uint64_t i = 0; i < n; i++) bad += h[i] != (uint32_t)(4 * i);
  return bad;
}

void bench_opencl(const char *kernel_dir, const char *cl_elf, int runs) {
  /* Exact counts: one hart for the overheads, 4 for vector add. */
  for (int pass = 0; pass < 2; pass++) {
    rvhal_device_options_t o = {.num_harts = pass ? 4 : 1, .counters = 1, .timing = RVHAL_TIMING_EXACT,
                                .linger_us = RVHAL_LINGER_OFF, .ram_size = 256u << 20};
    bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
    hal_program_t pc;
    BENCH_CHECK(rvhal_program_load_file(b.d, cl_elf, &pc));
    side_t sdk = side(&b, b.p, "bench_nothing", "bench_barriers", "bench_vadd");
    side_t cl = side(&b, pc, "cl_nothing", "cl_barriers", "cl_vadd");
    uint32_t v = 0;
    hal_arg_t a = rvhal_arg_value(&v, 4);
    instructions(&b, sdk.p, sdk.nothing, 4, 4, &a, 1); /* install both programs */
    instructions(&b, cl.p, cl.nothing, 4, 4, &a, 1);
    if (!pass) {
      printf("opencl    per work-item, barrier-free kernel     C SDK %6.2f  OpenCL C %6.2f instructions (exact)\n",
             per_item(&b, &sdk), per_item(&b, &cl));
      printf("opencl    per work-item per barrier              C SDK %6.2f  OpenCL C %6.2f instructions (exact)\n",
             per_barrier(&b, &sdk), per_barrier(&b, &cl));
    } else {
      const uint64_t N = 1u << 20;
      hal_addr_t da = filled(&b, N, 1), db = filled(&b, N, 3), dc = filled(&b, N, 0);
      hal_arg_t args[3] = {rvhal_arg_global(da), rvhal_arg_global(db), rvhal_arg_global(dc)};
      uint64_t is = instructions(&b, sdk.p, sdk.vadd, N, 64, args, 3);
      uint64_t ic = instructions(&b, cl.p, cl.vadd, N, 64, args, 3);
      printf("opencl    vadd 1M elements, groups of 64, 4 harts  C SDK %llu  OpenCL C %llu instructions (exact): "
             "OpenCL C at %.3f of the SDK's speed (aim >= 0.95)%s\n",
             (unsigned long long)is, (unsigned long long)ic, (double)is / (double)ic,
             wrong_sums(&b, dc, N) ? "  RESULT WRONG" : "");
    }
    rvhal_program_free(b.d, pc);
    bench_close(&b);
  }

  /* Wall time, fast timing. */
  if (runs > 5) runs = 5;
  const uint64_t N = 16u << 20;
  rvhal_device_options_t o = {.num_harts = 4, .ram_size = 512u << 20, .timing = RVHAL_TIMING_FAST};
  bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
  hal_program_t pc;
  BENCH_CHECK(rvhal_program_load_file(b.d, cl_elf, &pc));
  hal_kernel_t ks, kc;
  BENCH_CHECK(rvhal_program_find_kernel(b.d, b.p, "bench_vadd", &ks));
  BENCH_CHECK(rvhal_program_find_kernel(b.d, pc, "cl_vadd", &kc));
  hal_addr_t da = filled(&b, N, 1), db = filled(&b, N, 3), dc = filled(&b, N, 0);
  hal_arg_t args[3] = {rvhal_arg_global(da), rvhal_arg_global(db), rvhal_arg_global(dc)};
  hal_ndrange_t nd = {.global = {N, 1, 1}, .local = {64, 1, 1}};
  double *ts = malloc(sizeof(double) * (size_t)runs), *tc = malloc(sizeof(double) * (size_t)runs);
  uint64_t bad = 0;
  for (int r = -1; r < runs; r++) { /* r = -1: warm up */
    double t0 = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec(b.d, b.p, ks, &nd, args, 3, 1));
    double t1 = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec(b.d, pc, kc, &nd, args, 3, 1));
    double t2 = bench_now_us();
    if (r >= 0) {
      ts[r] = t1 - t0;
      tc[r] = t2 - t1;
    }
  }
  bad = wrong_sums(&b, dc, N);
  double ms = bench_stats(ts, (size_t)runs).median, mc = bench_stats(tc, (size_t)runs).median;
  printf("opencl    vadd 16M elements, groups of 64, 4 harts: C SDK %.1f ms, OpenCL C %.1f ms: OpenCL C at %.2f of "
         "the SDK's speed (wall time, medians of %d)%s\n",
         ms / 1e3, mc / 1e3, ms / mc, runs, bad ? "  RESULT WRONG" : "");
  free(ts);
  free(tc);
  rvhal_program_free(b.d, pc);
  bench_close(&b);
}

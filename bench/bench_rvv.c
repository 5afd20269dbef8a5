/* rvhal-bench rvv: the RVV kernels (tests/kernels/rvv_ops.c, clang-16)
 * against their scalar twins (bench/kernels/bench_kernels.c, GCC) on the
 * same vector device, per VLEN: instructions retired by the launch (the
 * firmware's per-hart INSTRET counters summed, in exact timing: they repeat
 * exactly), the launch's wall time and QEMU's CPU time during it (medians;
 * exact timing runs every hart on one host thread; on a shared machine the
 * wall time is noisy, the CPU time less so). The results of both are compared, so a figure is
 * never of a wrong answer. Needs clang-16's rvv_ops.elf in the kernel dir. */
#include <stdint.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"

#define ITEMS 64u
#define PER_ITEM 4096u
#define MAT 64u

typedef struct pair {
  const char *what, *vec, *scalar;
} pair_t;

/* The last launch's instructions (the firmware's per-hart INSTRET, summed
 * over the harts: the launch's work, without idle harts' polling). */
static uint64_t launch_insns(rvhal_device_t *d) {
  uint64_t sum = 0;
  for (uint32_t h = 0; h < rvhal_device_get_info(d)->num_harts; h++) {
    uint64_t n = 0;
    if (rvhal_counter_read(d, RVHAL_HART_COUNTER_INSTRET, &n, h) == 1) sum += n;
  }
  return sum;
}

/* `runs` launches of k: instructions, wall µs and QEMU's CPU µs (medians);
 * the output buffer read into out. */
static void measure(rvhal_device_t *d, hal_program_t p, const char *name, const hal_arg_t *args, uint32_t nargs,
                    uint64_t items, hal_addr_t dout, void *out, size_t out_size, int runs, uint64_t *insns,
                    double *us, double *cpu_us) {
  hal_kernel_t k;
  BENCH_CHECK(rvhal_program_find_kernel(d, p, name, &k));
  long pid = 0;
  BENCH_CHECK(rvhal_device_host_pid(d, &pid));
  hal_ndrange_t nd = {.global = {items}, .local = {1}};
  double *t = malloc(sizeof *t * (size_t)runs), *c = malloc(sizeof *c * (size_t)runs);
  for (int r = 0; r < runs; r++) {
    double c0 = bench_proc_cpu_ns(pid), t0 = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec(d, p, k, &nd, args, nargs, 1));
    t[r] = bench_now_us() - t0;
    c[r] = (bench_proc_cpu_ns(pid) - c0) / 1e3;
    if (r == 0) *insns = launch_insns(d);
  }
  *us = bench_stats(t, (size_t)runs).median;
  *cpu_us = bench_stats(c, (size_t)runs).median;
  free(t);
  free(c);
  BENCH_CHECK(rvhal_mem_read(d, out, dout, out_size));
}

static void one_vlen(const char *kernel_dir, uint32_t vlen, int runs) {
  /* exact timing: instruction counts repeat exactly; wall times are of -icount's one thread */
  rvhal_device_options_t o = {.num_harts = 4, .vlen = vlen, .counters = 1, .timing = RVHAL_TIMING_EXACT};
  bench_dev_t b = bench_open(kernel_dir, "rvv_ops", &o);
  hal_program_t ps;
  char path[1024];
  snprintf(path, sizeof path, "%s/bench_kernels.elf", kernel_dir);
  BENCH_CHECK(rvhal_program_load_file(b.d, path, &ps));
  const size_t n = (size_t)ITEMS * PER_ITEM;
  uint32_t *a = malloc(n * 4), *bb = malloc(n * 4), *o1 = malloc(n * 4), *o2 = malloc(n * 4);
  float *x = malloc(n * 4), *y = malloc(n * 4);
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)i * 2654435761u, bb[i] = (uint32_t)i, x[i] = (float)i * 0.5f, y[i] = 1.0f;
  hal_addr_t da, db, dc, dx, dy, ds;
  BENCH_CHECK(rvhal_mem_alloc(b.d, n * 4, 0, &da));
  BENCH_CHECK(rvhal_mem_alloc(b.d, n * 4, 0, &db));
  BENCH_CHECK(rvhal_mem_alloc(b.d, n * 4, 0, &dc));
  BENCH_CHECK(rvhal_mem_alloc(b.d, n * 4, 0, &dx));
  BENCH_CHECK(rvhal_mem_alloc(b.d, n * 4, 0, &dy));
  BENCH_CHECK(rvhal_mem_alloc(b.d, ITEMS * 4, 0, &ds));
  BENCH_CHECK(rvhal_mem_write(b.d, da, a, n * 4));
  BENCH_CHECK(rvhal_mem_write(b.d, db, bb, n * 4));
  BENCH_CHECK(rvhal_mem_write(b.d, dx, x, n * 4));
  uint32_t per = PER_ITEM, mat = MAT;
  float alpha = 2.0f;
  hal_arg_t vadd[4] = {rvhal_arg_global(da), rvhal_arg_global(db), rvhal_arg_global(dc), rvhal_arg_value(&per, 4)};
  hal_arg_t saxpy[4] = {rvhal_arg_value(&alpha, 4), rvhal_arg_global(dx), rvhal_arg_global(dy), rvhal_arg_value(&per, 4)};
  hal_arg_t red[3] = {rvhal_arg_global(da), rvhal_arg_global(ds), rvhal_arg_value(&per, 4)};
  hal_arg_t mm[4] = {rvhal_arg_global(dx), rvhal_arg_global(da), rvhal_arg_global(dc), rvhal_arg_value(&mat, 4)};
  static const pair_t pairs[] = {{"vadd u32", "rvv_vadd_entry", "scalar_vadd_entry"},
                                 {"saxpy f32", "rvv_saxpy_entry", "scalar_saxpy_entry"},
                                 {"vredsum u32", "rvv_vredsum_entry", "scalar_vredsum_entry"},
                                 {"matmul f32 64x64", "rvv_matmul_entry", "scalar_matmul_entry"}};
  const hal_arg_t *args[] = {vadd, saxpy, red, mm};
  const uint32_t nargs[] = {4, 4, 3, 4};
  const uint64_t items[] = {ITEMS, ITEMS, ITEMS, MAT};
  const hal_addr_t outs[] = {dc, dy, ds, dc};
  const size_t out_sizes[] = {n * 4, n * 4, ITEMS * 4, MAT * MAT * 4};
  for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
    if (i == 3) { /* matmul reads B as floats: give it some */
      BENCH_CHECK(rvhal_mem_write(b.d, da, x, MAT * MAT * 4));
    }
    uint64_t iv = 0, is = 0;
    double tv = 0, ts = 0, cv = 0, cs = 0;
    BENCH_CHECK(rvhal_mem_write(b.d, dy, y, n * 4)); /* saxpy's y afresh for each */
    measure(b.d, b.p, pairs[i].vec, args[i], nargs[i], items[i], outs[i], o1, out_sizes[i], 1, &iv, &tv, &cv);
    BENCH_CHECK(rvhal_mem_write(b.d, dy, y, n * 4));
    measure(b.d, ps, pairs[i].scalar, args[i], nargs[i], items[i], outs[i], o2, out_sizes[i], 1, &is, &ts, &cs);
    if (memcmp(o1, o2, out_sizes[i])) {
      fprintf(stderr, "rvhal-bench rvv: %s: the RVV and scalar results differ (VLEN %u)\n", pairs[i].what, vlen);
      exit(1);
    }
    /* wall time: more runs, y no longer matters (results checked above) */
    measure(b.d, b.p, pairs[i].vec, args[i], nargs[i], items[i], outs[i], o1, out_sizes[i], runs, &iv, &tv, &cv);
    measure(b.d, ps, pairs[i].scalar, args[i], nargs[i], items[i], outs[i], o2, out_sizes[i], runs, &is, &ts, &cs);
    printf("rvv     VLEN %4u %-18s RVV %9llu insns %8.0f us wall %8.0f us QEMU CPU | scalar %9llu insns %8.0f us "
           "wall %8.0f us QEMU CPU | %5.1fx fewer insns, RVV/scalar CPU time %4.2f\n",
           vlen, pairs[i].what, (unsigned long long)iv, tv, cv, (unsigned long long)is, ts, cs,
           (double)is / (double)(iv ? iv : 1), cv / (cs > 0 ? cs : 1));
  }
  free(a), free(bb), free(o1), free(o2), free(x), free(y);
  BENCH_CHECK(rvhal_program_free(b.d, ps));
  bench_close(&b);
}

void bench_rvv(const char *kernel_dir, int runs) {
  int n = runs < 5 ? runs : 5;
  static const uint32_t vlens[] = {128, 256, 512, 1024};
  for (size_t i = 0; i < sizeof vlens / sizeof *vlens; i++) one_vlen(kernel_dir, vlens[i], n);
}

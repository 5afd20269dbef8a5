/* rvhal-bench peers: the four kernels of peer_kernels.h on rvhal (the example
 * kernels, fast timing, 1 and 2 harts), natively and under QEMU user mode
 * (the same kernels as a pthreads program, peers/peer.c), with the ratios
 * rvhal / qemu-user. Times are medians of kernel_exec (rvhal) or of thread
 * create..join (peers), inputs prepared outside; checksums say whether the
 * outputs agree. qemu-user needs the Debian packages qemu-user and
 * gcc-riscv64-linux-gnu (bench/peers/run.sh installs them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_util.h"
#include "peers/peer_kernels.h"
#include "rvhal/rvhal.h"

#define PEERS_RUNS_MAX 5
/* Untimed launches first: the program install, first touch, and growing
 * QEMU's TLB (docs/architecture.md). */
#define PEERS_WARM_UP 3
#define NSIDES 3 /* native, qemu-user, rvhal */
#define NTHREADS 2

typedef struct result {
  double ms;     /* wall; < 0: not run */
  double cpu_ms; /* host CPU time of the process doing the work (QEMU for rvhal) */
  uint64_t sum;
} result_t;

/* One kernel on an rvhal device, its inputs in place. */
typedef struct rvhal_run {
  bench_dev_t *b;
  const peer_kernel_t *pk;
  hal_kernel_t k;
  hal_addr_t in0, in1, out;
  size_t out_size;
  uint32_t m, w, n, nargs;
  hal_arg_t args[6];
  long pid;
} rvhal_run_t;

static void run_prepare(rvhal_run_t *r, bench_dev_t *b, const peer_kernel_t *pk) {
  memset(r, 0, sizeof *r);
  r->b = b;
  r->pk = pk;
  rvhal_device_t *d = b->d;
  r->k = bench_kernel(b, pk->entry);
  r->m = PEER_MM_N, r->w = PEER_BLUR_N, r->n = PEER_HIST_BYTES;
  void *p0, *p1;
  switch ((int)(pk - peer_kernels)) {
  case PEER_VADD:
    r->out_size = PEER_VADD_N * 4u;
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->in0));
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->in1));
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->out));
    BENCH_CHECK(rvhal_mem_map(d, r->in0, r->out_size, &p0));
    BENCH_CHECK(rvhal_mem_map(d, r->in1, r->out_size, &p1));
    peer_init_vadd(p0, p1);
    r->args[0] = rvhal_arg_global(r->in0), r->args[1] = rvhal_arg_global(r->in1);
    r->args[2] = rvhal_arg_global(r->out), r->nargs = 3;
    break;
  case PEER_MATMUL:
    r->out_size = PEER_MM_N * PEER_MM_N * 4u;
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->in0));
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->in1));
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->out));
    BENCH_CHECK(rvhal_mem_map(d, r->in0, r->out_size, &p0));
    BENCH_CHECK(rvhal_mem_map(d, r->in1, r->out_size, &p1));
    peer_init_floats(p0, PEER_MM_N * PEER_MM_N, 1);
    peer_init_floats(p1, PEER_MM_N * PEER_MM_N, 2);
    r->args[0] = rvhal_arg_global(r->in0), r->args[1] = rvhal_arg_global(r->in1);
    r->args[2] = rvhal_arg_global(r->out);
    r->args[3] = r->args[4] = r->args[5] = rvhal_arg_value(&r->m, sizeof r->m);
    r->nargs = 6;
    break;
  case PEER_BLUR:
    r->out_size = PEER_BLUR_N * PEER_BLUR_N * 4u;
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->in0));
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->out));
    BENCH_CHECK(rvhal_mem_map(d, r->in0, r->out_size, &p0));
    peer_init_floats(p0, PEER_BLUR_N * PEER_BLUR_N, 3);
    r->args[0] = rvhal_arg_global(r->in0), r->args[1] = rvhal_arg_global(r->out);
    r->args[2] = r->args[3] = rvhal_arg_value(&r->w, sizeof r->w);
    r->nargs = 4;
    break;
  case PEER_HIST:
    r->out_size = PEER_HIST_BINS * 4u;
    BENCH_CHECK(rvhal_mem_alloc(d, PEER_HIST_BYTES, 0, &r->in0));
    BENCH_CHECK(rvhal_mem_alloc(d, r->out_size, 0, &r->out));
    BENCH_CHECK(rvhal_mem_map(d, r->in0, PEER_HIST_BYTES, &p0));
    peer_init_hist(p0);
    r->args[0] = rvhal_arg_global(r->in0), r->args[1] = rvhal_arg_value(&r->n, sizeof r->n);
    r->args[2] = rvhal_arg_global(r->out);
    r->nargs = 3;
    break;
  }
  BENCH_CHECK(rvhal_device_host_pid(d, &r->pid));
}

/* One launch (the output cleared first, untimed): wall us and QEMU CPU ns. */
static void run_once(rvhal_run_t *r, double *wall_us, double *cpu_ns) {
  const peer_kernel_t *pk = r->pk;
  hal_ndrange_t nd = {.global = {pk->global[0], pk->global[1], 1}, .local = {pk->local[0], pk->local[1], 1}};
  const uint32_t zero = 0;
  BENCH_CHECK(rvhal_mem_fill(r->b->d, r->out, &zero, 4, r->out_size));
  double c = bench_proc_cpu_ns(r->pid), a = bench_now_us();
  BENCH_CHECK(rvhal_kernel_exec(r->b->d, r->b->p, r->k, &nd, r->args, r->nargs, pk->dims));
  *wall_us = bench_now_us() - a;
  *cpu_ns = bench_proc_cpu_ns(r->pid) - c;
}

/* The output's checksum; frees the buffers. */
static uint64_t run_finish(rvhal_run_t *r) {
  void *po;
  BENCH_CHECK(rvhal_mem_map(r->b->d, r->out, r->out_size, &po));
  uint64_t sum = peer_checksum(po, r->out_size);
  BENCH_CHECK(rvhal_mem_free(r->b->d, r->in0));
  BENCH_CHECK(rvhal_mem_free(r->b->d, r->in1));
  BENCH_CHECK(rvhal_mem_free(r->b->d, r->out));
  return sum;
}

/* One kernel on an rvhal device: median wall time of kernel_exec. */
static result_t rvhal_kernel(bench_dev_t *b, const peer_kernel_t *pk, int runs) {
  rvhal_run_t r;
  run_prepare(&r, b, pk);
  double t[PEERS_RUNS_MAX], cpu[PEERS_RUNS_MAX];
  for (int i = -PEERS_WARM_UP; i < runs; i++) {
    double w, c;
    run_once(&r, &w, &c);
    if (i >= 0) t[i] = w, cpu[i] = c;
  }
  result_t res = {bench_stats(t, (size_t)runs).median / 1e3, bench_stats(cpu, (size_t)runs).median / 1e6, 0};
  res.sum = run_finish(&r);
  return res;
}

/* `prefix peer kernel threads runs`, parsed; ms < 0 if it did not run. */
static result_t run_peer(const char *prefix, const char *peer, const peer_kernel_t *pk, int threads, int runs) {
  result_t r = {-1, -1, 0};
  char cmd[2048], name[64];
  snprintf(cmd, sizeof cmd, "%s%s %s %d %d", prefix, peer, pk->name, threads, runs);
  FILE *f = popen(cmd, "r");
  if (!f)
    return r;
  unsigned th;
  unsigned long long sum;
  if (fscanf(f, "%63s %u %lf %lf %llx", name, &th, &r.ms, &r.cpu_ms, &sum) != 5)
    r.ms = -1;
  r.sum = sum;
  if (pclose(f) != 0)
    r.ms = -1;
  return r;
}

/* Counters on against off on 2 harts, fast timing: the plugin's cost when
 * harts run in parallel (matmul: short blocks, so many count updates). */
void bench_counters(const char *kernel_dir, int runs) {
  if (runs > PEERS_RUNS_MAX)
    runs = PEERS_RUNS_MAX;
  const peer_kernel_t *pk = &peer_kernels[PEER_MATMUL];
  /* Both devices up at once (an idle one costs nothing), their launches
   * alternating, so that a loaded host's changing load falls on both. */
  bench_dev_t b[2];
  rvhal_run_t r[2];
  double t[2][PEERS_RUNS_MAX], cpu[2][PEERS_RUNS_MAX];
  for (int on = 0; on < 2; on++) {
    rvhal_device_options_t o = {.num_harts = 2, .timing = RVHAL_TIMING_FAST, .counters = on};
    b[on] = bench_open(kernel_dir, pk->elf, &o);
    run_prepare(&r[on], &b[on], pk);
  }
  for (int i = -PEERS_WARM_UP; i < runs; i++)
    for (int k = 0; k < 2; k++) {
      int on = (i + k) & 1; /* which goes first alternates too */
      double w, c;
      run_once(&r[on], &w, &c);
      if (i >= 0) t[on][i] = w, cpu[on][i] = c;
    }
  result_t res[2];
  for (int on = 0; on < 2; on++) {
    res[on].ms = bench_stats(t[on], (size_t)runs).median / 1e3;
    res[on].cpu_ms = bench_stats(cpu[on], (size_t)runs).median / 1e6;
    res[on].sum = run_finish(&r[on]);
    bench_close(&b[on]);
  }
  printf("counters  matmul 256x256 f32, 2 harts, fast timing, launches alternating: counters off "
         "%.1f ms, on %.1f ms: %.2fx (aim <= 1.1x); "
         "QEMU CPU time %.1f / %.1f ms: %.2fx; medians of %d%s\n",
         res[0].ms, res[1].ms, res[1].ms / res[0].ms, res[0].cpu_ms, res[1].cpu_ms, res[1].cpu_ms / res[0].cpu_ms, runs,
         res[0].sum == res[1].sum ? "" : "; OUTPUTS DIFFER");
}

static int executable(const char *path) { return path && *path && access(path, X_OK) == 0; }

void bench_peers(const char *kernel_dir, int runs) {
  if (runs > PEERS_RUNS_MAX)
    runs = PEERS_RUNS_MAX;
  result_t res[PEER_NUM_KERNELS][NSIDES][NTHREADS];
  for (int k = 0; k < PEER_NUM_KERNELS; k++)
    for (int s = 0; s < NSIDES; s++)
      for (int t = 0; t < NTHREADS; t++)
        res[k][s][t].ms = -1;

  const char *native = RVHAL_BENCH_PEER_NATIVE, *rv64 = RVHAL_BENCH_PEER_RV64;
  const char *qemu_user = "/usr/bin/qemu-riscv64";
  int have_user = executable(rv64) && executable(qemu_user);
  if (!have_user)
    printf("peers     qemu-user column skipped: needs %s and %s (Debian "
           "packages qemu-user and gcc-riscv64-linux-gnu, "
           "then re-run cmake; bench/peers/run.sh does both)\n",
           qemu_user, *rv64 ? rv64 : "build/bench/rvhal-peer-riscv64-linux");
  char user_prefix[256];
  snprintf(user_prefix, sizeof user_prefix, "%s ", qemu_user);
  /* RVHAL_PEERS=name,name... runs only those kernels; RVHAL_PEERS_RVHAL_ONLY=1 skips the peer programs
   * (both for working on one kernel; the ratios then need the full run). */
  const char *only = getenv("RVHAL_PEERS"), *rvhal_only = getenv("RVHAL_PEERS_RVHAL_ONLY");
  int want[PEER_NUM_KERNELS];
  for (int k = 0; k < PEER_NUM_KERNELS; k++)
    want[k] = !only || !*only || strstr(only, peer_kernels[k].name) != NULL;
  if (rvhal_only && *rvhal_only == '1') have_user = 0;
  for (int k = 0; k < PEER_NUM_KERNELS; k++)
    for (int t = 0; t < NTHREADS && want[k] && !(rvhal_only && *rvhal_only == '1'); t++) {
      res[k][0][t] = run_peer("", native, &peer_kernels[k], t + 1, runs);
      if (have_user)
        res[k][1][t] = run_peer(user_prefix, rv64, &peer_kernels[k], t + 1, runs);
    }
  for (int t = 0; t < NTHREADS; t++) {
    /* 3 x 64 MiB for vector_add */
    rvhal_device_options_t o = {.num_harts = (uint32_t)t + 1, .ram_size = 512u << 20, .timing = RVHAL_TIMING_FAST};
    for (int k = 0; k < PEER_NUM_KERNELS; k++) {
      if (!want[k]) continue;
      bench_dev_t b = bench_open(kernel_dir, peer_kernels[k].elf, &o);
      res[k][2][t] = rvhal_kernel(&b, &peer_kernels[k], runs);
      bench_close(&b);
    }
  }

  for (int cpu = 0; cpu < 2; cpu++) {
    printf("peers     %s, medians of %d, threads or harts 1 / 2 (fast timing)\n",
           cpu ? "host CPU ms (all threads; less disturbed by a loaded host)" : "wall ms", runs);
    printf("peers     %-26s %17s %17s %17s %17s  %s\n", "kernel", "native", "qemu-user", "rvhal", "rvhal/qemu-user",
           "checksums");
    for (int k = 0; k < PEER_NUM_KERNELS; k++) {
      char name[64], cols[NSIDES + 1][32];
      snprintf(name, sizeof name, "%s %s", peer_kernels[k].name, peer_kernels[k].what);
      for (int s = 0; s < NSIDES; s++) {
        double a = cpu ? res[k][s][0].cpu_ms : res[k][s][0].ms, b = cpu ? res[k][s][1].cpu_ms : res[k][s][1].ms;
        if (res[k][s][0].ms < 0 || res[k][s][1].ms < 0)
          snprintf(cols[s], sizeof cols[s], "-");
        else
          snprintf(cols[s], sizeof cols[s], "%.1f / %.1f", a, b);
      }
      if (res[k][1][0].ms > 0 && res[k][1][1].ms > 0 && !cpu)
        snprintf(cols[3], sizeof cols[3], "%.2fx / %.2fx", res[k][2][0].ms / res[k][1][0].ms,
                 res[k][2][1].ms / res[k][1][1].ms);
      else if (res[k][1][0].ms > 0 && res[k][1][1].ms > 0)
        snprintf(cols[3], sizeof cols[3], "%.2fx / %.2fx", res[k][2][0].cpu_ms / res[k][1][0].cpu_ms,
                 res[k][2][1].cpu_ms / res[k][1][1].cpu_ms);
      else
        snprintf(cols[3], sizeof cols[3], "-");
      /* rvhal and qemu-user run the same RISC-V code: bit-identical outputs.
       * Native x86 may round floats differently (no fused multiply-add). */
      const char *agree = "rvhal differs between 1 and 2 harts";
      if (res[k][2][0].sum == res[k][2][1].sum) {
        if (res[k][1][0].ms < 0)
          agree = "rvhal 1 = 2 harts";
        else if (res[k][1][0].sum == res[k][2][0].sum && res[k][1][1].sum == res[k][2][0].sum)
          agree = res[k][0][0].sum == res[k][2][0].sum ? "all equal" : "rvhal = qemu-user (native rounds differently)";
        else
          agree = "RVHAL DIFFERS FROM QEMU-USER";
      }
      printf("peers     %-26s %17s %17s %17s %17s  %s\n", name, cols[0], cols[1], cols[2], cols[3], agree);
    }
  }
}

/* rvhal-bench peers: the four kernels of peer_kernels.h on rvhal (the example
 * kernels, fast timing, 1, 2 and 4 harts), natively and under QEMU user mode
 * (the same kernels as a pthreads program, peers/peer.c), and their floor:
 * the same loops as a bare-metal program (peers/floor/floor.c) on the same
 * QEMU machine and options without rvhal, its buffers at the addresses
 * rvhal gave the same allocations and its TLB grown to rvhal's size. Ratios
 * rvhal / floor (rvhal's own cost), floor / qemu-user (the system
 * emulation's) and rvhal / qemu-user. Times are medians of kernel_exec
 * (rvhal), of thread create..join (peers), or from the host's go byte to
 * the floor's "E" line. rvhal's launches and the floor's rounds alternate,
 * both QEMUs up, so that a changing load falls on both; QEMU's CPU time
 * (its threads' schedstat) is read only while all its threads sleep, where
 * it is exact. Inputs prepared outside; checksums say whether the outputs
 * agree. qemu-user needs the
 * Debian packages qemu-user and gcc-riscv64-linux-gnu (bench/peers/run.sh
 * installs them).
 *
 * And the same four kernels in OpenCL C (peers/opencl/NAME.cl, compiled by
 * rvhal cc, a kernel an ELF as the examples) on the same device, with the
 * same buffers: `opencl/sdk`, the OpenCL C
 * kernel's QEMU CPU time over the C SDK kernel's. A session runs the C SDK
 * kernel's launches, then the OpenCL C kernel's (or the other way round,
 * every other session: a launch of the other program installs it, which
 * flushes the harts' TLBs), each launch beside a round of the floor; each
 * side's launches over the floor's rounds beside them, and the OpenCL C
 * side's median of those over the C SDK side's, is the ratio, so a load
 * that changed between the two phases falls out with the floor's. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench_util.h"
#include "peers/floor/floor_params.h"
#include "peers/peer_kernels.h"
#include "rvhal/rvhal.h"

#define PEERS_RUNS_MAX 31
/* Untimed launches first: the program install, first touch, and growing
 * QEMU's TLB (docs/architecture.md). */
#define PEERS_WARM_UP 3
enum { SIDE_NATIVE, SIDE_USER, SIDE_FLOOR, SIDE_RVHAL, SIDE_OPENCL, NSIDES };
#define NTHREADS 3 /* 1, 2, 4 threads or harts */
static const uint32_t thread_counts[NTHREADS] = {1, 2, 4};
#define RAM_MIB 512u /* the rvhal device's: 3 x 64 MiB for vector_add */

/* Where rvhal put a kernel's buffers, and the TLB size it grew the harts
 * to: what the floor copies. */
typedef struct placement {
  uint64_t in0, in1, out;
  uint32_t tlb_log2;
} placement_t;

typedef struct result {
  double ms;     /* wall; < 0: not run */
  double cpu_ms; /* host CPU time of the process doing the work (QEMU for rvhal) */
  uint64_t sum;
  /* rvhal / floor [wall, cpu], each run over the floor's round beside it:
   * median of all runs, min and max of the sessions' medians, min and max
   * of single runs */
  double pair[2][5];
} result_t;

/* rvhal and the floor are measured in sessions (RVHAL_PEERS_SESSIONS, 3 by
 * default), each a new device and a new floor QEMU: between two processes
 * the same loop moved by up to 5 % (host memory placement), more than
 * between runs of one. */
#define PEERS_SESSIONS_MAX 8
/* What a session runs: rvhal (the C SDK kernel) alternating with the floor,
 * then the OpenCL C kernel alternating with the floor. */
enum { RUN_SDK, RUN_FLOOR, RUN_OPENCL, RUN_FLOOR_CL, NRUNS };
typedef struct samples {
  int n, sessions;
  double t[NRUNS][PEERS_SESSIONS_MAX * PEERS_RUNS_MAX], cpu[NRUNS][PEERS_SESSIONS_MAX * PEERS_RUNS_MAX];
  double session[2][PEERS_SESSIONS_MAX]; /* rvhal / floor, median of the session's runs [wall, cpu] */
  uint64_t sum[NRUNS];
  int floor_failed, opencl; /* opencl: the OpenCL C kernel ran */
} samples_t;

/* One kernel on an rvhal device, its inputs in place. */
typedef struct rvhal_run {
  bench_dev_t *b;
  const peer_kernel_t *pk;
  hal_kernel_t k;
  hal_program_t cl_p; /* the OpenCL C kernels (cl_p 0: not loaded) */
  hal_kernel_t cl_k;
  hal_addr_t in0, in1, out;
  size_t out_size;
  uint32_t m, w, n, nargs;
  hal_arg_t args[6];
  long pid;
  int cleared; /* the output was cleared once */
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

/* One launch of the C SDK kernel, or of its OpenCL C form: wall us and
 * QEMU CPU ns. The output is cleared (untimed) before the first launch
 * only, except histogram's, which accumulates (1 KiB): the host's 64 MiB of
 * stores just before a launch made QEMU's own stores to the same lines
 * dearer (vector_add over the floor, which clears nothing between rounds:
 * 1.00-1.13 with a clear per launch, 0.995-1.001 without, QEMU CPU). Each
 * launch rewrites the whole output. */
static void run_once(rvhal_run_t *r, int opencl, double *wall_us, double *cpu_ns) {
  const peer_kernel_t *pk = r->pk;
  hal_ndrange_t nd = {.global = {pk->global[0], pk->global[1], 1}, .local = {pk->local[0], pk->local[1], 1}};
  const uint32_t zero = 0;
  if (!r->cleared || pk - peer_kernels == PEER_HIST) BENCH_CHECK(rvhal_mem_fill(r->b->d, r->out, &zero, 4, r->out_size));
  r->cleared = 1;
  /* RVHAL_PEERS_PRIVILEGED=1: kernels in the firmware's mode, not isolated
   * in U-mode, for measuring what isolation costs a kernel */
  const char *priv = getenv("RVHAL_PEERS_PRIVILEGED");
  const rvhal_launch_options_t lo = {.privileged = priv && *priv == '1'};
  const bench_cpu_snap_t c = bench_proc_cpu_snap_idle(r->pid);
  const double a = bench_now_us();
  BENCH_CHECK(rvhal_kernel_exec_ex(r->b->d, opencl ? r->cl_p : r->b->p, opencl ? r->cl_k : r->k, &nd, r->args, r->nargs,
                                   pk->dims, &lo));
  *wall_us = bench_now_us() - a;
  const bench_cpu_snap_t c1 = bench_proc_cpu_snap_idle(r->pid);
  *cpu_ns = bench_cpu_between(&c, &c1);
}

/* The output's checksum. */
static uint64_t run_sum(rvhal_run_t *r) {
  void *po;
  BENCH_CHECK(rvhal_mem_map(r->b->d, r->out, r->out_size, &po));
  return peer_checksum(po, r->out_size);
}

/* The output's checksum; frees the buffers and the OpenCL C program. */
static uint64_t run_finish(rvhal_run_t *r) {
  uint64_t sum = run_sum(r);
  if (r->cl_p) BENCH_CHECK(rvhal_program_free(r->b->d, r->cl_p));
  BENCH_CHECK(rvhal_mem_free(r->b->d, r->in0));
  BENCH_CHECK(rvhal_mem_free(r->b->d, r->in1));
  BENCH_CHECK(rvhal_mem_free(r->b->d, r->out));
  return sum;
}

/* The TLB size rvhal's launch asks for (host/src/launch/launch.c,
 * tlb_flags): the launch's buffers' pages / 0.7, as a power of two from
 * 256 up to 16384 entries; 0 when the starting 256 suffice. */
static uint32_t tlb_log2_for(uint64_t bytes) {
  const uint64_t needed = bytes / 4096 * 10 / 7;
  if (needed <= 256) return 0;
  uint32_t log2 = 0;
  while ((1ull << log2) < needed && log2 < 14) log2++;
  return log2;
}

/* Where rvhal put r's buffers and the TLB size its launch asks for. */
static placement_t placement_of(const rvhal_run_t *r) {
  uint64_t bytes = 0;
  for (uint32_t i = 0; i < r->nargs; i++)
    if (r->args[i].kind == hal_arg_address) {
      hal_addr_t a = r->args[i].address;
      bytes += a == r->out ? r->out_size : r->pk - peer_kernels == PEER_HIST ? PEER_HIST_BYTES : r->out_size;
    }
  return (placement_t){r->in0, r->in1 ? r->in1 : r->in0, r->out, tlb_log2_for(bytes)};
}

/* A running floor: QEMU started as rvhal starts it for this device
 * (machine, harts, RAM size, memfd RAM, no BIOS, fast timing), the floor
 * image as its firmware, parameters through the generic loader. */
typedef struct floor_run {
  pid_t pid;
  FILE *out; /* its UART */
  int go;    /* its UART's input: a byte starts a round */
} floor_run_t;

/* Starts the floor and waits for its "R" (inputs in place, TLB grown);
 * pid < 0 if it cannot run. */
static floor_run_t floor_start(const char *kernel_dir, const peer_kernel_t *pk, uint32_t harts, int rounds,
                               const placement_t *where) {
  floor_run_t f = {.pid = -1, .out = NULL, .go = -1};
  char image[1024];
  snprintf(image, sizeof image, "%s/peer_floor.elf", kernel_dir);
  if (access(image, R_OK) != 0) return f;
  const uint64_t lowest = where->in0 < where->out ? where->in0 : where->out;
  if (lowest < FLOOR_PARAMS_ADDR + 4096) return f; /* rvhal's heap over the floor's image: not comparable */
  const uint64_t params[] = {FLOOR_MAGIC, (uint64_t)(pk - peer_kernels), harts, (uint64_t)rounds,
                             where->in0, where->in1, where->out, where->tlb_log2, lowest & ~4095ull};
  enum { NPARAMS = sizeof params / sizeof *params };
  char loaders[NPARAMS][96], smp[16], mem[96], ram[32];
  const char *qemu = getenv("RVHAL_QEMU");
  if (!qemu || !*qemu) qemu = "qemu-system-riscv64";
  snprintf(smp, sizeof smp, "%u", harts);
  snprintf(ram, sizeof ram, "%uM", RAM_MIB);
  snprintf(mem, sizeof mem, "memory-backend-memfd,id=ram,size=%uM,share=on", RAM_MIB);
  const char *argv[64] = {qemu, "-nodefaults", "-no-user-config", "-display", "none", "-monitor", "none",
                          "-machine", "virt,memory-backend=ram", "-smp", smp, "-m", ram, "-object", mem,
                          "-bios", "none", "-kernel", image, "-no-reboot", "-serial", "stdio"};
  int argc = 22;
  for (int i = 0; i < NPARAMS; i++) {
    snprintf(loaders[i], sizeof loaders[i], "loader,addr=0x%llx,data=0x%llx,data-len=8",
             (unsigned long long)(FLOOR_PARAMS_ADDR + 8u * (unsigned)i), (unsigned long long)params[i]);
    argv[argc++] = "-device";
    argv[argc++] = loaders[i];
  }
  argv[argc] = NULL;
  int out[2], in[2];
  if (pipe(out) != 0) return f;
  if (pipe(in) != 0) {
    close(out[0]), close(out[1]);
    return f;
  }
  pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* dies with the bench, however that ends */
    dup2(out[1], 1);
    dup2(in[0], 0);
    close(out[0]), close(out[1]), close(in[0]), close(in[1]);
    execvp(qemu, (char *const *)argv);
    _exit(127);
  }
  close(out[1]), close(in[0]);
  f.pid = pid;
  f.go = in[1];
  f.out = pid > 0 ? fdopen(out[0], "r") : NULL;
  char line[128];
  while (f.out && fgets(line, sizeof line, f.out) && line[0] != 'R')
    fprintf(stderr, "rvhal-bench: floor (%s, %u harts): %s", pk->name, harts, line);
  if (!f.out || feof(f.out)) {
    fprintf(stderr, "rvhal-bench: floor (%s, %u harts) did not start\n", pk->name, harts);
    f.pid = -1;
  }
  return f;
}

/* One round of the floor: wall us from the go byte to its "E", and QEMU's
 * CPU ns (read with every thread asleep); 0 if the floor is gone. */
static int floor_round(floor_run_t *f, double *wall_us, double *cpu_ns) {
  if (f->pid < 0) return 0;
  const bench_cpu_snap_t c = bench_proc_cpu_snap_idle(f->pid);
  const double w = bench_now_us();
  char line[128];
  if (write(f->go, "g", 1) != 1) return 0;
  while (fgets(line, sizeof line, f->out) && line[0] != 'E')
    fprintf(stderr, "rvhal-bench: floor: %s", line);
  if (feof(f->out)) return 0;
  *wall_us = bench_now_us() - w;
  const bench_cpu_snap_t c1 = bench_proc_cpu_snap_idle(f->pid);
  *cpu_ns = bench_cpu_between(&c, &c1);
  return 1;
}

/* The floor's checksum, after its last round; QEMU gone. */
static int floor_finish(floor_run_t *f, uint64_t *sum) {
  int ok = 0;
  char line[128];
  unsigned long long v = 0;
  if (f->go >= 0 && write(f->go, "c", 1) != 1) fprintf(stderr, "rvhal-bench: floor: its UART is gone\n");
  while (f->out && fgets(line, sizeof line, f->out))
    if (line[0] == 'C') ok = sscanf(line, "C %llx", &v) == 1;
  *sum = v;
  if (f->out) fclose(f->out);
  if (f->go >= 0) close(f->go);
  if (f->pid > 0) {
    if (!ok) kill(f->pid, SIGKILL);
    waitpid(f->pid, NULL, 0);
  }
  return ok;
}

static double ratio_median(const double *num, const double *den, int n, double *lo, double *hi) {
  double q[PEERS_SESSIONS_MAX * PEERS_RUNS_MAX];
  for (int i = 0; i < n; i++) q[i] = num[i] / den[i];
  const bench_stats_t st = bench_stats(q, (size_t)n);
  if (lo) *lo = q[0], *hi = st.max;
  return st.median;
}

/* One session of a kernel: a device and a floor, their runs alternating
 * (which goes first alternates too), both QEMUs up so that a changing load
 * falls on both; with cl_dir, the OpenCL C kernel's phase on the same
 * device and buffers, against the same floor; appended to `acc`. */
static void rvhal_and_floor(const char *kernel_dir, const peer_kernel_t *pk, const rvhal_device_options_t *o,
                            int runs, int with_floor, const char *cl_dir, samples_t *acc) {
  bench_dev_t b = bench_open(kernel_dir, pk->elf, o);
  if (strcmp(rvhal_device_get_info(b.d)->board, "qemu-virt")) with_floor = 0;
  rvhal_run_t r;
  run_prepare(&r, &b, pk);
  if (cl_dir) {
    char cl_elf[1024];
    snprintf(cl_elf, sizeof cl_elf, "%s/peers_cl_%s.elf", cl_dir, pk->name);
    BENCH_CHECK(rvhal_program_load_file(b.d, cl_elf, &r.cl_p));
    BENCH_CHECK(rvhal_program_find_kernel(b.d, r.cl_p, pk->name, &r.cl_k));
    acc->opencl = 1;
  }
  const int phases = cl_dir ? 2 : 1;
  const placement_t where = placement_of(&r);
  floor_run_t f = {.pid = -1, .out = NULL, .go = -1};
  if (with_floor) f = floor_start(kernel_dir, pk, o->num_harts, phases * (PEERS_WARM_UP + runs), &where);
  int floor_ok = f.pid > 0;
  double *t[NRUNS], *cpu[NRUNS];
  for (int side = 0; side < NRUNS; side++) t[side] = acc->t[side] + acc->n, cpu[side] = acc->cpu[side] + acc->n;
  for (int phase = 0; phase < phases; phase++) {
    const int opencl = phases == 2 && (phase ^ (acc->sessions & 1)); /* which kernel goes first alternates */
    const int mine = opencl ? RUN_OPENCL : RUN_SDK, floors = opencl ? RUN_FLOOR_CL : RUN_FLOOR;
    for (int i = -PEERS_WARM_UP; i < runs; i++)
      for (int k = 0; k < 2; k++) {
        const int side = (i + k) & 1 ? floors : mine;
        double w = 0, c = 0;
        if (side == floors) {
          if (!floor_ok) continue;
          floor_ok = floor_round(&f, &w, &c);
        } else {
          run_once(&r, opencl, &w, &c);
          if (i == runs - 1) acc->sum[side] = run_sum(&r);
        }
        if (i >= 0) t[side][i] = w, cpu[side][i] = c;
      }
  }
  if (with_floor && !(f.pid > 0 && floor_finish(&f, &acc->sum[RUN_FLOOR]) && floor_ok)) {
    fprintf(stderr, "rvhal-bench: floor (%s, %u harts) gave no result\n", pk->name, o->num_harts);
    acc->floor_failed = 1;
  }
  if (!with_floor) acc->floor_failed = 1;
  if (!acc->floor_failed) {
    acc->session[0][acc->sessions] = ratio_median(t[RUN_SDK], t[RUN_FLOOR], runs, NULL, NULL);
    acc->session[1][acc->sessions] = ratio_median(cpu[RUN_SDK], cpu[RUN_FLOOR], runs, NULL, NULL);
  }
  acc->sessions++;
  acc->n += runs;
  run_finish(&r);
  bench_close(&b);
}

/* The median of v, left in its order (the runs stay paired). */
static double median_of(const double *v, int n) {
  double q[PEERS_SESSIONS_MAX * PEERS_RUNS_MAX];
  memcpy(q, v, (size_t)n * sizeof *v);
  return bench_stats(q, (size_t)n).median;
}

/* A kernel's sessions into its rvhal, floor and OpenCL C results. The
 * OpenCL C side's pair[c][0] is opencl / sdk: with the floor, the median of
 * its launches over the floor's rounds beside them over the same of the C
 * SDK's ([3], [4]: the two medians); without, the ratio of the sides'
 * medians. */
static void peers_results(samples_t *acc, result_t *rvhal, result_t *floor, result_t *opencl) {
  rvhal->ms = median_of(acc->t[RUN_SDK], acc->n) / 1e3;
  rvhal->cpu_ms = median_of(acc->cpu[RUN_SDK], acc->n) / 1e6;
  rvhal->sum = acc->sum[RUN_SDK];
  *opencl = (result_t){.ms = -1, .cpu_ms = -1};
  if (acc->opencl) {
    opencl->ms = median_of(acc->t[RUN_OPENCL], acc->n) / 1e3;
    opencl->cpu_ms = median_of(acc->cpu[RUN_OPENCL], acc->n) / 1e6;
    opencl->sum = acc->sum[RUN_OPENCL];
    for (int c = 0; c < 2; c++) {
      double *pr = opencl->pair[c];
      double *const *v = c ? (double *const[]){acc->cpu[RUN_OPENCL], acc->cpu[RUN_FLOOR_CL], acc->cpu[RUN_SDK],
                                               acc->cpu[RUN_FLOOR]}
                           : (double *const[]){acc->t[RUN_OPENCL], acc->t[RUN_FLOOR_CL], acc->t[RUN_SDK],
                                               acc->t[RUN_FLOOR]};
      if (acc->floor_failed) {
        pr[3] = median_of(v[0], acc->n), pr[4] = median_of(v[2], acc->n);
      } else {
        pr[3] = ratio_median(v[0], v[1], acc->n, NULL, NULL);
        pr[4] = ratio_median(v[2], v[3], acc->n, NULL, NULL);
      }
      pr[0] = pr[3] / pr[4];
    }
  }
  *floor = (result_t){.ms = -1, .cpu_ms = -1};
  if (acc->floor_failed) return;
  for (int c = 0; c < 2; c++) {
    double *pr = rvhal->pair[c];
    pr[0] = ratio_median(c ? acc->cpu[RUN_SDK] : acc->t[RUN_SDK], c ? acc->cpu[RUN_FLOOR] : acc->t[RUN_FLOOR], acc->n,
                         &pr[3], &pr[4]);
    bench_stats(acc->session[c], (size_t)acc->sessions);
    pr[1] = acc->session[c][0], pr[2] = acc->session[c][acc->sessions - 1];
  }
  floor->ms = median_of(acc->t[RUN_FLOOR], acc->n) / 1e3;
  floor->cpu_ms = median_of(acc->cpu[RUN_FLOOR], acc->n) / 1e6;
  floor->sum = acc->sum[RUN_FLOOR];
}

/* `prefix peer kernel threads runs`, parsed; ms < 0 if it did not run. */
static result_t run_peer(const char *prefix, const char *peer, const peer_kernel_t *pk, int threads, int runs) {
  result_t r = {.ms = -1, .cpu_ms = -1};
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
      run_once(&r[on], 0, &w, &c);
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

static void ratio(char *buf, size_t cap, const result_t *num, const result_t *den, int cpu) {
  int n = 0;
  buf[0] = '\0';
  for (int t = 0; t < NTHREADS; t++) {
    double a = cpu ? num[t].cpu_ms : num[t].ms, b = cpu ? den[t].cpu_ms : den[t].ms;
    n += snprintf(buf + n, cap - (size_t)n, t ? " / " : "");
    n += num[t].ms < 0 || den[t].ms < 0 || b <= 0 ? snprintf(buf + n, cap - (size_t)n, "-")
                                                   : snprintf(buf + n, cap - (size_t)n, "%.2f", a / b);
  }
}

void bench_peers(const char *kernel_dir, const char *cl_dir, int runs) {
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
      res[k][SIDE_NATIVE][t] = run_peer("", native, &peer_kernels[k], (int)thread_counts[t], runs);
      if (have_user)
        res[k][SIDE_USER][t] = run_peer(user_prefix, rv64, &peer_kernels[k], (int)thread_counts[t], runs);
    }
  const char *sessions_env = getenv("RVHAL_PEERS_SESSIONS");
  int sessions = sessions_env && *sessions_env ? atoi(sessions_env) : 3;
  if (sessions < 1 || sessions > PEERS_SESSIONS_MAX) {
    fprintf(stderr, "rvhal-bench: RVHAL_PEERS_SESSIONS=%s: 1 to %d sessions\n", sessions_env, PEERS_SESSIONS_MAX);
    return;
  }
  int floor_missing = 0;
  for (int k = 0; cl_dir && k < PEER_NUM_KERNELS; k++) {
    char cl_elf[1024];
    snprintf(cl_elf, sizeof cl_elf, "%s/peers_cl_%s.elf", cl_dir, peer_kernels[k].name);
    if (access(cl_elf, R_OK) != 0) {
      printf("peers     opencl/sdk skipped: no %s (the OpenCL C kernels, built by rvhal cc with clang-16)\n", cl_elf);
      cl_dir = NULL;
    }
  }
  for (int t = 0; t < NTHREADS; t++) {
    /* Hart 0 does not linger after a launch: its QEMU is idle, and its CPU
     * time exact, when the launch returns (as the floor's between rounds). */
    rvhal_device_options_t o = {.num_harts = thread_counts[t], .ram_size = (uint64_t)RAM_MIB << 20,
                                .timing = RVHAL_TIMING_FAST, .linger_us = RVHAL_LINGER_OFF};
    for (int k = 0; k < PEER_NUM_KERNELS; k++) {
      if (!want[k]) continue;
      static samples_t acc; /* large: off the stack */
      memset(&acc, 0, sizeof acc);
      for (int session = 0; session < sessions; session++)
        rvhal_and_floor(kernel_dir, &peer_kernels[k], &o, runs, !(rvhal_only && *rvhal_only == '1'), cl_dir, &acc);
      peers_results(&acc, &res[k][SIDE_RVHAL][t], &res[k][SIDE_FLOOR][t], &res[k][SIDE_OPENCL][t]);
      floor_missing |= res[k][SIDE_FLOOR][t].ms < 0;
    }
  }
  if (floor_missing)
    printf("peers     floor column incomplete: it needs %s/peer_floor.elf (built with the kernels) and device %u "
           "on the qemu-virt board (-d)\n", kernel_dir, bench_device);

  static const char *const side_names[NSIDES] = {"native", "qemu-user", "floor", "rvhal", "rvhal OpenCL C"};
  for (int cpu = 0; cpu < 2; cpu++) {
    printf("peers     %s, medians of %d (rvhal, floor: %d sessions of %d), threads or harts 1 / 2 / 4 (fast timing)\n",
           cpu ? "host CPU ms (all threads; QEMU's for floor and rvhal; less disturbed by a loaded host)" : "wall ms",
           runs, sessions, runs);
    printf("peers     %-24s", "kernel");
    for (int s = 0; s < NSIDES; s++) printf(" %22s", side_names[s]);
    printf(" %18s %18s %18s  %s\n", "rvhal/floor", "floor/qemu-user", "rvhal/qemu-user", "checksums");
    for (int k = 0; k < PEER_NUM_KERNELS; k++) {
      if (!want[k]) continue;
      char name[64], col[32], r[3][40];
      snprintf(name, sizeof name, "%s %s", peer_kernels[k].name, peer_kernels[k].what);
      printf("peers     %-24s", name);
      for (int s = 0; s < NSIDES; s++) {
        int n = 0;
        for (int t = 0; t < NTHREADS; t++) {
          const result_t *x = &res[k][s][t];
          n += snprintf(col + n, sizeof col - (size_t)n, t ? " / " : "");
          n += x->ms < 0 ? snprintf(col + n, sizeof col - (size_t)n, "-")
                         : snprintf(col + n, sizeof col - (size_t)n, "%.1f", cpu ? x->cpu_ms : x->ms);
          if (n >= (int)sizeof col) n = (int)sizeof col - 1;
        }
        printf(" %22s", col);
      }
      ratio(r[0], sizeof r[0], res[k][SIDE_RVHAL], res[k][SIDE_FLOOR], cpu);
      ratio(r[1], sizeof r[1], res[k][SIDE_FLOOR], res[k][SIDE_USER], cpu);
      ratio(r[2], sizeof r[2], res[k][SIDE_RVHAL], res[k][SIDE_USER], cpu);
      /* rvhal, the floor and qemu-user run the same RISC-V loops: bit-identical
       * outputs. Native x86 may round floats differently (no fused multiply-add). */
      const uint64_t want_sum = res[k][SIDE_RVHAL][0].sum;
      int same_rvhal = 1, same_floor = 1, same_user = 1, have_floor = 0, have_user_k = 0;
      for (int t = 0; t < NTHREADS; t++) {
        same_rvhal &= res[k][SIDE_RVHAL][t].sum == want_sum;
        if (res[k][SIDE_FLOOR][t].ms >= 0) have_floor = 1, same_floor &= res[k][SIDE_FLOOR][t].sum == want_sum;
        if (res[k][SIDE_USER][t].ms >= 0) have_user_k = 1, same_user &= res[k][SIDE_USER][t].sum == want_sum;
      }
      const char *agree = !same_rvhal                ? "RVHAL DIFFERS BETWEEN HART COUNTS"
                          : have_floor && !same_floor ? "FLOOR DIFFERS FROM RVHAL"
                          : have_user_k && !same_user ? "RVHAL DIFFERS FROM QEMU-USER"
                          : !have_user_k              ? (have_floor ? "rvhal = floor" : "rvhal 1 = 2 = 4 harts")
                          : res[k][SIDE_NATIVE][0].sum == want_sum ? "all equal"
                                                                   : "rvhal = floor = qemu-user (native rounds differently)";
      printf(" %18s %18s %18s  %s\n", r[0], r[1], r[2], agree);
    }
    /* The spread: a ratio of medians hides how far single runs move. */
    printf("peers     rvhal/floor %s, each launch over the floor's round beside it: median of %d, "
           "sessions' medians min-max [single runs min-max], harts 1 / 2 / 4\n", cpu ? "QEMU CPU" : "wall",
           sessions * runs);
    for (int k = 0; k < PEER_NUM_KERNELS; k++) {
      if (!want[k]) continue;
      printf("peers     %-24s", peer_kernels[k].name);
      for (int t = 0; t < NTHREADS; t++) {
        const result_t *x = &res[k][SIDE_RVHAL][t];
        if (res[k][SIDE_FLOOR][t].ms < 0) printf("%s -", t ? " /" : "");
        else
          printf("%s %.3f %.3f-%.3f [%.2f-%.2f]", t ? " /" : "", x->pair[cpu][0], x->pair[cpu][1], x->pair[cpu][2],
                 x->pair[cpu][3], x->pair[cpu][4]);
      }
      printf("\n");
    }
  }
  if (!cl_dir) return;
  /* OpenCL C over the C SDK, QEMU CPU: the median of the launches' paired
   * ratios (each OpenCL C launch over the C SDK launch beside it). */
  printf("peers     opencl/sdk: the OpenCL C kernels (bench/peers/opencl/, rvhal cc) over the C SDK's, QEMU CPU, "
         "same device and buffers, each side's %d launches over the floor's rounds beside them (without the floor: "
         "over each other), harts 1 / 2 / 4\n", sessions * runs);
  for (int k = 0; k < PEER_NUM_KERNELS; k++) {
    if (!want[k]) continue;
    char r[40];
    int n = 0;
    for (int t = 0; t < NTHREADS; t++)
      n += snprintf(r + n, sizeof r - (size_t)n, "%s%.2f", t ? " / " : "", res[k][SIDE_OPENCL][t].pair[1][0]);
    printf("peers     opencl/sdk %s  %s\n", peer_kernels[k].name, r);
  }
  printf("peers     opencl/sdk QEMU CPU [OpenCL C / floor, C SDK / floor: medians] and wall, outputs, harts 1 / 2 / 4\n");
  for (int k = 0; k < PEER_NUM_KERNELS; k++) {
    if (!want[k]) continue;
    int same = 1;
    printf("peers     %-24s", peer_kernels[k].name);
    for (int t = 0; t < NTHREADS; t++) {
      const result_t *x = &res[k][SIDE_OPENCL][t];
      same &= x->sum == res[k][SIDE_RVHAL][t].sum;
      printf("%s %.3f [%.3f, %.3f] wall %.3f", t ? " /" : "", x->pair[1][0], x->pair[1][3], x->pair[1][4],
             x->pair[0][0]);
    }
    printf("  %s\n", same ? "outputs equal" : "OUTPUTS DIFFER FROM THE C SDK'S");
  }
}

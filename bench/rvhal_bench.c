/* rvhal-bench: the numbers behind rvhal's speed goals, printed, never
 * asserted (timing on a shared 2-core machine is noisy; tests don't time).
 * It starts with the host's CPU model, cores and load average; every
 * latency is printed with p50, p99 and max.
 *
 *   launch    round trip of an empty launch: p50/p90/p99/max over 10,000,
 *             with hart 0 lingering (back-to-back launches) and with the
 *             doorbell only; 1 item, and on 4 harts a group per hart and
 *             one group of 4 items shared by all 4
 *   create    rvhal_device_create + delete: a program's first (a fresh
 *             process each time), cold in one process, and with the warm
 *             QEMU the library keeps for programs that create devices again
 *   transfer  mem_write / mem_read bandwidth against a host memcpy
 *   overhead  runtime instructions per work-item, barrier, group; counters
 *   vadd      vector_add over 16M elements, SDK against a direct loop
 *   teams     wall time by harts per group, for the default's choice
 *   queue     launches/s through a queue, gap between queued kernels, a pipeline
 *   counters  a kernel on 2 harts with counters on and off
 *   peers     four kernels on rvhal, natively and under QEMU user mode, and their
 *             OpenCL C forms against the C SDK's (not by default)
 *   gdb       the GDB-remote backend against the QEMU one: launch round trip, ms per MiB
 *   rvv       RVV kernels (clang-16) against scalar twins on vector harts, per VLEN: exact
 *             instructions, wall and QEMU CPU time (only when asked)
 *   icd       an empty launch through the OpenCL platform (ICD) against rvhal_kernel_exec
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "bench_cpu_wait.h"
#include "bench_util.h"
#include "rvhal/rvhal.h"

static const char *kernel_dir;
static int runs = 1000;
static int launches = 10000;
static uint32_t harts = 4;

/* n empty launches of `groups` groups of `items` work-items each, with
 * `team` harts per group (0: the default's choice): wall time per launch,
 * QEMU's CPU time per launch (all its threads), and of the launches over
 * SLOW_US, those during which a thread of this program or of QEMU waited
 * for a CPU at least half the launch (bench_cpu_wait.h). */
#define SLOW_US 20.0 /* the aim for an empty launch's p99 */
static void bench_launch_case(bench_dev_t *b, hal_kernel_t k, uint64_t groups, uint64_t items, uint32_t team,
                              const char *label) {
  const int n = launches;
  const hal_ndrange_t nd = {.global = {groups * items, 1, 1}, .local = {items, 1, 1}};
  const rvhal_launch_options_t lo = {.harts_per_group = team};
  for (int i = 0; i < 20; i++) BENCH_CHECK(rvhal_kernel_exec_ex(b->d, b->p, k, &nd, NULL, 0, 1, &lo)); /* warm up */
  long pid = 0;
  if (rvhal_device_host_pid(b->d, &pid)) pid = 0;
  bench_threads_t th = bench_threads_open(pid);
  unsigned long long w0[BENCH_WAIT_THREADS], w1[BENCH_WAIT_THREADS];
  double *t = malloc(sizeof *t * (size_t)n);
  if (!t) {
    fprintf(stderr, "rvhal-bench: out of memory\n");
    exit(1);
  }
  int slow = 0, slow_waited = 0;
  const double cpu0 = pid ? bench_proc_cpu_ns(pid) : 0;
  for (int i = 0; i < n; i++) {
    bench_threads_waited(&th, w0);
    double a = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec_ex(b->d, b->p, k, &nd, NULL, 0, 1, &lo));
    t[i] = bench_now_us() - a;
    if (t[i] <= SLOW_US) continue;
    bench_threads_waited(&th, w1);
    slow++;
    slow_waited += bench_threads_longest_us(&th, w0, w1) >= t[i] / 2;
  }
  const double qemu_us = pid ? (bench_proc_cpu_ns(pid) - cpu0) / 1e3 / n : 0;
  bench_threads_close(&th);
  rvhal_launch_report_t r;
  BENCH_CHECK(rvhal_device_last_launch(b->d, &r));
  bench_stats_t s = bench_stats(t, (size_t)n);
  printf("launch  empty kernel, %-44s p50 %6.1f us  p90 %6.1f  p99 %6.1f  max %7.1f  (%d launches, %u harts; "
         "QEMU CPU %.1f us a launch; %d over %.0f us, %d of them waited for a CPU)\n",
         label, s.median, s.p90, s.p99, s.max, n, r.harts, qemu_us, slow, SLOW_US, slow_waited);
  free(t);
}

/* One item on one hart; with 4 harts (when the device has them): a group
 * per hart, and one group of 4 items shared by all 4 (a team). */
static void bench_launch(uint32_t linger_us, const char *mode) {
  rvhal_device_options_t o = {.num_harts = harts, .linger_us = linger_us};
  bench_dev_t b = bench_open(kernel_dir, "empty", &o);
  hal_kernel_t k = bench_kernel(&b, "empty");
  char label[64];
  snprintf(label, sizeof label, "%s:", mode);
  bench_launch_case(&b, k, 1, 1, 0, label);
  if (harts >= 4) {
    snprintf(label, sizeof label, "%s, 4 groups:", mode);
    bench_launch_case(&b, k, 4, 1, 1, label);
    snprintf(label, sizeof label, "%s, 1 group on 4:", mode);
    bench_launch_case(&b, k, 1, 4, 4, label);
  }
  bench_close(&b);
}

/* device_create + delete, n times, gap_ms apart; warm: the library may keep
 * a paused QEMU ready (qemu_backend.c), else RVHAL_NO_WARM_QEMU=1. */
static void bench_create_case(int n, int gap_ms, int warm, const char *label) {
  double *t = malloc(sizeof *t * (size_t)n);
  setenv("RVHAL_NO_WARM_QEMU", warm ? "0" : "1", 1);
  for (int i = 0; i < n; i++) {
    rvhal_device_options_t o = {.num_harts = harts};
    rvhal_device_t *d;
    double a = bench_now_us();
    BENCH_CHECK(rvhal_device_create(bench_device, &o, &d));
    t[i] = bench_now_us() - a;
    rvhal_device_delete(d);
    if (gap_ms) usleep((useconds_t)gap_ms * 1000);
  }
  bench_stats_t s = bench_stats(t, (size_t)n);
  printf("create  device_create (%u harts, firmware ready), %-34s p50 %6.1f ms  p10 %6.1f  p99 %6.1f  max %6.1f  "
         "(%d runs)\n", harts, label, s.median / 1e3, s.p10 / 1e3, s.p99 / 1e3, s.max / 1e3, n);
  free(t);
}

/* `rvhal-bench --create-once`: one device_create in this fresh process,
 * its wall time in microseconds on stdout. */
static int create_once(void) {
  rvhal_device_options_t o = {.num_harts = harts};
  rvhal_device_t *d;
  double a = bench_now_us();
  BENCH_CHECK(rvhal_device_create(bench_device, &o, &d));
  double t = bench_now_us() - a;
  rvhal_device_delete(d);
  printf("%.1f\n", t);
  return 0;
}

/* A program's first create: this program again (/proc/self/exe
 * --create-once), n times, one after the other. */
static void bench_create_fresh(int n) {
  double *t = malloc(sizeof *t * (size_t)n);
  char harts_arg[16], dev_arg[16];
  snprintf(harts_arg, sizeof harts_arg, "%u", harts);
  snprintf(dev_arg, sizeof dev_arg, "%u", bench_device);
  int got = 0;
  for (int i = 0; i < n; i++) {
    int fds[2];
    if (pipe(fds) != 0) break;
    pid_t pid = fork();
    if (pid == 0) {
      dup2(fds[1], 1);
      close(fds[0]);
      execl("/proc/self/exe", "rvhal-bench", "-n", harts_arg, "-d", dev_arg, "--create-once", (char *)NULL);
      _exit(127);
    }
    close(fds[1]);
    char buf[64] = {0};
    ssize_t len = pid > 0 ? read(fds[0], buf, sizeof buf - 1) : -1;
    close(fds[0]);
    int status = 0;
    if (pid > 0) waitpid(pid, &status, 0);
    if (len > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) t[got++] = atof(buf);
  }
  if (got) {
    bench_stats_t s = bench_stats(t, (size_t)got);
    printf("create  device_create (%u harts, firmware ready), %-34s p50 %6.1f ms  p10 %6.1f  p99 %6.1f  max %6.1f  "
           "(%d runs)\n", harts, "first in a fresh process:", s.median / 1e3, s.p10 / 1e3, s.p99 / 1e3, s.max / 1e3,
           got);
  } else {
    printf("create  first in a fresh process: could not run /proc/self/exe --create-once\n");
  }
  free(t);
}

static void bench_create(void) {
  int n = runs < 100 ? runs : 100;
  const char *env = getenv("RVHAL_NO_WARM_QEMU");
  char *saved = env ? strdup(env) : NULL;
  bench_create_fresh(n < 30 ? n : 30);
  bench_create_case(n, 0, 0, "cold (RVHAL_NO_WARM_QEMU=1):");
  bench_create_case(n, 0, 1, "warm QEMU, back to back:");
  bench_create_case(n < 30 ? n : 30, 100, 1, "warm QEMU, 100 ms apart:");
  if (saved) setenv("RVHAL_NO_WARM_QEMU", saved, 1);
  else unsetenv("RVHAL_NO_WARM_QEMU");
  free(saved);
}

static void bench_transfer(void) {
  rvhal_device_options_t o = {.num_harts = 1};
  rvhal_device_t *d;
  BENCH_CHECK(rvhal_device_create(bench_device, &o, &d));
  static const size_t sizes[] = {4096, 1 << 20, 64 << 20};
  int n = runs < 100 ? runs : 100;
  /* Through a debug link (a board, Spike via OpenOCD: KB/s), 4 KiB and
   * few samples. */
  const uint64_t link = rvhal_device_get_info(d)->link_bytes_per_s;
  if (link) {
    n = n < 5 ? n : 5;
    printf("transfer through a debug link of %llu bytes/s (measured as the device started)\n", (unsigned long long)link);
    fflush(stdout);
  }
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    size_t size = sizes[si];
    if (link && size > 4096) break;
    /* page-aligned host buffers, like the device buffer: no 4K-aliasing artefacts */
    uint8_t *src = aligned_alloc(4096, size), *dst = aligned_alloc(4096, size);
    memset(src, 0x5a, size);
    memset(dst, 0, size);
    hal_addr_t dev;
    BENCH_CHECK(rvhal_mem_alloc(d, size, 0, &dev));
    double *tw = malloc(sizeof(double) * (size_t)n), *tr = malloc(sizeof(double) * (size_t)n),
           *tm = malloc(sizeof(double) * (size_t)n);
    /* warm: first touch of guest RAM pages and of the host buffers */
    BENCH_CHECK(rvhal_mem_write(d, dev, src, size));
    BENCH_CHECK(rvhal_mem_read(d, dst, dev, size));
    memcpy(dst, src, size);
    /* Small copies are repeated within a sample so the clock's own cost
     * does not dominate. */
    int reps = size >= (1 << 20) || link ? 1 : (int)((1 << 20) / size);
    for (int i = 0; i < n; i++) {
      double a = bench_now_us();
      for (int r = 0; r < reps; r++) BENCH_CHECK(rvhal_mem_write(d, dev, src, size));
      double b = bench_now_us();
      for (int r = 0; r < reps; r++) BENCH_CHECK(rvhal_mem_read(d, dst, dev, size));
      double c = bench_now_us();
      for (int r = 0; r < reps; r++) {
        memcpy(dst, src, size);
        __asm__ volatile("" ::"r"(dst) : "memory");
      }
      double e = bench_now_us();
      tw[i] = (b - a) / reps;
      tr[i] = (c - b) / reps;
      tm[i] = (e - c) / reps;
    }
    double mw = bench_stats(tw, (size_t)n).median, mr = bench_stats(tr, (size_t)n).median,
           mm = bench_stats(tm, (size_t)n).median;
    double mib = (double)size / (1 << 20);
    if (link) /* KiB/s: a debug link moves a few; a write lands in the host's mirror, the link carries it later */
      printf("transfer %8zu bytes  mem_write %8.1f KiB/s  mem_read %8.1f KiB/s  (medians of %d, through the link)\n",
             size, 1024 * mib / (mw / 1e6), 1024 * mib / (mr / 1e6), n);
    else
      printf("transfer %8zu bytes  mem_write %8.0f MiB/s (%3.0f%% of memcpy)  mem_read %8.0f MiB/s (%3.0f%%)  "
             "memcpy %8.0f MiB/s  (medians of %d)\n",
             size, mib / (mw / 1e6), 100 * mm / mw, mib / (mr / 1e6), 100 * mm / mr, mib / (mm / 1e6), n);
    fflush(stdout);
    BENCH_CHECK(rvhal_mem_free(d, dev));
    free(src);
    free(dst);
    free(tw);
    free(tr);
    free(tm);
  }
  rvhal_device_delete(d);
}

/* What the figures were taken on: they mean little without it. */
static void print_host(void) {
  char model[256] = "unknown";
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (colon && (!strncmp(line, "model name", 10) || !strncmp(line, "uarch", 5))) {
      colon += 1 + strspn(colon + 1, " \t");
      colon[strcspn(colon, "\n")] = '\0';
      snprintf(model, sizeof model, "%s", colon);
      break;
    }
  }
  if (f) fclose(f);
  cpu_set_t set;
  int usable = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : -1;
  double load[3] = {-1, -1, -1};
  if (getloadavg(load, 3) != 3) load[0] = load[1] = load[2] = -1;
  printf("host    %s; %ld cores online, %d usable; load average %.2f %.2f %.2f (1/5/15 min)%s\n", model,
         sysconf(_SC_NPROCESSORS_ONLN), usable, load[0], load[1], load[2],
         load[0] >= 0.5 * (double)sysconf(_SC_NPROCESSORS_ONLN) ? ": loaded, wall times are noisy; prefer CPU times and instruction counts" : "");
  fflush(stdout);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: rvhal-bench [options] [launch] [create] [transfer] [overhead] [vadd] [teams] [queue] [counters]\n"
          "                   [peers] [gdb] [opencl] [icd] [rvv] [compile]\n"
          "Prints rvhal's performance figures (all sections but peers by default).\n\n"
          "  -r, --runs N       repetitions per figure (default 1000; create and transfer use at most 100,\n"
          "                     vadd, counters, peers and compile at most 5, teams at most 7)\n"
          "  -l, --launches N   empty launches the launch figures take (default 10000)\n"
          "  -n, --harts N      harts of the device (default 4)\n"
          "  -d, --device D     device index or name (default 0; see `rvhal info`); its kernel set unless -k\n"
          "  -k, --kernel-dir D where the test kernels are (default: the build tree)\n"
          "  -h, --help         this help\n");
}

/* A count option's value: a positive decimal number, else exit 2 naming it
 * (atoi took "two" as 0 and a device name as device 0). */
static int count_arg(const char *opt, const char *v) {
  char *end;
  errno = 0;
  const long n = strtol(v, &end, 10);
  if (errno || end == v || *end || n < 1 || n > INT_MAX) {
    fprintf(stderr, "rvhal-bench: %s '%s': expected a whole number of at least 1\n", opt, v);
    exit(2);
  }
  return (int)n;
}

int main(int argc, char **argv) {
  kernel_dir = getenv("RVHAL_KERNEL_DIR");
  static const struct option opts[] = {
      {"runs", 1, 0, 'r'},       {"launches", 1, 0, 'l'}, {"harts", 1, 0, 'n'}, {"device", 1, 0, 'd'},
      {"kernel-dir", 1, 0, 'k'}, {"help", 0, 0, 'h'},     {"create-once", 0, 0, 'C'}, {0, 0, 0, 0}};
  int once = 0;
  int c;
  while ((c = getopt_long(argc, argv, "r:l:n:d:k:h", opts, NULL)) != -1) {
    switch (c) {
    case 'r': runs = count_arg("--runs", optarg); break;
    case 'l': launches = count_arg("--launches", optarg); break;
    case 'n': harts = (uint32_t)count_arg("--harts", optarg); break;
    case 'd':
      if (rvhal_platform_find_device(optarg, &bench_device)) { /* an index or a name, as rvhal -d */
        fprintf(stderr, "rvhal-bench: --device %s: %s\n", optarg, rvhal_last_error());
        return 2;
      }
      break;
    case 'k': kernel_dir = optarg; break;
    case 'h': usage(stdout); return 0;
    case 'C': once = 1; break; /* bench_create_fresh's child */
    default: usage(stderr); return 2;
    }
  }
  if (runs < 1 || launches < 1) {
    fprintf(stderr, "rvhal-bench: --runs and --launches must be at least 1\n");
    return 2;
  }
  static char set_dir[1024];
  if (!kernel_dir || !*kernel_dir) { /* the build's kernels of the device's kernel set (XLEN, float ABI) */
    const rvhal_device_info_t *di;
    const char *set = rvhal_platform_device_info(bench_device, &di) ? NULL : rvhal_kernel_set_name(di->kernel_abi);
    if (!set) {
      fprintf(stderr, "rvhal-bench: device %u: %s\n", bench_device, *rvhal_last_error() ? rvhal_last_error() : "no kernel set");
      return 2;
    }
    snprintf(set_dir, sizeof set_dir, "%s/device-%s/kernels", RVHAL_BENCH_BUILD_DIR, set);
    kernel_dir = set_dir;
  }
  if (once) return create_once();
  print_host();
  static const char *const sections[] = {"launch", "create",   "transfer", "overhead", "vadd",
                                         "teams",  "queue",    "counters", "peers",    "gdb", "opencl",
                                         "icd",    "rvv",      "compile"};
  const size_t nsections = sizeof sections / sizeof *sections;
  for (int i = optind; i < argc; i++) {
    size_t k = 0;
    while (k < nsections && strcmp(argv[i], sections[k])) k++;
    if (k == nsections) {
      fprintf(stderr, "rvhal-bench: unknown section '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  for (size_t k = 0; k < nsections; k++) {
    int want = optind == argc && strcmp(sections[k], "peers") && strcmp(sections[k], "rvv"); /* peers takes minutes,
                                                             rvv needs clang-16's kernels: only when asked */
    for (int i = optind; i < argc; i++) want |= !strcmp(argv[i], sections[k]);
    if (!want) continue;
    switch (k) {
    case 0:
      bench_launch(0, "hart 0 lingering (default)");
      bench_launch(RVHAL_LINGER_OFF, "doorbell every launch");
      break;
    case 1: bench_create(); break;
    case 2: bench_transfer(); break;
    case 3: bench_overhead(kernel_dir); break;
    case 4: bench_vadd(kernel_dir, runs); break;
    case 5: bench_teams(kernel_dir, runs); break;
    case 6: bench_queue(kernel_dir, runs); break;
    case 7: bench_counters(kernel_dir, runs); break;
    case 8: {
      const char *cl = getenv("RVHAL_BENCH_PEERS_CL_DIR");
      bench_peers(kernel_dir, cl && *cl ? cl : RVHAL_BENCH_PEERS_CL_DIR, runs);
      break;
    }
    case 9: bench_gdb(kernel_dir, runs); break;
    case 10: {
      const char *cl = getenv("RVHAL_BENCH_OPENCL_ELF");
      bench_opencl(kernel_dir, cl && *cl ? cl : RVHAL_BENCH_OPENCL_ELF, runs);
      break;
    }
    case 11:
#ifdef RVHAL_BENCH_HAVE_ICD
      bench_icd(kernel_dir, launches, harts);
#else
      printf("icd     not built: the OpenCL platform needs opencl-c-headers and ocl-icd-opencl-dev\n");
#endif
      break;
    case 12: bench_rvv(kernel_dir, runs); break;
    case 13: bench_compile(RVHAL_BENCH_SOURCE_DIR, runs); break;
    }
    fflush(stdout);
  }
  return 0;
}

/* The peers of `rvhal-bench peers`: the four example kernels as an ordinary
 * pthreads program, work-item for work-item the code of examples/<k>/kernel.c
 * over the same ND-range (peer_kernels.h), each thread taking a contiguous
 * share of the work-groups. Built natively and, with riscv64-linux-gnu-gcc,
 * as a static RISC-V Linux program that qemu-riscv64 (QEMU user mode: the
 * same TCG, no system MMU) runs.
 *
 *   rvhal-peer KERNEL THREADS RUNS
 *
 * prints "KERNEL THREADS MEDIAN_MS MEDIAN_CPU_MS CHECKSUM": wall time and
 * the process's CPU time (threads created and joined inside the timed
 * region, inputs prepared outside it). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "peer_kernels.h"

static struct {
  uint32_t *a, *b, *c; /* vector_add */
  float *fa, *fb, *fc; /* matmul: A, B, C; blur: in = fa, out = fc */
  uint8_t *data;       /* histogram */
  uint32_t hist[PEER_HIST_BINS];
} buf;

static const peer_kernel_t *kern;
static unsigned nthreads;

static void *thread_main(void *arg) {
  const uint64_t t = (uintptr_t)arg, groups = peer_groups(kern);
  const peer_bufs_t b = {buf.a, buf.b, buf.c, buf.fa, buf.fb, buf.fc, buf.data, buf.hist, peer_size((int)(kern - peer_kernels))};
  peer_run_groups(kern, &b, groups * t / nthreads, groups * (t + 1) / nthreads);
  return NULL;
}

static double now_ms(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: rvhal-peer vector_add|matmul|blur|histogram THREADS RUNS\n");
    return 2;
  }
  for (int k = 0; k < PEER_NUM_KERNELS; k++)
    if (!strcmp(argv[1], peer_kernels[k].name))
      kern = &peer_kernels[k];
  nthreads = (unsigned)atoi(argv[2]);
  int runs = atoi(argv[3]);
  if (!kern || nthreads < 1 || nthreads > 64 || runs < 1 || runs > 1000) {
    fprintf(stderr, "rvhal-peer: bad arguments\n");
    return 2;
  }
  const void *out = NULL;
  size_t out_size = 0;
  switch ((int)(kern - peer_kernels)) {
  case PEER_VADD:
    buf.a = malloc(PEER_VADD_N * 4u);
    buf.b = malloc(PEER_VADD_N * 4u);
    buf.c = calloc(PEER_VADD_N, 4u);
    if (!buf.a || !buf.b || !buf.c)
      return 1;
    peer_init_vadd(buf.a, buf.b);
    out = buf.c, out_size = PEER_VADD_N * 4u;
    break;
  case PEER_MATMUL:
    buf.fa = malloc(PEER_MM_N * PEER_MM_N * 4u);
    buf.fb = malloc(PEER_MM_N * PEER_MM_N * 4u);
    buf.fc = calloc(PEER_MM_N * PEER_MM_N, 4u);
    if (!buf.fa || !buf.fb || !buf.fc)
      return 1;
    peer_init_floats(buf.fa, PEER_MM_N * PEER_MM_N, 1);
    peer_init_floats(buf.fb, PEER_MM_N * PEER_MM_N, 2);
    out = buf.fc, out_size = PEER_MM_N * PEER_MM_N * 4u;
    break;
  case PEER_BLUR:
    buf.fa = malloc(PEER_BLUR_N * PEER_BLUR_N * 4u);
    buf.fc = calloc(PEER_BLUR_N * PEER_BLUR_N, 4u);
    if (!buf.fa || !buf.fc)
      return 1;
    peer_init_floats(buf.fa, PEER_BLUR_N * PEER_BLUR_N, 3);
    out = buf.fc, out_size = PEER_BLUR_N * PEER_BLUR_N * 4u;
    break;
  case PEER_HIST:
    buf.data = malloc(PEER_HIST_BYTES);
    if (!buf.data)
      return 1;
    peer_init_hist(buf.data);
    out = buf.hist, out_size = sizeof buf.hist;
    break;
  }
  double *t = calloc((size_t)runs, sizeof *t), *cpu = calloc((size_t)runs, sizeof *cpu);
  pthread_t th[64];
  for (int r = -1; r < runs; r++) { /* r = -1: warm up (first touch, translation) */
    memset(buf.hist, 0, sizeof buf.hist);
    double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
    for (unsigned i = 0; i < nthreads; i++)
      if (pthread_create(&th[i], NULL, thread_main, (void *)(uintptr_t)i))
        return 1;
    for (unsigned i = 0; i < nthreads; i++)
      pthread_join(th[i], NULL);
    if (r >= 0) {
      t[r] = now_ms(CLOCK_MONOTONIC) - t0;
      cpu[r] = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    }
  }
  qsort(t, (size_t)runs, sizeof *t, cmp_double);
  qsort(cpu, (size_t)runs, sizeof *cpu, cmp_double);
  printf("%s %u %.3f %.3f %016llx\n", kern->name, nthreads, t[runs / 2], cpu[runs / 2],
         (unsigned long long)peer_checksum(out, out_size));
  free(t);
  free(cpu);
  return 0;
}

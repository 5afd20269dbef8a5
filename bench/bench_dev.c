/* A device with one program loaded, for the benchmark sections (bench.h). */
#include <stdio.h>

#include "bench.h"
#include "bench_util.h"

uint32_t bench_device;

bench_dev_t bench_open(const char *kernel_dir, const char *program, const rvhal_device_options_t *o) {
  bench_dev_t b;
  BENCH_CHECK(rvhal_device_create(bench_device, o, &b.d));
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.elf", kernel_dir, program);
  BENCH_CHECK(rvhal_program_load_file(b.d, path, &b.p));
  return b;
}

hal_kernel_t bench_kernel(bench_dev_t *b, const char *name) {
  hal_kernel_t k;
  BENCH_CHECK(rvhal_program_find_kernel(b->d, b->p, name, &k));
  return k;
}

double *bench_time_launches(bench_dev_t *b, hal_kernel_t k, int n) {
  const hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  return bench_time_launches_ex(b, k, &nd, NULL, n);
}

double *bench_time_launches_ex(bench_dev_t *b, hal_kernel_t k, const hal_ndrange_t *nd,
                               const rvhal_launch_options_t *o, int n) {
  for (int i = 0; i < 20; i++) BENCH_CHECK(rvhal_kernel_exec_ex(b->d, b->p, k, nd, NULL, 0, 1, o)); /* warm up */
  double *t = malloc(sizeof *t * (size_t)n);
  if (!t) {
    fprintf(stderr, "rvhal-bench: out of memory\n");
    exit(1);
  }
  for (int i = 0; i < n; i++) {
    double a = bench_now_us();
    BENCH_CHECK(rvhal_kernel_exec_ex(b->d, b->p, k, nd, NULL, 0, 1, o));
    t[i] = bench_now_us() - a;
  }
  return t;
}

void bench_close(bench_dev_t *b) {
  rvhal_program_free(b->d, b->p);
  rvhal_device_delete(b->d);
}

/* A device with one program loaded, for the benchmark sections (bench.h). */
#include <stdio.h>

#include "bench.h"

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

void bench_close(bench_dev_t *b) {
  rvhal_program_free(b->d, b->p);
  rvhal_device_delete(b->d);
}

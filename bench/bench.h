/* rvhal-bench sections. */
#ifndef RVHAL_BENCH_H
#define RVHAL_BENCH_H

#include <stdio.h>
#include <stdlib.h>

#include "rvhal/rvhal.h"

#define BENCH_CHECK(expr)                                                                           \
  do {                                                                                              \
    int rc_ = (expr);                                                                               \
    if (rc_ < 0) {                                                                                  \
      fprintf(stderr, "rvhal-bench: %s: %s: %s\n", #expr, rvhal_status_name(rc_), rvhal_last_error()); \
      exit(1);                                                                                      \
    }                                                                                               \
  } while (0)

/* A device with one program loaded (bench_dev.c); any failure exits. */
typedef struct bench_dev {
  rvhal_device_t *d;
  hal_program_t p;
} bench_dev_t;

/* The device index every section uses (-d; default 0, qemu-virt RV64). */
extern uint32_t bench_device;
/* Creates device bench_device with `o` and loads <kernel_dir>/<program>.elf. */
bench_dev_t bench_open(const char *kernel_dir, const char *program, const rvhal_device_options_t *o);
hal_kernel_t bench_kernel(bench_dev_t *b, const char *name);
/* The round trip of n blocking launches of kernel k (one item), in µs, after
 * 20 unmeasured ones: a malloc'd array, in launch order. */
double *bench_time_launches(bench_dev_t *b, hal_kernel_t k, int n);
/* The same over ND-range nd (1-D) with launch options o (NULL: defaults). */
double *bench_time_launches_ex(bench_dev_t *b, hal_kernel_t k, const hal_ndrange_t *nd,
                               const rvhal_launch_options_t *o, int n);
/* Frees the program and deletes the device. */
void bench_close(bench_dev_t *b);

/* Sections; vadd and teams cap `runs` at what they can afford. */
void bench_overhead(const char *kernel_dir);
void bench_vadd(const char *kernel_dir, int runs);
void bench_teams(const char *kernel_dir, int runs);
void bench_queue(const char *kernel_dir, int runs);
void bench_rvv(const char *kernel_dir, int runs); /* bench_rvv.c: RVV against scalar */
/* peers: cl_dir holds the OpenCL C forms of its kernels (peers/opencl/NAME.cl
 * as peers_cl_NAME.elf), or NULL */
void bench_peers(const char *kernel_dir, const char *cl_dir, int runs);
void bench_counters(const char *kernel_dir, int runs);
void bench_gdb(const char *kernel_dir, int runs);
/* OpenCL C beside the C SDK; cl_elf: bench_opencl.cl built by rvhal cc. */
void bench_opencl(const char *kernel_dir, const char *cl_elf, int runs);

/* OpenCL C builds (rvhal_opencl_compile); src_dir: bench/'s sources. */
void bench_compile(const char *src_dir, int runs);

/* The OpenCL platform against the C API (bench_icd.c). */
void bench_icd(const char *kernel_dir, int launches, uint32_t harts);
#endif /* RVHAL_BENCH_H */

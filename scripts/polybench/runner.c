/* Runs one PolyBench/GPU OpenCL benchmark's kernels on rvhal and checks
 * them against the host: the same .cl file, unchanged, is compiled here as C
 * (shim.h) and run serially over the same ND-ranges as the host reference.
 * After every launch all the benchmark's buffers are compared (PolyBench's
 * own rule: a relative difference over 1.05 % is a mismatch, values both
 * under 0.01 in magnitude match), then the device's copies are reset to the
 * host's, so each kernel is judged on its own. The launch sequences and
 * ND-ranges are PolyBench's host programs' (OpenCL/<bench>/<bench>.c), on
 * small sizes. Built and run by scripts/polybench.sh:
 *
 *   cc -DPB_BENCH_<NAME> -DPB_CL_FILE='"x.cl"' runner.c -lrvhal -lm
 *   runner BENCH KERNEL.elf [DEVICE]   prints "| bench | kernel | yes | yes | yes |" rows
 */
#include "shim.h"
/* The benchmark's kernels, as host functions. */
#include PB_CL_FILE

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rvhal/rvhal.h>

#define PB_MAX_BUFS 10
#define PB_MAX_KERNELS 8

typedef enum { PB_ARG_BUF, PB_ARG_INT, PB_ARG_FLT } pb_arg_kind_t;
typedef struct pb_arg {
  pb_arg_kind_t kind;
  int buf;
  int i;
  float f;
} pb_arg_t;

typedef struct pb_row {
  const char *kernel;
  int launches, ran, matched;
  double max_diff; /* percent */
} pb_row_t;

typedef struct pb {
  rvhal_device_t *d;
  hal_program_t p;
  int nbuf;
  float *host[PB_MAX_BUFS];
  float *back[PB_MAX_BUFS]; /* the device's copy, read back */
  hal_addr_t dev[PB_MAX_BUFS];
  size_t count[PB_MAX_BUFS];
  pb_row_t rows[PB_MAX_KERNELS];
  int nrows;
} pb_t;

static pb_row_t *row(pb_t *pb, const char *k) {
  for (int i = 0; i < pb->nrows; i++)
    if (!strcmp(pb->rows[i].kernel, k)) return &pb->rows[i];
  if (pb->nrows == PB_MAX_KERNELS) {
    fprintf(stderr, "polybench: too many kernels\n");
    exit(1);
  }
  pb_row_t *r = &pb->rows[pb->nrows++];
  *r = (pb_row_t){k, 0, 1, 1, 0.0};
  return r;
}

/* A deterministic value in [lo, lo+1). */
static float pb_value(uint32_t *s, float lo) {
  *s = *s * 1664525u + 1013904223u;
  return lo + (float)(*s >> 8) / 16777216.0f;
}

static int pb_buffer(pb_t *pb, size_t count, float lo) {
  int b = pb->nbuf++;
  static uint32_t seed = 12345;
  pb->count[b] = count;
  pb->host[b] = malloc(count * sizeof(float));
  pb->back[b] = malloc(count * sizeof(float));
  for (size_t i = 0; i < count; i++) pb->host[b][i] = lo == 0.0f ? 0.0f : pb_value(&seed, lo);
  if (rvhal_mem_alloc(pb->d, count * sizeof(float), 0, &pb->dev[b]) ||
      rvhal_mem_write(pb->d, pb->dev[b], pb->host[b], count * sizeof(float))) {
    fprintf(stderr, "polybench: buffer of %zu floats: %s\n", count, rvhal_last_error());
    exit(1);
  }
  return b;
}

static int pb_device_launch(pb_t *pb, const char *k, size_t gx, size_t gy, size_t lx, size_t ly, const pb_arg_t *a,
                            int n) {
  pb_row_t *r = row(pb, k);
  r->launches++;
  hal_kernel_t kern;
  hal_arg_t args[16];
  for (int i = 0; i < n; i++)
    args[i] = a[i].kind == PB_ARG_BUF   ? rvhal_arg_global(pb->dev[a[i].buf])
              : a[i].kind == PB_ARG_INT ? rvhal_arg_value(&a[i].i, sizeof a[i].i)
                                        : rvhal_arg_value(&a[i].f, sizeof a[i].f);
  hal_ndrange_t nd = {{0, 0, 0}, {gx, gy, 1}, {lx, ly, 1}};
  int rc = rvhal_program_find_kernel(pb->d, pb->p, k, &kern);
  if (!rc) rc = rvhal_kernel_exec(pb->d, pb->p, kern, &nd, args, (uint32_t)n, gy > 1 || ly > 1 ? 2 : 1);
  if (rc) {
    fprintf(stderr, "polybench: %s: %s\n", k, rvhal_last_error());
    r->ran = 0;
  }
  return rc == 0;
}

/* PolyBench's percentDiff (common/polybenchUtilFuncts.h). */
static double pb_percent_diff(double a, double b) {
  if (fabs(a) < 0.01 && fabs(b) < 0.01) return 0.0;
  double d = fabs(fabs(a - b) / (fabs(a) + 1e-10)) * 100.0;
  return d != d ? 1e9 : d; /* NaN on one side: a mismatch */
}

static void pb_compare(pb_t *pb, const char *k) {
  pb_row_t *r = row(pb, k);
  for (int b = 0; b < pb->nbuf; b++) {
    size_t bytes = pb->count[b] * sizeof(float);
    if (rvhal_mem_read(pb->d, pb->back[b], pb->dev[b], bytes)) {
      r->matched = 0;
      continue;
    }
    for (size_t i = 0; i < pb->count[b]; i++) {
      double d = pb_percent_diff(pb->host[b][i], pb->back[b][i]);
      if (d > r->max_diff) r->max_diff = d;
      if (d > 1.05) {
        if (r->matched) fprintf(stderr, "polybench: %s: buffer %d [%zu] = %g on rvhal, %g on the host\n", k, b, i,
                                (double)pb->back[b][i], (double)pb->host[b][i]);
        r->matched = 0;
      }
    }
    /* the next kernel starts from the host's values */
    if (rvhal_mem_write(pb->d, pb->dev[b], pb->host[b], bytes)) r->matched = 0;
  }
}

/* ---- launch steps: each argument is (B, buffer), (I, int) or (F, float) ---- */
#define PB_RV_B(x) {PB_ARG_BUF, (x), 0, 0.0f}
#define PB_RV_I(x) {PB_ARG_INT, 0, (int)(x), 0.0f}
#define PB_RV_F(x) {PB_ARG_FLT, 0, 0, (float)(x)}
#define PB_NAT_B(x) (pb->host[x])
#define PB_NAT_I(x) ((int)(x))
#define PB_NAT_F(x) ((float)(x))
#define PB_RV_ARG(t) PB_RV_ARG_I t
#define PB_RV_ARG_I(kind, v) PB_RV_##kind(v)
#define PB_NAT_ARG(t) PB_NAT_ARG_I t
#define PB_NAT_ARG_I(kind, v) PB_NAT_##kind(v)
#define PB_N_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, n, ...) n
#define PB_NARGS(...) PB_N_(__VA_ARGS__, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define PB_CAT(a, b) PB_CAT_I(a, b)
#define PB_CAT_I(a, b) a##b
#define PB_MAP(m, ...) PB_CAT(PB_MAP_, PB_NARGS(__VA_ARGS__))(m, __VA_ARGS__)
#define PB_MAP_1(m, x) m(x)
#define PB_MAP_2(m, x, ...) m(x), PB_MAP_1(m, __VA_ARGS__)
#define PB_MAP_3(m, x, ...) m(x), PB_MAP_2(m, __VA_ARGS__)
#define PB_MAP_4(m, x, ...) m(x), PB_MAP_3(m, __VA_ARGS__)
#define PB_MAP_5(m, x, ...) m(x), PB_MAP_4(m, __VA_ARGS__)
#define PB_MAP_6(m, x, ...) m(x), PB_MAP_5(m, __VA_ARGS__)
#define PB_MAP_7(m, x, ...) m(x), PB_MAP_6(m, __VA_ARGS__)
#define PB_MAP_8(m, x, ...) m(x), PB_MAP_7(m, __VA_ARGS__)
#define PB_MAP_9(m, x, ...) m(x), PB_MAP_8(m, __VA_ARGS__)
#define PB_MAP_10(m, x, ...) m(x), PB_MAP_9(m, __VA_ARGS__)

/* One launch of kernel k over gx x gy in groups of lx x ly: on rvhal, then
 * on the host item by item, then every buffer compared. */
#define PB_LAUNCH(k, gx, gy, lx, ly, ...)                                                   \
  do {                                                                                      \
    const pb_arg_t a_[] = {PB_MAP(PB_RV_ARG, __VA_ARGS__)};                                 \
    pb_device_launch(pb, #k, (gx), (gy), (lx), (ly), a_, (int)(sizeof a_ / sizeof *a_));    \
    for (size_t y_ = 0; y_ < (size_t)(gy); y_++)                                            \
      for (size_t x_ = 0; x_ < (size_t)(gx); x_++) {                                        \
        pb_gid[0] = x_;                                                                     \
        pb_gid[1] = y_;                                                                     \
        k(PB_MAP(PB_NAT_ARG, __VA_ARGS__));                                                 \
      }                                                                                     \
    pb_compare(pb, #k);                                                                     \
  } while (0)

/* PolyBench's global sizes: n rounded up to a multiple of the local size. */
#define RUP(n, l) ((size_t)(((n) + (l)-1) / (l)) * (l))

#ifndef PB_N
#define PB_N 64
#endif

static void plan(pb_t *pb) {
  const int n = PB_N;
  const size_t nn = (size_t)n * n;
#if defined(PB_BENCH_2DCONV)
  int A = pb_buffer(pb, nn, 0.5f), B = pb_buffer(pb, nn, 0.0f);
  PB_LAUNCH(Convolution2D_kernel, RUP(n, 32), RUP(n, 8), 32, 8, (B, A), (B, B), (I, n), (I, n));
#elif defined(PB_BENCH_2MM)
  int tmp = pb_buffer(pb, nn, 0.0f), A = pb_buffer(pb, nn, 0.5f), B = pb_buffer(pb, nn, 0.5f),
      C = pb_buffer(pb, nn, 0.5f), D = pb_buffer(pb, nn, 0.5f);
  PB_LAUNCH(mm2_kernel1, RUP(n, 32), RUP(n, 8), 32, 8, (B, tmp), (B, A), (B, B), (I, n), (I, n), (I, n), (I, n),
            (F, 1.5f), (F, 1.2f));
  PB_LAUNCH(mm2_kernel2, RUP(n, 32), RUP(n, 8), 32, 8, (B, tmp), (B, C), (B, D), (I, n), (I, n), (I, n), (I, n),
            (F, 1.5f), (F, 1.2f));
#elif defined(PB_BENCH_3DCONV)
  const int m = 32;
  int A = pb_buffer(pb, (size_t)m * m * m, 0.5f), B = pb_buffer(pb, (size_t)m * m * m, 0.0f);
  for (int i = 1; i < m - 1; ++i)
    PB_LAUNCH(Convolution3D_kernel, RUP(m, 32), RUP(m, 8), 32, 8, (B, A), (B, B), (I, m), (I, m), (I, m), (I, i));
  (void)nn;
#elif defined(PB_BENCH_3MM)
  int A = pb_buffer(pb, nn, 0.5f), B = pb_buffer(pb, nn, 0.5f), C = pb_buffer(pb, nn, 0.5f), D = pb_buffer(pb, nn, 0.5f),
      E = pb_buffer(pb, nn, 0.0f), F = pb_buffer(pb, nn, 0.0f), G = pb_buffer(pb, nn, 0.0f);
  PB_LAUNCH(mm3_kernel1, RUP(n, 32), RUP(n, 8), 32, 8, (B, A), (B, B), (B, E), (I, n), (I, n), (I, n));
  PB_LAUNCH(mm3_kernel2, RUP(n, 32), RUP(n, 8), 32, 8, (B, C), (B, D), (B, F), (I, n), (I, n), (I, n));
  PB_LAUNCH(mm3_kernel3, RUP(n, 32), RUP(n, 8), 32, 8, (B, E), (B, F), (B, G), (I, n), (I, n), (I, n));
#elif defined(PB_BENCH_ADI) /* built with -DN=PB_N (the kernels' own size) */
  int A = pb_buffer(pb, nn, 0.5f), B = pb_buffer(pb, nn, 2.0f), X = pb_buffer(pb, nn, 0.5f);
  PB_LAUNCH(adi_kernel1, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (B, X));
  PB_LAUNCH(adi_kernel2, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (B, X));
  PB_LAUNCH(adi_kernel3, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (B, X));
  for (int i1 = 1; i1 < n; i1++) PB_LAUNCH(adi_kernel4, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (B, X), (I, i1));
  PB_LAUNCH(adi_kernel5, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (B, X));
  for (int i1 = 0; i1 < n - 2; i1++) PB_LAUNCH(adi_kernel6, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (B, X), (I, i1));
#elif defined(PB_BENCH_ATAX)
  int A = pb_buffer(pb, nn, 0.5f), x = pb_buffer(pb, n, 0.5f), y = pb_buffer(pb, n, 0.0f), tmp = pb_buffer(pb, n, 0.0f);
  PB_LAUNCH(atax_kernel1, RUP(n, 32), 1, 32, 1, (B, A), (B, x), (B, tmp), (I, n), (I, n));
  PB_LAUNCH(atax_kernel2, RUP(n, 32), 1, 32, 1, (B, A), (B, y), (B, tmp), (I, n), (I, n));
#elif defined(PB_BENCH_BICG)
  int A = pb_buffer(pb, nn, 0.5f), r = pb_buffer(pb, n, 0.5f), s = pb_buffer(pb, n, 0.0f), p = pb_buffer(pb, n, 0.5f),
      q = pb_buffer(pb, n, 0.0f);
  PB_LAUNCH(bicgKernel1, RUP(n, 32), 1, 32, 1, (B, A), (B, p), (B, q), (I, n), (I, n));
  PB_LAUNCH(bicgKernel2, RUP(n, 32), 1, 32, 1, (B, A), (B, r), (B, s), (I, n), (I, n));
#elif defined(PB_BENCH_CORR)
  int data = pb_buffer(pb, nn, 0.5f), mean = pb_buffer(pb, n, 0.0f), std = pb_buffer(pb, n, 0.0f),
      sym = pb_buffer(pb, nn, 0.0f);
  const float float_n = (float)n, eps = 0.005f;
  PB_LAUNCH(mean_kernel, RUP(n, 256), 1, 256, 1, (B, mean), (B, data), (F, float_n), (I, n), (I, n));
  PB_LAUNCH(std_kernel, RUP(n, 256), 1, 256, 1, (B, mean), (B, std), (B, data), (F, float_n), (F, eps), (I, n), (I, n));
  PB_LAUNCH(reduce_kernel, RUP(n, 32), RUP(n, 8), 32, 8, (B, mean), (B, std), (B, data), (F, float_n), (I, n), (I, n));
  PB_LAUNCH(corr_kernel, RUP(n, 256), 1, 256, 1, (B, sym), (B, data), (I, n), (I, n));
#elif defined(PB_BENCH_COVAR)
  int data = pb_buffer(pb, nn, 0.5f), mean = pb_buffer(pb, n, 0.0f), sym = pb_buffer(pb, nn, 0.0f);
  const float float_n = (float)n;
  PB_LAUNCH(mean_kernel, RUP(n, 256), 1, 256, 1, (B, mean), (B, data), (F, float_n), (I, n), (I, n));
  PB_LAUNCH(reduce_kernel, RUP(n, 32), RUP(n, 8), 32, 8, (B, mean), (B, data), (I, n), (I, n));
  PB_LAUNCH(covar_kernel, RUP(n, 256), 1, 256, 1, (B, sym), (B, data), (I, n), (I, n));
#elif defined(PB_BENCH_FDTD_2D)
  const int tmax = 4;
  int fict = pb_buffer(pb, tmax, 0.5f), ex = pb_buffer(pb, nn, 0.5f), ey = pb_buffer(pb, nn, 0.5f),
      hz = pb_buffer(pb, nn, 0.5f);
  for (int t = 0; t < tmax; t++) {
    PB_LAUNCH(fdtd_kernel1, RUP(n, 32), RUP(n, 8), 32, 8, (B, fict), (B, ex), (B, ey), (B, hz), (I, t), (I, n), (I, n));
    PB_LAUNCH(fdtd_kernel2, RUP(n, 32), RUP(n, 8), 32, 8, (B, ex), (B, ey), (B, hz), (I, n), (I, n));
    PB_LAUNCH(fdtd_kernel3, RUP(n, 32), RUP(n, 8), 32, 8, (B, ex), (B, ey), (B, hz), (I, n), (I, n));
  }
#elif defined(PB_BENCH_GEMM)
  int a = pb_buffer(pb, nn, 0.5f), b = pb_buffer(pb, nn, 0.5f), c = pb_buffer(pb, nn, 0.5f);
  PB_LAUNCH(gemm, RUP(n, 32), RUP(n, 8), 32, 8, (B, a), (B, b), (B, c), (F, 1.5f), (F, 1.2f), (I, n), (I, n), (I, n));
#elif defined(PB_BENCH_GEMVER)
  int A = pb_buffer(pb, nn, 0.5f), V1 = pb_buffer(pb, n, 0.5f), V2 = pb_buffer(pb, n, 0.5f), U1 = pb_buffer(pb, n, 0.5f),
      U2 = pb_buffer(pb, n, 0.5f), X = pb_buffer(pb, n, 0.0f), Y = pb_buffer(pb, n, 0.5f), Z = pb_buffer(pb, n, 0.5f),
      W = pb_buffer(pb, n, 0.0f);
  PB_LAUNCH(gemver_kernel1, RUP(n, 32), RUP(n, 8), 32, 8, (B, A), (B, V1), (B, V2), (B, U1), (B, U2), (I, n));
  PB_LAUNCH(gemver_kernel2, RUP(n, 256), 1, 256, 1, (B, A), (B, X), (B, Y), (B, Z), (F, 1.2f), (I, n));
  PB_LAUNCH(gemver_kernel3, RUP(n, 256), 1, 256, 1, (B, A), (B, X), (B, W), (F, 1.5f), (I, n));
#elif defined(PB_BENCH_GESUMMV)
  int a = pb_buffer(pb, nn, 0.5f), b = pb_buffer(pb, nn, 0.5f), x = pb_buffer(pb, n, 0.5f), y = pb_buffer(pb, n, 0.0f),
      tmp = pb_buffer(pb, n, 0.0f);
  PB_LAUNCH(gesummv_kernel, RUP(n, 256), 1, 256, 1, (B, a), (B, b), (B, x), (B, y), (B, tmp), (F, 1.5f), (F, 1.2f),
            (I, n));
#elif defined(PB_BENCH_GRAMSCHM)
  int a = pb_buffer(pb, nn, 0.5f), r = pb_buffer(pb, nn, 0.0f), q = pb_buffer(pb, nn, 0.0f);
  for (int k = 0; k < n; k++) {
    PB_LAUNCH(gramschmidt_kernel1, 256, 1, 256, 1, (B, a), (B, r), (B, q), (I, k), (I, n), (I, n));
    PB_LAUNCH(gramschmidt_kernel2, RUP(n, 256), 1, 256, 1, (B, a), (B, r), (B, q), (I, k), (I, n), (I, n));
    if (RUP(n - (k + 1), 256) > 1)
      PB_LAUNCH(gramschmidt_kernel3, RUP(n - (k + 1), 256), 1, 256, 1, (B, a), (B, r), (B, q), (I, k), (I, n), (I, n));
  }
#elif defined(PB_BENCH_JACOBI1D)
  int A = pb_buffer(pb, n, 0.5f), B = pb_buffer(pb, n, 0.5f);
  for (int t = 0; t < 4; t++) {
    PB_LAUNCH(runJacobi1D_kernel1, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (I, n));
    PB_LAUNCH(runJacobi1D_kernel2, RUP(n, 256), 1, 256, 1, (B, A), (B, B), (I, n));
  }
  (void)nn;
#elif defined(PB_BENCH_JACOBI2D)
  int A = pb_buffer(pb, nn, 0.5f), B = pb_buffer(pb, nn, 0.5f);
  for (int t = 0; t < 4; t++) {
    PB_LAUNCH(runJacobi2D_kernel1, RUP(n, 32), RUP(n, 8), 32, 8, (B, A), (B, B), (I, n));
    PB_LAUNCH(runJacobi2D_kernel2, RUP(n, 32), RUP(n, 8), 32, 8, (B, A), (B, B), (I, n));
  }
#elif defined(PB_BENCH_LU)
  int A = pb_buffer(pb, nn, 0.5f);
  for (int i = 0; i < n; i++) pb->host[A][(size_t)i * n + i] += (float)n; /* diagonally dominant: no pivoting needed */
  rvhal_mem_write(pb->d, pb->dev[A], pb->host[A], nn * sizeof(float));
  for (int k = 0; k < n - 1; k++) {
    PB_LAUNCH(lu_kernel1, RUP(n - (k + 1), 256), 1, 256, 1, (B, A), (I, k), (I, n));
    PB_LAUNCH(lu_kernel2, RUP(n - (k + 1), 32), RUP(n - (k + 1), 8), 32, 8, (B, A), (I, k), (I, n));
  }
#elif defined(PB_BENCH_MVT)
  int a = pb_buffer(pb, nn, 0.5f), x1 = pb_buffer(pb, n, 0.5f), x2 = pb_buffer(pb, n, 0.5f), y1 = pb_buffer(pb, n, 0.5f),
      y2 = pb_buffer(pb, n, 0.5f);
  PB_LAUNCH(mvt_kernel1, RUP(n, 256), 1, 256, 1, (B, a), (B, x1), (B, y1), (I, n));
  PB_LAUNCH(mvt_kernel2, RUP(n, 256), 1, 256, 1, (B, a), (B, x2), (B, y2), (I, n));
#elif defined(PB_BENCH_SYR2K)
  int a = pb_buffer(pb, nn, 0.5f), b = pb_buffer(pb, nn, 0.5f), c = pb_buffer(pb, nn, 0.5f);
  PB_LAUNCH(syr2k_kernel, RUP(n, 32), RUP(n, 8), 32, 8, (B, a), (B, b), (B, c), (F, 1.5f), (F, 1.2f), (I, n), (I, n));
#elif defined(PB_BENCH_SYRK)
  int a = pb_buffer(pb, nn, 0.5f), c = pb_buffer(pb, nn, 0.5f);
  PB_LAUNCH(syrk_kernel, RUP(n, 32), RUP(n, 8), 32, 8, (B, a), (B, c), (F, 1.5f), (F, 1.2f), (I, n), (I, n));
#else
#error "define PB_BENCH_<name>"
#endif
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s BENCH KERNEL.elf [DEVICE]\n", argv[0]);
    return 2;
  }
  pb_t pb = {0};
  rvhal_device_options_t o = {.num_harts = 4};
  if (rvhal_device_create(argc > 3 ? (uint32_t)atoi(argv[3]) : 0, &o, &pb.d) || rvhal_program_load_file(pb.d, argv[2], &pb.p)) {
    fprintf(stderr, "polybench: %s: %s\n", argv[2], rvhal_last_error());
    return 1;
  }
  plan(&pb);
  int bad = 0;
  for (int i = 0; i < pb.nrows; i++) {
    const pb_row_t *r = &pb.rows[i];
    printf("| %s | %s | yes | %s | %s (%d launch%s, max difference %.2g %%) |\n", argv[1], r->kernel,
           r->ran ? "yes" : "no", r->matched && r->ran ? "yes" : "no", r->launches, r->launches == 1 ? "" : "es",
           r->max_diff);
    bad |= !(r->ran && r->matched);
  }
  for (int b = 0; b < pb.nbuf; b++) {
    rvhal_mem_free(pb.d, pb.dev[b]);
    free(pb.host[b]);
    free(pb.back[b]);
  }
  rvhal_device_delete(pb.d);
  return bad;
}

/* The four kernels `rvhal-bench peers` compares (bench/peers/README.md):
 * sizes, ND-ranges, input data and the output checksum, shared by the rvhal
 * side (bench_peers.c, which launches the example kernels) and the peer
 * program (peer.c, the same kernels as a pthreads program, built natively
 * and for riscv64-linux-gnu to run under qemu-riscv64) and the bare-metal
 * floor (floor.c, the same loops on rvhal's QEMU machine without rvhal).
 * Header-only, plain C, freestanding.
 */
#ifndef RVHAL_PEER_KERNELS_H
#define RVHAL_PEER_KERNELS_H

#include <stddef.h>
#include <stdint.h>

enum { PEER_VADD, PEER_MATMUL, PEER_BLUR, PEER_HIST, PEER_NUM_KERNELS };

#define PEER_VADD_N (16u << 20) /* u32 elements */
#define PEER_MM_N 256u          /* 256 x 256 floats, C = A x B */
#define PEER_BLUR_N 1024u       /* 1024 x 1024 floats */
#define PEER_HIST_BYTES (16u << 20)
#define PEER_HIST_ITEMS (PEER_HIST_BYTES / 64u) /* 64 bytes per work-item, as examples/histogram */
#define PEER_HIST_BINS 256u

/* One kernel: the example it is (examples/<elf>/kernel.c) and its ND-range. */
typedef struct peer_kernel {
  const char *name, *what, *elf, *entry;
  uint32_t dims;
  uint32_t global[2], local[2];
} peer_kernel_t;

static const peer_kernel_t peer_kernels[PEER_NUM_KERNELS] = {
    {"vector_add", "16M u32", "vector_add", "vector_add_entry", 1, {PEER_VADD_N, 1}, {64, 1}},
    {"matmul", "256x256 f32", "matrix_multiply", "matrix_multiply_entry", 2, {PEER_MM_N, PEER_MM_N}, {8, 8}},
    {"blur", "1024x1024 f32", "blur", "blur_entry", 2, {PEER_BLUR_N, PEER_BLUR_N}, {8, 8}},
    {"histogram", "16 MiB", "histogram", "histogram_entry", 1, {PEER_HIST_ITEMS, 1}, {64, 1}},
};

static inline uint32_t peer_rand(uint32_t *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 1;
}

static inline float peer_randf(uint32_t *s) { return (float)((double)peer_rand(s) / 1073741824.0 - 1.0); }

/* Inputs, the same on every side. */
static inline void peer_init_vadd(uint32_t *a, uint32_t *b) {
  for (uint32_t i = 0; i < PEER_VADD_N; i++) {
    a[i] = i;
    b[i] = 3u * i;
  }
}

static inline void peer_init_floats(float *v, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; i++)
    v[i] = peer_randf(&seed);
}

/* Half the bytes from three hot values, so the atomics contend. */
static inline void peer_init_hist(uint8_t *data) {
  static const uint8_t hot[3] = {0, 7, 255};
  uint32_t seed = 13;
  for (uint32_t i = 0; i < PEER_HIST_BYTES; i++) {
    uint32_t r = peer_rand(&seed);
    data[i] = r & 1 ? hot[(r >> 1) % 3] : (uint8_t)(r >> 23);
  }
}

/* The buffers a kernel works on. */
typedef struct peer_bufs {
  uint32_t *a, *b, *c;  /* vector_add */
  float *fa, *fb, *fc;  /* matmul: A, B, C; blur: in = fa, out = fc */
  const uint8_t *data;  /* histogram */
  uint32_t *hist;       /* PEER_HIST_BINS */
  /* The kernel's size argument (matmul's n, blur's width and height,
   * histogram's byte count), opaque to the compiler as a kernel argument
   * is: a loop over compile-time sizes is another program (blur's clamps
   * compile to one branch a tap against the kernel's two). peer_size(). */
  uint32_t n;
} peer_bufs_t;

/* Kernel k's size argument, hidden from the optimiser (peer_bufs_t.n). */
static inline uint32_t peer_size(int k) {
  uint32_t n = k == PEER_MATMUL ? PEER_MM_N : k == PEER_BLUR ? PEER_BLUR_N : k == PEER_HIST ? PEER_HIST_BYTES : 0;
  __asm__("" : "+r"(n));
  return n;
}

static inline int peer_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The work-items of groups [g0, g1) of kernel k, in the SDK's order (x
 * fastest): the loop of examples/<k>/kernel.c written out, for the
 * pthreads peers (peer.c) and the bare-metal floor (floor.c). */
static inline void peer_run_groups(const peer_kernel_t *k, const peer_bufs_t *buf, uint64_t g0, uint64_t g1) {
  const uint32_t gx = k->global[0] / k->local[0], lx = k->local[0], ly = k->local[1];
  /* In registers, as a kernel's argument and global size: histogram's
   * atomics would make GCC reload them from memory at every byte. */
  const uint32_t n = buf->n, global0 = k->global[0];
  for (uint64_t g = g0; g < g1; g++) {
    const uint32_t x0 = (uint32_t)(g % gx) * lx, y0 = (uint32_t)(g / gx) * ly;
    switch ((int)(k - peer_kernels)) {
    case PEER_VADD:
      for (uint32_t i = x0; i < x0 + lx; i++)
        buf->c[i] = buf->a[i] + buf->b[i];
      break;
    case PEER_MATMUL:
      for (uint32_t row = y0; row < y0 + ly; row++)
        for (uint32_t col = x0; col < x0 + lx; col++) {
          float sum = 0.0f;
          for (uint32_t i = 0; i < n; i++)
            sum += buf->fa[row * n + i] * buf->fb[(size_t)i * n + col];
          buf->fc[row * n + col] = sum;
        }
      break;
    case PEER_BLUR:
      for (int y = (int)y0; y < (int)(y0 + ly); y++)
        for (int x = (int)x0; x < (int)(x0 + lx); x++) {
          const int w = (int)n, h = (int)n;
          float sum = 0.0f;
          for (int dy = -1; dy <= 1; dy++) {
            int yy = peer_clamp(y + dy, 0, h - 1);
            for (int dx = -1; dx <= 1; dx++)
              sum += buf->fa[yy * w + peer_clamp(x + dx, 0, w - 1)];
          }
          buf->fc[y * w + x] = sum / 9.0f;
        }
      break;
    case PEER_HIST: {
      /* The group's local histogram, updated atomically as the kernel does
       * (its work-items share it), then merged with atomic adds; relaxed, as
       * the SDK's atomics are (OpenCL 1.2 atomics order nothing else). */
      uint32_t local[PEER_HIST_BINS];
      for (uint32_t b = 0; b < PEER_HIST_BINS; b++)
        local[b] = 0;
      for (uint32_t item = x0; item < x0 + lx; item++)
        for (uint32_t i = item; i < n; i += global0)
          __atomic_fetch_add(&local[buf->data[i]], 1, __ATOMIC_RELAXED);
      for (uint32_t b = 0; b < PEER_HIST_BINS; b++)
        if (local[b])
          __atomic_fetch_add(&buf->hist[b], local[b], __ATOMIC_RELAXED);
      break;
    }
    }
  }
}

/* Groups of kernel k; thread t of n takes [groups*t/n, groups*(t+1)/n). */
static inline uint64_t peer_groups(const peer_kernel_t *k) {
  return (uint64_t)(k->global[0] / k->local[0]) * (k->global[1] / k->local[1]);
}

/* FNV-1a over the output bytes: RISC-V sides must agree bit for bit. */
static inline uint64_t peer_checksum(const void *p, size_t n) {
  const uint8_t *b = p;
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

#endif /* RVHAL_PEER_KERNELS_H */

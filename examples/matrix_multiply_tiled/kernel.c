/* matrix_multiply_tiled (2-D): C = A x B (A is M x K, B is K x N, row-major)
 * with the classic OpenCL tiling: each work-group computes one TS x TS tile
 * of C; per trip along K it loads one tile of A and one of B into local
 * memory, meets at a barrier, multiplies the tiles, and meets again before
 * the tiles are overwritten. TS is the work-group side (local size 0 and 1
 * are equal), at most MAX_TILE; M, N and K are multiples of TS. */
#include "kernel_if.h"

#define MAX_TILE 32 /* 32 x 32 = 1024 work-items, the default device's maximum group */

__kernel void matrix_multiply_tiled(__global const float *A, __global const float *B, __global float *C, uint M,
                                    uint N, uint K, exec_state_t *ctx) {
  __local_variable float Asub[MAX_TILE][MAX_TILE];
  __local_variable float Bsub[MAX_TILE][MAX_TILE];
  const uint TS = (uint)get_local_size(0, ctx);
  const uint tx = (uint)get_local_id(0, ctx), ty = (uint)get_local_id(1, ctx);
  const uint col = (uint)get_global_id(0, ctx), row = (uint)get_global_id(1, ctx);
  (void)M;
  float acc = 0.0f;
  for (uint t = 0; t < K / TS; t++) {
    Asub[ty][tx] = A[row * K + t * TS + tx];
    Bsub[ty][tx] = B[(t * TS + ty) * N + col];
    barrier(ctx);
    for (uint k = 0; k < TS; k++) acc += Asub[ty][k] * Bsub[k][tx];
    barrier(ctx);
  }
  C[row * N + col] = acc;
}

typedef struct {
  __global const float *A;
  __global const float *B;
  __global float *C;
  uint M, N, K;
} matrix_multiply_tiled_args;

static void matrix_multiply_tiled_item(const matrix_multiply_tiled_args *a, exec_state_t *e) {
  matrix_multiply_tiled(a->A, a->B, a->C, a->M, a->N, a->K, e);
}

RVHAL_KERNEL(matrix_multiply_tiled_entry, matrix_multiply_tiled_args, matrix_multiply_tiled_item, RVHAL_GLOBAL(A), RVHAL_GLOBAL(B), RVHAL_GLOBAL(C), RVHAL_VALUE(M), RVHAL_VALUE(N), RVHAL_VALUE(K))

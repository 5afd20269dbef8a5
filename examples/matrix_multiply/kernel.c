/* matrix_multiply (2-D, naive): C = A x B for an m x k matrix A and a k x n
 * matrix B (row-major floats); work-item (col, row) computes C[row][col]. */
#include "kernel_if.h"

__kernel void matrix_multiply(__global float *a, __global float *b, __global float *c, uint m, uint k, uint n,
                              exec_state_t *ctx) {
  size_t col = get_global_id(0, ctx);
  size_t row = get_global_id(1, ctx);
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (uint i = 0; i < k; i++) sum += a[row * k + i] * b[(size_t)i * n + col];
  c[row * n + col] = sum;
}

RVHAL_KERNEL_ENTRY(matrix_multiply, RVHAL_GLOBAL(float *, a), RVHAL_GLOBAL(float *, b), RVHAL_GLOBAL(float *, c),
                   RVHAL_VALUE(uint, m), RVHAL_VALUE(uint, k), RVHAL_VALUE(uint, n))

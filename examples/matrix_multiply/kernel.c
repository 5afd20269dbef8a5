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

typedef struct {
  __global float *a;
  __global float *b;
  __global float *c;
  uint m, k, n;
} matrix_multiply_args;

static void matrix_multiply_item(const matrix_multiply_args *p, exec_state_t *e) {
  matrix_multiply(p->a, p->b, p->c, p->m, p->k, p->n, e);
}

RVHAL_KERNEL(matrix_multiply_entry, matrix_multiply_args, matrix_multiply_item, RVHAL_GLOBAL(a), RVHAL_GLOBAL(b), RVHAL_GLOBAL(c), RVHAL_VALUE(m), RVHAL_VALUE(k), RVHAL_VALUE(n))

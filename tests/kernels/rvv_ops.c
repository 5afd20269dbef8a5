/* RVV kernels (clang-16 intrinsics, __riscv_ names): each work-item strip-
 * mines its own chunk of `per_item` elements with vsetvl, so the same
 * kernel runs on any VLEN. vadd: c = a + b (u32); saxpy: y = a*x + y (f32);
 * vredsum: out[item] = the sum of its chunk (u32, vredsum); matmul: one row
 * of C = A x B per work-item (f32, n x n, vfmacc over B's rows). Built only
 * where clang-16 is found (tests/kernels/kernels.cmake). */
#include <riscv_vector.h>

#include "kernel_if.h"

__kernel void rvv_vadd(__global uint *a, __global uint *b, __global uint *c, uint per_item, exec_state_t *e) {
  size_t at = (size_t)get_global_id(0, e) * per_item;
  for (size_t left = per_item, vl; left > 0; left -= vl, at += vl) {
    vl = __riscv_vsetvl_e32m4(left);
    vuint32m4_t va = __riscv_vle32_v_u32m4(a + at, vl), vb = __riscv_vle32_v_u32m4(b + at, vl);
    __riscv_vse32_v_u32m4(c + at, __riscv_vadd_vv_u32m4(va, vb, vl), vl);
  }
}
RVHAL_KERNEL_ENTRY(rvv_vadd, RVHAL_GLOBAL(uint *, a), RVHAL_GLOBAL(uint *, b), RVHAL_GLOBAL(uint *, c),
                   RVHAL_VALUE(uint, per_item))

__kernel void rvv_saxpy(float alpha, __global float *x, __global float *y, uint per_item, exec_state_t *e) {
  size_t at = (size_t)get_global_id(0, e) * per_item;
  for (size_t left = per_item, vl; left > 0; left -= vl, at += vl) {
    vl = __riscv_vsetvl_e32m4(left);
    vfloat32m4_t vx = __riscv_vle32_v_f32m4(x + at, vl), vy = __riscv_vle32_v_f32m4(y + at, vl);
    __riscv_vse32_v_f32m4(y + at, __riscv_vfmacc_vf_f32m4(vy, alpha, vx, vl), vl);
  }
}
RVHAL_KERNEL_ENTRY(rvv_saxpy, RVHAL_VALUE(float, alpha), RVHAL_GLOBAL(float *, x), RVHAL_GLOBAL(float *, y),
                   RVHAL_VALUE(uint, per_item))

__kernel void rvv_vredsum(__global uint *in, __global uint *out, uint per_item, exec_state_t *e) {
  size_t item = get_global_id(0, e), at = item * per_item;
  vuint32m1_t acc = __riscv_vmv_s_x_u32m1(0, 1);
  for (size_t left = per_item, vl; left > 0; left -= vl, at += vl) {
    vl = __riscv_vsetvl_e32m4(left);
    acc = __riscv_vredsum_vs_u32m4_u32m1(__riscv_vle32_v_u32m4(in + at, vl), acc, vl);
  }
  out[item] = __riscv_vmv_x_s_u32m1_u32(acc);
}
RVHAL_KERNEL_ENTRY(rvv_vredsum, RVHAL_GLOBAL(uint *, in), RVHAL_GLOBAL(uint *, out), RVHAL_VALUE(uint, per_item))

/* Row r of C (n x n) = row r of A times B: C[r][:] = sum over k of A[r][k] * B[k][:]. */
__kernel void rvv_matmul(__global float *A, __global float *B, __global float *C, uint n, exec_state_t *e) {
  size_t r = get_global_id(0, e);
  for (size_t j = 0, vl; j < n; j += vl) {
    vl = __riscv_vsetvl_e32m4(n - j);
    vfloat32m4_t acc = __riscv_vfmv_v_f_f32m4(0.0f, vl);
    for (size_t k = 0; k < n; k++) acc = __riscv_vfmacc_vf_f32m4(acc, A[r * n + k], __riscv_vle32_v_f32m4(B + k * n + j, vl), vl);
    __riscv_vse32_v_f32m4(C + r * n + j, acc, vl);
  }
}
RVHAL_KERNEL_ENTRY(rvv_matmul, RVHAL_GLOBAL(float *, A), RVHAL_GLOBAL(float *, B), RVHAL_GLOBAL(float *, C),
                   RVHAL_VALUE(uint, n))

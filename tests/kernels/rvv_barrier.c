/* Vector work live around barrier(): each work-item folds its chunk of `in`
 * into a vector accumulator, strip-mining with a vl of its own (1 + its
 * global id mod 7 elements a strip, so the items of a group run different
 * vl and switch at the barrier with different vtype/vl), publishes the
 * partial sum to local memory, waits at barrier(), and then keeps folding
 * the second half into the same accumulator and adds its neighbour's
 * partial sum. The accumulator is live across the call: the compiler keeps
 * it in memory across barrier() as the RVV psABI requires (every vector
 * register, vl and vtype are caller-saved), so the other items of the group,
 * which run on this hart and use the vector unit between, cannot corrupt
 * it. out[gid] = sum of its chunk + the neighbour's first half (u32, mod
 * 2^32); the host computes the same (tests/device/vector_barrier.c). */
#include <riscv_vector.h>

#include "kernel_if.h"

static vuint32m2_t fold(vuint32m2_t acc, const uint *p, size_t n, size_t step) {
  for (size_t left = n, vl; left > 0; left -= vl, p += vl) {
    vl = __riscv_vsetvl_e32m2(left < step ? left : step);
    /* tail-undisturbed: lanes past a short last strip keep their sums */
    acc = __riscv_vadd_vv_u32m2_tu(acc, acc, __riscv_vle32_v_u32m2(p, vl), vl);
  }
  return acc;
}

static uint total(vuint32m2_t acc, size_t step) {
  size_t vl = __riscv_vsetvl_e32m2(step);
  return __riscv_vmv_x_s_u32m1_u32(__riscv_vredsum_vs_u32m2_u32m1(acc, __riscv_vmv_s_x_u32m1(0, 1), vl));
}

__kernel void rvv_barrier(__global uint *in, __global uint *out, __local uint *partial, uint per_item,
                          exec_state_t *e) {
  const size_t gid = get_global_id(0, e), lid = get_local_id(0, e), n = get_local_size(0, e);
  const size_t step = 1 + gid % 7; /* at most 7 lanes: VLMAX of e32m2 is 8 from VLEN 128 */
  const uint *chunk = in + gid * per_item;
  const size_t half = per_item / 2;
  vuint32m2_t acc = __riscv_vmv_v_x_u32m2(0, __riscv_vsetvl_e32m2(step));
  acc = fold(acc, chunk, half, step);
  partial[lid] = total(acc, step);
  barrier(e); /* the other items run here, on this hart or others */
  acc = fold(acc, chunk + half, per_item - half, step);
  out[gid] = total(acc, step) + partial[(lid + 1) % n];
}
RVHAL_KERNEL_ENTRY(rvv_barrier, RVHAL_GLOBAL(uint *, in), RVHAL_GLOBAL(uint *, out), RVHAL_LOCAL(uint *, partial),
                   RVHAL_VALUE(uint, per_item))

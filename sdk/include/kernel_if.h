/* kernel_if.h: the clik kernel interface on rvhal. A kernel written for
 * clik compiles unchanged against this header:
 *
 *     __kernel void vector_add(__global uint *a, __global uint *b,
 *                              __global uint *c, exec_state_t *item) {
 *       uint tid = get_global_id(0, item);
 *       c[tid] = a[tid] + b[tid];
 *     }
 *
 * plus a few lines of entry glue (RVHAL_KERNEL, see rvhal_kernel.h).
 * Builtins follow OpenCL: ranks >= get_work_dim() give id 0 and size 1. */
#ifndef RVHAL_KERNEL_IF_H
#define RVHAL_KERNEL_IF_H

#include <stddef.h>
#include <stdint.h>

#include "rvhal_kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned long ulong;

/* Address spaces: one memory space, so only documentation... */
#define __kernel
#define __global
#define __constant
#define __local
#define __private
/* ...except __local_variable: one copy per running work-group, placed in the
 * group's local memory on its leader hart's stack (thread-local storage
 * addressed through tp), shared by the group's work-items. */
#define __local_variable static __thread

static inline uint get_work_dim(exec_state_t *e) { return e->group->s->num_dim; }

static inline size_t get_local_id(uint rank, exec_state_t *e) { return rank < 3 ? e->local_id[rank] : 0; }

static inline size_t get_group_id(uint rank, exec_state_t *e) { return rank < 3 ? e->group_id[rank] : 0; }

static inline size_t get_global_id(uint rank, exec_state_t *e) {
  return rank < 3 ? e->global_base[rank] + e->local_id[rank] : 0;
}

/* The ND-range's offset and size as enqueued come from the launch's
 * descriptor: a non-uniform ND-range's last, smaller groups are called with
 * their own local_size and a shifted global_offset (docs/abi.md). */
static inline size_t get_global_offset(uint rank, exec_state_t *e) {
  return rank < 3 ? (size_t)e->group->ci->launch->global_offset[rank] : 0;
}

/* The work-items of this group: smaller than get_enqueued_local_size in the
 * last group along a dimension of a non-uniform ND-range. */
static inline size_t get_local_size(uint rank, exec_state_t *e) { return rank < 3 ? e->local_size[rank] : 1; }
static inline size_t get_enqueued_local_size(uint rank, exec_state_t *e) {
  return rank < 3 ? e->group->ci->launch->local_size[rank] : 1;
}

static inline size_t get_num_groups(uint rank, exec_state_t *e) {
  return rank < 3 ? e->num_groups[rank] : 1;
}

static inline size_t get_global_size(uint rank, exec_state_t *e) {
  return rank < 3 ? e->global_size[rank] : 1;
}

static inline size_t get_local_linear_id(exec_state_t *e) {
  return e->local_id[0] + e->local_size[0] * (e->local_id[1] + e->local_size[1] * e->local_id[2]);
}

/* Wait until every work-item of the group has reached this call. On the
 * item's own state (e may be the kernel's private copy); through an asm
 * that clobbers every register a switch does not keep, so that a switch
 * saves four (ra, sp, s0, s1: rvhal_context_t).
 *
 * The common case, a plain switch to the group's next item, is inline
 * here, in the kernel's own code: one indirect jump to the next item, which
 * QEMU resolves through a lookup of the next translation block, and no
 * call into the SDK, whose code may be on another page (a jump off the
 * page is a lookup too). Everything else (the group's first barrier, the
 * last item of a round, an item out of step) is a call to
 * rvhal_barrier_slow (sdk/src/barrier.c), once per group and barrier. */
static inline __attribute__((always_inline)) void rvhal_barrier_asm_(exec_state_t *e) {
  register exec_state_t *a0 __asm__("a0") = e;
  /* The byte in .rvhal_barrier_sites tells the entry that this program
   * may call barrier() (rvhal_kernel.h, rvhal_plain_call_ok). */
  __asm__ volatile(
      ".pushsection .rvhal_barrier_sites, \"a\"\n .byte 1\n .popsection\n"
      "lw t1, %[slow](a0)\n\t"
      "bnez t1, 1f\n\t"
      RVHAL_LREG_ " t3, %[ctx](a0)\n\t"
      RVHAL_LREG_ " a0, %[next](a0)\n\t"
      RVHAL_SWITCH_T3_A0_
      "1:\n\t"
      "call rvhal_barrier_slow\n"
      "7:"
      : "+r"(a0)
      : [slow] "i"(offsetof(exec_state_t, slow)), [ctx] "i"(offsetof(exec_state_t, ctx)),
        [next] "i"(offsetof(exec_state_t, next_ctx))
      : RVHAL_CLOBBER_ALL_);
}
#ifdef __riscv_vector
/* vl and vtype cannot be named as clobbered: a real call tells the
 * compiler they change (other items run in between). */
static __attribute__((noinline, unused)) void rvhal_barrier_call_(exec_state_t *e) { rvhal_barrier_asm_(e); }
static inline __attribute__((always_inline)) void barrier(exec_state_t *e) { rvhal_barrier_call_(e->self); }
#else
static inline __attribute__((always_inline)) void barrier(exec_state_t *e) { rvhal_barrier_asm_(e->self); }
#endif

/* printf to the host's standard output (or the host program's print
 * callback), one record per call, lines kept whole. */
int print(exec_state_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Asynchronous copy. This device has no DMA engine: the copy is done at
 * start_dma and wait_dma returns at once. Other work-items see the data
 * after the next barrier(), as on a device with a real engine. */
uintptr_t start_dma(void *dst, const void *src, size_t size_in_bytes, exec_state_t *e);
void wait_dma(uintptr_t xfer_id, exec_state_t *e);

/* Atomics on global or local memory, across harts and work-items. Each
 * returns the old value; 32- and 64-bit, signed or unsigned.
 *
 * The arithmetic ones (add, sub, inc, dec, and, or, xor, min, max) are
 * relaxed, as OpenCL 1.2 defines its atomic functions: atomic, with no
 * ordering of other memory (barrier() and mem_fence() order it). They are
 * one AMO instruction in an asm that tells the compiler it reads and
 * changes *p and nothing else (not volatile: a volatile asm is a barrier to
 * every memory access; its memory operand keeps it from being dropped or
 * reordered against other accesses to *p, barrier() and fences). A GCC
 * __atomic builtin, even relaxed, makes the compiler assume any memory
 * changed, so a kernel looping `i += get_global_size(0, ctx)` around an
 * atomic re-read the ND-range's sizes at every step (three dependent loads
 * and a multiply per byte of the histogram example; now one load of the
 * uint32 local size, which a uint atomic may alias).
 * xchg and cmpxchg, used for flags and locks, stay sequentially
 * consistent. */
#define RVHAL_AMO_(name, insn, type)                                          \
  static inline type rvhal_##name(volatile type *p, type v) {                 \
    type old;                                                                 \
    __asm__(insn " %0, %2, %1" : "=r"(old), "+A"(*(type *)p) : "r"(v));       \
    return old;                                                               \
  }
/* Each operation, signed and unsigned, for one access width. */
#define RVHAL_AMO_ALL_(w, bits)                                               \
  RVHAL_AMO_(amoadd_i##bits, "amoadd" w, int##bits##_t)                       \
  RVHAL_AMO_(amoadd_u##bits, "amoadd" w, uint##bits##_t)                      \
  RVHAL_AMO_(amoand_i##bits, "amoand" w, int##bits##_t)                       \
  RVHAL_AMO_(amoand_u##bits, "amoand" w, uint##bits##_t)                      \
  RVHAL_AMO_(amoor_i##bits, "amoor" w, int##bits##_t)                         \
  RVHAL_AMO_(amoor_u##bits, "amoor" w, uint##bits##_t)                        \
  RVHAL_AMO_(amoxor_i##bits, "amoxor" w, int##bits##_t)                       \
  RVHAL_AMO_(amoxor_u##bits, "amoxor" w, uint##bits##_t)                      \
  RVHAL_AMO_(amomin_i##bits, "amomin" w, int##bits##_t)                       \
  RVHAL_AMO_(amomin_u##bits, "amominu" w, uint##bits##_t)                     \
  RVHAL_AMO_(amomax_i##bits, "amomax" w, int##bits##_t)                       \
  RVHAL_AMO_(amomax_u##bits, "amomaxu" w, uint##bits##_t)
RVHAL_AMO_ALL_(".w", 32)
#if __riscv_xlen == 64
RVHAL_AMO_ALL_(".d", 64)
#define RVHAL_AMO64_(op, p, v)                                                    \
  , volatile long long *: rvhal_##op##_i64((volatile int64_t *)(p), (int64_t)(v)), \
    volatile unsigned long long *: rvhal_##op##_u64((volatile uint64_t *)(p), (uint64_t)(v)), \
    volatile long *: rvhal_##op##_i64((volatile int64_t *)(p), (int64_t)(v)),      \
    volatile unsigned long *: rvhal_##op##_u64((volatile uint64_t *)(p), (uint64_t)(v))
#else
#define RVHAL_AMO64_(op, p, v)
#endif
#undef RVHAL_AMO_
#undef RVHAL_AMO_ALL_

/* _Generic on the pointer with volatile added, so plain and volatile
 * pointers both work. */
#define RVHAL_AMO_DISPATCH_(op, p, v)                                             \
  _Generic((volatile __typeof__(*(p)) *)(p),                                      \
      volatile int *: rvhal_##op##_i32((volatile int32_t *)(p), (int32_t)(v)),    \
      volatile unsigned int *: rvhal_##op##_u32((volatile uint32_t *)(p), (uint32_t)(v)) \
      RVHAL_AMO64_(op, p, v))
#define atomic_add(p, v) RVHAL_AMO_DISPATCH_(amoadd, p, v)
#define atomic_sub(p, v) RVHAL_AMO_DISPATCH_(amoadd, p, -(v))
#define atomic_inc(p) RVHAL_AMO_DISPATCH_(amoadd, p, 1)
#define atomic_dec(p) RVHAL_AMO_DISPATCH_(amoadd, p, -1)
#define atomic_and(p, v) RVHAL_AMO_DISPATCH_(amoand, p, v)
#define atomic_or(p, v) RVHAL_AMO_DISPATCH_(amoor, p, v)
#define atomic_xor(p, v) RVHAL_AMO_DISPATCH_(amoxor, p, v)
#define atomic_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define atomic_min(p, v) RVHAL_AMO_DISPATCH_(amomin, p, v)
#define atomic_max(p, v) RVHAL_AMO_DISPATCH_(amomax, p, v)

/* Returns the old value; stores val only if the old value equals cmp. */
#define atomic_cmpxchg(p, cmp, val)                                                          \
  ({                                                                                         \
    __typeof__(*(p)) rvhal_expected_ = (cmp);                                                \
    __atomic_compare_exchange_n((p), &rvhal_expected_, (val), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    rvhal_expected_;                                                                         \
  })

/* Memory fences, for completeness: barrier() already orders memory. */
#define mem_fence(e) __atomic_thread_fence(__ATOMIC_SEQ_CST)

#ifdef __cplusplus
}
#endif
#endif /* RVHAL_KERNEL_IF_H */

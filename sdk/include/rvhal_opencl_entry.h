/* The OpenCL C built-ins that need the work-item's state, and the entry an
 * OpenCL C kernel gets. Included only by the entry file rvhal's OpenCL C
 * compiler generates (host/src/compiler/opencl_entry.c), which is linked
 * into one LLVM module with the program: the kernel calls these as
 * __rvhal_cl_<name>(exec_state_t *e, ...) (the compiler adds the state as a
 * hidden first parameter), so they inline into the SDK's work-item loop
 * exactly as kernel_if.h's accessors do for a C SDK kernel, and the item's
 * ids stay in registers. External (not static) so the kernel module links
 * to them; the compiler internalizes everything but the entries. */
#ifndef RVHAL_OPENCL_ENTRY_H
#define RVHAL_OPENCL_ENTRY_H

#include "kernel_if.h"
#include "rvhal/rvhal_kernel_meta.h"

#define RVHAL_CL_ __attribute__((always_inline))

/* ---- work-item functions (OpenCL 3.0 section 6.15.1) ----
 * Ids and the call's sizes come from the item's own copy of its state,
 * which the SDK fills before its loops over the items (rvhal_fill_sizes_):
 * values in registers. The rest (the ND-range's offset, its enqueued group
 * size, its dimensions) from the launch's descriptor, read by
 * rvhal_cl_stable_: an asm the compiler knows by its address alone (no
 * memory operand), which it takes for a function of that address. That is
 * what these are during a kernel call (no one writes the descriptor, or the
 * group's pointers to it, while items run), so the compiler reads each
 * once, out of the kernel's loops and the SDK's loop over the items, even
 * beside stores and atomics it cannot tell apart from the descriptor. (A
 * non-uniform ND-range's last groups are called with their own smaller
 * local size and a shifted offset, docs/abi.md: the ND-range's are the
 * launch's.) */
#if __riscv_xlen == 64
#define RVHAL_CL_LWU_ "lwu"
#else
#define RVHAL_CL_LWU_ "lw"
#endif
/* The word (size_t: on RV32 a uint64_t's low half) or the uint32_t at p. */
static inline __attribute__((always_inline)) size_t rvhal_cl_stable_(const void *p) {
  size_t v;
  __asm__(RVHAL_LREG_ " %0, 0(%1)" : "=r"(v) : "r"(p));
  return v;
}
static inline __attribute__((always_inline)) uint32_t rvhal_cl_stable_u32_(const void *p) {
  size_t v;
  __asm__(RVHAL_CL_LWU_ " %0, 0(%1)" : "=r"(v) : "r"(p));
  return (uint32_t)v;
}
static inline __attribute__((always_inline)) const rvhal_launch_desc_t *rvhal_cl_launch_(const exec_state_t *e) {
  const rvhal_call_info_t *ci = (const rvhal_call_info_t *)rvhal_cl_stable_(&e->group->ci);
  return (const rvhal_launch_desc_t *)rvhal_cl_stable_(&ci->launch);
}

RVHAL_CL_ uint32_t __rvhal_cl_get_work_dim(exec_state_t *e) { return rvhal_cl_stable_u32_(&rvhal_cl_launch_(e)->work_dim); }
RVHAL_CL_ size_t __rvhal_cl_get_global_id(exec_state_t *e, uint32_t d) {
  return d < 3 ? e->global_base[d] + e->local_id[d] : 0;
}
RVHAL_CL_ size_t __rvhal_cl_get_local_id(exec_state_t *e, uint32_t d) { return d < 3 ? e->local_id[d] : 0; }
RVHAL_CL_ size_t __rvhal_cl_get_group_id(exec_state_t *e, uint32_t d) { return d < 3 ? e->group_id[d] : 0; }
RVHAL_CL_ size_t __rvhal_cl_get_local_size(exec_state_t *e, uint32_t d) { return d < 3 ? e->local_size[d] : 1; }
RVHAL_CL_ size_t __rvhal_cl_get_enqueued_local_size(exec_state_t *e, uint32_t d) {
  return d < 3 ? rvhal_cl_stable_u32_(&rvhal_cl_launch_(e)->local_size[d]) : 1;
}
RVHAL_CL_ size_t __rvhal_cl_get_num_groups(exec_state_t *e, uint32_t d) { return d < 3 ? e->num_groups[d] : 1; }
RVHAL_CL_ size_t __rvhal_cl_get_global_size(exec_state_t *e, uint32_t d) { return d < 3 ? e->global_size[d] : 1; }
RVHAL_CL_ size_t __rvhal_cl_get_global_offset(exec_state_t *e, uint32_t d) {
  return d < 3 ? rvhal_cl_stable_(&rvhal_cl_launch_(e)->global_offset[d]) : 0;
}
RVHAL_CL_ size_t __rvhal_cl_get_global_linear_id(exec_state_t *e) {
  size_t id[3];
  for (int d = 0; d < 3; d++) id[d] = e->global_base[d] + e->local_id[d] - __rvhal_cl_get_global_offset(e, (uint32_t)d);
  return (id[2] * e->global_size[1] + id[1]) * e->global_size[0] + id[0];
}
RVHAL_CL_ size_t __rvhal_cl_get_local_linear_id(exec_state_t *e) {
  return (e->local_id[2] * e->local_size[1] + e->local_id[1]) * e->local_size[0] + e->local_id[0];
}

/* ---- synchronization (6.15.8): the SDK's barrier orders all memory ---- */
RVHAL_CL_ void __rvhal_cl_barrier(exec_state_t *e, uint32_t flags) {
  (void)flags;
  barrier(e);
}
RVHAL_CL_ void __rvhal_cl_work_group_barrier(exec_state_t *e, uint32_t flags) {
  (void)flags;
  barrier(e);
}
RVHAL_CL_ void __rvhal_cl_work_group_barrier_scope(exec_state_t *e, uint32_t flags, int scope) {
  (void)flags;
  (void)scope;
  barrier(e);
}

/* ---- local-buffer arguments: the group's, carved by the SDK ---- */
RVHAL_CL_ void *__rvhal_cl_local_arg(exec_state_t *e, uint32_t i) { return e->group->local_args[i]; }

/* ---- async copies (6.15.11) on the SDK's DMA ----
 * Every work-item of the group calls them with the same arguments; each
 * copies its share (a contiguous slice, or every local_size-th element
 * when strided), and wait_group_events() is a barrier, after which the
 * whole copy is visible to the group. The event is never looked at. */
RVHAL_CL_ void *__rvhal_cl_async_copy_(exec_state_t *e, void *dst, const void *src, size_t bytes, void *ev) {
  const size_t n = __rvhal_cl_get_local_size(e, 0) * __rvhal_cl_get_local_size(e, 1) * __rvhal_cl_get_local_size(e, 2);
  const size_t me = __rvhal_cl_get_local_linear_id(e);
  const size_t chunk = (bytes + n - 1) / n, start = me * chunk;
  if (start < bytes) {
    const size_t len = bytes - start < chunk ? bytes - start : chunk;
    wait_dma(start_dma((char *)dst + start, (const char *)src + start, len, e), e);
  }
  return ev ? ev : (void *)1;
}
RVHAL_CL_ void *__rvhal_cl_async_strided_(exec_state_t *e, char *dst, const char *src, size_t count, size_t esize,
                                         size_t dst_stride, size_t src_stride, void *ev) {
  const size_t n = __rvhal_cl_get_local_size(e, 0) * __rvhal_cl_get_local_size(e, 1) * __rvhal_cl_get_local_size(e, 2);
  for (size_t i = __rvhal_cl_get_local_linear_id(e); i < count; i += n)
    __builtin_memcpy(dst + i * dst_stride * esize, src + i * src_stride * esize, esize);
  return ev ? ev : (void *)1;
}
#define RVHAL_CL_ASYNC_(S)                                                                                        \
  RVHAL_CL_ void *__rvhal_cl_async_copy_##S(exec_state_t *e, void *dst, const void *src, size_t n, void *ev) {   \
    return __rvhal_cl_async_copy_(e, dst, src, n * S, ev);                                                        \
  }                                                                                                               \
  RVHAL_CL_ void *__rvhal_cl_async_strided_l_##S(exec_state_t *e, void *dst, const void *src, size_t n,         \
                                                  size_t stride, void *ev) {                                      \
    return __rvhal_cl_async_strided_(e, (char *)dst, (const char *)src, n, S, 1, stride, ev);                     \
  }                                                                                                               \
  RVHAL_CL_ void *__rvhal_cl_async_strided_g_##S(exec_state_t *e, void *dst, const void *src, size_t n,         \
                                                  size_t stride, void *ev) {                                      \
    return __rvhal_cl_async_strided_(e, (char *)dst, (const char *)src, n, S, stride, 1, ev);                     \
  }
RVHAL_CL_ASYNC_(1)
RVHAL_CL_ASYNC_(2)
RVHAL_CL_ASYNC_(4)
RVHAL_CL_ASYNC_(8)
RVHAL_CL_ASYNC_(16)
RVHAL_CL_ASYNC_(32)
RVHAL_CL_ASYNC_(64)
RVHAL_CL_ASYNC_(128)
RVHAL_CL_ void __rvhal_cl_wait_group_events(exec_state_t *e, int num_events, void *events) {
  (void)num_events;
  (void)events;
  barrier(e);
}
RVHAL_CL_ void __rvhal_cl_prefetch(const void *p, size_t n) {
  (void)p;
  (void)n;
}

/* printf (6.15.14), sdk/opencl/runtime/printf.c. */
int __rvhal_cl_printf(exec_state_t *e, const char *fmt, ...);

/* The ABI entry NAME for the item function NAME__rvhal_item_on the
 * compiler wrote in IR (it loads the kernel's arguments and calls it): the
 * C SDK's entry (RVHAL_KERNEL_ENTRY), so an OpenCL C kernel runs on the
 * same paths: a program without barrier() as plain loops over the call's
 * groups, the items after a group's first in the SDK's row loop, the
 * items of a group that met a barrier as contexts. */
#define RVHAL_CL_ENTRY(name)                                                                        \
  void name##__rvhal_item_on(const void *args, exec_state_t *e);                                    \
  RVHAL_ITEM_FN_ void name##__rvhal_item(const void *a, exec_state_t *e) {                          \
    RVHAL_ITEM_VIEW_(e);                                                                            \
    name##__rvhal_item_on(a, &rvhal_view_);                                                         \
  }                                                                                                 \
  RVHAL_ROWS_FN_(name##__rvhal)                                                                     \
  RVHAL_FIBER_FN_(name##__rvhal)                                                                    \
  void name(void *args, const hal_sched_info_t *sched);                                             \
  void name(void *args, const hal_sched_info_t *sched) { RVHAL_ENTRY_CALL_(name##__rvhal, args, sched); }

#endif /* RVHAL_OPENCL_ENTRY_H */

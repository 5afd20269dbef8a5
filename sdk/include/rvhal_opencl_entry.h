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

/* ---- work-item functions (OpenCL 3.0 section 6.15.1) ---- */
RVHAL_CL_ uint32_t __rvhal_cl_get_work_dim(exec_state_t *e) { return e->group->s->num_dim; }
RVHAL_CL_ size_t __rvhal_cl_get_global_id(exec_state_t *e, uint32_t d) {
  return d < 3 ? e->global_base[d] + e->local_id[d] : 0;
}
RVHAL_CL_ size_t __rvhal_cl_get_local_id(exec_state_t *e, uint32_t d) { return d < 3 ? e->local_id[d] : 0; }
RVHAL_CL_ size_t __rvhal_cl_get_group_id(exec_state_t *e, uint32_t d) { return d < 3 ? e->group_id[d] : 0; }
RVHAL_CL_ size_t __rvhal_cl_get_local_size(exec_state_t *e, uint32_t d) {
  return d < 3 ? e->group->s->local_size[d] : 1;
}
/* get_local_size is the group's own size, smaller in the last group along
 * a dimension of a non-uniform ND-range; the enqueued size, the ND-range's
 * size and offset come from the launch's descriptor (the last groups are
 * called with a shifted global_offset: docs/abi.md). */
RVHAL_CL_ size_t __rvhal_cl_get_enqueued_local_size(exec_state_t *e, uint32_t d) {
  return d < 3 ? e->group->ci->launch->local_size[d] : 1;
}
RVHAL_CL_ size_t __rvhal_cl_get_num_groups(exec_state_t *e, uint32_t d) {
  return d < 3 ? e->group->s->num_groups_total[d] : 1;
}
RVHAL_CL_ size_t __rvhal_cl_get_global_size(exec_state_t *e, uint32_t d) {
  return d < 3 ? (size_t)e->group->ci->launch->global_size[d] : 1;
}
RVHAL_CL_ size_t __rvhal_cl_get_global_offset(exec_state_t *e, uint32_t d) {
  return d < 3 ? (size_t)e->group->ci->launch->global_offset[d] : 0;
}
RVHAL_CL_ size_t __rvhal_cl_get_global_linear_id(exec_state_t *e) {
  const rvhal_launch_desc_t *l = e->group->ci->launch;
  size_t id[3];
  for (int d = 0; d < 3; d++) id[d] = e->global_base[d] + e->local_id[d] - (size_t)l->global_offset[d];
  return (id[2] * (size_t)l->global_size[1] + id[1]) * (size_t)l->global_size[0] + id[0];
}
RVHAL_CL_ size_t __rvhal_cl_get_local_linear_id(exec_state_t *e) {
  const hal_sched_info_t *s = e->group->s;
  return (e->local_id[2] * s->local_size[1] + e->local_id[1]) * s->local_size[0] + e->local_id[0];
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

/* rvhal_rows (rvhal_kernel.h) as LLVM compiles it best: the same walk over
 * this hart's items after the first, row by row, each row a counted loop of
 * its own, and in the first copy (no global id reaches 2^32) that fact
 * stated, so that a kernel's (uint)get_global_id(0) costs no zero-extension
 * and its addresses step by a constant. */
static inline __attribute__((always_inline)) void rvhal_cl_rows(const void *args, const exec_state_t *e0,
                                                                rvhal_item_fn_t fn) {
  exec_state_t e = *e0;
  const hal_sched_info_t *s = e.group->s;
  const size_t lx = s->local_size[0], ly = s->local_size[1], bx = e.global_base[0];
  size_t x = e.local_id[0] + 1, y = e.local_id[1], z = e.local_id[2], left = e.group->num_items - 1;
  while (left) {
    if (x == lx) {
      x = 0;
      if (++y == ly) {
        y = 0;
        ++z;
      }
      e.local_id[1] = y;
      e.local_id[2] = z;
    }
    const size_t n = lx - x < left ? lx - x : left, xend = x + n;
    left -= n;
    if (__builtin_expect(bx <= RVHAL_ID_NO_WRAP_ && xend <= RVHAL_ID_NO_WRAP_, 1)) {
      for (size_t xi = x; xi != xend; xi++) {
        if (bx + xi > 0xffffffffu) __builtin_unreachable();
        e.local_id[0] = xi;
        fn(args, &e);
      }
    } else {
      for (size_t xi = x; xi != xend; xi++) {
        e.local_id[0] = xi;
        fn(args, &e);
      }
    }
    x = xend;
    e.local_id[0] = xend; /* not the loop's last value: LLVM kept an induction variable for it */
  }
}

/* The ABI entry NAME for the item function NAME__rvhal_item the compiler
 * wrote in IR: the SDK's per-group loop, as RVHAL_KERNEL_ENTRY makes it. */
#define RVHAL_CL_ENTRY(name)                                                                        \
  void name##__rvhal_item(const void *args, exec_state_t *e);                                       \
  static inline __attribute__((always_inline)) void name##__rvhal_rows(const void *a, const exec_state_t *e) { \
    rvhal_cl_rows(a, e, name##__rvhal_item);                                                        \
  }                                                                                                 \
  RVHAL_FIBER_FN_(name##__rvhal)                                                                    \
  void name(void *args, const hal_sched_info_t *sched);                                             \
  void name(void *args, const hal_sched_info_t *sched) {                                            \
    rvhal_run_call(args, sched, name##__rvhal_item, name##__rvhal_rows, name##__rvhal_fiber);       \
  }

#endif /* RVHAL_OPENCL_ENTRY_H */

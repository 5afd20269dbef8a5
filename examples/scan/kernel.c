/* scan (1-D): inclusive prefix sum within each work-group, Hillis-Steele
 * with two local buffers in turn: at the step with offset d every item adds
 * the element d places to its left (if any) from one buffer into the other,
 * then the group meets at a barrier and the buffers swap roles. Works for
 * any group size. */
#include "kernel_if.h"

__kernel void scan(__global const uint *in, __global uint *out, __local uint *buf0, __local uint *buf1,
                   exec_state_t *ctx) {
  const uint lid = (uint)get_local_id(0, ctx);
  const uint n = (uint)get_local_size(0, ctx);
  const size_t gid = get_global_id(0, ctx);
  __local uint *src = buf0, *dst = buf1;
  src[lid] = in[gid];
  barrier(ctx);
  for (uint d = 1; d < n; d <<= 1) {
    dst[lid] = lid >= d ? src[lid] + src[lid - d] : src[lid];
    barrier(ctx);
    __local uint *t = src;
    src = dst;
    dst = t;
  }
  out[gid] = src[lid];
}

typedef struct {
  __global const uint *in;
  __global uint *out;
  uintptr_t buf0_size; /* local buffers: packed as their sizes */
  uintptr_t buf1_size;
} scan_args;

static void scan_item(const scan_args *a, exec_state_t *e) {
  scan(a->in, a->out, rvhal_local_arg(e, 0), rvhal_local_arg(e, 1), e);
}

RVHAL_KERNEL(scan_entry, scan_args, scan_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out), RVHAL_LOCAL(buf0_size), RVHAL_LOCAL(buf1_size))

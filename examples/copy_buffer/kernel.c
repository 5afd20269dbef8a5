/* copy_buffer: out[i] = in[i] for elements of 1, 2, 4, 8 and 16 bytes, one
 * kernel per element type (all in this program). */
#include "kernel_if.h"

typedef struct {
  uint v[4];
} uint4_t;

#define COPY_KERNEL(name, type)                                                              \
  __kernel void name(__global type *in, __global type *out, exec_state_t *ctx) {             \
    size_t i = get_global_id(0, ctx);                                                        \
    out[i] = in[i];                                                                          \
  }                                                                                          \
  typedef struct {                                                                           \
    __global type *in;                                                                       \
    __global type *out;                                                                      \
  } name##_args;                                                                             \
  static void name##_item(const name##_args *a, exec_state_t *e) { name(a->in, a->out, e); } \
  RVHAL_KERNEL(name##_entry, name##_args, name##_item, RVHAL_GLOBAL(in), RVHAL_GLOBAL(out))

COPY_KERNEL(copy_uchar, uchar)
COPY_KERNEL(copy_ushort, ushort)
COPY_KERNEL(copy_uint, uint)
COPY_KERNEL(copy_ulong, uint64_t)
COPY_KERNEL(copy_uint4, uint4_t)

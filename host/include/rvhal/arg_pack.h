/* The packed-argument ABI (the oneAPI Construction Kit HAL's RISC-V kernel
 * ABI, "Packed Arguments"; docs/abi.md): the
 * layout a kernel expects its arguments in, for a device word size. Each
 * argument sits at an offset aligned to the smallest power of two >= its
 * packed size; global buffers are device addresses and local buffers their
 * size, both one device word; POD values are copied as they are. */
#ifndef RVHAL_ARG_PACK_H
#define RVHAL_ARG_PACK_H

#include <stdint.h>

#include "rvhal/hal_types.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* what librvhal exports: host/librvhal.map */

/* Argument descriptors, one per kind (plain assignments: C and C++). */
static inline hal_arg_t rvhal_arg_global(hal_addr_t address) {
  hal_arg_t a;
  a.kind = hal_arg_address;
  a.space = hal_space_global;
  a.size = 0;
  a.address = address;
  return a;
}
static inline hal_arg_t rvhal_arg_local(hal_size_t bytes) {
  hal_arg_t a;
  a.kind = hal_arg_address;
  a.space = hal_space_local;
  a.size = bytes;
  a.address = 0;
  return a;
}
/* `data` must stay valid until the launch that uses it is submitted. */
static inline hal_arg_t rvhal_arg_value(const void *data, hal_size_t size) {
  hal_arg_t a;
  a.kind = hal_arg_value;
  a.space = hal_space_global;
  a.size = size;
  a.pod_data = data;
  return a;
}

typedef struct rvhal_arg_layout {
  uint32_t offset; /* in the packed buffer */
  uint32_t size;   /* bytes it occupies */
  uint32_t align;  /* power of two >= size */
} rvhal_arg_layout_t;

/* Lays out `args` for a device of `word_size` (4 or 8) bytes; out_layout has
 * num_args entries (may be NULL); *out_total is the packed size. */
int rvhal_arg_layout(const hal_arg_t *args, uint32_t num_args, uint32_t word_size, rvhal_arg_layout_t *out_layout,
                     uint32_t *out_total);

/* Packs `args` into buf (buf_size bytes; unused bytes are zeroed). */
int rvhal_arg_pack(const hal_arg_t *args, uint32_t num_args, uint32_t word_size, void *buf, uint32_t buf_size,
                   uint32_t *out_total);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif /* RVHAL_ARG_PACK_H */

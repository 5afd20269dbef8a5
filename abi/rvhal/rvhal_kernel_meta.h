/* Kernel metadata: what a kernel built with the SDK's RVHAL_KERNEL macro
 * tells the host about its arguments, so a launch with the wrong arguments
 * is refused with a message instead of running on garbage. Emitted as the
 * object symbol <entry>__rvhal_meta; only uint32_t fields, so RV32 and RV64
 * kernels share the layout. */
#ifndef RVHAL_ABI_KERNEL_META_H
#define RVHAL_ABI_KERNEL_META_H

#include "rvhal/rvhal_static_assert.h"
#include <stddef.h>
#include <stdint.h>

#define RVHAL_META_MAGIC 0x4154454Du /* "META" */
#define RVHAL_META_VERSION 2
#define RVHAL_META_MAX_ARGS 64
#define RVHAL_META_SUFFIX "__rvhal_meta"

/* An argument descriptor: kind in the low byte, the size of the kernel's
 * struct member above it. */
#define RVHAL_ARG_KIND_GLOBAL 1u
#define RVHAL_ARG_KIND_LOCAL 2u
#define RVHAL_ARG_KIND_VALUE 3u
#define RVHAL_ARG_DESC_KIND(d) ((d) & 0xffu)
#define RVHAL_ARG_DESC_SIZE(d) ((d) >> 8)

typedef struct rvhal_kernel_meta_arg {
  uint32_t desc;   /* kind | member size << 8 */
  uint32_t offset; /* offsetof the member in the kernel's argument struct */
} rvhal_kernel_meta_arg_t;

typedef struct rvhal_kernel_meta {
  uint32_t magic;     /* RVHAL_META_MAGIC */
  uint32_t version;   /* RVHAL_META_VERSION */
  uint32_t args_size; /* sizeof the kernel's argument struct */
  uint32_t num_args;
  rvhal_kernel_meta_arg_t args[RVHAL_META_MAX_ARGS]; /* in argument order */
} rvhal_kernel_meta_t;

RVHAL_STATIC_ASSERT(offsetof(rvhal_kernel_meta_t, num_args) == 12, "meta layout");
RVHAL_STATIC_ASSERT(offsetof(rvhal_kernel_meta_t, args) == 16, "meta layout");
RVHAL_STATIC_ASSERT(offsetof(rvhal_kernel_meta_arg_t, offset) == 4, "meta layout");
RVHAL_STATIC_ASSERT(sizeof(rvhal_kernel_meta_t) == 16 + 8 * RVHAL_META_MAX_ARGS, "meta layout");

#endif /* RVHAL_ABI_KERNEL_META_H */

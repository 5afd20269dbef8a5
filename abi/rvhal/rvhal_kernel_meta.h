/* Kernel metadata: what a kernel built with the SDK's RVHAL_KERNEL_ENTRY
 * (or RVHAL_KERNEL) macro tells the host about its arguments, so a launch
 * with the wrong arguments is refused with a message instead of running on
 * garbage. Emitted as the object symbol <entry>__rvhal_meta; only uint32_t
 * fields, so RV32 and RV64 kernels share the layout. RVHAL_KERNEL_ENTRY also
 * emits <entry>__rvhal_args, the declared type and name of each argument as
 * "type\0name\0" pairs, for tools (rvhal kernels). */
#ifndef RVHAL_ABI_KERNEL_META_H
#define RVHAL_ABI_KERNEL_META_H

#include "rvhal/rvhal_static_assert.h"
#include <stddef.h>
#include <stdint.h>

#define RVHAL_META_MAGIC 0x4154454Du /* "META" */
#define RVHAL_META_VERSION 3     /* 3: value types in the descriptors */
#define RVHAL_META_MIN_VERSION 2 /* 2: no types (size checks only) */
/* 128: OpenCL's full profile needs 1024 bytes of parameters, which its
 * conformance test fills with one buffer and 127 longs. A reader takes only
 * the 16 + 8 * num_args bytes a record uses, so records built when this
 * was 64 still read. */
#define RVHAL_META_MAX_ARGS 128
#define RVHAL_META_SUFFIX "__rvhal_meta"
#define RVHAL_META_ARGS_SUFFIX "__rvhal_args"

/* An argument descriptor: kind in the low byte, the size of the kernel's
 * struct member in the next 16 bits, the value's type (RVHAL_TYPE_*) in the
 * high byte (0 in version 2, and for buffers). */
#define RVHAL_ARG_KIND_GLOBAL 1u
#define RVHAL_ARG_KIND_LOCAL 2u
#define RVHAL_ARG_KIND_VALUE 3u
#define RVHAL_ARG_DESC_KIND(d) ((d) & 0xffu)
#define RVHAL_ARG_DESC_SIZE(d) (((d) >> 8) & 0xffffu)
#define RVHAL_ARG_DESC_TYPE(d) ((d) >> 24)
#define RVHAL_ARG_DESC(kind, size, type) ((uint32_t)(kind) | (uint32_t)(size) << 8 | (uint32_t)(type) << 24)

/* Value types. A launch that says which type it passes (the CLI does; see
 * rvhal_launch_options_t.arg_types) is refused when it is not the declared
 * one: integers must be integers of the same size (signedness aside), floats
 * the same float. POD: any other value (a struct), checked by size. */
#define RVHAL_TYPE_UNKNOWN 0u
#define RVHAL_TYPE_I8 1u
#define RVHAL_TYPE_U8 2u
#define RVHAL_TYPE_I16 3u
#define RVHAL_TYPE_U16 4u
#define RVHAL_TYPE_I32 5u
#define RVHAL_TYPE_U32 6u
#define RVHAL_TYPE_I64 7u
#define RVHAL_TYPE_U64 8u
#define RVHAL_TYPE_F32 9u
#define RVHAL_TYPE_F64 10u
#define RVHAL_TYPE_POD 11u
#define RVHAL_TYPE_COUNT 12u

static inline const char *rvhal_type_name(uint32_t t) {
  static const char *const names[RVHAL_TYPE_COUNT] = {"?",   "i8",  "u8",  "i16", "u16", "i32",
                                                      "u32", "i64", "u64", "f32", "f64", "pod"};
  return t < RVHAL_TYPE_COUNT ? names[t] : "?";
}
static inline int rvhal_type_is_int(uint32_t t) { return t >= RVHAL_TYPE_I8 && t <= RVHAL_TYPE_U64; }
static inline int rvhal_type_is_float(uint32_t t) { return t == RVHAL_TYPE_F32 || t == RVHAL_TYPE_F64; }

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

/* An OpenCL C kernel (rvhal cc) also emits <entry>__rvhal_opencl: what
 * clGetKernelArgInfo reports beyond the declared type and name (those are
 * in <entry>__rvhal_args, as clang's !kernel_arg_type and !kernel_arg_name).
 * The entry is named after the __kernel function. Per argument: address
 * space (0 private, 1 global, 2 constant, 3 local, as clang numbers them),
 * type qualifiers (1 const, 2 restrict, 4 volatile), access qualifier.
 * Version 2 adds the kernel's attributes: reqd_work_group_size (all 0 when
 * absent), work_group_size_hint, and the attribute text CL_KERNEL_ATTRIBUTES
 * reports. (The bytes of __local variables are the ELF's PT_TLS size.) */
#define RVHAL_OPENCL_META_MAGIC 0x4C43434Fu /* "OCCL" */
#define RVHAL_OPENCL_META_VERSION 2
#define RVHAL_OPENCL_META_SUFFIX "__rvhal_opencl"
#define RVHAL_OPENCL_ATTRIBUTES_MAX 160 /* bytes of attribute text, with its NUL */

typedef struct rvhal_opencl_meta {
  uint32_t magic;    /* RVHAL_OPENCL_META_MAGIC */
  uint32_t version;  /* RVHAL_OPENCL_META_VERSION */
  uint32_t num_args; /* as the kernel's rvhal_kernel_meta_t */
  uint32_t reserved;
  uint8_t address_space[RVHAL_META_MAX_ARGS];
  uint8_t type_qualifiers[RVHAL_META_MAX_ARGS];
  uint8_t access_qualifier[RVHAL_META_MAX_ARGS];
  uint32_t reqd_work_group_size[3]; /* __attribute__((reqd_work_group_size(x, y, z))); 0 0 0 if none */
  uint32_t work_group_size_hint[3]; /* __attribute__((work_group_size_hint(x, y, z))); 0 0 0 if none */
  char attributes[RVHAL_OPENCL_ATTRIBUTES_MAX]; /* NUL-terminated, e.g. "reqd_work_group_size(4,1,1)" */
} rvhal_opencl_meta_t;

RVHAL_STATIC_ASSERT(offsetof(rvhal_opencl_meta_t, address_space) == 16, "opencl meta layout");
RVHAL_STATIC_ASSERT(offsetof(rvhal_opencl_meta_t, type_qualifiers) == 16 + RVHAL_META_MAX_ARGS, "opencl meta layout");
RVHAL_STATIC_ASSERT(offsetof(rvhal_opencl_meta_t, access_qualifier) == 16 + 2 * RVHAL_META_MAX_ARGS,
                    "opencl meta layout");
RVHAL_STATIC_ASSERT(offsetof(rvhal_opencl_meta_t, reqd_work_group_size) == 16 + 3 * RVHAL_META_MAX_ARGS,
                    "opencl meta layout");
RVHAL_STATIC_ASSERT(offsetof(rvhal_opencl_meta_t, work_group_size_hint) == 28 + 3 * RVHAL_META_MAX_ARGS,
                    "opencl meta layout");
RVHAL_STATIC_ASSERT(offsetof(rvhal_opencl_meta_t, attributes) == 40 + 3 * RVHAL_META_MAX_ARGS, "opencl meta layout");
RVHAL_STATIC_ASSERT(sizeof(rvhal_opencl_meta_t) == 40 + 3 * RVHAL_META_MAX_ARGS + RVHAL_OPENCL_ATTRIBUTES_MAX,
                    "opencl meta layout");

#endif /* RVHAL_ABI_KERNEL_META_H */

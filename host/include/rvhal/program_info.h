/* What a kernel ELF declares, read without a device: its kernels (the
 * entries the SDK's RVHAL_KERNEL_ENTRY or RVHAL_KERNEL made) and their
 * arguments. `rvhal kernels ELF` prints this. */
#ifndef RVHAL_PROGRAM_INFO_H
#define RVHAL_PROGRAM_INFO_H

#include <stdint.h>

#include "rvhal/hal_types.h"
#include "rvhal/rvhal_kernel_meta.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* what librvhal exports: host/librvhal.map */

typedef struct rvhal_kernel_arg_info {
  uint32_t kind;         /* RVHAL_ARG_KIND_GLOBAL, _LOCAL or _VALUE */
  uint32_t type;         /* a value's RVHAL_TYPE_* (RVHAL_TYPE_UNKNOWN for buffers and untyped kernels) */
  uint32_t size;         /* bytes of the kernel's struct member */
  uint32_t offset;       /* of that member in the kernel's argument struct */
  const char *type_name; /* as declared, e.g. "global const float *"; NULL if the kernel did not record it */
  const char *name;      /* the parameter's name; NULL if not recorded */
  uint32_t address_space;   /* RVHAL_ADDRESS_* (OpenCL's numbering, as clang's !kernel_arg_addr_space) */
  uint32_t type_qualifiers; /* RVHAL_TYPE_QUAL_* bits; 0 if not recorded */
  uint32_t access_qualifier; /* RVHAL_ACCESS_*; RVHAL_ACCESS_NONE for everything but images */
} rvhal_kernel_arg_info_t;

#define RVHAL_ADDRESS_PRIVATE 0u /* a value */
#define RVHAL_ADDRESS_GLOBAL 1u
#define RVHAL_ADDRESS_CONSTANT 2u
#define RVHAL_ADDRESS_LOCAL 3u
#define RVHAL_TYPE_QUAL_CONST 1u
#define RVHAL_TYPE_QUAL_RESTRICT 2u
#define RVHAL_TYPE_QUAL_VOLATILE 4u
#define RVHAL_ACCESS_NONE 0u
#define RVHAL_ACCESS_READ_ONLY 1u  /* an image argument's access qualifier (clang's !kernel_arg_access_qual) */
#define RVHAL_ACCESS_WRITE_ONLY 2u
#define RVHAL_ACCESS_READ_WRITE 3u

#define RVHAL_KERNEL_LANG_C 0u      /* the C SDK (RVHAL_KERNEL_ENTRY) */
#define RVHAL_KERNEL_LANG_OPENCL 1u /* OpenCL C (rvhal cc) */

typedef struct rvhal_kernel_info {
  const char *name;      /* the entry point to pass to rvhal_program_find_kernel */
  uint32_t meta_version; /* RVHAL_META_VERSION it was built with */
  uint32_t args_size;    /* sizeof its argument struct */
  uint32_t num_args;
  const rvhal_kernel_arg_info_t *args;
  uint32_t language;       /* RVHAL_KERNEL_LANG_* */
  const char *source_name; /* the kernel's name in its source (the OpenCL __kernel function); NULL if as name */
  /* OpenCL C kernels' attributes (0 / NULL for C SDK kernels): */
  uint32_t reqd_work_group_size[3]; /* reqd_work_group_size(x, y, z); 0 0 0 if the kernel has none */
  uint32_t work_group_size_hint[3]; /* work_group_size_hint(x, y, z); 0 0 0 if none */
  uint32_t local_vars_size;         /* bytes of __local variables each work-group gets (the ELF's PT_TLS size) */
  const char *attributes;           /* the kernel's attributes as source text ("" if none); NULL for C kernels */
} rvhal_kernel_info_t;

typedef struct rvhal_program_info {
  uint32_t word_size; /* 4 (RV32) or 8 (RV64) */
  uint32_t num_kernels;
  const rvhal_kernel_info_t *kernels;
} rvhal_program_info_t;

/* Reads the kernels an ELF file's bytes declare. RVHAL_BAD_ELF if it is no
 * RISC-V executable or its metadata is damaged. Free with
 * rvhal_program_info_free. */
int rvhal_program_info_read(const void *elf, hal_size_t size, rvhal_program_info_t **out_info);
void rvhal_program_info_free(rvhal_program_info_t *info);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif /* RVHAL_PROGRAM_INFO_H */

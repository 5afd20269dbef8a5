/* The LLVM IR text clang emits for an OpenCL C program, made compilable by
 * the RISC-V back end and runnable by the SDK (docs/kernels.md, "How an
 * OpenCL C kernel is built"):
 *   - kernels lose the spir_kernel calling convention and are renamed
 *     __rvhal_clk_NAME (the entry the generator writes is NAME);
 *   - every function that needs the work-item's state (work-item functions,
 *     barrier, async copies, printf), directly or through a callee, takes it
 *     as a hidden first parameter (ptr %__rvhal_e); those built-ins become
 *     calls of __rvhal_cl_<mangled name> that the SDK defines inline;
 *   - __local variables become local-exec TLS (the SDK's per-group block on
 *     the leading hart's stack); address spaces are dropped (one memory).
 * And what the entry generator needs: each kernel's parameters. */
#ifndef RVHAL_OPENCL_IR_H
#define RVHAL_OPENCL_IR_H

#include <stddef.h>
#include <stdint.h>

#include "rvhal/rvhal_kernel_meta.h"

typedef struct cl_param {
  char ir_type[256];    /* the IR type of the parameter ("ptr", "<4 x float>", "%struct.S") */
  char ir_param[320];   /* the parameter as the kernel declares it, without its name */
  int byval;            /* passed as ptr byval(<ir_type>) */
  uint32_t address_space; /* RVHAL_ADDRESS_* */
  uint32_t kind;        /* RVHAL_ARG_KIND_* */
  uint32_t value_type;  /* RVHAL_TYPE_* of a value */
  uint32_t size, align; /* of the packed value (pointers and local sizes: a word) */
  uint32_t offset;      /* in the packed argument block */
  uint32_t type_qual;   /* RVHAL_TYPE_QUAL_* */
  uint32_t access_qual; /* RVHAL_ACCESS_* */
  char type_name[128];  /* !kernel_arg_type */
  char name[128];       /* !kernel_arg_name */
} cl_param_t;

#define RVHAL_CL_KERNEL_NAME_MAX 4096 /* bytes with the NUL; the CTS tries names of 2048 */

typedef struct cl_kernel {
  char name[RVHAL_CL_KERNEL_NAME_MAX];
  char attrs[16]; /* the kernel's attribute group ("#0"): its item function gets the same target features */
  uint32_t num_params;
  cl_param_t params[RVHAL_META_MAX_ARGS];
  uint32_t args_size; /* the packed block, rounded to its largest alignment */
  uint32_t reqd_work_group_size[3]; /* !reqd_work_group_size; 0 0 0 if none */
  uint32_t work_group_size_hint[3]; /* !work_group_size_hint; 0 0 0 if none */
  char attributes[RVHAL_OPENCL_ATTRIBUTES_MAX]; /* as CL_KERNEL_ATTRIBUTES reports them */
} cl_kernel_t;

typedef struct cl_program_ir {
  char *text; /* the rewritten module */
  size_t text_len;
  uint32_t num_kernels;
  cl_kernel_t *kernels;
} cl_program_ir_t;

/* The names of the module's kernels (its spir_kernel definitions),
 * comma-separated ("" if none), for opt's -internalize-public-api-list.
 * malloc'd; NULL when out of host memory. */
char *rvhal_cl_ir_kernel_list(const char *ir);

/* Rewrites `ir` (NUL-terminated) for a device of `word` bytes (4 or 8).
 * On an unsupported feature or a damaged module returns RVHAL_BUILD_FAILED
 * with a message in err; a refused built-in (images, pipes, device-side
 * enqueue) counts only where a kernel's calls reach it, and is named with
 * that kernel. */
int rvhal_cl_ir_rewrite(const char *ir, uint32_t word, cl_program_ir_t *out, char *err, size_t err_cap);
void rvhal_cl_ir_free(cl_program_ir_t *p);

/* The IR for each kernel's item function NAME__rvhal_item_on(ptr args, ptr e)
 * (loads each argument from the packed block, calls the kernel) appended to
 * p->text, and the C source of the entries and their metadata, which
 * includes rvhal_opencl_entry.h. Both malloc'd. */
int rvhal_cl_entries(const cl_program_ir_t *p, uint32_t word, char **out_ir_tail, char **out_c);

#endif /* RVHAL_OPENCL_IR_H */

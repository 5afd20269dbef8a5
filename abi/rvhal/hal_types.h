/* Basic HAL types (the oneAPI Construction Kit HAL, "Basic Types"): shared by host, firmware and
 * kernels. Every type is 64 bits wide so one host build serves RV32 and RV64
 * devices; on RV32 the high half of addresses and sizes is always zero. */
#ifndef RVHAL_ABI_HAL_TYPES_H
#define RVHAL_ABI_HAL_TYPES_H

#include <stdint.h>

typedef uint64_t hal_addr_t;    /* a device-side address */
typedef uint64_t hal_size_t;    /* a device-side size in bytes */
typedef uint64_t hal_word_t;    /* a device-side value */
typedef uint64_t hal_program_t; /* handle of a loaded program */
typedef uint64_t hal_kernel_t;  /* handle of a kernel within a program */

enum {
  hal_nullptr = 0,
  hal_invalid_program = 0,
  hal_invalid_kernel = 0,
};

/* The ND-range of a launch, with OpenCL meanings. */
typedef struct hal_ndrange_t {
  hal_size_t offset[3];
  hal_size_t global[3];
  hal_size_t local[3];
} hal_ndrange_t;

typedef enum hal_arg_kind_t {
  hal_arg_address = 0,
  hal_arg_value = 1,
} hal_arg_kind_t;

typedef enum hal_addr_space_t {
  hal_space_local = 0,
  hal_space_global = 1,
} hal_addr_space_t;

/* One kernel argument descriptor. Global buffers: kind=address,
 * space=global, address=device address. Local buffers: kind=address,
 * space=local, size=bytes to reserve. POD values: kind=value, size=bytes,
 * pod_data=host pointer to the bytes. */
typedef struct hal_arg_t {
  hal_arg_kind_t kind;
  hal_addr_space_t space;
  hal_size_t size;
  union {
    hal_addr_t address;
    const void *pod_data;
  };
} hal_arg_t;

#endif /* RVHAL_ABI_HAL_TYPES_H */

/* What the OpenCL C compiler runs and links with: clang and the LLVM tools
 * of its version, the RISC-V GCC driver (linker, picolibc), and the kernel
 * SDK of one kernel set (install_paths.c finds it). */
#ifndef RVHAL_OPENCL_SDK_H
#define RVHAL_OPENCL_SDK_H

#include <limits.h>
#include <stdint.h>

/* The extensions rvhal's devices support (clang -cl-ext): doubles, 64-bit
 * atomics (RV64 only: RV32 has no 64-bit AMOs), byte-addressable stores, and
 * the OpenCL C 3.0 features the device reports in CL_DEVICE_OPENCL_C_FEATURES
 * (host/opencl/device.c): a feature macro a kernel sees is one the API
 * reports, images among them (1D, 2D, 3D and arrays, 3D writes, read_write
 * images: the built-in library's image.cl). Off: pipes, device-side
 * enqueue, the generic address
 * space (the built-in library has the named-space overloads only: vload*,
 * fract, ...) and program-scope global variables (the device reports
 * CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE 0). */
#define RVHAL_OPENCL_EXTENSIONS_RV64 RVHAL_OPENCL_EXTENSIONS_RV32 ",+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics"
#define RVHAL_OPENCL_EXTENSIONS_RV32                                                                     \
  "-cl-ext=-all,+cl_khr_fp64,+__opencl_c_fp64,"                                                          \
  "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"                            \
  "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics,+cl_khr_byte_addressable_store," \
  "+__opencl_c_named_address_space_builtins,+__opencl_c_atomic_order_seq_cst,+__opencl_c_atomic_scope_device," \
  "+__opencl_c_int64,+__opencl_c_images,+cl_khr_3d_image_writes,+__opencl_c_3d_image_writes,"                \
  "+__opencl_c_read_write_images"

/* OpenCL C 3.0 features clang's header leaves to the target (it defines
 * them itself only for SPIR): the memory scopes and orders the C11-style
 * atomics need, all of which rvhal's atomics (RISC-V AMOs) give, and which
 * the device reports (CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES). And
 * __OPENCL_VERSION__, the device's OpenCL version (CL_DEVICE_VERSION 3.0),
 * which clang leaves to the implementation. */
#define RVHAL_OPENCL_VERSION_MACRO "-D__OPENCL_VERSION__=300"
#define RVHAL_OPENCL_HEADER_FEATURES                                                      \
  "-D__opencl_c_atomic_scope_device=1", "-D__opencl_c_atomic_scope_all_devices=1",       \
      "-D__opencl_c_atomic_order_acq_rel=1", "-D__opencl_c_atomic_order_seq_cst=1", "-D__IMAGE_SUPPORT__=1",   \
      RVHAL_OPENCL_VERSION_MACRO

typedef struct rvhal_opencl_sdk {
  char clang[PATH_MAX], llvm_link[PATH_MAX], opt[PATH_MAX], llc[PATH_MAX], gcc[PATH_MAX];
  char sdk_include[PATH_MAX], abi_include[PATH_MAX];
  char kernel_lib[PATH_MAX + 32], opencl_lib[PATH_MAX + 32], linker_script[PATH_MAX + 32];
  char opencl_bc[PATH_MAX + 32]; /* the built-in library as bitcode, linked into the program's module */
  char llvm_server[PATH_MAX];    /* llvm_server.h's program; "" when there is none */
} rvhal_opencl_sdk_t;

/* The tools and kernel set `set` ("rv64", "rv64-lp64": rvhal_kernel_set_name);
 * RVHAL_MISSING_TOOL naming what is missing and how to install it. */
int rvhal_opencl_sdk_find(const char *set, rvhal_opencl_sdk_t *out);

/* install_paths.c: RVHAL_OK, or RVHAL_MISSING_TOOL naming what is missing. */
int rvhal_kernel_sdk_paths(const char *set, char lib_dir[PATH_MAX], char ld_dir[PATH_MAX], char opencl_dir[PATH_MAX],
                           char sdk_inc[PATH_MAX], char abi_inc[PATH_MAX]);

/* install_paths.c: the LLVM process (llvm_server.h) into out; 0 when there is none. */
int rvhal_llvm_server_exe(char out[PATH_MAX]);

#endif /* RVHAL_OPENCL_SDK_H */

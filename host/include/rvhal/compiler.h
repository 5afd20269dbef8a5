/* Compiling OpenCL C into a kernel ELF for a device: what `rvhal cc`,
 * rvhal_add_kernel(NAME FILE.cl) and the OpenCL platform's clBuildProgram
 * share. The ELF is the kind rvhal_program_load takes: same launch path,
 * same typed metadata, same checks at every launch. */
#ifndef RVHAL_COMPILER_H
#define RVHAL_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* what librvhal exports: host/librvhal.map */

typedef struct rvhal_opencl_compile_desc {
  const char *source;      /* OpenCL C text */
  size_t source_size;      /* bytes of source; 0: strlen(source) */
  const char *source_name; /* named in diagnostics ("vadd.cl"); NULL: "<source>" */
  const char *options;     /* clBuildProgram's option string (-D, -I, -cl-std=, -cl-*); NULL: none */
  uint32_t xlen;           /* 32 or 64 */
  const char *isa;         /* the device's ISA ("rv64imafdc"); NULL: the SDK's default for xlen */
} rvhal_opencl_compile_desc_t;

/* Compiles desc->source. On success *out_elf (free() it) and *out_elf_size
 * hold the kernel ELF. *out_log, if out_log is not NULL, receives the
 * compiler's diagnostics (free() it; NULL when there were none), on failure
 * too. Returns RVHAL_BUILD_FAILED for an error in the source (the log has
 * clang's message with file and line), RVHAL_MISSING_TOOL when clang or the
 * device libraries are not installed, RVHAL_INVALID_ARGUMENT for a bad
 * option or xlen; rvhal_last_error() says which. */
int rvhal_opencl_compile(const rvhal_opencl_compile_desc_t *desc, void **out_elf, size_t *out_elf_size,
                         char **out_log);

/* Compiles desc->source (clCompileProgram) into an object: the LLVM IR
 * (text, NUL-terminated; free() it) of a translation unit, which may call
 * functions and use variables other objects define and need not have a
 * kernel. Errors as rvhal_opencl_compile's (a build failure is clang's). */
int rvhal_opencl_compile_object(const rvhal_opencl_compile_desc_t *desc, char **out_ir, size_t *out_ir_size,
                                char **out_log);

/* Links num_objects objects of rvhal_opencl_compile_object (IR text,
 * object_sizes[i] bytes each; NULL sizes: NUL-terminated) into a kernel ELF
 * as rvhal_opencl_compile builds one (clLinkProgram). desc gives xlen, isa
 * and the name in diagnostics; its source and options are not used (each
 * object was compiled with its own). A symbol two objects define is a
 * RVHAL_BUILD_FAILED naming it in the log. */
int rvhal_opencl_link(const rvhal_opencl_compile_desc_t *desc, const char *const *objects, const size_t *object_sizes,
                      uint32_t num_objects, void **out_elf, size_t *out_elf_size, char **out_log);

/* Folds into *inout_hash (FNV-1a) what rvhal_opencl_compile's output for
 * desc depends on beside desc's own fields: the kernel SDK for its ISA
 * (headers, libraries, linker script) and the compilers, each by path,
 * size and modification time. For a cache of compiled kernels: a rebuilt
 * SDK or compiler changes the hash. RVHAL_OK, or rvhal_opencl_compile's
 * errors for a bad xlen or ISA or a missing tool. */
int rvhal_opencl_compile_stamp(const rvhal_opencl_compile_desc_t *desc, uint64_t *inout_hash);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif /* RVHAL_COMPILER_H */

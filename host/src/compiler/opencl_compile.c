/* rvhal_opencl_compile: OpenCL C to a kernel ELF (placeholder until the
 * compiler lands: it refuses every call with RVHAL_UNSUPPORTED). */
#include "base/internal.h"
#include "rvhal/compiler.h"

int rvhal_opencl_compile(const rvhal_opencl_compile_desc_t *desc, void **out_elf, size_t *out_elf_size,
                         char **out_log) {
  (void)desc;
  if (out_elf) *out_elf = NULL;
  if (out_elf_size) *out_elf_size = 0;
  if (out_log) *out_log = NULL;
  return rvhal_error(RVHAL_UNSUPPORTED, "opencl_compile: this rvhal has no OpenCL C compiler");
}

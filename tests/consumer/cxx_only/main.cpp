// The embedded kernel's bytes are the ELF of stencil.c: its one kernel,
// "stencil_entry", with the four arguments stencil.c declares (no device needed).
#include <cstdio>
#include <cstring>

#include "rvhal/rvhal.h"
#include "stencil_kernel.h"

int main() {
  rvhal_program_info_t *info = nullptr;
  if (rvhal_program_info_read(stencil_elf, stencil_elf_size, &info) != RVHAL_OK) {
    std::printf("FAIL: the embedded %zu bytes are no kernel ELF: %s\n", stencil_elf_size, rvhal_last_error());
    return 1;
  }
  int ok = info->word_size == 8 && info->num_kernels == 1 && !std::strcmp(info->kernels[0].name, "stencil_entry") &&
           info->kernels[0].num_args == 4;
  std::printf("%s: embedded kernel of %zu bytes: RV%u, %u kernel(s), first \"%s\" with %u arguments\n",
              ok ? "ok" : "FAIL", stencil_elf_size, info->word_size * 8, info->num_kernels,
              info->num_kernels ? info->kernels[0].name : "", info->num_kernels ? info->kernels[0].num_args : 0);
  rvhal_program_info_free(info);
  return ok ? 0 : 1;
}

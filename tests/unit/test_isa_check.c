/* Kernel ISA against device ISA (host/src/base/isa_check.c): the
 * .riscv.attributes strings GCC and clang write, against the ISAs the
 * boards declare. */
#include <string.h>

#include "check.h"
#include "base/isa_check.h"

static void runs(const char *kernel, const char *device) {
  char lacks[40];
  CHECK_MSG(rvhal_isa_check(kernel, device, lacks, sizeof lacks) == 0, "%s on %s: lacks '%s'", kernel, device, lacks);
}

static void refused(const char *kernel, const char *device, const char *want) {
  char lacks[40] = "";
  CHECK_MSG(rvhal_isa_check(kernel, device, lacks, sizeof lacks) == -1 && !strcmp(lacks, want),
            "%s on %s: lacks '%s', expected '%s'", kernel, device, lacks, want);
}

int main(void) {
  const char *gcc = "rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zmmul1p0"; /* GCC 12, -march=rv64imafdc */
  runs(gcc, "rv64imafdc");
  runs(gcc, "rv64gc");
  runs(gcc, "rv64imafdcv");
  refused(gcc, "rv64imac", "fd");
  refused(gcc, "rv32imafdc", "rv64");
  runs("rv64imac", "rv64imafdc");
  runs("rv32i2p1_m2p0_a2p1_c2p0", "rv32imac");
  refused("rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_v1p0_zicsr2p0_zve32f1p0_zve64d1p0_zvl128b1p0", "rv64imafdc", "v");
  refused("rv64i2p1_zve32x1p0", "rv64imac", "v"); /* a vector subset needs v */
  runs("rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_v1p0_zve64d1p0_zvl512b1p0", "rv64imafdcv");
  refused("rv64gcv", "rv64imafdc", "v");
  char lacks[40];
  CHECK(rvhal_isa_check("x86_64", "rv64imafdc", lacks, sizeof lacks) == -1);
  CHECK(rvhal_isa_check("rv64", "rv64imafdc", lacks, sizeof lacks) == -1);
  char letters[32];
  unsigned xlen = 0;
  CHECK(rvhal_isa_letters("rv64gcv", &xlen, letters, sizeof letters) == 0 && xlen == 64 &&
        !strcmp(letters, "imafdcv"));
  /* The kernel ABI a device takes, from its ISA; a kernel's, from e_flags. */
  CHECK(!strcmp(rvhal_isa_kernel_abi("rv64imafdc"), "lp64d"));
  CHECK(!strcmp(rvhal_isa_kernel_abi("rv64gcv"), "lp64d"));
  CHECK(!strcmp(rvhal_isa_kernel_abi("rv64imac"), "lp64"));
  CHECK(!strcmp(rvhal_isa_kernel_abi("rv32imafc"), "ilp32f"));
  CHECK(!strcmp(rvhal_isa_kernel_abi("rv32imac"), "ilp32"));
  CHECK(rvhal_isa_kernel_abi("rv64") == NULL && rvhal_isa_kernel_abi("arm64") == NULL);
  CHECK(!strcmp(rvhal_elf_float_abi(64, 0x5), "lp64d")); /* EF_RISCV_RVC | EF_RISCV_FLOAT_ABI_DOUBLE */
  CHECK(!strcmp(rvhal_elf_float_abi(64, 0x1), "lp64"));
  CHECK(!strcmp(rvhal_elf_float_abi(32, 0x3), "ilp32f"));
  CHECK(!strcmp(rvhal_elf_float_abi(32, 0x10), "ilp32")); /* EF_RISCV_RVE etc. are not float ABI bits */
  return check_result("isa_check");
}

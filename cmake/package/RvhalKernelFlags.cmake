# The flags every rvhal kernel is built with, defined once here and used by
# the build tree (cmake/RvhalDevice.cmake, whose toolchain files add the
# same arch and target flags), the installed CMake package
# (RvhalKernelSdk.cmake, RvhalAddKernel.cmake) and rvhal.pc
# (cmake/RvhalInstall.cmake). install.kernel_flags compares the three.
# No include_guard: the variables are per directory scope, and both
# host/CMakeLists.txt and RvhalInstall.cmake (top level) include this.

# A fixed stack frame may be at most half the guard below each hart's stack
# (RVHAL_STACK_GUARD, 64 KiB): GCC 12 does not probe fixed frames on RISC-V,
# so a larger one could jump the guard. docs/kernels.md, "Stack".
set(RVHAL_KERNEL_FRAME_MAX 32768)

set(RVHAL_KERNEL_ARCH_FLAGS_RV64 -march=rv64imafdc -mabi=lp64d)
set(RVHAL_KERNEL_ARCH_FLAGS_RV32 -march=rv32imafdc -mabi=ilp32d)
# Bare metal, code anywhere in RAM, picolibc; ISA spec 2.2 (Zicsr and
# Zifencei part of I, so multilib selection works).
set(RVHAL_KERNEL_TARGET_FLAGS -misa-spec=2.2 -mcmodel=medany --specs=picolibc.specs)
# What a kernel needs to run under rvhal's firmware, and its protections:
# no gp relaxation (the firmware owns gp), local-exec TLS (__local_variable
# storage is addressed from tp), variable-sized frames (VLAs, alloca) that
# touch every 4 KiB page on their way down (stack-clash protection) so the
# first page past the stack is a store into the guard, and fixed frames
# limited at compile time.
set(RVHAL_KERNEL_REQUIRED_FLAGS -mno-relax -ftls-model=local-exec -fno-common -fstack-clash-protection
    -Werror=frame-larger-than=${RVHAL_KERNEL_FRAME_MAX})
# Defaults a project may add to (rvhal_add_kernel COMPILE_OPTIONS).
set(RVHAL_KERNEL_DEFAULT_FLAGS -O2 -g -Wall -Wextra)
# Linking: no relaxation, no start files, and no section garbage collection
# (picolibc.specs turns it on; kernels have no single entry, keep all).
set(RVHAL_KERNEL_LINK_FLAGS -Wl,--no-relax -nostartfiles -Wl,--no-gc-sections)

# rvhal_kernel_compile_flags(<out> <xlen>): the whole compile flag set.
function(rvhal_kernel_compile_flags out xlen)
  set(${out} ${RVHAL_KERNEL_ARCH_FLAGS_RV${xlen}} ${RVHAL_KERNEL_TARGET_FLAGS} ${RVHAL_KERNEL_DEFAULT_FLAGS}
      ${RVHAL_KERNEL_REQUIRED_FLAGS} PARENT_SCOPE)
endfunction()

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

# One kernel set per ABI (docs/kernels.md, "Soft-float"): a device takes
# kernels of the ABI its ISA gives (D: lp64d/ilp32d; neither F nor D:
# soft-float lp64/ilp32; F only would be lp64f/ilp32f, which the SDK does
# not support; `rvhal info` says "Kernel ABI"), and the
# host refuses any other. The hard-float sets are "rv64" and "rv32"; the
# others "rv<xlen>-<abi>" (build tree device-rv64-lp64/, install
# lib/rvhal/rv64-lp64/). Without F/D, float and double are libgcc's
# soft-float routines.
set(RVHAL_KERNEL_ARCH_FLAGS_LP64D -march=rv64imafdc -mabi=lp64d)
set(RVHAL_KERNEL_ARCH_FLAGS_LP64 -march=rv64imac -mabi=lp64)
set(RVHAL_KERNEL_ARCH_FLAGS_ILP32D -march=rv32imafdc -mabi=ilp32d)
set(RVHAL_KERNEL_ARCH_FLAGS_ILP32 -march=rv32imac -mabi=ilp32)
set(RVHAL_KERNEL_ARCH_FLAGS_RV64 ${RVHAL_KERNEL_ARCH_FLAGS_LP64D})
set(RVHAL_KERNEL_ARCH_FLAGS_RV32 ${RVHAL_KERNEL_ARCH_FLAGS_ILP32D})

# rvhal_kernel_set(<abi> <out_xlen> <out_set>): the XLEN of ABI "lp64"...
# and the name of its kernel set ("rv64", "rv64-lp64"); FATAL_ERROR for an
# ABI with no set.
function(rvhal_kernel_set abi out_xlen out_set)
  string(TOUPPER "${abi}" up)
  if(NOT DEFINED RVHAL_KERNEL_ARCH_FLAGS_${up} OR up MATCHES "^RV")
    message(FATAL_ERROR "rvhal: kernel ABI \"${abi}\": expected lp64d, lp64, ilp32d or ilp32 (harts with F but not D have no kernel set)")
  endif()
  set(xlen 64)
  if(abi MATCHES "^ilp32")
    set(xlen 32)
  endif()
  set(set rv${xlen}-${abi})
  if(abi MATCHES "d$")
    set(set rv${xlen})
  endif()
  set(${out_xlen} ${xlen} PARENT_SCOPE)
  set(${out_set} ${set} PARENT_SCOPE)
endfunction()

# rvhal_kernel_set_abi(<set> <out_abi>): the ABI of kernel set "rv64",
# "rv64-lp64"... (the reverse of rvhal_kernel_set).
function(rvhal_kernel_set_abi set out_abi)
  if(set STREQUAL "rv64")
    set(abi lp64d)
  elseif(set STREQUAL "rv32")
    set(abi ilp32d)
  elseif(set MATCHES "^rv(32|64)-([a-z0-9]+)$")
    set(abi ${CMAKE_MATCH_2})
  else()
    message(FATAL_ERROR "rvhal: \"${set}\" is not a kernel set (rv64, rv32, rv64-lp64, rv32-ilp32)")
  endif()
  set(${out_abi} ${abi} PARENT_SCOPE)
endfunction()

# rvhal_isa_kernel_abi(<isa> <out_abi>): the kernel ABI of harts with ISA
# "rv64imac" (lp64), as the host computes it (host/src/base/isa_check.c).
function(rvhal_isa_kernel_abi isa out_abi)
  if(NOT isa MATCHES "^rv(32|64)([a-z]+)")
    message(FATAL_ERROR "rvhal: ISA \"${isa}\" is not rv32/rv64 and extension letters")
  endif()
  set(abi lp64)
  if(CMAKE_MATCH_1 EQUAL 32)
    set(abi ilp32)
  endif()
  string(REGEX REPLACE "_.*" "" letters "${CMAKE_MATCH_2}")
  if(letters MATCHES "[dg]")
    set(abi ${abi}d)
  elseif(letters MATCHES "f")
    set(abi ${abi}f)
  endif()
  set(${out_abi} ${abi} PARENT_SCOPE)
endfunction()
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

# rvhal_kernel_compile_flags(<out> <xlen> [<abi>]): the whole compile flag
# set of the hard-float set of <xlen>, or of ABI <abi>'s.
function(rvhal_kernel_compile_flags out xlen)
  set(arch ${RVHAL_KERNEL_ARCH_FLAGS_RV${xlen}})
  if(ARGC GREATER 2)
    string(TOUPPER "${ARGV2}" up)
    set(arch ${RVHAL_KERNEL_ARCH_FLAGS_${up}})
  endif()
  set(${out} ${arch} ${RVHAL_KERNEL_TARGET_FLAGS} ${RVHAL_KERNEL_DEFAULT_FLAGS}
      ${RVHAL_KERNEL_REQUIRED_FLAGS} PARENT_SCOPE)
endfunction()

# Toolchain file for rvhal's RV64 device parts (firmware, kernel SDK,
# kernels): bare metal, RV64GC, picolibc. Use with
#   cmake -DCMAKE_TOOLCHAIN_FILE=cmake/riscv64-unknown-elf.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(RVHAL_CROSS_PREFIX riscv64-unknown-elf- CACHE STRING "Cross toolchain prefix")
set(CMAKE_C_COMPILER ${RVHAL_CROSS_PREFIX}gcc)
set(CMAKE_ASM_COMPILER ${RVHAL_CROSS_PREFIX}gcc)
set(CMAKE_OBJCOPY ${RVHAL_CROSS_PREFIX}objcopy CACHE FILEPATH "")
set(CMAKE_OBJDUMP ${RVHAL_CROSS_PREFIX}objdump CACHE FILEPATH "")

set(RVHAL_XLEN 64)
set(RVHAL_MARCH rv64imafdc CACHE STRING "ISA of the device build: every hart of every board built must run it")
set(RVHAL_MABI lp64d CACHE STRING "ABI of the device build's kernels (a soft-float kernel set: lp64)")
# ISA spec 2.2: Zicsr and Zifencei are part of I (and multilib selection works).

set(CMAKE_C_FLAGS_INIT "-march=${RVHAL_MARCH} -mabi=${RVHAL_MABI} -misa-spec=2.2 -mcmodel=medany --specs=picolibc.specs")
set(CMAKE_ASM_FLAGS_INIT "-march=${RVHAL_MARCH} -mabi=${RVHAL_MABI} -misa-spec=2.2 -mcmodel=medany")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles")

# No hosted C runtime: let try_compile build a library instead of a program.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)

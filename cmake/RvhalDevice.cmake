# Helpers for the device build (RVHAL_DEVICE_BUILD=ON).

# What the preprocessor needs to see the target's XLEN (__riscv_xlen).
set(RVHAL_DEVICE_ARCH_FLAGS -march=${RVHAL_MARCH} -mabi=${RVHAL_MABI})

# Linker scripts are C-preprocessed so their addresses come from the board
# header and abi/rvhal/rvhal_protocol.h, the one definition of the memory map.
function(rvhal_linker_script out_var template)
  get_filename_component(name ${template} NAME)
  string(REGEX REPLACE "\\.S$" "" name ${name})
  set(out ${CMAKE_BINARY_DIR}/linker/${name})
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/linker
    COMMAND ${CMAKE_C_COMPILER} -E -P -x assembler-with-cpp -I${RVHAL_SOURCE_DIR}/abi -I${RVHAL_BOARD_DIR}
            ${template} -o ${out}
    DEPENDS ${template} ${RVHAL_BOARD_DIR}/board.h ${RVHAL_SOURCE_DIR}/abi/rvhal/rvhal_protocol.h
            ${RVHAL_SOURCE_DIR}/abi/rvhal/rvhal_kernel_abi.h
    VERBATIM)
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()

# Kernel objects: the one kernel flag set (cmake/package/RvhalKernelFlags.cmake);
# the arch and target flags come from the toolchain file.
include(${RVHAL_SOURCE_DIR}/cmake/package/RvhalKernelFlags.cmake)
set(RVHAL_KERNEL_CFLAGS ${RVHAL_KERNEL_DEFAULT_FLAGS} ${RVHAL_KERNEL_REQUIRED_FLAGS})

# rvhal_add_kernel(<name> <source>...): builds kernels/<name>.elf, linked
# with the kernel SDK at the device's program area.
function(rvhal_add_kernel name)
  add_executable(${name} ${ARGN})
  set_target_properties(${name} PROPERTIES SUFFIX .elf RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/kernels)
  target_compile_options(${name} PRIVATE ${RVHAL_KERNEL_CFLAGS})
  target_link_libraries(${name} PRIVATE rvhal_kernel)
  target_link_options(${name} PRIVATE -T ${RVHAL_KERNEL_LD} ${RVHAL_KERNEL_LINK_FLAGS})
  set_target_properties(${name} PROPERTIES LINK_DEPENDS ${RVHAL_KERNEL_LD})
  add_dependencies(${name} rvhal-kernel-ld)
endfunction()

# rvhal_add_rvv_kernel(<name> <source>): a kernel using the RISC-V vector
# extension through clang-16's intrinsics (riscv_vector.h, __riscv_ names;
# GCC 12 has none), compiled for the device's ISA plus V and linked like
# any kernel. Its .riscv.attributes then name V, and the host refuses it on
# a device without vector harts. Skipped (with a message) without clang-16.
find_program(RVHAL_CLANG16 clang-16)
function(rvhal_add_rvv_kernel name src)
  if(NOT RVHAL_CLANG16)
    message(STATUS "rvhal: clang-16 not found: RVV kernel ${name} not built (scripts/setup.sh installs clang-16)")
    return()
  endif()
  if(NOT RVHAL_MABI MATCHES "d$") # V implies D (Zve64d) in clang: no RVV kernels in a soft-float set
    return()
  endif()
  string(REGEX MATCH "^rv(32|64)" xlen_prefix ${RVHAL_MARCH})
  string(REPLACE "rv" "riscv" triple_arch ${xlen_prefix})
  # clang spells GCC's -Werror=frame-larger-than=N in two flags
  string(REPLACE "-Werror=frame-larger-than=" "-Wframe-larger-than=" cflags "${RVHAL_KERNEL_CFLAGS}")
  set(obj ${CMAKE_CURRENT_BINARY_DIR}/${name}.rvv.o)
  add_custom_command(OUTPUT ${obj}
    COMMAND ${RVHAL_CLANG16} --target=${triple_arch}-unknown-elf -march=${RVHAL_MARCH}v -mabi=${RVHAL_MABI}
            -mcmodel=medany -ffreestanding ${cflags} -Werror=frame-larger-than -Wno-unused-command-line-argument
            -I${RVHAL_SOURCE_DIR}/sdk/include -I${RVHAL_SOURCE_DIR}/abi -MD -MF ${obj}.d -c ${src} -o ${obj}
    DEPENDS ${src} DEPFILE ${obj}.d VERBATIM) # the SDK's headers too: barrier() is inline
  set_source_files_properties(${obj} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  rvhal_add_kernel(${name} ${obj})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C) # its only source is an object
endfunction()

# rvhal::kernel_sdk_<set>: the kernel SDK of one kernel set (rv64, rv32,
# rv64_lp64 and rv32_ilp32 for soft-float; RvhalKernelFlags.cmake) as an imported
# library whose properties rvhal_add_kernel reads (and a project configured
# with a RISC-V toolchain file can link). Used by rvhalConfig.cmake for an
# install and by rvhal's own CMakeLists.txt for add_subdirectory(rvhal).
# Its compile options are the kernel flag set's required part
# (RvhalKernelFlags.cmake); rvhal_add_kernel adds the defaults.
include(${CMAKE_CURRENT_LIST_DIR}/RvhalKernelFlags.cmake)
function(_rvhal_kernel_sdk_target set lib ld includes)
  string(REPLACE "-" "_" tname rvhal::kernel_sdk_${set})
  if(TARGET ${tname})
    return()
  endif()
  rvhal_kernel_set_abi(${set} abi)
  string(TOUPPER ${abi} up)
  set(flags ${RVHAL_KERNEL_ARCH_FLAGS_${up}} ${RVHAL_KERNEL_TARGET_FLAGS})
  add_library(${tname} STATIC IMPORTED GLOBAL)
  set_target_properties(${tname} PROPERTIES
    IMPORTED_LOCATION ${lib}
    IMPORTED_LINK_INTERFACE_LANGUAGES C
    INTERFACE_INCLUDE_DIRECTORIES "${includes}"
    INTERFACE_COMPILE_OPTIONS "${flags};${RVHAL_KERNEL_REQUIRED_FLAGS}"
    INTERFACE_LINK_OPTIONS "${flags};-T;${ld};${RVHAL_KERNEL_LINK_FLAGS}"
    RVHAL_LINKER_SCRIPT ${ld})
  if(NOT TARGET rvhal::kernel_sdk AND set STREQUAL "rv64")
    add_library(rvhal::kernel_sdk INTERFACE IMPORTED GLOBAL)
    set_target_properties(rvhal::kernel_sdk PROPERTIES INTERFACE_LINK_LIBRARIES rvhal::kernel_sdk_rv64)
  endif()
endfunction()

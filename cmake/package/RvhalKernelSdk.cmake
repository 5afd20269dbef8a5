# rvhal::kernel_sdk_rv<xlen>: the kernel SDK of one XLEN as an imported
# library whose properties rvhal_add_kernel reads (and a project configured
# with a RISC-V toolchain file can link). Used by rvhalConfig.cmake for an
# install and by rvhal's own CMakeLists.txt for add_subdirectory(rvhal).
# Its compile options are the kernel flag set's required part
# (RvhalKernelFlags.cmake); rvhal_add_kernel adds the defaults.
include(${CMAKE_CURRENT_LIST_DIR}/RvhalKernelFlags.cmake)
function(_rvhal_kernel_sdk_target xlen lib ld includes)
  if(TARGET rvhal::kernel_sdk_rv${xlen})
    return()
  endif()
  set(flags ${RVHAL_KERNEL_ARCH_FLAGS_RV${xlen}} ${RVHAL_KERNEL_TARGET_FLAGS})
  add_library(rvhal::kernel_sdk_rv${xlen} STATIC IMPORTED GLOBAL)
  set_target_properties(rvhal::kernel_sdk_rv${xlen} PROPERTIES
    IMPORTED_LOCATION ${lib}
    IMPORTED_LINK_INTERFACE_LANGUAGES C
    INTERFACE_INCLUDE_DIRECTORIES "${includes}"
    INTERFACE_COMPILE_OPTIONS "${flags};${RVHAL_KERNEL_REQUIRED_FLAGS}"
    INTERFACE_LINK_OPTIONS "${flags};-T;${ld};${RVHAL_KERNEL_LINK_FLAGS}"
    RVHAL_LINKER_SCRIPT ${ld})
  if(NOT TARGET rvhal::kernel_sdk AND xlen EQUAL 64)
    add_library(rvhal::kernel_sdk INTERFACE IMPORTED GLOBAL)
    set_target_properties(rvhal::kernel_sdk PROPERTIES INTERFACE_LINK_LIBRARIES rvhal::kernel_sdk_rv64)
  endif()
endfunction()

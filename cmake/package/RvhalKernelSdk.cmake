# rvhal::kernel_sdk_rv<xlen>: the kernel SDK of one XLEN as an imported
# library whose properties rvhal_add_kernel reads (and a project configured
# with a RISC-V toolchain file can link). Used by rvhalConfig.cmake for an
# install and by rvhal's own CMakeLists.txt for add_subdirectory(rvhal).
function(_rvhal_kernel_sdk_target xlen lib ld includes)
  if(TARGET rvhal::kernel_sdk_rv${xlen})
    return()
  endif()
  if(xlen EQUAL 64)
    set(flags -march=rv64imafdc -mabi=lp64d)
  else()
    set(flags -march=rv32imafdc -mabi=ilp32d)
  endif()
  add_library(rvhal::kernel_sdk_rv${xlen} STATIC IMPORTED GLOBAL)
  set_target_properties(rvhal::kernel_sdk_rv${xlen} PROPERTIES
    IMPORTED_LOCATION ${lib}
    IMPORTED_LINK_INTERFACE_LANGUAGES C
    INTERFACE_INCLUDE_DIRECTORIES "${includes}"
    INTERFACE_COMPILE_OPTIONS "${flags};-misa-spec=2.2;-mcmodel=medany;--specs=picolibc.specs;-mno-relax;-ftls-model=local-exec;-fno-common"
    INTERFACE_LINK_OPTIONS "${flags};-misa-spec=2.2;-mcmodel=medany;--specs=picolibc.specs;-T;${ld};-Wl,--no-relax;-nostartfiles;-Wl,--no-gc-sections"
    RVHAL_LINKER_SCRIPT ${ld})
  if(NOT TARGET rvhal::kernel_sdk AND xlen EQUAL 64)
    add_library(rvhal::kernel_sdk INTERFACE IMPORTED GLOBAL)
    set_target_properties(rvhal::kernel_sdk PROPERTIES INTERFACE_LINK_LIBRARIES rvhal::kernel_sdk_rv64)
  endif()
endfunction()

# cmake --install: host library (shared and static), headers, CLI (host/),
# and here the device parts the external device builds made, the QEMU
# plugin, the package files for find_package(rvhal) and pkg-config, docs,
# and cpack's .deb and .tar.gz.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RVHAL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/rvhal)
set(RVHAL_INSTALL_SDK_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/rvhal/kernel)
set(RVHAL_KERNEL_FLAGS_RV64 -march=rv64imafdc -mabi=lp64d) # for rvhal.pc (RvhalKernelSdk.cmake for CMake)
set(RVHAL_KERNEL_FLAGS_RV32 -march=rv32imafdc -mabi=ilp32d)

foreach(xlen ${RVHAL_DEVICE_XLENS})
  set(dev ${CMAKE_BINARY_DIR}/device-rv${xlen})
  # Everything the device build puts in its firmware folder (images and
  # whatever describes them), not the CMake bookkeeping that shares it.
  install(DIRECTORY ${dev}/firmware/ DESTINATION ${RVHAL_INSTALL_DATADIR}/firmware/rv${xlen}
          PATTERN CMakeFiles EXCLUDE PATTERN "*.cmake" EXCLUDE PATTERN "*.ninja" EXCLUDE PATTERN Makefile EXCLUDE)
  # The kernel SDK for this XLEN: the runtime library and the linker script.
  install(FILES ${dev}/sdk/librvhal_kernel.a ${dev}/linker/kernel.ld
          DESTINATION ${RVHAL_INSTALL_PLUGINDIR}/rv${xlen})
  # The OpenCL C built-in library (sdk/opencl; built when clang-16 is there).
  install(FILES ${dev}/sdk/opencl/librvhal_opencl.a DESTINATION ${RVHAL_INSTALL_PLUGINDIR}/rv${xlen} OPTIONAL)
endforeach()
install(TARGETS rvhal-qemu-insn-counter LIBRARY DESTINATION ${RVHAL_INSTALL_PLUGINDIR})
install(DIRECTORY ${RVHAL_SOURCE_DIR}/sdk/include/ DESTINATION ${RVHAL_INSTALL_SDK_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES ${RVHAL_SOURCE_DIR}/cmake/riscv64-unknown-elf.cmake ${RVHAL_SOURCE_DIR}/cmake/riscv32-unknown-elf.cmake
        DESTINATION ${RVHAL_INSTALL_CMAKEDIR}/toolchains)
install(FILES ${RVHAL_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${RVHAL_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# (The kernel SDK targets and rvhal_add_kernel of this build tree:
# cmake/RvhalKernelTargets.cmake, included before tests/ and bench/ use them.)

# find_package(rvhal): targets, the kernel SDK per XLEN, rvhal_add_kernel().
install(EXPORT rvhalTargets NAMESPACE rvhal:: DESTINATION ${RVHAL_INSTALL_CMAKEDIR})
configure_package_config_file(${RVHAL_SOURCE_DIR}/cmake/package/rvhalConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/rvhalConfig.cmake
  INSTALL_DESTINATION ${RVHAL_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR RVHAL_INSTALL_SDK_INCLUDEDIR RVHAL_INSTALL_DATADIR RVHAL_INSTALL_PLUGINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/rvhalConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/rvhalConfig.cmake ${CMAKE_BINARY_DIR}/package/rvhalConfigVersion.cmake
              ${RVHAL_SOURCE_DIR}/cmake/package/RvhalAddKernel.cmake ${RVHAL_SOURCE_DIR}/cmake/package/RvhalKernelSdk.cmake
              ${RVHAL_SOURCE_DIR}/cmake/package/rvhal_embed.cmake
        DESTINATION ${RVHAL_INSTALL_CMAKEDIR})

# pkg-config: paths relative to the .pc file, so a moved install works.
file(RELATIVE_PATH RVHAL_PC_TO_PREFIX /_p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /_p)
string(REGEX REPLACE "/$" "" RVHAL_PC_TO_PREFIX "${RVHAL_PC_TO_PREFIX}")
list(JOIN RVHAL_KERNEL_FLAGS_RV64 " " RVHAL_PC_KFLAGS_RV64)
list(JOIN RVHAL_KERNEL_FLAGS_RV32 " " RVHAL_PC_KFLAGS_RV32)
configure_file(${RVHAL_SOURCE_DIR}/cmake/package/rvhal.pc.in ${CMAKE_BINARY_DIR}/package/rvhal.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/rvhal.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# cpack: a .deb and a .tar.gz of the same install.
set(CPACK_PACKAGE_NAME rvhal)
set(CPACK_PACKAGE_VENDOR "rvhal")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_PACKAGE_CONTACT "rvhal maintainers <rvhal@localhost>")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qemu-system-misc")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf, pkg-config, ocl-icd-libopencl1")
# The OpenCL platform registers itself in /etc/OpenCL/vendors (host/opencl).
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${RVHAL_SOURCE_DIR}/cmake/package/deb/postinst
                                       ${RVHAL_SOURCE_DIR}/cmake/package/deb/postrm)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_PACKAGE_FILE_NAME rvhal-${PROJECT_VERSION}-${CMAKE_SYSTEM_PROCESSOR})
include(CPack)

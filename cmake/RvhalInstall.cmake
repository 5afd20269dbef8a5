# cmake --install: host library (shared and static), headers, CLI (host/),
# and here the device parts the external device builds made, the QEMU
# plugin, the package files for find_package(rvhal) and pkg-config, docs,
# and cpack's .debs and .tar.gz. Each file belongs to a component, one per
# Debian package (RvhalPackage.cmake): lib (the shared library and what it
# loads at run time: firmware, QEMU plugin), sdk (the kernel SDK), dev
# (headers, static library, CMake and pkg-config files), tools (the rvhal
# tool, the OCK adapter, the OpenCL ICD, docs).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RVHAL_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/rvhal)
set(RVHAL_INSTALL_SDK_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/rvhal/kernel)
include(${RVHAL_SOURCE_DIR}/cmake/package/RvhalKernelFlags.cmake) # the kernel flags, for rvhal.pc too

foreach(xlen ${RVHAL_DEVICE_XLENS})
  # Everything the device build puts in its firmware folder (images and
  # whatever describes them), not the CMake bookkeeping that shares it.
  install(DIRECTORY ${CMAKE_BINARY_DIR}/device-rv${xlen}/firmware/ DESTINATION ${RVHAL_INSTALL_DATADIR}/firmware/rv${xlen}
          COMPONENT lib
          PATTERN CMakeFiles EXCLUDE PATTERN "*.cmake" EXCLUDE PATTERN "*.ninja" EXCLUDE PATTERN Makefile EXCLUDE)
endforeach()
# The kernel SDK (component sdk, its own Debian package: the OpenCL driver
# compiles with it, librvhal-dev's rvhal_add_kernel too): per kernel set
# (rv64, rv64-lp64, ...) the files of RVHAL_KERNEL_SDK_FILES (top-level
# CMakeLists.txt) in lib/rvhal/<set>/, and one include directory that holds
# everything a kernel includes: the SDK's headers and, under rvhal/, the ABI
# headers they include. Kernels get only that directory, never the
# install's include/ (at /usr that is the system's, whose glibc headers
# would hide picolibc's).
foreach(set ${RVHAL_KERNEL_SETS})
  foreach(f ${RVHAL_KERNEL_SDK_FILES})
    set(_optional)
    if(f IN_LIST RVHAL_KERNEL_SDK_OPENCL_FILES)
      set(_optional OPTIONAL)
    endif()
    install(FILES ${CMAKE_BINARY_DIR}/device-${set}/${f} DESTINATION ${RVHAL_INSTALL_PLUGINDIR}/${set}
            COMPONENT sdk ${_optional})
  endforeach()
endforeach()
install(TARGETS rvhal-qemu-insn-counter LIBRARY DESTINATION ${RVHAL_INSTALL_PLUGINDIR} COMPONENT lib)
install(DIRECTORY ${RVHAL_SOURCE_DIR}/sdk/include/ DESTINATION ${RVHAL_INSTALL_SDK_INCLUDEDIR} COMPONENT sdk
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${RVHAL_SOURCE_DIR}/abi/rvhal DESTINATION ${RVHAL_INSTALL_SDK_INCLUDEDIR} COMPONENT sdk
        FILES_MATCHING PATTERN "*.h")
install(FILES ${RVHAL_SOURCE_DIR}/cmake/riscv64-unknown-elf.cmake ${RVHAL_SOURCE_DIR}/cmake/riscv32-unknown-elf.cmake
        DESTINATION ${RVHAL_INSTALL_CMAKEDIR}/toolchains COMPONENT dev)
install(FILES ${RVHAL_SOURCE_DIR}/README.md ${RVHAL_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)
install(DIRECTORY ${RVHAL_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT tools)

# (The kernel SDK targets and rvhal_add_kernel of this build tree:
# cmake/RvhalKernelTargets.cmake, included before tests/ and bench/ use them.)

# find_package(rvhal): targets, the kernel SDK per XLEN, rvhal_add_kernel().
install(EXPORT rvhalTargets NAMESPACE rvhal:: DESTINATION ${RVHAL_INSTALL_CMAKEDIR} COMPONENT dev)
configure_package_config_file(${RVHAL_SOURCE_DIR}/cmake/package/rvhalConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/rvhalConfig.cmake
  INSTALL_DESTINATION ${RVHAL_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR RVHAL_INSTALL_SDK_INCLUDEDIR RVHAL_INSTALL_DATADIR RVHAL_INSTALL_PLUGINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/rvhalConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/rvhalConfig.cmake ${CMAKE_BINARY_DIR}/package/rvhalConfigVersion.cmake
              ${RVHAL_SOURCE_DIR}/cmake/package/RvhalAddKernel.cmake ${RVHAL_SOURCE_DIR}/cmake/package/RvhalKernelSdk.cmake
              ${RVHAL_SOURCE_DIR}/cmake/package/rvhal_embed.cmake ${RVHAL_SOURCE_DIR}/cmake/package/RvhalKernelFlags.cmake
        DESTINATION ${RVHAL_INSTALL_CMAKEDIR} COMPONENT dev)

# pkg-config: paths relative to the .pc file, so a moved install works.
file(RELATIVE_PATH RVHAL_PC_TO_PREFIX /_p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /_p)
string(REGEX REPLACE "/$" "" RVHAL_PC_TO_PREFIX "${RVHAL_PC_TO_PREFIX}")
foreach(xlen 64 32)
  rvhal_kernel_compile_flags(_kflags ${xlen})
  list(JOIN _kflags " " RVHAL_PC_KFLAGS_RV${xlen})
endforeach()
list(JOIN RVHAL_KERNEL_LINK_FLAGS " " RVHAL_PC_KLINK)
# The soft-float kernel sets this build has: kernel_cflags_rv64_lp64 ...
set(RVHAL_PC_SOFT_SETS "")
foreach(set ${RVHAL_KERNEL_SETS})
  if(set MATCHES "^rv(32|64)-(.*)$")
    rvhal_kernel_compile_flags(_kflags ${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
    list(JOIN _kflags " " _kflags)
    string(REPLACE "-" "_" _v ${set})
    string(APPEND RVHAL_PC_SOFT_SETS "kernel_cflags_${_v}=${_kflags} -I\${kernel_includedir}\n"
           "kernel_libs_${_v}=\${libdir}/rvhal/${set}/librvhal_kernel.a -T \${libdir}/rvhal/${set}/kernel.ld ${RVHAL_PC_KLINK}\n")
  endif()
endforeach()
configure_file(${RVHAL_SOURCE_DIR}/cmake/package/rvhal.pc.in ${CMAKE_BINARY_DIR}/package/rvhal.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/rvhal.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

# cpack: Debian packages and a .tar.gz of the same install (RvhalPackage.cmake).
include(${RVHAL_SOURCE_DIR}/cmake/RvhalPackage.cmake)

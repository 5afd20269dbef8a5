# cpack: four Debian packages split as Debian splits a library, and one
# .tar.gz of the whole install.
#   librvhal<SOVERSION>  the shared library and what it loads at run time
#                        (firmware images, the QEMU plugin)      component lib
#   rvhal-kernel-sdk     what compiling a kernel needs from rvhal: headers,
#                        runtime and OpenCL C built-in libraries,
#                        linker script per kernel set; Depends on the
#                        RISC-V GCC and picolibc                  component sdk
#   librvhal-dev         headers, static library, CMake package,
#                        rvhal.pc                                 component dev
#   rvhal                the rvhal tool, libhal_rvhal.so (OCK HAL adapter),
#                        the OpenCL ICD (it compiles OpenCL C: Depends on
#                        the SDK, clang-16, llvm-16), docs, and whatever
#                        an install rule puts in no component     component tools
# Each has its copyright (Apache-2.0, LICENSE) and changelog under
# /usr/share/doc/<package>/; Depends come from the binaries
# (dpkg-shlibdeps) plus what each runs or compiles with. install.packages
# builds them (tests/consumer/packages.sh); install.deb_lintian runs
# lintian on them (tests/consumer/deb_lintian.sh);
# install.deb_root installs them and compiles kernels from there
# (tests/consumer/deb_root.sh).
set(RVHAL_DEB_DIR ${RVHAL_SOURCE_DIR}/cmake/package/debian)
set(RVHAL_DEB_LIB librvhal${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}) # named after the SONAME
set(RVHAL_DEB_DEV librvhal-dev)
set(RVHAL_DEB_SDK rvhal-kernel-sdk) # host/src/base/install_paths.c names it when it is missing
set(RVHAL_DEB_TOOLS rvhal)
set(RVHAL_PACKAGE_MAINTAINER "rvhal maintainers <maintainers@users.noreply.a-seed-47797b56.example>"
    CACHE STRING "Maintainer of the Debian packages")

# Per package: /usr/share/doc/<package>/copyright and changelog.gz (gzip -9n:
# reproducible), only in component installs (cpack) except the tools
# package's, which is the plain install's doc directory.
set(_deb_gen ${CMAKE_BINARY_DIR}/package/debian)
file(MAKE_DIRECTORY ${_deb_gen})
execute_process(COMMAND gzip -9nc ${RVHAL_DEB_DIR}/changelog OUTPUT_FILE ${_deb_gen}/changelog.gz
                RESULT_VARIABLE _gz)
if(_gz)
  message(FATAL_ERROR "gzip of ${RVHAL_DEB_DIR}/changelog failed: ${_gz}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${RVHAL_DEB_DIR}/changelog)
foreach(c lib sdk dev tools)
  string(TOUPPER ${c} C)
  set(_all EXCLUDE_FROM_ALL)
  if(c STREQUAL tools)
    set(_all)
  endif()
  install(FILES ${RVHAL_DEB_DIR}/copyright ${_deb_gen}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${RVHAL_DEB_${C}} COMPONENT ${c} ${_all})
endforeach()
foreach(c lib tools) # what lintian reports that is meant so, and why (the files say)
  string(TOUPPER ${c} C)
  configure_file(${RVHAL_DEB_DIR}/lintian-overrides-${c}.in ${_deb_gen}/overrides/${RVHAL_DEB_${C}} @ONLY)
  install(FILES ${_deb_gen}/overrides/${RVHAL_DEB_${C}} DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides
          COMPONENT ${c} EXCLUDE_FROM_ALL)
endforeach()

set(CPACK_PACKAGE_NAME rvhal)
set(CPACK_PACKAGE_VENDOR "rvhal")
# CPack's own default summary, which it does not put before each package's
# summary line (CPACK_COMPONENT_<C>_DESCRIPTION's first); any other would be.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_RESOURCE_FILE_LICENSE ${RVHAL_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB TGZ)
set(CPACK_PACKAGE_CONTACT "${RVHAL_PACKAGE_MAINTAINER}")
set(CPACK_STRIP_FILES ON) # host binaries; the firmware images keep their symbols (lintian-overrides.in)
set(CPACK_PACKAGE_FILE_NAME rvhal-${PROJECT_VERSION}-${CMAKE_SYSTEM_PROCESSOR})
set(CPACK_COMPONENTS_ALL lib sdk dev tools)
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF) # the .tar.gz holds everything

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RVHAL_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# librvhal's own SONAME is this build's, not the system's: dpkg-shlibdeps
# leaves it out, and each package states it (Depends below).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/host)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(_same "(= ${PROJECT_VERSION})")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME ${RVHAL_DEB_LIB})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIB_PACKAGE_DEPENDS "qemu-system-misc")
set(CPACK_DEBIAN_LIB_PACKAGE_RECOMMENDS "opensbi") # the qemu-virt-sbi device boots through it
# ldconfig by trigger, not from maintainer scripts (what cpack writes when
# it is given none).
set(_ldconfig ${RVHAL_DEB_DIR}/triggers ${RVHAL_DEB_DIR}/postinst ${RVHAL_DEB_DIR}/postrm)
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${_ldconfig})
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_COMPONENT_LIB_DESCRIPTION "RISC-V accelerator HAL on QEMU - shared library
rvhal runs GPU-style compute kernels on emulated RISC-V harts: a host
library starts QEMU RISC-V harts running rvhal's own bare-metal firmware,
allocates device memory, copies data, loads kernel ELF files and launches
kernels over 1-, 2- or 3-D ND-ranges with the oneAPI Construction Kit's
kernel ABI. It measures exact per-hart cycle and instruction counters.
.
This package holds the shared library, the firmware images of the
emulated boards (qemu-virt RV64 and RV32, qemu-virt under OpenSBI,
sifive-u, spike, icicle-kit) and the QEMU plugin counting instructions.")

# What compiling a kernel needs besides rvhal's files: the RISC-V GCC (it
# links every kernel, OpenCL C ones too) and picolibc.
set(RVHAL_DEB_KERNEL_CC_DEPENDS "gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf")
# ... and for OpenCL C, clang and the LLVM tools of the version the
# compiler runs (host/src/compiler/opencl_sdk.c).
set(RVHAL_DEB_OPENCL_C_DEPENDS "clang-16, llvm-16")

set(CPACK_DEBIAN_SDK_PACKAGE_NAME ${RVHAL_DEB_SDK})
set(CPACK_DEBIAN_SDK_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_SDK_PACKAGE_DEPENDS "${RVHAL_DEB_KERNEL_CC_DEPENDS}")
set(CPACK_COMPONENT_SDK_DESCRIPTION "RISC-V accelerator HAL on QEMU - kernel SDK
rvhal runs GPU-style compute kernels on emulated RISC-V harts through a
host library in the style of the oneAPI Construction Kit HAL.
.
This package holds what compiling a kernel for rvhal's devices needs:
the kernel SDK's headers with the kernel ABI's, and for each kernel set
(RV64 and RV32, hard- and soft-float) the runtime library, the OpenCL C
built-in library and the linker script. rvhal's OpenCL driver, rvhal cc
and rvhal_add_kernel compile with it.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME ${RVHAL_DEB_DEV})
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
# rvhalTargets.cmake names the tool; rvhal_add_kernel compiles with the SDK
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${RVHAL_DEB_LIB} ${_same}, ${RVHAL_DEB_TOOLS} ${_same}, ${RVHAL_DEB_SDK} ${_same}")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "pkg-config, cmake")
set(CPACK_COMPONENT_DEV_DESCRIPTION "RISC-V accelerator HAL on QEMU - development files
rvhal runs GPU-style compute kernels on emulated RISC-V harts through a
host library in the style of the oneAPI Construction Kit HAL.
.
This package holds the C headers, the static library, the CMake package
(find_package(rvhal), rvhal_add_kernel) and rvhal.pc. Kernels are
compiled with the kernel SDK (rvhal-kernel-sdk).")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME ${RVHAL_DEB_TOOLS})
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION devel)
# The OpenCL driver and `rvhal cc` compile OpenCL C: the SDK, clang, LLVM.
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${RVHAL_DEB_LIB} ${_same}, ${RVHAL_DEB_SDK} ${_same}, ${RVHAL_DEB_OPENCL_C_DEPENDS}")
# libhal_rvhal.so and the OpenCL ICD are in /usr/lib (ldconfig trigger); the
# maintainer scripts register the ICD with the system's loader
# (cmake/package/deb/, host/opencl).
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_EXTRA ${RVHAL_DEB_DIR}/triggers ${RVHAL_SOURCE_DIR}/cmake/package/deb/postinst
                                             ${RVHAL_SOURCE_DIR}/cmake/package/deb/postrm)
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "ocl-icd-libopencl1")
set(CPACK_DEBIAN_TOOLS_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "RISC-V accelerator HAL on QEMU - command-line tool
rvhal runs GPU-style compute kernels on emulated RISC-V harts through a
host library in the style of the oneAPI Construction Kit HAL.
.
This package holds the rvhal tool (run a kernel from an ELF file, list
its kernels, show the packed argument layout, compile OpenCL C, check an
installation), libhal_rvhal.so, the oneAPI Construction Kit HAL adapter,
the OpenCL platform (an ICD registered in /etc/OpenCL/vendors; it
compiles OpenCL C with clang-16 and the kernel SDK) and the
documentation.")
include(CPack)

# OpenCL tests: programs linked against the system's ICD loader (libOpenCL,
# Debian ocl-icd-libopencl1) that reach rvhal through build/opencl/rvhal.icd
# (OCL_ICD_VENDORS), run real kernels on QEMU harts, and check the spec's
# codes and values. Each runs on the qemu-virt RV64 device (platform device
# 0) and, with RV32, also on qemu-virt RV32 (device 1) as opencl.<name>.rv32.
if(NOT RVHAL_HAVE_OPENCL)
  return()
endif()
find_library(RVHAL_OPENCL_LOADER OpenCL)
if(NOT RVHAL_OPENCL_LOADER)
  message(STATUS "rvhal: libOpenCL (Debian ocl-icd-opencl-dev) not found: the OpenCL tests are not built")
  return()
endif()
set(RVHAL_OPENCL_TEST_ENV OCL_ICD_VENDORS=${RVHAL_OPENCL_ICD_FILE} RVHAL_TEST_SUITE=1
    RVHAL_OPENCL_CACHE_DIR=${CMAKE_BINARY_DIR}/opencl/test-cache)

function(rvhal_opencl_test name)
  cmake_parse_arguments(T "RV32" "TIMEOUT" "" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_executable(opencl_${name} ${RVHAL_SOURCE_DIR}/tests/opencl/${name}.c)
  target_include_directories(opencl_${name} PRIVATE ${RVHAL_SOURCE_DIR}/tests/common ${RVHAL_CL_HEADERS})
  target_link_libraries(opencl_${name} PRIVATE ${RVHAL_OPENCL_LOADER})
  add_dependencies(opencl_${name} RvhalOpenCL ${RVHAL_DEVICE_TARGETS})
  add_test(NAME opencl.${name} COMMAND opencl_${name} 0 ${RVHAL_TEST_KERNEL_DIR_RV64})
  set_tests_properties(opencl.${name} PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV}" LABELS "opencl;device"
                       TIMEOUT ${T_TIMEOUT} FIXTURES_REQUIRED device)
  if(T_RV32 AND RVHAL_BUILD_RV32)
    add_test(NAME opencl.${name}.rv32 COMMAND opencl_${name} 1 ${RVHAL_TEST_KERNEL_DIR_RV32})
    set_tests_properties(opencl.${name}.rv32 PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV}" LABELS "opencl;device"
                         TIMEOUT ${T_TIMEOUT} FIXTURES_REQUIRED device)
  endif()
endfunction()

rvhal_opencl_test(buffers RV32)
rvhal_opencl_test(kernels RV32)
rvhal_opencl_test(events RV32)
# RVHAL_OPENCL_DEBUG=1 prints each failing call with rvhal's message.
add_test(NAME opencl.debug_output COMMAND opencl_events 0 ${RVHAL_TEST_KERNEL_DIR_RV64})
set_tests_properties(opencl.debug_output PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_DEBUG=1"
                     LABELS "opencl;device" TIMEOUT 120 FIXTURES_REQUIRED device
                     PASS_REGULAR_EXPRESSION "rvhal-opencl: clCreateCommandQueue: CL_INVALID_QUEUE_PROPERTIES: on-device queues are not supported.*opencl.events: [0-9]+ checks, 0 failed")

# The OpenCL platform's tests (host/opencl): programs linked against the system's ICD loader (libOpenCL,
# Debian ocl-icd-libopencl1) that reach rvhal through build/opencl/rvhal.icd
# (OCL_ICD_VENDORS), run real kernels on QEMU harts, and check the spec's
# codes and values. Each runs on the qemu-virt RV64 device (platform device
# 0) and, with RV32, also on qemu-virt RV32 (device 1) as icd.<name>.rv32.
if(NOT RVHAL_HAVE_OPENCL)
  return()
endif()
find_library(RVHAL_OPENCL_LOADER OpenCL)
if(NOT RVHAL_OPENCL_LOADER)
  message(STATUS "rvhal: libOpenCL (Debian ocl-icd-opencl-dev) not found: the OpenCL tests are not built")
  return()
endif()
# Each test has its own binary cache (icd.source counts its entries).
set(RVHAL_OPENCL_TEST_ENV OCL_ICD_VENDORS=${RVHAL_OPENCL_ICD_FILE} RVHAL_TEST_SUITE=1 RVHAL_TEST_BUILD_DIR=${CMAKE_BINARY_DIR})
set(RVHAL_OPENCL_CACHE_ROOT ${CMAKE_BINARY_DIR}/opencl/test-cache)

function(rvhal_icd_test name)
  cmake_parse_arguments(T "RV32" "TIMEOUT" "" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_executable(icd_${name} ${RVHAL_SOURCE_DIR}/tests/icd/${name}.c)
  target_include_directories(icd_${name} PRIVATE ${RVHAL_SOURCE_DIR}/tests/common ${RVHAL_CL_HEADERS})
  target_link_libraries(icd_${name} PRIVATE ${RVHAL_OPENCL_LOADER})
  add_dependencies(icd_${name} RvhalOpenCL ${RVHAL_DEVICE_TARGETS})
  add_test(NAME icd.${name} COMMAND icd_${name} 0 ${RVHAL_TEST_KERNEL_DIR_RV64})
  set_tests_properties(icd.${name} PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/${name}" LABELS "icd;device"
                       TIMEOUT ${T_TIMEOUT} FIXTURES_REQUIRED device)
  if(T_RV32 AND RVHAL_BUILD_RV32)
    add_test(NAME icd.${name}.rv32 COMMAND icd_${name} 1 ${RVHAL_TEST_KERNEL_DIR_RV32})
    set_tests_properties(icd.${name}.rv32 PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/${name}.rv32" LABELS "icd;device"
                         TIMEOUT ${T_TIMEOUT} FIXTURES_REQUIRED device)
  endif()
  # And on each device running a soft-float kernel set (harts without F/D:
  # qemu-virt-imac), as icd.<name>.<device>: its platform index is its place
  # in the build's device list.
  foreach(dev ${RVHAL_TEST_DEVICES})
    rvhal_device_kernel_set(${dev} set)
    list(FIND RVHAL_DEVICES ${dev} index)
    if(set MATCHES "-" AND (T_RV32 OR dev MATCHES "-rv64$"))
      add_test(NAME icd.${name}.${dev} COMMAND icd_${name} ${index} ${CMAKE_BINARY_DIR}/device-${set}/kernels)
      set_tests_properties(icd.${name}.${dev} PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/${name}.${dev}"
                           LABELS "icd;device" TIMEOUT ${T_TIMEOUT} FIXTURES_REQUIRED device)
    endif()
  endforeach()
endfunction()

rvhal_icd_test(buffers RV32)
# A device with the RAM $RVHAL_RAM_MIB gives (the platform's default is 1 GiB).
add_test(NAME icd.buffers.ram512 COMMAND icd_buffers 0 ${RVHAL_TEST_KERNEL_DIR_RV64})
set_tests_properties(icd.buffers.ram512 PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/buffers;RVHAL_RAM_MIB=512"
                     LABELS "icd;device" TIMEOUT 120 FIXTURES_REQUIRED device)
rvhal_icd_test(kernels RV32)
rvhal_icd_test(images RV32 TIMEOUT 240) # cold builds of its programs on a loaded machine
rvhal_icd_test(program_store RV32)
# The store follows the RAM: a 64 MiB device holds a few.
add_test(NAME icd.program_store.ram64 COMMAND icd_program_store 0 ${RVHAL_TEST_KERNEL_DIR_RV64})
set_tests_properties(icd.program_store.ram64 PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/program_store;RVHAL_RAM_MIB=64"
                     LABELS "icd;device" TIMEOUT 120 FIXTURES_REQUIRED device)
# $RVHAL_OPENCL_DEFAULT_DEVICE: a named device as the default, an unknown name.
if(RVHAL_BUILD_RV32)
  add_executable(icd_default_device ${RVHAL_SOURCE_DIR}/tests/icd/default_device.c)
  target_include_directories(icd_default_device PRIVATE ${RVHAL_SOURCE_DIR}/tests/common ${RVHAL_CL_HEADERS})
  target_link_libraries(icd_default_device PRIVATE ${RVHAL_OPENCL_LOADER})
  add_dependencies(icd_default_device RvhalOpenCL ${RVHAL_DEVICE_TARGETS})
  foreach(want qemu-virt-rv32 no-such-device)
    add_test(NAME icd.default_device.${want} COMMAND icd_default_device)
    set_tests_properties(icd.default_device.${want} PROPERTIES ENVIRONMENT
                         "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/default_device;RVHAL_OPENCL_DEFAULT_DEVICE=${want}"
                         LABELS "icd;device" TIMEOUT 120 FIXTURES_REQUIRED device)
  endforeach()
endif()
# Contexts of every device type and property list; a context of every device
# (skipped, exit 77, where the platform has one device).
foreach(name context_types multi_device)
  add_executable(icd_${name} ${RVHAL_SOURCE_DIR}/tests/icd/${name}.c)
  target_include_directories(icd_${name} PRIVATE ${RVHAL_SOURCE_DIR}/tests/common ${RVHAL_CL_HEADERS})
  target_link_libraries(icd_${name} PRIVATE ${RVHAL_OPENCL_LOADER})
  add_dependencies(icd_${name} RvhalOpenCL ${RVHAL_DEVICE_TARGETS})
  add_test(NAME icd.${name} COMMAND icd_${name})
  set_tests_properties(icd.${name} PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/${name}"
                       LABELS "icd;device" TIMEOUT 300 FIXTURES_REQUIRED device SKIP_RETURN_CODE 77)
endforeach()
rvhal_icd_test(events RV32)
rvhal_icd_test(source RV32 TIMEOUT 300)
rvhal_icd_test(link RV32 TIMEOUT 300)
rvhal_icd_test(non_uniform RV32 TIMEOUT 300)
# RVHAL_OPENCL_DEBUG=1 prints each failing call with rvhal's message.
add_test(NAME icd.debug_output COMMAND icd_events 0 ${RVHAL_TEST_KERNEL_DIR_RV64})
set_tests_properties(icd.debug_output PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/shared;RVHAL_OPENCL_DEBUG=1"
                     LABELS "icd;device" TIMEOUT 120 FIXTURES_REQUIRED device
                     PASS_REGULAR_EXPRESSION "rvhal-opencl: clCreateCommandQueue: CL_INVALID_QUEUE_PROPERTIES: on-device queues are not supported.*icd.events: [0-9]+ checks, 0 failed")

# The trace of an OpenCL program: its queues' tracks as docs/opencl.md says.
find_program(RVHAL_PYTHON3 python3)
if(RVHAL_PYTHON3)
  add_test(NAME icd.trace COMMAND ${RVHAL_PYTHON3} ${RVHAL_SOURCE_DIR}/tests/icd/trace_check.py $<TARGET_FILE:icd_events>
           0 ${RVHAL_TEST_KERNEL_DIR_RV64})
  set_tests_properties(icd.trace PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/shared"
                       LABELS "icd;device" TIMEOUT 120 FIXTURES_REQUIRED device)
endif()

# A failed kernel's reason on stderr once per failure by default
# (errors.c), naming RVHAL_LAUNCH_TIMEOUT_MS for a hang; none with
# RVHAL_OPENCL_QUIET=1.
add_executable(icd_failure_stderr ${RVHAL_SOURCE_DIR}/tests/icd/failure_stderr.c)
target_include_directories(icd_failure_stderr PRIVATE ${RVHAL_SOURCE_DIR}/tests/common ${RVHAL_CL_HEADERS})
target_link_libraries(icd_failure_stderr PRIVATE ${RVHAL_OPENCL_LOADER})
add_dependencies(icd_failure_stderr RvhalOpenCL ${RVHAL_DEVICE_TARGETS})
foreach(mode told quiet)
  set(_env "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/shared;RVHAL_LAUNCH_TIMEOUT_MS=1000")
  if(mode STREQUAL quiet)
    list(APPEND _env RVHAL_OPENCL_QUIET=1)
  endif()
  add_test(NAME icd.failure_stderr.${mode} COMMAND icd_failure_stderr 0 ${RVHAL_TEST_KERNEL_DIR_RV64} ${mode})
  set_tests_properties(icd.failure_stderr.${mode} PROPERTIES ENVIRONMENT "${_env}" LABELS "icd;device" TIMEOUT 120
                       FIXTURES_REQUIRED device)
endforeach()

# Debian's clinfo and python3-pyopencl (with python3-numpy) against the
# platform: Debian's own python3, where those modules live (a python3
# earlier on PATH, pyenv's say, would not have them).
find_program(RVHAL_CLINFO clinfo)
find_program(RVHAL_DEBIAN_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
# Not under the sanitizers: clinfo and python3 are not built with them, and
# a sanitized ICD needs its runtime in the program that loads it.
if(RVHAL_SANITIZE)
  message(STATUS "rvhal: sanitized build: icd.clinfo and icd.pyopencl not registered")
elseif(RVHAL_CLINFO AND RVHAL_DEBIAN_PYTHON)
  add_test(NAME icd.clinfo COMMAND ${RVHAL_DEBIAN_PYTHON} ${RVHAL_SOURCE_DIR}/tests/icd/clinfo_check.py $<TARGET_FILE:rvhal-cli>)
  set_tests_properties(icd.clinfo PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/shared" LABELS "icd;device" TIMEOUT 600
                       FIXTURES_REQUIRED device)
else()
  message(STATUS "rvhal: clinfo or /usr/bin/python3 missing (Debian clinfo, python3): icd.clinfo not registered")
endif()
if(RVHAL_DEBIAN_PYTHON AND NOT RVHAL_SANITIZE)
  # Registered whenever python3 is there: without pyopencl/numpy it fails and says so.
  add_test(NAME icd.pyopencl COMMAND ${RVHAL_DEBIAN_PYTHON} ${RVHAL_SOURCE_DIR}/tests/icd/pyopencl_numpy.py 0)
  # every device of the platform (each board), one after another
  add_test(NAME icd.pyopencl.all_devices COMMAND ${RVHAL_DEBIAN_PYTHON} ${RVHAL_SOURCE_DIR}/tests/icd/pyopencl_numpy.py all)
  set(_py icd.pyopencl icd.pyopencl.all_devices)
  if(RVHAL_BUILD_RV32)
    add_test(NAME icd.pyopencl.rv32 COMMAND ${RVHAL_DEBIAN_PYTHON} ${RVHAL_SOURCE_DIR}/tests/icd/pyopencl_numpy.py 1)
    list(APPEND _py icd.pyopencl.rv32)
  endif()
  set_tests_properties(${_py} PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/shared"
                       LABELS "icd;device" TIMEOUT 300 FIXTURES_REQUIRED device)
endif()
# RVHAL_PROFILE works unchanged under an OpenCL program: the per-hart table
# of each launch.
add_test(NAME icd.profile COMMAND icd_events 0 ${RVHAL_TEST_KERNEL_DIR_RV64})
set_tests_properties(icd.profile PROPERTIES ENVIRONMENT "${RVHAL_OPENCL_TEST_ENV};RVHAL_OPENCL_CACHE_DIR=${RVHAL_OPENCL_CACHE_ROOT}/shared;RVHAL_PROFILE=table"
                     LABELS "icd;device" TIMEOUT 120 FIXTURES_REQUIRED device
                     PASS_REGULAR_EXPRESSION "rvhal profile: launch 1 vector_add_entry.*total.*icd.events: [0-9]+ checks, 0 failed")

# Execution-model and counter tests (host side): each tests/exec/<source>.c
# is an executable, registered with ctest as device.exec.<name> (label
# "device", fixture "device": device.no_qemu_left_after_suite checks
# afterwards that no QEMU was left running).
#
#   rvhal_exec_test(<name> [SOURCE <file>] [TIMEOUT <seconds>] [DEVICE <index>] [ARGS <arg>...])

function(rvhal_exec_test name)
  cmake_parse_arguments(T "" "TIMEOUT;SOURCE;DEVICE" "ARGS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  if(NOT T_SOURCE)
    set(T_SOURCE ${name})
  endif()
  if(NOT T_DEVICE)
    set(T_DEVICE 0)
  endif()
  set(target exec_test_${T_SOURCE})
  if(NOT TARGET ${target})
    add_executable(${target} ${RVHAL_SOURCE_DIR}/tests/exec/${T_SOURCE}.c)
    target_include_directories(${target} PRIVATE ${RVHAL_SOURCE_DIR}/tests/common ${RVHAL_SOURCE_DIR}/tests/device
                                                  ${RVHAL_SOURCE_DIR}/tests/exec)
    target_compile_definitions(${target} PRIVATE RVHAL_TEST_KERNEL_DIR_RV64="${RVHAL_TEST_KERNEL_DIR_RV64}"
                                                 RVHAL_TEST_KERNEL_DIR_RV32="${RVHAL_TEST_KERNEL_DIR_RV32}")
    target_link_libraries(${target} PRIVATE rvhal)
    if(RVHAL_DEVICE_TARGETS)
      add_dependencies(${target} ${RVHAL_DEVICE_TARGETS})
    endif()
  endif()
  set(test device.exec.${name})
  add_test(NAME ${test} COMMAND ${target} ${T_ARGS})
  set_tests_properties(${test} PROPERTIES LABELS device TIMEOUT ${T_TIMEOUT} FIXTURES_REQUIRED device
                       ENVIRONMENT "RVHAL_TEST_SUITE=1;RVHAL_TEST_BUILD_DIR=${CMAKE_BINARY_DIR};RVHAL_TEST_DEVICE=${T_DEVICE}")
endfunction()

rvhal_exec_test(barrier_stress ARGS fast TIMEOUT 120)
rvhal_exec_test(barrier_stress.counters SOURCE barrier_stress ARGS counters TIMEOUT 120)
rvhal_exec_test(context_switches TIMEOUT 120)
rvhal_exec_test(exact_counters ARGS plain TIMEOUT 120)
rvhal_exec_test(exact_counters.team SOURCE exact_counters ARGS team TIMEOUT 120)
rvhal_exec_test(counter_api)
rvhal_exec_test(profile_files)
rvhal_exec_test(print_volume)
rvhal_exec_test(local_init)
# The same on the RV32 device.
if(RVHAL_BUILD_RV32)
  rvhal_exec_test(barrier_stress.rv32 SOURCE barrier_stress ARGS fast DEVICE 1 TIMEOUT 120)
  rvhal_exec_test(context_switches.rv32 SOURCE context_switches DEVICE 1 TIMEOUT 120)
  rvhal_exec_test(counter_api.rv32 SOURCE counter_api DEVICE 1)
  rvhal_exec_test(print_volume.rv32 SOURCE print_volume DEVICE 1)
  rvhal_exec_test(local_init.rv32 SOURCE local_init DEVICE 1)
endif()

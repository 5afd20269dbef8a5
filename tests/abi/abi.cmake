# On-device conformance of the packed-argument ABI (RV64 and RV32).
add_executable(test_abi_conformance abi/test_abi_conformance.c)
target_include_directories(test_abi_conformance PRIVATE common abi)
target_link_libraries(test_abi_conformance PRIVATE rvhal)
target_compile_definitions(test_abi_conformance PRIVATE
  RVHAL_TEST_KERNEL_DIR_RV64="${RVHAL_TEST_KERNEL_DIR_RV64}"
  RVHAL_TEST_KERNEL_DIR_RV32="${RVHAL_TEST_KERNEL_DIR_RV32}")
add_test(NAME device.abi_conformance.rv64 COMMAND test_abi_conformance)
set_tests_properties(device.abi_conformance.rv64 PROPERTIES LABELS "device;abi" TIMEOUT 300
                     ENVIRONMENT "RVHAL_TEST_SUITE=1;RVHAL_TEST_DEVICE=0" FIXTURES_REQUIRED device)
if(RVHAL_BUILD_RV32)
  add_test(NAME device.abi_conformance.rv32 COMMAND test_abi_conformance)
  set_tests_properties(device.abi_conformance.rv32 PROPERTIES LABELS "device;abi" TIMEOUT 300
                       ENVIRONMENT "RVHAL_TEST_SUITE=1;RVHAL_TEST_DEVICE=1" FIXTURES_REQUIRED device)
endif()

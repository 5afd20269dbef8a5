# Unit tests: host-only logic, no QEMU.
function(rvhal_unit_test name)
  add_executable(${name} unit/${name}.c ${ARGN})
  target_include_directories(${name} PRIVATE common ${RVHAL_SOURCE_DIR}/host/src)
  target_link_libraries(${name} PRIVATE rvhal)
  add_test(NAME unit.${name} COMMAND ${name})
  set_tests_properties(unit.${name} PROPERTIES LABELS unit)
endfunction()

rvhal_unit_test(test_allocator)
# rvhal/version.h against the library's version.
rvhal_unit_test(test_version)
rvhal_unit_test(test_elf_loader)
rvhal_unit_test(test_isa_check)
# Argument packing, the device memory map, print-ring draining.
rvhal_unit_test(test_arg_pack)
rvhal_unit_test(test_layout)
# The launch's check and plan steps (pure).
rvhal_unit_test(test_launch_plan)
# The launch geometry host, firmware and SDK share.
rvhal_unit_test(test_launch_geometry)
rvhal_unit_test(test_board_desc)
rvhal_unit_test(test_print_drain)
# The GDB remote protocol client of the gdb backend, against an in-process stub.
rvhal_unit_test(test_gdb_rsp)
target_link_libraries(test_gdb_rsp PRIVATE pthread)
# Which listed stub each device takes (RVHAL_GDB_REMOTE=a,b).
rvhal_unit_test(test_gdb_stub_pool)
# The firmware's formatter, built for the host and compared with glibc.
rvhal_unit_test(test_format ${RVHAL_SOURCE_DIR}/firmware/format.c)
target_include_directories(test_format PRIVATE ${RVHAL_SOURCE_DIR}/firmware/include)
target_link_libraries(test_format PRIVATE m)
# What a kernel ELF declares, read without a device (needs the built kernels).
rvhal_unit_test(test_program_info)
target_compile_definitions(test_program_info PRIVATE
  RVHAL_TEST_KERNEL_DIR_RV64="${RVHAL_TEST_KERNEL_DIR_RV64}"
  RVHAL_EXAMPLE_KERNEL_DIR_RV64="${RVHAL_DEVICE_DIR_RV64}/kernels")
# rvhal_opencl_compile and the OpenCL C kernel metadata (needs clang-16 and
# the built kernel SDK, no device).
# The passes over LLVM IR text between the LLVM tools (no LLVM needed).
rvhal_unit_test(test_ir_text)
# The division guard over a kernel's IR (x / 0 defined, as OpenCL C has it).
rvhal_unit_test(test_ir_divide)
rvhal_unit_test(test_opencl_compile)
target_compile_definitions(test_opencl_compile PRIVATE RVHAL_TEST_OPENCL_DIR="${RVHAL_SOURCE_DIR}/tests/opencl")
rvhal_unit_test(test_llvm_server)
target_compile_definitions(test_llvm_server PRIVATE RVHAL_TEST_OPENCL_DIR="${RVHAL_SOURCE_DIR}/tests/opencl"
                           RVHAL_TEST_LLVM_SERVER="${CMAKE_BINARY_DIR}/host/rvhal-llvm-server")
set_tests_properties(unit.test_llvm_server PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)

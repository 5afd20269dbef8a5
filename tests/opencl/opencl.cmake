# OpenCL C kernels on QEMU harts (tests/opencl/opencl_exec.c): the built-ins
# that need rvhal's execution model, each family a test, RV64 and RV32,
# compiled at run time by rvhal_opencl_compile.
foreach(family workitems barrier atomics async printf)
  rvhal_device_test(opencl.${family} DIR opencl SOURCE opencl_exec ARGS ${family} RV32 TIMEOUT 120)
endforeach()
target_compile_definitions(opencl_test_opencl_exec PRIVATE RVHAL_TEST_OPENCL_DIR="${RVHAL_SOURCE_DIR}/tests/opencl")
target_include_directories(opencl_test_opencl_exec PRIVATE ${RVHAL_SOURCE_DIR}/tests/exec)

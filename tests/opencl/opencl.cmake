# OpenCL C kernels on QEMU harts (tests/opencl/opencl_exec.c): the built-ins
# that need rvhal's execution model, each family a test, RV64 and RV32,
# compiled at run time by rvhal_opencl_compile.
# Every family on every board of the build too (S-mode firmware, page
# tables, harts without an FPU beside the ones that run kernels, ...).
foreach(family workitems barrier atomics async printf)
  rvhal_device_test(opencl.${family} DIR opencl SOURCE opencl_exec ARGS ${family} RV32 BOARDS TIMEOUT 120)
endforeach()
target_compile_definitions(opencl_test_opencl_exec PRIVATE RVHAL_TEST_OPENCL_DIR="${RVHAL_SOURCE_DIR}/tests/opencl")
target_include_directories(opencl_test_opencl_exec PRIVATE ${RVHAL_SOURCE_DIR}/tests/exec)

# rvhal_add_kernel(NAME FILE.cl): to a file per XLEN, and EMBED.
rvhal_add_kernel(opencl_vadd_rv64 ${CMAKE_CURRENT_SOURCE_DIR}/opencl/kernels/vadd.cl)
rvhal_add_kernel(opencl_vadd_embed ${CMAKE_CURRENT_SOURCE_DIR}/opencl/kernels/vadd.cl EMBED)
rvhal_add_kernel(opencl_options ${CMAKE_CURRENT_SOURCE_DIR}/opencl/kernels/options.cl EMBED
                 INCLUDE_DIRECTORIES ${CMAKE_CURRENT_SOURCE_DIR}/opencl/kernels/include
                 COMPILE_OPTIONS -DOFFSET=4 -cl-std=CL3.0)
set(_cl_files $<TARGET_PROPERTY:opencl_vadd_rv64,RVHAL_KERNEL_FILE>)
if(RVHAL_BUILD_RV32)
  rvhal_add_kernel(opencl_vadd_rv32 ${CMAKE_CURRENT_SOURCE_DIR}/opencl/kernels/vadd.cl XLEN 32)
  list(APPEND _cl_files $<TARGET_PROPERTY:opencl_vadd_rv32,RVHAL_KERNEL_FILE>)
endif()
rvhal_device_test(opencl.cmake_kernel DIR opencl SOURCE cmake_kernel ARGS ${_cl_files} RV32)
target_link_libraries(opencl_test_cmake_kernel PRIVATE opencl_vadd_embed opencl_options)
add_dependencies(opencl_test_cmake_kernel opencl_vadd_rv64)
if(RVHAL_BUILD_RV32)
  add_dependencies(opencl_test_cmake_kernel opencl_vadd_rv32)
endif()

# OpenCL C's cost against the C SDK, in exact instruction counts.
rvhal_device_test(opencl.overhead DIR opencl SOURCE overhead RV32 TIMEOUT 120)
target_include_directories(opencl_test_overhead PRIVATE ${RVHAL_SOURCE_DIR}/tests/exec)

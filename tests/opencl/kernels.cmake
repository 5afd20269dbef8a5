# The built-in tests' kernel (device build): the C kernel clt_kernel.c and
# the OpenCL C driver, linked with librvhal_opencl.a, the built-in library
# every OpenCL C kernel gets (sdk/opencl/CMakeLists.txt, built from
# sdk/opencl/builtins with the kernels' language options);
# tests/opencl/builtins_device.c runs it.
include(${RVHAL_SOURCE_DIR}/cmake/RvhalOpenclBuiltins.cmake)
if(NOT TARGET rvhal_opencl)
  message(FATAL_ERROR "tests/opencl: no OpenCL C built-in library target (rvhal_opencl, sdk/opencl)")
endif()
# The driver at -O0: optimising its thousands of loops takes minutes (opencl.cmake).
rvhal_opencl_objects(clt_driver_obj clt_rv${RVHAL_XLEN}
  TARGET_FLAGS --target=riscv${RVHAL_XLEN}-unknown-elf -march=${RVHAL_MARCH} -mabi=${RVHAL_MABI} -mcmodel=medany
               -mno-relax -O0 -Wno-unused-parameter
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/opencl/clt_driver.cl DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/opencl/clt_cases.h)
rvhal_add_kernel(clt_kernel opencl/clt_kernel.c opencl/clt_dispatch.c opencl/clt_shapes.c ${clt_driver_obj})
target_link_libraries(clt_kernel PRIVATE ${CMAKE_BINARY_DIR}/sdk/opencl/librvhal_opencl.a)
add_dependencies(clt_kernel rvhal_opencl)
set_property(TARGET clt_kernel APPEND PROPERTY LINK_DEPENDS ${CMAKE_BINARY_DIR}/sdk/opencl/librvhal_opencl.a)

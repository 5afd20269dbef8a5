# The OpenCL C built-in library (sdk/opencl/builtins): a host test (the
# library compiled by clang-16 for x86-64, called directly) and device tests
# on RV64 and RV32 (tests/opencl/kernels.cmake builds their kernel). Both
# check against the host references of clt_check.c.
include(${RVHAL_SOURCE_DIR}/cmake/RvhalOpenclBuiltins.cmake)
rvhal_opencl_objects(clt_host_objs clt_host TARGET_FLAGS --target=x86_64-unknown-linux-gnu -Wno-psabi
  SOURCES ${RVHAL_OPENCL_BUILTIN_SOURCES})
# The driver at -O0: at -O2 clang spends minutes on its thousands of loops
# (each case is its own function, so -O0 frames stay small).
rvhal_opencl_objects(clt_host_driver clt_host TARGET_FLAGS --target=x86_64-unknown-linux-gnu -Wno-psabi -O0
  -Wno-unused-parameter SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/opencl/clt_driver.cl
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/opencl/clt_cases.h)
add_executable(test_opencl_builtins opencl/test_builtins_host.c opencl/clt_check.c opencl/clt_dispatch.c
                                    opencl/clt_shapes.c ${clt_host_objs} ${clt_host_driver})
# The references switch the FPU's rounding mode (convert_* _rtz/_rtp/_rtn).
set_source_files_properties(opencl/clt_check.c PROPERTIES COMPILE_OPTIONS -frounding-math)
target_link_libraries(test_opencl_builtins PRIVATE m)
add_test(NAME unit.opencl_builtins COMMAND test_opencl_builtins)
set_tests_properties(unit.opencl_builtins PROPERTIES LABELS unit TIMEOUT 120)

rvhal_device_test(opencl.builtins DIR opencl SOURCE builtins_device RV32 TIMEOUT 180)
target_sources(opencl_test_builtins_device PRIVATE ${RVHAL_SOURCE_DIR}/tests/opencl/clt_check.c
                                                   ${RVHAL_SOURCE_DIR}/tests/opencl/clt_shapes.c)
set_source_files_properties(${RVHAL_SOURCE_DIR}/tests/opencl/clt_check.c PROPERTIES COMPILE_OPTIONS -frounding-math)
target_link_libraries(opencl_test_builtins_device PRIVATE m)

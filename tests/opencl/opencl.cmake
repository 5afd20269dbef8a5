# OpenCL C kernels on QEMU harts (tests/opencl/opencl_exec.c): the built-ins
# that need rvhal's execution model, each family a test, RV64 and RV32,
# compiled at run time by rvhal_opencl_compile.
# Every family on every board of the build too (S-mode firmware, page
# tables, harts without an FPU beside the ones that run kernels, ...).
foreach(family workitems barrier atomics async printf integers)
  rvhal_device_test(opencl.${family} DIR opencl SOURCE opencl_exec ARGS ${family} RV32 BOARDS TIMEOUT 120)
endforeach()
# ... and on 3 harts, as a board of 3 has: teams of 2 take 2 of them.
foreach(family barrier async)
  rvhal_device_test(opencl.${family}.3harts DIR opencl SOURCE opencl_exec ARGS ${family} 3 TIMEOUT 120)
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

# ... each rebuilt when a header of the kernel SDK changes (Ninja's view of
# its inputs).
if(CMAKE_GENERATOR MATCHES "Ninja")
  add_test(NAME build.opencl_kernel_deps COMMAND sh ${RVHAL_SOURCE_DIR}/tests/consumer/opencl_kernel_deps.sh
           ${CMAKE_BINARY_DIR} ${RVHAL_SOURCE_DIR} $<TARGET_PROPERTY:opencl_vadd_rv64,RVHAL_KERNEL_FILE>
           $<TARGET_PROPERTY:opencl_options,RVHAL_KERNEL_FILE>)
  set_tests_properties(build.opencl_kernel_deps PROPERTIES LABELS build TIMEOUT 60)
endif()

# OpenCL C's cost against the C SDK, in exact instruction counts.
rvhal_device_test(opencl.overhead DIR opencl SOURCE overhead RV32 TIMEOUT 120)
target_include_directories(opencl_test_overhead PRIVATE ${RVHAL_SOURCE_DIR}/tests/exec)

# The pure built-ins (sdk/opencl/builtins): a host test (the library
# compiled by clang-16 for x86-64 as OpenCL C 1.2, called directly) and
# device tests on RV64 and RV32 (tests/opencl/kernels.cmake links their
# kernel with librvhal_opencl.a, what OpenCL C kernels get). Both check
# against the host references of clt_check.c.
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

# Every pure built-in overload opencl-c.h declares is in librvhal_opencl.a:
# the OpenCL C 1.2 set (global/local/private pointers) and the 3.0 set
# (generic pointers), RV64 and RV32 (scripts/opencl_builtin_coverage.py).
foreach(xlen ${RVHAL_DEVICE_XLENS})
  foreach(std cl12 cl3)
    set(_std_arg)
    if(std STREQUAL cl3)
      set(_std_arg --cl3)
    endif()
    add_test(NAME unit.opencl_builtin_coverage.rv${xlen}.${std}
             COMMAND /usr/bin/python3 ${RVHAL_SOURCE_DIR}/scripts/opencl_builtin_coverage.py --xlen ${xlen} ${_std_arg}
                     --list-missing ${CMAKE_BINARY_DIR}/device-rv${xlen}/sdk/opencl/librvhal_opencl.a)
    set_tests_properties(unit.opencl_builtin_coverage.rv${xlen}.${std} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
endforeach()

# What the compiler leaves in a kernel's loops, from the ELF's disassembly:
# no built-in out of line, no work-item query read at every step
# (tests/opencl/hot_loops.py), RV64 and RV32.
find_program(RVHAL_TEST_OBJDUMP riscv64-unknown-elf-objdump)
foreach(xlen ${RVHAL_DEVICE_XLENS})
  add_test(NAME unit.opencl_hot_loops.rv${xlen}
           COMMAND /usr/bin/python3 ${RVHAL_SOURCE_DIR}/tests/opencl/hot_loops.py $<TARGET_FILE:rvhal-cli>
                   ${RVHAL_TEST_OBJDUMP} ${RVHAL_SOURCE_DIR}/tests/opencl/kernels/hot_loops.cl --xlen ${xlen})
  set_tests_properties(unit.opencl_hot_loops.rv${xlen} PROPERTIES LABELS unit TIMEOUT 120)
endforeach()

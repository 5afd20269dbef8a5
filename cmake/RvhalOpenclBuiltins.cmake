# OpenCL C sources (the built-in library sdk/opencl/builtins/*.cl, the
# built-in tests' driver) compiled by clang-16 into objects for a target:
# the device (riscv32/64, for kernels) or the host (the host test).
find_program(RVHAL_CLANG_OPENCL NAMES clang-16 DOC "clang for OpenCL C (scripts/setup.sh installs clang-16)")
if(NOT RVHAL_CLANG_OPENCL)
  message(FATAL_ERROR "clang-16 not found: the OpenCL C built-ins need it (scripts/setup.sh installs it)")
endif()
file(GLOB RVHAL_OPENCL_BUILTIN_SOURCES ${RVHAL_SOURCE_DIR}/sdk/opencl/builtins/*.cl)
set(RVHAL_OPENCL_BUILTIN_HEADERS ${RVHAL_SOURCE_DIR}/sdk/opencl/builtins/clc_internal.h
    ${RVHAL_SOURCE_DIR}/abi/rvhal/rvhal_image.h)
# OpenCL C 1.2 with doubles (cl_khr_fp64), as clang's opencl-c.h declares
# the built-ins for it.
set(RVHAL_OPENCL_CFLAGS -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -Xclang -cl-ext=+cl_khr_fp64 -O2
    -I${RVHAL_SOURCE_DIR}/abi
    -Wall -Wextra)

# rvhal_opencl_objects(<out_var> <subdir> TARGET_FLAGS <flags...> SOURCES <.cl...> [DEPENDS <files...>])
# Compiles each source to <binary dir>/<subdir>/<name>.o; <out_var> lists them.
function(rvhal_opencl_objects out_var subdir)
  cmake_parse_arguments(O "" "" "TARGET_FLAGS;SOURCES;DEPENDS" ${ARGN})
  set(objs)
  foreach(src ${O_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/${subdir}/${name}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${subdir}
      COMMAND ${RVHAL_CLANG_OPENCL} ${RVHAL_OPENCL_CFLAGS} ${O_TARGET_FLAGS} -c ${src} -o ${obj}
      DEPENDS ${src} ${RVHAL_OPENCL_BUILTIN_HEADERS} ${O_DEPENDS}
      COMMENT "OpenCL C ${name}.cl (${subdir})"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  set(${out_var} ${objs} PARENT_SCOPE)
endfunction()

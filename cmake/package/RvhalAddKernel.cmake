# rvhal_add_kernel(<name> <source>... [XLEN 64|32] [ABI <abi>] [EMBED]
#                  [INCLUDE_DIRECTORIES dir...] [COMPILE_OPTIONS opt...])
#
# Builds the kernel ELF <name>.elf (in the current binary dir) from C
# sources with the RISC-V cross compiler and rvhal's kernel SDK, from a host
# project: no toolchain file, no second project. Target <name> builds it;
# its property RVHAL_KERNEL_FILE is the ELF's path (load it with
# rvhal_program_load_file).
#
# EMBED: <name> is instead a static library holding the ELF as a C array;
# link the host program with it and
#     #include "<name>_kernel.h"  /* extern const unsigned char <name>_elf[]; size_t <name>_elf_size */
#     rvhal_program_load(device, <name>_elf, <name>_elf_size, &program);
# so the program needs no kernel file at run time. The array is compiled as
# C, or as C++ in a project that enables only CXX.
#
# ABI: the kernel set to build for, the device's "Kernel ABI" in `rvhal
# info`: lp64d and ilp32d (hard-float; the default, XLEN 64 or 32) or lp64
# and ilp32 (soft-float, for harts without F/D such as qemu-virt-imac; XLEN
# follows the ABI). A device refuses a kernel of another ABI. The soft-float
# sets are there when rvhal was built with a board that needs them
# (rvhal_KERNEL_SETS lists what this rvhal has).
#
# The cross compiler is $RVHAL_KERNEL_CC (default riscv64-unknown-elf-gcc,
# which builds RV32 too).
#
# OpenCL C: one FILE.cl source (rvhal_add_kernel(vadd vadd.cl)) is compiled by
# `rvhal cc` (clang 16, the OpenCL C built-in library, the SDK): each
# __kernel is a kernel of its own name. COMPILE_OPTIONS are its build
# options (-DNAME=1, -cl-std=CL3.0, -cl-fast-relaxed-math, ...),
# INCLUDE_DIRECTORIES its -I; XLEN and EMBED as for C. It is rebuilt when
# the .cl file, a header it includes, a header of the kernel SDK or rvhal
# changes (tests/consumer/opencl_kernel_deps.sh).
cmake_minimum_required(VERSION 3.20)
set(_RVHAL_ADD_KERNEL_DIR ${CMAKE_CURRENT_LIST_DIR} CACHE INTERNAL "where RvhalAddKernel.cmake is")

function(rvhal_add_kernel name)
  cmake_parse_arguments(PARSE_ARGV 1 K "EMBED" "XLEN;ABI" "INCLUDE_DIRECTORIES;COMPILE_OPTIONS")
  set(sources ${K_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "rvhal_add_kernel(${name}): no source files")
  endif()
  if(K_ABI)
    rvhal_kernel_set(${K_ABI} abi_xlen set)
    if(K_XLEN AND NOT K_XLEN EQUAL abi_xlen)
      message(FATAL_ERROR "rvhal_add_kernel(${name}): XLEN ${K_XLEN} but ABI ${K_ABI} (RV${abi_xlen})")
    endif()
    set(K_XLEN ${abi_xlen})
  else()
    if(NOT K_XLEN)
      set(K_XLEN 64)
    endif()
    set(set rv${K_XLEN})
  endif()
  rvhal_kernel_set_abi(${set} abi)
  string(TOUPPER ${abi} abi_up)
  string(REGEX MATCH "-march=[^;]+" march "${RVHAL_KERNEL_ARCH_FLAGS_${abi_up}}")
  string(REPLACE "-march=" "" isa "${march}")
  string(REPLACE "-" "_" sdk rvhal::kernel_sdk_${set})
  if(NOT TARGET ${sdk})
    message(FATAL_ERROR "rvhal_add_kernel(${name}): kernel set ${set}: this rvhal has no ${sdk} (it has: "
                        "${rvhal_KERNEL_SETS}; a soft-float set is built with a board that needs it)")
  endif()
  if(NOT RVHAL_KERNEL_CC)
    find_program(RVHAL_KERNEL_CC riscv64-unknown-elf-gcc)
    if(NOT RVHAL_KERNEL_CC)
      message(FATAL_ERROR "rvhal_add_kernel: riscv64-unknown-elf-gcc not found: install the Debian packages "
                          "gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf, or set RVHAL_KERNEL_CC")
    endif()
  endif()
  get_target_property(lib ${sdk} IMPORTED_LOCATION)
  get_target_property(incs ${sdk} INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(copts ${sdk} INTERFACE_COMPILE_OPTIONS)
  get_target_property(lopts ${sdk} INTERFACE_LINK_OPTIONS)
  get_target_property(ld ${sdk} RVHAL_LINKER_SCRIPT)
  get_target_property(built_by ${sdk} RVHAL_BUILT_BY) # add_subdirectory(rvhal): the device build makes the SDK

  set(cflags ${copts} ${RVHAL_KERNEL_DEFAULT_FLAGS} ${K_COMPILE_OPTIONS}) # RvhalKernelFlags.cmake
  foreach(dir ${K_INCLUDE_DIRECTORIES} ${incs})
    get_filename_component(dir ${dir} ABSOLUTE)
    list(APPEND cflags -I${dir})
  endforeach()
  set(work ${CMAKE_CURRENT_BINARY_DIR}/${name}.rvhal)
  set(elf ${CMAKE_CURRENT_BINARY_DIR}/${name}.elf)
  set(objs)
  list(FILTER sources INCLUDE REGEX "[.]cl$")
  set(cl_sources ${sources})
  set(sources ${K_UNPARSED_ARGUMENTS})
  if(cl_sources)
    list(LENGTH sources nsrc)
    if(NOT nsrc EQUAL 1)
      message(FATAL_ERROR "rvhal_add_kernel(${name}): an OpenCL C kernel is one .cl file (got: ${sources})")
    endif()
    if(NOT TARGET rvhal::cli)
      message(FATAL_ERROR "rvhal_add_kernel(${name}): OpenCL C needs the rvhal tool (target rvhal::cli)")
    endif()
    get_filename_component(abs ${sources} ABSOLUTE)
    set(clflags)
    foreach(dir ${K_INCLUDE_DIRECTORIES})
      get_filename_component(dir ${dir} ABSOLUTE)
      list(APPEND clflags -I${dir})
    endforeach()
    # Relinked when the SDK or the built-in library changes (the latter beside
    # the SDK in an install, in its opencl/ folder in a build tree: objects
    # and bitcode).
    get_filename_component(libdir ${lib} DIRECTORY)
    if(built_by)
      set(cl_lib ${libdir}/opencl/librvhal_opencl.a ${libdir}/opencl/librvhal_opencl.bc)
    else()
      set(cl_lib ${libdir}/librvhal_opencl.a ${libdir}/librvhal_opencl.bc)
    endif()
    # ... and when a header of the SDK changes: the entries `rvhal cc`
    # generates include them (its depfile has the .cl file's own includes).
    set(sdk_headers)
    foreach(dir ${incs})
      file(GLOB hs ${dir}/*.h ${dir}/rvhal/*.h)
      list(APPEND sdk_headers ${hs})
    endforeach()
    add_custom_command(OUTPUT ${elf}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${work}
      COMMAND rvhal::cli cc --isa ${isa} ${clflags} ${K_COMPILE_OPTIONS} ${abs} -o ${elf} --depfile ${work}/${name}.d
      DEPENDS ${abs} rvhal::cli ${lib} ${ld} ${cl_lib} ${sdk_headers} DEPFILE ${work}/${name}.d
      COMMENT "Compiling OpenCL C kernel ${name}.elf (${set})" VERBATIM COMMAND_EXPAND_LISTS)
  endif()
  foreach(src ${sources})
    if(cl_sources)
      break()
    endif()
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(base ${src} NAME)
    set(obj ${work}/${base}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${work}
      COMMAND ${RVHAL_KERNEL_CC} ${cflags} -MD -MF ${obj}.d -c ${abs} -o ${obj}
      DEPENDS ${abs} DEPFILE ${obj}.d
      COMMENT "Building kernel object ${base}.o (${set})" VERBATIM COMMAND_EXPAND_LISTS)
    list(APPEND objs ${obj})
  endforeach()
  if(NOT cl_sources)
    add_custom_command(OUTPUT ${elf}
      COMMAND ${RVHAL_KERNEL_CC} ${lopts} ${objs} ${lib} -o ${elf}
      DEPENDS ${objs} ${lib} ${ld}
      COMMENT "Linking kernel ${name}.elf (${set})" VERBATIM COMMAND_EXPAND_LISTS)
  endif()

  if(NOT K_EMBED)
    add_custom_target(${name} ALL DEPENDS ${elf})
    set_target_properties(${name} PROPERTIES RVHAL_KERNEL_FILE ${elf})
    if(built_by)
      add_dependencies(${name} ${built_by})
    endif()
    return()
  endif()
  # The array is compiled as C, or as C++ in a project without C (the
  # generated file is valid as both).
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("C" IN_LIST langs)
    set(lang C)
    set(c ${work}/${name}_kernel.c)
  elseif("CXX" IN_LIST langs)
    set(lang CXX)
    set(c ${work}/${name}_kernel.cpp)
  else()
    message(FATAL_ERROR "rvhal_add_kernel(${name} ... EMBED): the embedded kernel is compiled as C or C++, and this "
                        "project has neither enabled: add C or CXX to its project(... LANGUAGES ...)")
  endif()
  set(h ${work}/include/${name}_kernel.h)
  add_custom_command(OUTPUT ${c} ${h}
    COMMAND ${CMAKE_COMMAND} -DELF=${elf} -DNAME=${name} -DOUT_C=${c} -DOUT_H=${h}
            -P ${_RVHAL_ADD_KERNEL_DIR}/rvhal_embed.cmake
    DEPENDS ${elf} ${_RVHAL_ADD_KERNEL_DIR}/rvhal_embed.cmake
    COMMENT "Embedding kernel ${name}.elf as ${name}_elf[]" VERBATIM)
  add_library(${name} STATIC ${c} ${h})
  target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${work}/include>)
  set_target_properties(${name} PROPERTIES RVHAL_KERNEL_FILE ${elf} LINKER_LANGUAGE ${lang})
  if(built_by)
    add_dependencies(${name} ${built_by})
  endif()
endfunction()

# libFuzzer targets (RVHAL_FUZZ=ON, clang): the host's readers of untrusted
# input — kernel ELF files, argument lists, `rvhal run` command lines,
# what the device writes into its print rings, what a GDB stub replies (the
# GDB-remote backend) and board descriptors. Each is built from the
# sources it tests with -fsanitize=fuzzer,address,undefined; ctest runs its
# seed corpus (tests/fuzz/corpus/<target>/) once as a regression test.
# scripts/fuzz.sh runs each for a while.
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "RVHAL_FUZZ needs clang (libFuzzer): configure with CC=clang, or the sanitize preset")
endif()

function(rvhal_fuzz_target name)
  add_executable(${name} fuzz/${name}.c ${ARGN} ${RVHAL_SOURCE_DIR}/host/src/base/status.c)
  target_include_directories(${name} PRIVATE ${RVHAL_SOURCE_DIR}/host/src ${RVHAL_SOURCE_DIR}/host/include ${RVHAL_GENERATED_INCLUDE_DIR}
                                             ${RVHAL_SOURCE_DIR}/host/tools ${RVHAL_SOURCE_DIR}/abi)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(${name} PRIVATE m)
  add_test(NAME fuzz.${name} COMMAND ${name} -runs=0 ${RVHAL_SOURCE_DIR}/tests/fuzz/corpus/${name})
  set_tests_properties(fuzz.${name} PROPERTIES LABELS fuzz TIMEOUT 120)
endfunction()

rvhal_fuzz_target(fuzz_elf_loader ${RVHAL_SOURCE_DIR}/host/src/base/elf_loader.c)
rvhal_fuzz_target(fuzz_arg_pack ${RVHAL_SOURCE_DIR}/host/src/program/arg_pack.c)
rvhal_fuzz_target(fuzz_cli_args ${RVHAL_SOURCE_DIR}/host/tools/run_args.c ${RVHAL_SOURCE_DIR}/host/tools/cli_parse.c)
rvhal_fuzz_target(fuzz_print_drain ${RVHAL_SOURCE_DIR}/host/src/observe/print_drain.c)
rvhal_fuzz_target(fuzz_gdb_rsp ${RVHAL_SOURCE_DIR}/host/src/backend/gdb_rsp.c)
rvhal_fuzz_target(fuzz_board_desc ${RVHAL_SOURCE_DIR}/host/src/backend/board_desc.c)

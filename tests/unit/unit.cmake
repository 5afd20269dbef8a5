# Unit tests: host-only logic, no QEMU.
function(rvhal_unit_test name)
  add_executable(${name} unit/${name}.c ${ARGN})
  target_include_directories(${name} PRIVATE common ${RVHAL_SOURCE_DIR}/host/src)
  target_link_libraries(${name} PRIVATE rvhal)
  add_test(NAME unit.${name} COMMAND ${name})
  set_tests_properties(unit.${name} PROPERTIES LABELS unit)
endfunction()

rvhal_unit_test(test_allocator)
rvhal_unit_test(test_elf_loader)

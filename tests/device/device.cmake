# Device tests: real kernels on real QEMU harts. Each tests/device/<name>.c is
# an executable; rvhal_device_test registers it with ctest as device.<name>
# (label "device", fixture "device"), and with RV32 also as device.<name>.rv32
# on the RV32 device (RVHAL_TEST_DEVICE=1, read by tests/common/device_fixture.h).
#
#   rvhal_device_test(<name> [RV32] [BOARDS [BOARDS_EXCEPT <regex>] [BOARDS_MATCH <regex>]] [GDB] [TIMEOUT <seconds>] [DIR <folder>]
#                     [SOURCE <file>] [ARGS <arg>...])
#
# The registry of devices: the test runs on qemu-virt RV64 (device 0), with
# RV32 also on qemu-virt RV32, and with BOARDS also on every other device
# of the build whose harts run its kernels (RVHAL_TEST_DEVICES, cmake/RvhalBoards.cmake: sifive-u, spike,
# icicle-kit, qemu-virt-sbi, ...), as device.<name>.<device name>. A test
# takes hart counts, fault addresses and limits from the device it runs on
# (tests/common/device_fixture.h), never from the board it was written on.
# BOARDS_EXCEPT leaves out the devices whose name matches (say why there);
# BOARDS_MATCH keeps only those whose name matches (vector boards, say).
# GDB: also as device.<name>.gdb (and .gdb.rv32 with RV32) through the
# GDB-remote backend (RVHAL_BACKEND=gdb, host/src/backend/gdb_backend.c): the
# end-to-end subset a device the host cannot map must pass. Its doorbell is
# the board's debug doorbell (descriptor's debug_doorbell: hart 0's MSIP, or
# under OpenSBI its sip.SSIP, written through the protocol), else the UART. GDB_BOARDS: the gdb variant
# on every other device too, as device.<name>.gdb.<device name>. GDB_UART:
# also as device.<name>.gdb.uart, the doorbell forced to the UART
# (RVHAL_GDB_DOORBELL=uart). GDB_WRONG <arg>: also as device.<name>.gdb.wrong
# with <arg>, the doorbell written to hart 1's MSIP (0x2000004) on qemu-virt,
# and as device.<name>.gdb.wrong.<device> on qemu-virt-sbi (there an MSIP
# write reaches OpenSBI, not the firmware): the test must see that fail.
#
# DIR: the folder under tests/ that holds <file>.c (default: device); it is
# on the test's include path too (tests/exec/exec.cmake uses exec).
#
# Every test runs with RVHAL_TEST_SUITE=1 in its environment, which QEMU
# inherits: device.no_qemu_left_after_suite (the fixture's cleanup) fails if
# a QEMU process of this build's suite is still alive afterwards.

set(RVHAL_DEVICE_TEST_ENV RVHAL_TEST_SUITE=1 RVHAL_TEST_BUILD_DIR=${CMAKE_BINARY_DIR})

# BOARDS tests a device leaves out, by device: qemu-virt-imac-rv32 differs
# from qemu-virt-rv32 only in its ISA and from qemu-virt-imac-rv64 only in
# its XLEN, so the board-level tests no kernel's float ABI reaches (queues,
# command buffers, isolation, idle, doorbells: ~55 s of test time) run on
# those two and not a third time here.
set(RVHAL_TEST_SKIP_qemu-virt-imac-rv32 queues command_buffers hostile hostile_probe idle doorbell)

function(rvhal_device_test_executable target dir source)
  if(TARGET ${target})
    return()
  endif()
  add_executable(${target} ${RVHAL_SOURCE_DIR}/tests/${dir}/${source}.c)
  # tests/kernels: dt_shared.h, the constants a test shares with its kernels.
  target_include_directories(${target} PRIVATE ${RVHAL_SOURCE_DIR}/tests/common ${RVHAL_SOURCE_DIR}/tests/device
                                                ${RVHAL_SOURCE_DIR}/tests/kernels ${RVHAL_SOURCE_DIR}/tests/${dir}
                                                ${RVHAL_SOURCE_DIR}/host/src)
  target_compile_definitions(${target} PRIVATE RVHAL_TEST_KERNEL_DIR_RV64="${RVHAL_TEST_KERNEL_DIR_RV64}"
                                               RVHAL_TEST_KERNEL_DIR_RV32="${RVHAL_TEST_KERNEL_DIR_RV32}"
                                               RVHAL_TEST_DEVICE_BUILD_DIR="${CMAKE_BINARY_DIR}")
  target_link_libraries(${target} PRIVATE rvhal)
  # Kernels are built by the device projects; rebuild them with the tests.
  if(RVHAL_DEVICE_TARGETS)
    add_dependencies(${target} ${RVHAL_DEVICE_TARGETS})
  endif()
endfunction()

function(rvhal_device_test name)
  cmake_parse_arguments(T "RV32;CLEANUP;BOARDS;GDB;GDB_BOARDS;GDB_UART" "TIMEOUT;DIR;SOURCE;BOARDS_EXCEPT;BOARDS_MATCH;GDB_WRONG" "ARGS"
                        ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 60)
  endif()
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${RVHAL_TEST_TIMEOUT_SCALE}") # a hang guard, for a loaded host
  if(NOT T_SOURCE)
    set(T_SOURCE ${name})
  endif()
  if(NOT T_DIR)
    set(T_DIR device)
  endif()
  set(target ${T_DIR}_test_${T_SOURCE})
  rvhal_device_test_executable(${target} ${T_DIR} ${T_SOURCE})
  set(variants device.${name}=0)
  if(T_RV32 AND RVHAL_BUILD_RV32)
    list(APPEND variants device.${name}.rv32=qemu-virt-rv32)
  endif()
  if(T_BOARDS)
    foreach(dev ${RVHAL_TEST_DEVICES})
      if((T_BOARDS_EXCEPT AND dev MATCHES "${T_BOARDS_EXCEPT}") OR (T_BOARDS_MATCH AND NOT dev MATCHES "${T_BOARDS_MATCH}") OR
         name IN_LIST RVHAL_TEST_SKIP_${dev})
        continue()
      endif()
      if(NOT dev MATCHES "^qemu-virt-rv(32|64)$")
        list(APPEND variants device.${name}.${dev}=${dev})
      endif()
    endforeach()
  endif()
  if(T_GDB)
    list(APPEND variants device.${name}.gdb=0=gdb)
    if(T_RV32 AND RVHAL_BUILD_RV32)
      list(APPEND variants device.${name}.gdb.rv32=qemu-virt-rv32=gdb)
    endif()
  endif()
  if(T_GDB_BOARDS)
    foreach(dev ${RVHAL_TEST_DEVICES})
      if(NOT dev MATCHES "^qemu-virt-rv(32|64)$" AND NOT name IN_LIST RVHAL_TEST_SKIP_${dev})
        list(APPEND variants device.${name}.gdb.${dev}=${dev}=gdb)
      endif()
    endforeach()
  endif()
  if(T_GDB_UART)
    list(APPEND variants device.${name}.gdb.uart=0=gdb)
  endif()
  if(T_GDB_WRONG)
    list(APPEND variants device.${name}.gdb.wrong=0=gdb)
    foreach(dev ${RVHAL_TEST_DEVICES})
      if(dev MATCHES "^qemu-virt-sbi-")
        list(APPEND variants device.${name}.gdb.wrong.${dev}=${dev}=gdb)
      endif()
    endforeach()
  endif()
  foreach(v ${variants})
    string(REPLACE "=" ";" parts ${v})
    list(GET parts 0 test)
    list(GET parts 1 dev)
    set(env "${RVHAL_DEVICE_TEST_ENV};RVHAL_TEST_DEVICE=${dev}")
    list(LENGTH parts nparts)
    if(nparts GREATER 2)
      list(GET parts 2 backend)
      list(APPEND env RVHAL_BACKEND=${backend})
    endif()
    set(args ${T_ARGS})
    if(test MATCHES "[.]gdb[.]uart$")
      list(APPEND env RVHAL_GDB_DOORBELL=uart)
    elseif(test MATCHES "[.]gdb[.]wrong")
      list(APPEND env RVHAL_GDB_DOORBELL=0x2000004)
      set(args ${T_GDB_WRONG})
    endif()
    # A launch that hangs fails with the library's diagnosis (which launch,
    # the device's state) before ctest kills the test without one.
    math(EXPR launch_timeout_ms "${T_TIMEOUT} * 1000 * 2 / 3")
    list(APPEND env RVHAL_LAUNCH_TIMEOUT_MS=${launch_timeout_ms})
    add_test(NAME ${test} COMMAND ${target} ${args})
    set_tests_properties(${test} PROPERTIES LABELS device TIMEOUT ${T_TIMEOUT} ENVIRONMENT "${env}")
    if(T_CLEANUP)
      set_tests_properties(${test} PROPERTIES FIXTURES_CLEANUP device)
    else()
      set_tests_properties(${test} PROPERTIES FIXTURES_REQUIRED device)
    endif()
  endforeach()
endfunction()

rvhal_device_test(ndrange RV32 BOARDS GDB GDB_BOARDS GDB_UART)
rvhal_device_test(args RV32 BOARDS GDB)
rvhal_device_test(programs RV32 BOARDS)
rvhal_device_test(program_store RV32 BOARDS)
rvhal_device_test(memory RV32 BOARDS GDB)
rvhal_device_test(errors RV32 BOARDS)
rvhal_device_test(trap RV32 BOARDS GDB)
rvhal_device_test(doorbell RV32 BOARDS GDB GDB_BOARDS GDB_UART GDB_WRONG wrong)
rvhal_device_test(late_harts RV32 BOARDS)
rvhal_device_test(no_qemu_left)
rvhal_device_test(queues RV32 BOARDS GDB TIMEOUT 240)
rvhal_device_test(command_buffers RV32 BOARDS GDB TIMEOUT 120)
rvhal_device_test(hostile RV32 BOARDS TIMEOUT 120) # isolation: PMP (M-mode boards), page tables (qemu-virt-sbi)
rvhal_device_test(limits RV32)
# A launch deadline on a loaded host: QEMU's wait for a CPU does not count.
rvhal_device_test(loaded_host TIMEOUT 120)
# ... and a kernel that never ends still times out: the credit has a cap.
rvhal_device_test(loaded_host_cap SOURCE loaded_host ARGS cap TIMEOUT 120)
rvhal_device_test(idle RV32 BOARDS)
rvhal_device_test(deep_path TIMEOUT 120) # every device of the build, from a deep firmware path
# Regression tests for bugs found and fixed (see each source's header): the
# same programs in another mode.
rvhal_device_test(args_natural_align RV32 BOARDS SOURCE args ARGS natural)
rvhal_device_test(memory_staged_program RV32 BOARDS SOURCE memory ARGS staged)
rvhal_device_test(memory_ram RV32 BOARDS SOURCE memory ARGS ram)
rvhal_device_test(errors_kernel_handles RV32 BOARDS SOURCE errors ARGS kernel-handles)
rvhal_device_test(trap_stack_overflow BOARDS GDB SOURCE trap ARGS stack)
rvhal_device_test(hostile_stack RV32 BOARDS SOURCE hostile ARGS stack TIMEOUT 120)
rvhal_device_test(hostile_probe RV32 BOARDS SOURCE hostile ARGS probe TIMEOUT 300) # every isolation scheme, every board
rvhal_device_test(no_qemu_left_thread_exit SOURCE no_qemu_left ARGS thread)
# The fixture's cleanup: runs after every test above.
rvhal_device_test(no_qemu_left_after_suite CLEANUP SOURCE no_qemu_left ARGS after-suite TIMEOUT 30)

# Vector harts (device option vlen) and RVV kernels: only where the device
# build found clang-16 to compile them (cmake/RvhalDevice.cmake).
find_program(RVHAL_CLANG16 clang-16)
if(RVHAL_CLANG16)
  rvhal_device_test(vector RV32)
  target_link_libraries(device_test_vector PRIVATE m)
  # vector state across barrier(): on qemu-virt at every VLEN, and on the
  # vector boards at their own
  rvhal_device_test(vector_barrier RV32 BOARDS BOARDS_MATCH "-rvv-rv(32|64)$")
  # the vector_groups / fp_groups counters, exact
  rvhal_device_test(exec.vector_counters DIR exec SOURCE vector_counters RV32 BOARDS BOARDS_MATCH "-rvv-rv(32|64)$")
endif()

# Per-hart counters over the debug link: through gdb (and unsupported on the
# QEMU backend).
rvhal_device_test(debug_counters GDB)
# Device after device of 4, 2, 1, 3 harts (and other stacks): on one
# attached stub in device.shapes.gdb.remote.{tcp,sbi} below.
rvhal_device_test(shapes)

# A stub rvhal did not start (RVHAL_GDB_REMOTE): external_stub starts a QEMU
# of its own (-S, a gdbstub on 127.0.0.1 TCP, a unix socket, or TCP through
# a proxy adding 2 ms each way), runs a test against it, and passes only if
# the test passes and that QEMU is still running after the test's devices
# detached; then kills it. .pty: the UART as a tty (RVHAL_UART=/dev/pts/N).
# .sbi: board qemu-virt-sbi, S-mode firmware that the target's OpenSBI starts.
rvhal_device_test_executable(device_test_external_stub device external_stub)
# .pair: two QEMUs listed in RVHAL_GDB_REMOTE, a stub for each of the two
# devices queues holds at once.
set(stub_modes tcp unix proxy pty pair)
if("qemu-virt-sbi-rv64" IN_LIST RVHAL_TEST_DEVICES)
  list(APPEND stub_modes sbi)
endif()
foreach(mode ${stub_modes})
  # queues (and command_buffers, not run here) hold two devices at once, and a
  # stub serves one debugger: queues in .pair only
  foreach(t ndrange args memory trap doorbell debug_counters queues shapes)
    if(mode STREQUAL "pair" AND NOT t STREQUAL "queues" OR t STREQUAL "queues" AND NOT mode STREQUAL "pair")
      continue()
    endif()
    if(mode STREQUAL "proxy" AND NOT t MATCHES "^(args|doorbell|debug_counters)$")
      continue() # a slow link: a few tests, not the subset
    endif()
    if(mode STREQUAL "pty" AND NOT t MATCHES "^(ndrange|doorbell)$")
      continue()
    endif()
    if(t STREQUAL "shapes" AND NOT mode MATCHES "^(tcp|sbi)$")
      continue() # one stub reused by devices of every shape: the transport does not matter
    endif()
    add_test(NAME device.${t}.gdb.remote.${mode} COMMAND device_test_external_stub ${mode} $<TARGET_FILE:device_test_${t}>)
    set_tests_properties(device.${t}.gdb.remote.${mode} PROPERTIES LABELS device TIMEOUT 240 FIXTURES_REQUIRED device
                         ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV};RVHAL_TEST_DEVICE=0")
  endforeach()
endforeach()
# A one-hart target (scripts/spike.sh's SPIKE_HARTS=1): every device of
# shapes fits it.
add_test(NAME device.shapes.gdb.remote.one-hart COMMAND device_test_external_stub tcp $<TARGET_FILE:device_test_shapes>)
set_tests_properties(device.shapes.gdb.remote.one-hart PROPERTIES LABELS device TIMEOUT 240 FIXTURES_REQUIRED device
                     ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV};RVHAL_TEST_DEVICE=0;RVHAL_TEST_HARTS=1")
# A stub that turns the first debuggers away (accepts and closes, as OpenOCD
# does until it has seen the last one end): the attach asks again.
add_test(NAME device.doorbell.gdb.remote.turned-away COMMAND device_test_external_stub proxy
              $<TARGET_FILE:device_test_doorbell>)
set_tests_properties(device.doorbell.gdb.remote.turned-away PROPERTIES LABELS device TIMEOUT 240
                     FIXTURES_REQUIRED device
                     ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV};RVHAL_TEST_DEVICE=0;RVHAL_TEST_PROXY_TURN_AWAY=3;RVHAL_TEST_PROXY_DELAY_US=0")
# The other machines attached (-bios none, no -kernel: the image comes
# through the protocol): sifive_u and icicle through QEMU's CPU clusters
# (the multiprocess extension), spike without HTIF.
foreach(dev sifive-u-rv64 icicle-kit-rv64 spike-rv64)
  if(NOT dev IN_LIST RVHAL_TEST_DEVICES)
    continue()
  endif()
  string(REGEX REPLACE "-rv64$" "" mode ${dev})
  foreach(t ndrange doorbell)
    add_test(NAME device.${t}.gdb.remote.${mode} COMMAND device_test_external_stub ${mode} $<TARGET_FILE:device_test_${t}>)
    set_tests_properties(device.${t}.gdb.remote.${mode} PROPERTIES LABELS device TIMEOUT 240 FIXTURES_REQUIRED device
                         ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV}")
  endforeach()
endforeach()
# rvhal info of an attached device names the stub, not QEMU.
add_test(NAME cli.info_boot.gdb.remote.tcp COMMAND device_test_external_stub tcp /bin/sh
              ${RVHAL_SOURCE_DIR}/host/tools/tests/expect.sh 0 "out:^  status +booted in [0-9]+ ms$"
              "out:^  backend +gdb, attached to the stub at 127[.]0[.]0[.]1:[0-9]+ [(]RVHAL_GDB_REMOTE[)]$"
              -- $<TARGET_FILE:rvhal-cli> info --boot --device 0 --harts 2)
set_tests_properties(cli.info_boot.gdb.remote.tcp PROPERTIES LABELS device TIMEOUT 60 FIXTURES_REQUIRED device
                     ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV}")
# Isolation through an attached stub, the parts scripts/spike.sh runs on
# Spike: the hostile kernels' traps and their stores into the firmware, the
# control block, other harts' stacks and read-only code.
add_test(NAME device.hostile_isolation.gdb.remote.tcp COMMAND device_test_external_stub tcp
              $<TARGET_FILE:device_test_hostile> traps wild isolated)
set_tests_properties(device.hostile_isolation.gdb.remote.tcp PROPERTIES LABELS device TIMEOUT 240
                     FIXTURES_REQUIRED device ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV}")
# PMP entry 0 as Spike resets it (a QEMU-ism found on Spike: the firmware
# OR-ed its guard's lock into what reset left, giving a guard that lets
# everything through; a second device is then refused on it).
foreach(t shapes trap_stack_overflow)
  set(exe device_test_${t})
  set(args)
  if(t STREQUAL "trap_stack_overflow")
    set(exe device_test_trap)
    set(args stack)
  endif()
  add_test(NAME device.${t}.gdb.remote.spike-pmp COMMAND device_test_external_stub spike-pmp $<TARGET_FILE:${exe}> ${args})
  set_tests_properties(device.${t}.gdb.remote.spike-pmp PROPERTIES LABELS device TIMEOUT 240 FIXTURES_REQUIRED device
                       ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV}")
endforeach()
# Targets a device does not fit: refused at attach with the cause.
rvhal_device_test_executable(device_test_attach_refused device attach_refused)
set(misfit_rv32 RV32 "qemu-system-riscv32")
set(misfit_ram "no memory at" "-m at least")
set(misfit_nosbi "OpenSBI" "-bios")
foreach(mode misfit_rv32 misfit_ram misfit_nosbi)
  string(REPLACE "_" "-" m ${mode})
  if(m STREQUAL "misfit-nosbi" AND NOT "qemu-virt-sbi-rv64" IN_LIST RVHAL_TEST_DEVICES)
    continue()
  endif()
  add_test(NAME device.attach_refused.gdb.remote.${m} COMMAND device_test_external_stub ${m}
                $<TARGET_FILE:device_test_attach_refused> ${${mode}})
  set_tests_properties(device.attach_refused.gdb.remote.${m} PROPERTIES LABELS device TIMEOUT 60
                       FIXTURES_REQUIRED device ENVIRONMENT "${RVHAL_DEVICE_TEST_ENV}")
endforeach()

# Execution-model and counter tests: barriers under stress, context
# switches, exact counters, the counter API, profile files, print volume,
# __local_variable initial values. Each tests/exec/<source>.c is a device
# test (tests/device/device.cmake), registered as device.exec.<name> and,
# with RV32, device.exec.<name>.rv32.

rvhal_device_test(exec.barrier_stress DIR exec SOURCE barrier_stress ARGS fast RV32 BOARDS GDB TIMEOUT 120)
rvhal_device_test(exec.barrier_stress.counters DIR exec SOURCE barrier_stress ARGS counters TIMEOUT 120 BOARDS)
rvhal_device_test(exec.context_switches DIR exec SOURCE context_switches RV32 BOARDS TIMEOUT 120)
# Not on sifive-u and icicle-kit: there a team's counts differ from one boot
# to the next beyond the test's tolerance (about one run in two), the same
# within a boot; and on a loaded host a lone hart's count of one launch
# differed by 2 instructions from the same launch earlier in the same boot
# (icicle-kit, seen once in CI's sanitizer run). Suspects, not yet
# confirmed: the machines' other devices (Ethernet, ...) arming virtual
# timers, which changes how QEMU's -icount round-robin interleaves the
# harts, or their 1 MHz timebase. Counters on those boards work; only their
# exact repeatability is not claimed (docs/porting.md).
rvhal_device_test(exec.exact_counters DIR exec SOURCE exact_counters ARGS plain TIMEOUT 120 BOARDS
                  BOARDS_EXCEPT "^(sifive-u|icicle-kit)-")
# Teams (harts waiting for each other at barriers) on qemu-virt only: on
# qemu-virt-sbi (once in about ten suite runs) and spike (under a heavier
# load than CI's) a team's barrier waits came out 43,000 cycles apart
# between two runs of the same launch: a team shares QEMU's -icount thread
# in slices set by timer deadlines (docs/counters.md, "Exact timing with
# teams"), and those boards arm timers of their own (spike's polled
# doorbell, OpenSBI's timer).
rvhal_device_test(exec.exact_counters.team DIR exec SOURCE exact_counters ARGS team TIMEOUT 120)
rvhal_device_test(exec.counter_api DIR exec SOURCE counter_api RV32 BOARDS)
rvhal_device_test(exec.profile_files DIR exec SOURCE profile_files)
rvhal_device_test(exec.profile_launches DIR exec SOURCE profile_launches)
rvhal_device_test(exec.progress_callback DIR exec SOURCE progress_callback)
rvhal_device_test(exec.print_volume DIR exec SOURCE print_volume RV32 BOARDS)
rvhal_device_test(exec.local_init DIR exec SOURCE local_init RV32 BOARDS)

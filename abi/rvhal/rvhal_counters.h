/* Counters: one table gives the ids, names, descriptions and units. The
 * firmware (and the kernel SDK) keep one uint64_t per hart counter per hart
 * in rvhal_hart_block_t.counters, indexed by these ids, for the last launch;
 * the host exposes them, and its own device counters, through the HAL
 * counter API (the oneAPI Construction Kit HAL, "Profiling Counters"; docs/counters.md).
 * Cycles are the hart's mcycle; instructions come from rvhal's QEMU plugin
 * when it is loaded (exact, per hart), else from minstret. The DEBUG_*
 * counters are the host's, not the firmware's (its slots stay zero): the
 * hart's own CSRs read through a debug link (the GDB-remote backend) when
 * the launch is submitted and when it completed, for every hart. */
#ifndef RVHAL_ABI_COUNTERS_H
#define RVHAL_ABI_COUNTERS_H

#include "rvhal/rvhal_static_assert.h"

/* X(ID, name, unit, description) */
#define RVHAL_HART_COUNTER_MAP(X)                                              \
  X(CYCLES, "cycles", RVHAL_UNIT_CYCLES, "cycles from this hart's start in the launch to its end") \
  X(INSTRET, "instructions", RVHAL_UNIT_GENERIC, "instructions retired during the launch") \
  X(GROUPS, "work_groups", RVHAL_UNIT_GENERIC, "work-groups this hart ran (as leader)") \
  X(ITEMS, "work_items", RVHAL_UNIT_GENERIC, "work-items this hart ran")       \
  X(BARRIERS, "barriers", RVHAL_UNIT_GENERIC, "barriers passed by this hart's work-items") \
  X(BARRIER_WAIT_CYCLES, "barrier_wait_cycles", RVHAL_UNIT_CYCLES, "cycles asleep waiting for other harts at barriers") \
  X(IDLE_CYCLES, "idle_cycles", RVHAL_UNIT_CYCLES, "launch cycles this hart was not running: before it woke, after its last group") \
  X(KERNEL_CYCLES, "kernel_cycles", RVHAL_UNIT_CYCLES, "cycles inside kernel calls") \
  X(CONTEXT_SWITCHES, "context_switches", RVHAL_UNIT_GENERIC, "work-item context switches at barriers") \
  X(VECTOR_GROUPS, "vector_groups", RVHAL_UNIT_GENERIC, "work-groups of a share of this hart that wrote vector state (VS Dirty at its end)") \
  X(FP_GROUPS, "fp_groups", RVHAL_UNIT_GENERIC, "work-groups of a share of this hart whose kernel used the FPU (its first-use trap; 0 in privileged launches)") \
  X(DEBUG_CYCLES, "debug_cycles", RVHAL_UNIT_CYCLES, "the hart's mcycle from the launch's submission to its completion, read through the debug link") \
  X(DEBUG_INSTRET, "debug_instructions", RVHAL_UNIT_GENERIC, "the hart's minstret from the launch's submission to its completion, read through the debug link")

/* Device counters, kept by the host library (one value each).
 * X(ID, id, name, unit, description) */
#define RVHAL_DEVICE_COUNTER_MAP(X)                                                      \
  X(BYTES_WRITTEN, 16, "bytes_written", RVHAL_UNIT_BYTES, "bytes the host wrote to device memory (last operation)") \
  X(BYTES_READ, 17, "bytes_read", RVHAL_UNIT_BYTES, "bytes the host read from device memory (last operation)") \
  X(LAUNCHES, 18, "launches", RVHAL_UNIT_GENERIC, "kernel launches completed on the device so far") \
  X(LAUNCH_TIME, 19, "launch_time", RVHAL_UNIT_NANOSECONDS, "host wall time of the last launch, submit to completion")

/* Room reserved in the shared hart block; raising it changes the ABI. */
#define RVHAL_HART_COUNTER_SLOTS 16

#ifndef __ASSEMBLER__
enum rvhal_hart_counter_id {
#define RVHAL_COUNTER_ENUM_(id, name, unit, desc) RVHAL_HART_COUNTER_##id,
  RVHAL_HART_COUNTER_MAP(RVHAL_COUNTER_ENUM_)
#undef RVHAL_COUNTER_ENUM_
  RVHAL_NUM_HART_COUNTERS
};

RVHAL_STATIC_ASSERT(RVHAL_NUM_HART_COUNTERS <= RVHAL_HART_COUNTER_SLOTS, "counter block too small");

/* Counter ids: per-hart counters are 0 .. RVHAL_NUM_HART_COUNTERS-1 (their
 * index in the hart block), device counters 16 and up. */
enum rvhal_device_counter_id {
#define RVHAL_DEVICE_COUNTER_ENUM_(id, num, name, unit, desc) RVHAL_COUNTER_##id = num,
  RVHAL_DEVICE_COUNTER_MAP(RVHAL_DEVICE_COUNTER_ENUM_)
#undef RVHAL_DEVICE_COUNTER_ENUM_
};
enum {
#define RVHAL_DEVICE_COUNTER_COUNT_(id, num, name, unit, desc) +1
  RVHAL_NUM_DEVICE_COUNTERS = 0 RVHAL_DEVICE_COUNTER_MAP(RVHAL_DEVICE_COUNTER_COUNT_)
#undef RVHAL_DEVICE_COUNTER_COUNT_
};
/* Device counter ids run from RVHAL_HART_COUNTER_SLOTS without gaps (the
 * host keeps them in arrays indexed by id - RVHAL_HART_COUNTER_SLOTS). */
#define RVHAL_DEVICE_COUNTER_CHECK_(id, num, name, unit, desc)                                     \
  RVHAL_STATIC_ASSERT(num >= RVHAL_HART_COUNTER_SLOTS && num < RVHAL_HART_COUNTER_SLOTS + RVHAL_NUM_DEVICE_COUNTERS, \
                 "device counter " name ": id out of sequence");
RVHAL_DEVICE_COUNTER_MAP(RVHAL_DEVICE_COUNTER_CHECK_)
#undef RVHAL_DEVICE_COUNTER_CHECK_
#endif

#endif /* RVHAL_ABI_COUNTERS_H */

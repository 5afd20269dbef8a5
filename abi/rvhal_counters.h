/* Per-hart counters: one table gives the counter ids, their names,
 * descriptions and units. The firmware keeps one uint64_t per counter per
 * hart in rvhal_hart_block_t.counters, indexed by these ids; the host exposes
 * them through the HAL counter API (seed 004, "Profiling Counters"). */
#ifndef RVHAL_ABI_COUNTERS_H
#define RVHAL_ABI_COUNTERS_H

/* X(ID, name, unit, description) */
#define RVHAL_HART_COUNTER_MAP(X)                                              \
  X(CYCLES, "cycles", RVHAL_UNIT_CYCLES, "cycles from launch start to this hart's end") \
  X(INSTRET, "instructions", RVHAL_UNIT_GENERIC, "instructions retired during the launch") \
  X(GROUPS, "work_groups", RVHAL_UNIT_GENERIC, "work-groups this hart ran (as leader)") \
  X(ITEMS, "work_items", RVHAL_UNIT_GENERIC, "work-items this hart ran")       \
  X(BARRIERS, "barriers", RVHAL_UNIT_GENERIC, "barriers passed by this hart's work-items") \
  X(BARRIER_WAIT_CYCLES, "barrier_wait_cycles", RVHAL_UNIT_CYCLES, "cycles asleep waiting for other harts at barriers") \
  X(IDLE_CYCLES, "idle_cycles", RVHAL_UNIT_CYCLES, "cycles with no work-group left to take") \
  X(KERNEL_CYCLES, "kernel_cycles", RVHAL_UNIT_CYCLES, "cycles inside kernel calls") \
  X(CONTEXT_SWITCHES, "context_switches", RVHAL_UNIT_GENERIC, "work-item context switches at barriers")

/* Room reserved in the shared hart block; raising it changes the ABI. */
#define RVHAL_HART_COUNTER_SLOTS 16

#ifndef __ASSEMBLER__
enum rvhal_hart_counter_id {
#define RVHAL_COUNTER_ENUM_(id, name, unit, desc) RVHAL_HART_COUNTER_##id,
  RVHAL_HART_COUNTER_MAP(RVHAL_COUNTER_ENUM_)
#undef RVHAL_COUNTER_ENUM_
  RVHAL_NUM_HART_COUNTERS
};

_Static_assert(RVHAL_NUM_HART_COUNTERS <= RVHAL_HART_COUNTER_SLOTS, "counter block too small");
#endif

#endif /* RVHAL_ABI_COUNTERS_H */

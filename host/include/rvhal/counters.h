/* Profiling counters (as in the oneAPI Construction Kit HAL, "Profiling Counters"): per hart and per
 * launch — cycles, instructions, work-groups, work-items, barriers, barrier
 * waits, idle and kernel cycles — and per device — bytes written and read by
 * the host, launches, launch time. See docs/counters.md.
 *
 * Counters are recorded when the device was created with
 * rvhal_device_options_t.counters set (or $RVHAL_COUNTERS=1 or
 * $RVHAL_PROFILE); switched off, they cost nothing. With counters on and
 * timing left at its default, the device runs in exact timing mode. */
#ifndef RVHAL_COUNTERS_H
#define RVHAL_COUNTERS_H

#include <stdint.h>

#include "rvhal/rvhal_counters.h" /* counter ids, abi/ */

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* what librvhal exports: host/librvhal.map */

typedef struct rvhal_device rvhal_device_t;

typedef enum rvhal_counter_unit {
  RVHAL_UNIT_GENERIC = 0,
  RVHAL_UNIT_BYTES = 1,
  RVHAL_UNIT_CYCLES = 2,
  RVHAL_UNIT_NANOSECONDS = 3,
} rvhal_counter_unit_t;

typedef enum rvhal_counter_verbosity {
  RVHAL_VERBOSITY_NONE = 0,
  RVHAL_VERBOSITY_LOW = 1,
  RVHAL_VERBOSITY_MEDIUM = 2,
  RVHAL_VERBOSITY_HIGH = 3,
} rvhal_counter_verbosity_t;

typedef struct rvhal_counter_log_config {
  rvhal_counter_verbosity_t min_verbosity_per_value; /* show each hart's value from this level */
  rvhal_counter_verbosity_t min_verbosity_total;     /* show the total from this level */
} rvhal_counter_log_config_t;

typedef struct rvhal_counter_description {
  uint32_t counter_id;        /* RVHAL_HART_COUNTER_* or RVHAL_COUNTER_* */
  const char *name;           /* "cycles" */
  const char *description;
  const char *sub_value_name; /* "hart" for per-hart counters */
  uint32_t contained_values;  /* harts, or 1 */
  rvhal_counter_unit_t unit;
  rvhal_counter_log_config_t log_cfg;
} rvhal_counter_description_t;

/* The device's counters (none when they are switched off). */
int rvhal_device_counters(const rvhal_device_t *device, uint32_t *out_num_counters,
                          const rvhal_counter_description_t **out_descriptions);

/* Reads value `index` (the hart, or 0) of counter `counter_id`: returns 1
 * and sets *out_value if there is a value not read yet, 0 if there is none
 * (it was read since the last launch or memory operation), or a negative
 * status for an unknown counter or index. */
int rvhal_counter_read(rvhal_device_t *device, uint32_t counter_id, uint64_t *out_value, uint32_t index);

/* Instructions hart `hart` has executed since the device started, whatever
 * the launches asked (benchmarks compare launches with counters on and off
 * through it). Needs rvhal's QEMU plugin, which counters=1 loads: else
 * RVHAL_UNSUPPORTED. */
int rvhal_device_instructions(const rvhal_device_t *device, uint32_t hart, uint64_t *out_count);

/* Hart `hart`'s own mcycle and minstret CSRs, read through the debug link
 * (the GDB-remote backend: a hart halted, its registers read by name from
 * the stub's target description), e.g. at the end of a launch. Counts of
 * the hart since it was reset, firmware included, on any board a debugger
 * reaches. RVHAL_UNSUPPORTED on a backend without a debug link (QEMU with
 * shared memory: use the counters above). */
int rvhal_device_debug_counters(rvhal_device_t *device, uint32_t hart, uint64_t *out_mcycle, uint64_t *out_minstret);

/* 1 if instruction counts are exact per hart (rvhal's QEMU plugin counts
 * them) and cycles are deterministic (exact timing mode, and the last
 * launch ran one hart per group); 0 where numbers only look exact. out_why
 * says which part is approximate. */
int rvhal_counters_exact(const rvhal_device_t *device, const char **out_why);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif /* RVHAL_COUNTERS_H */

/* The counter state's updates (counters.c), from what launches and memory
 * operations produced: never from the device itself. */
#ifndef RVHAL_HOST_COUNTERS_INTERNAL_H
#define RVHAL_HOST_COUNTERS_INTERNAL_H

#include <stdint.h>

#include "observe/launch_record.h"

struct rvhal_counter_state;

/* Whether counters are exact and repeatable, and if not why, from the
 * facts: counters on, rvhal's QEMU plugin counting, exact timing, harts
 * per group of the launch. 1: exact. */
int rvhal_counters_exactness(int counters_on, int plugin_counts, int exact_timing, uint32_t harts_per_group,
                             const char **out_why);
/* A launch's per-hart counters, as its record holds them. */
void rvhal_counters_after_launch(struct rvhal_counter_state *c, const rvhal_launch_record_t *r);

#endif /* RVHAL_HOST_COUNTERS_INTERNAL_H */

/* The first two steps of a launch (launch.c owns the rest): check what the
 * caller asked against the device's limits and the kernel's metadata, and
 * plan it (the ND-range in groups, the argument layout, local memory, how
 * the harts share the work). Pure: nothing is read from or written to the
 * device, so the plan is unit tested (tests/unit/test_launch_plan.c). A
 * command list plans each launch once, when it is encoded, and packs it
 * then (command_list_encode.c): its plans are not kept. */
#ifndef RVHAL_HOST_LAUNCH_PLAN_H
#define RVHAL_HOST_LAUNCH_PLAN_H

#include <stdint.h>

#include "launch/launch_request.h"
#include "rvhal/arg_pack.h"
#include "rvhal/device.h"
#include "rvhal/rvhal_kernel_meta.h"
#include "rvhal/rvhal_protocol.h"

struct rvhal_kernel_entry;

/* What the plan needs to know of the device. */
typedef struct rvhal_launch_limits {
  uint32_t word_size;           /* 4 or 8 */
  uint32_t num_harts;
  uint32_t max_work_group_size;
  uint64_t local_mem_size;      /* a work-group's local memory */
  uint32_t host_cpus;           /* harts shared by groups: not more than the host's cores */
  int exact_timing;             /* harts run in turn: never more than one per group unless asked */
} rvhal_launch_limits_t;

typedef struct rvhal_launch_plan {
  const char *kname;
  uint32_t work_dim;
  uint64_t global[3], local[3], offset[3], groups[3]; /* past work_dim: 1 group of 1 item */
  uint64_t last[3];                                   /* items of the last group along each dimension */
  uint64_t total_groups, items_per_group;
  rvhal_arg_layout_t layout[RVHAL_META_MAX_ARGS];
  uint32_t num_args, args_size;                       /* the packed struct's bytes */
  uint32_t num_local_args, local_arg_offset[RVHAL_MAX_LOCAL_ARGS];
  uint64_t local_bytes, group_bytes;                  /* local-buffer arguments; with __local_variable */
  uint32_t harts, team;                               /* harts taking part, harts per group */
  uint64_t chunk;                                     /* groups per claim */
  uint32_t flags;                                     /* RVHAL_LAUNCH_* the options ask (not TLB, not AFTER_OK);
                                                         NON_UNIFORM when some last group is smaller */
} rvhal_launch_plan_t;

/* Checks and plans launching kernel k (name, metadata) with `tls_size`
 * bytes of __local_variable. counting: counters are on for the device;
 * tracing: the profile records a timeline. RVHAL_OK, or an error naming
 * the value that is wrong. Buffer addresses are not checked here (that
 * needs the device's allocations: launch.c). */
int rvhal_launch_plan(const rvhal_launch_limits_t *lim, const struct rvhal_kernel_entry *k, uint64_t tls_size,
                      const rvhal_launch_request_t *r, int counting, int tracing, rvhal_launch_plan_t *out);

#endif /* RVHAL_HOST_LAUNCH_PLAN_H */

/* Per-call and per-group set-up: this hart's share of the work-items, the
 * group's local memory (local-buffer arguments, __local_variable storage),
 * and, for teams of harts, publishing that memory to the other harts. */
#include <string.h>

#include "rvhal/rvhal_launch_geometry.h"
#include "rvhal_kernel.h"

extern char __tdata_start[], __tdata_end[], __tbss_end[];

static inline const rvhal_call_info_t *call_info(const hal_sched_info_t *s) {
  return (const rvhal_call_info_t *)(uintptr_t)s->hal_extra;
}

static inline size_t local_arg_bytes(const void *args, const rvhal_launch_desc_t *d, uint32_t i) {
  /* Local buffers are packed as their size, one device word. */
  return *(const uintptr_t *)((const char *)args + d->local_arg_offset[i]);
}

size_t rvhal_local_block_size(const void *args, const hal_sched_info_t *s) {
  const rvhal_call_info_t *ci = call_info(s);
  if (ci->team_rank != 0) return 0; /* the leader's block serves the team */
  const rvhal_launch_desc_t *d = ci->launch;
  /* Checked sums: the sizes come from the argument block, which a caller
   * (or a kernel's stray store) may have filled with anything; a total that
   * wrapped would pass and hand the kernel too small a block. */
  size_t total = 0;
  for (uint32_t i = 0; i < d->num_local_args; i++) {
    size_t n = local_arg_bytes(args, d, i);
    if (!rvhal_launch_local_add(&total, n, ci->local_mem_size))
      rvhal_svc_fail(ci, RVHAL_LOCAL_MEMORY, "a local buffer exceeds the device's local memory", n);
  }
  total += rvhal_launch_local_block((size_t)(__tbss_end - __tdata_start)); /* link-time size, small */
  if (total > ci->local_mem_size)
    rvhal_svc_fail(ci, RVHAL_LOCAL_MEMORY, "group local memory exceeds the device limit", total);
  return total;
}

/* Carve the block into local-buffer arguments, then the TLS block. */
static void carve(rvhal_group_t *g, const rvhal_launch_desc_t *d, char *block) {
  for (uint32_t i = 0; i < d->num_local_args; i++) {
    g->local_args[i] = block;
    block += rvhal_launch_local_block(local_arg_bytes(g->args, d, i));
  }
  g->tls = block;
}

/* The team's local memory: the leader's block, published to the members.
 * Apart, so that a call without a team saves no registers for it. */
static __attribute__((noinline)) void *team_local_block(const rvhal_call_info_t *ci, void *local_block) {
  rvhal_team_t *team = ci->team;
  if (ci->team_rank == 0) team->local_base = local_block;
  rvhal_svc_team_barrier(ci); /* members now see the leader's block */
  return team->local_base;
}

void rvhal_call_start(rvhal_group_t *g, const void *args, const hal_sched_info_t *s, rvhal_fiber_fn_t fiber,
                      void *local_block) {
  const rvhal_call_info_t *ci = call_info(s);
  const rvhal_launch_desc_t *d = ci->launch;
  g->s = s;
  g->ci = ci;
  g->args = args;
  g->fiber = fiber;
  const uint32_t items = (uint32_t)rvhal_launch_group_items(s->local_size); /* the host checked it */
  const uint32_t rank = ci->team_rank, size = ci->team_size;
  g->team = size > 1;
  g->counting = (d->flags & RVHAL_LAUNCH_COUNTERS) != 0;
  g->first_item = 0;
  g->num_items = items;
  if (g->team) {
    g->first_item = (uint32_t)((uint64_t)items * rank / size);
    g->num_items = (uint32_t)((uint64_t)items * (rank + 1) / size) - g->first_item;
  }
  g->fibers_on = 0;
  g->plain = 0;
  g->finished = 0;
  g->barrier_calls = 0;
  g->switches = 0;
  /* Only a team with local memory syncs beyond the kernel's barriers: the
   * leader's block must be published before use and not reused (by the
   * next group) while a teammate still works in it. Every hart of the team
   * decides alike (members reserve no block of their own). */
  g->team_local = g->team && (d->num_local_args || (uintptr_t)__tbss_end != (uintptr_t)__tdata_start);
  if (g->team_local) local_block = team_local_block(ci, local_block);
  if (local_block) {
    carve(g, d, (char *)local_block);
    __asm__ volatile("mv tp, %0" ::"r"(g->tls));
  }
}

/* Every group starts with the initial values of its __local_variable
 * storage (.tdata); only called when the program has any. */
void rvhal_group_init_tls(rvhal_group_t *g) {
  const rvhal_call_info_t *ci = g->ci;
  if (ci->team_rank == 0) memcpy(g->tls, __tdata_start, (size_t)(__tdata_end - __tdata_start));
  if (g->team_local) rvhal_svc_team_barrier(ci);
}

void rvhal_group_end_team(rvhal_group_t *g) { rvhal_svc_team_barrier(g->ci); }

void rvhal_call_end(rvhal_group_t *g, uint64_t groups) {
  uint64_t *c = g->ci->counters;
  c[RVHAL_HART_COUNTER_ITEMS] += g->num_items * groups;
  c[RVHAL_HART_COUNTER_BARRIERS] += g->barrier_calls;
  c[RVHAL_HART_COUNTER_CONTEXT_SWITCHES] += g->switches;
}

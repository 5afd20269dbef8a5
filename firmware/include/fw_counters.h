/* Counters and timeline events, recorded only when the launch asks
 * (RVHAL_LAUNCH_COUNTERS / RVHAL_LAUNCH_TRACE): switched off they cost one
 * flag test per kernel call. */
#ifndef FW_COUNTERS_H
#define FW_COUNTERS_H

#include "fw.h"
#include "fw_launch.h"
#include "fw_mmio.h"

/* Instructions this hart executed: rvhal's QEMU plugin keeps an exact
 * per-hart count in the control block; without it, minstret (which QEMU
 * derives from its virtual clock under -icount: all harts together). */
static inline uint64_t fw_instret(const fw_hart_t *hart) {
  const rvhal_insn_counts_t *c = &FW_CTRL->insns;
  if (c->active) return fw_load_u64(&c->hart[hart->index].count);
  return fw_read_minstret();
}

static inline void fw_trace(fw_hart_t *hart, uint32_t kind, uint32_t count, const uint32_t group[3]) {
  if (!(hart->launch->desc->flags & RVHAL_LAUNCH_TRACE)) return;
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  rvhal_hart_block_t *blk = hart->block;
  uint32_t n = blk->trace_events;
  if ((uint64_t)(n + 1) * sizeof(rvhal_trace_event_t) > b->trace_size) {
    blk->trace_dropped++;
    return;
  }
  rvhal_trace_event_t *e =
      (rvhal_trace_event_t *)(uintptr_t)(b->trace_base + (uint64_t)hart->index * b->trace_size) + n;
  e->cycle = fw_read_mcycle();
  e->kind = kind;
  e->count = count;
  if (group) {
    e->group[0] = group[0];
    e->group[1] = group[1];
    e->group[2] = group[2];
  }
  blk->trace_events = n + 1;
}

#endif /* FW_COUNTERS_H */

/* rvhal_device_launch_progress: a read-only look at the launch a device is
 * running, from the control block the firmware writes (timeline events and
 * the QEMU plugin's instruction counts), for heartbeats. */
#include <string.h>
#include <time.h>

#include "device/device_internal.h"

static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int rvhal_device_launch_progress(const rvhal_device_t *d, rvhal_launch_progress_t *out) {
  if (!d || !out) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_launch_progress: NULL argument");
  memset(out, 0, sizeof *out);
  uint64_t seq = __atomic_load_n(&d->inflight.seq, __ATOMIC_ACQUIRE);
  if (!seq) return RVHAL_OK;
  out->seq = seq;
  uint64_t now = mono_ns();
  out->elapsed_ns = now > d->inflight.start_ns ? now - d->inflight.start_ns : 0;
  out->num_groups = d->inflight.groups;
  out->harts = d->inflight.harts;
  const rvhal_ctrl_t *c = d->ctrl;
  out->have_instructions = __atomic_load_n(&c->insns.active, __ATOMIC_RELAXED) != 0;
  out->have_groups = d->inflight.trace && d->layout.trace_size;
  /* a non-coherent backend: this thread's own look at the device (no
   * instruction counts there: the plugin needs shared memory) */
  if (out->have_groups && !rvhal_dev_coherent(d)) {
    RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate_ptr(d, c->harts, d->info.num_harts * sizeof c->harts[0]));
    for (uint32_t h = 0; h < d->info.num_harts && h < RVHAL_MAX_HARTS; h++) {
      uint64_t n = c->harts[h].trace_events, cap = d->layout.trace_size / sizeof(rvhal_trace_event_t);
      RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate(d, d->layout.trace_base + (uint64_t)h * d->layout.trace_size,
                                                 (n < cap ? n : cap) * sizeof(rvhal_trace_event_t)));
    }
  }
  for (uint32_t h = 0; h < d->info.num_harts && h < RVHAL_MAX_HARTS; h++) {
    if (out->have_instructions) out->instructions[h] = __atomic_load_n(&c->insns.hart[h].count, __ATOMIC_RELAXED);
    if (!out->have_groups) continue;
    uint32_t n = __atomic_load_n(&c->harts[h].trace_events, __ATOMIC_ACQUIRE);
    uint64_t cap = d->layout.trace_size / sizeof(rvhal_trace_event_t);
    const rvhal_trace_event_t *e = rvhal_dev_ptr(d, d->layout.trace_base + (uint64_t)h * d->layout.trace_size);
    for (uint32_t i = 0; i < n && i < cap; i++)
      if (e[i].kind == RVHAL_TRACE_CALL_BEGIN) out->groups_begun[h] += e[i].count;
  }
  return RVHAL_OK;
}

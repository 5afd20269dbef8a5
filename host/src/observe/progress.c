/* rvhal_device_launch_progress: a read-only look at the launch a device is
 * running, from the control block the firmware writes (timeline events and
 * the QEMU plugin's instruction counts), for heartbeats; and the thread
 * that hands it to options.progress_fn while launches run. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "observe/observe_state.h"

int rvhal_device_launch_progress(const rvhal_device_t *d, rvhal_launch_progress_t *out) {
  if (!d || !out) return rvhal_error(RVHAL_INVALID_ARGUMENT, "device_launch_progress: NULL argument");
  memset(out, 0, sizeof *out);
  const rvhal_launch_in_flight_t *f = &rvhal_observe_of(d)->in_flight;
  uint64_t seq = __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE);
  if (!seq) return RVHAL_OK;
  out->seq = seq;
  uint64_t now = rvhal_now_ns();
  out->elapsed_ns = now > f->start_ns ? now - f->start_ns : 0;
  out->num_groups = f->groups;
  out->harts = f->harts;
  const rvhal_ctrl_t *c = rvhal_device_ctrl(d);
  const rvhal_layout_t *l = rvhal_device_layout(d);
  const uint32_t num_harts = rvhal_device_get_info(d)->num_harts;
  out->have_instructions = __atomic_load_n(&c->insns.active, __ATOMIC_RELAXED) != 0;
  out->have_groups = f->trace && l->trace_size;
  out->fraction_done = -1;
  const uint32_t team = f->team ? f->team : 1;
  /* a non-coherent backend: this thread's own look at the device (no
   * instruction counts there: the plugin needs shared memory) */
  if (out->have_groups && !rvhal_dev_coherent(d)) {
    RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate_ptr(d, c->harts, num_harts * sizeof c->harts[0]));
    for (uint32_t h = 0; h < num_harts && h < RVHAL_MAX_HARTS; h++) {
      uint64_t n = c->harts[h].trace_events, cap = l->trace_size / sizeof(rvhal_trace_event_t);
      RVHAL_RETURN_IF_ERROR(rvhal_dev_invalidate(d, l->trace_base + (uint64_t)h * l->trace_size,
                                                 (n < cap ? n : cap) * sizeof(rvhal_trace_event_t)));
    }
  }
  for (uint32_t h = 0; h < num_harts && h < RVHAL_MAX_HARTS; h++) {
    if (out->have_instructions) out->instructions[h] = __atomic_load_n(&c->insns.hart[h].count, __ATOMIC_RELAXED);
    if (!out->have_groups) continue;
    uint32_t n = __atomic_load_n(&c->harts[h].trace_events, __ATOMIC_ACQUIRE);
    uint64_t cap = l->trace_size / sizeof(rvhal_trace_event_t);
    const rvhal_trace_event_t *e = rvhal_dev_ptr(d, l->trace_base + (uint64_t)h * l->trace_size);
    /* A call is done once its end follows; every member of a team calls
     * the kernel for the team's groups: the leader's calls count. */
    uint64_t open = 0, done = 0;
    for (uint32_t i = 0; i < n && i < cap; i++) {
      uint32_t kind = e[i].kind, count = e[i].count;
      if (kind == RVHAL_TRACE_CALL_BEGIN) out->groups_begun[h] += count, open = count;
      if (kind == RVHAL_TRACE_CALL_END) done += open, open = 0;
    }
    if (h % team == 0) out->groups_done += done;
  }
  if (out->have_groups) {
    if (out->groups_done > out->num_groups) out->groups_done = out->num_groups; /* device memory: bounded */
    out->fraction_done = out->num_groups ? (double)out->groups_done / (double)out->num_groups : 1.0;
  }
  return RVHAL_OK;
}

/* ---- the progress thread --------------------------------------------------- */

struct rvhal_progress_thread {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int stop;
  const rvhal_device_t *device;
};

static void *progress_main(void *arg) {
  struct rvhal_progress_thread *t = arg;
  const rvhal_device_t *d = t->device;
  const rvhal_device_options_t *opt = rvhal_device_options(d);
  const uint64_t interval_ns = (uint64_t)opt->progress_interval_ms * 1000000ull;
  pthread_mutex_lock(&t->lock);
  while (!t->stop) {
    struct timespec at;
    clock_gettime(CLOCK_MONOTONIC, &at);
    uint64_t ns = (uint64_t)at.tv_nsec + interval_ns;
    at.tv_sec += (time_t)(ns / 1000000000ull);
    at.tv_nsec = (long)(ns % 1000000000ull);
    if (pthread_cond_timedwait(&t->cond, &t->lock, &at) != ETIMEDOUT || t->stop) continue;
    rvhal_launch_progress_t p;
    if (rvhal_device_launch_progress(d, &p) || !p.seq || p.elapsed_ns < interval_ns) continue;
    pthread_mutex_unlock(&t->lock); /* the callback may take its time; stop waits for it */
    opt->progress_fn(opt->progress_user, &p);
    pthread_mutex_lock(&t->lock);
  }
  pthread_mutex_unlock(&t->lock);
  return NULL;
}

int rvhal_progress_thread_start(const rvhal_device_t *d) {
  if (!rvhal_device_options(d)->progress_fn) return RVHAL_OK;
  struct rvhal_progress_thread *t = calloc(1, sizeof *t);
  if (!t) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&t->cond, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_init(&t->lock, NULL);
  t->device = d;
  int err = pthread_create(&t->thread, NULL, progress_main, t);
  if (err) {
    pthread_cond_destroy(&t->cond);
    pthread_mutex_destroy(&t->lock);
    free(t);
    return rvhal_error(RVHAL_HOST_IO, "progress_fn: cannot start its thread: %s", strerror(err));
  }
  rvhal_observe_of(d)->progress_thread = t;
  return RVHAL_OK;
}

void rvhal_progress_thread_stop(rvhal_observe_t *o) {
  struct rvhal_progress_thread *t = o->progress_thread;
  if (!t) return;
  pthread_mutex_lock(&t->lock);
  t->stop = 1;
  pthread_cond_signal(&t->cond);
  pthread_mutex_unlock(&t->lock);
  pthread_join(t->thread, NULL);
  pthread_cond_destroy(&t->cond);
  pthread_mutex_destroy(&t->lock);
  free(t);
  o->progress_thread = NULL;
}

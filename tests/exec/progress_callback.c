/* The progress callback (rvhal_device_options_t.progress_fn,
 * host/src/observe/progress.c; kernel: ex_asm_loop in tests/exec/ex_misc.c).
 *
 * A device with counters and progress_fn every 20 ms runs one long launch
 * (many work-groups of a counted loop, long enough for several intervals
 * even on an idle machine) with rvhal_kernel_exec, which blocks; the test
 * does not poll. Then:
 * - the callback was called at least once during the launch, always on
 *   rvhal's own thread, never with seq 0, and with that launch's seq, its
 *   number of groups and harts;
 * - each call says the fraction of groups done (have_groups, fraction in
 *   [0, 1], groups_done = fraction x groups), and the fractions never go
 *   down; elapsed time never goes down and is at least one interval;
 * - after the launch, 5 intervals of idling bring no further call;
 * - a device without progress_fn never calls it (nothing to call), and
 *   deleting a device with one stops its thread (no call after delete). */
#include <pthread.h>
#include <time.h>

#include "exec_util.h"

#define INTERVAL_MS 20
#define MAX_CALLS 4096

typedef struct seen {
  pthread_mutex_t lock;
  pthread_t main_thread;
  int calls, on_main_thread, deleted_calls;
  int deleted;
  rvhal_launch_progress_t p[MAX_CALLS];
} seen_t;

static void on_progress(void *user, const rvhal_launch_progress_t *p) {
  seen_t *s = user;
  pthread_mutex_lock(&s->lock);
  if (pthread_equal(pthread_self(), s->main_thread)) s->on_main_thread++;
  if (s->deleted) s->deleted_calls++;
  if (s->calls < MAX_CALLS) s->p[s->calls] = *p;
  s->calls++;
  pthread_mutex_unlock(&s->lock);
}

static int calls_now(seen_t *s) {
  pthread_mutex_lock(&s->lock);
  int n = s->calls;
  pthread_mutex_unlock(&s->lock);
  return n;
}

int main(void) {
  ex_clean_env();
  static seen_t s = {.lock = PTHREAD_MUTEX_INITIALIZER};
  s.main_thread = pthread_self();
  rvhal_device_options_t o = {0};
  o.counters = 1;
  o.progress_fn = on_progress;
  o.progress_user = &s;
  o.progress_interval_ms = INTERVAL_MS;
  rvhal_device_t *d = fixture_device_opts(4, &o);
  const rvhal_device_info_t *info = rvhal_device_get_info(d);
  hal_program_t pm = fixture_program(d, "ex_misc");
  hal_kernel_t k = fixture_kernel(d, pm, "ex_asm_loop");
  hal_addr_t out = dt_buffer(d, 64, NULL);
  /* 2 instructions an iteration: 512 groups x 150k iterations is 150M
   * guest instructions, several 20 ms intervals even for a fast QEMU */
  uint64_t n = 150000, groups = 512, g[3] = {groups, 1, 1}, l[3] = {1, 1, 1};
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&n, info->word_size)};
  CHECK_MSG(calls_now(&s) == 0, "progress_fn called %d times before any launch", calls_now(&s));
  int rc = ex_launch(d, pm, k, 1, g, l, args, 2, NULL, "ex_asm_loop");
  rvhal_launch_report_t rep = {0};
  if (!rc) CHECK_OK(rvhal_device_last_launch(d, &rep));
  int during = calls_now(&s);
  printf("  launch %" PRIu64 ": %" PRIu64 " groups on %u harts, host %.1f ms: %d progress calls\n", rep.seq,
         rep.num_groups, rep.harts, (double)rep.host_ns / 1e6, during);
  CHECK_MSG(during >= 1, "a launch of %.1f ms with progress every %d ms: progress_fn never called",
            (double)rep.host_ns / 1e6, INTERVAL_MS);
  CHECK_MSG(s.on_main_thread == 0, "progress_fn called %d times on the launching thread", s.on_main_thread);
  double last_frac = 0;
  uint64_t last_elapsed = 0;
  for (int i = 0; i < during && i < MAX_CALLS; i++) {
    const rvhal_launch_progress_t *p = &s.p[i];
    CHECK_MSG(p->seq == rep.seq, "call %d: seq %" PRIu64 ", the launch was %" PRIu64, i, p->seq, rep.seq);
    CHECK_MSG(p->num_groups == groups && p->harts == rep.harts, "call %d: %" PRIu64 " groups on %u harts, the launch "
              "had %" PRIu64 " on %u", i, p->num_groups, p->harts, groups, rep.harts);
    CHECK_MSG(p->have_groups && p->fraction_done >= 0 && p->fraction_done <= 1,
              "call %d: have_groups %d, fraction_done %g", i, p->have_groups, p->fraction_done);
    CHECK_MSG(p->groups_done <= groups && (double)p->groups_done == p->fraction_done * (double)groups,
              "call %d: groups_done %" PRIu64 " and fraction %g of %" PRIu64, i, p->groups_done, p->fraction_done,
              groups);
    CHECK_MSG(p->fraction_done >= last_frac, "call %d: fraction done went down, %g after %g", i, p->fraction_done,
              last_frac);
    CHECK_MSG(p->elapsed_ns >= (uint64_t)INTERVAL_MS * 1000000u && p->elapsed_ns >= last_elapsed,
              "call %d: elapsed %" PRIu64 " ns (interval %d ms, previous %" PRIu64 ")", i, p->elapsed_ns, INTERVAL_MS,
              last_elapsed);
    printf("  call %d: %.1f ms, %" PRIu64 " of %" PRIu64 " groups done (%.1f%%)\n", i, (double)p->elapsed_ns / 1e6,
           p->groups_done, groups, 100 * p->fraction_done);
    last_frac = p->fraction_done;
    last_elapsed = p->elapsed_ns;
  }
  struct timespec idle = {0, 5 * INTERVAL_MS * 1000000L};
  nanosleep(&idle, NULL);
  CHECK_MSG(calls_now(&s) == during, "progress_fn called %d times while no launch ran", calls_now(&s) - during);
  pthread_mutex_lock(&s.lock);
  s.deleted = 1;
  pthread_mutex_unlock(&s.lock);
  rvhal_device_delete(d);
  nanosleep(&idle, NULL);
  CHECK_MSG(s.deleted_calls == 0, "progress_fn called %d times after device_delete", s.deleted_calls);
  return check_result("exec.progress_callback");
}

/* Queues, events and timeline semaphores (rvhal/queue.h) on real devices:
 * order within a queue, out-of-order queues, waits across queues and
 * devices, semaphores
 * (including waits already satisfied), callbacks, a failing kernel in the
 * middle of a queue, destroying a queue or device with work pending, and
 * 8 threads x 1000 commands on one device with every result checked. */
#include <pthread.h>
#include <stdatomic.h>

#include "dev_util.h"
#include "dt_shared.h"

#define N 64u /* work-items per launch */

static const uint32_t table_b[8] = PROG_B_TABLE(1);

static rvhal_device_t *dev;
static hal_program_t prog_b, prog_t, prog_m;
static hal_kernel_t k_fill, k_mix, k_trap, k_wait_word, k_set_word;

/* Launch prog_b_fill: out[i] = v + i. */
static int enqueue_fill_kernel(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_addr_t out, uint32_t v,
                               rvhal_event_t **ev) {
  hal_arg_t a[2] = {rvhal_arg_global(out), rvhal_arg_value(&v, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  return rvhal_enqueue_kernel(q, deps, prog_b, k_fill, &nd, a, 2, 1, NULL, ev);
}

/* Launch prog_b_mix: out[i] = prog_b_formula(in[i], k, table[i % 8], bias). */
static int enqueue_mix_kernel(rvhal_queue_t *q, const rvhal_dependencies_t *deps, hal_addr_t out, hal_addr_t in,
                              uint32_t k, rvhal_event_t **ev) {
  hal_arg_t a[3] = {rvhal_arg_global(out), rvhal_arg_global(in), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  return rvhal_enqueue_kernel(q, deps, prog_b, k_mix, &nd, a, 3, 1, NULL, ev);
}

static uint32_t mix(uint32_t in, uint32_t k, uint32_t i) { return prog_b_formula(in, k, table_b[i % 8], PROG_B_BIAS(1)); }

/* A chain of kernels in one queue, each reading the previous one's output:
 * only in-order execution gives the expected values. */
static void test_order(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  hal_addr_t buf[2] = {dt_buffer(dev, N * 4, NULL), dt_buffer(dev, N * 4, NULL)};
  uint32_t in[N], want[N], got[N];
  for (uint32_t i = 0; i < N; i++) want[i] = in[i] = i * 2654435761u;
  CHECK_OK(rvhal_enqueue_write(q, NULL, buf[0], in, sizeof in, NULL));
  for (uint32_t s = 0; s < 10; s++) {
    CHECK_OK(enqueue_mix_kernel(q, NULL, buf[(s + 1) % 2], buf[s % 2], s, NULL));
    for (uint32_t i = 0; i < N; i++) want[i] = mix(want[i], s, i);
  }
  rvhal_event_t *done;
  CHECK_OK(rvhal_enqueue_read(q, NULL, got, buf[0], sizeof got, &done));
  CHECK_OK(rvhal_event_wait(done, RVHAL_WAIT_FOREVER));
  CHECK_BYTES(got, want, sizeof got, "10 chained kernels in one queue");
  rvhal_event_times_t t;
  CHECK_OK(rvhal_event_times(done, &t));
  CHECK(t.queued_ns && t.queued_ns <= t.submitted_ns && t.submitted_ns <= t.started_ns && t.started_ns <= t.ended_ns);
  rvhal_event_release(done);
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  rvhal_queue_destroy(q);
  rvhal_mem_free(dev, buf[0]);
  rvhal_mem_free(dev, buf[1]);
}

/* Waits on a semaphore value already reached return at once: the host's
 * wait, and a queued command (its kernel too) waiting on it. A wait that
 * slept out its timeout and then returned RVHAL_OK passed every other test
 * (s->value <= value in semaphore.c). The bound is generous: 1 s against a
 * 30 s timeout. */
static void test_reached_at_once(void) {
  rvhal_semaphore_t *s;
  CHECK_OK(rvhal_semaphore_create(5, &s));
  const uint64_t values[] = {0, 4, 5};
  for (size_t i = 0; i < sizeof values / sizeof *values; i++) {
    double t0 = dt_now();
    CHECK_OK(rvhal_semaphore_wait(s, values[i], 30000));
    double took = dt_now() - t0;
    CHECK_MSG(took < 1.0, "semaphore at 5: a wait for %llu took %.0f ms (timeout 30000 ms)",
              (unsigned long long)values[i], took * 1e3);
  }
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  hal_addr_t a = dt_buffer(dev, N * 4, NULL);
  rvhal_semaphore_value_t reached = {s, 5};
  rvhal_dependencies_t deps = {.wait_semaphores = &reached, .num_wait_semaphores = 1};
  rvhal_event_t *e;
  double t0 = dt_now();
  CHECK_OK(enqueue_fill_kernel(q, &deps, a, 7, &e));
  CHECK_OK(rvhal_event_wait(e, 30000));
  double took = dt_now() - t0;
  CHECK_MSG(took < 1.0, "a kernel waiting on a semaphore value already reached took %.0f ms", took * 1e3);
  rvhal_event_release(e);
  rvhal_queue_destroy(q);
  rvhal_mem_free(dev, a);
  rvhal_semaphore_destroy(s);
}

static uint64_t started(rvhal_event_t *e) {
  rvhal_event_times_t t = {0};
  CHECK_OK(rvhal_event_times(e, &t));
  return t.started_ns;
}

static uint64_t ended(rvhal_event_t *e) {
  rvhal_event_times_t t = {0};
  CHECK_OK(rvhal_event_times(e, &t));
  return t.ended_ns;
}

/* An out-of-order queue: commands behind one held by a semaphore run (a
 * kernel and a write, waited for with a timeout: in order they would wait
 * for ever); a barrier, a marker without dependencies and a free wait for
 * the held one, and what follows the barrier too; a write runs while a
 * kernel of the same queue is on the device (the kernel sees it: in order
 * it would poll out its bound). */
static void test_out_of_order(void) {
  rvhal_queue_t *q;
  CHECK_FAILS(rvhal_queue_create_with_flags(dev, 0x80, &q), RVHAL_INVALID_ARGUMENT, "unknown flags 0x80");
  CHECK_OK(rvhal_queue_create_with_flags(dev, RVHAL_QUEUE_OUT_OF_ORDER, &q));
  rvhal_semaphore_t *gate;
  CHECK_OK(rvhal_semaphore_create(0, &gate));
  hal_addr_t a = dt_buffer(dev, N * 4, NULL), b = dt_buffer(dev, N * 4, NULL), c = dt_buffer(dev, N * 4, NULL);
  hal_addr_t spare = dt_buffer(dev, N * 4, NULL);
  rvhal_semaphore_value_t wait_gate = {gate, 1};
  rvhal_dependencies_t held = {.wait_semaphores = &wait_gate, .num_wait_semaphores = 1};
  rvhal_event_t *ea, *eb, *ew, *ebar, *ec, *emark, *efree;
  uint32_t pattern[N];
  for (uint32_t i = 0; i < N; i++) pattern[i] = i * 7u;
  CHECK_OK(enqueue_fill_kernel(q, &held, a, 100, &ea));
  CHECK_OK(enqueue_fill_kernel(q, NULL, b, 200, &eb));
  CHECK_OK(rvhal_enqueue_write(q, NULL, c, pattern, sizeof pattern, &ew));
  CHECK_OK(rvhal_event_wait(eb, 30000));
  CHECK_OK(rvhal_event_wait(ew, 30000));
  CHECK_EQ_U64(rvhal_event_query(ea, NULL), 0); /* still held */
  CHECK_OK(rvhal_enqueue_barrier(q, NULL, &ebar));
  CHECK_OK(enqueue_fill_kernel(q, NULL, c, 300, &ec));
  CHECK_OK(rvhal_enqueue_marker(q, NULL, &emark));
  CHECK_OK(rvhal_enqueue_free(q, NULL, spare, &efree));
  usleep(100 * 1000); /* time enough to pass it, were it passable */
  CHECK_EQ_U64(rvhal_event_query(ec, NULL), 0); /* behind the barrier */
  CHECK_OK(rvhal_semaphore_signal(gate, 1));
  CHECK_OK(rvhal_queue_finish(q, 30000));
  CHECK_MSG(started(ebar) >= ended(ea) && started(ec) >= ended(ebar), "the barrier was passed: a ended %llu, "
            "barrier %llu..%llu, c started %llu", (unsigned long long)ended(ea), (unsigned long long)started(ebar),
            (unsigned long long)ended(ebar), (unsigned long long)started(ec));
  CHECK(started(emark) >= ended(ea) && started(efree) >= ended(ea));
  uint32_t got[N];
  CHECK_OK(rvhal_mem_read(dev, got, a, sizeof got));
  CHECK_EQ_U64(got[N - 1], 100 + N - 1);
  CHECK_OK(rvhal_mem_read(dev, got, c, sizeof got));
  CHECK_EQ_U64(got[N - 1], 300 + N - 1);
  rvhal_event_t *evs[] = {ea, eb, ew, ebar, ec, emark, efree};
  for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) rvhal_event_release(evs[i]);

  /* a write beside a kernel on the device */
  hal_addr_t flag = dt_buffer(dev, 64, NULL), out = dt_buffer(dev, 64, NULL);
  uint32_t value = 0x600dcafe, polls = 1u << 26;
  hal_arg_t args[4] = {rvhal_arg_global(flag), rvhal_arg_global(out), rvhal_arg_value(&value, 4),
                       rvhal_arg_value(&polls, 4)};
  hal_ndrange_t one = {.global = {1}, .local = {1}};
  rvhal_event_t *ek;
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, prog_m, k_wait_word, &one, args, 4, 1, NULL, &ek));
  CHECK_OK(rvhal_enqueue_write(q, NULL, flag, &value, 4, NULL));
  CHECK_OK(rvhal_queue_finish(q, 60000));
  uint32_t seen[2];
  CHECK_OK(rvhal_mem_read(dev, seen, out, sizeof seen));
  CHECK_MSG(seen[0] == 1, "the kernel did not see the write enqueued after it (%u polls): it ran after the kernel",
            seen[1]);
  rvhal_event_release(ek);
  rvhal_queue_destroy(q);
  rvhal_semaphore_destroy(gate);
  hal_addr_t bufs[] = {a, b, c, flag, out};
  for (size_t i = 0; i < sizeof bufs / sizeof *bufs; i++) rvhal_mem_free(dev, bufs[i]);
}

/* A launch of every hart that holds the device (polling a word) while the
 * launches a check enqueues after it go on the ring behind it, so that the
 * firmware finds them there together. All wait for one semaphore (h->deps),
 * so that the queue's launch thread puts them on the device in one go: left
 * with one launch on the device it would wait for that one first.
 * hold_release signals it and lets the holder go once `last` is on the
 * device. */
typedef struct holder {
  hal_addr_t word, out;
  uint32_t go, polls;
  rvhal_event_t *event;
  rvhal_semaphore_t *gate;
  rvhal_semaphore_value_t open;
  rvhal_dependencies_t deps;
} holder_t;

static void hold_device(rvhal_device_t *d, rvhal_queue_t *q, hal_program_t prog, hal_kernel_t wait, holder_t *h) {
  uint32_t zero[16] = {0};
  h->word = dt_buffer(d, 64, zero);
  h->out = dt_buffer(d, 64, zero);
  h->go = 0x60;
  h->polls = 1u << 30;
  hal_arg_t args[4] = {rvhal_arg_global(h->word), rvhal_arg_global(h->out), rvhal_arg_value(&h->go, 4),
                       rvhal_arg_value(&h->polls, 4)};
  hal_ndrange_t every = {.global = {rvhal_device_get_info(d)->num_harts}, .local = {1}};
  CHECK_OK(rvhal_semaphore_create(0, &h->gate));
  h->open = (rvhal_semaphore_value_t){h->gate, 1};
  h->deps = (rvhal_dependencies_t){.wait_semaphores = &h->open, .num_wait_semaphores = 1};
  CHECK_OK(rvhal_enqueue_kernel(q, &h->deps, prog, wait, &every, args, 4, 1, NULL, &h->event));
}

static void hold_release(rvhal_device_t *d, holder_t *h, rvhal_event_t *last) {
  CHECK_OK(rvhal_semaphore_signal(h->gate, 1));
  rvhal_event_times_t t = {0};
  for (int i = 0; i < 30000 && !t.submitted_ns; i++) {
    CHECK_OK(rvhal_event_times(last, &t));
    if (!t.submitted_ns) usleep(1000);
  }
  CHECK_MSG(t.submitted_ns != 0, "the launches behind the holder were not submitted within 30 s");
  usleep(20 * 1000); /* (submitted_ns is set just before the ring entry is written) */
  CHECK_OK(rvhal_mem_write(d, h->word, &h->go, 4));
}

static void hold_end(rvhal_device_t *d, holder_t *h) {
  uint32_t held[2];
  CHECK_OK(rvhal_mem_read(d, held, h->out, sizeof held));
  CHECK_MSG(held[0] == 1, "the holding launch polled out its bound (%u polls) before the host let it go", held[1]);
  rvhal_event_release(h->event);
  rvhal_semaphore_destroy(h->gate);
  rvhal_mem_free(d, h->word);
  rvhal_mem_free(d, h->out);
}

/* The outcome of a waiting launch `ew` (polled for a word, `polls` at
 * most: seen = {saw it, polls}) and the one beside it that writes the word
 * (`es`): with `room` beside the first they overlapped and it saw the
 * word; without (one hart) they ran in turn and it polled out its bound.
 * Releases both events. */
static void check_overlapped(const char *what, int room, const uint32_t seen[2], uint32_t polls, rvhal_event_t *ew,
                             rvhal_event_t *es) {
  rvhal_event_times_t tw, ts;
  CHECK_OK(rvhal_event_times(ew, &tw));
  CHECK_OK(rvhal_event_times(es, &ts));
  if (!room) { /* one hart (shakti_c): no room beside a launch; in turn, the word came after the polls */
    CHECK_MSG(seen[0] == 0 && seen[1] == polls, "%s: no room beside: the waiting launch saw the word (%u polls)", what,
              seen[1]);
    CHECK(ts.device_start_ns >= tw.device_end_ns);
  } else {
    CHECK_MSG(seen[0] == 1, "%s: the launch waiting for the word its neighbour writes polled out its bound (%u polls): "
              "the two ran one after the other, not side by side", what, seen[1]);
    CHECK_MSG(ts.device_start_ns <= tw.device_end_ns && tw.device_start_ns <= ts.device_end_ns,
              "%s: device spans do not overlap: %llu..%llu and %llu..%llu ns", what,
              (unsigned long long)tw.device_start_ns, (unsigned long long)tw.device_end_ns,
              (unsigned long long)ts.device_start_ns, (unsigned long long)ts.device_end_ns);
  }
  rvhal_event_release(ew);
  rvhal_event_release(es);
}

/* Two independent launches of an out-of-order queue that fit on the
 * device's harts together run side by side (RVHAL_LAUNCH_OVERLAP): the
 * first polls for a word the second writes; one after the other, it would
 * poll out its bound. With `team` > 1 each is one group on a team of that
 * many harts (the second's team starts at hart `team`), else one work-item
 * on one hart. */
static void check_pair(rvhal_device_t *d, hal_program_t prog, hal_kernel_t wait, hal_kernel_t set, uint32_t team) {
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create_with_flags(d, RVHAL_QUEUE_OUT_OF_ORDER, &q));
  uint32_t zero[16] = {0};
  hal_addr_t flag = dt_buffer(d, 64, zero), out = dt_buffer(d, 64, zero);
  uint32_t value = 0x600dcafe, polls = 1u << 26;
  hal_arg_t wait_args[4] = {rvhal_arg_global(flag), rvhal_arg_global(out), rvhal_arg_value(&value, 4),
                            rvhal_arg_value(&polls, 4)};
  hal_arg_t set_args[2] = {rvhal_arg_global(flag), rvhal_arg_value(&value, 4)};
  hal_ndrange_t one = {.global = {team}, .local = {team}};
  rvhal_launch_options_t teamed = {.harts = team, .harts_per_group = team}, *opt = team > 1 ? &teamed : NULL;
  holder_t h;
  rvhal_event_t *ew, *es;
  hold_device(d, q, prog, wait, &h);
  CHECK_OK(rvhal_enqueue_kernel(q, &h.deps, prog, wait, &one, wait_args, 4, 1, opt, &ew));
  CHECK_OK(rvhal_enqueue_kernel(q, &h.deps, prog, set, &one, set_args, 2, 1, opt, &es));
  hold_release(d, &h, es);
  CHECK_OK(rvhal_queue_finish(q, 120000));
  hold_end(d, &h);
  uint32_t seen[2];
  CHECK_OK(rvhal_mem_read(d, seen, out, sizeof seen));
  int st_wait = -1, st_set = -1;
  CHECK(rvhal_event_query(ew, &st_wait) && st_wait == RVHAL_OK && rvhal_event_query(es, &st_set) && st_set == RVHAL_OK);
  char what[48];
  snprintf(what, sizeof what, "teams of %u on %u harts", team, harts);
  check_overlapped(what, harts >= 2 * team, seen, polls, ew, es);
  rvhal_queue_destroy(q);
  rvhal_mem_free(d, flag);
  rvhal_mem_free(d, out);
}

/* A pair whose first launch traps: it fails alone, naming its fault, and
 * the one beside it runs to its end (both were running: a failure cancels
 * only what had not started). On one hart they run in turn, and the
 * second is cancelled as in order. */
static void check_pair_trap(rvhal_device_t *d, hal_program_t prog, hal_kernel_t wait, hal_kernel_t set,
                            hal_kernel_t fault) {
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create_with_flags(d, RVHAL_QUEUE_OUT_OF_ORDER, &q));
  uint32_t zero[16] = {0}, value = 0x5e7, got = 0;
  uint64_t addr = 0x10; /* no kernel reads there */
  hal_addr_t flag = dt_buffer(d, 64, zero);
  hal_arg_t fault_args[1] = {rvhal_arg_value(&addr, 8)};
  hal_arg_t set_args[2] = {rvhal_arg_global(flag), rvhal_arg_value(&value, 4)};
  hal_ndrange_t one = {.global = {1}, .local = {1}};
  holder_t h;
  rvhal_event_t *ef, *es;
  hold_device(d, q, prog, wait, &h);
  CHECK_OK(rvhal_enqueue_kernel(q, &h.deps, prog, fault, &one, fault_args, 1, 1, NULL, &ef));
  CHECK_OK(rvhal_enqueue_kernel(q, &h.deps, prog, set, &one, set_args, 2, 1, NULL, &es));
  hold_release(d, &h, es);
  CHECK_FAILS(rvhal_queue_finish(q, 120000), RVHAL_KERNEL_TRAP, "kernel mem_fault");
  hold_end(d, &h);
  CHECK_FAILS(rvhal_event_wait(ef, 1000), RVHAL_KERNEL_TRAP, "address 0x10"); /* access or page fault */
  CHECK_OK(rvhal_mem_read(d, &got, flag, 4));
  if (harts < 2) {
    CHECK_FAILS(rvhal_event_wait(es, 1000), RVHAL_CANCELLED, "was cancelled because kernel mem_fault");
    CHECK_EQ_U64(got, 0);
  } else {
    CHECK_OK(rvhal_event_wait(es, 1000));
    CHECK_MSG(got == value, "the launch beside the one that trapped did not run to its end: flag 0x%x", got);
  }
  rvhal_event_release(ef);
  rvhal_event_release(es);
  rvhal_queue_destroy(q);
  rvhal_mem_free(d, flag);
}

/* Two independent launches of an out-of-order queue enqueued into an idle
 * device, the second a little after the first: the first starts alone,
 * and a hart it leaves idle watches the ring and starts the second beside
 * it when it arrives (RVHAL_LAUNCH_WATCH), while the queue's thread,
 * nobody waiting yet, watches for more to send rather than for the first
 * to end. The first polls for the word the second writes; in turn, it
 * would poll out its bound. */
static void check_late_pair(rvhal_device_t *d, hal_program_t prog, hal_kernel_t wait, hal_kernel_t set) {
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create_with_flags(d, RVHAL_QUEUE_OUT_OF_ORDER, &q));
  uint32_t zero[16] = {0}, value = 0x1a7e, polls = 1u << 27;
  hal_addr_t flag = dt_buffer(d, 64, zero), out = dt_buffer(d, 64, zero);
  hal_arg_t wait_args[4] = {rvhal_arg_global(flag), rvhal_arg_global(out), rvhal_arg_value(&value, 4),
                            rvhal_arg_value(&polls, 4)};
  hal_arg_t set_args[2] = {rvhal_arg_global(flag), rvhal_arg_value(&value, 4)};
  hal_ndrange_t one = {.global = {1}, .local = {1}};
  rvhal_event_t *ew, *es;
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, prog, wait, &one, wait_args, 4, 1, NULL, &ew));
  usleep(5 * 1000); /* the first is on the device, its queue's thread past it */
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, prog, set, &one, set_args, 2, 1, NULL, &es));
  CHECK_OK(rvhal_queue_finish(q, 120000));
  uint32_t seen[2];
  CHECK_OK(rvhal_mem_read(d, seen, out, sizeof seen));
  check_overlapped("late pair (the second enqueued while the first ran)", harts >= 2, seen, polls, ew, es);
  rvhal_queue_destroy(q);
  rvhal_mem_free(d, flag);
  rvhal_mem_free(d, out);
}

/* Pairs of one hart each on the suite's device, one of them trapping, and
 * of teams of 2 on a device of 4 harts where the board has them. */
static void test_pair(void) {
  check_pair(dev, prog_m, k_wait_word, k_set_word, 1);
  check_pair_trap(dev, prog_m, k_wait_word, k_set_word, fixture_kernel(dev, prog_m, "mem_fault"));
  check_late_pair(dev, prog_m, k_wait_word, k_set_word);
  if (fixture_harts(4) < 4) {
    printf("queues: teams side by side not checked: the target has %u harts, not 4\n", fixture_harts(4));
    return;
  }
  rvhal_device_t *d4 = fixture_device(4);
  hal_program_t p4 = fixture_program(d4, "dt_mem");
  check_pair(d4, p4, fixture_kernel(d4, p4, "mem_wait_word"), fixture_kernel(d4, p4, "mem_set_word"), 2);
  rvhal_device_delete(d4);
}

/* Queue B's kernel reads what queue A's kernel wrote, ordered by an event;
 * queue A is held back by a semaphore so B would run first without it. */
static void test_cross_queue(void) {
  rvhal_queue_t *qa, *qb;
  CHECK_OK(rvhal_queue_create(dev, &qa));
  CHECK_OK(rvhal_queue_create(dev, &qb));
  rvhal_semaphore_t *gate;
  CHECK_OK(rvhal_semaphore_create(0, &gate));
  hal_addr_t a = dt_buffer(dev, N * 4, NULL), b = dt_buffer(dev, N * 4, NULL);
  rvhal_semaphore_value_t wait_gate = {gate, 1};
  rvhal_dependencies_t held = {.wait_semaphores = &wait_gate, .num_wait_semaphores = 1};
  rvhal_event_t *ea, *eb;
  CHECK_OK(enqueue_fill_kernel(qa, &held, a, 1000, &ea));
  rvhal_dependencies_t after_a = {.wait_events = &ea, .num_wait_events = 1};
  CHECK_OK(enqueue_mix_kernel(qb, &after_a, b, a, 5, &eb));
  int st = 12345;
  CHECK_EQ_U64(rvhal_event_query(eb, &st), 0); /* cannot have run: A is gated */
  CHECK_EQ_U64(st, 12345);
  CHECK_OK(rvhal_semaphore_signal(gate, 1));
  CHECK_OK(rvhal_event_wait(eb, RVHAL_WAIT_FOREVER));
  CHECK_EQ_U64(rvhal_event_query(ea, &st), 1);
  CHECK_EQ_U64(st, RVHAL_OK);
  uint32_t got[N];
  CHECK_OK(rvhal_mem_read(dev, got, b, sizeof got));
  int bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += got[i] != mix(1000 + i, 5, i);
  CHECK_MSG(!bad, "%d of %u values wrong after a cross-queue wait", bad, N);
  rvhal_event_release(ea);
  rvhal_event_release(eb);
  rvhal_queue_destroy(qa);
  rvhal_queue_destroy(qb);
  rvhal_semaphore_destroy(gate);
  rvhal_mem_free(dev, a);
  rvhal_mem_free(dev, b);
}

/* Data moves from device 1 to device 2 through a host buffer, ordered only
 * by an event of device 1's queue. */
static void test_cross_device(void) {
  rvhal_device_t *dev2 = fixture_device(2);
  hal_program_t p2 = fixture_program(dev2, "dt_prog_b");
  hal_kernel_t mix2 = fixture_kernel(dev2, p2, "prog_b_mix");
  rvhal_queue_t *q1, *q2;
  CHECK_OK(rvhal_queue_create(dev, &q1));
  CHECK_OK(rvhal_queue_create(dev2, &q2));
  rvhal_semaphore_t *gate;
  CHECK_OK(rvhal_semaphore_create(0, &gate));
  hal_addr_t a = dt_buffer(dev, N * 4, NULL);
  hal_addr_t x = dt_buffer(dev2, N * 4, NULL), y = dt_buffer(dev2, N * 4, NULL);
  uint32_t host[N], got[N];
  memset(host, 0xee, sizeof host);
  rvhal_semaphore_value_t wait_gate = {gate, 7};
  rvhal_dependencies_t held = {.wait_semaphores = &wait_gate, .num_wait_semaphores = 1};
  rvhal_event_t *read1;
  CHECK_OK(enqueue_fill_kernel(q1, &held, a, 77, NULL));
  CHECK_OK(rvhal_enqueue_read(q1, NULL, host, a, sizeof host, &read1));
  rvhal_dependencies_t after = {.wait_events = &read1, .num_wait_events = 1};
  CHECK_OK(rvhal_enqueue_write(q2, &after, x, host, sizeof host, NULL));
  uint32_t k = 3;
  hal_arg_t args[3] = {rvhal_arg_global(y), rvhal_arg_global(x), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  rvhal_event_t *done;
  CHECK_OK(rvhal_enqueue_kernel(q2, NULL, p2, mix2, &nd, args, 3, 1, NULL, NULL));
  CHECK_OK(rvhal_enqueue_read(q2, NULL, got, y, sizeof got, &done));
  CHECK_OK(rvhal_semaphore_signal(gate, 9)); /* past the value waited for */
  CHECK_OK(rvhal_event_wait(done, RVHAL_WAIT_FOREVER));
  int bad = 0;
  for (uint32_t i = 0; i < N; i++) bad += got[i] != mix(77 + i, 3, i);
  CHECK_MSG(!bad, "%d of %u values wrong after a cross-device wait", bad, N);
  rvhal_event_release(read1);
  rvhal_event_release(done);
  rvhal_queue_destroy(q1);
  rvhal_queue_destroy(q2);
  rvhal_semaphore_destroy(gate);
  rvhal_mem_free(dev, a);
  rvhal_device_delete(dev2);
}

/* Semaphores: a wait already satisfied, commands that signal, host waits,
 * a timeout, and a value that must not go down. */
static void test_semaphores(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  rvhal_semaphore_t *s;
  CHECK_OK(rvhal_semaphore_create(5, &s));
  rvhal_semaphore_value_t w3 = {s, 3}, sig10 = {s, 10};
  rvhal_dependencies_t d = {.wait_semaphores = &w3, .num_wait_semaphores = 1, .signal_semaphores = &sig10,
                            .num_signal_semaphores = 1};
  CHECK_OK(rvhal_enqueue_marker(q, &d, NULL)); /* 5 >= 3 already */
  CHECK_OK(rvhal_semaphore_wait(s, 10, 30000));
  uint64_t v = 0;
  CHECK_OK(rvhal_semaphore_query(s, &v));
  CHECK_EQ_U64(v, 10);
  CHECK_FAILS(rvhal_semaphore_wait(s, 11, 20), RVHAL_TIMEOUT, "is at 10, not 11");
  CHECK_FAILS(rvhal_semaphore_signal(s, 4), RVHAL_INVALID_ARGUMENT, "below its value 10");
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  rvhal_queue_destroy(q);
  rvhal_semaphore_destroy(s);
}

static atomic_int cb_order[8];
static atomic_int cb_next;

static void record(void *user, int status) {
  int slot = atomic_fetch_add(&cb_next, 1);
  if (slot < 8) cb_order[slot] = (int)(intptr_t)user * 100 + (status == RVHAL_OK ? 0 : 1);
}

/* Callbacks run in queue order, after the commands before them. */
static void test_callbacks(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  hal_addr_t a = dt_buffer(dev, N * 4, NULL);
  atomic_store(&cb_next, 0);
  static uint32_t seen[N];
  memset(seen, 0, sizeof seen);
  CHECK_OK(rvhal_enqueue_callback(q, NULL, record, (void *)1, NULL));
  CHECK_OK(enqueue_fill_kernel(q, NULL, a, 500, NULL));
  CHECK_OK(rvhal_enqueue_read(q, NULL, seen, a, sizeof seen, NULL));
  CHECK_OK(rvhal_enqueue_callback(q, NULL, record, (void *)2, NULL));
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  CHECK_EQ_U64(atomic_load(&cb_next), 2);
  CHECK_EQ_U64(cb_order[0], 100);
  CHECK_EQ_U64(cb_order[1], 200);
  CHECK_EQ_U64(seen[N - 1], 500 + N - 1);
  rvhal_queue_destroy(q);
  rvhal_mem_free(dev, a);
}

/* A kernel that traps in the middle of a queue: its event has the trap's
 * status and message, the commands after it are cancelled naming it, the
 * semaphore it would signal fails, finish reports it once, and the queue,
 * other queues and the device work afterwards. */
static void test_failure(void) {
  rvhal_queue_t *q, *other;
  CHECK_OK(rvhal_queue_create(dev, &q));
  CHECK_OK(rvhal_queue_create(dev, &other));
  rvhal_semaphore_t *s;
  CHECK_OK(rvhal_semaphore_create(0, &s));
  hal_addr_t info = dt_buffer(dev, 64, NULL), marks = dt_buffer(dev, N * 8, NULL), out = dt_buffer(dev, N * 4, NULL);
  hal_addr_t keep = dt_buffer(dev, N * 4, NULL);
  rvhal_event_t *e1, *e2, *e3, *e4;
  CHECK_OK(enqueue_fill_kernel(q, NULL, keep, 9, &e1));
  uint64_t bad_item = 3;
  hal_arg_t targs[3] = {rvhal_arg_global(info), rvhal_arg_global(marks), rvhal_arg_value(&bad_item, 8)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  rvhal_semaphore_value_t sig = {s, 1};
  rvhal_dependencies_t signal = {.signal_semaphores = &sig, .num_signal_semaphores = 1};
  CHECK_OK(rvhal_enqueue_kernel(q, &signal, prog_t, k_trap, &nd, targs, 3, 1, NULL, &e2));
  CHECK_OK(enqueue_fill_kernel(q, NULL, out, 1, &e3));
  CHECK_OK(rvhal_enqueue_marker(q, NULL, &e4));
  /* Another queue waits on the failing kernel's semaphore. */
  rvhal_semaphore_value_t w = {s, 1};
  rvhal_dependencies_t waits = {.wait_semaphores = &w, .num_wait_semaphores = 1};
  rvhal_event_t *e5;
  CHECK_OK(rvhal_enqueue_marker(other, &waits, &e5));

  CHECK_OK(rvhal_event_wait(e1, RVHAL_WAIT_FOREVER));
  CHECK_FAILS(rvhal_event_wait(e2, RVHAL_WAIT_FOREVER), RVHAL_KERNEL_TRAP, "illegal instruction");
  CHECK_FAILS(rvhal_event_wait(e3, RVHAL_WAIT_FOREVER), RVHAL_CANCELLED, "trapped");
  CHECK_MSG(strstr(rvhal_event_message(e3), "was cancelled because kernel trap_illegal (command 2 of queue"),
            "e3: %s", rvhal_event_message(e3));
  CHECK_FAILS(rvhal_event_wait(e4, RVHAL_WAIT_FOREVER), RVHAL_CANCELLED, "because kernel trap_illegal");
  CHECK_FAILS(rvhal_event_wait(e5, RVHAL_WAIT_FOREVER), RVHAL_CANCELLED, "because kernel trap_illegal");
  CHECK_MSG(!strstr(rvhal_event_message(e4), "cancelled because marker"), "e4 names no intermediate: %s",
            rvhal_event_message(e4));
  CHECK_FAILS(rvhal_semaphore_wait(s, 1, 1000), RVHAL_KERNEL_TRAP, "trapped");
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_KERNEL_TRAP, "trapped");
  CHECK_FAILS(rvhal_queue_finish(other, RVHAL_WAIT_FOREVER), RVHAL_CANCELLED, "because kernel trap_illegal");
  /* The kernel after the trap went onto the device with the trapping one
   * (launches back to back): the device cancelled it, it wrote nothing. */
  uint32_t untouched[N];
  CHECK_OK(rvhal_mem_read(dev, untouched, out, sizeof untouched));
  CHECK_MSG(untouched[0] == 0 && untouched[N - 1] == 0, "a cancelled kernel ran: out[%u] = %u", N - 1,
            untouched[N - 1]);
  /* Back in service: both queues run good kernels; earlier data intact. */
  rvhal_event_t *e6;
  CHECK_OK(enqueue_fill_kernel(q, NULL, out, 40, NULL));
  CHECK_OK(enqueue_fill_kernel(other, NULL, marks, 41, &e6));
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  CHECK_OK(rvhal_event_wait(e6, RVHAL_WAIT_FOREVER));
  uint32_t got[N], kept[N];
  CHECK_OK(rvhal_mem_read(dev, got, out, sizeof got));
  CHECK_OK(rvhal_mem_read(dev, kept, keep, sizeof kept));
  CHECK_EQ_U64(got[N - 1], 40 + N - 1);
  CHECK_EQ_U64(kept[N - 1], 9 + N - 1);
  rvhal_event_t *evs[] = {e1, e2, e3, e4, e5, e6};
  for (int i = 0; i < 6; i++) rvhal_event_release(evs[i]);
  rvhal_queue_destroy(q);
  rvhal_queue_destroy(other);
  rvhal_semaphore_destroy(s);
}

/* Launches back to back, one of which hangs: it times out, the device
 * restarts, the launches submitted behind it are cancelled naming it, and
 * the queue and device work afterwards. */
static void test_timeout_in_flight(void) {
  rvhal_device_options_t o = {.launch_timeout_ms = 3000}; /* long enough for a good launch on a loaded host */
  rvhal_device_t *d = fixture_device_opts(2, &o);
  hal_program_t pt = fixture_program(d, "dt_trap");
  hal_kernel_t loop = fixture_kernel(d, pt, "trap_loop"), good = fixture_kernel(d, pt, "trap_good");
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(d, &q));
  hal_addr_t info = dt_buffer(d, 64, NULL), marks = dt_buffer(d, N * 8, NULL), out = dt_buffer(d, N * 4, NULL);
  uint64_t bad_item = 1;
  uint32_t k = 5;
  hal_arg_t largs[3] = {rvhal_arg_global(info), rvhal_arg_global(marks), rvhal_arg_value(&bad_item, 8)};
  hal_arg_t gargs[2] = {rvhal_arg_global(out), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  rvhal_event_t *ev[4];
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, pt, good, &nd, gargs, 2, 1, NULL, &ev[0]));
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, pt, loop, &nd, largs, 3, 1, NULL, &ev[1]));
  k = 6; /* copied at enqueue: the launches below must not see it */
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, pt, good, &nd, gargs, 2, 1, NULL, &ev[2]));
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, pt, good, &nd, gargs, 2, 1, NULL, &ev[3]));
  CHECK_OK(rvhal_event_wait(ev[0], RVHAL_WAIT_FOREVER));
  CHECK_FAILS(rvhal_event_wait(ev[1], RVHAL_WAIT_FOREVER), RVHAL_TIMEOUT, "did not finish within 3000 ms");
  for (int i = 2; i < 4; i++)
    CHECK_FAILS(rvhal_event_wait(ev[i], RVHAL_WAIT_FOREVER), RVHAL_CANCELLED, "because kernel trap_loop");
  uint32_t got[N];
  CHECK_OK(rvhal_mem_read(d, got, out, sizeof got));
  CHECK_EQ_U64(got[N - 1], (N - 1) * 7 + 5); /* the first launch's result, not a later one's */
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_TIMEOUT, NULL);
  k = 9;
  rvhal_event_t *after;
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, pt, good, &nd, gargs, 2, 1, NULL, &after));
  CHECK_OK(rvhal_event_wait(after, RVHAL_WAIT_FOREVER));
  CHECK_OK(rvhal_mem_read(d, got, out, sizeof got));
  CHECK_EQ_U64(got[N - 1], (N - 1) * 7 + 9);
  rvhal_event_times_t t0, t1;
  CHECK_OK(rvhal_event_times(ev[0], &t0));
  CHECK_OK(rvhal_event_times(after, &t1));
  CHECK(t0.device_end_ns >= t0.device_start_ns && t1.device_end_ns >= t1.device_start_ns);
  for (int i = 0; i < 4; i++) rvhal_event_release(ev[i]);
  rvhal_event_release(after);
  rvhal_queue_destroy(q);
  rvhal_device_delete(d);
}

/* A command buffer of 100 launches (each reading the other's output: only
 * in-order execution gives the result), replayed 100 times with its two
 * buffers re-bound to one of 4 pairs, every result checked; and the errors
 * of recording and enqueueing. */
#define CB_LAUNCHES 100
#define CB_REPLAYS 100
static void test_command_buffer(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  rvhal_command_buffer_t *cb;
  CHECK_OK(rvhal_command_buffer_create(dev, &cb));
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  for (uint32_t i = 0; i < CB_LAUNCHES; i++) {
    uint32_t k = i * 3 + 1;
    hal_arg_t a[3] = {rvhal_arg_global(0), rvhal_arg_global(0), rvhal_arg_value(&k, 4)};
    int32_t slots[3] = {(int32_t)((i + 1) % 2), (int32_t)(i % 2), -1}; /* out, in: the two buffers in turn */
    CHECK_OK(rvhal_command_buffer_kernel(cb, prog_b, k_mix, &nd, a, 3, 1, NULL, slots));
    if (i == CB_LAUNCHES / 2) CHECK_OK(rvhal_command_buffer_barrier(cb));
  }
  hal_addr_t a0 = 0;
  CHECK_FAILS(rvhal_enqueue_command_buffer(q, NULL, cb, &a0, 1, NULL), RVHAL_INVALID_ARGUMENT, "still recording");
  CHECK_OK(rvhal_command_buffer_end(cb));
  CHECK_FAILS(rvhal_command_buffer_copy(cb, 0, 0, 4), RVHAL_INVALID_ARGUMENT, "recording has ended");
  CHECK_FAILS(rvhal_enqueue_command_buffer(q, NULL, cb, &a0, 1, NULL), RVHAL_INVALID_ARGUMENT,
              "uses 2 binding slots, 1 given");
  uint32_t v = 1;
  hal_arg_t bad[2] = {rvhal_arg_global(0), rvhal_arg_value(&v, 4)};
  int32_t bad_slots[2] = {-1, 0};
  rvhal_command_buffer_t *cb2;
  CHECK_OK(rvhal_command_buffer_create(dev, &cb2));
  CHECK_FAILS(rvhal_command_buffer_kernel(cb2, prog_b, k_fill, &nd, bad, 2, 1, NULL, bad_slots),
              RVHAL_INVALID_ARGUMENT, "is no global buffer");
  rvhal_command_buffer_destroy(cb2);

  hal_addr_t buf[4][2];
  for (int p = 0; p < 4; p++) buf[p][0] = dt_buffer(dev, N * 4, NULL), buf[p][1] = dt_buffer(dev, N * 4, NULL);
  static uint32_t in[CB_REPLAYS][N], got[CB_REPLAYS][N];
  rvhal_event_t *done[CB_REPLAYS];
  for (uint32_t r = 0; r < CB_REPLAYS; r++) {
    int p = r % 4;
    for (uint32_t i = 0; i < N; i++) in[r][i] = r * 7919u + i;
    CHECK_OK(rvhal_enqueue_write(q, NULL, buf[p][0], in[r], sizeof in[r], NULL));
    CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, buf[p], 2, NULL));
    /* 100 launches: the last wrote buffer (100 % 2) = 0 */
    CHECK_OK(rvhal_enqueue_read(q, NULL, got[r], buf[p][CB_LAUNCHES % 2], sizeof got[r], &done[r]));
  }
  int bad_replays = 0;
  for (uint32_t r = 0; r < CB_REPLAYS; r++) {
    CHECK_OK(rvhal_event_wait(done[r], RVHAL_WAIT_FOREVER));
    rvhal_event_release(done[r]);
    for (uint32_t i = 0; i < N; i++) {
      uint32_t x = in[r][i];
      for (uint32_t l = 0; l < CB_LAUNCHES; l++) x = mix(x, l * 3 + 1, i);
      if (got[r][i] != x) {
        bad_replays++;
        break;
      }
    }
  }
  CHECK_MSG(bad_replays == 0, "%d of %d replays gave wrong results", bad_replays, CB_REPLAYS);
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  rvhal_queue_destroy(q);
  rvhal_command_buffer_destroy(cb);
  for (int p = 0; p < 4; p++) rvhal_mem_free(dev, buf[p][0]), rvhal_mem_free(dev, buf[p][1]);
}

/* Stream-ordered allocation: the free runs after the kernel that uses it. */
static void test_alloc(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  hal_addr_t a;
  uint32_t got[N];
  CHECK_OK(rvhal_enqueue_alloc(q, NULL, N * 4, 0, &a, NULL));
  CHECK_OK(enqueue_fill_kernel(q, NULL, a, 3, NULL));
  CHECK_OK(rvhal_enqueue_read(q, NULL, got, a, sizeof got, NULL));
  CHECK_OK(rvhal_enqueue_free(q, NULL, a, NULL));
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  CHECK_EQ_U64(got[7], 10);
  CHECK_FAILS(rvhal_mem_read(dev, got, a, 4), RVHAL_OUT_OF_RANGE, NULL); /* freed */
  rvhal_queue_destroy(q);
}

/* Destroying a queue runs what is pending; deleting a device cancels it. */
static void test_teardown(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  hal_addr_t a = dt_buffer(dev, N * 4, NULL);
  for (uint32_t i = 0; i < 20; i++) CHECK_OK(enqueue_fill_kernel(q, NULL, a, i, NULL));
  rvhal_queue_destroy(q);
  uint32_t got[N];
  CHECK_OK(rvhal_mem_read(dev, got, a, sizeof got));
  CHECK_EQ_U64(got[0], 19);
  rvhal_mem_free(dev, a);

  rvhal_device_t *d2 = fixture_device(2);
  hal_program_t p2 = fixture_program(d2, "dt_prog_b");
  hal_kernel_t f2 = fixture_kernel(d2, p2, "prog_b_fill");
  rvhal_queue_t *q2;
  CHECK_OK(rvhal_queue_create(d2, &q2));
  rvhal_semaphore_t *never;
  CHECK_OK(rvhal_semaphore_create(0, &never));
  hal_addr_t b = dt_buffer(d2, N * 4, NULL);
  uint32_t v = 1;
  hal_arg_t args[2] = {rvhal_arg_global(b), rvhal_arg_value(&v, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  rvhal_semaphore_value_t w = {never, 1};
  rvhal_dependencies_t blocked = {.wait_semaphores = &w, .num_wait_semaphores = 1};
  rvhal_event_t *ev[5];
  CHECK_OK(rvhal_enqueue_kernel(q2, &blocked, p2, f2, &nd, args, 2, 1, NULL, &ev[0]));
  for (int i = 1; i < 5; i++) CHECK_OK(rvhal_enqueue_kernel(q2, NULL, p2, f2, &nd, args, 2, 1, NULL, &ev[i]));
  rvhal_device_delete(d2); /* the queue's thread is joined, its work cancelled */
  for (int i = 0; i < 5; i++) {
    int st = 0;
    CHECK_EQ_U64(rvhal_event_query(ev[i], &st), 1);
    CHECK_EQ_U64(st, RVHAL_CANCELLED);
    CHECK_MSG(strstr(rvhal_event_message(ev[i]), "device was deleted"), "%s", rvhal_event_message(ev[i]));
    rvhal_event_release(ev[i]);
  }
  rvhal_semaphore_destroy(never);
}

/* 8 threads x 1000 commands on one device: each thread owns a buffer, and
 * per round enqueues write, kernel, read (into one of two shared queues, or
 * by the blocking calls), then checks what came back. */
#define THREADS 8
#define ROUNDS 334 /* x 3 commands */

typedef struct {
  int id;
  rvhal_queue_t *q;
  int errors;
  int commands;
} worker_t;

static void *worker(void *arg) {
  worker_t *w = arg;
  hal_addr_t a, b;
  if (rvhal_mem_alloc(dev, N * 4, 0, &a) || rvhal_mem_alloc(dev, N * 4, 0, &b)) {
    w->errors++;
    return NULL;
  }
  uint32_t in[N], out[N];
  for (int r = 0; r < ROUNDS; r++) {
    uint32_t k = (uint32_t)(w->id * 1000 + r);
    for (uint32_t i = 0; i < N; i++) in[i] = k * 31u + i;
    if (r % 4 == 3) { /* the blocking calls, interleaved with the queues */
      hal_arg_t args[3] = {rvhal_arg_global(b), rvhal_arg_global(a), rvhal_arg_value(&k, 4)};
      hal_ndrange_t nd = {.global = {N}, .local = {8}};
      if (rvhal_mem_write(dev, a, in, sizeof in) || rvhal_kernel_exec(dev, prog_b, k_mix, &nd, args, 3, 1) ||
          rvhal_mem_read(dev, out, b, sizeof out)) {
        fprintf(stderr, "thread %d round %d: %s\n", w->id, r, rvhal_last_error());
        w->errors++;
        continue;
      }
    } else {
      rvhal_event_t *done;
      if (rvhal_enqueue_write(w->q, NULL, a, in, sizeof in, NULL) || enqueue_mix_kernel(w->q, NULL, b, a, k, NULL) ||
          rvhal_enqueue_read(w->q, NULL, out, b, sizeof out, &done)) {
        w->errors++;
        continue;
      }
      /* Commands of other threads interleave in the shared queue; a
       * thread's own three stay in order. */
      if (rvhal_event_wait(done, RVHAL_WAIT_FOREVER)) {
        fprintf(stderr, "thread %d round %d: %s\n", w->id, r, rvhal_last_error());
        w->errors++;
      }
      rvhal_event_release(done);
    }
    w->commands += 3;
    for (uint32_t i = 0; i < N; i++)
      if (out[i] != mix(in[i], k, i)) {
        w->errors++;
        break;
      }
  }
  rvhal_mem_free(dev, a);
  rvhal_mem_free(dev, b);
  return NULL;
}

static void test_threads(void) {
  rvhal_queue_t *q[2];
  CHECK_OK(rvhal_queue_create(dev, &q[0]));
  CHECK_OK(rvhal_queue_create(dev, &q[1]));
  pthread_t t[THREADS];
  worker_t w[THREADS];
  for (int i = 0; i < THREADS; i++) {
    w[i] = (worker_t){.id = i, .q = q[i % 2]};
    CHECK(pthread_create(&t[i], NULL, worker, &w[i]) == 0);
  }
  int errors = 0, commands = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    errors += w[i].errors;
    commands += w[i].commands;
  }
  CHECK_MSG(errors == 0, "%d wrong rounds among %d threads", errors, THREADS);
  CHECK_EQ_U64(commands, THREADS * ROUNDS * 3);
  CHECK_OK(rvhal_queue_finish(q[0], RVHAL_WAIT_FOREVER));
  CHECK_OK(rvhal_queue_finish(q[1], RVHAL_WAIT_FOREVER));
  rvhal_queue_destroy(q[0]);
  rvhal_queue_destroy(q[1]);
}

static void test_bad_input(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  CHECK_FAILS(rvhal_enqueue_marker(NULL, NULL, NULL), RVHAL_INVALID_ARGUMENT, "queue is NULL");
  rvhal_dependencies_t bad = {.num_wait_events = 2};
  CHECK_FAILS(rvhal_enqueue_marker(q, &bad, NULL), RVHAL_INVALID_ARGUMENT, "array is NULL");
  rvhal_event_t *none[1] = {NULL};
  rvhal_dependencies_t null_ev = {.wait_events = none, .num_wait_events = 1};
  CHECK_FAILS(rvhal_enqueue_marker(q, &null_ev, NULL), RVHAL_INVALID_ARGUMENT, "wait_events[0] is NULL");
  CHECK_FAILS(rvhal_enqueue_fill(q, NULL, 0, "x", 0, 4, NULL), RVHAL_INVALID_ARGUMENT, "pattern of 0 bytes");
  /* A bad argument found when the command runs fails its event with the
   * blocking call's message. */
  rvhal_event_t *e;
  CHECK_OK(rvhal_enqueue_write(q, NULL, 0x10, "abcd", 4, &e));
  CHECK_FAILS(rvhal_event_wait(e, RVHAL_WAIT_FOREVER), RVHAL_OUT_OF_RANGE, "0x10");
  rvhal_event_release(e);
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_OUT_OF_RANGE, NULL);
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  rvhal_queue_destroy(q);
}

/* A profiled device's Chrome trace has a track per queue, with the
 * queue's commands on it next to the harts' tracks. */
static void test_trace(void) {
  char path[] = "/tmp/rvhal-queue-trace-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  char spec[64];
  snprintf(spec, sizeof spec, "trace=%s", path);
  rvhal_device_options_t o = {.profile = spec};
  rvhal_device_t *d = fixture_device_opts(2, &o);
  hal_program_t p = fixture_program(d, "dt_prog_b");
  hal_kernel_t f = fixture_kernel(d, p, "prog_b_fill");
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(d, &q));
  hal_addr_t a = dt_buffer(d, N * 4, NULL);
  uint32_t v = 2;
  hal_arg_t args[2] = {rvhal_arg_global(a), rvhal_arg_value(&v, 4)};
  hal_ndrange_t nd = {.global = {N}, .local = {8}};
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, p, f, &nd, args, 2, 1, NULL, NULL));
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, p, f, &nd, args, 2, 1, NULL, NULL));
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  rvhal_queue_destroy(q);
  rvhal_device_delete(d); /* closes the trace */
  size_t len = 0;
  char *json = dt_read_file(path, &len);
  CHECK(json != NULL);
  if (json) {
    CHECK_MSG(strstr(json, "{\"name\": \"queue ") != NULL, "no queue track named in %s", path);
    CHECK_MSG(strstr(json, "\"name\": \"kernel prog_b_fill (command 2 of queue ") != NULL, "no queue command in %s", path);
    CHECK_MSG(strstr(json, "\"name\": \"hart 0\"") != NULL, "no hart track in %s", path);
    CHECK_MSG(json[len - 2] == '}', "trace not closed");
  }
  free(json);
  unlink(path);
}

int main(void) {
  dev = fixture_device(2);
  prog_b = fixture_program(dev, "dt_prog_b");
  prog_t = fixture_program(dev, "dt_trap");
  k_fill = fixture_kernel(dev, prog_b, "prog_b_fill");
  k_mix = fixture_kernel(dev, prog_b, "prog_b_mix");
  k_trap = fixture_kernel(dev, prog_t, "trap_illegal");
  prog_m = fixture_program(dev, "dt_mem");
  k_wait_word = fixture_kernel(dev, prog_m, "mem_wait_word");
  k_set_word = fixture_kernel(dev, prog_m, "mem_set_word");
  test_bad_input();
  test_order();
  test_cross_queue();
  test_out_of_order();
  test_pair();
  test_semaphores();
  test_reached_at_once();
  test_callbacks();
  test_failure();
  test_alloc();
  test_command_buffer();
  test_timeout_in_flight();
  test_teardown();
  test_cross_device();
  test_threads();
  test_trace();
  rvhal_device_delete(dev);
  return check_result("queues");
}

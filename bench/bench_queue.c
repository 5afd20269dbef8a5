/* rvhal-bench queue: what queues buy (rvhal/queue.h).
 *
 *   - empty launches per second, blocking calls against one queue fed
 *     without waiting (10,000 by default), and the rate at which the queue
 *     drains the same launches enqueued ahead of time;
 *   - the device's idle time between two kernels enqueued back to back
 *     (end of one to start of the next, device clock): both held back until
 *     enqueued, so both are on the device (the firmware's hand-over), and
 *     enqueued one after the other (host latency shows when the first ends
 *     before the second arrives);
 *   - a command buffer of 100 launches replayed 100 times (the firmware
 *     walks it from one ring entry) against 100 separate enqueues, per
 *     launch: the caller's time, the wall time, and the device's time from
 *     the first launch's start to the last one's end;
 *   - a copy-in / vadd / copy-out pipeline over 4 chunks: blocking calls,
 *     against two queues taking alternate chunks;
 *   - side by side: 20 one-group launches of work on a 2-hart device,
 *     through an in-order queue (one at a time) and an out-of-order one
 *     (the firmware runs two at once on the two harts,
 *     RVHAL_LAUNCH_OVERLAP): wall time, and how many pairs ran (device
 *     spans that overlap);
 *   - late pairs: "enqueue, enqueue, finish" of two such launches into the
 *     idle device, 10 times, in order and out of order (the second starts
 *     beside the first while it runs, RVHAL_LAUNCH_WATCH). */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"

static double launches_per_s_blocking(bench_dev_t *b, hal_kernel_t k, int n) {
  uint32_t unused = 0;
  hal_arg_t a = rvhal_arg_value(&unused, 4);
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  double t0 = bench_now_us();
  for (int i = 0; i < n; i++) BENCH_CHECK(rvhal_kernel_exec(b->d, b->p, k, &nd, &a, 1, 1));
  return n / ((bench_now_us() - t0) / 1e6);
}

static double launches_per_s_queue(bench_dev_t *b, rvhal_queue_t *q, hal_kernel_t k, int n) {
  uint32_t unused = 0;
  hal_arg_t a = rvhal_arg_value(&unused, 4);
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  double t0 = bench_now_us();
  for (int i = 0; i < n; i++) BENCH_CHECK(rvhal_enqueue_kernel(q, NULL, b->p, k, &nd, &a, 1, 1, NULL, NULL));
  BENCH_CHECK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  return n / ((bench_now_us() - t0) / 1e6);
}

/* The same launches all enqueued first, behind a semaphore: from its signal
 * to the queue's end, what the device and the queue's thread sustain
 * without the caller's enqueues competing for the host's cores. */
static double launches_per_s_queue_drained(bench_dev_t *b, rvhal_queue_t *q, hal_kernel_t k, int n) {
  uint32_t unused = 0;
  hal_arg_t a = rvhal_arg_value(&unused, 4);
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  rvhal_semaphore_t *gate = NULL;
  BENCH_CHECK(rvhal_semaphore_create(0, &gate));
  const rvhal_semaphore_value_t open = {gate, 1};
  const rvhal_dependencies_t deps = {.wait_semaphores = &open, .num_wait_semaphores = 1};
  for (int i = 0; i < n; i++)
    BENCH_CHECK(rvhal_enqueue_kernel(q, i == 0 ? &deps : NULL, b->p, k, &nd, &a, 1, 1, NULL, NULL));
  double t0 = bench_now_us();
  BENCH_CHECK(rvhal_semaphore_signal(gate, 1));
  BENCH_CHECK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  double t = bench_now_us() - t0;
  rvhal_semaphore_destroy(gate);
  return n / (t / 1e6);
}

/* The device's idle time from one kernel's end to the next one's start
 * (device clock). gated: the first waits on a semaphore the caller signals
 * once both are enqueued, so both are on the device when the first ends:
 * the firmware's own hand-over. Otherwise the second may reach the device
 * only after an empty first kernel has ended: host latency shows. */
static void bench_gap(bench_dev_t *b, rvhal_queue_t *q, hal_kernel_t k, int runs, int gated) {
  uint32_t unused = 0;
  hal_arg_t a = rvhal_arg_value(&unused, 4);
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  double *gap = malloc(sizeof *gap * (size_t)runs);
  rvhal_semaphore_t *gate = NULL;
  BENCH_CHECK(rvhal_semaphore_create(0, &gate));
  for (int i = 0; i < runs; i++) {
    rvhal_event_t *e1, *e2;
    const rvhal_semaphore_value_t open = {gate, (uint64_t)i + 1};
    const rvhal_dependencies_t deps = {.wait_semaphores = &open, .num_wait_semaphores = 1};
    BENCH_CHECK(rvhal_enqueue_kernel(q, gated ? &deps : NULL, b->p, k, &nd, &a, 1, 1, NULL, &e1));
    BENCH_CHECK(rvhal_enqueue_kernel(q, NULL, b->p, k, &nd, &a, 1, 1, NULL, &e2));
    BENCH_CHECK(rvhal_semaphore_signal(gate, (uint64_t)i + 1));
    BENCH_CHECK(rvhal_event_wait(e2, RVHAL_WAIT_FOREVER));
    rvhal_event_times_t t1, t2;
    BENCH_CHECK(rvhal_event_times(e1, &t1));
    BENCH_CHECK(rvhal_event_times(e2, &t2));
    gap[i] = ((double)t2.device_start_ns - (double)t1.device_end_ns) / 1e3;
    rvhal_event_release(e1);
    rvhal_event_release(e2);
  }
  rvhal_semaphore_destroy(gate);
  bench_stats_t s = bench_stats(gap, (size_t)runs);
  printf("queue   device idle between two enqueued kernels, %-17s p50 %7.2f us   p90 %7.2f   p99 %7.2f   "
         "max %7.2f   (%d runs)\n",
         gated ? "both on device:" : "one after other:", s.median, s.p90, s.p99, s.max, runs);
  free(gap);
}

#define CHUNKS 4
#define CHUNK_N (1u << 20)

static void pipeline_check(const uint32_t *in_a, const uint32_t *in_b, const uint32_t *out, const char *how) {
  for (size_t i = 0; i < (size_t)CHUNK_N * CHUNKS; i++)
    if (out[i] != in_a[i] + in_b[i]) {
      fprintf(stderr, "rvhal-bench: pipeline through %s: result wrong at %zu\n", how, i);
      exit(1);
    }
}

static void bench_pipeline(const char *kernel_dir, int runs) {
  rvhal_device_options_t o = {.num_harts = 1};
  bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
  hal_kernel_t k = bench_kernel(&b, "bench_vadd");
  size_t bytes = CHUNK_N * 4;
  uint32_t *in_a = malloc(bytes * CHUNKS), *in_b = malloc(bytes * CHUNKS), *out = malloc(bytes * CHUNKS);
  for (size_t i = 0; i < (size_t)CHUNK_N * CHUNKS; i++) {
    in_a[i] = (uint32_t)i;
    in_b[i] = (uint32_t)(3 * i);
  }
  hal_addr_t da[CHUNKS], db[CHUNKS], dc[CHUNKS];
  for (int c = 0; c < CHUNKS; c++) {
    BENCH_CHECK(rvhal_mem_alloc(b.d, bytes, 0, &da[c]));
    BENCH_CHECK(rvhal_mem_alloc(b.d, bytes, 0, &db[c]));
    BENCH_CHECK(rvhal_mem_alloc(b.d, bytes, 0, &dc[c]));
  }
  hal_ndrange_t nd = {.global = {CHUNK_N, 1, 1}, .local = {256, 1, 1}};
  rvhal_queue_t *q[2], *ooo;
  BENCH_CHECK(rvhal_queue_create(b.d, &q[0]));
  BENCH_CHECK(rvhal_queue_create(b.d, &q[1]));
  BENCH_CHECK(rvhal_queue_create_with_flags(b.d, RVHAL_QUEUE_OUT_OF_ORDER, &ooo));
  int n = runs < 7 ? runs : 7;
  double *tb = malloc(sizeof *tb * (size_t)n), *tq = malloc(sizeof *tq * (size_t)n), *to = malloc(sizeof *to * (size_t)n);
  double *tin = calloc((size_t)n, sizeof *tin), *tk = calloc((size_t)n, sizeof *tk), *tout = calloc((size_t)n, sizeof *tout);
  for (int r = 0; r < n; r++) {
    double t0 = bench_now_us();
    for (int c = 0; c < CHUNKS; c++) {
      hal_arg_t args[3] = {rvhal_arg_global(da[c]), rvhal_arg_global(db[c]), rvhal_arg_global(dc[c])};
      double a = bench_now_us();
      BENCH_CHECK(rvhal_mem_write(b.d, da[c], in_a + (size_t)c * CHUNK_N, bytes));
      BENCH_CHECK(rvhal_mem_write(b.d, db[c], in_b + (size_t)c * CHUNK_N, bytes));
      double m = bench_now_us();
      BENCH_CHECK(rvhal_kernel_exec(b.d, b.p, k, &nd, args, 3, 1));
      double e = bench_now_us();
      BENCH_CHECK(rvhal_mem_read(b.d, out + (size_t)c * CHUNK_N, dc[c], bytes));
      tin[r] += m - a;
      tk[r] += e - m;
      tout[r] += bench_now_us() - e;
    }
    tb[r] = bench_now_us() - t0;
    memset(out, 0, bytes * CHUNKS);
    t0 = bench_now_us();
    for (int c = 0; c < CHUNKS; c++) {
      rvhal_queue_t *qc = q[c % 2];
      hal_arg_t args[3] = {rvhal_arg_global(da[c]), rvhal_arg_global(db[c]), rvhal_arg_global(dc[c])};
      BENCH_CHECK(rvhal_enqueue_write(qc, NULL, da[c], in_a + (size_t)c * CHUNK_N, bytes, NULL));
      BENCH_CHECK(rvhal_enqueue_write(qc, NULL, db[c], in_b + (size_t)c * CHUNK_N, bytes, NULL));
      BENCH_CHECK(rvhal_enqueue_kernel(qc, NULL, b.p, k, &nd, args, 3, 1, NULL, NULL));
      BENCH_CHECK(rvhal_enqueue_read(qc, NULL, out + (size_t)c * CHUNK_N, dc[c], bytes, NULL));
    }
    BENCH_CHECK(rvhal_queue_finish(q[0], RVHAL_WAIT_FOREVER));
    BENCH_CHECK(rvhal_queue_finish(q[1], RVHAL_WAIT_FOREVER));
    tq[r] = bench_now_us() - t0;
    pipeline_check(in_a, in_b, out, "two queues");
    /* one out-of-order queue, each chunk's order by its events */
    memset(out, 0, bytes * CHUNKS);
    t0 = bench_now_us();
    for (int c = 0; c < CHUNKS; c++) {
      hal_arg_t args[3] = {rvhal_arg_global(da[c]), rvhal_arg_global(db[c]), rvhal_arg_global(dc[c])};
      rvhal_event_t *w[2], *ek;
      BENCH_CHECK(rvhal_enqueue_write(ooo, NULL, da[c], in_a + (size_t)c * CHUNK_N, bytes, &w[0]));
      BENCH_CHECK(rvhal_enqueue_write(ooo, NULL, db[c], in_b + (size_t)c * CHUNK_N, bytes, &w[1]));
      rvhal_dependencies_t after_w = {.wait_events = w, .num_wait_events = 2};
      BENCH_CHECK(rvhal_enqueue_kernel(ooo, &after_w, b.p, k, &nd, args, 3, 1, NULL, &ek));
      rvhal_dependencies_t after_k = {.wait_events = &ek, .num_wait_events = 1};
      BENCH_CHECK(rvhal_enqueue_read(ooo, &after_k, out + (size_t)c * CHUNK_N, dc[c], bytes, NULL));
      rvhal_event_release(w[0]);
      rvhal_event_release(w[1]);
      rvhal_event_release(ek);
    }
    BENCH_CHECK(rvhal_queue_finish(ooo, RVHAL_WAIT_FOREVER));
    to[r] = bench_now_us() - t0;
    pipeline_check(in_a, in_b, out, "one out-of-order queue");
  }
  double mb = bench_stats(tb, (size_t)n).median, mq = bench_stats(tq, (size_t)n).median,
         mo = bench_stats(to, (size_t)n).median;
  double min = bench_stats(tin, (size_t)n).median, mk = bench_stats(tk, (size_t)n).median,
         mout = bench_stats(tout, (size_t)n).median;
  printf("queue   pipeline %d x (copy-in 8 MiB, vadd 1M, copy-out 4 MiB), 1 hart (a core left for copies): parts in %.1f + kernel %.1f + "
         "out %.1f = %.1f ms; blocking %.1f ms; two queues %.1f ms (%.2fx the sum of the parts); one out-of-order "
         "queue %.1f ms (%.2fx)  (medians of %d)\n",
         CHUNKS, min / 1e3, mk / 1e3, mout / 1e3, (min + mk + mout) / 1e3, mb / 1e3, mq / 1e3, mq / (min + mk + mout),
         mo / 1e3, mo / (min + mk + mout), n);
  rvhal_queue_destroy(q[0]);
  rvhal_queue_destroy(q[1]);
  rvhal_queue_destroy(ooo);
  free(tb);
  free(tq);
  free(to);
  free(tin);
  free(tk);
  free(tout);
  free(in_a);
  free(in_b);
  free(out);
  bench_close(&b);
}

/* 100 empty launches recorded once, enqueued 100 times, against 100
 * separate enqueues done 100 times: the caller's time per launch (enqueue
 * calls only), the wall time per launch (to the last one's end) and the
 * device's (device clock, first start to last end of each 100, median). */
static void bench_command_buffer(bench_dev_t *b, rvhal_queue_t *q, hal_kernel_t k) {
  enum { LAUNCHES = 100, REPLAYS = 100 };
  uint32_t unused = 0;
  hal_arg_t a = rvhal_arg_value(&unused, 4);
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  rvhal_command_buffer_t *cb;
  BENCH_CHECK(rvhal_command_buffer_create(b->d, &cb));
  for (int i = 0; i < LAUNCHES; i++) BENCH_CHECK(rvhal_command_buffer_kernel(cb, b->p, k, &nd, &a, 1, 1, NULL, NULL));
  BENCH_CHECK(rvhal_command_buffer_end(cb));
  double caller_cb = 0, caller_sep = 0, dev_cb[REPLAYS], dev_sep[REPLAYS];
  rvhal_event_t *first[REPLAYS], *last[REPLAYS];
  double t0 = bench_now_us();
  for (int r = 0; r < REPLAYS; r++) {
    double c0 = bench_now_us();
    BENCH_CHECK(rvhal_enqueue_command_buffer(q, NULL, cb, NULL, 0, &last[r]));
    caller_cb += bench_now_us() - c0;
  }
  BENCH_CHECK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  double wall_cb = bench_now_us() - t0;
  for (int r = 0; r < REPLAYS; r++) {
    rvhal_event_times_t t;
    BENCH_CHECK(rvhal_event_times(last[r], &t));
    dev_cb[r] = ((double)t.device_end_ns - (double)t.device_start_ns) / 1e3 / LAUNCHES;
    rvhal_event_release(last[r]);
  }
  t0 = bench_now_us();
  for (int r = 0; r < REPLAYS; r++) {
    double c0 = bench_now_us();
    for (int i = 0; i < LAUNCHES; i++)
      BENCH_CHECK(rvhal_enqueue_kernel(q, NULL, b->p, k, &nd, &a, 1, 1, NULL,
                                       i == 0 ? &first[r] : i == LAUNCHES - 1 ? &last[r] : NULL));
    caller_sep += bench_now_us() - c0;
  }
  BENCH_CHECK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  double wall_sep = bench_now_us() - t0;
  for (int r = 0; r < REPLAYS; r++) {
    rvhal_event_times_t t1, t2;
    BENCH_CHECK(rvhal_event_times(first[r], &t1));
    BENCH_CHECK(rvhal_event_times(last[r], &t2));
    dev_sep[r] = ((double)t2.device_end_ns - (double)t1.device_start_ns) / 1e3 / LAUNCHES;
    rvhal_event_release(first[r]);
    rvhal_event_release(last[r]);
  }
  const double n = (double)LAUNCHES * REPLAYS;
  printf("queue   command buffer of %d launches x %d: caller %.2f us/launch, wall %.2f us/launch, device %.2f "
         "us/launch; %d separate enqueues x %d: caller %.2f us/launch, wall %.2f us/launch, device %.2f us/launch\n",
         LAUNCHES, REPLAYS, caller_cb / n, wall_cb / n, bench_stats(dev_cb, REPLAYS).median, LAUNCHES, REPLAYS,
         caller_sep / n, wall_sep / n, bench_stats(dev_sep, REPLAYS).median);
  rvhal_command_buffer_destroy(cb);
}

/* n launches of bench_work (1 group, `work` steps) through q, all held
 * behind one semaphore until enqueued; the wall time from its signal, in
 * ms, and how many launches started before the one before them ended. */
static double side_by_side_ms(bench_dev_t *b, rvhal_queue_t *q, hal_kernel_t k, hal_addr_t out, uint32_t work,
                              int n, int *out_overlapped, double *out_device_ms) {
  enum { MAX_N = 64 };
  rvhal_event_t *ev[MAX_N];
  if (n > MAX_N) n = MAX_N;
  uint32_t rounds = 0;
  hal_arg_t a[3] = {rvhal_arg_global(out), rvhal_arg_value(&work, 4), rvhal_arg_value(&rounds, 4)};
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  rvhal_semaphore_t *gate = NULL;
  BENCH_CHECK(rvhal_semaphore_create(0, &gate));
  const rvhal_semaphore_value_t open = {gate, 1};
  const rvhal_dependencies_t deps = {.wait_semaphores = &open, .num_wait_semaphores = 1};
  for (int i = 0; i < n; i++) BENCH_CHECK(rvhal_enqueue_kernel(q, &deps, b->p, k, &nd, a, 3, 1, NULL, &ev[i]));
  double t0 = bench_now_us();
  BENCH_CHECK(rvhal_semaphore_signal(gate, 1));
  BENCH_CHECK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  double t = bench_now_us() - t0;
  int overlapped = 0;
  double device_ns = 0;
  rvhal_event_times_t prev = {0};
  for (int i = 0; i < n; i++) {
    rvhal_event_times_t ti;
    BENCH_CHECK(rvhal_event_times(ev[i], &ti));
    if (i && ti.device_start_ns < prev.device_end_ns && prev.device_start_ns < ti.device_end_ns) overlapped++;
    device_ns += (double)ti.device_ns;
    prev = ti;
    rvhal_event_release(ev[i]);
  }
  rvhal_semaphore_destroy(gate);
  *out_overlapped = overlapped;
  *out_device_ms = device_ns / n / 1e6;
  return t / 1e3;
}

/* `rounds` times: two launches of bench_work enqueued into the idle device
 * one after the other, then finish; the wall time in ms, and in how many
 * rounds the two device spans overlapped. */
static double late_pairs_ms(bench_dev_t *b, rvhal_queue_t *q, hal_kernel_t k, hal_addr_t out, uint32_t work,
                            int rounds, int *out_overlapped) {
  uint32_t zero = 0;
  hal_arg_t a[3] = {rvhal_arg_global(out), rvhal_arg_value(&work, 4), rvhal_arg_value(&zero, 4)};
  hal_ndrange_t nd = {.global = {1, 1, 1}, .local = {1, 1, 1}};
  int overlapped = 0;
  double t0 = bench_now_us();
  for (int r = 0; r < rounds; r++) {
    rvhal_event_t *e1, *e2;
    BENCH_CHECK(rvhal_enqueue_kernel(q, NULL, b->p, k, &nd, a, 3, 1, NULL, &e1));
    BENCH_CHECK(rvhal_enqueue_kernel(q, NULL, b->p, k, &nd, a, 3, 1, NULL, &e2));
    BENCH_CHECK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
    rvhal_event_times_t t1, t2;
    BENCH_CHECK(rvhal_event_times(e1, &t1));
    BENCH_CHECK(rvhal_event_times(e2, &t2));
    overlapped += t2.device_start_ns < t1.device_end_ns && t1.device_start_ns < t2.device_end_ns;
    rvhal_event_release(e1);
    rvhal_event_release(e2);
  }
  *out_overlapped = overlapped;
  return (bench_now_us() - t0) / 1e3;
}

static void bench_side_by_side(const char *kernel_dir, int runs) {
  rvhal_device_options_t o = {.num_harts = 2};
  bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
  hal_kernel_t k = bench_kernel(&b, "bench_work");
  hal_addr_t out;
  BENCH_CHECK(rvhal_mem_alloc(b.d, 64, 0, &out));
  rvhal_queue_t *in_order, *ooo;
  BENCH_CHECK(rvhal_queue_create(b.d, &in_order));
  BENCH_CHECK(rvhal_queue_create_with_flags(b.d, RVHAL_QUEUE_OUT_OF_ORDER, &ooo));
  const uint32_t work = 1u << 22;
  const int n = 20, reps = runs < 5 ? runs : 5;
  int pairs_in_order = 0, pairs_ooo = 0;
  double dev_in = 0, dev_ooo = 0, dev;
  side_by_side_ms(&b, ooo, k, out, work, 2, &pairs_ooo, &dev); /* warm up */
  double best_in = 1e30, best_ooo = 1e30;
  for (int r = 0; r < (reps > 0 ? reps : 1); r++) { /* alternating; the best of each */
    double t = side_by_side_ms(&b, in_order, k, out, work, n, &pairs_in_order, &dev);
    if (t < best_in) best_in = t, dev_in = dev;
    t = side_by_side_ms(&b, ooo, k, out, work, n, &pairs_ooo, &dev);
    if (t < best_ooo) best_ooo = t, dev_ooo = dev;
  }
  printf("queue   side by side, %d one-group launches of %u steps, 2 harts: in order %7.1f ms (%d overlapped, "
         "%.1f ms a launch on the device), out of order %7.1f ms (%d overlapped, %.1f ms): %.2fx\n",
         n, work, best_in, pairs_in_order, dev_in, best_ooo, pairs_ooo, dev_ooo, best_in / best_ooo);
  const int rounds = 10;
  int late_in = 0, late_ooo = 0, late;
  best_in = best_ooo = 1e30;
  for (int r = 0; r < (reps > 0 ? reps : 1); r++) {
    double t = late_pairs_ms(&b, in_order, k, out, work, rounds, &late);
    if (t < best_in) best_in = t, late_in = late;
    t = late_pairs_ms(&b, ooo, k, out, work, rounds, &late);
    if (t < best_ooo) best_ooo = t, late_ooo = late;
  }
  printf("queue   enqueue, enqueue, finish, %d times, 2 harts: in order %7.1f ms (%d of %d overlapped), out of order "
         "%7.1f ms (%d of %d): %.2fx\n",
         rounds, best_in, late_in, rounds, best_ooo, late_ooo, rounds, best_in / best_ooo);
  rvhal_queue_destroy(in_order);
  rvhal_queue_destroy(ooo);
  rvhal_mem_free(b.d, out);
  bench_close(&b);
}

void bench_queue(const char *kernel_dir, int runs) {
  rvhal_device_options_t o = {.num_harts = 1};
  bench_dev_t b = bench_open(kernel_dir, "bench_kernels", &o);
  hal_kernel_t k = bench_kernel(&b, "bench_nothing");
  rvhal_queue_t *q;
  BENCH_CHECK(rvhal_queue_create(b.d, &q));
  int n = runs < 10000 ? 10000 : runs;
  launches_per_s_blocking(&b, k, 100); /* warm up */
  launches_per_s_queue(&b, q, k, 100);
  double lb = launches_per_s_blocking(&b, k, n), lq = launches_per_s_queue(&b, q, k, n);
  double ld = launches_per_s_queue_drained(&b, q, k, n);
  printf("queue   %d empty launches: blocking %8.0f /s, through a queue %8.0f /s (%.2fx); "
         "enqueued ahead, drained at %8.0f /s (%.2fx)\n",
         n, lb, lq, lq / lb, ld, ld / lb);
  bench_gap(&b, q, k, runs < 1000 ? runs : 1000, 1);
  bench_gap(&b, q, k, runs < 1000 ? runs : 1000, 0);
  bench_command_buffer(&b, q, k);
  rvhal_queue_destroy(q);
  bench_close(&b);
  bench_pipeline(kernel_dir, runs);
  bench_side_by_side(kernel_dir, runs);
}

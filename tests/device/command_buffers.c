/* Command buffers walked by the firmware (rvhal_cmdlist.h): one ring entry
 * per submission, copies and fills inside, bindings re-bound between
 * submissions, a command failing on the device in the middle (the blocking
 * call's message, naming the command; what follows it in the queue fails
 * with the cause; the device keeps working), and a command the host's
 * submission checks refuse. */
#include "dev_util.h"
#include "dt_shared.h"
#include "rvhal/arg_pack.h"
#include "rvhal/rvhal_cmdlist.h"

#define N 64u

static const uint32_t table_b[8] = PROG_B_TABLE(1);
static rvhal_device_t *dev;
static hal_program_t prog_b;
static hal_kernel_t k_fill, k_mix;
static const hal_ndrange_t nd = {.global = {N}, .local = {8}};

static uint32_t mix(uint32_t in, uint32_t k, uint32_t i) { return prog_b_formula(in, k, table_b[i % 8], PROG_B_BIAS(1)); }

static void add_mix(rvhal_command_buffer_t *cb, int32_t out_slot, int32_t in_slot, uint32_t k) {
  hal_arg_t a[3] = {rvhal_arg_global(0), rvhal_arg_global(0), rvhal_arg_value(&k, 4)};
  int32_t slots[3] = {out_slot, in_slot, -1};
  CHECK_OK(rvhal_command_buffer_kernel(cb, prog_b, k_mix, &nd, a, 3, 1, NULL, slots));
}

/* What launches [0, upto) but `skip` of the chain add_mix(cb, (l+1)%2, l%2, l)
 * leave in the two buffers, from x = in. */
static void simulate(const uint32_t *in, uint32_t upto, uint32_t skip, uint32_t *x, uint32_t *y) {
  uint32_t *b[2] = {x, y};
  for (uint32_t i = 0; i < N; i++) x[i] = in[i], y[i] = 0;
  for (uint32_t l = 0; l < upto; l++)
    if (l != skip)
      for (uint32_t i = 0; i < N; i++) b[(l + 1) % 2][i] = mix(b[l % 2][i], l, i);
}

/* The sequence number of a blocking launch: how many ring entries the
 * device has taken. */
static uint64_t ring_seq(hal_addr_t scratch) {
  uint32_t v = 0;
  hal_arg_t a[2] = {rvhal_arg_global(scratch), rvhal_arg_value(&v, 4)};
  CHECK_OK(rvhal_kernel_exec(dev, prog_b, k_fill, &nd, a, 2, 1));
  rvhal_launch_report_t r;
  CHECK_OK(rvhal_device_last_launch(dev, &r));
  return r.seq;
}

/* Fill, copy, 20 launches, copy and fill, replayed 30 times over 3 sets of
 * bindings; every result checked, and each submission is one ring entry. */
static void test_copies_fills(void) {
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  hal_addr_t scratch = dt_buffer(dev, N * 4, NULL);
  hal_addr_t b[3][4]; /* per set: src (filled), x, y, out */
  for (int s = 0; s < 3; s++)
    for (int j = 0; j < 4; j++) b[s][j] = dt_buffer(dev, N * 4, NULL);
  rvhal_command_buffer_t *cb;
  CHECK_OK(rvhal_command_buffer_create(dev, &cb));
  /* the copies and fills name fixed addresses (set 0); the launches are re-bound */
  const uint32_t pat = 0x01020304u;
  CHECK_OK(rvhal_command_buffer_fill(cb, b[0][0], &pat, 4, N * 4));
  CHECK_OK(rvhal_command_buffer_copy(cb, b[0][1], b[0][0], N * 4));
  CHECK_OK(rvhal_command_buffer_barrier(cb));
  for (uint32_t l = 0; l < 20; l++) add_mix(cb, (int32_t)((l + 1) % 2), (int32_t)(l % 2), l + 5);
  CHECK_OK(rvhal_command_buffer_copy(cb, b[0][3], b[0][1], N * 2)); /* half of x (set 0) */
  const uint8_t ff = 0xee;
  CHECK_OK(rvhal_command_buffer_fill(cb, b[0][3] + N * 2, &ff, 1, N * 2));
  CHECK_OK(rvhal_command_buffer_end(cb));

  uint64_t seq0 = ring_seq(scratch);
  const int replays = 30;
  uint32_t want[3][N], in[N]; /* in: read by the enqueued write, which ends before the next replay */
  int ran[3] = {0};
  for (int r = 0; r < replays; r++) {
    int s = r % 3;
    hal_addr_t bind[2] = {b[s][1], b[s][2]}; /* the chain runs over x and y of set s */
    if (s != 0) { /* set 0's x is filled by the copy; give the others their own start */
      for (uint32_t i = 0; i < N; i++) in[i] = (uint32_t)(r * 131 + i);
      CHECK_OK(rvhal_enqueue_write(q, NULL, b[s][1], in, sizeof in, NULL));
      for (uint32_t i = 0; i < N; i++) want[s][i] = in[i];
    } else {
      for (uint32_t i = 0; i < N; i++) want[s][i] = pat;
    }
    for (uint32_t l = 0; l < 20; l++)
      for (uint32_t i = 0; i < N; i++) want[s][i] = mix(want[s][i], l + 5, i);
    rvhal_event_t *e;
    CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bind, 2, &e));
    CHECK_OK(rvhal_event_wait(e, RVHAL_WAIT_FOREVER));
    rvhal_event_times_t t;
    CHECK_OK(rvhal_event_times(e, &t));
    CHECK(t.device_end_ns > t.device_start_ns);
    rvhal_event_release(e);
    uint32_t got[N];
    CHECK_OK(rvhal_mem_read(dev, got, b[s][1], sizeof got)); /* 20 launches: the last wrote slot 0 */
    CHECK_BYTES(got, want[s], sizeof got, "20 launches after a fill and a copy, re-bound");
    ran[s]++;
  }
  CHECK_EQ_U64(ran[0] + ran[1] + ran[2], replays);
  /* one ring entry per submission, not one per launch */
  CHECK_EQ_U64(ring_seq(scratch) - seq0, replays + 1);
  uint32_t out[N], src[N];
  CHECK_OK(rvhal_mem_read(dev, out, b[0][3], sizeof out));
  CHECK_OK(rvhal_mem_read(dev, src, b[0][0], sizeof src));
  for (uint32_t i = 0; i < N; i++) CHECK_EQ_U64(src[i], pat);
  /* set 0's x after its last replay: the copy took the first half of it */
  uint32_t x0[N];
  CHECK_OK(rvhal_mem_read(dev, x0, b[0][1], sizeof x0));
  CHECK_BYTES(out, x0, N * 2, "copy inside the command buffer");
  for (uint32_t i = N / 2; i < N; i++) CHECK_EQ_U64(out[i], 0xeeeeeeeeu);
  rvhal_command_buffer_destroy(cb);
  rvhal_queue_destroy(q);
  for (int s = 0; s < 3; s++)
    for (int j = 0; j < 4; j++) rvhal_mem_free(dev, b[s][j]);
  rvhal_mem_free(dev, scratch);
}

/* Ten launches, the sixth a fill whose output is bound to slot 2: NULL makes
 * it trap on the device. The failure is the blocking call's message naming
 * command 5; launches 0-4 ran, 6-9 did not; the read queued after it is
 * cancelled with the cause; with slot 2 bound to a buffer it all runs. */
static void test_failure_in_the_middle(void) {
  hal_addr_t x = dt_buffer(dev, N * 4, NULL), y = dt_buffer(dev, N * 4, NULL), z = dt_buffer(dev, N * 4, NULL);
  rvhal_launch_options_t one = {.harts = 1}; /* the same hart traps as in the blocking call */
  uint32_t v = 77;
  hal_arg_t fa[2] = {rvhal_arg_global(0), rvhal_arg_value(&v, 4)};
  CHECK(rvhal_kernel_exec_ex(dev, prog_b, k_fill, &nd, fa, 2, 1, &one) == RVHAL_KERNEL_TRAP);
  char blocking[1024];
  snprintf(blocking, sizeof blocking, "%s", rvhal_last_error());

  rvhal_command_buffer_t *cb;
  CHECK_OK(rvhal_command_buffer_create(dev, &cb));
  int32_t fill_slots[2] = {2, -1};
  for (uint32_t l = 0; l < 10; l++) {
    if (l == 5) CHECK_OK(rvhal_command_buffer_kernel(cb, prog_b, k_fill, &nd, fa, 2, 1, &one, fill_slots));
    else add_mix(cb, (int32_t)((l + 1) % 2), (int32_t)(l % 2), l);
  }
  CHECK_OK(rvhal_command_buffer_end(cb));
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  uint32_t in[N], wx[N], wy[N], got[N];
  for (uint32_t i = 0; i < N; i++) in[i] = i * 40503u;
  CHECK_OK(rvhal_mem_write(dev, x, in, sizeof in));
  simulate(in, 5, 99, wx, wy);
  hal_addr_t bind[3] = {x, y, hal_nullptr};
  rvhal_event_t *e, *after;
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bind, 3, &e));
  CHECK_OK(rvhal_enqueue_read(q, NULL, got, y, sizeof got, &after));
  CHECK(rvhal_event_wait(e, RVHAL_WAIT_FOREVER) == RVHAL_KERNEL_TRAP);
  const char *m = rvhal_event_message(e);
  CHECK_MSG(!strncmp(m, blocking, strlen(blocking)), "command buffer: \"%s\", blocking call: \"%s\"", m, blocking);
  CHECK_MSG(strstr(m, "command 5 of 10 of the command buffer"), "%s", m);
  CHECK(rvhal_event_wait(after, RVHAL_WAIT_FOREVER) == RVHAL_CANCELLED);
  CHECK_MSG(strstr(rvhal_event_message(after), blocking), "%s", rvhal_event_message(after));
  rvhal_event_release(e);
  rvhal_event_release(after);
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_KERNEL_TRAP, "command 5 of 10");
  /* launches 0-4 ran (the last of them wrote y), 6-9 did not (6 would have written y again) */
  CHECK_OK(rvhal_mem_read(dev, got, y, sizeof got));
  CHECK_BYTES(got, wy, sizeof got, "the launches before the failed one ran, none after it");

  /* re-bound: the fill writes z, and everything runs */
  CHECK_OK(rvhal_mem_write(dev, x, in, sizeof in));
  simulate(in, 10, 5, wx, wy);
  bind[2] = z;
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bind, 3, &e));
  CHECK_OK(rvhal_event_wait(e, RVHAL_WAIT_FOREVER));
  rvhal_event_release(e);
  CHECK_OK(rvhal_mem_read(dev, got, x, sizeof got));
  CHECK_BYTES(got, wx, sizeof got, "the same buffer re-bound runs every command");
  CHECK_OK(rvhal_mem_read(dev, got, z, sizeof got));
  for (uint32_t i = 0; i < N; i++) CHECK_EQ_U64(got[i], 77 + i);

  /* a binding the host refuses at submission: the commands before it run */
  CHECK_OK(rvhal_mem_write(dev, x, in, sizeof in));
  CHECK_OK(rvhal_mem_write(dev, y, in, sizeof in));
  simulate(in, 5, 99, wx, wy);
  hal_addr_t freed = dt_buffer(dev, N * 4, NULL);
  rvhal_mem_free(dev, freed);
  bind[2] = freed;
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bind, 3, &e));
  CHECK(rvhal_event_wait(e, RVHAL_WAIT_FOREVER) == RVHAL_OUT_OF_RANGE);
  CHECK_MSG(strstr(rvhal_event_message(e), "argument 0: buffer address") &&
                strstr(rvhal_event_message(e), "command 5 of 10"),
            "%s", rvhal_event_message(e));
  rvhal_event_release(e);
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_OUT_OF_RANGE, "command 5 of 10");
  CHECK_OK(rvhal_mem_read(dev, got, y, sizeof got));
  CHECK_BYTES(got, wy, sizeof got, "the launches before the refused one ran");
  rvhal_queue_destroy(q);
  rvhal_command_buffer_destroy(cb);

  /* a copy out of its buffer, in the middle: the blocking call's message */
  CHECK(rvhal_mem_copy(dev, y, x, N * 8) == RVHAL_OUT_OF_RANGE);
  snprintf(blocking, sizeof blocking, "%s", rvhal_last_error());
  CHECK_OK(rvhal_command_buffer_create(dev, &cb));
  add_mix(cb, 1, 0, 1);
  CHECK_OK(rvhal_command_buffer_copy(cb, y, x, N * 8));
  add_mix(cb, 0, 1, 2);
  CHECK_OK(rvhal_command_buffer_end(cb));
  CHECK_OK(rvhal_queue_create(dev, &q));
  bind[0] = x, bind[1] = y;
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bind, 2, &e));
  CHECK(rvhal_event_wait(e, RVHAL_WAIT_FOREVER) == RVHAL_OUT_OF_RANGE);
  CHECK_MSG(!strncmp(rvhal_event_message(e), blocking, strlen(blocking)) &&
                strstr(rvhal_event_message(e), "command 1 of 3"),
            "\"%s\", blocking: \"%s\"", rvhal_event_message(e), blocking);
  rvhal_event_release(e);
  (void)rvhal_queue_finish(q, RVHAL_WAIT_FOREVER);
  rvhal_queue_destroy(q);
  rvhal_command_buffer_destroy(cb);
  rvhal_mem_free(dev, x);
  rvhal_mem_free(dev, y);
  rvhal_mem_free(dev, z);
}

/* Destroying the buffer while submissions are queued: they still run. */
static void test_destroy_pending(void) {
  hal_addr_t x = dt_buffer(dev, N * 4, NULL), y = dt_buffer(dev, N * 4, NULL);
  rvhal_command_buffer_t *cb;
  CHECK_OK(rvhal_command_buffer_create(dev, &cb));
  for (uint32_t l = 0; l < 4; l++) add_mix(cb, (int32_t)((l + 1) % 2), (int32_t)(l % 2), l);
  CHECK_OK(rvhal_command_buffer_end(cb));
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  uint32_t in[N], want[N], got[N];
  for (uint32_t i = 0; i < N; i++) want[i] = in[i] = i;
  CHECK_OK(rvhal_mem_write(dev, x, in, sizeof in));
  hal_addr_t bind[2] = {x, y};
  for (int r = 0; r < 5; r++) {
    CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bind, 2, NULL));
    for (uint32_t l = 0; l < 4; l++)
      for (uint32_t i = 0; i < N; i++) want[i] = mix(want[i], l, i);
  }
  rvhal_command_buffer_destroy(cb);
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  CHECK_OK(rvhal_mem_read(dev, got, x, sizeof got));
  CHECK_BYTES(got, want, sizeof got, "submissions of a destroyed buffer");
  rvhal_queue_destroy(q);
  rvhal_mem_free(dev, x);
  rvhal_mem_free(dev, y);
}

/* Submissions back to back with nothing between them: each waits on the
 * device behind the one before (the two copies of the list alternate),
 * re-bound to one of 4 buffer pairs each time; then a failing one in such
 * a stream: the launch and submission behind it are cancelled with its
 * cause, the one before it ran. */
static void test_back_to_back(void) {
  rvhal_command_buffer_t *cb;
  CHECK_OK(rvhal_command_buffer_create(dev, &cb));
  uint32_t v = 5;
  hal_arg_t fa[2] = {rvhal_arg_global(0), rvhal_arg_value(&v, 4)};
  int32_t fill_slots[2] = {2, -1};
  for (uint32_t l = 0; l < 4; l++) add_mix(cb, (int32_t)((l + 1) % 2), (int32_t)(l % 2), l);
  CHECK_OK(rvhal_command_buffer_kernel(cb, prog_b, k_fill, &nd, fa, 2, 1, NULL, fill_slots)); /* slot 2 += nothing */
  CHECK_OK(rvhal_command_buffer_end(cb));
  hal_addr_t x[4], y[4], z = dt_buffer(dev, N * 4, NULL);
  uint32_t in[4][N], wx[4][N], wy[N], got[N];
  for (int p = 0; p < 4; p++) {
    x[p] = dt_buffer(dev, N * 4, NULL), y[p] = dt_buffer(dev, N * 4, NULL);
    for (uint32_t i = 0; i < N; i++) wx[p][i] = in[p][i] = (uint32_t)(p * 1000 + i);
    CHECK_OK(rvhal_mem_write(dev, x[p], in[p], sizeof in[p]));
  }
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(dev, &q));
  const int subs = 20;
  for (int r = 0; r < subs; r++) {
    int p = r % 4;
    hal_addr_t bind[3] = {x[p], y[p], z};
    CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bind, 3, NULL));
    simulate(wx[p], 4, 99, wx[p], wy); /* 4 launches: x -> y -> x -> y -> x */
  }
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  for (int p = 0; p < 4; p++) {
    CHECK_OK(rvhal_mem_read(dev, got, x[p], sizeof got));
    CHECK_BYTES(got, wx[p], sizeof got, "submissions back to back, re-bound in turn");
  }

  /* good, failing (slot 2 NULL: the fill traps), a kernel, good */
  hal_addr_t good[3] = {x[0], y[0], z}, bad[3] = {x[1], y[1], hal_nullptr};
  rvhal_event_t *e[4];
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, good, 3, &e[0]));
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, bad, 3, &e[1]));
  uint32_t k = 1;
  hal_arg_t ma[3] = {rvhal_arg_global(y[2]), rvhal_arg_global(x[2]), rvhal_arg_value(&k, 4)};
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, prog_b, k_mix, &nd, ma, 3, 1, NULL, &e[2]));
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, good, 3, &e[3]));
  CHECK_OK(rvhal_event_wait(e[0], RVHAL_WAIT_FOREVER));
  CHECK(rvhal_event_wait(e[1], RVHAL_WAIT_FOREVER) == RVHAL_KERNEL_TRAP);
  CHECK_MSG(strstr(rvhal_event_message(e[1]), "command 4 of 5 of the command buffer"), "%s", rvhal_event_message(e[1]));
  for (int i = 2; i < 4; i++) {
    CHECK(rvhal_event_wait(e[i], RVHAL_WAIT_FOREVER) == RVHAL_CANCELLED);
    CHECK_MSG(strstr(rvhal_event_message(e[i]), "trapped") && strstr(rvhal_event_message(e[i]), "command 4 of 5"),
              "%s", rvhal_event_message(e[i]));
  }
  for (int i = 0; i < 4; i++) rvhal_event_release(e[i]);
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_KERNEL_TRAP, "command 4 of 5");
  simulate(wx[0], 4, 99, wx[0], wy);
  CHECK_OK(rvhal_mem_read(dev, got, x[0], sizeof got));
  CHECK_BYTES(got, wx[0], sizeof got, "the submission before the failed one ran");
  simulate(wx[1], 4, 99, wx[1], wy); /* its 4 launches ran before the fill trapped */
  CHECK_OK(rvhal_mem_read(dev, got, x[1], sizeof got));
  CHECK_BYTES(got, wx[1], sizeof got, "the failed submission's commands before the failure ran");
  /* the queue and the buffer work on */
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, good, 3, NULL));
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  simulate(wx[0], 4, 99, wx[0], wy);
  CHECK_OK(rvhal_mem_read(dev, got, x[0], sizeof got));
  CHECK_BYTES(got, wx[0], sizeof got, "the buffer after a failure");
  rvhal_queue_destroy(q);
  rvhal_command_buffer_destroy(cb);
  for (int p = 0; p < 4; p++) rvhal_mem_free(dev, x[p]), rvhal_mem_free(dev, y[p]);
  rvhal_mem_free(dev, z);
}

/* A launch that hangs inside a command buffer: the list times out as a
 * whole, the device restarts, what was behind it is cancelled naming it,
 * and buffers run again afterwards (encoded anew on the restarted device). */
static void test_hang(void) {
  rvhal_device_options_t o = {.launch_timeout_ms = 3000}; /* long enough for a good list on a loaded host */
  rvhal_device_t *d = fixture_device_opts(2, &o);
  hal_program_t pt = fixture_program(d, "dt_trap");
  hal_kernel_t loop = fixture_kernel(d, pt, "trap_loop"), good = fixture_kernel(d, pt, "trap_good");
  hal_addr_t info = dt_buffer(d, 64, NULL), marks = dt_buffer(d, N * 8, NULL), out = dt_buffer(d, N * 4, NULL);
  uint64_t bad_item = 1;
  uint32_t k5 = 5, k6 = 6;
  hal_arg_t largs[3] = {rvhal_arg_global(info), rvhal_arg_global(marks), rvhal_arg_value(&bad_item, 8)};
  hal_arg_t g5[2] = {rvhal_arg_global(out), rvhal_arg_value(&k5, 4)}, g6[2] = {rvhal_arg_global(out),
                                                                                rvhal_arg_value(&k6, 4)};
  rvhal_command_buffer_t *hang, *fine;
  CHECK_OK(rvhal_command_buffer_create(d, &hang));
  CHECK_OK(rvhal_command_buffer_kernel(hang, pt, good, &nd, g5, 2, 1, NULL, NULL));
  CHECK_OK(rvhal_command_buffer_kernel(hang, pt, loop, &nd, largs, 3, 1, NULL, NULL));
  CHECK_OK(rvhal_command_buffer_kernel(hang, pt, good, &nd, g6, 2, 1, NULL, NULL));
  /* a launch's own timeout is not a recorded launch's: the list has the device's */
  const rvhal_launch_options_t own = {.timeout_ms = 500};
  CHECK_FAILS(rvhal_command_buffer_kernel(hang, pt, loop, &nd, largs, 3, 1, &own, NULL), RVHAL_INVALID_ARGUMENT,
              "timeout_ms 500");
  CHECK_OK(rvhal_command_buffer_end(hang));
  CHECK_OK(rvhal_command_buffer_create(d, &fine));
  CHECK_OK(rvhal_command_buffer_kernel(fine, pt, good, &nd, g6, 2, 1, NULL, NULL));
  CHECK_OK(rvhal_command_buffer_end(fine));
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(d, &q));
  rvhal_event_t *e[3];
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, hang, NULL, 0, &e[0]));
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, fine, NULL, 0, &e[1]));
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, pt, good, &nd, g6, 2, 1, NULL, &e[2]));
  CHECK(rvhal_event_wait(e[0], RVHAL_WAIT_FOREVER) == RVHAL_TIMEOUT);
  CHECK_MSG(strstr(rvhal_event_message(e[0]), "did not finish within 3000 ms") &&
                strstr(rvhal_event_message(e[0]), "command buffer of 3 commands"),
            "%s", rvhal_event_message(e[0]));
  for (int i = 1; i < 3; i++)
    CHECK_FAILS(rvhal_event_wait(e[i], RVHAL_WAIT_FOREVER), RVHAL_CANCELLED, "did not finish within 3000 ms");
  uint32_t got[N];
  CHECK_OK(rvhal_mem_read(d, got, out, sizeof got));
  CHECK_EQ_U64(got[N - 1], (N - 1) * 7 + 5); /* the first launch ran, the third did not */
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_TIMEOUT, NULL);
  /* a queued launch with its own timeout: that one, not the device's */
  rvhal_event_t *shorter;
  CHECK_OK(rvhal_enqueue_kernel(q, NULL, pt, loop, &nd, largs, 3, 1, &own, &shorter));
  CHECK_FAILS(rvhal_event_wait(shorter, RVHAL_WAIT_FOREVER), RVHAL_TIMEOUT,
              "did not finish within 500 ms (the launch timeout: this launch's timeout_ms)");
  rvhal_event_release(shorter);
  CHECK_FAILS(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER), RVHAL_TIMEOUT, NULL);
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, fine, NULL, 0, NULL));
  CHECK_OK(rvhal_queue_finish(q, RVHAL_WAIT_FOREVER));
  CHECK_OK(rvhal_mem_read(d, got, out, sizeof got));
  CHECK_EQ_U64(got[N - 1], (N - 1) * 7 + 6);
  for (int i = 0; i < 3; i++) rvhal_event_release(e[i]);
  rvhal_queue_destroy(q);
  rvhal_command_buffer_destroy(hang);
  rvhal_command_buffer_destroy(fine);
  rvhal_device_delete(d);
}

/* A privileged kernel inside a command list rewrites the next command (a
 * copy) to target address 0xdead: the firmware checks every record when it
 * reaches it and refuses the copy, naming it, and nothing is copied. The
 * list's place is the ABI's: the first list encoded on a fresh device is
 * at the start of the command-list area. */
static void test_list_overwritten(void) {
  rvhal_device_t *d = fixture_device(1);
  hal_program_t ph = fixture_program(d, "dt_hostile");
  hal_kernel_t act = fixture_kernel(d, ph, "hostile_act");
  hal_addr_t marks = dt_buffer(d, N * 4, NULL), x = dt_buffer(d, N * 4, NULL), y = dt_buffer(d, N * 4, NULL);
  rvhal_launch_options_t priv = {.privileged = 1, .harts = 1};
  uint64_t what = HOSTILE_LAYOUT, value = 0;
  hal_arg_t a[3] = {rvhal_arg_global(marks), rvhal_arg_value(&what, 8), rvhal_arg_value(&value, 8)};
  const hal_ndrange_t one = {.global = {1}, .local = {1}};
  CHECK_OK(rvhal_kernel_exec_ex(d, ph, act, &one, a, 3, 1, &priv));
  uint32_t m[2];
  CHECK_OK(rvhal_mem_read(d, m, marks, sizeof m));
  const uint64_t fw_base = m[0] | (uint64_t)m[1] << 32;
  /* where command 1's dst lies: header, 2 status records, command 0 (a launch) */
  rvhal_arg_layout_t layout[3];
  uint32_t pack = 0;
  CHECK_OK(rvhal_arg_layout(a, 3, rvhal_device_get_info(d)->word_size, layout, &pack));
  const uint64_t rec0 = sizeof(rvhal_cmdlist_t) + (2 * sizeof(rvhal_cmd_status_t) + 63) / 64 * 64;
  const uint64_t rec1 = rec0 + (sizeof(rvhal_cmd_t) + RVHAL_CMD_DESC_SPACE + pack + 63) / 64 * 64;
  what = HOSTILE_STORE_AT; /* stores 0xdead, a 32-bit word: the low half of dst */
  value = fw_base + RVHAL_CMDLIST_OFFSET + rec1 + offsetof(rvhal_cmd_t, dst);
  rvhal_command_buffer_t *cb;
  CHECK_OK(rvhal_command_buffer_create(d, &cb));
  CHECK_OK(rvhal_command_buffer_kernel(cb, ph, act, &one, a, 3, 1, &priv, NULL));
  CHECK_OK(rvhal_command_buffer_copy(cb, x, y, N * 4));
  CHECK_OK(rvhal_command_buffer_end(cb));
  uint32_t in[N], got[N];
  for (uint32_t i = 0; i < N; i++) in[i] = i + 1;
  CHECK_OK(rvhal_mem_write(d, x, in, sizeof in));
  rvhal_queue_t *q;
  CHECK_OK(rvhal_queue_create(d, &q));
  rvhal_event_t *e;
  CHECK_OK(rvhal_enqueue_command_buffer(q, NULL, cb, NULL, 0, &e));
  CHECK(rvhal_event_wait(e, RVHAL_WAIT_FOREVER) == RVHAL_BAD_LAUNCH);
  CHECK_MSG(strstr(rvhal_event_message(e), "mem_copy") && strstr(rvhal_event_message(e), "command 1 of 2"), "%s",
            rvhal_event_message(e));
  rvhal_event_release(e);
  CHECK_OK(rvhal_mem_read(d, got, x, sizeof got));
  CHECK_BYTES(got, in, sizeof got, "the rewritten copy wrote nothing");
  (void)rvhal_queue_finish(q, RVHAL_WAIT_FOREVER);
  rvhal_queue_destroy(q);
  rvhal_command_buffer_destroy(cb);
  rvhal_device_delete(d);
}

int main(void) {
  dev = fixture_device(2);
  prog_b = fixture_program(dev, "dt_prog_b");
  k_fill = fixture_kernel(dev, prog_b, "prog_b_fill");
  k_mix = fixture_kernel(dev, prog_b, "prog_b_mix");
  test_copies_fills();
  test_failure_in_the_middle();
  test_destroy_pending();
  test_back_to_back();
  test_hang();
  test_list_overwritten();
  rvhal_device_delete(dev);
  return check_result("command_buffers");
}

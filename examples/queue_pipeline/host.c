/* queue_pipeline (1-D): 8 chunks of 16384 values pushed through two queues
 * (rvhal/queue.h) that take alternate chunks: copy-in, kernel, copy-out,
 * each enqueued without waiting. A third command list joins them: a marker
 * that waits on both queues' last events, then a host callback that checks
 * every value while the caller waits on one event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"

#define CHUNKS 8
#define CHUNK 16384u

typedef struct {
  const uint32_t *in, *out;
  uint32_t k;
  size_t bad, first_bad;
} check_t;

/* Runs on the queue's thread once both queues are done. */
static void check_all(void *user, int status) {
  check_t *c = user;
  if (status != RVHAL_OK) return;
  for (size_t i = 0; i < (size_t)CHUNKS * CHUNK; i++)
    if (c->out[i] != c->in[i] * (c->k + (uint32_t)(i / CHUNK)) + 1u && c->bad++ == 0) c->first_bad = i;
}

static int run(const example_ctx_t *ctx, char *summary, size_t cap) {
  uint32_t local;
  hal_program_t prog;
  hal_kernel_t k;
  int rc = example_local_1d(ctx, 64, &local, summary, cap);
  if (!rc) rc = example_load(ctx, "queue_pipeline", "scale_entry", &prog, &k, summary, cap);
  if (rc) return rc;
  const size_t n = (size_t)CHUNKS * CHUNK;
  const uint32_t items = example_round_up(CHUNK, local); /* whole groups; the tail of a buffer is padding */
  uint32_t *in = malloc(n * 4), *out = calloc(n, 4), seed = 7;
  hal_addr_t din[2] = {0, 0}, dout[2] = {0, 0};
  rvhal_queue_t *q[2] = {NULL, NULL}, *join = NULL;
  rvhal_event_t *last[2] = {NULL, NULL}, *checked = NULL;
  check_t c = {.in = in, .out = out, .k = 3};
  if (!in || !out) {
    snprintf(summary, cap, "out of host memory");
    rc = -1;
    goto out;
  }
  for (size_t i = 0; i < n; i++) in[i] = example_rand(&seed) & 0xffff;
  /* Two buffers per queue: a queue runs its chunks in order, so chunk c+2
   * may reuse chunk c's buffers without any other synchronisation. */
  for (int i = 0; i < 2; i++)
    if ((rc = rvhal_queue_create(ctx->dev, &q[i])) || (rc = rvhal_mem_alloc(ctx->dev, items * 4, 0, &din[i])) ||
        (rc = rvhal_mem_alloc(ctx->dev, items * 4, 0, &dout[i]))) {
      rc = example_fail(summary, cap, "queue/memory set-up", rc);
      goto out;
    }
  if ((rc = rvhal_queue_create(ctx->dev, &join))) {
    rc = example_fail(summary, cap, "queue_create", rc);
    goto out;
  }
  hal_ndrange_t nd = {.global = {items, 1, 1}, .local = {local, 1, 1}};
  rvhal_launch_options_t lo = {.harts_per_group = ctx->harts_per_group};
  for (uint32_t ch = 0; ch < CHUNKS; ch++) {
    int i = ch % 2;
    uint32_t kk = c.k + ch; /* copied at enqueue: the loop may change it at once */
    hal_arg_t args[3] = {rvhal_arg_global(din[i]), rvhal_arg_global(dout[i]), rvhal_arg_value(&kk, 4)};
    if (last[i]) rvhal_event_release(last[i]);
    last[i] = NULL;
    if ((rc = rvhal_enqueue_write(q[i], NULL, din[i], in + (size_t)ch * CHUNK, CHUNK * 4, NULL)) ||
        (rc = rvhal_enqueue_kernel(q[i], NULL, prog, k, &nd, args, 3, 1, &lo, NULL)) ||
        (rc = rvhal_enqueue_read(q[i], NULL, out + (size_t)ch * CHUNK, dout[i], CHUNK * 4, &last[i]))) {
      rc = example_fail(summary, cap, "enqueue", rc);
      goto out;
    }
  }
  rvhal_dependencies_t both = {.wait_events = last, .num_wait_events = 2};
  if ((rc = rvhal_enqueue_marker(join, &both, NULL)) ||
      (rc = rvhal_enqueue_callback(join, NULL, check_all, &c, &checked))) {
    rc = example_fail(summary, cap, "enqueue", rc);
    goto out;
  }
  if ((rc = rvhal_event_wait(checked, RVHAL_WAIT_FOREVER))) {
    rc = example_fail(summary, cap, "pipeline", rc);
    goto out;
  }
  if (c.bad) {
    size_t i = c.first_bad;
    snprintf(summary, cap, "out[%zu] = %u, expected %u; %zu values differ", i, out[i],
             in[i] * (c.k + (uint32_t)(i / CHUNK)) + 1u, c.bad);
    rc = -1;
  } else {
    snprintf(summary, cap, "1-D, %d chunks of %u items through 2 queues, groups of %u", CHUNKS, CHUNK, local);
  }
out:
  rvhal_event_release(last[0]);
  rvhal_event_release(last[1]);
  rvhal_event_release(checked);
  rvhal_queue_destroy(q[0]);
  rvhal_queue_destroy(q[1]);
  rvhal_queue_destroy(join);
  for (int i = 0; i < 2; i++) {
    rvhal_mem_free(ctx->dev, din[i]);
    rvhal_mem_free(ctx->dev, dout[i]);
  }
  rvhal_program_free(ctx->dev, prog);
  free(in);
  free(out);
  return rc;
}

const example_t example_queue_pipeline = {"queue_pipeline",
                                          "copy-in / kernel / copy-out of 8 chunks pipelined through two queues", run};

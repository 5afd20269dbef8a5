/* OpenCL queues and events on an rvhal device: profiling times in order,
 * user events gating commands (and failing them), callbacks, markers and
 * barriers, out-of-order queues (commands passing a held one, two kernels
 * side by side), a dependency across two queues, wait-list
 * and queue errors with the spec's codes, reference counts and the
 * context's destructor callback. */
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "cl_test.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static cl_kernel vector_add(cl_test_env_t *env, cl_program *out_p) {
  cl_int err;
  *out_p = cl_test_program(env, "vector_add.elf");
  return *out_p ? clCreateKernel(*out_p, "vector_add", &err) : NULL;
}

static void profiling(cl_test_env_t *env, cl_kernel k) {
  cl_int err;
  cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  cl_command_queue q = clCreateCommandQueueWithProperties(env->context, env->device, props, &err);
  CHECK_CL(err);
  size_t n = env->harts * 64;
  cl_mem b = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  for (int i = 0; i < 3; i++) CHECK_CL(clSetKernelArg(k, (cl_uint)i, sizeof b, &b));
  cl_event ev = NULL;
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &ev));
  CHECK_CL(clWaitForEvents(1, &ev));
  cl_ulong t[5] = {0};
  const cl_profiling_info names[5] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                      CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                      CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; i++) CHECK_CL(clGetEventProfilingInfo(ev, names[i], sizeof t[i], &t[i], NULL));
  CHECK_MSG(t[0] > 0 && t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3] && t[3] <= t[4],
            "profile %llu %llu %llu %llu %llu", (unsigned long long)t[0], (unsigned long long)t[1],
            (unsigned long long)t[2], (unsigned long long)t[3], (unsigned long long)t[4]);
  cl_command_type type = 0;
  CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  CHECK_EQ_U64(type, CL_COMMAND_NDRANGE_KERNEL);
  cl_command_queue eq = NULL;
  CHECK_CL(clGetEventInfo(ev, CL_EVENT_COMMAND_QUEUE, sizeof eq, &eq, NULL));
  CHECK(eq == q);
  clReleaseEvent(ev);
  /* no profiling on a queue made without it */
  cl_command_queue plain = clCreateCommandQueueWithProperties(env->context, env->device, NULL, &err);
  CHECK_CL(clEnqueueMarkerWithWaitList(plain, 0, NULL, &ev));
  CHECK_CL(clWaitForEvents(1, &ev));
  CHECK_CL_ERR(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t[0], &t[0], NULL),
               CL_PROFILING_INFO_NOT_AVAILABLE);
  clReleaseEvent(ev);
  clReleaseCommandQueue(plain);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q);
}

static int callback_status[4], callback_calls[4];
static void CL_CALLBACK on_event(cl_event e, cl_int status, void *user) {
  (void)e;
  int i = (int)(intptr_t)user;
  callback_status[i] = status;
  callback_calls[i]++;
}

static void user_events(cl_test_env_t *env, cl_command_queue q) {
  cl_int err;
  cl_event gate = clCreateUserEvent(env->context, &err);
  CHECK_CL(err);
  cl_int st = 0;
  CHECK_CL(clGetEventInfo(gate, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK_EQ_U64(st, CL_SUBMITTED);
  uint32_t src[64], dst[64];
  for (int i = 0; i < 64; i++) src[i] = (uint32_t)i * 3u + 1u, dst[i] = 0;
  cl_mem b = clCreateBuffer(env->context, 0, sizeof src, NULL, &err);
  cl_event wr = NULL, rd = NULL;
  CHECK_CL(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof src, src, 1, &gate, &wr));
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_FALSE, 0, sizeof dst, dst, 1, &wr, &rd));
  CHECK_CL(clSetEventCallback(rd, CL_COMPLETE, on_event, (void *)0));
  CHECK_CL(clSetEventCallback(gate, CL_COMPLETE, on_event, (void *)1));
  /* nothing can have run: the write waits for the gate */
  CHECK_CL(clGetEventInfo(rd, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK_MSG(st > CL_COMPLETE, "the read ran before its gate opened (status %d)", st);
  CHECK_EQ_U64(callback_calls[0], 0);
  CHECK_CL_ERR(clSetUserEventStatus(gate, 1), CL_INVALID_VALUE);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL_ERR(clSetUserEventStatus(gate, CL_COMPLETE), CL_INVALID_OPERATION);
  CHECK_EQ_U64(callback_calls[1], 1);
  CHECK_EQ_U64(callback_status[1], CL_COMPLETE);
  CHECK_CL(clWaitForEvents(1, &rd));
  CHECK(!memcmp(src, dst, sizeof src));
  CHECK_CL(clFinish(q)); /* the completion callback is a queue command: done by now */
  CHECK_EQ_U64(callback_calls[0], 1);
  CHECK_EQ_U64(callback_status[0], CL_COMPLETE);
  /* a callback on a finished event runs at once */
  CHECK_CL(clSetEventCallback(rd, CL_COMPLETE, on_event, (void *)2));
  CHECK_EQ_U64(callback_calls[2], 1);
  clReleaseEvent(wr), clReleaseEvent(rd), clReleaseEvent(gate);

  /* a user event set to an error fails what waits on it */
  cl_event bad = clCreateUserEvent(env->context, &err);
  CHECK_CL(clEnqueueWriteBuffer(q, b, CL_FALSE, 0, sizeof src, src, 1, &bad, &wr));
  CHECK_CL(clSetUserEventStatus(bad, -1234));
  CHECK_CL_ERR(clWaitForEvents(1, &wr), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK_CL(clGetEventInfo(wr, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK_MSG(st < 0, "status %d", st);
  /* a callback on an event already ended in an error runs at once, with
   * that error: the user event's own, the command's */
  CHECK_CL(clSetEventCallback(bad, CL_COMPLETE, on_event, (void *)3));
  CHECK_EQ_U64(callback_calls[3], 1);
  CHECK_EQ_U64((uint64_t)(int64_t)callback_status[3], (uint64_t)(int64_t)-1234);
  CHECK_CL(clSetEventCallback(wr, CL_COMPLETE, on_event, (void *)3));
  CHECK_EQ_U64(callback_calls[3], 2);
  CHECK_EQ_U64((uint64_t)(int64_t)callback_status[3], (uint64_t)(int64_t)st);
  /* the write ended (terminated, its event says why) and nothing on the
   * queue failed: clFinish succeeds, and the queue serves again */
  CHECK_CL(clFinish(q));
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof dst, dst, 0, NULL, NULL));
  clReleaseEvent(wr), clReleaseEvent(bad);
  clReleaseMemObject(b);
}

static void ordering(cl_test_env_t *env, cl_kernel k) {
  cl_int err;
  cl_command_queue ooo = clCreateCommandQueue(env->context, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  CHECK_CL(err);
  cl_command_queue other = clCreateCommandQueue(env->context, env->device, 0, &err);
  CHECK_CL(err);
  cl_command_queue_properties props = 0;
  CHECK_CL(clGetCommandQueueInfo(ooo, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL));
  CHECK(props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  size_t n = env->harts * 128;
  uint32_t *a = malloc(n * 4), *c = malloc(n * 4);
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)(i ^ 0x55u);
  cl_mem ba = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_mem bb = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_mem bc = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_event w[2], kev, rev;
  /* two writes on the out-of-order queue, a kernel that waits for both */
  CHECK_CL(clEnqueueWriteBuffer(ooo, ba, CL_FALSE, 0, n * 4, a, 0, NULL, &w[0]));
  CHECK_CL(clEnqueueWriteBuffer(ooo, bb, CL_FALSE, 0, n * 4, a, 0, NULL, &w[1]));
  CHECK_CL(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK_CL(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK_CL(clSetKernelArg(k, 2, sizeof bc, &bc));
  CHECK_CL(clEnqueueNDRangeKernel(ooo, k, 1, NULL, &n, NULL, 2, w, &kev));
  /* the read on another queue waits for the kernel's event */
  CHECK_CL(clEnqueueReadBuffer(other, bc, CL_FALSE, 0, n * 4, c, 1, &kev, &rev));
  CHECK_CL(clWaitForEvents(1, &rev));
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += c[i] != a[i] * 2u;
  CHECK_MSG(bad == 0, "%zu words wrong across queues", bad);
  /* a barrier ends after everything before it; a marker with a wait list after its events */
  cl_event bar, mark;
  uint32_t zero = 0;
  CHECK_CL(clEnqueueFillBuffer(ooo, bc, &zero, 4, 0, n * 4, 0, NULL, NULL));
  CHECK_CL(clEnqueueBarrierWithWaitList(ooo, 0, NULL, &bar));
  CHECK_CL(clEnqueueMarkerWithWaitList(other, 1, &bar, &mark));
  CHECK_CL(clWaitForEvents(1, &mark));
  CHECK_CL(clEnqueueReadBuffer(other, bc, CL_TRUE, 0, n * 4, c, 0, NULL, NULL));
  bad = 0;
  for (size_t i = 0; i < n; i++) bad += c[i] != 0;
  CHECK_MSG(bad == 0, "%zu words not filled before the barrier ended", bad);
  cl_int st;
  CHECK_CL(clGetEventInfo(bar, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  CHECK_EQ_U64(st, CL_COMPLETE);
  /* reference counts */
  cl_uint refs = 0;
  CHECK_CL(clRetainEvent(kev));
  CHECK_CL(clGetEventInfo(kev, CL_EVENT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK_EQ_U64(refs, 2);
  CHECK_CL(clReleaseEvent(kev));
  CHECK_CL(clRetainCommandQueue(other));
  CHECK_CL(clGetCommandQueueInfo(other, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK_EQ_U64(refs, 2);
  CHECK_CL(clReleaseCommandQueue(other));
  for (int i = 0; i < 2; i++) clReleaseEvent(w[i]);
  clReleaseEvent(kev), clReleaseEvent(rev), clReleaseEvent(bar), clReleaseEvent(mark);
  clReleaseMemObject(ba), clReleaseMemObject(bb), clReleaseMemObject(bc);
  CHECK_CL(clFinish(ooo));
  clReleaseCommandQueue(ooo), clReleaseCommandQueue(other);
  free(a), free(c);
}

/* The event's execution status, or the query's error (< 0). */
static cl_int status_of(cl_event e) {
  cl_int st = 1;
  cl_int err = clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
  return err != CL_SUCCESS ? err : st;
}

/* An out-of-order queue runs what is ready past what is not: a write held
 * by a user event does not hold back a write and a kernel enqueued after it
 * (in order they would wait for ever: polled for 60 s here), and a barrier
 * holds back the kernel after it, which reads what the held write wrote. */
static void out_of_order(cl_test_env_t *env, cl_kernel k) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(env->context, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  CHECK_CL(err);
  size_t n = env->harts * 64;
  uint32_t *a = malloc(n * 4), *got = malloc(n * 4);
  for (size_t i = 0; i < n; i++) a[i] = (uint32_t)(i * 2654435761u);
  cl_mem ba = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_mem bb = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_mem bc = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_mem bd = clCreateBuffer(env->context, 0, n * 4, NULL, &err);
  cl_event gate = clCreateUserEvent(env->context, &err);
  CHECK_CL(err);
  cl_event held, wrote, ran, bar, after;
  CHECK_CL(clEnqueueWriteBuffer(q, ba, CL_FALSE, 0, n * 4, a, 1, &gate, &held));
  CHECK_CL(clEnqueueWriteBuffer(q, bb, CL_FALSE, 0, n * 4, a, 0, NULL, &wrote));
  CHECK_CL(clSetKernelArg(k, 0, sizeof bb, &bb));
  CHECK_CL(clSetKernelArg(k, 1, sizeof bb, &bb));
  CHECK_CL(clSetKernelArg(k, 2, sizeof bc, &bc));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 1, &wrote, &ran));
  CHECK_CL(clFlush(q));
  double t0 = now_s();
  while (status_of(ran) > CL_COMPLETE && now_s() - t0 < 60) usleep(1000);
  CHECK_MSG(status_of(ran) == CL_COMPLETE, "a kernel behind a held write did not run (status %d after %.0f s)",
            status_of(ran), now_s() - t0);
  CHECK(status_of(held) > CL_COMPLETE);
  CHECK_CL(clEnqueueBarrierWithWaitList(q, 0, NULL, &bar));
  CHECK_CL(clSetKernelArg(k, 0, sizeof ba, &ba));
  CHECK_CL(clSetKernelArg(k, 1, sizeof ba, &ba));
  CHECK_CL(clSetKernelArg(k, 2, sizeof bd, &bd));
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, &after));
  CHECK_CL(clFlush(q));
  usleep(100 * 1000); /* time enough to pass the barrier, were it passable */
  CHECK(status_of(after) > CL_COMPLETE);
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK_CL(clFinish(q));
  CHECK_EQ_U64(status_of(held), CL_COMPLETE);
  CHECK_EQ_U64(status_of(bar), CL_COMPLETE);
  size_t bad_c = 0, bad_d = 0;
  CHECK_CL(clEnqueueReadBuffer(q, bc, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) bad_c += got[i] != a[i] * 2u;
  CHECK_CL(clEnqueueReadBuffer(q, bd, CL_TRUE, 0, n * 4, got, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) bad_d += got[i] != a[i] * 2u;
  CHECK_MSG(bad_c == 0 && bad_d == 0, "%zu words wrong before the barrier, %zu after it", bad_c, bad_d);
  cl_event evs[] = {gate, held, wrote, ran, bar, after};
  for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) clReleaseEvent(evs[i]);
  cl_mem mems[] = {ba, bb, bc, bd};
  for (size_t i = 0; i < sizeof mems / sizeof *mems; i++) clReleaseMemObject(mems[i]);
  CHECK_CL(clReleaseCommandQueue(q));
  free(a), free(got);
}

/* A pair of one program's kernels on an out-of-order queue: `wait` polls
 * `flag` for `value` (at most `polls` times; out: {seen, polls}), `set`
 * writes it. Run side by side, the first sees the word; in turn, it polls
 * out its bound. */
typedef struct {
  cl_program p;
  cl_kernel wait, set;
  cl_command_queue q;
  cl_mem flag, out;
  cl_uint polls;
} pair_t;

static int pair_open(cl_test_env_t *env, const char *what, cl_uint value, cl_uint polls, pair_t *out_pair) {
  const char *profile = getenv("RVHAL_PROFILE");
  memset(out_pair, 0, sizeof *out_pair);
  if (profile && *profile) { /* a profiled device runs launches one at a time (docs/queues.md) */
    printf("icd.events: %s not checked: RVHAL_PROFILE is set\n", what);
    return 0;
  }
  pair_t *t = out_pair;
  cl_int err;
  t->p = cl_test_program(env, "dt_mem.elf");
  CHECK(t->p != NULL);
  if (!t->p) return 0;
  t->wait = clCreateKernel(t->p, "mem_wait_word", &err);
  CHECK_CL(err);
  t->set = clCreateKernel(t->p, "mem_set_word", &err);
  CHECK_CL(err);
  t->q = clCreateCommandQueue(env->context, env->device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  CHECK_CL(err);
  uint32_t zero[16] = {0};
  t->flag = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, 64, zero, &err);
  CHECK_CL(err);
  t->out = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, 64, zero, &err);
  CHECK_CL(err);
  t->polls = polls;
  CHECK_CL(clSetKernelArg(t->wait, 0, sizeof t->flag, &t->flag));
  CHECK_CL(clSetKernelArg(t->wait, 1, sizeof t->out, &t->out));
  CHECK_CL(clSetKernelArg(t->wait, 2, 4, &value));
  CHECK_CL(clSetKernelArg(t->wait, 3, 4, &polls));
  CHECK_CL(clSetKernelArg(t->set, 0, sizeof t->flag, &t->flag));
  CHECK_CL(clSetKernelArg(t->set, 1, 4, &value));
  return 1;
}

/* After both ran: side by side on 2 harts or more, in turn on one. */
static void pair_check(cl_test_env_t *env, pair_t *t, cl_command_queue reader, const char *what) {
  uint32_t got[2] = {0, 0};
  CHECK_CL(clEnqueueReadBuffer(reader, t->out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  if (env->harts < 2)
    CHECK_MSG(got[0] == 0 && got[1] == t->polls, "one hart: the waiting kernel saw the word (%u polls)", got[1]);
  else
    CHECK_MSG(got[0] == 1, "%s: the kernel waiting for the word the next one writes polled out its bound (%u polls): "
              "they ran one after the other, not side by side", what, got[1]);
}

static void pair_close(pair_t *t) {
  clReleaseMemObject(t->flag);
  clReleaseMemObject(t->out);
  clReleaseCommandQueue(t->q);
  clReleaseKernel(t->wait);
  clReleaseKernel(t->set);
  clReleaseProgram(t->p);
}

/* The usual way: two independent kernels enqueued into an idle device,
 * then clFinish. The first starts alone; the second reaches the device
 * while it runs and starts beside it (docs/queues.md, "Late pairs"). */
static void enqueued_in_turn_run_side_by_side(cl_test_env_t *env) {
  pair_t t;
  if (!pair_open(env, "a late pair", 0x1a7e, 1u << 27, &t)) return;
  size_t one = 1;
  CHECK_CL(clEnqueueNDRangeKernel(t.q, t.wait, 1, NULL, &one, &one, 0, NULL, NULL));
  CHECK_CL(clEnqueueNDRangeKernel(t.q, t.set, 1, NULL, &one, &one, 0, NULL, NULL));
  CHECK_CL(clFinish(t.q));
  pair_check(env, &t, t.q, "enqueue, enqueue, finish");
  pair_close(&t);
}

/* Two kernels of one program on an out-of-order queue, independent of
 * each other, run side by side on the device's harts (docs/queues.md).
 * A kernel of every hart holds the device until both are submitted behind
 * it; all three wait for one user event, so that they reach the device
 * together. */
static void side_by_side(cl_test_env_t *env) {
  pair_t t;
  if (!pair_open(env, "kernels side by side", 0x600dcafe, 1u << 26, &t)) return;
  cl_int err;
  cl_kernel wait_hold = clCreateKernel(t.p, "mem_wait_word", &err);
  CHECK_CL(err);
  cl_command_queue other = clCreateCommandQueue(env->context, env->device, 0, &err);
  CHECK_CL(err);
  uint32_t zero[16] = {0}, held[2] = {0, 0};
  cl_mem hold = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, 64, zero, &err);
  cl_mem hold_out = clCreateBuffer(env->context, CL_MEM_COPY_HOST_PTR, 64, zero, &err);
  CHECK_CL(err);
  cl_uint go = 0x60, hold_polls = 1u << 30;
  CHECK_CL(clSetKernelArg(wait_hold, 0, sizeof hold, &hold));
  CHECK_CL(clSetKernelArg(wait_hold, 1, sizeof hold_out, &hold_out));
  CHECK_CL(clSetKernelArg(wait_hold, 2, 4, &go));
  CHECK_CL(clSetKernelArg(wait_hold, 3, 4, &hold_polls));
  cl_event gate = clCreateUserEvent(env->context, &err);
  CHECK_CL(err);
  size_t every = env->harts, one = 1;
  cl_event eh, ew, es;
  CHECK_CL(clEnqueueNDRangeKernel(t.q, wait_hold, 1, NULL, &every, &one, 1, &gate, &eh));
  CHECK_CL(clEnqueueNDRangeKernel(t.q, t.wait, 1, NULL, &one, &one, 1, &gate, &ew));
  CHECK_CL(clEnqueueNDRangeKernel(t.q, t.set, 1, NULL, &one, &one, 1, &gate, &es));
  CHECK_CL(clFlush(t.q));
  CHECK_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  double t0 = now_s();
  while (status_of(es) > CL_SUBMITTED && now_s() - t0 < 30) usleep(1000);
  CHECK_MSG(status_of(es) <= CL_SUBMITTED, "the second kernel was not submitted within 30 s");
  usleep(20 * 1000); /* (submitted just before its ring entry is written) */
  CHECK_CL(clEnqueueWriteBuffer(other, hold, CL_TRUE, 0, 4, &go, 0, NULL, NULL));
  CHECK_CL(clFinish(t.q));
  CHECK_CL(clEnqueueReadBuffer(other, hold_out, CL_TRUE, 0, sizeof held, held, 0, NULL, NULL));
  CHECK_MSG(held[0] == 1, "the holding kernel polled out its bound (%u polls) before the host let it go", held[1]);
  pair_check(env, &t, other, "released together");
  cl_event evs[] = {gate, eh, ew, es};
  for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) clReleaseEvent(evs[i]);
  clReleaseMemObject(hold);
  clReleaseMemObject(hold_out);
  clReleaseCommandQueue(other);
  clReleaseKernel(wait_hold);
  pair_close(&t);
}

static int context_destroyed;
static void CL_CALLBACK on_context_destroyed(cl_context c, void *user) {
  (void)c, (void)user;
  context_destroyed++;
}

static void errors_and_contexts(cl_test_env_t *env, cl_command_queue q) {
  cl_int err;
  CHECK_CL_ERR(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
  cl_event not_event = (cl_event)q;
  CHECK_CL_ERR(clWaitForEvents(1, &not_event), CL_INVALID_EVENT);
  CHECK(clCreateCommandQueue(env->context, env->device, (cl_command_queue_properties)1 << 40, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_VALUE);
  CHECK(clCreateCommandQueue(env->context, env->device, CL_QUEUE_ON_DEVICE, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_QUEUE_PROPERTIES);
  CHECK(clCreateCommandQueue(env->context, NULL, 0, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_DEVICE);
  CHECK_CL_ERR(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK_CL_ERR(clReleaseContext(NULL), CL_INVALID_CONTEXT);
  /* an event of another context in a wait list */
  cl_context other = clCreateContext(NULL, 1, &env->device, NULL, NULL, &err);
  CHECK_CL(err);
  cl_event foreign = clCreateUserEvent(other, &err);
  CHECK_CL_ERR(clEnqueueMarkerWithWaitList(q, 1, &foreign, NULL), CL_INVALID_CONTEXT);
  clSetUserEventStatus(foreign, CL_COMPLETE);
  clReleaseEvent(foreign);
  /* reference counts and the destructor callback */
  CHECK_CL(clSetContextDestructorCallback(other, on_context_destroyed, NULL));
  CHECK_CL(clRetainContext(other));
  cl_uint refs = 0;
  CHECK_CL(clGetContextInfo(other, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  CHECK_EQ_U64(refs, 2);
  CHECK_CL(clReleaseContext(other));
  CHECK_EQ_U64(context_destroyed, 0);
  CHECK_CL(clReleaseContext(other));
  CHECK_EQ_U64(context_destroyed, 1);
  /* context info and properties */
  cl_platform_id plat = NULL;
  clGetDeviceInfo(env->device, CL_DEVICE_PLATFORM, sizeof plat, &plat, NULL);
  cl_context_properties cp[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0}, back[3] = {0};
  cl_context c2 = clCreateContextFromType(cp, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
  CHECK_CL(err);
  size_t sz = 0;
  CHECK_CL(clGetContextInfo(c2, CL_CONTEXT_PROPERTIES, sizeof back, back, &sz));
  CHECK_EQ_U64(sz, sizeof cp);
  CHECK(back[0] == CL_CONTEXT_PLATFORM && back[1] == cp[1] && back[2] == 0);
  clReleaseContext(c2);
  cl_context_properties badp[] = {0x7777, 1, 0};
  CHECK(clCreateContext(badp, 1, &env->device, NULL, NULL, &err) == NULL);
  CHECK_CL_ERR(err, CL_INVALID_PROPERTY);
}

int main(int argc, char **argv) {
  cl_test_env_t env;
  if (cl_test_open(argc, argv, &env) != 0) return 1;
  cl_int err;
  cl_program p;
  cl_kernel k = vector_add(&env, &p);
  CHECK(k != NULL);
  cl_command_queue q = clCreateCommandQueueWithProperties(env.context, env.device, NULL, &err);
  CHECK_CL(err);
  if (k) profiling(&env, k);
  user_events(&env, q);
  if (k) ordering(&env, k);
  if (k) out_of_order(&env, k);
  side_by_side(&env);
  enqueued_in_turn_run_side_by_side(&env);
  errors_and_contexts(&env, q);
  CHECK_CL(clFinish(q));
  clReleaseCommandQueue(q);
  if (k) clReleaseKernel(k), clReleaseProgram(p);
  CHECK_CL(clReleaseContext(env.context));
  return check_result("icd.events");
}

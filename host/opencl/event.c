/* Events: an rvhal_event_t for a command, a timeline semaphore for a user
 * event (commands wait until it reaches 1; a negative status fails it, and
 * with it every command that waits on it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

static cl_event event_new(cl_context ctx, cl_command_queue q, cl_command_type type) {
  cl_event e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->dispatch = &rvcl_dispatch;
  e->magic = RVCL_MAGIC_EVENT;
  atomic_init(&e->refs, 1);
  e->context = ctx;
  e->queue = q;
  e->type = type;
  atomic_init(&e->user_status, CL_SUBMITTED);
  pthread_mutex_init(&e->lock, NULL);
  rvcl_context_hold(ctx);
  if (q) rvcl_queue_hold(q);
  return e;
}

cl_int rvcl_event_wrap(cl_command_queue q, cl_command_type type, rvhal_event_t *ev, cl_event *out) {
  cl_event e = event_new(q->context, q, type);
  if (!e) {
    rvhal_event_release(ev);
    return CL_OUT_OF_HOST_MEMORY;
  }
  e->ev = ev;
  *out = e;
  return CL_SUCCESS;
}

static void event_retain(cl_event e) { atomic_fetch_add(&e->refs, 1); }

static void event_release(cl_event e) {
  if (atomic_fetch_sub(&e->refs, 1) != 1) return;
  for (rvcl_event_callback_t *c = e->callbacks, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  if (e->ev) rvhal_event_release(e->ev);
  /* Commands with a user event in their wait lists may still look at its
   * semaphore: the context destroys it when no queue is left. */
  if (e->sem) rvcl_context_retire_semaphore(e->context, e->sem);
  cl_command_queue q = e->queue;
  cl_context ctx = e->context;
  pthread_mutex_destroy(&e->lock);
  e->magic = 0;
  free(e);
  if (q) rvcl_queue_unhold(q);
  rvcl_context_unhold(ctx);
}

/* CL_QUEUED .. CL_COMPLETE, or the negative status of a failed command. */
static cl_int event_status(cl_event e) {
  if (!e->ev) return atomic_load(&e->user_status);
  int st;
  if (rvhal_event_query(e->ev, &st)) return rvcl_exec_status(st);
  rvhal_event_times_t t;
  if (rvhal_event_times(e->ev, &t) == RVHAL_OK) {
    if (t.started_ns) return CL_RUNNING;
    if (t.submitted_ns) return CL_SUBMITTED;
  }
  return CL_QUEUED;
}

cl_int rvcl_wait_list(const char *func, cl_command_queue q, cl_uint n, const cl_event *list, rvhal_event_t **evs,
                      rvhal_semaphore_value_t *sems, rvhal_dependencies_t *deps) {
  memset(deps, 0, sizeof *deps);
  rvcl_queue_submit_held(q); /* every enqueue comes here first: in order after the held launch */
  if ((n == 0) != (list == NULL))
    return rvcl_fail(q->context, func, CL_INVALID_EVENT_WAIT_LIST, "num_events_in_wait_list=%u with event_wait_list=%p",
                     n, (void *)list);
  if (n > RVCL_MAX_WAIT)
    return rvcl_fail(q->context, func, CL_OUT_OF_RESOURCES, "num_events_in_wait_list=%u: at most %u events", n,
                     RVCL_MAX_WAIT);
  uint32_t ne = 0, ns = 0;
  for (cl_uint i = 0; i < n; i++) {
    cl_event e = list[i];
    if (!RVCL_VALID(e, RVCL_MAGIC_EVENT))
      return rvcl_fail(q->context, func, CL_INVALID_EVENT_WAIT_LIST, "event_wait_list[%u]=%p is not an event", i,
                       (void *)e);
    if (e->context != q->context)
      return rvcl_fail(q->context, func, CL_INVALID_CONTEXT, "event_wait_list[%u] belongs to another context", i);
    if (e->ev) {
      evs[ne++] = e->ev;
    } else {
      sems[ns].semaphore = e->sem;
      sems[ns++].value = 1;
    }
  }
  deps->wait_events = evs;
  deps->num_wait_events = ne;
  deps->wait_semaphores = sems;
  deps->num_wait_semaphores = ns;
  return CL_SUCCESS;
}

/* The spec's code for a command that failed, with rvhal's message. */
static cl_int failed(cl_context ctx, const char *func, int st, const char *msg) {
  return rvcl_fail(ctx, func, st == RVHAL_CANCELLED ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_OUT_OF_RESOURCES,
                   "%s (%s)", msg && *msg ? msg : rvhal_last_error(), rvhal_status_name(st));
}

cl_int rvcl_event_wait_rv(cl_context ctx, const char *func, rvhal_event_t *ev) {
  int st = rvhal_event_wait(ev, RVHAL_WAIT_FOREVER);
  return st == RVHAL_OK ? CL_SUCCESS : failed(ctx, func, st, rvhal_event_message(ev));
}

cl_int rvcl_enqueue_done(cl_command_queue q, const char *func, cl_command_type type, int status, rvhal_event_t *ev,
                         cl_bool blocking, cl_event *out_event) {
  if (status != RVHAL_OK) {
    cl_int code = status == RVHAL_NO_MEMORY ? CL_OUT_OF_RESOURCES
                  : status == RVHAL_INVALID_ARGUMENT || status == RVHAL_OUT_OF_RANGE ? CL_INVALID_VALUE
                                                                                     : CL_OUT_OF_RESOURCES;
    return rvcl_fail_rvhal(q->context, func, code, status);
  }
  cl_int err = CL_SUCCESS;
  if (blocking && ev) err = rvcl_event_wait_rv(q->context, func, ev);
  if (out_event && ev) {
    cl_int e2 = rvcl_event_wrap(q, type, ev, out_event);
    if (err == CL_SUCCESS) err = e2;
  } else if (ev) {
    rvhal_event_release(ev);
  }
  return err;
}

/* ---- callbacks ------------------------------------------------------------ */

static void run_callbacks(cl_event e, cl_int status) {
  pthread_mutex_lock(&e->lock);
  rvcl_event_callback_t *list = e->callbacks;
  e->callbacks = NULL;
  e->callbacks_armed = 0;
  pthread_mutex_unlock(&e->lock);
  /* Registration order (the list was pushed at its head). */
  rvcl_event_callback_t *rev = NULL;
  while (list) {
    rvcl_event_callback_t *next = list->next;
    list->next = rev;
    rev = list;
    list = next;
  }
  for (rvcl_event_callback_t *c = rev, *next; c; c = next) {
    next = c->next;
    c->fn(e, status, c->user);
    free(c);
  }
}

/* On the command's queue thread, after the command (it waits on its event). */
static void fire_callbacks(void *user, int rv_status) {
  (void)rv_status; /* the command's own status decides, not the queue's */
  cl_event e = user;
  run_callbacks(e, event_status(e));
  event_release(e);
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event e, cl_int on, void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
                                                   void *user) {
  static const char *func = "clSetEventCallback";
  if (!RVCL_VALID(e, RVCL_MAGIC_EVENT)) return rvcl_fail(NULL, func, CL_INVALID_EVENT, "%p is not an event", (void *)e);
  if (!fn || (on != CL_SUBMITTED && on != CL_RUNNING && on != CL_COMPLETE))
    return rvcl_fail(e->context, func, CL_INVALID_VALUE, "pfn_notify=%p command_exec_callback_type=%d", (void *)fn, on);
  rvcl_event_callback_t *c = malloc(sizeof *c);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->fn = fn;
  c->user = user;
  c->on = on;
  pthread_mutex_lock(&e->lock);
  cl_int st = event_status(e);
  int done = st == CL_COMPLETE || st < 0;
  int arm = 0;
  if (!done) {
    c->next = e->callbacks;
    e->callbacks = c;
    if (e->ev && !e->callbacks_armed) arm = e->callbacks_armed = 1;
  }
  pthread_mutex_unlock(&e->lock);
  if (done) {
    /* Every stage has been reached: call at once with the final status. */
    fn(e, st, user);
    free(c);
    return CL_SUCCESS;
  }
  if (arm) {
    /* Completion is reported by a host callback on the command's own queue
     * that waits for the command's event. */
    event_retain(e);
    rvhal_dependencies_t deps = {0};
    rvhal_event_t *w = e->ev;
    deps.wait_events = &w;
    deps.num_wait_events = 1;
    int rc = rvhal_enqueue_callback(e->queue->q, &deps, fire_callbacks, e, NULL);
    if (rc != RVHAL_OK) {
      event_release(e);
      return rvcl_fail_rvhal(e->context, func, CL_OUT_OF_RESOURCES, rc);
    }
  }
  return CL_SUCCESS;
}

/* ---- user events ---------------------------------------------------------- */

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context ctx, cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(ctx, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, "clCreateUserEvent", CL_INVALID_CONTEXT, "%p is not a context", (void *)ctx);
    return NULL;
  }
  cl_event e = event_new(ctx, NULL, CL_COMMAND_USER);
  if (!e || rvhal_semaphore_create(0, &e->sem) != RVHAL_OK) {
    if (e) event_release(e);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  *err = CL_SUCCESS;
  return e;
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event e, cl_int status) {
  static const char *func = "clSetUserEventStatus";
  if (!RVCL_VALID(e, RVCL_MAGIC_EVENT) || e->ev)
    return rvcl_fail(NULL, func, CL_INVALID_EVENT, "%p is not a user event", (void *)e);
  if (status != CL_COMPLETE && status >= 0)
    return rvcl_fail(e->context, func, CL_INVALID_VALUE, "execution_status %d is neither CL_COMPLETE nor negative",
                     status);
  int expected = CL_SUBMITTED;
  if (!atomic_compare_exchange_strong(&e->user_status, &expected, status))
    return rvcl_fail(e->context, func, CL_INVALID_OPERATION, "the user event's status was already set to %d", expected);
  if (status == CL_COMPLETE) {
    rvhal_semaphore_signal(e->sem, 1);
  } else {
    char msg[96];
    snprintf(msg, sizeof msg, "user event set to execution status %d", status);
    rvhal_semaphore_fail(e->sem, RVHAL_CANCELLED, msg);
  }
  run_callbacks(e, status);
  return CL_SUCCESS;
}

/* ---- waiting, info, reference counts ------------------------------------------ */

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint n, const cl_event *list) {
  static const char *func = "clWaitForEvents";
  if (n == 0 || !list) return rvcl_fail(NULL, func, CL_INVALID_VALUE, "num_events=%u event_list=%p", n, (void *)list);
  for (cl_uint i = 0; i < n; i++) {
    if (!RVCL_VALID(list[i], RVCL_MAGIC_EVENT))
      return rvcl_fail(NULL, func, CL_INVALID_EVENT, "event_list[%u]=%p is not an event", i, (void *)list[i]);
    if (list[i]->context != list[0]->context)
      return rvcl_fail(list[0]->context, func, CL_INVALID_CONTEXT, "event_list[%u] belongs to another context", i);
  }
  cl_int err = CL_SUCCESS;
  for (cl_uint i = 0; i < n; i++) {
    cl_event e = list[i];
    int st = e->ev ? rvhal_event_wait(e->ev, RVHAL_WAIT_FOREVER) : rvhal_semaphore_wait(e->sem, 1, RVHAL_WAIT_FOREVER);
    if (st != RVHAL_OK && err == CL_SUCCESS)
      err = rvcl_fail(e->context, func, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "event_list[%u] failed: %s", i,
                      e->ev ? rvhal_event_message(e->ev) : "user event set to an error status");
  }
  return err;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event e, cl_event_info name, size_t size, void *value,
                                               size_t *size_ret) {
  if (!RVCL_VALID(e, RVCL_MAGIC_EVENT)) return rvcl_fail(NULL, "clGetEventInfo", CL_INVALID_EVENT, "%p", (void *)e);
  switch (name) {
  case CL_EVENT_COMMAND_QUEUE: return rvcl_info(&e->queue, sizeof e->queue, size, value, size_ret);
  case CL_EVENT_CONTEXT: return rvcl_info(&e->context, sizeof e->context, size, value, size_ret);
  case CL_EVENT_COMMAND_TYPE: return rvcl_info(&e->type, sizeof e->type, size, value, size_ret);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    cl_int st = event_status(e);
    return rvcl_info(&st, sizeof st, size, value, size_ret);
  }
  case CL_EVENT_REFERENCE_COUNT: {
    cl_uint r = atomic_load(&e->refs);
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  }
  return rvcl_fail(e->context, "clGetEventInfo", CL_INVALID_VALUE, "param_name 0x%x is not an event query",
                   (unsigned)name);
}

/* Host-clock times of the command's stages; a kernel's START..END span is
 * its duration on the device's own clock (first hart start to last hart
 * end), placed at the host time the device started it. */
CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event e, cl_profiling_info name, size_t size, void *value,
                                                        size_t *size_ret) {
  static const char *func = "clGetEventProfilingInfo";
  if (!RVCL_VALID(e, RVCL_MAGIC_EVENT)) return rvcl_fail(NULL, func, CL_INVALID_EVENT, "%p", (void *)e);
  if (!e->ev) return rvcl_fail(e->context, func, CL_PROFILING_INFO_NOT_AVAILABLE, "a user event has no profile");
  if (!(e->queue->props & CL_QUEUE_PROFILING_ENABLE))
    return rvcl_fail(e->context, func, CL_PROFILING_INFO_NOT_AVAILABLE,
                     "the event's queue was made without CL_QUEUE_PROFILING_ENABLE");
  if (event_status(e) != CL_COMPLETE)
    return rvcl_fail(e->context, func, CL_PROFILING_INFO_NOT_AVAILABLE, "the command has not completed (status %d)",
                     event_status(e));
  rvhal_event_times_t t;
  if (rvhal_event_times(e->ev, &t) != RVHAL_OK) return rvcl_fail_rvhal(e->context, func, CL_OUT_OF_RESOURCES, -1);
  cl_ulong queued = t.queued_ns, submit = t.submitted_ns ? t.submitted_ns : queued;
  cl_ulong start = t.started_ns ? t.started_ns : submit;
  if (start < submit) start = submit;
  cl_ulong end = t.ended_ns > start ? t.ended_ns : start;
  if (e->type == CL_COMMAND_NDRANGE_KERNEL || e->type == CL_COMMAND_TASK)
    if (t.device_end_ns > t.device_start_ns) end = start + (t.device_end_ns - t.device_start_ns);
  cl_ulong complete = t.ended_ns > end ? t.ended_ns : end, v;
  switch (name) {
  case CL_PROFILING_COMMAND_QUEUED: v = queued; break;
  case CL_PROFILING_COMMAND_SUBMIT: v = submit; break;
  case CL_PROFILING_COMMAND_START: v = start; break;
  case CL_PROFILING_COMMAND_END: v = end; break;
  case CL_PROFILING_COMMAND_COMPLETE: v = complete; break;
  default:
    return rvcl_fail(e->context, func, CL_INVALID_VALUE, "param_name 0x%x is not a profiling query", (unsigned)name);
  }
  return rvcl_info(&v, sizeof v, size, value, size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event e) {
  if (!RVCL_VALID(e, RVCL_MAGIC_EVENT)) return rvcl_fail(NULL, "clRetainEvent", CL_INVALID_EVENT, "%p", (void *)e);
  event_retain(e);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event e) {
  if (!RVCL_VALID(e, RVCL_MAGIC_EVENT)) return rvcl_fail(NULL, "clReleaseEvent", CL_INVALID_EVENT, "%p", (void *)e);
  event_release(e);
  return CL_SUCCESS;
}

/* The held launch of a queue (icd.h, rvcl_held_launch_t): the last kernel
 * launch with no wait list and no event, kept back until the queue is
 * flushed. clFinish runs it on its own thread with rvhal_launch_exec,
 * after the queue's earlier commands, so the common "enqueue a kernel,
 * clFinish" costs what the C API's blocking launch does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* Empties h; the kernel and request it held are the caller's to release
 * after unlocking (the kernel's release may free the program, which
 * visits every queue of the context, this one too). */
static rvcl_held_launch_t clear(rvcl_held_launch_t *h) {
  rvcl_held_launch_t was = *h;
  memset(h, 0, sizeof *h);
  return was;
}

static void release(rvcl_held_launch_t was) {
  rvhal_launch_request_release(was.launch);
  if (was.kernel) clReleaseKernel(was.kernel);
}

void rvcl_queue_hold_launch(cl_command_queue q, cl_kernel k, const rvhal_launch_request_t *r) {
  clRetainKernel(k);
  rvhal_launch_request_retain(r);
  pthread_mutex_lock(&q->held_lock);
  while (q->held.kernel) { /* not expected: every enqueue submits the held one first */
    pthread_mutex_unlock(&q->held_lock);
    rvcl_queue_submit_held(q);
    pthread_mutex_lock(&q->held_lock);
  }
  q->held = (rvcl_held_launch_t){.kernel = k, .launch = r};
  pthread_mutex_unlock(&q->held_lock);
}

/* A held launch's failure, told as a queue command's is (errors.c). */
static void tell_held_failure(cl_kernel k, int st) {
  char failure[1200];
  snprintf(failure, sizeof failure, "kernel %s failed: %s", k->name, rvhal_last_error());
  rvcl_tell_failure(NULL, st, failure);
}

void rvcl_queue_submit_held(cl_command_queue q) {
  pthread_mutex_lock(&q->held_lock);
  rvcl_held_launch_t *h = &q->held;
  if (h->kernel) {
    atomic_store(&q->launched, 1);
    int st = rvhal_enqueue_launch(q->q, NULL, h->launch, NULL);
    if (st != RVHAL_OK) {
      if (!q->deferred_status) q->deferred_status = st;
      tell_held_failure(h->kernel, st);
      rvcl_fail_rvhal(q->context, "clEnqueueNDRangeKernel (submitted at the queue's flush)", CL_OUT_OF_RESOURCES, st);
    }
  }
  rvcl_held_launch_t was = clear(h);
  pthread_mutex_unlock(&q->held_lock);
  release(was);
}

/* clFinish: the queue's earlier commands, then the held launch here. The
 * first failure is reported (with rvhal's message) and returned, unless it
 * is a command cancelled because an event it waited on failed (a user
 * event set to an error, a command of another queue): that command has
 * ended, its event holds the error, and nothing failed on this queue, so
 * clFinish succeeds as the specification's codes and the CTS want. */
cl_int rvcl_queue_finish_held(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  /* Out of order, with launches already sent since the last clFinish (the
   * usual "enqueue, enqueue, clFinish"): the held one goes to the queue
   * too, so that it can start beside them (docs/queues.md, "Late pairs")
   * rather than after them. */
  if (atomic_exchange(&q->launched, 0) && (q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) &&
      q->context->num_devices == 1) {
    rvcl_queue_submit_held(q);
    atomic_store(&q->launched, 0); /* (submitting set it) */
  }
  int st = rvhal_queue_finish(q->q, RVHAL_WAIT_FOREVER);
  if (st != RVHAL_OK && st != RVHAL_CANCELLED) err = rvcl_fail_rvhal(q->context, "clFinish", CL_OUT_OF_RESOURCES, st);
  pthread_mutex_lock(&q->held_lock);
  rvcl_held_launch_t *h = &q->held;
  if (h->kernel) {
    rvhal_device_t *rv = rvcl_device_rv(q->device, &st);
    if (rv) st = rvhal_launch_exec(rv, h->launch);
    if (st != RVHAL_OK) tell_held_failure(h->kernel, st);
    if (st != RVHAL_OK && err == CL_SUCCESS)
      err = rvcl_fail_rvhal(q->context, "clFinish (running the last clEnqueueNDRangeKernel)", CL_OUT_OF_RESOURCES, st);
  }
  rvcl_held_launch_t was = clear(h);
  if (err == CL_SUCCESS && q->deferred_status) err = CL_OUT_OF_RESOURCES; /* reported when it failed */
  q->deferred_status = 0;
  pthread_mutex_unlock(&q->held_lock);
  release(was);
  return err;
}

void rvcl_queue_drop_held(cl_command_queue q) {
  pthread_mutex_lock(&q->held_lock);
  rvcl_held_launch_t was = clear(&q->held);
  pthread_mutex_unlock(&q->held_lock);
  release(was);
}

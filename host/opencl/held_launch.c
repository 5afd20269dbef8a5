/* The held launch of a queue (icd.h, rvcl_held_launch_t): the last kernel
 * launch with no wait list and no event, kept back until the queue is
 * flushed. clFinish runs it on its own thread with rvhal_kernel_exec_ex,
 * after the queue's earlier commands, so the common "enqueue a kernel,
 * clFinish" costs what the C API's blocking launch does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* Empties h and returns the kernel it held, for the caller to release
 * after unlocking (the release may free the program, which visits every
 * queue of the context, this one too). */
static cl_kernel clear(rvcl_held_launch_t *h) {
  cl_kernel k = h->valid ? h->kernel : NULL;
  h->valid = 0;
  h->kernel = NULL;
  return k;
}

static void release(cl_kernel k) {
  if (k) clReleaseKernel(k);
}

int rvcl_queue_hold_launch(cl_command_queue q, cl_kernel k, const hal_ndrange_t *nd, uint32_t dim,
                           const hal_arg_t *args, uint32_t num_args) {
  if (num_args > RVHAL_META_MAX_ARGS) return 0;
  size_t bytes = 0;
  for (uint32_t i = 0; i < num_args; i++)
    if (args[i].kind == hal_arg_value) bytes += (size_t)args[i].size;
  pthread_mutex_lock(&q->held_lock);
  retry:;
  rvcl_held_launch_t *h = &q->held;
  if (h->valid) { /* not expected: every enqueue submits the held one first */
    pthread_mutex_unlock(&q->held_lock);
    rvcl_queue_submit_held(q);
    pthread_mutex_lock(&q->held_lock);
    goto retry;
  }
  if (bytes > h->values_cap) {
    unsigned char *v = realloc(h->values, bytes);
    if (!v) {
      pthread_mutex_unlock(&q->held_lock);
      return 0;
    }
    h->values = v;
    h->values_cap = bytes;
  }
  size_t at = 0;
  for (uint32_t i = 0; i < num_args; i++) {
    h->args[i] = args[i];
    if (args[i].kind == hal_arg_value) {
      memcpy(h->values + at, args[i].pod_data, (size_t)args[i].size);
      h->args[i].pod_data = h->values + at;
      at += (size_t)args[i].size;
    }
  }
  h->nd = *nd;
  h->dim = dim;
  h->num_args = num_args;
  h->kernel = k;
  clRetainKernel(k);
  h->valid = 1;
  pthread_mutex_unlock(&q->held_lock);
  return 1;
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
  if (h->valid) {
    cl_kernel k = h->kernel;
    int st = rvhal_enqueue_kernel(q->q, NULL, k->program->hp, k->hk, &h->nd, h->args, h->num_args, h->dim,
                                  &rvcl_launch_options, NULL);
    if (st != RVHAL_OK) {
      if (!q->deferred_status) q->deferred_status = st;
      tell_held_failure(k, st);
      rvcl_fail_rvhal(q->context, "clEnqueueNDRangeKernel (submitted at the queue's flush)", CL_OUT_OF_RESOURCES, st);
    }
  }
  cl_kernel done = clear(h);
  pthread_mutex_unlock(&q->held_lock);
  release(done);
}

/* clFinish: the queue's earlier commands, then the held launch here. The
 * first failure is reported (with rvhal's message) and returned. */
cl_int rvcl_queue_finish_held(cl_command_queue q) {
  cl_int err = CL_SUCCESS;
  int st = rvhal_queue_finish(q->q, RVHAL_WAIT_FOREVER);
  if (st != RVHAL_OK) err = rvcl_fail_rvhal(q->context, "clFinish", CL_OUT_OF_RESOURCES, st);
  pthread_mutex_lock(&q->held_lock);
  rvcl_held_launch_t *h = &q->held;
  if (h->valid) {
    cl_kernel k = h->kernel;
    rvhal_device_t *rv = rvcl_device_rv(q->device, &st);
    if (rv)
      st = rvhal_kernel_exec_ex(rv, k->program->hp, k->hk, &h->nd, h->args, h->num_args, h->dim, &rvcl_launch_options);
    if (st != RVHAL_OK) tell_held_failure(k, st);
    if (st != RVHAL_OK && err == CL_SUCCESS)
      err = rvcl_fail_rvhal(q->context, "clFinish (running the last clEnqueueNDRangeKernel)", CL_OUT_OF_RESOURCES, st);
  }
  cl_kernel done = clear(h);
  if (err == CL_SUCCESS && q->deferred_status) err = CL_OUT_OF_RESOURCES; /* reported when it failed */
  q->deferred_status = 0;
  pthread_mutex_unlock(&q->held_lock);
  release(done);
  return err;
}

void rvcl_queue_drop_held(cl_command_queue q) {
  pthread_mutex_lock(&q->held_lock);
  cl_kernel done = clear(&q->held);
  free(q->held.values);
  q->held.values = NULL;
  pthread_mutex_unlock(&q->held_lock);
  release(done);
}

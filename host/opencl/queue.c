/* Command queues: each an rvhal_queue_t of the context's device. An
 * out-of-order queue is an out-of-order rvhal queue (RVHAL_QUEUE_OUT_OF_ORDER)
 * in a context of one device; in a context of several it runs in order, as
 * the specification allows: a buffer's moves between devices
 * (mem_coherence.c) keep the order commands were enqueued in. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

static cl_command_queue make_queue(const char *fn, cl_context c, cl_device_id d, cl_command_queue_properties props,
                                   const cl_queue_properties *list, size_t list_n, cl_int *err) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
    return NULL;
  }
  if (!RVCL_VALID(d, RVCL_MAGIC_DEVICE) || !rvcl_context_has_device(c, d)) {
    *err = rvcl_fail(c, fn, CL_INVALID_DEVICE, "device %p is not the context's device", (void *)d);
    return NULL;
  }
  const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                            CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  if (props & ~known) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "queue properties 0x%llx", (unsigned long long)props);
    return NULL;
  }
  if (props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT)) {
    *err = rvcl_fail(c, fn, CL_INVALID_QUEUE_PROPERTIES, "on-device queues are not supported (properties 0x%llx)",
                     (unsigned long long)props);
    return NULL;
  }
  int st;
  rvhal_device_t *rv = rvcl_device_rv(d, &st);
  if (!rv) {
    *err = rvcl_fail_rvhal(c, fn, CL_OUT_OF_RESOURCES, st);
    return NULL;
  }
  cl_command_queue q = calloc(1, sizeof *q);
  if (!q) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  const int out_of_order = (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) && c->num_devices == 1;
  st = rvhal_queue_create_with_flags(rv, out_of_order ? RVHAL_QUEUE_OUT_OF_ORDER : 0, &q->q);
  if (st != RVHAL_OK) {
    free(q);
    *err = rvcl_fail_rvhal(c, fn, CL_OUT_OF_RESOURCES, st);
    return NULL;
  }
  rvhal_queue_set_failure_fn(q->q, rvcl_tell_failure, NULL);
  q->dispatch = &rvcl_dispatch;
  q->magic = RVCL_MAGIC_QUEUE;
  atomic_init(&q->refs, 1);
  atomic_init(&q->life, 1);
  q->context = c;
  q->device = d;
  q->props = props;
  if (list_n) memcpy(q->prop_list, list, list_n * sizeof *list);
  q->num_prop_list = list_n;
  pthread_mutex_init(&q->held_lock, NULL);
  rvcl_context_hold(c);
  pthread_mutex_lock(&c->lock);
  q->next = c->queues;
  c->queues = q;
  pthread_mutex_unlock(&c->lock);
  *err = CL_SUCCESS;
  return q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context c, cl_device_id d,
                                                               cl_command_queue_properties props, cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  return make_queue("clCreateCommandQueue", c, d, props, NULL, 0, err);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context c, cl_device_id d,
                                                                             const cl_queue_properties *list,
                                                                             cl_int *errcode_ret) {
  static const char *fn = "clCreateCommandQueueWithProperties";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  cl_command_queue_properties props = 0;
  size_t n = 0;
  if (list) {
    for (; list[n]; n += 2) {
      if (n + 3 > 8) {
        *err = rvcl_fail(NULL, fn, CL_INVALID_VALUE, "too many queue properties");
        return NULL;
      }
      if (list[n] == CL_QUEUE_PROPERTIES) {
        props = list[n + 1];
      } else if (list[n] == CL_QUEUE_SIZE) {
        *err = rvcl_fail(NULL, fn, CL_INVALID_QUEUE_PROPERTIES, "CL_QUEUE_SIZE is for on-device queues");
        return NULL;
      } else {
        *err = rvcl_fail(NULL, fn, CL_INVALID_VALUE, "queue property 0x%lx", (unsigned long)list[n]);
        return NULL;
      }
    }
    n++;
  }
  return make_queue(fn, c, d, props, list, n, err);
}

void rvcl_queue_hold(cl_command_queue q) { atomic_fetch_add(&q->life, 1); }

void rvcl_queue_unhold(cl_command_queue q) {
  if (atomic_fetch_sub(&q->life, 1) != 1) return;
  cl_context c = q->context;
  pthread_mutex_lock(&c->lock);
  for (cl_command_queue *p = &c->queues; *p; p = &(*p)->next)
    if (*p == q) {
      *p = q->next;
      break;
    }
  pthread_mutex_unlock(&c->lock);
  rvcl_queue_submit_held(q);
  rvhal_queue_destroy(q->q); /* runs what is enqueued to its end */
  rvcl_queue_drop_held(q);
  pthread_mutex_destroy(&q->held_lock);
  q->magic = 0;
  free(q);
  rvcl_context_unhold(c);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) {
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, "clRetainCommandQueue", CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  atomic_fetch_add(&q->refs, 1);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, "clReleaseCommandQueue", CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  if (atomic_fetch_sub(&q->refs, 1) == 1) rvcl_queue_unhold(q);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info name, size_t size,
                                                      void *value, size_t *size_ret) {
  static const char *fn = "clGetCommandQueueInfo";
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  switch (name) {
  case CL_QUEUE_CONTEXT: return rvcl_info(&q->context, sizeof q->context, size, value, size_ret);
  case CL_QUEUE_DEVICE: return rvcl_info(&q->device, sizeof q->device, size, value, size_ret);
  case CL_QUEUE_REFERENCE_COUNT: {
    cl_uint r = atomic_load(&q->refs);
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  case CL_QUEUE_PROPERTIES: return rvcl_info(&q->props, sizeof q->props, size, value, size_ret);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return rvcl_info(q->prop_list, q->num_prop_list * sizeof q->prop_list[0], size, value, size_ret);
  case CL_QUEUE_DEVICE_DEFAULT: {
    cl_command_queue none = NULL;
    return rvcl_info(&none, sizeof none, size, value, size_ret);
  }
  case CL_QUEUE_SIZE:
    return rvcl_fail(q->context, fn, CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE: not an on-device queue");
  }
  return rvcl_fail(q->context, fn, CL_INVALID_VALUE, "param_name 0x%x is not a queue query", (unsigned)name);
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue q, cl_command_queue_properties props,
                                                          cl_bool enable, cl_command_queue_properties *old) {
  (void)props, (void)enable, (void)old;
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE))
    return rvcl_fail(NULL, "clSetCommandQueueProperty", CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  return rvcl_fail(q->context, "clSetCommandQueueProperty", CL_INVALID_OPERATION,
                   "queue properties are fixed at creation (OpenCL 1.1 and later)");
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue q) {
  /* rvhal queues start each command as soon as its turn comes: only a held
   * launch waits for a flush. */
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, "clFlush", CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  rvcl_queue_submit_held(q);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue q) {
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, "clFinish", CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  /* A failed command has already failed its event; clFinish reports it too
   * (not a command cancelled for a failed event it waited on). */
  return rvcl_queue_finish_held(q);
}

/* Contexts. A context holds one or more devices; each rvhal device has its
 * own memory, so a buffer of a context of several keeps a copy on each and
 * moves its contents to the device that uses it (mem_coherence.c,
 * docs/opencl.md). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

typedef void(CL_CALLBACK *notify_fn)(const char *, const void *, size_t, void *);

/* Reports a refusal during context creation: the return code, the
 * message, and pfn_notify (the spec has it report errors during creation). */
static cl_int creation_fail(const char *fn, cl_int code, notify_fn notify, void *user, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static cl_int creation_fail(const char *fn, cl_int code, notify_fn notify, void *user, const char *fmt, ...) {
  char msg[512], line[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  rvcl_fail(NULL, fn, code, "%s", msg);
  snprintf(line, sizeof line, "%s: %s: %s", fn, rvcl_error_name(code), msg);
  if (notify) notify(line, NULL, 0, user);
  return code;
}

static cl_int parse_props(const char *fn, const cl_context_properties *props, cl_context c, notify_fn notify,
                          void *user) {
  size_t n = 0;
  int seen_platform = 0, seen_sync = 0;
  if (props) {
    for (; props[n]; n += 2) {
      if (n + 3 > sizeof c->props / sizeof c->props[0])
        return creation_fail(fn, CL_INVALID_PROPERTY, notify, user, "too many context properties");
      if (props[n] == CL_CONTEXT_PLATFORM) {
        if (seen_platform++)
          return creation_fail(fn, CL_INVALID_PROPERTY, notify, user, "CL_CONTEXT_PLATFORM given twice");
        if ((cl_platform_id)props[n + 1] != &rvcl_platform)
          return creation_fail(fn, CL_INVALID_PLATFORM, notify, user,
                               "CL_CONTEXT_PLATFORM %p is not the rvhal platform", (void *)props[n + 1]);
      } else if (props[n] == CL_CONTEXT_INTEROP_USER_SYNC) {
        if (seen_sync++)
          return creation_fail(fn, CL_INVALID_PROPERTY, notify, user, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
        if (props[n + 1] != CL_TRUE && props[n + 1] != CL_FALSE)
          return creation_fail(fn, CL_INVALID_PROPERTY, notify, user,
                               "CL_CONTEXT_INTEROP_USER_SYNC is %ld, not CL_TRUE or CL_FALSE", (long)props[n + 1]);
      } else {
        return creation_fail(fn, CL_INVALID_PROPERTY, notify, user, "context property 0x%lx is not supported",
                             (unsigned long)props[n]);
      }
      c->props[n] = props[n];
      c->props[n + 1] = props[n + 1];
    }
    c->props[n] = 0;
    n++;
  }
  c->num_props = n;
  return CL_SUCCESS;
}

/* A context of devs[0..n) (distinct rvhal devices). */
static cl_context make_context(const char *fn, const cl_context_properties *props, const cl_device_id *devs,
                               cl_uint n, notify_fn notify, void *user, cl_int *err) {
  cl_context c = calloc(1, sizeof *c);
  if (c && !(c->devices = calloc(n, sizeof *c->devices))) {
    free(c);
    c = NULL;
  }
  if (!c) {
    *err = rvcl_fail(NULL, fn, CL_OUT_OF_HOST_MEMORY, "context");
    return NULL;
  }
  *err = parse_props(fn, props, c, notify, user);
  if (*err != CL_SUCCESS) {
    free(c->devices);
    free(c);
    return NULL;
  }
  c->dispatch = &rvcl_dispatch;
  c->magic = RVCL_MAGIC_CONTEXT;
  atomic_init(&c->refs, 1);
  atomic_init(&c->life, 1);
  memcpy(c->devices, devs, n * sizeof *devs);
  c->num_devices = n;
  c->notify = notify;
  c->notify_user = user;
  /* Recursive: releasing a held launch's kernel under it (a buffer's
   * release) may free a program, which takes it again. */
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&c->lock, &a);
  pthread_mutexattr_destroy(&a);
  for (cl_uint i = 0; i < n; i++) rvcl_device_use(devs[i]);
  return c;
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties *props, cl_uint num_devices,
                                                    const cl_device_id *devices,
                                                    void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
                                                    void *user, cl_int *errcode_ret) {
  static const char *fn = "clCreateContext";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!devices || num_devices == 0) {
    *err = creation_fail(fn, CL_INVALID_VALUE, notify, user, "devices=%p num_devices=%u", (void *)devices, num_devices);
    return NULL;
  }
  if (!notify && user) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_VALUE, "user_data without pfn_notify");
    return NULL;
  }
  cl_device_id uniq[RVCL_MAX_CONTEXT_DEVICES];
  cl_uint n = 0;
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!RVCL_VALID(devices[i], RVCL_MAGIC_DEVICE)) {
      *err = creation_fail(fn, CL_INVALID_DEVICE, notify, user, "devices[%u]=%p is not an rvhal device", i,
                           (void *)devices[i]);
      return NULL;
    }
    cl_uint j = 0;
    while (j < n && uniq[j] != devices[i]) j++;
    if (j < n) continue; /* duplicates are ignored (the spec) */
    if (n == RVCL_MAX_CONTEXT_DEVICES) {
      *err = creation_fail(fn, CL_INVALID_DEVICE, notify, user, "more than %u distinct devices", RVCL_MAX_CONTEXT_DEVICES);
      return NULL;
    }
    uniq[n++] = devices[i];
  }
  return make_context(fn, props, uniq, n, notify, user, err);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *props, cl_device_type type,
                                                            void(CL_CALLBACK *notify)(const char *, const void *,
                                                                                      size_t, void *),
                                                            void *user, cl_int *errcode_ret) {
  static const char *fn = "clCreateContextFromType";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!notify && user) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_VALUE, "user_data without pfn_notify");
    return NULL;
  }
  /* The properties first: a foreign platform is CL_INVALID_PLATFORM whatever the type. */
  struct _cl_context probe;
  if ((*err = parse_props(fn, props, &probe, notify, user)) != CL_SUCCESS) return NULL;
  cl_device_id devs[RVCL_MAX_CONTEXT_DEVICES];
  cl_uint n = 0;
  *err = clGetDeviceIDs(&rvcl_platform, type, RVCL_MAX_CONTEXT_DEVICES, devs, &n);
  if (*err == CL_DEVICE_NOT_FOUND) {
    *err = creation_fail(fn, CL_DEVICE_NOT_FOUND, notify, user,
                         "no rvhal device is of device_type 0x%llx (every rvhal device is CL_DEVICE_TYPE_ACCELERATOR)",
                         (unsigned long long)type);
    return NULL;
  }
  if (*err != CL_SUCCESS) {
    *err = creation_fail(fn, *err, notify, user, "device_type 0x%llx is not a device type", (unsigned long long)type);
    return NULL;
  }
  if (n > RVCL_MAX_CONTEXT_DEVICES) n = RVCL_MAX_CONTEXT_DEVICES;
  return make_context(fn, props, devs, n, notify, user, err);
}

void rvcl_context_hold(cl_context c) { atomic_fetch_add(&c->life, 1); }

int rvcl_context_slot(cl_context c, cl_device_id d) {
  for (cl_uint i = 0; i < c->num_devices; i++)
    if (c->devices[i] == d) return (int)i;
  return -1;
}

int rvcl_context_has_device(cl_context c, cl_device_id d) { return rvcl_context_slot(c, d) >= 0; }

void rvcl_context_unhold(cl_context c) {
  if (atomic_fetch_sub(&c->life, 1) != 1) return;
  /* Destructor callbacks in reverse order of registration (they were pushed). */
  for (rvcl_destructor_t *d = c->destructors, *next; d; d = next) {
    next = d->next;
    ((void(CL_CALLBACK *)(cl_context, void *))d->fn)(c, d->user);
    free(d);
  }
  for (size_t i = 0; i < c->num_retired; i++) rvhal_semaphore_destroy(c->retired[i]);
  free(c->retired);
  for (cl_uint i = 0; i < c->num_devices; i++) rvcl_device_unuse(c->devices[i]);
  free(c->devices);
  pthread_mutex_destroy(&c->lock);
  c->magic = 0;
  free(c);
}

void rvcl_context_retire_semaphore(cl_context c, rvhal_semaphore_t *s) {
  pthread_mutex_lock(&c->lock);
  if (c->num_retired == c->cap_retired) {
    size_t cap = c->cap_retired ? c->cap_retired * 2 : 8;
    rvhal_semaphore_t **r = realloc(c->retired, cap * sizeof *r);
    if (r) c->retired = r, c->cap_retired = cap;
  }
  if (c->num_retired < c->cap_retired) c->retired[c->num_retired++] = s; /* else kept for good */
  pthread_mutex_unlock(&c->lock);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context c) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) return rvcl_fail(NULL, "clRetainContext", CL_INVALID_CONTEXT, "%p", (void *)c);
  atomic_fetch_add(&c->refs, 1);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context c) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) return rvcl_fail(NULL, "clReleaseContext", CL_INVALID_CONTEXT, "%p", (void *)c);
  if (atomic_fetch_sub(&c->refs, 1) == 1) rvcl_context_unhold(c);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info name, size_t size, void *value,
                                                 size_t *size_ret) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) return rvcl_fail(NULL, "clGetContextInfo", CL_INVALID_CONTEXT, "%p", (void *)c);
  switch (name) {
  case CL_CONTEXT_REFERENCE_COUNT: {
    cl_uint r = atomic_load(&c->refs);
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  case CL_CONTEXT_NUM_DEVICES: return rvcl_info(&c->num_devices, sizeof c->num_devices, size, value, size_ret);
  case CL_CONTEXT_DEVICES:
    return rvcl_info(c->devices, c->num_devices * sizeof c->devices[0], size, value, size_ret);
  case CL_CONTEXT_PROPERTIES: return rvcl_info(c->props, c->num_props * sizeof c->props[0], size, value, size_ret);
  }
  return rvcl_fail(c, "clGetContextInfo", CL_INVALID_VALUE, "param_name 0x%x is not a context query", (unsigned)name);
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context c,
                                                               void(CL_CALLBACK *fn)(cl_context, void *), void *user) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT))
    return rvcl_fail(NULL, "clSetContextDestructorCallback", CL_INVALID_CONTEXT, "%p", (void *)c);
  if (!fn) return rvcl_fail(c, "clSetContextDestructorCallback", CL_INVALID_VALUE, "pfn_notify is NULL");
  rvcl_destructor_t *d = malloc(sizeof *d);
  if (!d) return CL_OUT_OF_HOST_MEMORY;
  d->fn = (void(CL_CALLBACK *)())fn;
  d->user = user;
  pthread_mutex_lock(&c->lock);
  d->next = c->destructors;
  c->destructors = d;
  pthread_mutex_unlock(&c->lock);
  return CL_SUCCESS;
}

/* Buffers and sub-buffers: rvhal allocations of the context's device (one
 * per device in a context of several: mem_coherence.c). A sub-buffer is a
 * window [origin, origin+size) of its parent's allocation.
 * A released buffer is freed in stream order, after what the context's
 * queues have enqueued so far (rvhal_enqueue_free). */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

#define ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)

static int one_at_most(cl_mem_flags f) { return (f & (f - 1)) == 0; }

cl_int rvcl_mem_check_flags(const char *fn, cl_context c, cl_mem_flags flags) {
  if (flags & ~(ACCESS_FLAGS | HOST_ACCESS_FLAGS | HOST_PTR_FLAGS))
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "flags 0x%llx has unknown bits", (unsigned long long)flags);
  if (!one_at_most(flags & ACCESS_FLAGS) || !one_at_most(flags & HOST_ACCESS_FLAGS) ||
      ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "flags 0x%llx combines exclusive flags", (unsigned long long)flags);
  return CL_SUCCESS;
}

cl_mem rvcl_mem_new(cl_context c, cl_mem_flags flags, size_t size) {
  cl_mem m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->dispatch = &rvcl_dispatch;
  m->magic = RVCL_MAGIC_MEM;
  atomic_init(&m->refs, 1);
  m->type = CL_MEM_OBJECT_BUFFER;
  m->context = c;
  m->flags = flags;
  m->size = size;
  pthread_mutex_init(&m->lock, NULL);
  rvcl_context_hold(c);
  return m;
}

static cl_mem create_buffer(const char *fn, cl_context c, const cl_mem_properties *props, cl_mem_flags flags,
                            size_t size, void *host_ptr, cl_int *err) {
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
    return NULL;
  }
  if (props && props[0]) {
    *err = rvcl_fail(c, fn, CL_INVALID_PROPERTY, "buffer property 0x%llx is not supported",
                     (unsigned long long)props[0]);
    return NULL;
  }
  if ((*err = rvcl_mem_check_flags(fn, c, flags)) != CL_SUCCESS) return NULL;
  if (!(flags & ACCESS_FLAGS)) flags |= CL_MEM_READ_WRITE;
  for (cl_uint i = 0; i < c->num_devices; i++)
    if (size == 0 || size > c->devices[i]->info.global_mem_size) {
      *err = rvcl_fail(c, fn, CL_INVALID_BUFFER_SIZE, "size %zu (device %s's CL_DEVICE_MAX_MEM_ALLOC_SIZE is %llu)",
                       size, c->devices[i]->info.name, (unsigned long long)c->devices[i]->info.global_mem_size);
      return NULL;
    }
  int wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if (wants_ptr != (host_ptr != NULL)) {
    *err = rvcl_fail(c, fn, CL_INVALID_HOST_PTR, "host_ptr=%p with flags 0x%llx", host_ptr, (unsigned long long)flags);
    return NULL;
  }
  int st;
  rvhal_device_t *rv = rvcl_device_rv(rvcl_context_device(c), &st);
  if (!rv) {
    *err = rvcl_fail_rvhal(c, fn, CL_OUT_OF_RESOURCES, st);
    return NULL;
  }
  cl_mem m = rvcl_mem_new(c, flags, size);
  if (!m) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (props) m->num_props = 1; /* the terminating 0 */
  st = rvcl_mem_alloc_with(m, rv, wants_ptr ? host_ptr : NULL, wants_ptr ? size : 0);
  if (st != RVHAL_OK) {
    *err = rvcl_fail_rvhal(c, fn, CL_MEM_OBJECT_ALLOCATION_FAILURE, st);
    rvcl_mem_release(m);
    return NULL;
  }
  if (flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
  *err = CL_SUCCESS;
  return m;
}

int rvcl_mem_alloc_with(cl_mem m, rvhal_device_t *rv, const void *init, size_t init_size) {
  int st;
  if (m->context->num_devices > 1) {
    st = rvcl_mem_alloc_all(m, init);
  } else {
    st = rvhal_mem_alloc(rv, m->size, RVCL_BASE_ALIGN, &m->addr);
    if (st == RVHAL_OK && init_size) st = rvhal_mem_write(rv, m->addr, init, init_size);
  }
  if (st != RVHAL_OK) {
    if (m->dev_addr)
      rvcl_mem_free_all(m);
    else if (m->addr)
      rvhal_mem_free(rv, m->addr);
    m->addr = 0;
  }
  return st;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void *host_ptr,
                                               cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  return create_buffer("clCreateBuffer", c, NULL, flags, size, host_ptr, err);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context c, const cl_mem_properties *props,
                                                             cl_mem_flags flags, size_t size, void *host_ptr,
                                                             cl_int *errcode_ret) {
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  return create_buffer("clCreateBufferWithProperties", c, props, flags, size, host_ptr, err);
}

cl_int rvcl_mem_view_flags(const char *fn, cl_mem parent, cl_mem_flags *flags) {
  cl_context c = parent->context;
  cl_mem_flags f = *flags;
  cl_int err = rvcl_mem_check_flags(fn, c, f);
  if (err != CL_SUCCESS) return err;
  if (f & HOST_PTR_FLAGS)
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "a view of a buffer takes no host-pointer flags (0x%llx)",
                     (unsigned long long)f);
  cl_mem_flags pa = parent->flags & ACCESS_FLAGS, ph = parent->flags & HOST_ACCESS_FLAGS;
  if (((pa & CL_MEM_WRITE_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((pa & CL_MEM_READ_ONLY) && (f & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((ph & CL_MEM_HOST_WRITE_ONLY) && (f & CL_MEM_HOST_READ_ONLY)) ||
      ((ph & CL_MEM_HOST_READ_ONLY) && (f & CL_MEM_HOST_WRITE_ONLY)) ||
      ((ph & CL_MEM_HOST_NO_ACCESS) && (f & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "flags 0x%llx conflict with the buffer's 0x%llx", (unsigned long long)f,
                     (unsigned long long)parent->flags);
  if (!(f & ACCESS_FLAGS)) f |= pa;
  if (!(f & HOST_ACCESS_FLAGS)) f |= ph;
  *flags = f | (parent->flags & HOST_PTR_FLAGS);
  return CL_SUCCESS;
}

cl_mem rvcl_mem_view(cl_mem buffer, cl_mem_flags flags, size_t origin, size_t size) {
  cl_mem root = buffer->parent ? buffer->parent : buffer;
  origin += buffer->origin;
  cl_mem m = rvcl_mem_new(buffer->context, flags, size);
  if (!m) return NULL;
  m->parent = root;
  m->origin = origin;
  m->addr = root->addr + origin;
  if (root->host_ptr) m->host_ptr = (char *)root->host_ptr + origin;
  rvcl_mem_retain(root);
  return m;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                                  const void *info, cl_int *errcode_ret) {
  static const char *fn = "clCreateSubBuffer";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(parent, RVCL_MAGIC_MEM) || parent->parent || parent->image) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_MEM_OBJECT, "%p is not a buffer (or is a sub-buffer)", (void *)parent);
    return NULL;
  }
  cl_context c = parent->context;
  if ((*err = rvcl_mem_view_flags(fn, parent, &flags)) != CL_SUCCESS) return NULL;
  if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "buffer_create_type 0x%x with info %p", (unsigned)type, info);
    return NULL;
  }
  const cl_buffer_region *r = info;
  if (r->size == 0) {
    *err = rvcl_fail(c, fn, CL_INVALID_BUFFER_SIZE, "region size 0");
    return NULL;
  }
  if (r->origin > parent->size || r->size > parent->size - r->origin) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "region [%zu, +%zu) is outside the %zu-byte buffer", r->origin, r->size,
                     parent->size);
    return NULL;
  }
  if (r->origin % RVCL_BASE_ALIGN) {
    *err = rvcl_fail(c, fn, CL_MISALIGNED_SUB_BUFFER_OFFSET,
                     "origin %zu is not a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN (%u bytes)", r->origin,
                     RVCL_BASE_ALIGN);
    return NULL;
  }
  cl_mem m = rvcl_mem_view(parent, flags, r->origin, r->size);
  if (!m) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  *err = CL_SUCCESS;
  return m;
}

void rvcl_mem_retain(cl_mem m) { atomic_fetch_add(&m->refs, 1); }

/* Frees the allocation after every command the context's queues hold now. */
static void free_in_stream_order(cl_context c, hal_addr_t addr) {
  rvhal_device_t *rv = rvcl_context_device(c)->rv;
  if (!rv || !addr) return;
  pthread_mutex_lock(&c->lock);
  for (cl_command_queue q = c->queues; q; q = q->next) rvcl_queue_submit_held(q); /* they may use it */
  cl_command_queue first = c->queues;
  if (!first) {
    pthread_mutex_unlock(&c->lock);
    rvhal_mem_free(rv, addr);
    return;
  }
  uint32_t n = 0;
  for (cl_command_queue q = first->next; q; q = q->next) n++;
  rvhal_event_t **marks = calloc(n ? n : 1, sizeof *marks);
  uint32_t k = 0;
  for (cl_command_queue q = first->next; q && marks; q = q->next)
    if (rvhal_enqueue_marker(q->q, NULL, &marks[k]) == RVHAL_OK) k++;
  rvhal_dependencies_t deps = {0};
  deps.wait_events = marks;
  deps.num_wait_events = k;
  if (!marks || rvhal_enqueue_free(first->q, &deps, addr, NULL) != RVHAL_OK) {
    for (cl_command_queue q = c->queues; q; q = q->next) rvhal_queue_finish(q->q, RVHAL_WAIT_FOREVER);
    rvhal_mem_free(rv, addr);
  }
  pthread_mutex_unlock(&c->lock);
  for (uint32_t i = 0; i < k; i++) rvhal_event_release(marks[i]);
  free(marks);
}

void rvcl_mem_release(cl_mem m) {
  if (atomic_fetch_sub(&m->refs, 1) != 1) return;
  cl_context c = m->context;
  if (m->parent)
    rvcl_mem_release(m->parent);
  else if (m->dev_addr)
    rvcl_mem_free_all(m);
  else
    free_in_stream_order(c, m->addr);
  for (rvcl_destructor_t *d = m->destructors, *next; d; d = next) {
    next = d->next;
    ((void(CL_CALLBACK *)(cl_mem, void *))d->fn)(m, d->user);
    free(d);
  }
  for (rvcl_mapping_t *p = m->maps, *next; p; p = next) {
    next = p->next;
    if (p->owned) free(p->ptr);
    free(p);
  }
  if (m->image) {
    if (m->image->desc_mem) rvcl_mem_release(m->image->desc_mem);
    if (m->image->buffer) rvcl_mem_release(m->image->buffer);
    free(m->image);
  }
  pthread_mutex_destroy(&m->lock);
  m->magic = 0;
  free(m);
  rvcl_context_unhold(c);
}

cl_int rvcl_mem_range(const char *func, cl_mem m, size_t offset, size_t size) {
  if (offset > m->size || size > m->size - offset)
    return rvcl_fail(m->context, func, CL_INVALID_VALUE, "[%zu, +%zu) is outside the %zu-byte buffer", offset, size,
                     m->size);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem m) {
  if (!RVCL_VALID(m, RVCL_MAGIC_MEM)) return rvcl_fail(NULL, "clRetainMemObject", CL_INVALID_MEM_OBJECT, "%p", (void *)m);
  rvcl_mem_retain(m);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem m) {
  if (!RVCL_VALID(m, RVCL_MAGIC_MEM)) return rvcl_fail(NULL, "clReleaseMemObject", CL_INVALID_MEM_OBJECT, "%p", (void *)m);
  rvcl_mem_release(m);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *),
                                                                 void *user) {
  static const char *func = "clSetMemObjectDestructorCallback";
  if (!RVCL_VALID(m, RVCL_MAGIC_MEM)) return rvcl_fail(NULL, func, CL_INVALID_MEM_OBJECT, "%p", (void *)m);
  if (!fn) return rvcl_fail(m->context, func, CL_INVALID_VALUE, "pfn_notify is NULL");
  rvcl_destructor_t *d = malloc(sizeof *d);
  if (!d) return CL_OUT_OF_HOST_MEMORY;
  d->fn = (void(CL_CALLBACK *)())fn;
  d->user = user;
  pthread_mutex_lock(&m->lock);
  d->next = m->destructors; /* called in reverse order of registration */
  m->destructors = d;
  pthread_mutex_unlock(&m->lock);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info name, size_t size, void *value,
                                                   size_t *size_ret) {
  if (!RVCL_VALID(m, RVCL_MAGIC_MEM)) return rvcl_fail(NULL, "clGetMemObjectInfo", CL_INVALID_MEM_OBJECT, "%p", (void *)m);
  switch (name) {
  case CL_MEM_TYPE: {
    cl_mem_object_type t = m->type;
    return rvcl_info(&t, sizeof t, size, value, size_ret);
  }
  case CL_MEM_FLAGS: return rvcl_info(&m->flags, sizeof m->flags, size, value, size_ret);
  case CL_MEM_SIZE: { /* an image's pixels, not its descriptor */
    size_t s = m->image ? m->size - m->image->data_offset : m->size;
    return rvcl_info(&s, sizeof s, size, value, size_ret);
  }
  case CL_MEM_HOST_PTR: {
    void *p = m->image ? m->image->host_ptr : m->host_ptr;
    return rvcl_info(&p, sizeof p, size, value, size_ret);
  }
  case CL_MEM_MAP_COUNT: {
    pthread_mutex_lock(&m->lock);
    cl_uint n = m->map_count;
    pthread_mutex_unlock(&m->lock);
    return rvcl_info(&n, sizeof n, size, value, size_ret);
  }
  case CL_MEM_REFERENCE_COUNT: {
    cl_uint r = atomic_load(&m->refs);
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  case CL_MEM_CONTEXT: return rvcl_info(&m->context, sizeof m->context, size, value, size_ret);
  case CL_MEM_ASSOCIATED_MEMOBJECT: { /* a 1D buffer image's: its buffer as given */
    cl_mem a = m->image ? m->image->buffer : m->parent;
    return rvcl_info(&a, sizeof a, size, value, size_ret);
  }
  case CL_MEM_OFFSET: { /* of sub-buffers only */
    size_t o = m->image ? 0 : m->origin;
    return rvcl_info(&o, sizeof o, size, value, size_ret);
  }
  case CL_MEM_USES_SVM_POINTER: {
    cl_bool no = CL_FALSE;
    return rvcl_info(&no, sizeof no, size, value, size_ret);
  }
  case CL_MEM_PROPERTIES: return rvcl_info(m->props, m->num_props * sizeof m->props[0], size, value, size_ret);
  }
  return rvcl_fail(m->context, "clGetMemObjectInfo", CL_INVALID_VALUE, "param_name 0x%x is not a memory query",
                   (unsigned)name);
}

/* Map and unmap. A buffer made with CL_MEM_USE_HOST_PTR maps at its host
 * pointer (read into it at map, written back at unmap; an image's region
 * the same, in host_ptr's layout: image.c); any other buffer
 * maps zero-copy through rvhal_mem_map (the device's RAM is shared with
 * this process), or, on a device the host cannot map, through a host copy. */
#include <stdlib.h>
#include <string.h>

#include "icd.h"
#include "mem_coherence.h"

static void free_ptr(void *user, int status) {
  (void)status;
  free(user);
}

CL_API_ENTRY void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
                                                  size_t offset, size_t size, cl_uint n, const cl_event *list,
                                                  cl_event *out, cl_int *errcode_ret) {
  static const char *fn = "clEnqueueMapBuffer";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p is not a queue", (void *)q);
    return NULL;
  }
  if (!RVCL_VALID(m, RVCL_MAGIC_MEM) || m->image) {
    *err = rvcl_fail(q->context, fn, CL_INVALID_MEM_OBJECT, "%p is not a buffer", (void *)m);
    return NULL;
  }
  return rvcl_map_range(fn, CL_COMMAND_MAP_BUFFER, q, m, blocking, flags, offset, size, n, list, out, err);
}

cl_int rvcl_map_check(const char *fn, cl_command_queue q, cl_mem m, cl_map_flags flags) {
  cl_context c = q->context;
  if (m->context != c)
    return rvcl_fail(c, fn, CL_INVALID_CONTEXT, "the memory object belongs to another context than the queue");
  if ((flags & ~(cl_map_flags)(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return rvcl_fail(c, fn, CL_INVALID_VALUE, "map_flags 0x%llx", (unsigned long long)flags);
  if (((flags & CL_MAP_READ) && (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
      ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))))
    return rvcl_fail(c, fn, CL_INVALID_OPERATION, "map_flags 0x%llx on a memory object made with flags 0x%llx",
                     (unsigned long long)flags, (unsigned long long)m->flags);
  return CL_SUCCESS;
}

void rvcl_map_add(cl_mem m, rvcl_mapping_t *mp) {
  pthread_mutex_lock(&m->lock);
  mp->next = m->maps;
  m->maps = mp;
  m->map_count++;
  pthread_mutex_unlock(&m->lock);
}

void *rvcl_map_range(const char *fn, cl_command_type type, cl_command_queue q, cl_mem m, cl_bool blocking,
                     cl_map_flags flags, size_t offset, size_t size, cl_uint n, const cl_event *list, cl_event *out,
                     cl_int *err) {
  cl_context c = q->context;
  if ((*err = rvcl_map_check(fn, q, m, flags)) != CL_SUCCESS) return NULL;
  if ((*err = rvcl_mem_range(fn, m, offset, size)) != CL_SUCCESS) return NULL;
  if (size == 0) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "size is 0");
    return NULL;
  }
  hal_addr_t addr = 0;
  if ((*err = rvcl_mem_place(fn, q, m, (flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) != 0, &addr)) !=
      CL_SUCCESS)
    return NULL;
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if ((*err = werr) != CL_SUCCESS) return NULL;
  rvcl_mapping_t *mp = calloc(1, sizeof *mp);
  if (!mp) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  mp->offset = offset;
  mp->size = size;
  mp->flags = flags;
  int st;
  rvhal_device_t *rv = rvcl_device_rv(q->device, &st);
  if (m->host_ptr) {
    mp->ptr = (char *)m->host_ptr + offset;
    mp->staged = 1;
  } else if (rv && rvhal_mem_map(rv, addr + offset, size, &mp->ptr) == RVHAL_OK) {
    mp->staged = 0;
  } else if ((mp->ptr = malloc(size)) != NULL) {
    mp->staged = mp->owned = 1;
  } else {
    free(mp);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  rvhal_event_t *ev = NULL;
  int want_ev = out || blocking;
  if (mp->staged && !(flags & CL_MAP_WRITE_INVALIDATE_REGION))
    st = rvhal_enqueue_read(q->q, &deps, mp->ptr, addr + offset, size, want_ev ? &ev : NULL);
  else
    st = rvhal_enqueue_marker(q->q, &deps, want_ev ? &ev : NULL);
  if (st != RVHAL_OK) {
    if (mp->owned) free(mp->ptr);
    free(mp);
    *err = rvcl_enqueue_done(q, fn, type, st, NULL, CL_FALSE, NULL);
    return NULL;
  }
  rvcl_map_add(m, mp);
  void *ptr = mp->ptr;
  *err = rvcl_enqueue_done(q, fn, type, RVHAL_OK, ev, blocking, out);
  return *err == CL_SUCCESS ? ptr : NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *ptr, cl_uint n,
                                                        const cl_event *list, cl_event *out) {
  static const char *fn = "clEnqueueUnmapMemObject";
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p is not a queue", (void *)q);
  if (!RVCL_VALID(m, RVCL_MAGIC_MEM)) return rvcl_fail(q->context, fn, CL_INVALID_MEM_OBJECT, "%p is not a buffer", (void *)m);
  if (m->context != q->context)
    return rvcl_fail(q->context, fn, CL_INVALID_CONTEXT, "the buffer belongs to another context than the queue");
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) return werr;
  pthread_mutex_lock(&m->lock);
  rvcl_mapping_t **pp = &m->maps;
  while (*pp && (*pp)->ptr != ptr) pp = &(*pp)->next;
  rvcl_mapping_t *mp = *pp;
  if (mp) {
    *pp = mp->next;
    m->map_count--;
  }
  pthread_mutex_unlock(&m->lock);
  if (!mp) return rvcl_fail(q->context, fn, CL_INVALID_VALUE, "%p was not returned by mapping this buffer", ptr);
  if (mp->boxed) { /* a CL_MEM_USE_HOST_PTR image's region: its rows go back in the image's layout */
    rvcl_mapping_t b = *mp;
    free(mp);
    if (b.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
      return rvcl_enqueue_box(fn, CL_COMMAND_UNMAP_MEM_OBJECT, RVCL_BOX_WRITE, q, m, &b.dev_box, NULL, b.ptr,
                              &b.host_box, b.region, NULL, CL_FALSE, n, list, out);
    rvhal_event_t *ev = NULL;
    int st = rvhal_enqueue_marker(q->q, &deps, out ? &ev : NULL);
    return rvcl_enqueue_done(q, fn, CL_COMMAND_UNMAP_MEM_OBJECT, st, ev, CL_FALSE, out);
  }
  rvhal_event_t *ev = NULL;
  rvhal_event_t **want_ev = out || mp->owned ? &ev : NULL; /* the staging copy's free waits for it */
  int st;
  hal_addr_t addr = 0;
  int writes_back = mp->staged && (mp->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION));
  cl_int err = writes_back ? rvcl_mem_place(fn, q, m, 1, &addr) : CL_SUCCESS;
  if (err != CL_SUCCESS) {
    if (mp->owned) free(mp->ptr);
    free(mp);
    return err;
  }
  if (writes_back)
    st = rvhal_enqueue_write(q->q, &deps, addr + mp->offset, mp->ptr, mp->size, want_ev);
  else
    st = rvhal_enqueue_marker(q->q, &deps, want_ev);
  if (st == RVHAL_OK && mp->owned) {
    const rvhal_dependencies_t after = {.wait_events = &ev, .num_wait_events = 1};
    if (rvhal_enqueue_callback(q->q, &after, free_ptr, mp->ptr, NULL) != RVHAL_OK) {
      rvhal_event_wait(ev, RVHAL_WAIT_FOREVER);
      free(mp->ptr);
    }
  }
  free(mp);
  return rvcl_enqueue_done(q, fn, CL_COMMAND_UNMAP_MEM_OBJECT, st, ev, CL_FALSE, out);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num, const cl_mem *mems,
                                                           cl_mem_migration_flags flags, cl_uint n,
                                                           const cl_event *list, cl_event *out) {
  static const char *fn = "clEnqueueMigrateMemObjects";
  if (!RVCL_VALID(q, RVCL_MAGIC_QUEUE)) return rvcl_fail(NULL, fn, CL_INVALID_COMMAND_QUEUE, "%p", (void *)q);
  if (num == 0 || !mems) return rvcl_fail(q->context, fn, CL_INVALID_VALUE, "num_mem_objects=%u mem_objects=%p", num, (void *)mems);
  if (flags & ~(cl_mem_migration_flags)(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
    return rvcl_fail(q->context, fn, CL_INVALID_VALUE, "flags 0x%llx", (unsigned long long)flags);
  for (cl_uint i = 0; i < num; i++) {
    if (!RVCL_VALID(mems[i], RVCL_MAGIC_MEM))
      return rvcl_fail(q->context, fn, CL_INVALID_MEM_OBJECT, "mem_objects[%u]=%p", i, (void *)mems[i]);
    if (mems[i]->context != q->context)
      return rvcl_fail(q->context, fn, CL_INVALID_CONTEXT, "mem_objects[%u] belongs to another context", i);
  }
  /* A context of one device: nothing moves; ordering is all it means. Of
   * several: the buffers' current contents move to q's device now (or, with
   * CONTENT_UNDEFINED, that device's copy is declared current). To the
   * host: each device's copy is kept, nothing to do. */
  if (!(flags & CL_MIGRATE_MEM_OBJECT_HOST))
    for (cl_uint i = 0; i < num; i++) {
      hal_addr_t addr;
      cl_int err = CL_SUCCESS;
      if (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
        rvcl_mem_discard_others(q, mems[i]);
      else
        err = rvcl_mem_place(fn, q, mems[i], 0, &addr);
      if (err != CL_SUCCESS) return err;
    }
  RVCL_WAIT_LIST(q, n, list, fn, deps, werr);
  if (werr != CL_SUCCESS) return werr;
  rvhal_event_t *ev = NULL;
  int st = rvhal_enqueue_marker(q->q, &deps, out ? &ev : NULL);
  return rvcl_enqueue_done(q, fn, CL_COMMAND_MIGRATE_MEM_OBJECTS, st, ev, CL_FALSE, out);
}

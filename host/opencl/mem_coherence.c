/* Buffers of a context of several devices. Each device has its own memory,
 * so such a buffer has an allocation on every device and a mask of the
 * copies that are current. A command on a device whose copy is stale first
 * waits for the queues of a device holding a current copy (what they have
 * enqueued so far) and copies it over through the host; a command that may
 * write leaves its device's copy the only current one. Commands on
 * different devices thus see each other's results in the order they were
 * enqueued, as with POCL. A context of one device never comes here
 * (rvcl_mem_place returns the one address). */
#include <stdlib.h>
#include <string.h>

#include "icd.h"

static cl_mem root_of(cl_mem m) { return m->parent ? m->parent : m; }

/* Waits for what the context's queues on device d have enqueued so far
 * (a marker each, not rvhal_queue_finish, which would take a failure the
 * application's clFinish is to report). Called under c->lock. */
static void drain_device(cl_context c, cl_device_id d) {
  for (cl_command_queue q = c->queues; q; q = q->next) {
    if (q->device != d) continue;
    rvcl_queue_submit_held(q);
    rvhal_event_t *mk = NULL;
    if (rvhal_enqueue_marker(q->q, NULL, &mk) == RVHAL_OK) {
      rvhal_event_wait(mk, RVHAL_WAIT_FOREVER);
      rvhal_event_release(mk);
    }
  }
}

/* Copies root's contents from slot `from` to slot `to` through the host. */
static int copy_between(cl_context c, cl_mem root, int from, int to) {
  rvhal_device_t *src = c->devices[from]->rv, *dst = c->devices[to]->rv;
  if (!src || !dst) return RVHAL_INVALID_ARGUMENT;
  void *a = NULL, *b = NULL;
  /* Both memories are mapped into this process on the QEMU boards: one copy. */
  if (rvhal_mem_map(src, root->dev_addr[from], root->size, &a) == RVHAL_OK &&
      rvhal_mem_map(dst, root->dev_addr[to], root->size, &b) == RVHAL_OK) {
    memcpy(b, a, root->size);
    return RVHAL_OK;
  }
  void *tmp = malloc(root->size);
  if (!tmp) return RVHAL_NO_MEMORY;
  int st = rvhal_mem_read(src, tmp, root->dev_addr[from], root->size);
  if (st == RVHAL_OK) st = rvhal_mem_write(dst, root->dev_addr[to], tmp, root->size);
  free(tmp);
  return st;
}

cl_int rvcl_mem_place_slow(const char *func, cl_command_queue q, cl_mem m, int writes, hal_addr_t *out) {
  cl_mem root = root_of(m);
  cl_context c = q->context;
  int slot = rvcl_context_slot(c, q->device);
  if (slot < 0) return rvcl_fail(c, func, CL_INVALID_CONTEXT, "the queue's device is not the buffer's context's");
  uint32_t bit = 1u << slot;
  pthread_mutex_lock(&c->lock);
  if (!(root->valid & bit)) {
    int from = root->valid ? __builtin_ctz(root->valid) : -1;
    if (from >= 0) {
      drain_device(c, c->devices[from]);
      drain_device(c, q->device); /* its earlier commands may still use its old copy */
      int st = copy_between(c, root, from, slot);
      if (st != RVHAL_OK) {
        pthread_mutex_unlock(&c->lock);
        return rvcl_fail(c, func, CL_MEM_OBJECT_ALLOCATION_FAILURE,
                         "moving a %zu-byte buffer from device %s to %s: %s", root->size, c->devices[from]->info.name,
                         q->device->info.name, rvhal_last_error());
      }
    }
    root->valid |= bit;
  }
  if (writes) root->valid = bit;
  pthread_mutex_unlock(&c->lock);
  *out = root->dev_addr[slot] + m->origin;
  return CL_SUCCESS;
}

void rvcl_mem_discard_others(cl_command_queue q, cl_mem m) {
  cl_mem root = root_of(m);
  int slot = rvcl_context_slot(q->context, q->device);
  if (!root->dev_addr || slot < 0) return;
  pthread_mutex_lock(&q->context->lock);
  root->valid = 1u << slot;
  pthread_mutex_unlock(&q->context->lock);
}

int rvcl_mem_alloc_all(cl_mem m, const void *host_ptr) {
  cl_context c = m->context;
  if (!(m->dev_addr = calloc(c->num_devices, sizeof *m->dev_addr))) return RVHAL_NO_MEMORY;
  for (cl_uint i = 0; i < c->num_devices; i++) {
    int st;
    rvhal_device_t *rv = rvcl_device_rv(c->devices[i], &st);
    if (!rv) return st;
    if ((st = rvhal_mem_alloc(rv, m->size, RVCL_BASE_ALIGN, &m->dev_addr[i])) != RVHAL_OK) return st;
    if (host_ptr && (st = rvhal_mem_write(rv, m->dev_addr[i], host_ptr, m->size)) != RVHAL_OK) return st;
  }
  m->addr = m->dev_addr[0];
  m->valid = c->num_devices == 32 ? ~0u : (1u << c->num_devices) - 1;
  return RVHAL_OK;
}

void rvcl_mem_free_all(cl_mem m) {
  cl_context c = m->context;
  if (!m->dev_addr) return;
  pthread_mutex_lock(&c->lock);
  for (cl_uint i = 0; i < c->num_devices; i++) {
    if (!m->dev_addr[i] || !c->devices[i]->rv) continue;
    drain_device(c, c->devices[i]); /* what is enqueued may still use it */
    rvhal_mem_free(c->devices[i]->rv, m->dev_addr[i]);
  }
  pthread_mutex_unlock(&c->lock);
  free(m->dev_addr);
  m->dev_addr = NULL;
  m->addr = 0;
}

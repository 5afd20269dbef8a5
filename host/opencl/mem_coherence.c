/* Buffers of a context of several devices. Each device has its own memory,
 * so such a buffer has an allocation on every device and a mask of the
 * copies that are current. A command on a device whose copy is stale is
 * preceded on its queue by a copy from a device holding a current one (a
 * host callback that waits for what that device's queues, and the other
 * queues of its own device, have enqueued so far); a command that may
 * write leaves its device's copy the only current one. Commands on
 * different devices thus see each other's results in the order they were
 * enqueued, as with POCL, and the enqueue itself does not wait. A context
 * of one device never comes here (rvcl_mem_place returns the one address). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"
#include "mem_coherence.h"

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

typedef struct move_job {
  cl_context c;
  cl_mem root;
  int from, to;
} move_job_t;

/* The copy, on the destination queue's thread (in its order). */
static void run_move(void *user, int status) {
  move_job_t *j = user;
  if (status == RVHAL_OK) {
    int st = copy_between(j->c, j->root, j->from, j->to);
    if (st != RVHAL_OK) {
      char msg[512];
      snprintf(msg, sizeof msg, "moving a %zu-byte buffer from device %s to %s failed: %s", j->root->size,
               j->c->devices[j->from]->info.name, j->c->devices[j->to]->info.name, rvhal_last_error());
      rvcl_tell_failure(NULL, st, msg);
    }
  }
  free(j);
}

/* Enqueues on q the copy of root from slot `from` to q's slot `to`, after
 * what the queues of both devices (q aside: it is in order) hold now.
 * Called under c->lock. */
static int enqueue_move(cl_command_queue q, cl_mem root, int from, int to) {
  cl_context c = q->context;
  uint32_t n = 0, k = 0;
  for (cl_command_queue o = c->queues; o; o = o->next) n++;
  rvhal_event_t **marks = calloc(n ? n : 1, sizeof *marks);
  move_job_t *j = malloc(sizeof *j);
  if (!marks || !j) {
    free(marks);
    free(j);
    return RVHAL_NO_MEMORY;
  }
  for (cl_command_queue o = c->queues; o; o = o->next) {
    if (o == q || (o->device != c->devices[from] && o->device != q->device)) continue;
    rvcl_queue_submit_held(o);
    if (rvhal_enqueue_marker(o->q, NULL, &marks[k]) == RVHAL_OK) k++;
  }
  *j = (move_job_t){.c = c, .root = root, .from = from, .to = to};
  rvhal_dependencies_t deps = {0};
  deps.wait_events = marks;
  deps.num_wait_events = k;
  rvcl_queue_submit_held(q); /* the copy comes after q's held launch */
  int st = rvhal_enqueue_callback(q->q, &deps, run_move, j, NULL);
  if (st != RVHAL_OK) free(j);
  for (uint32_t i = 0; i < k; i++) rvhal_event_release(marks[i]);
  free(marks);
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
      int st = enqueue_move(q, root, from, slot);
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

/* Where a buffer is on the device of the queue that uses it: the one
 * address in a context of one device, inline; otherwise mem_coherence.c
 * makes that device's copy current first. Kept out of icd.h so the
 * layer's common header does not call into one of its files. */
#ifndef RVCL_MEM_COHERENCE_H
#define RVCL_MEM_COHERENCE_H

#include "icd.h"

/* The address of m on q's device for a command enqueued now, after making
 * that device's copy current (a context of several devices: waits for the
 * queues of the device holding the current copy and copies it over).
 * writes: the command may change m, so the other copies become stale. */
cl_int rvcl_mem_place_slow(const char *func, cl_command_queue q, cl_mem m, int writes, hal_addr_t *out);
static inline cl_int rvcl_mem_place(const char *func, cl_command_queue q, cl_mem m, int writes, hal_addr_t *out) {
  if (!(m->parent ? m->parent : m)->dev_addr) { /* one device: one copy */
    *out = m->addr;
    return CL_SUCCESS;
  }
  return rvcl_mem_place_slow(func, q, m, writes, out);
}

#endif

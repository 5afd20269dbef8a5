/* Command buffers inside the library: what command_buffer.c records and
 * queue.c replays (rvhal/queue.h is the API). The commands themselves are
 * a command list of the launch module (launch/command_list.h). */
#ifndef RVHAL_HOST_COMMAND_BUFFER_H
#define RVHAL_HOST_COMMAND_BUFFER_H

#include "launch/command_list.h"
#include "rvhal/queue.h"

struct rvhal_command_buffer {
  rvhal_device_t *device;
  rvhal_command_list_t list;
  uint32_t cap_ops;
  uint32_t num_slots; /* binding slots used: 1 + the highest */
  int ended;
  uint32_t refs;      /* the caller's, and one per enqueued command (sync lock) */
};

/* Drops a reference (sync lock held); the last frees the buffer. */
void rvhal_command_buffer_release_locked(rvhal_command_buffer_t *cb);

#endif /* RVHAL_HOST_COMMAND_BUFFER_H */

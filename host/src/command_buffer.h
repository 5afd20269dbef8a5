/* Command buffers inside the library: what command_buffer.c records and
 * queue.c replays (rvhal/queue.h is the API). */
#ifndef RVHAL_HOST_COMMAND_BUFFER_H
#define RVHAL_HOST_COMMAND_BUFFER_H

#include "rvhal/queue.h"

typedef enum { RVHAL_CB_KERNEL, RVHAL_CB_COPY, RVHAL_CB_FILL, RVHAL_CB_BARRIER } rvhal_cb_op_kind_t;

typedef struct rvhal_cb_op {
  rvhal_cb_op_kind_t kind;
  /* kernel */
  hal_program_t program;
  hal_kernel_t kernel;
  hal_ndrange_t ndrange;
  uint32_t num_args, work_dim;
  hal_arg_t *args;   /* POD values point into pod */
  uint8_t *pod;
  int32_t *bindings; /* per argument: binding slot, or -1; NULL: none */
  rvhal_launch_options_t options;
  int has_options;
  /* copy, fill */
  hal_addr_t dst, src;
  hal_size_t size, pattern_size;
  uint8_t pattern[128];
} rvhal_cb_op_t;

/* queue.c: the recorded commands onto the queue in one go, arguments
 * re-bound; the event is that of a closing marker. */
int rvhal_queue_enqueue_recorded(rvhal_queue_t *q, const rvhal_dependencies_t *deps, const rvhal_cb_op_t *ops,
                                 uint32_t num_ops, const hal_addr_t *bindings, uint32_t num_bindings,
                                 rvhal_event_t **out_event);

#endif /* RVHAL_HOST_COMMAND_BUFFER_H */

/* Command buffers (rvhal/queue.h): commands recorded once, enqueued many
 * times with their buffer arguments re-bound. Recording copies everything
 * it is given; an enqueued buffer is one queue command (queue.c), which
 * launch/command_list_encode.c runs on the device. */
#include <stdlib.h>
#include <string.h>

#include "queue/command_buffer.h"
#include "base/internal.h"
#include "rvhal/rvhal_kernel_meta.h"
#include "queue/sync.h"

int rvhal_command_buffer_create(rvhal_device_t *device, rvhal_command_buffer_t **out_command_buffer) {
  if (!device || !out_command_buffer)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_create: NULL device or out_command_buffer");
  rvhal_command_buffer_t *cb = calloc(1, sizeof *cb);
  if (!cb) return rvhal_error(RVHAL_HOST_IO, "out of host memory for a command buffer");
  cb->device = device;
  cb->refs = 1;
  *out_command_buffer = cb;
  return RVHAL_OK;
}

/* Enqueued commands keep the buffer alive: destroying it with submissions
 * pending is allowed, as in IREE. */
void rvhal_command_buffer_destroy(rvhal_command_buffer_t *cb) {
  if (!cb) return;
  rvhal_sync_lock();
  rvhal_command_buffer_release_locked(cb);
  rvhal_sync_unlock();
}

void rvhal_command_buffer_release_locked(rvhal_command_buffer_t *cb) {
  if (--cb->refs) return;
  rvhal_cmdlist_forget(&cb->enc[0]);
  rvhal_cmdlist_forget(&cb->enc[1]);
  for (uint32_t i = 0; i < cb->num_ops; i++) {
    free(cb->ops[i].args);
    free(cb->ops[i].pod);
    free(cb->ops[i].bindings);
  }
  free(cb->ops);
  free(cb);
}

/* A new op at the end (counted once filled in), zeroed; NULL with *out_rc. */
static rvhal_cb_op_t *add_op(rvhal_command_buffer_t *cb, const char *what, rvhal_cb_op_kind_t kind, int *out_rc) {
  if (!cb) {
    *out_rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_%s: command buffer is NULL", what);
    return NULL;
  }
  if (cb->ended) {
    *out_rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_%s: recording has ended (command_buffer_end)", what);
    return NULL;
  }
  if (cb->num_ops == cb->cap_ops) {
    uint32_t cap = cb->cap_ops ? cb->cap_ops * 2 : 16;
    rvhal_cb_op_t *ops = realloc(cb->ops, cap * sizeof *ops);
    if (!ops) {
      *out_rc = rvhal_error(RVHAL_HOST_IO, "command_buffer_%s: out of host memory", what);
      return NULL;
    }
    cb->ops = ops;
    cb->cap_ops = cap;
  }
  rvhal_cb_op_t *o = &cb->ops[cb->num_ops];
  memset(o, 0, sizeof *o);
  o->kind = kind;
  return o;
}

int rvhal_command_buffer_kernel(rvhal_command_buffer_t *cb, hal_program_t program, hal_kernel_t kernel,
                                const hal_ndrange_t *ndrange, const hal_arg_t *args, uint32_t num_args,
                                uint32_t work_dim, const rvhal_launch_options_t *options, const int32_t *arg_bindings) {
  if (!ndrange) return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_kernel: ndrange is NULL");
  if (num_args && !args)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_kernel: %u arguments but args is NULL", num_args);
  if (num_args > RVHAL_META_MAX_ARGS)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_kernel: %u arguments, at most %u", num_args,
                       RVHAL_META_MAX_ARGS);
  size_t pod_bytes = 0;
  uint32_t slots = cb ? cb->num_slots : 0;
  for (uint32_t i = 0; i < num_args; i++) {
    if (args[i].kind == hal_arg_value) {
      if (args[i].size > 4096 || (args[i].size && !args[i].pod_data))
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_kernel: argument %u: value of %llu bytes at %p",
                           i, (unsigned long long)args[i].size, args[i].pod_data);
      pod_bytes += (size_t)args[i].size;
    }
    if (arg_bindings && arg_bindings[i] >= 0) {
      if (args[i].kind != hal_arg_address || args[i].space != hal_space_global)
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_kernel: argument %u has binding slot %d but is "
                           "no global buffer", i, (int)arg_bindings[i]);
      if ((uint32_t)arg_bindings[i] >= 65536)
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_kernel: argument %u: binding slot %d (at most "
                           "65535)", i, (int)arg_bindings[i]);
      if ((uint32_t)arg_bindings[i] + 1 > slots) slots = (uint32_t)arg_bindings[i] + 1;
    }
  }
  int rc;
  rvhal_cb_op_t *o = add_op(cb, "kernel", RVHAL_CB_KERNEL, &rc);
  if (!o) return rc;
  o->args = calloc(num_args + 1, sizeof *o->args);
  o->pod = malloc(pod_bytes + 1);
  o->bindings = arg_bindings ? malloc((num_args + 1) * sizeof *o->bindings) : NULL;
  if (!o->args || !o->pod || (arg_bindings && !o->bindings)) {
    free(o->args);
    free(o->pod);
    free(o->bindings);
    return rvhal_error(RVHAL_HOST_IO, "command_buffer_kernel: out of host memory for %u arguments", num_args);
  }
  size_t at = 0;
  for (uint32_t i = 0; i < num_args; i++) {
    o->args[i] = args[i];
    if (args[i].kind == hal_arg_value && args[i].size) {
      memcpy(o->pod + at, args[i].pod_data, (size_t)args[i].size);
      o->args[i].pod_data = o->pod + at;
      at += (size_t)args[i].size;
    }
    if (arg_bindings) o->bindings[i] = arg_bindings[i];
  }
  o->program = program;
  if (cb->program && cb->program != program) cb->several_programs = 1;
  cb->program = program;
  o->kernel = kernel;
  o->ndrange = *ndrange;
  o->num_args = num_args;
  o->work_dim = work_dim;
  if (options) {
    o->options = *options;
    o->has_options = 1;
  }
  cb->num_slots = slots;
  cb->num_ops++;
  return RVHAL_OK;
}

int rvhal_command_buffer_copy(rvhal_command_buffer_t *cb, hal_addr_t dst, hal_addr_t src, hal_size_t size) {
  int rc;
  rvhal_cb_op_t *o = add_op(cb, "copy", RVHAL_CB_COPY, &rc);
  if (!o) return rc;
  o->dst = dst;
  o->src = src;
  o->size = size;
  cb->num_ops++;
  return RVHAL_OK;
}

int rvhal_command_buffer_fill(rvhal_command_buffer_t *cb, hal_addr_t dst, const void *pattern,
                              hal_size_t pattern_size, hal_size_t size) {
  RVHAL_RETURN_IF_ERROR(rvhal_check_fill_pattern("command_buffer_fill", pattern, pattern_size));
  int rc;
  rvhal_cb_op_t *o = add_op(cb, "fill", RVHAL_CB_FILL, &rc);
  if (!o) return rc;
  o->dst = dst;
  o->size = size;
  memcpy(o->pattern, pattern, (size_t)pattern_size);
  o->pattern_size = pattern_size;
  cb->num_ops++;
  return RVHAL_OK;
}

int rvhal_command_buffer_barrier(rvhal_command_buffer_t *cb) {
  int rc;
  if (!add_op(cb, "barrier", RVHAL_CB_BARRIER, &rc)) return rc;
  cb->num_ops++;
  return RVHAL_OK;
}

int rvhal_command_buffer_end(rvhal_command_buffer_t *cb) {
  if (!cb) return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_end: command buffer is NULL");
  if (cb->ended) return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_end: recording has ended already");
  cb->ended = 1;
  return RVHAL_OK;
}

int rvhal_enqueue_command_buffer(rvhal_queue_t *q, const rvhal_dependencies_t *deps,
                                 const rvhal_command_buffer_t *cb, const hal_addr_t *bindings, uint32_t num_bindings,
                                 rvhal_event_t **out_event) {
  if (!q || !cb) return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: NULL queue or command buffer");
  if (!cb->ended)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: still recording (call command_buffer_end)");
  if (rvhal_queue_device(q) != cb->device)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: recorded for another device than the queue's");
  if (num_bindings < cb->num_slots || (num_bindings && !bindings))
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "enqueue_command_buffer: the buffer uses %u binding slots, %u given%s",
                       cb->num_slots, num_bindings, num_bindings && !bindings ? " (bindings is NULL)" : "");
  return rvhal_queue_enqueue_recorded(q, deps, (rvhal_command_buffer_t *)cb, bindings, num_bindings, out_event);
}

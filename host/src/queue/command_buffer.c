/* Command buffers (rvhal/queue.h): commands recorded once, enqueued many
 * times with their buffer arguments re-bound. Recording copies everything
 * it is given; an enqueued buffer is one queue command (queue.c), which
 * launch/command_list_encode.c runs on the device. */
#include <stdlib.h>
#include <string.h>

#include "queue/command_buffer.h"
#include "base/internal.h"
#include "launch/launch_request.h"
#include "memory/memory.h"
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
  rvhal_command_list_t *l = &cb->list;
  rvhal_cmdlist_forget(l);
  for (uint32_t i = 0; i < l->num_ops; i++) {
    rvhal_launch_request_release(l->ops[i].launch);
    free(l->ops[i].bindings);
  }
  free(l->ops);
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
  rvhal_command_list_t *l = &cb->list;
  if (l->num_ops == cb->cap_ops) {
    uint32_t cap = cb->cap_ops ? cb->cap_ops * 2 : 16;
    rvhal_cb_op_t *ops = realloc(l->ops, cap * sizeof *ops);
    if (!ops) {
      *out_rc = rvhal_error(RVHAL_HOST_IO, "command_buffer_%s: out of host memory", what);
      return NULL;
    }
    l->ops = ops;
    cb->cap_ops = cap;
  }
  rvhal_cb_op_t *o = &l->ops[l->num_ops];
  memset(o, 0, sizeof *o);
  o->kind = kind;
  return o;
}

/* Records launch r (the op takes the caller's reference). */
static int add_launch(rvhal_command_buffer_t *cb, const char *who, const rvhal_launch_request_t *r,
                      const int32_t *arg_bindings) {
  const uint32_t num_args = r->num_args;
  if (num_args > RVHAL_META_MAX_ARGS)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: %u arguments, at most %u", who, num_args, RVHAL_META_MAX_ARGS);
  if (r->options && r->options->timeout_ms)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: options->timeout_ms %u: a command buffer runs as one launch, "
                       "under the device's launch timeout (launch_timeout_ms)", who, r->options->timeout_ms);
  uint32_t slots = cb ? cb->num_slots : 0;
  for (uint32_t i = 0; arg_bindings && i < num_args; i++)
    if (arg_bindings[i] >= 0) {
      if (r->args[i].kind != hal_arg_address || r->args[i].space != hal_space_global)
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: argument %u has binding slot %d but is no global buffer", who,
                           i, (int)arg_bindings[i]);
      if ((uint32_t)arg_bindings[i] >= 65536)
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: argument %u: binding slot %d (at most 65535)", who, i,
                           (int)arg_bindings[i]);
      if ((uint32_t)arg_bindings[i] + 1 > slots) slots = (uint32_t)arg_bindings[i] + 1;
    }
  int rc;
  rvhal_cb_op_t *o = add_op(cb, who + strlen("command_buffer_"), RVHAL_CB_KERNEL, &rc);
  if (!o) return rc;
  if (arg_bindings) {
    if (!(o->bindings = malloc((num_args + 1) * sizeof *o->bindings)))
      return rvhal_error(RVHAL_HOST_IO, "%s: out of host memory for %u arguments", who, num_args);
    memcpy(o->bindings, arg_bindings, num_args * sizeof *o->bindings);
  }
  o->launch = r;
  rvhal_command_list_t *l = &cb->list;
  if (l->program && l->program != r->program) l->several_programs = 1;
  l->program = r->program;
  cb->num_slots = slots;
  l->num_ops++;
  return RVHAL_OK;
}

int rvhal_command_buffer_kernel(rvhal_command_buffer_t *cb, hal_program_t program, hal_kernel_t kernel,
                                const hal_ndrange_t *ndrange, const hal_arg_t *args, uint32_t num_args,
                                uint32_t work_dim, const rvhal_launch_options_t *options, const int32_t *arg_bindings) {
  static const char who[] = "command_buffer_kernel";
  if (num_args > RVHAL_META_MAX_ARGS)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: %u arguments, at most %u", who, num_args, RVHAL_META_MAX_ARGS);
  rvhal_launch_request_t *r;
  RVHAL_RETURN_IF_ERROR(
      rvhal_launch_request_make(who, program, kernel, ndrange, args, num_args, work_dim, options, &r));
  int rc = add_launch(cb, who, r, arg_bindings);
  if (rc) rvhal_launch_request_release(r);
  return rc;
}

int rvhal_command_buffer_launch(rvhal_command_buffer_t *cb, const rvhal_launch_request_t *request,
                                const int32_t *arg_bindings) {
  static const char who[] = "command_buffer_launch";
  if (!request) return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: request is NULL", who);
  rvhal_launch_request_retain(request);
  int rc = add_launch(cb, who, request, arg_bindings);
  if (rc) rvhal_launch_request_release(request);
  return rc;
}

int rvhal_command_buffer_copy(rvhal_command_buffer_t *cb, hal_addr_t dst, hal_addr_t src, hal_size_t size) {
  int rc;
  rvhal_cb_op_t *o = add_op(cb, "copy", RVHAL_CB_COPY, &rc);
  if (!o) return rc;
  o->dst = dst;
  o->src = src;
  o->size = size;
  cb->list.num_ops++;
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
  cb->list.num_ops++;
  return RVHAL_OK;
}

int rvhal_command_buffer_barrier(rvhal_command_buffer_t *cb) {
  int rc;
  if (!add_op(cb, "barrier", RVHAL_CB_BARRIER, &rc)) return rc;
  cb->list.num_ops++;
  return RVHAL_OK;
}

int rvhal_command_buffer_end(rvhal_command_buffer_t *cb) {
  if (!cb) return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_end: command buffer is NULL");
  if (cb->ended) return rvhal_error(RVHAL_INVALID_ARGUMENT, "command_buffer_end: recording has ended already");
  cb->ended = 1;
  return RVHAL_OK;
}

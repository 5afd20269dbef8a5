/* Launch requests (launch_request.h): made once, with one allocation that
 * holds the request, its arguments, their POD values and the argument
 * types; shared by reference. */
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"
#include "launch/launch_request.h"

/* A POD value larger than this is refused when a request copies it. */
#define REQUEST_POD_MAX 4096

int rvhal_launch_request_make(const char *who, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *ndrange,
                              const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                              const rvhal_launch_options_t *options, rvhal_launch_request_t **out_request) {
  *out_request = NULL;
  if (!ndrange) return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: ndrange is NULL", who);
  if (num_args && !args) return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: %u arguments but args is NULL", who, num_args);
  size_t pod_bytes = 0;
  for (uint32_t i = 0; i < num_args; i++)
    if (args[i].kind == hal_arg_value) {
      if (args[i].size > REQUEST_POD_MAX || (args[i].size && !args[i].pod_data))
        return rvhal_error(RVHAL_INVALID_ARGUMENT, "%s: argument %u: value of %llu bytes at %p", who, i,
                           (unsigned long long)args[i].size, args[i].pod_data);
      pod_bytes += (size_t)args[i].size;
    }
  const size_t types = options && options->arg_types ? num_args : 0;
  rvhal_launch_request_t *r = malloc(sizeof *r + (size_t)num_args * sizeof(hal_arg_t) + types + pod_bytes);
  if (!r) return rvhal_error(RVHAL_HOST_IO, "%s: out of host memory for %u arguments", who, num_args);
  hal_arg_t *a = (hal_arg_t *)(r + 1);
  uint8_t *type = (uint8_t *)(a + num_args), *pod = type + types;
  for (uint32_t i = 0; i < num_args; i++) {
    a[i] = args[i];
    if (args[i].kind == hal_arg_value && args[i].size) {
      memcpy(pod, args[i].pod_data, (size_t)args[i].size);
      a[i].pod_data = pod;
      pod += args[i].size;
    }
  }
  *r = (rvhal_launch_request_t){.refs = 1, .program = program, .kernel = kernel, .ndrange = *ndrange,
                                .work_dim = work_dim, .num_args = num_args, .args = a};
  if (options) {
    r->own_options = *options;
    if (types) {
      memcpy(type, options->arg_types, types);
      r->own_options.arg_types = type;
    }
    r->options = &r->own_options;
  }
  *out_request = r;
  return RVHAL_OK;
}

rvhal_launch_request_t rvhal_launch_request_view(hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                                                 const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                                                 const rvhal_launch_options_t *options) {
  rvhal_launch_request_t r = {.program = program, .kernel = kernel, .work_dim = work_dim, .num_args = num_args,
                              .args = args, .options = options};
  if (nd) r.ndrange = *nd;
  return r;
}

rvhal_launch_request_t rvhal_launch_request_bind(const rvhal_launch_request_t *r, const int32_t *bindings,
                                                 const hal_addr_t *values, hal_arg_t *args) {
  for (uint32_t i = 0; i < r->num_args; i++) {
    args[i] = r->args[i];
    if (bindings && bindings[i] >= 0) args[i].address = values[bindings[i]];
  }
  rvhal_launch_request_t v = *r;
  v.refs = 0;
  v.args = args;
  return v;
}

int rvhal_launch_request_create(hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *ndrange,
                                const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                                const rvhal_launch_options_t *options, rvhal_launch_request_t **out_request) {
  rvhal_clear_error();
  if (!out_request) return rvhal_error(RVHAL_INVALID_ARGUMENT, "launch_request_create: out_request is NULL");
  return rvhal_launch_request_make("launch_request_create", program, kernel, ndrange, args, num_args, work_dim,
                                   options, out_request);
}

void rvhal_launch_request_retain(const rvhal_launch_request_t *r) {
  if (r && r->refs) __atomic_fetch_add(&((rvhal_launch_request_t *)r)->refs, 1, __ATOMIC_RELAXED);
}

void rvhal_launch_request_release(const rvhal_launch_request_t *r) {
  if (r && r->refs && __atomic_sub_fetch(&((rvhal_launch_request_t *)r)->refs, 1, __ATOMIC_ACQ_REL) == 0)
    free((void *)r);
}

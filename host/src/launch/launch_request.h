/* A launch request inside the library (rvhal/device.h is the API): one
 * typed, immutable description of a launch, read by the launch module and
 * shared by reference by what holds a launch for later (a queue's command,
 * a command buffer's recorded launch, the OpenCL platform's held launch).
 * A view describes the caller's own arrays for the length of one call
 * (rvhal_kernel_exec_ex): nothing is copied, nothing is freed. */
#ifndef RVHAL_HOST_LAUNCH_REQUEST_H
#define RVHAL_HOST_LAUNCH_REQUEST_H

#include <stdint.h>

#include "rvhal/device.h"

struct rvhal_launch_request {
  uint32_t refs; /* 0: a view */
  hal_program_t program;
  hal_kernel_t kernel;
  hal_ndrange_t ndrange;
  uint32_t work_dim, num_args;
  const hal_arg_t *args;                 /* POD values point into the request (a view: the caller's) */
  const rvhal_launch_options_t *options; /* NULL: the defaults; else &own_options, or the caller's in a view */
  rvhal_launch_options_t own_options;    /* arg_types point into the request */
};

/* A request holding copies of everything given (POD values, options and
 * their arg_types); errors name the call `who` ("enqueue_kernel: ..."). */
int rvhal_launch_request_make(const char *who, hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *ndrange,
                              const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                              const rvhal_launch_options_t *options, rvhal_launch_request_t **out_request);
/* A view of the caller's arrays (valid while they are). */
rvhal_launch_request_t rvhal_launch_request_view(hal_program_t program, hal_kernel_t kernel, const hal_ndrange_t *nd,
                                                 const hal_arg_t *args, uint32_t num_args, uint32_t work_dim,
                                                 const rvhal_launch_options_t *options);
/* A view of r with its global-buffer arguments re-bound: argument i takes
 * the address values[bindings[i]] where bindings[i] >= 0 (bindings NULL:
 * none). args has room for r's arguments and holds them. */
rvhal_launch_request_t rvhal_launch_request_bind(const rvhal_launch_request_t *r, const int32_t *bindings,
                                                 const hal_addr_t *values, hal_arg_t *args);

#endif /* RVHAL_HOST_LAUNCH_REQUEST_H */

/* print(): format on the work-item's stack with the firmware's formatter,
 * then hand the whole text to the firmware as one record. */
#include <stdarg.h>

#include "kernel_if.h"

#define PRINT_BUF 512

int print(exec_state_t *e, const char *fmt, ...) {
  const rvhal_call_info_t *ci = e->group->ci;
  char buf[PRINT_BUF];
  va_list ap;
  va_start(ap, fmt);
  int n = rvhal_svc_vformat(ci, buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n < 0) return n;
  uint32_t flags = 0, len = (uint32_t)n;
  if (len >= sizeof buf) {
    len = sizeof buf - 1;
    flags |= RVHAL_PRINT_TRUNCATED;
  }
  /* The ND-range as enqueued (the launch's descriptor): a non-uniform
   * range's last groups run with their own local_size and offset. */
  const rvhal_launch_desc_t *l = ci->launch;
  uint64_t gx = (size_t)(e->global_base[0] + e->local_id[0] - (size_t)l->global_offset[0]);
  uint64_t gy = (size_t)(e->global_base[1] + e->local_id[1] - (size_t)l->global_offset[1]);
  uint64_t gz = (size_t)(e->global_base[2] + e->local_id[2] - (size_t)l->global_offset[2]);
  uint64_t sx = l->global_size[0], sy = l->global_size[1];
  rvhal_svc_print(ci, gx + sx * (gy + sy * gz), buf, len, flags);
  return n;
}

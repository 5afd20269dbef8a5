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
  const hal_sched_info_t *s = e->group->s;
  uint64_t gx = e->global_base[0] + e->local_id[0] - s->global_offset[0];
  uint64_t gy = e->global_base[1] + e->local_id[1] - s->global_offset[1];
  uint64_t gz = e->global_base[2] + e->local_id[2] - s->global_offset[2];
  uint64_t sx = (uint64_t)s->num_groups_total[0] * s->local_size[0], sy = (uint64_t)s->num_groups_total[1] * s->local_size[1];
  rvhal_svc_print(ci, gx + sx * (gy + sy * gz), buf, len, flags);
  return n;
}

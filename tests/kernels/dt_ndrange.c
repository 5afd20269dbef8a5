/* Device test (tests/device/ndrange.c): every work-item records what the
 * get_* builtins tell it, in the slot of its linear global position, and
 * counts itself there; an item whose ids point outside the ND-range counts
 * in count[total] instead. */
#include "dt_shared.h"
#include "kernel_if.h"

typedef struct {
  __global uint64_t *rec; /* NDR_FIELDS per item */
  __global uint *count;   /* total + 1 counters */
  uint64_t total;         /* items in the ND-range */
} ndr_args;

static void ndr_item(const ndr_args *a, exec_state_t *e) {
  uint64_t rel[3];
  for (uint d = 0; d < 3; d++) rel[d] = (uint64_t)(get_global_id(d, e) - get_global_offset(d, e));
  uint64_t pos = rel[0] + (uint64_t)get_global_size(0, e) * (rel[1] + (uint64_t)get_global_size(1, e) * rel[2]);
  if (pos >= a->total) {
    atomic_inc(&a->count[a->total]);
    return;
  }
  __global uint64_t *r = a->rec + pos * NDR_FIELDS;
  for (uint d = 0; d < 3; d++) {
    r[0 + d] = get_global_id(d, e);
    r[3 + d] = get_local_id(d, e);
    r[6 + d] = get_group_id(d, e);
    r[9 + d] = get_global_size(d, e);
    r[12 + d] = get_local_size(d, e);
    r[15 + d] = get_num_groups(d, e);
    r[18 + d] = get_global_offset(d, e);
  }
  r[21] = get_work_dim(e);
  /* Ranks past 2: ids 0, sizes 1 (OpenCL). */
  r[22] = (uint64_t)(get_global_id(3, e) | get_local_id(3, e) | get_group_id(3, e) | get_global_offset(3, e));
  r[23] = (uint64_t)get_local_size(3, e) | (uint64_t)get_num_groups(3, e) << 16 | (uint64_t)get_global_size(3, e) << 32;
  r[24] = get_local_linear_id(e);
  r[25] = e->group->ci->hart_index;
  r[26] = NDR_MAGIC; /* a record was written */
  r[27] = 0;
  atomic_inc(&a->count[pos]);
}

RVHAL_KERNEL(ndrange_record, ndr_args, ndr_item, RVHAL_GLOBAL(rec), RVHAL_GLOBAL(count), RVHAL_VALUE(total))

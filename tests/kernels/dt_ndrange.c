/* Device test (tests/device/ndrange.c): every work-item records what the
 * get_* builtins tell it, in the slot of its linear global position, and
 * counts itself there; an item whose ids point outside the ND-range counts
 * in count[total] instead. ndrange_local: barriers and local memory, in
 * the last, smaller groups of a non-uniform ND-range too. */
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
  for (uint d = 0; d < 3; d++) r[28 + d] = get_enqueued_local_size(d, e);
  atomic_inc(&a->count[pos]);
}

RVHAL_KERNEL(ndrange_record, ndr_args, ndr_item, RVHAL_GLOBAL(rec), RVHAL_GLOBAL(count), RVHAL_VALUE(total))

/* Each round, every item of the group writes its round-tagged global
 * position into the group's local buffer at its local linear id, waits at
 * a barrier, reads its neighbour's (the next local linear id, wrapping at
 * the group's own size: get_local_size), waits again; out[pos] is the sum
 * of what it read. An item that passed a barrier too early (counting the
 * enqueued size, say) reads a stale or missing value; one that waited for
 * items that do not exist hangs or stops the launch. */
typedef struct {
  __global uint64_t *out;
  uintptr_t scratch; /* local: 8 bytes per work-item */
} ndr_local_args;

static void ndr_local_item(const ndr_local_args *a, exec_state_t *e) {
  __local uint64_t *mine = (__local uint64_t *)rvhal_local_arg(e, 0);
  const size_t n = get_local_size(0, e) * get_local_size(1, e) * get_local_size(2, e);
  const size_t me = get_local_linear_id(e);
  uint64_t rel[3];
  for (uint d = 0; d < 3; d++) rel[d] = (uint64_t)(get_global_id(d, e) - get_global_offset(d, e));
  const uint64_t pos = rel[0] + (uint64_t)get_global_size(0, e) * (rel[1] + (uint64_t)get_global_size(1, e) * rel[2]);
  uint64_t sum = 0;
  for (uint r = 1; r <= NDR_LOCAL_ROUNDS; r++) {
    mine[me] = pos * 16 + r;
    barrier(e);
    sum += mine[(me + 1) % n];
    barrier(e);
  }
  a->out[pos] = sum;
}

RVHAL_KERNEL(ndrange_local, ndr_local_args, ndr_local_item, RVHAL_GLOBAL(out), RVHAL_LOCAL(scratch))

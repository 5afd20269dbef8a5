/* Kernels for rvhal-bench. */
#include "kernel_if.h"

/* A work-item that does nothing: all it costs is the runtime's. */
typedef struct {
  uint unused;
} nothing_args;

static void nothing_item(const nothing_args *a, exec_state_t *e) {
  (void)a;
  (void)e;
}

RVHAL_KERNEL(bench_nothing, nothing_args, nothing_item, RVHAL_VALUE(unused))

/* `rounds` barriers per work-item and nothing else. */
typedef struct {
  uint rounds;
} barriers_args;

static void barriers_item(const barriers_args *a, exec_state_t *e) {
  for (uint i = 0; i < a->rounds; i++) barrier(e);
}

RVHAL_KERNEL(bench_barriers, barriers_args, barriers_item, RVHAL_VALUE(rounds))

/* vector_add through the SDK: one element per work-item. */
typedef struct {
  __global const uint *a, *b;
  __global uint *c;
} vadd_args;

static void vadd_item(const vadd_args *p, exec_state_t *e) {
  size_t i = get_global_id(0, e);
  p->c[i] = p->a[i] + p->b[i];
}

RVHAL_KERNEL(bench_vadd, vadd_args, vadd_item, RVHAL_GLOBAL(a), RVHAL_GLOBAL(b), RVHAL_GLOBAL(c))

/* The same loop straight on the ABI entry, without the SDK: each group is
 * a contiguous slice of `per_group` elements. The baseline for the SDK's
 * cost. RVHAL_KERNEL_META declares its arguments, so launches are checked. */
void bench_vadd_direct(void *args, const hal_sched_info_t *sched);

typedef struct {
  __global const uint *a, *b;
  __global uint *c;
  uint64_t per_group; /* packed as an 8-byte value: 8-aligned on RV32 too */
} vadd_direct_args;

RVHAL_KERNEL_META(bench_vadd_direct, vadd_direct_args, RVHAL_GLOBAL(a), RVHAL_GLOBAL(b), RVHAL_GLOBAL(c),
                  RVHAL_VALUE(per_group))

void bench_vadd_direct(void *args, const hal_sched_info_t *sched) {
  const vadd_direct_args *p = args;
  const size_t per_group = (size_t)p->per_group;
  for (size_t g = 0; g < sched->num_groups_per_call[0]; g++) {
    size_t start = (sched->group_id_start[0] + g) * per_group;
    for (size_t i = start; i < start + per_group; i++) p->c[i] = p->a[i] + p->b[i];
  }
}

/* `rounds` rounds of `work` steps of arithmetic, a barrier after each round
 * (none when rounds is 0: then `work` steps once): work between barriers
 * against barriers, for choosing how many harts share a group. */
typedef struct {
  __global uint *out;
  uint work, rounds;
} work_args;

static void work_item(const work_args *a, exec_state_t *e) {
  uint acc = (uint)get_global_id(0, e);
  uint rounds = a->rounds ? a->rounds : 1;
  for (uint r = 0; r < rounds; r++) {
    for (uint i = 0; i < a->work; i++) acc = acc * 1664525u + 1013904223u;
    if (a->rounds) barrier(e);
  }
  a->out[get_global_id(0, e)] = acc;
}

RVHAL_KERNEL(bench_work, work_args, work_item, RVHAL_GLOBAL(out), RVHAL_VALUE(work), RVHAL_VALUE(rounds))

/* barrier_print (1-D): every work-item prints a "part A" line, meets the
 * rest of its group at a barrier, then prints a "part B" line. Around the
 * barrier each item also counts itself in (before) and reads the group's
 * count (after): past the barrier it must be the whole group. */
#include "kernel_if.h"

__kernel void barrier_print(__global uint *arrived, __global uint *seen, exec_state_t *ctx) {
  uint g = (uint)get_group_id(0, ctx), l = (uint)get_local_id(0, ctx), id = (uint)get_global_id(0, ctx);
  print(ctx, "group %u item %u global %u: part A\n", g, l, id);
  atomic_inc(&arrived[g]);
  barrier(ctx);
  seen[id] = __atomic_load_n(&arrived[g], __ATOMIC_SEQ_CST);
  print(ctx, "group %u item %u global %u: part B\n", g, l, id);
}

typedef struct {
  __global uint *arrived;
  __global uint *seen;
} barrier_print_args;

static void barrier_print_item(const barrier_print_args *a, exec_state_t *e) { barrier_print(a->arrived, a->seen, e); }

RVHAL_KERNEL(barrier_print_entry, barrier_print_args, barrier_print_item, RVHAL_GLOBAL(arrived), RVHAL_GLOBAL(seen))

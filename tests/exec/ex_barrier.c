/* Execution-model tests (tests/exec/barrier_stress.c, context_switches.c,
 * exact_counters.c): barriers under stress, with local memory from a
 * local-buffer argument or from __local_variable storage.
 *
 * ex_stress_arg / ex_stress_var: in each of `rounds` rounds a group makes
 * trips[(group + round) % ntrips] passes (data-dependent, but the same for
 * every item of the group); in each pass every item writes its slot of the
 * tile, waits, mixes its own value with three other items' slots (both
 * neighbours and the item half a group away, which sits on another hart of
 * a team), and waits again. Every value depends on the group, so a group
 * that saw another group's tile, or passed a barrier early, ends with a
 * wrong result; the host recomputes every item's result. */
#include "test_kernel.h"

#define EX_MAX_ITEMS 1024

static inline void stress_body(__global uint *out, __global const uint *trips, uint rounds, uint ntrips,
                               __local volatile uint *tile, exec_state_t *e) {
  const uint n = (uint)(get_local_size(0, e) * get_local_size(1, e) * get_local_size(2, e));
  const uint lid = (uint)get_local_linear_id(e);
  const size_t g = group_linear(e);
  uint acc = (uint)g * 0x9E3779B9u ^ lid * 0x85EBCA6Bu;
  for (uint r = 0; r < rounds; r++) {
    const uint t = trips[(g + r) % ntrips];
    for (uint k = 0; k < t; k++) {
      tile[lid] = acc + r * 7u + k;
      barrier(e);
      acc = acc * 31u + tile[(lid + 1) % n] + 3u * tile[(lid + n - 1) % n] + 5u * tile[(lid + n / 2) % n];
      barrier(e);
    }
  }
  out[g * n + lid] = acc;
}

typedef struct {
  __global uint *out;
  __global const uint *trips;
  uintptr_t tile; /* local buffer: n uints */
  uint rounds;
  uint ntrips;
} ex_stress_arg_args;

static void ex_stress_arg_item(const ex_stress_arg_args *a, exec_state_t *e) {
  stress_body(a->out, a->trips, a->rounds, a->ntrips, rvhal_local_arg(e, 0), e);
}

RVHAL_KERNEL(ex_stress_arg, ex_stress_arg_args, ex_stress_arg_item, RVHAL_GLOBAL(out), RVHAL_GLOBAL(trips),
             RVHAL_LOCAL(tile), RVHAL_VALUE(rounds), RVHAL_VALUE(ntrips))

typedef struct {
  __global uint *out;
  __global const uint *trips;
  uint rounds;
  uint ntrips;
} ex_stress_var_args;

static void ex_stress_var_item(const ex_stress_var_args *a, exec_state_t *e) {
  __local_variable uint tile[EX_MAX_ITEMS];
  stress_body(a->out, a->trips, a->rounds, a->ntrips, tile, e);
}

RVHAL_KERNEL(ex_stress_var, ex_stress_var_args, ex_stress_var_item, RVHAL_GLOBAL(out), RVHAL_GLOBAL(trips),
             RVHAL_VALUE(rounds), RVHAL_VALUE(ntrips))

/* ex_private: groups running at the same time on different harts must have
 * their own local memory, of both kinds. Every round each item stamps its
 * slot of both tiles with (group, round), waits, and checks every slot of
 * both tiles; out[2g] counts the slots that held anything else (0 expected),
 * out[2g+1] the hart that led the group, plus one. */
typedef struct {
  __global uint *out;
  uintptr_t tile; /* local buffer: n uints */
  uint rounds;
} ex_private_args;

static void ex_private_item(const ex_private_args *a, exec_state_t *e) {
  __local_variable uint vtile[EX_MAX_ITEMS];
  __local volatile uint *atile = rvhal_local_arg(e, 0);
  volatile uint *vt = vtile;
  const uint n = (uint)(get_local_size(0, e) * get_local_size(1, e) * get_local_size(2, e));
  const uint lid = (uint)get_local_linear_id(e);
  const size_t g = group_linear(e);
  uint bad = 0;
  for (uint r = 0; r < a->rounds; r++) {
    const uint stamp = (uint)g << 16 | r;
    atile[lid] = stamp;
    vt[lid] = ~stamp;
    barrier(e);
    for (uint i = 0; i < n; i++) bad += (atile[i] != stamp) + (vt[i] != ~stamp);
    barrier(e);
  }
  if (bad) atomic_add(&a->out[2 * g], bad);
  if (lid == 0) a->out[2 * g + 1] = e->group->ci->hart_index + 1;
}

RVHAL_KERNEL(ex_private, ex_private_args, ex_private_item, RVHAL_GLOBAL(out), RVHAL_LOCAL(tile), RVHAL_VALUE(rounds))

/* ex_nobar: no barrier; out[global linear id] = that id + 1. */
typedef struct {
  __global uint *out;
} ex_nobar_args;

static void ex_nobar_item(const ex_nobar_args *a, exec_state_t *e) {
  size_t i = global_linear(e);
  a->out[i] = (uint)i + 1;
}

RVHAL_KERNEL(ex_nobar, ex_nobar_args, ex_nobar_item, RVHAL_GLOBAL(out))

/* ex_bars: exactly `nbar` barriers per item; out[global linear id] = the
 * number of barriers it passed, plus the id times 65536. */
typedef struct {
  __global uint *out;
  uint nbar;
} ex_bars_args;

static void ex_bars_item(const ex_bars_args *a, exec_state_t *e) {
  uint passed = 0;
  for (uint i = 0; i < a->nbar; i++) {
    barrier(e);
    passed++;
  }
  size_t id = global_linear(e);
  a->out[id] = (uint)id << 16 | passed;
}

RVHAL_KERNEL(ex_bars, ex_bars_args, ex_bars_item, RVHAL_GLOBAL(out), RVHAL_VALUE(nbar))

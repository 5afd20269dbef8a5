/* barrier(): no work-item of a group passes it before every work-item of the
 * group reached it.
 *
 * A hart runs its share of a group's items one after the other. The first
 * item runs on the hart's own stack; if it returns without calling barrier()
 * the rest run as a plain loop and nothing here is ever used. At the first
 * barrier() the other items become contexts, each with a small stack from
 * this hart's pool, and the items then take turns: each one that arrives
 * switches to the next, and when the last one arrives (and, in a team, every
 * other hart's last one too) the first resumes past the barrier. A switch
 * saves ra, sp, s0 and s1 only: barrier()'s asm (kernel_if.h) told the
 * compiler every other register is lost. The plain switch to the next item
 * is inline in the kernel (barrier(), kernel_if.h); this file is the rest:
 * the first barrier of a group, the last item of a round, the end of the
 * group. Work-items that do not all reach the same barriers are reported
 * as an error. */
#include <string.h>

#include "kernel_if.h"

void rvhal_context_switch(rvhal_context_t *from, rvhal_context_t *to);
void rvhal_barrier_slow(exec_state_t *e);

/* context_switch.S and barrier()'s asm (kernel_if.h) store and load it so. */
_Static_assert(offsetof(rvhal_context_t, s1) == 3 * sizeof(uintptr_t), "rvhal_context_t is ra, sp, s0, s1");
_Static_assert(offsetof(rvhal_fiber_t, ctx) == 0, "a fresh context's a0 is its rvhal_fiber_t");

#define STACK_CANARY 0x57494B4953544143ull

/* The lowest word of item `slot`'s stack. */
static inline volatile uint64_t *canary_of(const rvhal_group_t *g, uint32_t slot) {
  return (volatile uint64_t *)(g->ci->fiber_pool + (uintptr_t)(slot - 1) * g->ci->fiber_stack_size);
}

static void __attribute__((noreturn, noinline)) divergent(rvhal_group_t *g, const exec_state_t *e) {
  rvhal_svc_fail(g->ci, RVHAL_BARRIER_DIVERGENCE, "work-item (local linear id) out of step",
                        g->first_item + e->slot);
  __builtin_unreachable();
}

/* Turn items 1..n-1 of this hart's share into contexts that start at the
 * kernel's fiber function (g->fiber: RVHAL_FIBER_FN_, the item from its
 * beginning); chain every item to the next. The first group with barriers
 * of a call makes them; each one then runs its item of every later group
 * in a loop, waiting at its end for the next group and taking that
 * group's ids from the first item's state (rvhal_fiber_end_,
 * rvhal_fiber_start_), so later groups only switch them on. */
static void start_fibers(rvhal_group_t *g, exec_state_t *e0) {
  const rvhal_call_info_t *ci = g->ci;
  const uint32_t n = g->num_items;
  if (e0->slot != 0) divergent(g, e0);
  /* Item k's fiber (k >= 1) sits at the top of stack k-1 of the pool. */
  const uintptr_t step = ci->fiber_stack_size;
  const uintptr_t fiber1 = (ci->fiber_pool + step - sizeof(rvhal_fiber_t)) & ~(uintptr_t)15;
#define FIBER_(k) ((rvhal_fiber_t *)(fiber1 + (uintptr_t)((k) - 1) * step))
  g->first = e0;
  if (!g->switches) { /* only ever counted with contexts made: a group of this call ran them */
    if ((uintptr_t)(n - 1) * ci->fiber_stack_size > ci->fiber_pool_size)
      rvhal_svc_fail(ci, RVHAL_LOCAL_MEMORY, "work-group needs more work-item stacks than the hart's pool holds", n);
    const size_t lx = g->s->local_size[0], ly = g->s->local_size[1];
    size_t x = e0->local_id[0], y = e0->local_id[1], z = e0->local_id[2];
    e0->ctx = &g->main_ctx;
    e0->next_ctx = &FIBER_(1)->ctx; /* n >= 2: a lone item never gets here */
    for (uint32_t k = 1; k < n; k++) {
      if (++x == lx) {
        x = 0;
        if (++y == ly) {
          y = 0;
          ++z;
        }
      }
      rvhal_fiber_t *f = FIBER_(k);
      f->e = *e0;
      f->e.local_id[0] = x;
      f->e.local_id[1] = y;
      f->e.local_id[2] = z;
      f->e.self = &f->e;
      f->e.slot = k;
      f->e.slow = k == n - 1;
      f->e.ctx = &f->ctx;
      f->e.next_ctx = k + 1 == n ? &g->main_ctx : &FIBER_(k + 1)->ctx;
      f->ctx.ra = (uintptr_t)g->fiber;
      f->ctx.sp = (uintptr_t)f;
      *canary_of(g, k) = STACK_CANARY;
    }
  }
#undef FIBER_
  g->fibers_on = 1;
  e0->slow = 0; /* its barrier() now switches inline too (n >= 2) */
}

/* Everything barrier() does beyond a plain switch (its asm, kernel_if.h,
 * calls here when e->slow): the group's first barrier, the last arrival of
 * a round, divergence. Returns to the kernel. Items run in turn, so when
 * the last arrives and none returned, every other one waits at a barrier. */
void rvhal_barrier_slow(exec_state_t *e) {
  rvhal_group_t *g = e->group;
  if (!g->fibers_on) {
    if (g->num_items == 1) { /* one item here: only the team to wait for */
      g->barrier_calls++;
      if (g->team) rvhal_svc_team_barrier(g->ci);
      return;
    }
    if (g->plain) divergent(g, e); /* the first item returned without this barrier */
    start_fibers(g, e);
  }
  if (g->finished) divergent(g, e);
  if (e->slot == g->num_items - 1) {
    /* Every item of this hart arrived; in a team, wait for the other harts. */
    g->barrier_calls += g->num_items;
    g->switches += g->num_items;
    if (g->team) rvhal_svc_team_barrier(g->ci);
  }
  rvhal_context_switch(e->ctx, e->next_ctx);
}

/* An item running as a context returned from the kernel while an item
 * before it waits at a barrier (rvhal_fiber_end_, rvhal_kernel.h). */
void rvhal_fiber_out_of_step(const rvhal_fiber_t *f) { divergent(f->e.group, &f->e); }

/* The first item returned after barriers: run the others to their end. */
void rvhal_group_finish_fibers(exec_state_t *e) {
  rvhal_group_t *g = e->group;
  g->finished = 1; /* the first in turn: no item waits yet */
  rvhal_context_switch(e->ctx, e->next_ctx);
  if (g->finished != g->num_items) divergent(g, e);
  g->switches += g->num_items;
  for (uint32_t k = 1; k < g->num_items; k++)
    if (*canary_of(g, k) != STACK_CANARY)
      rvhal_svc_fail(g->ci, RVHAL_STACK_OVERFLOW, "work-item stack overflow; raise the item stack size",
                            g->first_item + k);
  g->fibers_on = 0;
  g->finished = 0;
  e->slow = 1;
}

/* barrier(): no work-item of a group passes it before every work-item of the
 * group reached it.
 *
 * A hart runs its share of a group's items one after the other. The first
 * item runs on the hart's own stack; if it returns without calling barrier()
 * the rest run as a plain loop and nothing here is ever used. At the first
 * barrier() the other items become contexts, each with a small stack from
 * this hart's pool, and the items then take turns: each one that arrives
 * switches to the next, and when the last one arrives (and, in a team, every
 * other hart's last one too) the first resumes past the barrier. Work-items
 * that do not all reach the same barriers are reported as an error. */
#include <string.h>

#include "kernel_if.h"

void rvhal_context_switch(rvhal_context_t *from, rvhal_context_t *to);
void rvhal_fiber_entry(void);
void rvhal_fiber_main(rvhal_fiber_t *f) __attribute__((noreturn));

#define STACK_CANARY 0x57494B4953544143ull

static inline uintptr_t slot_base(const rvhal_group_t *g, uint32_t slot) {
  return g->ci->fiber_pool + (uintptr_t)(slot - 1) * g->ci->fiber_stack_size;
}

static inline rvhal_fiber_t *fiber_of(const rvhal_group_t *g, uint32_t slot) {
  uintptr_t top = slot_base(g, slot) + g->ci->fiber_stack_size;
  return (rvhal_fiber_t *)((top - sizeof(rvhal_fiber_t)) & ~(uintptr_t)15);
}

static inline rvhal_context_t *ctx_of(rvhal_group_t *g, uint32_t slot) {
  return slot ? &fiber_of(g, slot)->ctx : &g->main_ctx;
}

static void __attribute__((noreturn)) divergent(rvhal_group_t *g, const exec_state_t *e) {
  g->ci->services->fail(g->ci, RVHAL_BARRIER_DIVERGENCE, "work-item (local linear id) out of step",
                        g->first_item + e->slot);
  __builtin_unreachable();
}

/* Turn items 1..n-1 of this hart's share into contexts that start at the
 * beginning of the kernel. */
static void start_fibers(rvhal_group_t *g, const exec_state_t *e0) {
  const rvhal_call_info_t *ci = g->ci;
  if (e0->slot != 0) divergent(g, e0);
  if ((uintptr_t)(g->num_items - 1) * ci->fiber_stack_size > ci->fiber_pool_size)
    ci->services->fail(ci, RVHAL_LOCAL_MEMORY, "work-group needs more work-item stacks than the hart's pool holds",
                       g->num_items);
  const size_t lx = g->local_size[0], ly = g->local_size[1];
  for (uint32_t k = 1; k < g->num_items; k++) {
    rvhal_fiber_t *f = fiber_of(g, k);
    uint32_t i = g->first_item + k;
    f->e = *e0;
    f->e.local_id[0] = i % lx;
    f->e.local_id[1] = (i / lx) % ly;
    f->e.local_id[2] = i / (lx * ly);
    f->e.slot = k;
    memset(&f->ctx, 0, sizeof f->ctx);
    f->ctx.ra = (uintptr_t)rvhal_fiber_entry;
    f->ctx.sp = (uintptr_t)f & ~(uintptr_t)15;
    f->ctx.s[0] = (uintptr_t)f;
    *(volatile uint64_t *)slot_base(g, k) = STACK_CANARY;
  }
  g->fibers_on = 1;
}

void barrier(exec_state_t *e) {
  rvhal_group_t *g = e->group;
  const rvhal_call_info_t *ci = g->ci;
  g->barrier_calls++;
  if (g->num_items == 1) {
    if (ci->team_size > 1) ci->services->team_barrier(ci);
    return;
  }
  if (!g->fibers_on) {
    if (g->plain) divergent(g, e); /* the first item returned without this barrier */
    start_fibers(g, e);
  }
  if (g->finished) divergent(g, e);
  uint32_t cur = e->slot, next = cur + 1;
  if (next == g->num_items) {
    /* Every item of this hart arrived; in a team, wait for the other harts. */
    if (g->waiting != g->num_items - 1) divergent(g, e);
    g->waiting = 0;
    next = 0;
    if (ci->team_size > 1) ci->services->team_barrier(ci);
  } else {
    g->waiting++;
  }
  g->switches++;
  rvhal_context_switch(ctx_of(g, cur), ctx_of(g, next));
}

/* An item running as a context returned from the kernel: hand over to the
 * next one; the first item's context, which waits in
 * rvhal_group_finish_fibers, is resumed by the last. */
void rvhal_fiber_main(rvhal_fiber_t *f) {
  rvhal_group_t *g = f->e.group;
  g->fn(g->args, &f->e);
  if (g->waiting) divergent(g, &f->e);
  g->finished++;
  uint32_t next = f->e.slot + 1 == g->num_items ? 0 : f->e.slot + 1;
  g->switches++;
  rvhal_context_switch(&f->ctx, ctx_of(g, next));
  __builtin_unreachable();
}

/* The first item returned after barriers: run the others to their end. */
void rvhal_group_finish_fibers(exec_state_t *e) {
  rvhal_group_t *g = e->group;
  if (g->waiting) divergent(g, e);
  g->finished = 1;
  g->switches++;
  rvhal_context_switch(&g->main_ctx, ctx_of(g, 1));
  if (g->finished != g->num_items) divergent(g, e);
  for (uint32_t k = 1; k < g->num_items; k++)
    if (*(volatile uint64_t *)slot_base(g, k) != STACK_CANARY)
      g->ci->services->fail(g->ci, RVHAL_STACK_OVERFLOW, "work-item stack overflow; raise the fiber stack size",
                            g->first_item + k);
  g->fibers_on = 0;
  g->finished = 0;
}

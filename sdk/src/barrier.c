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
 * saves only callee-saved registers, and the FP ones only when the item
 * used the FPU since it last ran (mstatus.FS). Work-items that do not all
 * reach the same barriers are reported as an error. */
#include <string.h>

#include "kernel_if.h"

void rvhal_context_switch(rvhal_context_t *from, rvhal_context_t *to);
void rvhal_fp_save(rvhal_context_t *ctx);
void rvhal_fp_restore(const rvhal_context_t *ctx);
void rvhal_fiber_entry(void);
void rvhal_fiber_main(rvhal_fiber_t *f) __attribute__((noreturn));

#define STACK_CANARY 0x57494B4953544143ull

/* The lowest word of item `slot`'s stack. */
static inline volatile uint64_t *canary_of(const rvhal_group_t *g, uint32_t slot) {
  return (volatile uint64_t *)(g->ci->fiber_pool + (uintptr_t)(slot - 1) * g->ci->fiber_stack_size);
}

/* Switch from one item to another, with the FP registers when needed:
 * saved when `from` wrote them since it last ran (mstatus.FS dirty),
 * restored when `to` has saved ones that are not in the registers. */
static void switch_to(rvhal_group_t *g, rvhal_context_t *from, rvhal_context_t *to) {
#ifdef __riscv_flen
  unsigned long st = 0;
  if (g->umode) { /* no FS to read: once the FPU is on, every switch saves */
    if (g->ci->fp_live) st = RVHAL_MSTATUS_FS_DIRTY;
  } else {
    __asm__ volatile("csrr %0, sstatus" : "=r"(st));
  }
  if ((st & RVHAL_MSTATUS_FS_DIRTY) == RVHAL_MSTATUS_FS_DIRTY) {
    rvhal_fp_save(from);
    from->fp_saved = 1;
    g->fp_owner = from;
    g->fp_used = 1;
    g->fast = 0; /* from now on a switch may have to restore FP registers: barrier() takes the slow path */
    if (!g->umode) __asm__ volatile("csrc sstatus, %0" ::"r"(RVHAL_MSTATUS_FS_CLEAN_MASK));
  }
  if (to->fp_saved && g->fp_owner != to) {
    rvhal_fp_restore(to);
    g->fp_owner = to;
    if (!g->umode) __asm__ volatile("csrc sstatus, %0" ::"r"(RVHAL_MSTATUS_FS_CLEAN_MASK));
  }
#else
  (void)g;
#endif
  rvhal_context_switch(from, to);
}

static void __attribute__((noreturn, noinline)) divergent(rvhal_group_t *g, const exec_state_t *e) {
  rvhal_svc_fail(g->ci, RVHAL_BARRIER_DIVERGENCE, "work-item (local linear id) out of step",
                        g->first_item + e->slot);
  __builtin_unreachable();
}

/* Turn items 1..n-1 of this hart's share into contexts that start at the
 * beginning of the kernel; chain every item to the next. */
static void start_fibers(rvhal_group_t *g, exec_state_t *e0) {
  const rvhal_call_info_t *ci = g->ci;
  const uint32_t n = g->num_items;
  if (e0->slot != 0) divergent(g, e0);
  if ((uintptr_t)(n - 1) * ci->fiber_stack_size > ci->fiber_pool_size)
    rvhal_svc_fail(ci, RVHAL_LOCAL_MEMORY, "work-group needs more work-item stacks than the hart's pool holds", n);
  /* Item k's fiber (k >= 1) sits at the top of stack k-1 of the pool. */
  const uintptr_t step = ci->fiber_stack_size;
  const uintptr_t fiber1 = (ci->fiber_pool + step - sizeof(rvhal_fiber_t)) & ~(uintptr_t)15;
#define FIBER_(k) ((rvhal_fiber_t *)(fiber1 + (uintptr_t)((k) - 1) * step))
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
    f->e.last = k == n - 1;
    f->e.ctx = &f->ctx;
    f->e.next_ctx = k + 1 == n ? &g->main_ctx : &FIBER_(k + 1)->ctx;
    f->ctx.ra = (uintptr_t)rvhal_fiber_entry;
    f->ctx.sp = (uintptr_t)f;
    f->ctx.s[0] = (uintptr_t)f;
#ifdef __riscv_flen
    f->ctx.fp_saved = 0;
#endif
    *canary_of(g, k) = STACK_CANARY;
  }
#undef FIBER_
#ifdef __riscv_flen
  g->main_ctx.fp_saved = 0;
  g->fp_owner = 0;
  g->fp_used = 0;
#endif
  g->fibers_on = 1;
  g->fast = 1;
}

/* Everything barrier() does beyond a plain switch: the group's first
 * barrier, the last arrival of a round, items using the FPU, divergence. */
static void __attribute__((noinline)) barrier_slow(exec_state_t *e) {
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
  if (e->last) {
    /* Every item of this hart arrived; in a team, wait for the other harts. */
    if (g->waiting != g->num_items - 1) divergent(g, e);
    g->waiting = 0;
    g->barrier_calls += g->num_items;
    g->switches += g->num_items;
    if (g->team) rvhal_svc_team_barrier(g->ci);
  } else {
    g->waiting++;
  }
  switch_to(g, e->ctx, e->next_ctx);
}

void rvhal_barrier(exec_state_t *e) {
  rvhal_group_t *g = e->group;
  /* FP registers to save (once saved, fp_used cleared g->fast: switch_to) */
  int32_t st = 0; /* as lw loads fp_live: no extension on the fast path */
#ifdef __riscv_flen
  if (g->umode) {
    st = (int32_t)g->ci->fp_live;
  } else {
    unsigned long fs;
    __asm__ volatile("csrr %0, sstatus" : "=r"(fs));
    st = (fs & RVHAL_MSTATUS_FS_DIRTY) == RVHAL_MSTATUS_FS_DIRTY;
  }
#endif
  if (__builtin_expect(!g->fast || e->last || st, 0)) {
    barrier_slow(e);
    return;
  }
  g->waiting++;
  rvhal_context_switch(e->ctx, e->next_ctx);
}

/* An item running as a context returned from the kernel: hand over to the
 * next one; the first item's context, which waits in
 * rvhal_group_finish_fibers, is resumed by the last. */
void rvhal_fiber_main(rvhal_fiber_t *f) {
  rvhal_group_t *g = f->e.group;
  g->fn(g->args, &f->e);
  if (g->waiting) divergent(g, &f->e);
  g->finished++;
  g->fast = 0; /* a barrier now means an item is out of step */
  switch_to(g, f->e.ctx, f->e.next_ctx);
  __builtin_unreachable();
}

/* The first item returned after barriers: run the others to their end. */
void rvhal_group_finish_fibers(exec_state_t *e) {
  rvhal_group_t *g = e->group;
  if (g->waiting) divergent(g, e);
  g->finished = 1;
  g->fast = 0; /* a barrier now means an item is out of step */
  switch_to(g, e->ctx, e->next_ctx);
  if (g->finished != g->num_items) divergent(g, e);
  g->switches += g->num_items;
  for (uint32_t k = 1; k < g->num_items; k++)
    if (*canary_of(g, k) != STACK_CANARY)
      rvhal_svc_fail(g->ci, RVHAL_STACK_OVERFLOW, "work-item stack overflow; raise the item stack size",
                            g->first_item + k);
  g->fibers_on = 0;
  g->finished = 0;
}

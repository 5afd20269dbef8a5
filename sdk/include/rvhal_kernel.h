/* rvhal kernel SDK: the runtime a kernel links with. It turns the ABI entry
 *
 *     void name(void *args, const hal_sched_info_t *sched);
 *
 * into calls of a per-work-item function, the way clik kernels are written.
 * One line per kernel, repeating its parameters, generates the argument
 * struct, the entry point vector_add_entry and the metadata the host checks
 * launches against (kinds, sizes, offsets and value types):
 *
 *     __kernel void vector_add(__global uint *a, __global uint *b, __global uint *c,
 *                              exec_state_t *e) { ... }
 *     RVHAL_KERNEL_ENTRY(vector_add, RVHAL_GLOBAL(uint *, a), RVHAL_GLOBAL(uint *, b),
 *                        RVHAL_GLOBAL(uint *, c))
 *
 * (RVHAL_LOCAL(float *, tile) for a local buffer, RVHAL_VALUE(float, alpha)
 * for a value.) The older form, RVHAL_KERNEL, takes a hand-written struct
 * and item function; both make the same kind of entry.
 *
 * A group whose work-items never call barrier() runs as a plain loop; the
 * first barrier() turns the rest of the group into light contexts (one small
 * stack each) that switch at every barrier. Local memory (local-buffer
 * arguments and __local_variable) lives on the stack of the hart that leads
 * the group. See docs/kernels.md. */
#ifndef RVHAL_KERNEL_H
#define RVHAL_KERNEL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "rvhal/hal_sched_info.h"
#include "rvhal/rvhal_kernel_abi.h"
#include "rvhal_kernel_foreach.h"
#include "rvhal/rvhal_kernel_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A work-item suspended at barrier(): where it resumes, its stack, and s0
 * and s1 (GCC's frame pointer, LLVM's frame and base pointers: the
 * compilers cannot spill those). The compiler keeps anything else the item
 * needs on that stack: barrier() tells it every other register is clobbered
 * (RVHAL_CLOBBER_ALL_). */
typedef struct rvhal_context {
  uintptr_t ra, sp, s0, s1;
} rvhal_context_t;

struct exec_state;
struct rvhal_fiber;
typedef void (*rvhal_item_fn_t)(const void *args, struct exec_state *e);
/* A kernel's work-item run as a context (RVHAL_FIBER_FN_): a fresh
 * context starts there, with a0 = its rvhal_fiber_t, and never returns. */
typedef void (*rvhal_fiber_fn_t)(struct rvhal_fiber *f);

/* What the work-items of a group share, for all the groups of one kernel
 * call (on this hart's stack). */
typedef struct rvhal_group {
  const hal_sched_info_t *s; /* sizes, numbers of groups, offset, dimensions */
  const rvhal_call_info_t *ci;
  const void *args;
  rvhal_fiber_fn_t fiber;
  /* This hart's share of a group's work-items, in local linear order. */
  uint32_t first_item, num_items;
  uint32_t team;          /* several harts run each group */
  uint32_t team_local;    /* ... and share local memory: they sync at each group's start and end */
  uint32_t counting;      /* the launch records counters */
  /* Barrier state: fibers_on once the first barrier() turned the group's
   * items into contexts. */
  uint32_t fibers_on;
  uint32_t plain;         /* items after the first run as a plain loop: no barrier allowed */
  uint32_t finished;      /* items that returned, in turn (the first, then the next...) */
  uint32_t barrier_calls; /* barrier() calls by this hart's items, this call */
  uint32_t switches;      /* context switches, this call */
  rvhal_context_t main_ctx;  /* the first item's context (on the hart stack) */
  const struct exec_state *first; /* the first item's state: the current group's ids, for the contexts */
  void *tls;                 /* __local_variable block (tp) */
  void *local_args[RVHAL_MAX_LOCAL_ARGS];
} rvhal_group_t;

/* One work-item's view: its ids, the call's sizes and its group. The sizes
 * are filled only in the copies a C SDK kernel runs on (RVHAL_ITEM_VIEW_,
 * rvhal_rows), so that the compiler holds them in registers there; the
 * SDK's own state leaves them unset (read group->s). */
typedef struct exec_state {
  size_t local_id[3];
  size_t group_id[3];
  size_t global_base[3]; /* group_id * local_size + global_offset */
  size_t local_size[3];
  size_t num_groups[3];  /* in the ND-range, a non-uniform one's smaller last groups counted */
  size_t global_size[3]; /* the ND-range as enqueued */
  rvhal_group_t *group;
  struct exec_state *self; /* the SDK's own state of this item: barrier() acts on it, not on a copy */
  uint32_t slot;         /* index among this hart's items of the group */
  uint32_t slow;         /* its barrier() is more than a switch: the last of them (which releases the
                            others), or the first while the group runs no contexts */
  struct rvhal_context *ctx, *next_ctx; /* its context and the next item's */
} exec_state_t;

/* A work-item running as a context: its saved registers and its ids, kept at
 * the top of its stack. */
typedef struct rvhal_fiber {
  rvhal_context_t ctx;
  exec_state_t e;
} rvhal_fiber_t;

/* Library side (sdk/src). */
size_t rvhal_local_block_size(const void *args, const hal_sched_info_t *s);
void rvhal_call_start(rvhal_group_t *g, const void *args, const hal_sched_info_t *s, rvhal_fiber_fn_t fiber,
                      void *local_block);
void rvhal_group_init_tls(rvhal_group_t *g);
void rvhal_group_finish_fibers(exec_state_t *e);
void rvhal_fiber_out_of_step(const rvhal_fiber_t *f) __attribute__((noreturn));
void rvhal_group_end_team(rvhal_group_t *g);
void rvhal_call_end(rvhal_group_t *g, uint64_t groups);
extern char __tdata_start[], __tdata_end[], __tbss_end[]; /* kernel.ld: the __local_variable block */
/* The firmware's services, by ecall (U-mode) or call (sdk/src/services.c). */
void rvhal_svc_team_barrier(const rvhal_call_info_t *ci);
void rvhal_svc_print(const rvhal_call_info_t *ci, uint64_t item, const char *text, uint32_t len, uint32_t flags);
int rvhal_svc_vformat(const rvhal_call_info_t *ci, char *buf, size_t cap, const char *fmt, va_list ap);
/* Stops the launch; `status` is the kernel's code, data to the host
 * (RVHAL_ECALL_FAIL, abi/rvhal/rvhal_ecall.h). */
void rvhal_svc_fail(const rvhal_call_info_t *ci, int32_t status, const char *detail, uint64_t value)
    __attribute__((noreturn));


/* Context switches as asm text, shared by barrier() (kernel_if.h) and the
 * end of an item (RVHAL_FIBER_FN_). Every switch jumps with a0 = the
 * context it resumes: a fresh one, whose context is the first member of
 * its rvhal_fiber_t, takes that as its argument. */
#if __riscv_xlen == 64
#define RVHAL_SREG_ "sd"
#define RVHAL_LREG_ "ld"
#define RVHAL_SZREG_ "8"
#else
#define RVHAL_SREG_ "sw"
#define RVHAL_LREG_ "lw"
#define RVHAL_SZREG_ "4"
#endif
/* Save this context at t3 to resume at local label 7 (which follows), then
 * resume the one at a0.
 *
 * Items run in step, so the next item mostly waits where this one last
 * resumed: at this same switch (a barrier in a loop), or at the switch
 * before it in the program (the next item of a kernel with two barriers
 * waits at the first when this one leaves at the second; an item that
 * returns hands on to one at the last barrier). The switch compares the
 * resume address with both labels and, if one is equal, jumps there
 * directly: QEMU chains a direct jump, but resolves an indirect one (jr)
 * through a lookup of the next translation block at every switch. */
#define RVHAL_SWITCH_T3_A0_                                                                       \
  "lla t4, 7f\n\t" RVHAL_SREG_ " t4, 0(t3)\n\t" RVHAL_SREG_ " sp, " RVHAL_SZREG_ "(t3)\n\t"       \
  RVHAL_SREG_ " s0, 2*" RVHAL_SZREG_ "(t3)\n\t" RVHAL_SREG_ " s1, 3*" RVHAL_SZREG_ "(t3)\n\t"     \
  RVHAL_LREG_ " t2, 0(a0)\n\t" RVHAL_LREG_ " sp, " RVHAL_SZREG_ "(a0)\n\t" RVHAL_LREG_ " s0, 2*"   \
  RVHAL_SZREG_ "(a0)\n\t" RVHAL_LREG_ " s1, 3*" RVHAL_SZREG_ "(a0)\n\t"                             \
  "beq t2, t4, 7f\n\tlla t4, 7b\n\tbne t2, t4, 3f\n\tj 7b\n3:\n\tjr t2\n\t"
/* The label 7 the first switch of a file compares with (it resumes
 * nothing: the comparison fails there). */
__asm__(".pushsection .text\n7:\n.popsection");

/* The clobbers of an asm that calls code which may switch work-items:
 * every register a switch does not keep (all but sp, s0, s1, gp and tp), so
 * that the compiler keeps across it, on the item's own stack, only the
 * values the kernel still needs, integer, FP or vector alike. */
#define RVHAL_CLOBBER_CALLER_ "memory", "ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a1", "a2", "a3", "a4", \
    "a5", "a6", "a7"
#define RVHAL_CLOBBER_S_ "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"
#ifdef __riscv_flen
#define RVHAL_CLOBBER_FP_ , "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9", "ft10", "ft11", \
    "fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs0", "fs1", "fs2", "fs3", "fs4", "fs5", "fs6",   \
    "fs7", "fs8", "fs9", "fs10", "fs11"
#else
#define RVHAL_CLOBBER_FP_
#endif
#ifdef __riscv_vector
#define RVHAL_CLOBBER_V_ , "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", \
    "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28",      \
    "v29", "v30", "v31"
#else
#define RVHAL_CLOBBER_V_
#endif
#define RVHAL_CLOBBER_ALL_ RVHAL_CLOBBER_CALLER_, RVHAL_CLOBBER_S_ RVHAL_CLOBBER_FP_ RVHAL_CLOBBER_V_

/* rvhal_group_finish_fibers(e) from the entry: it keeps the integer
 * callee-saved registers, as any C function, but the items it runs use the
 * FP and vector registers as they like. Out of line, so that only a group
 * that ran contexts saves the entry's FP registers (in this function's
 * prologue), not every call of the entry. */
static __attribute__((noinline, unused)) void rvhal_finish_fibers_(exec_state_t *e) {
  register exec_state_t *a0 __asm__("a0") = e;
  __asm__ volatile("call rvhal_group_finish_fibers" : "+r"(a0) : : RVHAL_CLOBBER_CALLER_ RVHAL_CLOBBER_FP_ RVHAL_CLOBBER_V_);
}

typedef void (*rvhal_rows_fn_t)(const void *args, const exec_state_t *e);

/* A work-item about to run as a context takes the current group's ids from
 * the first item's state: the contexts of one hart are made once per call
 * (barrier.c, start_fibers) and each one waits at its end for the next
 * group (rvhal_fiber_end_), so that no loop over the items runs per group. */
static inline __attribute__((always_inline)) void rvhal_fiber_start_(rvhal_fiber_t *f) {
  const exec_state_t *e0 = f->e.group->first;
  /* Word by word: as a loop, GCC made it two memmove calls. */
  f->e.group_id[0] = e0->group_id[0];
  f->e.group_id[1] = e0->group_id[1];
  f->e.group_id[2] = e0->group_id[2];
  f->e.global_base[0] = e0->global_base[0];
  f->e.global_base[1] = e0->global_base[1];
  f->e.global_base[2] = e0->global_base[2];
}

/* Switch from the item f, which returned, to the next item; resumed when
 * the group after runs its items as contexts too. The clobbers are
 * barrier()'s (kernel_if.h). */
static inline __attribute__((always_inline)) void rvhal_fiber_switch_asm_(rvhal_fiber_t *f) {
  register rvhal_fiber_t *a0 __asm__("a0") = f; /* its context is its first member */
  __asm__ volatile("mv t3, a0\n\t" RVHAL_LREG_ " a0, %[next](a0)\n\t" RVHAL_SWITCH_T3_A0_ "7:"
                   : "+r"(a0)
                   : [next] "i"(offsetof(rvhal_fiber_t, e) + offsetof(exec_state_t, next_ctx))
                   : RVHAL_CLOBBER_ALL_);
}
#ifdef __riscv_vector
/* With V a real call, as barrier(): vl and vtype cannot be named as
 * clobbered, and the fiber's loop must not keep them across the switch. */
static __attribute__((noinline, unused)) void rvhal_fiber_switch_(rvhal_fiber_t *f) { rvhal_fiber_switch_asm_(f); }
#else
#define rvhal_fiber_switch_ rvhal_fiber_switch_asm_
#endif

/* A work-item run as a context returned from the kernel: switch to the next
 * item (the last resumes the first item's context, waiting in
 * rvhal_group_finish_fibers), and resume here when the group after runs
 * its items as contexts too. Inline in the kernel's fiber function, so
 * that the hand-over is one jump. */
static inline __attribute__((always_inline)) void rvhal_fiber_end_(rvhal_fiber_t *f) {
  rvhal_group_t *g = f->e.group;
  /* Items run in turn: the ones before this returned too, or one waits at a
   * barrier this item never reached. (An item after it that calls a barrier
   * is caught by the last item's, rvhal_barrier_slow.) */
  if (g->finished != f->e.slot) rvhal_fiber_out_of_step(f);
  g->finished = f->e.slot + 1;
  rvhal_fiber_switch_(f);
}

/* GCC hoists no loop invariant out of a kernel's inner loops in the
 * fiber's outer loop without a register-pressure model (histogram's
 * atomic_inc reloaded its 1 at every byte: 64 instructions per item). */
#if defined(__GNUC__) && !defined(__clang__)
#define RVHAL_FIBER_OPT_ , optimize("ira-loop-pressure")
#else
#define RVHAL_FIBER_OPT_
#endif

/* p##_fiber: a work-item that runs as a context. The first barrier() of a
 * call's first group with barriers (barrier.c) starts every item after the
 * first here; each then runs the item of every group in turn: the item
 * function inlined (flatten), so that an item costs QEMU no indirect call
 * and return around the kernel (each an indirect jump, resolved by a
 * lookup of the next translation block), and the prologue, which saves
 * every callee-saved register barrier() clobbers, runs once per call. A
 * context switch enters it with a0 = f, sp = f. */
#define RVHAL_FIBER_FN_(p)                                                                           \
  static __attribute__((noinline, noreturn, flatten RVHAL_FIBER_OPT_)) void p##_fiber(rvhal_fiber_t *f) { \
    for (;;) {                                                                                       \
      rvhal_fiber_start_(f);                                                                         \
      p##_item(f->e.group->args, &f->e);                                                            \
      rvhal_fiber_end_(f);                                                                           \
    }                                                                                                \
  }

/* The call's sizes into a kernel's copy of its item state (exec_state_t):
 * after inlining, only the ones the kernel reads are loaded, once per copy. */
static inline __attribute__((always_inline)) void rvhal_fill_sizes_(exec_state_t *e) {
  const hal_sched_info_t *s = e->group->s;
  e->local_size[0] = s->local_size[0];
  e->local_size[1] = s->local_size[1];
  e->local_size[2] = s->local_size[2];
  e->num_groups[0] = s->num_groups_total[0];
  e->num_groups[1] = s->num_groups_total[1];
  e->num_groups[2] = s->num_groups_total[2];
  const rvhal_launch_desc_t *l = e->group->ci->launch;
  e->global_size[0] = (size_t)l->global_size[0];
  e->global_size[1] = (size_t)l->global_size[1];
  e->global_size[2] = (size_t)l->global_size[2];
}

/* Below this, base + x cannot reach 2^32 (rvhal_rows). */
#define RVHAL_ID_NO_WRAP_ ((size_t)0x7fffffff)

/* Items x .. xend-1 of one row (e->local_id[1..2] set), the innermost
 * loop of rvhal_rows and rvhal_plain_groups. Two copies of the loop: the
 * first knows that no global id (bx + x) reaches 2^32, so a kernel's
 * 32-bit index arithmetic needs no wrap-around checks there. */
static inline __attribute__((always_inline)) void rvhal_row_(const void *args, exec_state_t *e, rvhal_item_fn_t fn,
                                                             size_t x, size_t xend, size_t bx) {
  if (__builtin_expect(bx <= RVHAL_ID_NO_WRAP_ && xend <= RVHAL_ID_NO_WRAP_, 1)) {
    for (; x < xend; x++) {
#ifdef __clang__
      /* Stated for LLVM, which does not derive it from the test above (GCC
       * does): a kernel's (uint)get_global_id(0) then costs no
       * zero-extension. The OpenCL C compiler drops the assumption once
       * opt has used it (opencl_compile.c, drop_assumes). */
      if (bx + x > 0xffffffffu) __builtin_unreachable();
#endif
      e->local_id[0] = x;
      fn(args, e);
    }
  } else {
    for (; x < xend; x++) {
      e->local_id[0] = x;
      fn(args, e);
    }
  }
}

/* This hart's work-items of a group after e's (its first), in local
 * linear order, as a plain loop (the first item returned without calling
 * barrier()). Row by row: the innermost loop is x alone, one branch per
 * item, so the compiler sees a counted loop around the kernel body, and in
 * it (first copy) that no global id reaches 2^32, so a kernel's
 * (uint)get_global_id(0) needs no truncation and its addresses step by a
 * constant (docs/architecture.md, "Emulation speed"; unrolling it was
 * slower). On a copy of the item state that no one else sees, so that the
 * kernel's stores cannot alias it and it stays in registers. */
static inline __attribute__((always_inline)) void rvhal_rows(const void *args, const exec_state_t *e0,
                                                              rvhal_item_fn_t fn) {
  exec_state_t e = *e0;
  rvhal_fill_sizes_(&e);
  const hal_sched_info_t *s = e.group->s;
  const size_t lx = s->local_size[0], ly = s->local_size[1], bx = e.global_base[0];
  size_t x = e.local_id[0] + 1, y = e.local_id[1], z = e.local_id[2], left = e.group->num_items - 1;
  while (left) {
    if (x == lx) {
      x = 0;
      if (++y == ly) {
        y = 0;
        ++z;
      }
      e.local_id[1] = y;
      e.local_id[2] = z;
    }
    const size_t xend = lx - x < left ? lx : x + left;
    left -= xend - x;
    rvhal_row_(args, &e, fn, x, xend, bx);
    x = xend;
  }
}

/* Set by the linker (kernel.ld), from the sections the program has: every
 * barrier() puts a byte in one (kernel_if.h, rvhal_barrier_asm_). */
extern const uint32_t __rvhal_program_traits; /* kernel.ld: RVHAL_TRAIT_* of this program */
#define RVHAL_TRAIT_BARRIER_ 1u      /* it calls barrier() */
#define RVHAL_TRAIT_TLS_INIT_ 2u     /* __local_variable initial values (.tdata) */
#define RVHAL_TRAIT_TLS_ 4u          /* __local_variable storage (.tdata or .tbss) */

/* Every group of a call as plain loops, for a program without barrier():
 * no group can turn into contexts, so no group needs its first item run
 * apart. Nested loops over the call's groups and their items, on one copy
 * of the item state kept in registers, with rvhal_rows's innermost x loop
 * (vector_add in groups of 64: 56 instructions a group beside its items'
 * through the first item apart, 19 so, docs/performance.md). Out of line
 * (p##_plain_groups): inlined into the entry, its loop counters were
 * spilled around the general path's. Whole groups only: a team member's
 * share starts mid-group. */
static inline __attribute__((always_inline)) void rvhal_plain_groups(const void *args, const exec_state_t *e0,
                                                                     rvhal_item_fn_t fn) {
  exec_state_t e = *e0;
  rvhal_fill_sizes_(&e);
  const hal_sched_info_t *s = e.group->s;
  const size_t lx = e.local_size[0], ly = e.local_size[1], lz = e.local_size[2];
  const size_t n0 = s->num_groups_per_call[0], n1 = s->num_groups_per_call[1], n2 = s->num_groups_per_call[2];
  if (!lx || !ly || !lz || !n0 || !n1 || !n2) return; /* then every loop below runs at least once: no entry tests */
  size_t gz = 0;
  do {
    e.group_id[2] = s->group_id_start[2] + gz;
    e.global_base[2] = e.group_id[2] * lz + s->global_offset[2];
    size_t gy = 0;
    do {
      e.group_id[1] = s->group_id_start[1] + gy;
      e.global_base[1] = e.group_id[1] * ly + s->global_offset[1];
      e.group_id[0] = s->group_id_start[0];
      e.global_base[0] = e.group_id[0] * lx + s->global_offset[0];
      size_t gx = 0;
      do {
        size_t z = 0;
        do {
          e.local_id[2] = z;
          size_t y = 0;
          do {
            e.local_id[1] = y;
            rvhal_row_(args, &e, fn, 0, lx, e.global_base[0]);
          } while (++y < ly);
        } while (++z < lz);
        e.group_id[0]++;
        e.global_base[0] += lx;
      } while (++gx < n0);
    } while (++gy < n1);
  } while (++gz < n2);
}

/* Whether a call may run as rvhal_plain_call: the program has no
 * barrier() (so no group turns into contexts), no hart shares a group
 * with another (a team member's share starts mid-group) and no group
 * needs fresh __local_variable initial values. */
static inline __attribute__((always_inline)) int rvhal_plain_call_ok(const hal_sched_info_t *s) {
  const rvhal_call_info_t *ci = (const rvhal_call_info_t *)(uintptr_t)s->hal_extra;
  return !(__rvhal_program_traits & (RVHAL_TRAIT_BARRIER_ | RVHAL_TRAIT_TLS_INIT_)) && ci->team_size <= 1;
}

/* Bytes of local memory each group of the call needs (0: none). The
 * caller reserves them on its own stack: an alloca here would end here. */
static inline __attribute__((always_inline)) size_t rvhal_call_local_bytes_(const void *args,
                                                                            const hal_sched_info_t *s) {
  const rvhal_call_info_t *ci = (const rvhal_call_info_t *)(uintptr_t)s->hal_extra;
  if ((__rvhal_program_traits & RVHAL_TRAIT_TLS_) || ci->launch->num_local_args) return rvhal_local_block_size(args, s);
  return 0;
}

/* A whole kernel call as plain loops (rvhal_plain_call_ok): the group's
 * local memory, then every group (rvhal_plain_groups). */
static inline __attribute__((always_inline)) void rvhal_plain_call(void *args, const hal_sched_info_t *s,
                                                                   rvhal_rows_fn_t groups) {
  const size_t bytes = rvhal_call_local_bytes_(args, s);
  void *block = bytes ? __builtin_alloca_with_align(bytes, 8 * RVHAL_LOCAL_ALIGN) : 0;
  rvhal_group_t g;
  exec_state_t e; /* rvhal_plain_groups sets the ids and sizes */
  rvhal_call_start(&g, args, s, 0, block); /* no fiber: no group turns into contexts */
  for (int d = 0; d < 3; d++) e.local_id[d] = e.group_id[d] = e.global_base[d] = 0;
  e.group = &g;
  e.self = &e;
  e.slot = 0;
  e.slow = 1; /* a barrier() goes to rvhal_barrier_slow */
  e.ctx = e.next_ctx = 0;
  g.plain = 1; /* a barrier() all the same: divergence, not a hang */
  groups(args, &e);
  g.plain = 0;
  if (g.counting) rvhal_call_end(&g, s->num_groups_per_call[0] * s->num_groups_per_call[1] * s->num_groups_per_call[2]);
}

/* The ABI entry for one kernel call: every group of the call, and in each
 * group this hart's work-items. Inline so that a barrier-free item function
 * is inlined into the first item's call and into `rows` (rvhal_rows, also
 * inlined: as a call, its return cost each group a translation-block
 * lookup in QEMU, for 2 fewer instructions of dispatch: docs/performance.md,
 * "Figures behind the code's choices"); everything per
 * call or per group that is not needed (local memory, teams, counters) is
 * skipped in a test or two. */
static inline __attribute__((always_inline)) void rvhal_run_call(void *args, const hal_sched_info_t *s,
                                                                  rvhal_item_fn_t fn, rvhal_rows_fn_t rows,
                                                                  rvhal_fiber_fn_t fiber) {
  /* The group's local memory (local-buffer arguments and __local_variable
   * storage) is reserved here, on this hart's stack, once per call: the
   * groups of a call run one after the other. */
  const size_t bytes = rvhal_call_local_bytes_(args, s);
  void *block = bytes ? __builtin_alloca_with_align(bytes, 8 * RVHAL_LOCAL_ALIGN) : 0;
  rvhal_group_t g;
  exec_state_t e;
  g.tls = 0; /* set by rvhal_call_start with a local block, which __local_variable storage needs */
  rvhal_call_start(&g, args, s, fiber, block);
  e.group = &g;
  e.self = &e;
  e.slot = 0;
  /* Slow until the group's first barrier() makes the contexts: always 1,
   * since every hart has an item of each group (launch_plan.c). Written
   * from num_items because GCC then allocates the row loops' registers as
   * it did before this flag (a constant 1 cost blur more guest
   * instructions per item, in moves). */
  e.slow = g.num_items != 0;
  const size_t lx = s->local_size[0], ly = s->local_size[1], lz = s->local_size[2];
  const uint32_t items = g.num_items;
  size_t x0 = 0, y0 = 0, z0 = 0;
  if (__builtin_expect(g.first_item != 0, 0)) { /* a team member's share */
    x0 = g.first_item % lx;
    y0 = (g.first_item / lx) % ly;
    z0 = g.first_item / (lx * ly);
  }
  for (size_t gz = 0; gz < s->num_groups_per_call[2]; gz++) {
    e.group_id[2] = s->group_id_start[2] + gz;
    e.global_base[2] = e.group_id[2] * lz + s->global_offset[2];
    for (size_t gy = 0; gy < s->num_groups_per_call[1]; gy++) {
      e.group_id[1] = s->group_id_start[1] + gy;
      e.global_base[1] = e.group_id[1] * ly + s->global_offset[1];
      size_t base_x = s->group_id_start[0] * lx + s->global_offset[0];
      for (size_t gx = 0; gx < s->num_groups_per_call[0]; gx++, base_x += lx) {
        e.group_id[0] = s->group_id_start[0] + gx;
        e.global_base[0] = base_x;
        /* g.tls first (a load from the stack): the traits word, held in
         * a register through the loop, cost a kernel's loop a register */
        if (g.tls && (__rvhal_program_traits & RVHAL_TRAIT_TLS_INIT_)) rvhal_group_init_tls(&g);
        /* The first item may call barrier(), which turns the group into
         * contexts; otherwise the rest is a plain loop. */
        e.local_id[0] = x0;
        e.local_id[1] = y0;
        e.local_id[2] = z0;
        fn(args, &e);
        if (__builtin_expect(g.fibers_on, 0)) {
          rvhal_finish_fibers_(&e);
        } else if (items > 1) {
          g.plain = 1;
          rows(args, &e);
          g.plain = 0;
        }
        /* Harts of a team finish a group together: its local memory is
         * reused by the next one. */
        if (__builtin_expect(g.team_local, 0)) rvhal_group_end_team(&g);
      }
    }
  }
  if (g.counting) rvhal_call_end(&g, s->num_groups_per_call[0] * s->num_groups_per_call[1] * s->num_groups_per_call[2]);
}

/* Argument descriptors, in argument order. For RVHAL_KERNEL_ENTRY: the
 * parameter's type and name, e.g. RVHAL_GLOBAL(const float *, x),
 * RVHAL_LOCAL(uint *, scratch), RVHAL_VALUE(float, alpha). For RVHAL_KERNEL:
 * the member of the argument struct that holds it, e.g. RVHAL_GLOBAL(x). */
#define RVHAL_GLOBAL(...) (RVHAL_ARG_KIND_GLOBAL, __VA_ARGS__)
#define RVHAL_LOCAL(...) (RVHAL_ARG_KIND_LOCAL, __VA_ARGS__)
#define RVHAL_VALUE(...) (RVHAL_ARG_KIND_VALUE, __VA_ARGS__)
/* A POD member of an argument struct, aligned as the pack aligns it (to the
 * smallest power of two >= its size). Needed whenever the type's own
 * alignment is smaller than that, e.g. any struct of 3, 12 or 24 bytes, a
 * struct of two uint64_t (16 bytes, aligned to 8), or uint8_t b[8]. Use a
 * named type: RVHAL_PACKED_ARG(struct {...}) would change that struct. The
 * host refuses a launch whose struct does not match the pack. */
#define RVHAL_POW2_(n)                                                                                  \
  ((n) <= 1 ? 1 : (n) <= 2 ? 2 : (n) <= 4 ? 4 : (n) <= 8 ? 8 : (n) <= 16 ? 16 : (n) <= 32 ? 32 : (n) <= 64 ? 64 \
   : (n) <= 128 ? 128 : (n) <= 256 ? 256 : (n) <= 512 ? 512 : (n) <= 1024 ? 1024 : (n) <= 2048 ? 2048 : 4096)
#define RVHAL_PACKED_ARG(type) type __attribute__((aligned(RVHAL_POW2_(sizeof(type)))))

#define RVHAL_UNPAREN_(...) __VA_ARGS__
#define RVHAL_META_ARG_(type, desc) RVHAL_META_ARG_I_(type, RVHAL_UNPAREN_ desc)
#define RVHAL_META_ARG_I_(...) RVHAL_META_ARG_II_(__VA_ARGS__)
#define RVHAL_META_ARG_II_(type, kind, member) \
  {RVHAL_ARG_DESC(kind, sizeof(((type *)0)->member), 0), (uint32_t)offsetof(type, member)},

/* Describe the arguments of an ABI entry point `name` written by hand
 * (void name(void *args, const hal_sched_info_t *sched), without the SDK's
 * work-item loop), as RVHAL_KERNEL does for its own: the host then finds it
 * as a kernel and checks every launch against it. */
#define RVHAL_KERNEL_META(name, args_type, ...)                                                      \
  const rvhal_kernel_meta_t name##__rvhal_meta __attribute__((used)) = {                             \
      RVHAL_META_MAGIC, RVHAL_META_VERSION, (uint32_t)sizeof(args_type),                             \
      (uint32_t)RVHAL_NARGS_(__VA_ARGS__), {RVHAL_FOREACH_(RVHAL_META_ARG_, args_type, ##__VA_ARGS__)}};

/* p##_rows: rvhal_rows around p##_item_on (inlined into the entry:
 * rvhal_run_call). rvhal_rows's state is already private: no second copy,
 * which cost GCC the proof that no id wraps (vector_add: 9 -> 11
 * instructions per item). */
#define RVHAL_ROWS_FN_(p)                                                                    \
  static inline __attribute__((always_inline)) void p##_rows(const void *a, const exec_state_t *e) { \
    rvhal_rows(a, e, p##_item_on);                                                      \
  }                                                                                     \
  static __attribute__((noinline, flatten, unused)) void p##_plain_groups(const void *a, const exec_state_t *e) { \
    rvhal_plain_groups(a, e, p##_item_on);                                              \
  }                                                                                     \
  static __attribute__((noinline, unused)) void p##_plain_call(void *a, const hal_sched_info_t *s) { \
    rvhal_plain_call(a, s, p##_plain_groups);                                         \
  }

/* A C SDK entry's body: the call as plain loops when the program allows
 * it (rvhal_plain_call_ok), else the general path with contexts. */
#define RVHAL_ENTRY_CALL_(p, args, sched)                                                          \
  do {                                                                                             \
    if (rvhal_plain_call_ok(sched)) p##_plain_call(args, sched);                                   \
    else rvhal_run_call(args, sched, p##_item, p##_rows, p##_fiber);                               \
  } while (0)

/* A kernel's item function is inlined, with the kernel's own function and
 * what it calls, into every loop that runs items (flatten): a call per
 * work-item costs QEMU a lookup at its return (an indirect jump), which was
 * a fifth of blur's time when GCC kept `blur` out of line (it is called
 * from three places: the first item and two copies of the row loop). */
#define RVHAL_ITEM_FN_ static inline __attribute__((always_inline, flatten))

/* The first item of a group and items run as contexts (rvhal_rows has its
 * own copy) run the kernel on a private copy of the item's state: nothing else can
 * reach it (barrier() goes to e->self), so the compiler keeps its ids and
 * sizes in registers for the whole item, across atomics and barriers,
 * instead of re-reading them after every asm or call that may write memory
 * (histogram's `i += get_global_size(0, ctx)` next to an atomic re-read
 * three words and multiplied at every byte). Ids and sizes never change
 * during an item, so the copy stays right. */
#define RVHAL_ITEM_VIEW_(e)         \
  exec_state_t rvhal_view_ = *(e); \
  rvhal_fill_sizes_(&rvhal_view_)

/* Define the ABI entry point `name` running item_fn (taking a const
 * args_type * and an exec_state_t *) for every work-item, and describe its
 * arguments — RVHAL_GLOBAL(m), RVHAL_LOCAL(m), RVHAL_VALUE(m) for the
 * members m of args_type, in argument order — so that the host checks
 * every launch against them: count, kinds, sizes and offsets. */
#define RVHAL_KERNEL(name, args_type, item_fn, ...)                                                  \
  RVHAL_KERNEL_META(name, args_type, ##__VA_ARGS__)                                                  \
  RVHAL_ITEM_FN_ void name##__rvhal_item_on(const void *a, exec_state_t *e) {                         \
    item_fn((const args_type *)a, e);                                                               \
  }                                                                                                 \
  RVHAL_ITEM_FN_ void name##__rvhal_item(const void *a, exec_state_t *e) {                            \
    RVHAL_ITEM_VIEW_(e);                                                                            \
    name##__rvhal_item_on(a, &rvhal_view_);                                                         \
  }                                                                                                 \
  RVHAL_ROWS_FN_(name##__rvhal)                                                                      \
  RVHAL_FIBER_FN_(name##__rvhal)                                                                     \
  void name(void *args, const hal_sched_info_t *sched);                                              \
  void name(void *args, const hal_sched_info_t *sched) {                                             \
    RVHAL_ENTRY_CALL_(name##__rvhal, args, sched);                                                   \
  }

/* ---- RVHAL_KERNEL_ENTRY ------------------------------------------------
 * Each descriptor is a tuple (kind, type, name); the kind expands to 1u, 2u
 * or 3u (RVHAL_ARG_KIND_*), which selects the RVHAL_KE_*_<kind> helper. */
#define RVHAL_KE_(what, fn, x) RVHAL_KE_I_(what, fn, RVHAL_UNPAREN_ x)
#define RVHAL_KE_I_(...) RVHAL_KE_II_(__VA_ARGS__)
#define RVHAL_KE_II_(what, fn, kind, type, name) RVHAL_CAT_(RVHAL_CAT_(RVHAL_KE_, what), kind)(fn, type, name)
#define RVHAL_KE_MEMBER_(fn, x) RVHAL_KE_(MEMBER_, fn, x)
#define RVHAL_KE_LOCAL_(fn, x) RVHAL_KE_(LOCAL_, fn, x)
#define RVHAL_KE_CALL_(fn, x) RVHAL_KE_(CALL_, fn, x)
#define RVHAL_KE_META_(fn, x) RVHAL_KE_(META_, fn, x)
#define RVHAL_KE_NAME_(fn, x) RVHAL_KE_(NAME_, fn, x)
/* The argument struct's member: a pointer; a local buffer's size (one
 * device word); a value, aligned as the pack aligns it. */
#define RVHAL_KE_MEMBER_1u(fn, type, name) type name;
#define RVHAL_KE_MEMBER_2u(fn, type, name) uintptr_t name;
#define RVHAL_KE_MEMBER_3u(fn, type, name) type name __attribute__((aligned(RVHAL_POW2_(sizeof(type)))));
/* Local buffers are numbered in argument order: an enumerator per local. */
#define RVHAL_KE_LOCAL_1u(fn, type, name)
#define RVHAL_KE_LOCAL_2u(fn, type, name) fn##__rvhal_local_##name,
#define RVHAL_KE_LOCAL_3u(fn, type, name)
#define RVHAL_KE_CALL_1u(fn, type, name) a->name,
#define RVHAL_KE_CALL_2u(fn, type, name) (type)rvhal_local_arg(e, fn##__rvhal_local_##name),
#define RVHAL_KE_CALL_3u(fn, type, name) a->name,
#define RVHAL_KE_META_1u(fn, type, name) RVHAL_KE_META_ARG_(fn, RVHAL_ARG_KIND_GLOBAL, name, RVHAL_TYPE_UNKNOWN)
#define RVHAL_KE_META_2u(fn, type, name) RVHAL_KE_META_ARG_(fn, RVHAL_ARG_KIND_LOCAL, name, RVHAL_TYPE_UNKNOWN)
#define RVHAL_KE_META_3u(fn, type, name) RVHAL_KE_META_ARG_(fn, RVHAL_ARG_KIND_VALUE, name, RVHAL_TYPE_OF_(type))
#define RVHAL_KE_META_ARG_(fn, kind, name, t) \
  {RVHAL_ARG_DESC(kind, sizeof(((fn##__rvhal_args *)0)->name), t), (uint32_t)offsetof(fn##__rvhal_args, name)},
#define RVHAL_KE_NAME_1u(fn, type, name) "global " #type "\0" #name "\0"
#define RVHAL_KE_NAME_2u(fn, type, name) "local " #type "\0" #name "\0"
#define RVHAL_KE_NAME_3u(fn, type, name) #type "\0" #name "\0"

/* The RVHAL_TYPE_* of a value's C type (POD for structs and the rest). */
#ifdef __CHAR_UNSIGNED__
#define RVHAL_TYPE_CHAR_ RVHAL_TYPE_U8
#else
#define RVHAL_TYPE_CHAR_ RVHAL_TYPE_I8
#endif
#if __SIZEOF_LONG__ == 8
#define RVHAL_TYPE_LONG_ RVHAL_TYPE_I64
#define RVHAL_TYPE_ULONG_ RVHAL_TYPE_U64
#else
#define RVHAL_TYPE_LONG_ RVHAL_TYPE_I32
#define RVHAL_TYPE_ULONG_ RVHAL_TYPE_U32
#endif
#define RVHAL_TYPE_OF_(T)                                                                                          \
  _Generic(*(T *)0, char: RVHAL_TYPE_CHAR_, signed char: RVHAL_TYPE_I8,                                              \
           unsigned char: RVHAL_TYPE_U8, _Bool: RVHAL_TYPE_U8, short: RVHAL_TYPE_I16, unsigned short: RVHAL_TYPE_U16,  \
           int: RVHAL_TYPE_I32, unsigned int: RVHAL_TYPE_U32, long: RVHAL_TYPE_LONG_,                                \
           unsigned long: RVHAL_TYPE_ULONG_, long long: RVHAL_TYPE_I64,                                               \
           unsigned long long: RVHAL_TYPE_U64, float: RVHAL_TYPE_F32, double: RVHAL_TYPE_F64, default: RVHAL_TYPE_POD)

/* Define the ABI entry point fn##_entry for the kernel function fn, whose
 * parameters are the descriptors' (types and names, in order) followed by
 * the exec_state_t *. Generates the argument struct fn##__rvhal_args laid
 * out as the host packs it, the per-work-item call, the metadata the host
 * checks each launch against, and the declared types and names for tools. */
#define RVHAL_KERNEL_ENTRY(fn, ...)                                                                     \
  typedef struct fn##__rvhal_args {                                                                     \
    RVHAL_FOREACH_(RVHAL_KE_MEMBER_, fn, ##__VA_ARGS__)                                                 \
  } fn##__rvhal_args;                                                                                   \
  enum { RVHAL_FOREACH_(RVHAL_KE_LOCAL_, fn, ##__VA_ARGS__) fn##__rvhal_num_locals };                   \
  RVHAL_ITEM_FN_ void fn##__rvhal_item_on(const void *args_, exec_state_t *e) {                        \
    const fn##__rvhal_args *a = (const fn##__rvhal_args *)args_;                                        \
    (void)a;                                                                                            \
    fn(RVHAL_FOREACH_(RVHAL_KE_CALL_, fn, ##__VA_ARGS__) e);                                            \
  }                                                                                                     \
  RVHAL_ITEM_FN_ void fn##__rvhal_item(const void *args_, exec_state_t *e) {                            \
    RVHAL_ITEM_VIEW_(e);                                                                                \
    fn##__rvhal_item_on(args_, &rvhal_view_);                                                           \
  }                                                                                                     \
  const rvhal_kernel_meta_t fn##_entry__rvhal_meta __attribute__((used)) = {                            \
      RVHAL_META_MAGIC, RVHAL_META_VERSION, (uint32_t)sizeof(fn##__rvhal_args),                         \
      (uint32_t)RVHAL_NARGS_(__VA_ARGS__), {RVHAL_FOREACH_(RVHAL_KE_META_, fn, ##__VA_ARGS__)}};        \
  const char fn##_entry__rvhal_args[] __attribute__((used)) = RVHAL_FOREACH_(RVHAL_KE_NAME_, fn, ##__VA_ARGS__) ""; \
  RVHAL_ROWS_FN_(fn##__rvhal)                                                                           \
  RVHAL_FIBER_FN_(fn##__rvhal)                                                                          \
  void fn##_entry(void *args, const hal_sched_info_t *sched);                                           \
  void fn##_entry(void *args, const hal_sched_info_t *sched) {                                          \
    RVHAL_ENTRY_CALL_(fn##__rvhal, args, sched);                                                        \
  }

/* The i-th local-buffer argument of the launch (in argument order). */
static inline void *rvhal_local_arg(const exec_state_t *e, uint32_t i) { return e->group->local_args[i]; }

#ifdef __cplusplus
}
#endif
#endif /* RVHAL_KERNEL_H */

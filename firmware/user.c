/* The kernel's side of a share: its block at the top of the hart's stack
 * (fw_user_t: call info, copies of the launch descriptor and packed
 * arguments), what it may reach (fw_reach_t: the installed program, the
 * stacks of the hart's team, the hart's own work-item stack pool, global
 * memory; enforced by the board's isolation scheme, fw_isolation.h), and
 * the same ranges kept in fw_hart_t: pointers a kernel passes to an ecall
 * are checked against them. When the program changes, what the previous
 * one left within a kernel's reach is cleared. For RVHAL_LAUNCH_PRIVILEGED,
 * kernels run in the firmware's mode, on the same stack, with the launch's
 * own descriptor and arguments. */
#include <stddef.h>
#include <string.h>

#include "fw.h"
#include "fw_csr.h"
#include "fw_isolation.h"
#include "fw_launch.h"
#include "rvhal/rvhal_launch_geometry.h"

/* Word copies written out: a call to memcpy and its return,
 * on another page of firmware code, each end QEMU's translation block
 * (docs/performance.md, "Launch latency"). */
typedef uintptr_t __attribute__((may_alias)) fw_word_t; /* copies any type's words */
static inline __attribute__((always_inline)) void copy_words(fw_word_t *d, const fw_word_t *s, size_t n) {
  for (size_t i = 0; i < n; i++) d[i] = s[i];
}

/* The installed program: its code/data boundary (the lowest install above
 * the lowest one: kernel.ld puts text first) and its end, page-rounded: a
 * kernel reaches nothing of the program area above it (so a frame that
 * jumps hart 0's guard, below which the area ends, faults there); and how
 * far programs have written since the area was last clean. */
static uintptr_t program_data, program_top, program_dirty;
static volatile uint32_t program_gen; /* each change: harts clear their stacks (fw_user_setup) */

/* Per hart, this module's: the memory a U-mode kernel may read in the
 * current share as [lo, hi) ranges (pointers it hands to an ecall are
 * checked against them), and the residue bookkeeping (clear_stacks). */
#define FW_USER_RANGES 4
typedef struct user_hart {
  uintptr_t lo[FW_USER_RANGES], hi[FW_USER_RANGES];
  uint32_t program_gen; /* the last program change whose residue this hart cleared */
  uintptr_t pool_dirty; /* bytes of its work-item stack pool used since */
} user_hart_t;
static user_hart_t per_hart[RVHAL_MAX_HARTS];

/* Zero [lo, hi) but the installs' ranges: what the previous programs left
 * (code, data, what their kernels wrote) that the new one does not
 * overwrite. Installs are few (RVHAL_MAX_INSTALLS): taken in address order
 * by repeated minimum. */
static void clear_around_installs(const rvhal_launch_desc_t *d, uintptr_t lo, uintptr_t hi) {
  uintptr_t at = lo;
  for (uint32_t k = 0; k < d->num_installs && at < hi; k++) {
    uintptr_t next = UINTPTR_MAX, end = 0;
    for (uint32_t i = 0; i < d->num_installs; i++) {
      const uintptr_t dst = (uintptr_t)d->install[i].dst;
      const uintptr_t e = dst + (uintptr_t)(d->install[i].copy_size + d->install[i].zero_size);
      if (e > at && dst < next) {
        next = dst;
        end = e;
      }
    }
    if (next == UINTPTR_MAX) break;
    if (next > at) memset((void *)at, 0, (next < hi ? next : hi) - at);
    if (end > at) at = end;
  }
  if (at < hi) memset((void *)at, 0, hi - at);
}

void fw_user_program_installed(const rvhal_launch_desc_t *d) {
  const uintptr_t prog = (uintptr_t)FW_CTRL->boot.program_base;
  uintptr_t lo = UINTPTR_MAX, data = 0, top = prog;
  for (uint32_t i = 0; i < d->num_installs; i++) {
    const uintptr_t dst = (uintptr_t)d->install[i].dst;
    const uintptr_t end = dst + (uintptr_t)(d->install[i].copy_size + d->install[i].zero_size);
    if (dst < lo) lo = dst;
    if (end > top) top = end;
  }
  for (uint32_t i = 0; i < d->num_installs; i++) {
    const uintptr_t dst = (uintptr_t)d->install[i].dst;
    if (dst > lo && (data == 0 || dst < data)) data = dst;
  }
  top = (top + 4095) & ~(uintptr_t)4095; /* checked: inside the area, whose end is page-aligned */
  clear_around_installs(d, prog, program_dirty > top ? program_dirty : top);
  program_dirty = top;
  program_top = top;
  program_data = data ? data & ~(uintptr_t)3 : top;
  __atomic_store_n(&program_gen, program_gen + 1, __ATOMIC_RELEASE);
  fw_isolation_program(program_data, program_top);
}

/* Once per program change, each hart: zero what a kernel may read of its
 * own stack (below its block) and the used part of its work-item stack
 * pool, so that the next program's kernels find nothing of the previous
 * one's. The pool's used part: the SDK takes work-item stacks from its
 * start, at most items-per-group - 1 of them (sdk/src/barrier.c); the most
 * since the last clear is kept (pools are megabytes: clearing all of each
 * made every program change slow). A team's kernels reach each
 * other's stacks, but none runs before the whole team passed the barrier
 * that publishes its first claim (scheduler.c), after every member's
 * clear. */
static void clear_stacks(fw_hart_t *hart, uintptr_t stack, uintptr_t pool, uintptr_t pool_size) {
  const rvhal_launch_desc_t *d = hart->launch->desc;
  const uint64_t items = rvhal_launch_group_items(d->local_size); /* checked: >= 1 */
  const uintptr_t room = pool_size - RVHAL_STACK_GUARD;
  const uint64_t want = (items - 1) * FW_CTRL->boot.fiber_stack_size; /* < 2^32 * 2^32: no wrap */
  const uintptr_t used = want < room ? (uintptr_t)want : room;
  const uint32_t gen = __atomic_load_n(&program_gen, __ATOMIC_ACQUIRE);
  user_hart_t *me = &per_hart[hart->index];
  if (me->program_gen == gen) {
    if (used > me->pool_dirty) me->pool_dirty = used;
    return;
  }
  if (me->program_gen == 0) me->pool_dirty = room; /* the first clear since boot: RAM survives a device restart */
  me->program_gen = gen;
  const uintptr_t lo = stack + RVHAL_STACK_GUARD + 16; /* above the canary (fw_hart.h) */
  memset((void *)lo, 0, (uintptr_t)hart->user - lo);
  memset((void *)(pool + RVHAL_STACK_GUARD), 0, me->pool_dirty);
  me->pool_dirty = used;
}

void fw_user_setup(fw_hart_t *hart) {
  const fw_launch_t *L = hart->launch;
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  const uint32_t rank = hart->index % L->team_size, leader = hart->index - rank;
  const uintptr_t S = (uintptr_t)b->hart_stack_size, P = (uintptr_t)b->fiber_pool_size;
  const uintptr_t prog = (uintptr_t)b->program_base, prog_end = prog + (uintptr_t)b->program_size;
  const uintptr_t stacks = (uintptr_t)b->stacks_base + leader * S;
  uint32_t members = L->team_size;
  if (leader + members > L->base + L->participants) members = L->base + L->participants - leader;
  const uintptr_t stacks_end = stacks + members * S;
  const uintptr_t pool = (uintptr_t)b->fibers_base + hart->index * P;
  const uintptr_t heap = (uintptr_t)b->heap_base, heap_end = (uintptr_t)(b->heap_base + b->heap_size);
  const uintptr_t lo[FW_USER_RANGES] = {prog, stacks, pool, heap};
  const uintptr_t top = program_top ? program_top : prog_end; /* before the first program: the area */
  const uintptr_t hi[FW_USER_RANGES] = {top, stacks_end, pool + P, heap_end};
  clear_stacks(hart, (uintptr_t)b->stacks_base + hart->index * S, pool, P);
  copy_words(per_hart[hart->index].lo, lo, FW_USER_RANGES);
  copy_words(per_hart[hart->index].hi, hi, FW_USER_RANGES);
  const uintptr_t data = program_data ? program_data : top;
  const fw_reach_t reach = {prog, data, top, stacks, stacks_end, pool, pool + P, heap, heap_end};
  fw_isolation_share(hart->index, &reach, L->privileged);

  /* The kernel's view of this call: at the top of this hart's stack. */
  fw_user_t *u = hart->user;
  u->call = hart->call;
  if (!L->privileged) u->call.services = 0; /* ecall */
  /* xie, what a trap's unwinding restores (trap.c): a U-mode share swaps
   * it for 0 as it enters (run_protected: one CSR access less) */
  if (L->privileged) fw_scratch_of(hart->index)->ie = xcsr_read(CSR_XIE);
  u->call.team = &fw_harts[leader].user->team; /* the copy in its first hart's block */
  u->call.counters = u->counters;
  u->call.fp_live = 0;
  u->sched.hal_extra = (uintptr_t)&u->call;
  hart->kernel_args = L->args;
  hart->kernel_sp = (uintptr_t)u;
  if (!L->privileged) { /* copies of the launch's descriptor and arguments (checked: <= RVHAL_ARGS_MAX) */
    _Static_assert(sizeof u->desc % sizeof(uintptr_t) == 0 && _Alignof(rvhal_launch_desc_t) >= sizeof(uintptr_t),
                   "copied in words");
    copy_words((fw_word_t *)&u->desc, (const fw_word_t *)L->desc, sizeof u->desc / sizeof(uintptr_t));
    u->call.launch = &u->desc;
    /* Whole 64-byte lines: a kernel's argument struct may be longer than the
     * pack (tail padding), and the slot's bytes past the pack are zero.
     * The pack is 8-aligned (ring slot, list record: RVHAL_CMDLIST_ALIGN). */
    const size_t n = ((size_t)L->desc->args_size + 63) & ~(size_t)63;
    uintptr_t args = ((uintptr_t)u - n) & ~(uintptr_t)63;
    if ((uintptr_t)L->args % sizeof(uintptr_t) == 0)
      copy_words((fw_word_t *)args, (const fw_word_t *)L->args, n / sizeof(uintptr_t));
    else
      memcpy((void *)args, L->args, n);
    hart->kernel_args = (void *)args;
    hart->kernel_sp = args;
  }
}

int fw_user_readable(const fw_hart_t *hart, uintptr_t p, uintptr_t n) {
  const uintptr_t *lo = per_hart[hart->index].lo, *hi = per_hart[hart->index].hi;
  for (int i = 0; i < FW_USER_RANGES; i++)
    if (p >= lo[i] && p <= hi[i] && n <= hi[i] - p) return 1;
  return 0;
}

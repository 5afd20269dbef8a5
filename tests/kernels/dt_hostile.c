/* Device tests (tests/device/hostile.c): kernels that attack the host and
 * the device through memory they can reach when run privileged (the rest
 * run isolated, in U-mode):
 * forged completion records, print rings with impossible positions, print
 * bombs, overwritten program copies and boot configuration, traps of
 * several causes, barriers only some work-items reach, and stack frames
 * larger than the guard. Work-item 0 of the launch does the act (the
 * HOSTILE_* constants of dt_shared.h); every item first sets
 * marks[gid] = gid + 1. */
#include "dt_shared.h"
#include "rvhal/rvhal_ecall.h"
#include "kernel_if.h"

typedef struct {
  __global uint *marks;
  uint64_t what, value;
} hostile_args;

/* The control block and this launch's ring slot, from the descriptor the
 * firmware hands every call (it lives in the slot). */
static rvhal_launch_slot_t *my_slot(exec_state_t *e) {
  const rvhal_launch_desc_t *d = e->group->ci->launch;
  return (rvhal_launch_slot_t *)((char *)d - offsetof(rvhal_launch_slot_t, desc));
}

static rvhal_ctrl_t *ctrl_of(exec_state_t *e) {
  rvhal_launch_slot_t *slot = my_slot(e);
  uint64_t seq = slot->desc.seq;
  rvhal_launch_slot_t *slot0 = slot - seq % RVHAL_RING_SLOTS;
  rvhal_ring_t *ring = (rvhal_ring_t *)((char *)slot0 - offsetof(rvhal_ring_t, slots));
  return (rvhal_ctrl_t *)((char *)ring - offsetof(rvhal_ctrl_t, ring));
}

static void __attribute__((noreturn)) spin(void) {
  for (;;) __asm__ volatile("" ::: "memory");
}

/* A frame of `bytes` whose only store is at its lowest address (a frame
 * that jumps over any guard smaller than itself). */
static void __attribute__((noinline)) stack_bottom(uint64_t bytes, __global uint *out) {
  volatile uint8_t big[bytes];
  big[0] = 1;
  out[0] = big[0];
}

static void hostile_item(const hostile_args *a, exec_state_t *e) {
  size_t g = get_global_id(0, e);
  a->marks[g] = (uint)g + 1;
  if (a->what == HOSTILE_DIVERGE) {
    if (get_local_id(0, e) != 0) barrier(e);
    return;
  }
  if (a->what == HOSTILE_DIVERGE_LATE) {
    barrier(e);
    if (get_group_id(0, e) + 1 != get_num_groups(0, e) || get_local_id(0, e) != a->value) barrier(e);
    return;
  }
  if (a->what == HOSTILE_FIBER_STACK) {
    barrier(e);
    if (get_local_id(0, e) == 1) stack_bottom(a->value, a->marks);
    return;
  }
  if (a->what == HOSTILE_MARK_STACK) { /* from above the guard and canary to just below this frame */
    const uint64_t size = (a->value & 0xffff) << 16, base = a->value & ~(uint64_t)0xffff;
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    volatile uint32_t *p = (volatile uint32_t *)(uintptr_t)(base + e->group->ci->hart_index * size + RVHAL_STACK_GUARD + 16); /* above the canary */
    while ((uintptr_t)p < sp - 512) *p++ = RESIDUE_MARK;
    if (get_local_id(0, e) == 0) { /* and the work-item stacks its group's other items may use */
      const rvhal_call_info_t *ci = e->group->ci;
      const size_t items = get_local_size(0, e) * get_local_size(1, e) * get_local_size(2, e);
      volatile uint32_t *q = (volatile uint32_t *)ci->fiber_pool;
      while ((uintptr_t)q < ci->fiber_pool + (items - 1) * ci->fiber_stack_size) *q++ = RESIDUE_MARK;
    }
    return;
  }
  if (g != 0) return;
  rvhal_ctrl_t *ctrl = ctrl_of(e);
  switch (a->what) {
  case HOSTILE_FORGE_COMPLETION: {
    rvhal_launch_slot_t *slot = my_slot(e);
    slot->done.status = RVHAL_KERNEL_TRAP;
    slot->done.fault_hart = (uint32_t)a->value;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    slot->done.seq = slot->desc.seq;
    *(volatile uint64_t *)&ctrl->ring.completed = slot->desc.seq; /* RV32: two stores, the host reads both */
    spin();
  }
  case HOSTILE_PRINT_HEAD:
    print(e, "before the bomb\n");
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    *(volatile uint64_t *)&ctrl->harts[e->group->ci->hart_index].print.head = a->value;
    spin();
  case HOSTILE_PRINT_LOOP:
    for (uint64_t i = 0;; i++) print(e, "print bomb %llu\n", (unsigned long long)i);
  case HOSTILE_WIPE_STAGING: {
    volatile uint8_t *p = (volatile uint8_t *)(uintptr_t)ctrl->boot.staging_base;
    for (uint64_t i = 0; i < ctrl->boot.staging_size; i++) p[i] = (uint8_t)a->value;
    return;
  }
  case HOSTILE_BOOT_CONFIG:
    ctrl->boot.program_size = 0;
    return;
  case HOSTILE_SPIN:
    spin();
  case HOSTILE_ECALL: { /* a number no firmware service has */
    register uintptr_t a7 __asm__("a7") = (uintptr_t)-1;
    __asm__ volatile("ecall" ::"r"(a7) : "memory");
  }
    return;
  case HOSTILE_EBREAK:
    __asm__ volatile("ebreak" ::: "memory");
    return;
  case HOSTILE_JUMP_WILD:
    __asm__ volatile("li t0, 0x10\n\tjalr t0" ::: "t0", "ra", "memory");
    return;
  case HOSTILE_AMO_MISALIGNED: {
    uintptr_t odd = (uintptr_t)&a->marks[1] + 1;
    __asm__ volatile("amoadd.w zero, zero, (%0)" ::"r"(odd) : "memory");
    return;
  }
  case HOSTILE_PRINT_ONCE:
    print(e, "hostile %llu\n", (unsigned long long)a->value);
    return;
  case HOSTILE_WIPE_FIRMWARE: {
    volatile uint64_t *fw = (volatile uint64_t *)((uintptr_t)ctrl - RVHAL_CTRL_OFFSET) /* the image starts the firmware region */;
    for (uint64_t i = 0; i < a->value / 8; i++) fw[i] = 0;
    return;
  }
  case HOSTILE_WIPE_CTRL: {
    volatile uint8_t *p = (volatile uint8_t *)&ctrl->fw;
    for (size_t i = 0; i < sizeof *ctrl - offsetof(rvhal_ctrl_t, fw); i++) p[i] = 0;
    return;
  }
  case HOSTILE_WIPE_STACKS: {
    uint32_t me = e->group->ci->hart_index;
    for (uint32_t h = 0; h < ctrl->boot.num_harts; h++) {
      if (h == me) continue;
      volatile uint64_t *st = (volatile uint64_t *)(uintptr_t)(ctrl->boot.stacks_base + h * ctrl->boot.hart_stack_size +
                                                                RVHAL_STACK_GUARD);
      for (uint64_t i = 0; i < (ctrl->boot.hart_stack_size - RVHAL_STACK_GUARD) / 8; i++) st[i] = 0;
    }
    return;
  }
  case HOSTILE_LAYOUT: {
    const rvhal_boot_config_t *b = &ctrl->boot;
    const uint64_t v[HOSTILE_LAYOUT_VALUES] = {
        (uintptr_t)ctrl - RVHAL_CTRL_OFFSET, (uintptr_t)ctrl, b->staging_base, b->stacks_base, b->hart_stack_size,
        b->num_harts, b->fibers_base, b->fiber_pool_size, b->trace_base, b->trace_size, b->heap_base, b->heap_size,
        b->staging_size, b->program_base, b->program_size, b->ram_base, b->ram_size, 0};
    for (int i = 0; i < HOSTILE_LAYOUT_VALUES; i++) {
      a->marks[2 * i] = (uint)v[i];
      a->marks[2 * i + 1] = (uint)(v[i] >> 32);
    }
    return;
  }
  case HOSTILE_ECALL_PRINT_AT: {
    register uintptr_t a7 __asm__("a7") = RVHAL_ECALL_PRINT, a0 __asm__("a0") = 0, a1 __asm__("a1") = 0;
    register uintptr_t a2 __asm__("a2") = (uintptr_t)a->value, a3 __asm__("a3") = 16, a4 __asm__("a4") = 0;
    __asm__ volatile("ecall" ::"r"(a7), "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(a4) : "memory");
    return;
  }
  case HOSTILE_READ_STATUS: {
    unsigned long st;
    __asm__ volatile("csrr %0, sstatus" : "=r"(st)::"memory");
    a->marks[0] = (uint32_t)st;
    return;
  }
  case HOSTILE_STORE_AT:
    *(volatile uint32_t *)(uintptr_t)a->value = 0xdead;
    return;
  case HOSTILE_LOAD_AT:
    a->marks[0] = *(volatile uint32_t *)(uintptr_t)a->value;
    return;
  case HOSTILE_STACK_BOTTOM:
    stack_bottom(a->value, a->marks);
    return;
  case HOSTILE_FAIL_CODE:
    rvhal_svc_fail(e->group->ci, (int32_t)a->value, "hostile fail", 0x1234);
  case HOSTILE_FORGE_FIELD: {
    rvhal_launch_slot_t *slot = my_slot(e);
    const uint64_t seq = slot->desc.seq;
    slot->done.fault_hart = 0;
    slot->done.status = (a->value & 0xff) == 2 ? (int32_t)(a->value >> 32) : RVHAL_OK;
    slot->done.start_mtime = (a->value & 0xff) == 3 ? 1000 : 0;
    slot->done.end_mtime = (a->value & 0xff) == 3 ? 5 : 0;
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    slot->done.seq = (a->value & 0xff) == 1 ? seq + 7 : seq;
    *(volatile uint64_t *)&ctrl->ring.completed = seq;
    spin();
  }
  case HOSTILE_SP_BELOW: {
    uintptr_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    *(volatile uint32_t *)(sp - (uintptr_t)a->value) = 1;
    return;
  }
  }
}
RVHAL_KERNEL(hostile_act, hostile_args, hostile_item, RVHAL_GLOBAL(marks), RVHAL_VALUE(what), RVHAL_VALUE(value))

/* Straight on the ABI entry (no SDK): the address it returns to is the
 * firmware's, either its U-mode claim loop (a hart alone in its team) or
 * fw_user_return, whose ecall ends a call. what 0: marks[2 + g] = g + 1
 * for each group g it runs, marks[0..1] = that return address; what 1:
 * a store to it (the claim loop's code: executable, not writable); what 2:
 * a store into its own data segment (allowed: marks[0] = the value read
 * back), then into its own code (traps); what 3: marks its first group,
 * then makes the RVHAL_ECALL_RETURN ecall itself; what 4: a store into its
 * own data segment only (marks[1] = its address), and returns. */
typedef struct {
  __global uint *marks;
  uint64_t what;
} claims_args;

void hostile_claims(void *args, const hal_sched_info_t *sched);
RVHAL_KERNEL_META(hostile_claims, claims_args, RVHAL_GLOBAL(marks), RVHAL_VALUE(what))

static volatile uint32_t claims_data = 1; /* .data: the program's writable segment */

void hostile_claims(void *args, const hal_sched_info_t *sched) {
  const claims_args *a = args;
  const uintptr_t ra = (uintptr_t)__builtin_return_address(0);
  if (a->what == 2) {
    claims_data += 41;
    a->marks[0] = claims_data;
    a->marks[1] = (uint)(uintptr_t)&claims_data;
    a->marks[2] = (uint)(uintptr_t)hostile_claims;
    a->marks[3] = (uint)((uint64_t)(uintptr_t)hostile_claims >> 32);
    *(volatile uint32_t *)(uintptr_t)hostile_claims = 0x13;
    return;
  }
  if (a->what == 4) {
    claims_data += 1;
    a->marks[1] = (uint)(uintptr_t)&claims_data;
    return;
  }
  if (a->what == 1) {
    *(volatile uint32_t *)ra = 0x13;
    return;
  }
  if (a->what == 3) { /* its first group, then RVHAL_ECALL_RETURN itself (U-mode: services NULL) */
    a->marks[2 + sched->group_id_start[0]] = (uint)sched->group_id_start[0] + 1;
    const rvhal_call_info_t *ci = (const rvhal_call_info_t *)(uintptr_t)sched->hal_extra;
    if (!ci->services) {
      register uintptr_t a7 __asm__("a7") = RVHAL_ECALL_RETURN;
      __asm__ volatile("ecall" ::"r"(a7) : "memory");
    }
    return;
  }
  for (uint64_t g = 0; g < sched->num_groups_per_call[0]; g++) {
    const uint64_t id = sched->group_id_start[0] + g;
    a->marks[2 + id] = (uint)id + 1;
    if (id == 0) {
      a->marks[0] = (uint)ra;
      a->marks[1] = (uint)((uint64_t)ra >> 32);
    }
  }
}

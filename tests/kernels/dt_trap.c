/* Device tests (tests/device/trap.c): kernels that trap, never end or
 * overflow their stack. Every item marks marks[gid] = gid + 1 first; the
 * item `bad_item` records its hart (info[1]) and the address of the faulting
 * instruction (info[0]), then faults; loads and stores fault at the address
 * the host put in info[TRAP_INFO_FAULT_ADDR] (the board's unmapped one). */
#include "dt_shared.h"
#include "kernel_if.h"

#if __riscv_xlen == 64
#define STORE_WORD "sd"
#else
#define STORE_WORD "sw"
#endif

typedef struct {
  __global uint64_t *info;
  __global uint *marks;
  uint64_t bad_item;
} trap_args;

static int trap_prologue(const trap_args *a, exec_state_t *e) {
  size_t g = get_global_id(0, e);
  a->marks[g] = (uint)g + 1;
  if (g != a->bad_item) return 0;
  a->info[1] = e->group->ci->hart_index;
  a->info[2] = TRAP_REACHED; /* reached the fault */
  return 1;
}

static void trap_illegal_item(const trap_args *a, exec_state_t *e) {
  if (!trap_prologue(a, e)) return;
  __asm__ volatile("lla t0, 1f\n\t" STORE_WORD " t0, 0(%0)\n1:\t.word 0\n" ::"r"(&a->info[0]) : "t0", "memory");
}
RVHAL_KERNEL(trap_illegal, trap_args, trap_illegal_item, RVHAL_GLOBAL(info), RVHAL_GLOBAL(marks), RVHAL_VALUE(bad_item))

static void trap_load_item(const trap_args *a, exec_state_t *e) {
  if (!trap_prologue(a, e)) return;
  uintptr_t v = (uintptr_t)a->info[TRAP_INFO_FAULT_ADDR];
  __asm__ volatile("lla t0, 1f\n\t" STORE_WORD " t0, 0(%1)\n1:\tlw %0, 0(%0)\n"
                   : "+r"(v)
                   : "r"(&a->info[0])
                   : "t0", "memory");
  a->info[3] = v; /* not reached */
}
RVHAL_KERNEL(trap_load, trap_args, trap_load_item, RVHAL_GLOBAL(info), RVHAL_GLOBAL(marks), RVHAL_VALUE(bad_item))

static void trap_store_item(const trap_args *a, exec_state_t *e) {
  if (!trap_prologue(a, e)) return;
  uintptr_t addr = (uintptr_t)a->info[TRAP_INFO_FAULT_ADDR];
  __asm__ volatile("lla t0, 1f\n\t" STORE_WORD " t0, 0(%0)\n1:\tsw t0, 0(%1)\n" ::"r"(&a->info[0]), "r"(addr)
                   : "t0", "memory");
}
RVHAL_KERNEL(trap_store, trap_args, trap_store_item, RVHAL_GLOBAL(info), RVHAL_GLOBAL(marks), RVHAL_VALUE(bad_item))

/* Every item but bad_item waits at a barrier; bad_item faults before it. */
static void trap_barrier_item(const trap_args *a, exec_state_t *e) {
  if (trap_prologue(a, e))
    __asm__ volatile("lla t0, 1f\n\t" STORE_WORD " t0, 0(%0)\n1:\t.word 0\n" ::"r"(&a->info[0]) : "t0", "memory");
  barrier(e);
  a->marks[get_global_id(0, e)] = 0xdead; /* not reached by anyone */
}
RVHAL_KERNEL(trap_barrier, trap_args, trap_barrier_item, RVHAL_GLOBAL(info), RVHAL_GLOBAL(marks), RVHAL_VALUE(bad_item))

/* bad_item never returns. */
static void trap_loop_item(const trap_args *a, exec_state_t *e) {
  if (!trap_prologue(a, e)) return;
  for (;;) __asm__ volatile("" ::: "memory");
}
RVHAL_KERNEL(trap_loop, trap_args, trap_loop_item, RVHAL_GLOBAL(info), RVHAL_GLOBAL(marks), RVHAL_VALUE(bad_item))

/* The kernel that must work after each of the above: out[i] = i * 7 + k. */
typedef struct {
  __global uint *out;
  uint k;
} trap_good_args;

static void trap_good_item(const trap_good_args *a, exec_state_t *e) {
  size_t i = get_global_id(0, e);
  a->out[i] = (uint)i * 7u + a->k;
}
RVHAL_KERNEL(trap_good, trap_good_args, trap_good_item, RVHAL_GLOBAL(out), RVHAL_VALUE(k))

/* Uses `bytes` of stack (a variable-length array, every byte written). */
typedef struct {
  __global uint *out;
  uint64_t bytes;
} trap_stack_args;

static void trap_stack_item(const trap_stack_args *a, exec_state_t *e) {
  volatile uint8_t big[a->bytes];
  for (uint64_t i = 0; i < a->bytes; i++) big[i] = (uint8_t)i;
  uint sum = 0;
  for (uint64_t i = 0; i < a->bytes; i += 64) sum += big[i];
  a->out[get_global_id(0, e)] = sum;
}
RVHAL_KERNEL(trap_stack, trap_stack_args, trap_stack_item, RVHAL_GLOBAL(out), RVHAL_VALUE(bytes))

/* hostile.c's residue check (another program than dt_hostile): out[g] =
 * how many RESIDUE_MARK words group g's hart finds on its stack, from just
 * above the guard to just below this frame (value as HOSTILE_MARK_STACK),
 * and in its work-item stack pool. */
typedef struct {
  __global uint *out;
  uint64_t value;
} trap_residue_args;

static void trap_residue_item(const trap_residue_args *a, exec_state_t *e) {
  const uint64_t size = (a->value & 0xffff) << 16, base = a->value & ~(uint64_t)0xffff;
  uintptr_t sp;
  __asm__ volatile("mv %0, sp" : "=r"(sp));
  const volatile uint32_t *p =
      (const volatile uint32_t *)(uintptr_t)(base + e->group->ci->hart_index * size + RVHAL_STACK_GUARD + 16); /* above the canary */
  uint n = 0;
  for (; (uintptr_t)p < sp - 512; p++) n += *p == RESIDUE_MARK;
  const rvhal_call_info_t *ci = e->group->ci; /* and its whole work-item stack pool */
  for (p = (const volatile uint32_t *)ci->fiber_pool; (uintptr_t)p < ci->fiber_pool + ci->fiber_pool_size; p++)
    n += *p == RESIDUE_MARK;
  a->out[get_global_id(0, e)] = n;
}
RVHAL_KERNEL(trap_residue, trap_residue_args, trap_residue_item, RVHAL_GLOBAL(out), RVHAL_VALUE(value))

/* Phased start-up (after start.S):
 *   1. cold boot, on the first hart to arrive (in M-mode all harts arrive at
 *      once; under SBI only the boot hart runs): clear .bss, check the boot
 *      configuration the host wrote, bring up the board, release the other
 *      harts (an IPI to those waiting; an SBI HSM start for those stopped);
 *   2. warm boot, every hart: its own state, then it checks in with hart 0;
 *   3. hart 0 reports READY to the host; every hart moves to its own large
 *      stack and enters its loop: hart 0 the ring loop, the others the
 *      worker loop. Harts wait in wfi throughout, never spinning. */
#include <string.h>

#include "fw.h"
#include "fw_board.h"
#include "fw_isolation.h"
#include "fw_mmio.h"
#include "fw_wait.h"

fw_hart_t fw_harts[RVHAL_MAX_HARTS];
uint32_t fw_num_harts;

/* In .data, not .bss: the cold-boot hart clears .bss while the others poll
 * these. */
static volatile uint32_t fw_cold_claimed __attribute__((section(".data"))) = 0;
static volatile uint32_t fw_released __attribute__((section(".data"))) = 0;

extern uint8_t __bss_start[], __bss_end[], __fw_end[], _start[];

void fw_hart_entry(uint32_t index, uintptr_t hartid);

uint64_t fw_load_u64(const volatile uint64_t *p) {
#if __riscv_xlen == 64
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#else
  const volatile uint32_t *w = (const volatile uint32_t *)p;
  uint32_t hi, lo;
  do {
    hi = w[1];
    lo = w[0];
  } while (hi != w[1]);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return ((uint64_t)hi << 32) | lo;
#endif
}

/* Stores a monotonically growing value so that a host reading it halfway
 * through (RV32: two stores) sees a value no larger than the new one. */
void fw_store_u64(volatile uint64_t *p, uint64_t v) {
#if __riscv_xlen == 64
  __atomic_store_n(p, v, __ATOMIC_RELEASE);
#else
  volatile uint32_t *w = (volatile uint32_t *)p;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  w[0] = (uint32_t)v;
  w[1] = (uint32_t)(v >> 32);
#endif
}

void fw_fail(int32_t status, const char *what, uint64_t value) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  fw_format(ctrl->fw.message, sizeof ctrl->fw.message, "%s (0x%llx)", what, (unsigned long long)value);
  ctrl->fw.error = status;
  fw_fence();
  ctrl->fw.state = RVHAL_FW_FAILED;
  fw_fence();
  fw_host_notify();
  xcsr_write(CSR_XIE, 0);
  for (;;) fw_wfi();
}

static int region_ok(const rvhal_boot_config_t *b, uint64_t base, uint64_t size) {
  uint64_t lo = b->ram_base + RVHAL_DYNAMIC_OFFSET, hi = b->ram_base + b->ram_size;
  return base >= lo && size <= hi - lo && base - lo <= (hi - lo) - size;
}

/* Reject a configuration this firmware cannot honour before touching it. */
static void check_boot_config(const rvhal_boot_config_t *b) {
  if (b->magic != RVHAL_CTRL_MAGIC) fw_fail(RVHAL_FIRMWARE, "boot config: bad magic", b->magic);
  if (b->abi_version != RVHAL_ABI_VERSION)
    fw_fail(RVHAL_FIRMWARE, "boot config: host ABI version differs from firmware's", b->abi_version);
  if (b->num_harts == 0 || b->num_harts > RVHAL_MAX_HARTS || b->num_harts > fw_board.max_harts)
    fw_fail(RVHAL_FIRMWARE, "boot config: unsupported hart count", b->num_harts);
  if (b->ram_base != fw_board.ram_base) fw_fail(RVHAL_FIRMWARE, "boot config: RAM base is not this board's", b->ram_base);
  /* The host turns device ticks into time with its board description's
   * timebase: it must be this firmware's board's. */
  if (b->timebase_hz != fw_board.timebase_hz)
    fw_fail(RVHAL_FIRMWARE, "boot config: timebase is not this board's", b->timebase_hz);
  if (b->program_base != b->ram_base + RVHAL_PROGRAM_OFFSET || b->program_size > RVHAL_PROGRAM_MAX_SIZE)
    fw_fail(RVHAL_FIRMWARE, "boot config: program area misplaced", b->program_base);
  if (b->hart_stack_size < RVHAL_STACK_GUARD + 16384 || (b->hart_stack_size & (RVHAL_STACK_GUARD - 1)) ||
      (b->stacks_base & (RVHAL_STACK_GUARD - 1)))
    fw_fail(RVHAL_FIRMWARE, "boot config: hart stacks must be aligned to and larger than the guard",
            b->hart_stack_size);
  if (!region_ok(b, b->stacks_base, b->hart_stack_size * b->num_harts))
    fw_fail(RVHAL_FIRMWARE, "boot config: hart stacks outside RAM", b->stacks_base);
  if (!region_ok(b, b->fibers_base, b->fiber_pool_size * b->num_harts))
    fw_fail(RVHAL_FIRMWARE, "boot config: fiber pools outside RAM", b->fibers_base);
  if (b->fiber_pool_size <= RVHAL_STACK_GUARD || (b->fiber_pool_size & (RVHAL_STACK_GUARD - 1)) ||
      (b->fibers_base & (RVHAL_STACK_GUARD - 1)))
    fw_fail(RVHAL_FIRMWARE, "boot config: fiber pools must be aligned to and larger than the guard",
            b->fiber_pool_size);
  if (!region_ok(b, b->staging_base, b->staging_size))
    fw_fail(RVHAL_FIRMWARE, "boot config: staging area outside RAM", b->staging_base);
  /* Global memory: what kernels may use besides their program and stacks
   * (isolation), what command lists copy within; between the traces and
   * the staging area. */
  if (!region_ok(b, b->heap_base, b->heap_size) || b->heap_size == 0 ||
      b->heap_base < b->trace_base + b->trace_size * b->num_harts || b->heap_base + b->heap_size > b->staging_base)
    fw_fail(RVHAL_FIRMWARE, "boot config: global memory (heap) outside its place between traces and staging",
            b->heap_base);
}

static void hart_init(fw_hart_t *hart, uint32_t index) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  const rvhal_boot_config_t *b = &ctrl->boot;
  hart->index = index;
  hart->block = &ctrl->harts[index];
  memset(hart->block->counters, 0, sizeof hart->block->counters);
  hart->block->counters_seq = 0;
  memset(&hart->block->trap, 0, sizeof hart->block->trap);
  hart->call.abi_version = RVHAL_KERNEL_ABI_VERSION;
  hart->call.hart_index = index;
  hart->call.services = &fw_services;
  hart->call.counters = hart->block->counters;
  hart->call.local_mem_size = b->local_mem_size;
  /* A hart's pool of work-item stacks starts with a guard like its stack's. */
  uintptr_t pool = (uintptr_t)(b->fibers_base + (uint64_t)index * b->fiber_pool_size);
  hart->call.fiber_pool = pool + RVHAL_STACK_GUARD;
  hart->call.fiber_pool_size = (uintptr_t)b->fiber_pool_size - RVHAL_STACK_GUARD;
  hart->call.fiber_stack_size = (uintptr_t)b->fiber_stack_size;
  /* Below the stack and the pool, guards no kernel reaches; and what a
   * U-mode kernel may reach at all (fw_isolation.h). A privileged kernel
   * has only the canary above the stack's guard. */
  fw_isolation_hart(index);
  /* The kernel's block at the top of the hart's stack (user.c). */
  uintptr_t top = (uintptr_t)(b->stacks_base + (uint64_t)(index + 1) * b->hart_stack_size);
  hart->user = (fw_user_t *)((top - sizeof(fw_user_t)) & ~(uintptr_t)15);
  *fw_stack_canary(index) = FW_STACK_CANARY;
  fw_timer_set(index, FW_TIMER_OFF);
  fw_board_hart_init(index);
}

static void enter_loop(void *arg) {
  fw_hart_t *hart = arg;
  if (hart->index == 0) fw_ring_loop(hart);
  fw_worker_loop(hart);
}

/* Cold boot: once, on the first hart to arrive. */
static void cold_boot(uint32_t index) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
  ctrl->fw.abi_version = RVHAL_ABI_VERSION;
  ctrl->fw.harts_online = 0;
  ctrl->fw.polling = 0;
  if (fw_board.version != FW_BOARD_VERSION) fw_fail(RVHAL_FIRMWARE, "board struct version", fw_board.version);
  check_boot_config(&ctrl->boot);
  fw_num_harts = ctrl->boot.num_harts;
  fw_isolation_boot();
  int rc = fw_board_init();
  if (rc) fw_fail(rc, "board init failed", (uint64_t)(int64_t)rc);
  fw_fence();
  fw_released = 1;
  fw_fence();
  for (uint32_t i = 0; i < fw_num_harts; i++) {
    if (i == index) continue;
    if (fw_board.hart_start) {
      rc = fw_board.hart_start(i, (uintptr_t)_start);
      if (rc) fw_fail(RVHAL_FIRMWARE, "starting a hart failed (SBI HSM)", (uint64_t)i);
    } else {
      fw_wake(i, FW_WAKE_RELEASE);
    }
  }
}

/* Until the cold-boot hart has released this one (M-mode only: under SBI a
 * hart starts after the release). */
static void wait_release(uint32_t index) {
  xcsr_set(CSR_XIE, XIP_SOFT);
  FW_WAIT_UNTIL(index, fw_released);
}

void fw_hart_entry(uint32_t index, uintptr_t hartid) {
  rvhal_ctrl_t *ctrl = FW_CTRL;
  (void)hartid;

  if (__atomic_exchange_n(&fw_cold_claimed, 1, __ATOMIC_ACQ_REL) == 0) cold_boot(index);
  else wait_release(index);
  if (index >= fw_num_harts) {
    xcsr_write(CSR_XIE, 0);
    for (;;) fw_wfi();
  }

  fw_hart_t *hart = &fw_harts[index];
  fw_scratch_of(index)->hart = hart;
  hart_init(hart, index);
  xcsr_set(CSR_XIE, XIP_SOFT);
  __atomic_fetch_add(&ctrl->fw.harts_online, 1, __ATOMIC_ACQ_REL);

  if (index == 0) {
    FW_WAIT_UNTIL(0, __atomic_load_n(&ctrl->fw.harts_online, __ATOMIC_ACQUIRE) == fw_num_harts);
    fw_doorbell_enable();
    /* The doorbell; timers wake a hart only when it asked (polled doorbell,
     * print waits). */
    if (!fw_doorbell_polled()) xcsr_set(CSR_XIE, XIP_EXT);
    ctrl->fw.boot_mcycle = fw_read_mcycle();
    fw_fence();
    ctrl->fw.state = RVHAL_FW_READY;
    fw_fence();
    fw_host_notify();
  } else {
    fw_wake(0, FW_WAKE_ONLINE);
  }

  /* The firmware's own stack; the layout's hart stack is the kernels'. */
  uintptr_t top = (uintptr_t)(fw_main_stacks + (uintptr_t)(index + 1) * FW_MAIN_STACK_SIZE);
  fw_call_on_stack(hart, enter_loop, top);
}

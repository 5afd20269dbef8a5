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

/* In .data, not .bss: the cold-boot hart clears .bss while the others poll
 * these. */
static volatile uint32_t fw_cold_claimed __attribute__((section(".data"))) = 0;
static volatile uint32_t fw_released __attribute__((section(".data"))) = 0;

extern uint8_t __bss_start[], __bss_end[], __fw_end[], _start[];

void fw_hart_entry(uint32_t index, uintptr_t hartid);

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
  fw_hart_init(index);
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

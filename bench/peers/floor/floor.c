/* The floor of `rvhal-bench peers`: the loops of peer_kernels.h run
 * bare-metal on the QEMU machine rvhal uses, without rvhal (no firmware
 * launch, no SDK, no U-mode, no paging): what QEMU itself costs for the
 * kernel. rvhal over the floor is rvhal's own cost; the floor over QEMU
 * user mode is the system emulation's.
 *
 * Parameters come at FLOOR_PARAMS_ADDR (floor_params.h). Hart 0 fills the
 * inputs at rvhal's buffer addresses; every hart grows its TLB as rvhal's
 * firmware does (firmware/speed.c) and hart 0 prints "R". Then, round by
 * round, hart 0 waits for a byte on the UART (the host's go: rounds
 * interleave with rvhal's launches), wakes the others (CLINT IPIs), each
 * runs its contiguous share of the work-groups (as peer.c's threads), the
 * last to finish wakes hart 0, which prints "E". At the host's last byte
 * "C <checksum>", and QEMU is powered off. Waiting harts sleep in wfi: they cost the host
 * nothing while others work, and between rounds every vCPU thread sleeps,
 * so the host reads exact CPU times. */
#include <stddef.h>
#include <stdint.h>

#include "../peer_kernels.h"
#include "floor_params.h"

#define UART ((volatile uint8_t *)0x10000000u) /* ns16550 of QEMU's virt */
#define CLINT_MSIP ((volatile uint32_t *)0x2000000u)
#define TEST_FINISHER ((volatile uint32_t *)0x100000u)
#define PLIC ((volatile uint32_t *)0x0c000000u) /* virt's PLIC; the UART is its source 10 */
#define PLIC_UART 10u
#define PLIC_HART0_M_ENABLE (0x2000u / 4)       /* context 0: hart 0's M-mode */
#define PLIC_HART0_M_THRESHOLD (0x200000u / 4)
#define PLIC_HART0_M_CLAIM (0x200004u / 4)
#define FLOOR_STACK 65536u

__attribute__((aligned(16))) uint8_t floor_stacks[FLOOR_MAX_HARTS * FLOOR_STACK];

static volatile uint64_t go;   /* round number hart 0 released (1: TLB growth) */
static volatile uint64_t done; /* harts that finished the current round */

static void put(const char *s) {
  for (; *s; s++) {
    while (!(UART[5] & 0x20)) {
    }
    UART[0] = (uint8_t)*s;
  }
}

static void put_hex(uint64_t v) {
  char s[17];
  for (int i = 15; i >= 0; i--, v >>= 4) s[i] = "0123456789abcdef"[v & 15];
  s[16] = '\0';
  put(s);
}

static void sleep_until_ipi(uint64_t hart) {
  __asm__ volatile("wfi");
  CLINT_MSIP[hart] = 0;
}

/* Hart 0: the UART's receive interrupt through the PLIC ends its wfi. */
static void uart_rx_wakes(void) {
  PLIC[PLIC_UART] = 1; /* priority */
  PLIC[PLIC_HART0_M_ENABLE] = 1u << PLIC_UART;
  PLIC[PLIC_HART0_M_THRESHOLD] = 0;
  UART[1] = 1; /* IER: received data available */
  __asm__ volatile("csrs mie, %0" ::"r"(1u << 11)); /* MEIE */
}

/* Hart 0 sleeps until the host's byte arrives (a late IPI of the last
 * round may end a wfi early: cleared, slept again). */
static void wait_for_go(void) {
  while (!(UART[5] & 1)) {
    __asm__ volatile("wfi");
    CLINT_MSIP[0] = 0;
  }
  (void)UART[0];
  const uint32_t id = PLIC[PLIC_HART0_M_CLAIM];
  if (id) PLIC[PLIC_HART0_M_CLAIM] = id; /* complete */
}

/* As firmware/speed.c: for sizes 64 .. 2^(log2-1), read one byte of 3/4 of
 * that many pages and flush, so QEMU doubles the TLB at every flush. */
static void grow_tlb(const floor_params_t *p) {
  for (uint64_t size = 64; p->tlb_log2 && size < (1ull << p->tlb_log2); size *= 2) {
    volatile const uint8_t *a = (const uint8_t *)(uintptr_t)p->touch_base;
    for (uint64_t i = 0; i < size * 3 / 4; i++) (void)a[i * 4096];
    __asm__ volatile("sfence.vma" ::: "memory");
  }
}

static void run_share(const floor_params_t *p, const peer_bufs_t *b, uint64_t hart) {
  const peer_kernel_t *k = &peer_kernels[p->kernel];
  const uint64_t groups = peer_groups(k);
  peer_run_groups(k, b, groups * hart / p->harts, groups * (hart + 1) / p->harts);
}

/* The round's end: the last hart wakes hart 0. */
static void finish(const floor_params_t *p, uint64_t hart) {
  if (__atomic_add_fetch(&done, 1, __ATOMIC_ACQ_REL) == p->harts && hart != 0) CLINT_MSIP[0] = 1;
}

static size_t out_size(uint64_t kernel) {
  switch (kernel) {
  case PEER_VADD: return PEER_VADD_N * 4u;
  case PEER_MATMUL: return PEER_MM_N * PEER_MM_N * 4u;
  case PEER_BLUR: return PEER_BLUR_N * PEER_BLUR_N * 4u;
  default: return PEER_HIST_BINS * 4u;
  }
}

void floor_main(uint64_t hart) {
  const floor_params_t *p = (const floor_params_t *)(uintptr_t)FLOOR_PARAMS_ADDR;
  __asm__ volatile("csrw mie, %0" ::"r"(1u << 3)); /* MSIE: an IPI ends wfi (mstatus.MIE stays 0) */
  if (hart >= p->harts || p->harts > FLOOR_MAX_HARTS) {
    for (;;) __asm__ volatile("wfi");
  }
  const peer_bufs_t b = {(uint32_t *)(uintptr_t)p->in0, (uint32_t *)(uintptr_t)p->in1, (uint32_t *)(uintptr_t)p->out,
                         (float *)(uintptr_t)p->in0,    (float *)(uintptr_t)p->in1,    (float *)(uintptr_t)p->out,
                         (const uint8_t *)(uintptr_t)p->in0, (uint32_t *)(uintptr_t)p->out,
                         peer_size((int)p->kernel)};
  if (hart != 0) {
    for (uint64_t seen = 0;;) {
      while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) == seen) sleep_until_ipi(hart);
      seen = go;
      if (seen == 1) grow_tlb(p);
      else run_share(p, &b, hart);
      finish(p, hart);
    }
  }
  if (p->magic != FLOOR_MAGIC || p->kernel >= PEER_NUM_KERNELS) {
    put("X bad parameters\n");
    *TEST_FINISHER = 0x3333; /* fail */
  }
  switch (p->kernel) {
  case PEER_VADD: peer_init_vadd(b.a, b.b); break;
  case PEER_MATMUL:
    peer_init_floats(b.fa, PEER_MM_N * PEER_MM_N, 1);
    peer_init_floats(b.fb, PEER_MM_N * PEER_MM_N, 2);
    break;
  case PEER_BLUR: peer_init_floats(b.fa, PEER_BLUR_N * PEER_BLUR_N, 3); break;
  case PEER_HIST: peer_init_hist((uint8_t *)(uintptr_t)p->in0); break;
  }
  uart_rx_wakes();
  for (uint64_t round = 1; round <= p->rounds + 1; round++) { /* round 1: the TLB */
    if (p->kernel == PEER_HIST)
      for (uint32_t i = 0; i < PEER_HIST_BINS; i++) b.hist[i] = 0;
    __atomic_store_n(&done, 0, __ATOMIC_RELAXED);
    if (round == 2) put("R\n");
    if (round > 1) wait_for_go();
    __atomic_store_n(&go, round, __ATOMIC_RELEASE);
    for (uint64_t h = 1; h < p->harts; h++) CLINT_MSIP[h] = 1;
    if (round == 1) grow_tlb(p);
    else run_share(p, &b, 0);
    finish(p, 0);
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < p->harts) sleep_until_ipi(0);
    if (round > 1) put("E\n");
  }
  wait_for_go(); /* after the host's last reading: QEMU ends here */
  put("C ");
  put_hex(peer_checksum((const void *)(uintptr_t)p->out, out_size(p->kernel)));
  put("\n");
  *TEST_FINISHER = 0x5555; /* power off */
  for (;;) __asm__ volatile("wfi");
}

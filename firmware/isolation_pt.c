/* Isolation by page tables (fw_isolation.h), for an S-mode firmware (no
 * PMP): Sv39 page tables, an identity map, one tree per hart. U pages: the program
 * area (code RX, data RW), the firmware's U-mode claim loop (RX) and its
 * shared page (RW, user_loop.c), the stacks of the hart's team above their
 * guards (RW: call info, argument copies, local memory), the hart's own
 * work-item stack pool above its guard, and the heap. Everything else in
 * RAM is S-only (firmware, control block, print rings, other harts' stacks
 * and pools, every guard, traces, staged programs); OpenSBI's start of RAM
 * is unmapped, the low 2 GiB (MMIO) S-only gigapages.
 *
 * Megapages wherever a 2 MiB page is uniform, 4 KiB pages elsewhere. The
 * tables live in the firmware region from RVHAL_PT_OFFSET: first the ones
 * every hart shares (the program area's, always 4 KiB, so that a new
 * program's code/data boundary is a few PTE writes; the firmware's; the
 * heap's ends), then a fixed share per hart (root, level-1, the 4 KiB
 * tables around its own stacks and pool), rebuilt only when the hart's team
 * changes. The firmware runs with SUM set (it fills the kernel's memory);
 * a privileged launch runs with translation off (S-mode cannot execute U
 * pages). Each change is followed by an sfence.vma on the harts it
 * concerns (the program: every hart at its next share). */
#include <string.h>

#include "fw.h"
#include "fw_csr.h"
#include "fw_isolation.h"

#if __riscv_xlen != 64
#error "S-mode isolation is Sv39: RV64 only"
#endif

#define PTE_V 0x01ull
#define PTE_R 0x02ull
#define PTE_W 0x04ull
#define PTE_X 0x08ull
#define PTE_U 0x10ull
#define PTE_AD 0xc0ull /* accessed and dirty set: no hardware update */
#define S_RW (PTE_V | PTE_R | PTE_W | PTE_AD)
#define S_RWX (S_RW | PTE_X)
#define U_RX (PTE_V | PTE_R | PTE_X | PTE_U | PTE_AD)
#define U_RW (PTE_V | PTE_R | PTE_W | PTE_U | PTE_AD)

#define PG 4096ull
#define MP (2ull << 20)
#define GP (1ull << 30)
#define SATP_SV39 (8ull << 60)

typedef uint64_t pte_t;

#define PT_PAGES ((RVHAL_FW_REGION_SIZE - RVHAL_PT_OFFSET) / PG)
#define PT_SHARED 12
#define PT_PER_HART ((PT_PAGES - PT_SHARED) / RVHAL_MAX_HARTS)
#define MAX_BOUNDS 40

static pte_t (*tables)[512]; /* RVHAL_PT_OFFSET into the firmware region */
static uint32_t shared_used;
static struct {
  uintptr_t mp;
  pte_t *t;
} shared[PT_SHARED];
static uintptr_t prog_data, prog_top; /* the code/data boundary and the program's end the tables hold */
static volatile uint32_t prog_gen;

/* Per hart: the team range its tables were built for, the generation of
 * the program tables it has fenced, the satp it runs with. */
static struct {
  uintptr_t stacks, stacks_end;
  uint32_t used, gen;
  uint64_t satp, current;
} pt_hart[RVHAL_MAX_HARTS];

static uintptr_t fw_region(void) { return (uintptr_t)&fw_ctrl_block - RVHAL_CTRL_OFFSET; }

static int in(uintptr_t a, uintptr_t lo, uintptr_t hi) { return a >= lo && a < hi; }

/* The zone whose pages differ between harts: stacks and work-item pools. */
static void zone(uintptr_t *lo, uintptr_t *hi) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  *lo = (uintptr_t)b->stacks_base;
  *hi = (uintptr_t)(b->fibers_base + b->fiber_pool_size * b->num_harts);
}

static pte_t perm_common(uintptr_t a) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  const uintptr_t fw = fw_region(), ram_end = (uintptr_t)(b->ram_base + b->ram_size);
  if (a < (uintptr_t)b->ram_base) return S_RW; /* MMIO */
  if (a >= ram_end || a < fw) return 0;       /* past RAM; the SBI firmware's */
  if (in(a, (uintptr_t)__fw_user_start, (uintptr_t)__fw_user_shared)) return U_RX;
  if (in(a, (uintptr_t)__fw_user_shared, (uintptr_t)__fw_user_end)) return U_RW;
  if (in(a, fw, fw + RVHAL_FW_REGION_SIZE)) return S_RWX;
  const uintptr_t prog = (uintptr_t)b->program_base, prog_end = prog + (uintptr_t)b->program_size;
  if (in(a, prog, prog_end)) return a < prog_data ? U_RX : a < prog_top ? U_RW : S_RW;
  if (in(a, (uintptr_t)b->heap_base, (uintptr_t)(b->heap_base + b->heap_size))) return U_RW;
  return S_RW;
}

static pte_t perm_hart(uint32_t h, uintptr_t a) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  uintptr_t zlo, zhi;
  zone(&zlo, &zhi);
  if (!in(a, zlo, zhi)) return perm_common(a);
  const uintptr_t S = (uintptr_t)b->hart_stack_size, P = (uintptr_t)b->fiber_pool_size;
  const uintptr_t pool = (uintptr_t)b->fibers_base + h * P;
  if (in(a, pool + RVHAL_STACK_GUARD, pool + P)) return U_RW;
  if (in(a, pt_hart[h].stacks, pt_hart[h].stacks_end) && (a - (uintptr_t)b->stacks_base) % S >= RVHAL_STACK_GUARD)
    return U_RW;
  return S_RW;
}

/* Every address where hart h's permissions may change. */
static int bounds(uint32_t h, uintptr_t *out) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  const uintptr_t S = (uintptr_t)b->hart_stack_size, P = (uintptr_t)b->fiber_pool_size, fw = fw_region();
  const uintptr_t prog = (uintptr_t)b->program_base;
  uintptr_t zlo, zhi;
  zone(&zlo, &zhi);
  int n = 0;
  const uintptr_t fixed[] = {fw, (uintptr_t)__fw_user_start, (uintptr_t)__fw_user_shared, (uintptr_t)__fw_user_end,
                             fw + RVHAL_FW_REGION_SIZE, prog, prog + (uintptr_t)b->program_size, zlo, zhi,
                             (uintptr_t)b->heap_base, (uintptr_t)(b->heap_base + b->heap_size),
                             (uintptr_t)(b->ram_base + b->ram_size)};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++) out[n++] = fixed[i];
  const uintptr_t pool = (uintptr_t)b->fibers_base + h * P;
  out[n++] = pool + RVHAL_STACK_GUARD;
  out[n++] = pool + P;
  for (uintptr_t s = pt_hart[h].stacks; s < pt_hart[h].stacks_end && n < MAX_BOUNDS - 2; s += S) {
    out[n++] = s + RVHAL_STACK_GUARD;
    out[n++] = s + S;
  }
  return n;
}

static int uniform(const uintptr_t *bd, int n, uintptr_t mp) {
  for (int i = 0; i < n; i++)
    if (bd[i] > mp && bd[i] < mp + MP) return 0;
  return 1;
}

static pte_t table_pte(const void *t) { return ((uintptr_t)t >> 12) << 10 | PTE_V; }
static pte_t leaf(uintptr_t a, pte_t perm) { return perm ? (a >> 12) << 10 | perm : 0; }

static pte_t *shared_table(uintptr_t mp) {
  for (uint32_t i = 0; i < shared_used; i++)
    if (shared[i].mp == mp) return shared[i].t;
  return 0;
}

/* Boot, on the cold-boot hart before the others start: the shared tables
 * (every 2 MiB outside the per-hart zone that is not uniform, and all of
 * the program area). */
void fw_isolation_boot(void) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  tables = (pte_t(*)[512])(fw_region() + RVHAL_PT_OFFSET);
  const uintptr_t prog = (uintptr_t)b->program_base, prog_end = prog + (uintptr_t)b->program_size;
  prog_data = prog_top = prog_end;
  uintptr_t bd[MAX_BOUNDS], zlo, zhi;
  zone(&zlo, &zhi);
  const int n = bounds(0, bd) - 2; /* without hart 0's own (in the zone) */
  for (uintptr_t mp = fw_region() & ~(MP - 1); mp < (uintptr_t)(b->ram_base + b->ram_size); mp += MP) {
    if (mp + MP > zlo && mp < zhi) continue;
    if (uniform(bd, n, mp) && !(mp + MP > prog && mp < prog_end)) continue;
    if (shared_used == PT_SHARED) fw_fail(RVHAL_FIRMWARE, "page tables: layout needs too many shared tables", mp);
    pte_t *t = tables[shared_used];
    for (int i = 0; i < 512; i++) t[i] = leaf(mp + i * PG, perm_common(mp + i * PG));
    shared[shared_used].mp = mp;
    shared[shared_used++].t = t;
  }
}

static pte_t *hart_page(uint32_t h) {
  if (pt_hart[h].used == PT_PER_HART) fw_fail(RVHAL_FIRMWARE, "page tables: a hart's team needs too many tables", h);
  pte_t *t = tables[PT_SHARED + h * PT_PER_HART + pt_hart[h].used++];
  memset(t, 0, PG);
  return t;
}

/* Hart h's tree for its team's stacks [stacks, stacks_end). */
static void build(uint32_t h) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  uintptr_t bd[MAX_BOUNDS], zlo, zhi;
  zone(&zlo, &zhi);
  const int n = bounds(h, bd);
  pt_hart[h].used = 0;
  pte_t *root = hart_page(h);
  root[0] = leaf(0, S_RW); /* MMIO below RAM (virt: all of it under 2 GiB) */
  root[1] = leaf(GP, S_RW);
  const uintptr_t ram_end = (uintptr_t)(b->ram_base + b->ram_size);
  for (uintptr_t g = (uintptr_t)b->ram_base & ~(GP - 1); g < ram_end; g += GP) {
    pte_t *l1 = hart_page(h);
    root[(g >> 30) & 511] = table_pte(l1);
    for (uintptr_t mp = g; mp < g + GP && mp < ram_end; mp += MP) {
      pte_t *t = 0;
      if (mp + MP > zlo && mp < zhi) {
        if (!uniform(bd, n, mp)) {
          t = hart_page(h);
          for (int i = 0; i < 512; i++) t[i] = leaf(mp + i * PG, perm_hart(h, mp + i * PG));
        }
      } else {
        t = shared_table(mp);
      }
      l1[(mp >> 21) & 511] = t ? table_pte(t) : leaf(mp, perm_hart(h, mp));
    }
  }
  pt_hart[h].satp = SATP_SV39 | (uintptr_t)root >> 12;
}

static void use_satp(uint32_t h, uint64_t satp) {
  if (pt_hart[h].current == satp) return;
  pt_hart[h].current = satp;
  __asm__ volatile("csrw satp, %0\n\tsfence.vma" ::"r"(satp) : "memory");
}

/* Hart 0: translation off until its next share, to install a program
 * into pages its tables make RX. */
void fw_isolation_install_begin(void) { use_satp(0, 0); }

/* Each hart, at boot: its tree for a team of one, translation on. */
void fw_isolation_hart(uint32_t h) {
  __asm__ volatile("csrw scounteren, %0" ::"r"(7)); /* U-mode kernels may read cycle, time, instret */
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  pt_hart[h].stacks = (uintptr_t)b->stacks_base + h * (uintptr_t)b->hart_stack_size;
  pt_hart[h].stacks_end = pt_hart[h].stacks + (uintptr_t)b->hart_stack_size;
  pt_hart[h].gen = prog_gen;
  build(h);
  xcsr_set(CSR_XSTATUS, 1ul << 18); /* SUM: the firmware fills the kernel's memory */
  use_satp(h, pt_hart[h].satp);
}

/* Hart 0, when a launch installed a program: its code/data boundary and
 * its end (page-aligned, user.c); the program's pages up to the higher of
 * the old and new ends are rewritten. */
void fw_isolation_program(uintptr_t data, uintptr_t top) {
  const rvhal_boot_config_t *b = &FW_CTRL->boot;
  const uintptr_t prog = (uintptr_t)b->program_base, prog_end = prog + (uintptr_t)b->program_size;
  if (top < prog || top > prog_end) top = prog_end;
  if (data < prog || data > top) data = top;
  data = (data + PG - 1) & ~(PG - 1);
  if (data == prog_data && top == prog_top) return;
  const uintptr_t hi = top > prog_top ? top : prog_top;
  prog_data = data;
  prog_top = top;
  for (uintptr_t a = prog; a < hi; a += PG) shared_table(a & ~(MP - 1))[(a >> 12) & 511] = leaf(a, perm_common(a));
  __atomic_store_n(&prog_gen, prog_gen + 1, __ATOMIC_RELEASE);
}

/* Each hart, per share: its team's stacks; translation off for a
 * privileged launch; a fence if the program's tables changed. */
void fw_isolation_share(uint32_t h, const fw_reach_t *r, int privileged) {
  const uintptr_t stacks = r->stacks, stacks_end = r->stacks_end;
  if (privileged) {
    use_satp(h, 0);
    return;
  }
  int fence = 0;
  if (stacks != pt_hart[h].stacks || stacks_end != pt_hart[h].stacks_end) {
    use_satp(h, 0); /* never rewrite the tree in use */
    pt_hart[h].stacks = stacks;
    pt_hart[h].stacks_end = stacks_end;
    build(h);
  }
  const uint32_t gen = __atomic_load_n(&prog_gen, __ATOMIC_ACQUIRE);
  if (gen != pt_hart[h].gen) {
    pt_hart[h].gen = gen;
    fence = pt_hart[h].current == pt_hart[h].satp;
  }
  use_satp(h, pt_hart[h].satp);
  if (fence) __asm__ volatile("sfence.vma" ::: "memory");
}

/* Unit test of the device memory layout (host/src/device/layout.c): the fixed
 * regions of abi/rvhal/rvhal_protocol.h (firmware, control block, print rings,
 * program area), then hart stacks (each with its guard), work-item stack
 * pools, trace buffers, the heap and the program staging area, over a
 * matrix of hart counts, RAM sizes, local memory, work-group and item stack
 * sizes, on the real board (boards/qemu-virt) and a made-up one. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend/board_desc.h"
#include "board_fixture.h"
#include "check.h"
#include "device/layout.h"
#include "rvhal/status.h"
#include "rvhal/rvhal_protocol.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)

/* The staging area for loaded programs (layout.h): RAM / 16, at least
 * RVHAL_STAGING_MIN, with no ceiling: it grows with the RAM. */
static uint64_t staging_for(uint64_t ram) {
  uint64_t s = ram / 16;
  return s < RVHAL_STAGING_MIN ? RVHAL_STAGING_MIN : s;
}

typedef struct region {
  const char *name;
  uint64_t base, size;
} region_t;

static rvhal_layout_request_t request(uint32_t harts, uint64_t ram, uint64_t local_mem, uint32_t wg,
                                      uint64_t item_stack) {
  rvhal_layout_request_t r;
  memset(&r, 0, sizeof r);
  r.num_harts = harts;
  r.ram_size = ram;
  r.local_mem_size = local_mem;
  r.max_work_group_size = wg;
  r.item_stack_size = item_stack;
  return r;
}

static const char *describe(const rvhal_board_desc_t *b, const rvhal_layout_request_t *r) {
  static char s[200];
  snprintf(s, sizeof s, "board %s: %u harts, RAM %" PRIu64 " MiB, local %" PRIu64 ", work-group %u, item stack %" PRIu64,
           b->name, r->num_harts, (uint64_t)(r->ram_size / MiB), r->local_mem_size, r->max_work_group_size, r->item_stack_size);
  return s;
}

/* Every property a valid layout must have. */
static void check_layout(const rvhal_board_desc_t *b, const rvhal_layout_request_t *r, const rvhal_layout_t *l) {
  const char *what = describe(b, r);
  const uint64_t base = b->ram_base, top = b->ram_base + r->ram_size - b->ram_top_reserved;
  const uint64_t n = r->num_harts;

  /* echoes and fixed regions */
  CHECK_MSG(l->ram_base == base && l->ram_size == r->ram_size, "%s: RAM 0x%" PRIx64 "+%" PRIu64, what, l->ram_base,
            l->ram_size);
  CHECK_MSG(l->fw_base == base + b->fw_offset && l->ctrl == l->fw_base + RVHAL_CTRL_OFFSET &&
                l->print_base == l->fw_base + RVHAL_PRINT_OFFSET,
            "%s: firmware region at 0x%" PRIx64 ", control block at 0x%" PRIx64, what, l->fw_base, l->ctrl);
  CHECK_MSG(l->program_base == base + RVHAL_PROGRAM_OFFSET && l->program_size == RVHAL_PROGRAM_MAX_SIZE,
            "%s: program area 0x%" PRIx64 "+0x%" PRIx64, what, l->program_base, l->program_size);
  CHECK_MSG(l->local_mem_size == r->local_mem_size && l->max_work_group_size == r->max_work_group_size &&
                l->fiber_stack_size == r->item_stack_size,
            "%s: request not echoed", what);

  /* sizes */
  /* a hart's stack: a guard at its bottom, then local memory + 64 KiB */
  CHECK_MSG(l->hart_stack_size >= RVHAL_STACK_GUARD + r->local_mem_size + 64 * KiB,
            "%s: hart stack %" PRIu64 " < guard + local memory + 64 KiB", what, l->hart_stack_size);
  CHECK_MSG(l->stacks_base % RVHAL_STACK_GUARD == 0 && l->hart_stack_size % RVHAL_STACK_GUARD == 0,
            "%s: stack guards not aligned: stacks at 0x%" PRIx64 ", %" PRIu64 " bytes each", what, l->stacks_base,
            l->hart_stack_size);
  CHECK_MSG(l->fiber_pool_size >= (uint64_t)(r->max_work_group_size - 1) * r->item_stack_size && l->fiber_pool_size > 0,
            "%s: fiber pool %" PRIu64 " cannot hold %u item stacks", what, l->fiber_pool_size,
            r->max_work_group_size - 1);
  CHECK_MSG(l->heap_base % (64 * KiB) == 0, "%s: heap at 0x%" PRIx64 " not 64 KiB aligned", what, l->heap_base);
  CHECK_MSG(l->heap_size >= 4 * MiB, "%s: heap of %" PRIu64 " bytes", what, l->heap_size);
  /* the heap takes all the rest but the staging area, which ends at the
   * reserved top */
  CHECK_MSG(l->heap_base + l->heap_size == l->staging_base && l->staging_base + l->staging_size == top,
            "%s: heap ends at 0x%" PRIx64 ", staging 0x%" PRIx64 "+0x%" PRIx64 ", reserved top 0x%" PRIx64, what,
            l->heap_base + l->heap_size, l->staging_base, l->staging_size, top);
  CHECK_MSG(l->staging_size == staging_for(r->ram_size), "%s: staging area of %" PRIu64 " bytes", what,
            l->staging_size);
  /* stacks keep the 16-byte RISC-V stack alignment */
  CHECK_MSG(l->stacks_base % 16 == 0 && l->hart_stack_size % 16 == 0 && l->fibers_base % 16 == 0 &&
                l->fiber_pool_size % 16 == 0 && l->fiber_stack_size % 16 == 0,
            "%s: stack not 16-byte aligned", what);

  /* regions: inside RAM below the reserved top, in order, disjoint */
  region_t reg[] = {
      {"firmware", l->fw_base, RVHAL_FW_MAX_SIZE},
      {"control block", l->ctrl, RVHAL_CTRL_MAX_SIZE},
      {"print rings", l->print_base, (uint64_t)RVHAL_MAX_HARTS * RVHAL_PRINT_RING_SIZE},
      {"program area", l->program_base, l->program_size},
      {"hart stacks", l->stacks_base, n * l->hart_stack_size},
      {"fiber pools", l->fibers_base, n * l->fiber_pool_size},
      {"trace buffers", l->trace_base, n * l->trace_size},
      {"heap", l->heap_base, l->heap_size},
      {"staging area", l->staging_base, l->staging_size},
  };
  const int nreg = (int)(sizeof reg / sizeof *reg);
  for (int i = 0; i < nreg; i++) {
    CHECK_MSG(reg[i].base >= base && reg[i].size <= top - base && reg[i].base - base <= top - base - reg[i].size,
              "%s: %s 0x%" PRIx64 "+0x%" PRIx64 " outside RAM [0x%" PRIx64 ", 0x%" PRIx64 ")", what, reg[i].name,
              reg[i].base, reg[i].size, base, top);
    if (i > 0)
      CHECK_MSG(reg[i - 1].base + reg[i - 1].size <= reg[i].base, "%s: %s ends at 0x%" PRIx64 " after %s starts at 0x%" PRIx64,
                what, reg[i - 1].name, reg[i - 1].base + reg[i - 1].size, reg[i].name, reg[i].base);
    for (int j = 0; j < i; j++)
      CHECK_MSG(reg[j].base + reg[j].size <= reg[i].base || reg[i].base + reg[i].size <= reg[j].base,
                "%s: %s and %s overlap", what, reg[j].name, reg[i].name);
  }
  /* the dynamic part starts where the fixed map says */
  CHECK_MSG(l->stacks_base >= base + RVHAL_DYNAMIC_OFFSET, "%s: stacks at 0x%" PRIx64 " inside the fixed regions", what,
            l->stacks_base);
}

/* The least RAM any layout of these stacks needs: the fixed regions, the
 * stacks (with guards), pools and trace buffers at their minimum, 4 MiB of
 * heap, the staging area, the reserved top. */
static uint64_t ram_needed(const rvhal_board_desc_t *b, const rvhal_layout_request_t *r) {
  uint64_t pool = (uint64_t)(r->max_work_group_size - 1) * r->item_stack_size;
  return RVHAL_DYNAMIC_OFFSET +
         r->num_harts * (RVHAL_STACK_GUARD + r->local_mem_size + 64 * KiB + pool + RVHAL_TRACE_BYTES_PER_HART) +
         4 * MiB + staging_for(r->ram_size) + b->ram_top_reserved;
}

/* What rounding may add to that: stacks up to whole guards, pools to 4 KiB
 * (at least 4 KiB), the heap start to 64 KiB. */
static uint64_t rounding_slack(uint32_t harts) { return harts * (RVHAL_STACK_GUARD + 2 * 4 * KiB) + 64 * KiB; }

static void run_matrix(const rvhal_board_desc_t *b, uint32_t max_harts) {
  static const uint64_t rams[] = {32, 33, 40, 48, 64, 100, 256, 1000, 2047, 2048};
  static const uint64_t locals[] = {1 * KiB, 32 * KiB + 64, 64 * KiB, 1 * MiB, 4 * MiB - 64, 16 * MiB};
  static const uint32_t wgs[] = {1, 2, 64, 256, 1024, 65536};
  static const uint64_t items[] = {1 * KiB, 4 * KiB, 16 * KiB + 16, 1 * MiB};
  int ok = 0, too_small = 0;
  for (uint32_t h = 1; h <= max_harts; h++)
    for (size_t ri = 0; ri < sizeof rams / sizeof *rams; ri++)
      for (size_t li = 0; li < sizeof locals / sizeof *locals; li++)
        for (size_t wi = 0; wi < sizeof wgs / sizeof *wgs; wi++)
          for (size_t ii = 0; ii < sizeof items / sizeof *items; ii++) {
            rvhal_layout_request_t r = request(h, rams[ri] * MiB, locals[li], wgs[wi], items[ii]);
            rvhal_layout_t l;
            memset(&l, 0x5a, sizeof l);
            int rc = rvhal_layout_compute(b, &r, &l);
            uint64_t need = ram_needed(b, &r), slack = rounding_slack(h);
            if (rc == RVHAL_OK) {
              check_layout(b, &r, &l);
              ok++;
            } else {
              CHECK_MSG(rc == RVHAL_INVALID_ARGUMENT, "%s: returned %d", describe(b, &r), rc);
              CHECK_MSG(need + slack > r.ram_size, "%s: refused although %" PRIu64 " MiB would do: %s", describe(b, &r),
                        (uint64_t)((need + slack + MiB - 1) / MiB), rvhal_last_error());
              char needle[64];
              snprintf(needle, sizeof needle, "RAM size %" PRIu64 " MiB", rams[ri]);
              CHECK_MSG(strstr(rvhal_last_error(), needle) != NULL, "%s: message \"%s\" does not say \"%s\"",
                        describe(b, &r), rvhal_last_error(), needle);
              too_small++;
            }
          }
  /* the matrix really has both outcomes */
  CHECK_MSG(ok > 500 && too_small > 500, "%d layouts, %d refused", ok, too_small);
}

static rvhal_board_desc_t rvhal_board;

static void test_matrix(void) {
  rvhal_board = qemu_virt_board();
  run_matrix(&rvhal_board, 8);
  CHECK_EQ_U64(rvhal_board.max_harts, RVHAL_MAX_HARTS); /* qemu-virt */
  CHECK_EQ_U64(rvhal_board.ram_base, 0x80000000ull);
  CHECK_EQ_U64(rvhal_board.ram_top_reserved, 2 * MiB);
}

static void test_other_board(void) {
  rvhal_board_desc_t b = rvhal_board;
  snprintf(b.name, sizeof b.name, "made-up");
  b.ram_base = 0x40000000ull;
  b.ram_top_reserved = 0;
  b.max_harts = 4;
  run_matrix(&b, 4);
  rvhal_layout_t l;
  rvhal_layout_request_t r = request(5, 256 * MiB, 64 * KiB, 256, 4 * KiB);
  CHECK_FAILS(rvhal_layout_compute(&b, &r, &l), RVHAL_INVALID_ARGUMENT, "5 harts requested; board made-up supports 1 to 4");
  r.num_harts = 4;
  CHECK_OK(rvhal_layout_compute(&b, &r, &l));
  CHECK_EQ_U64(l.staging_base + l.staging_size, 0x40000000ull + 256 * MiB); /* nothing reserved at the top */
  /* Under an SBI firmware: the firmware region 2 MiB in, the rest unmoved. */
  b.fw_offset = RVHAL_FW_REGION_SIZE;
  run_matrix(&b, 4);
  CHECK_OK(rvhal_layout_compute(&b, &r, &l));
  CHECK_EQ_U64(l.ctrl, 0x40000000ull + RVHAL_FW_REGION_SIZE + RVHAL_CTRL_OFFSET);
  CHECK_EQ_U64(l.program_base, 0x40000000ull + RVHAL_PROGRAM_OFFSET);
}

static void test_exact_small(void) {
  /* One hart, the smallest everything, in the smallest RAM the options
   * accept (32 MiB): it must lay out. */
  rvhal_layout_request_t r = request(1, 32 * MiB, 1 * KiB, 1, 1 * KiB);
  rvhal_layout_t l;
  int rc = rvhal_layout_compute(&rvhal_board, &r, &l);
  CHECK_MSG(rc == RVHAL_OK, "the smallest RAM accepted, 32 MiB, cannot hold the smallest layout: %s",
            rvhal_last_error());
  if (rc == RVHAL_OK) {
    CHECK_EQ_U64(l.stacks_base, 0x80000000ull + RVHAL_DYNAMIC_OFFSET);
    CHECK(l.hart_stack_size >= RVHAL_STACK_GUARD + 65 * KiB && l.hart_stack_size <= 2 * RVHAL_STACK_GUARD + 65 * KiB);
    check_layout(&rvhal_board, &r, &l);
  }

  /* Just enough RAM for the stacks, then one MiB less: 8 harts with 16 MiB
   * of local memory need 8 * (16 MiB + 64 KiB) of stacks (with guards and
   * trace buffers). */
  uint64_t fits = 0;
  for (uint64_t ram = 32; ram <= 2048 && !fits; ram++) {
    r = request(8, ram * MiB, 16 * MiB, 1, 1 * KiB);
    if (rvhal_layout_compute(&rvhal_board, &r, &l) == RVHAL_OK) fits = ram;
  }
  CHECK_MSG(fits > 128, "8 harts x 16 MiB local memory first fit in %" PRIu64 " MiB", fits);
  r = request(8, fits * MiB, 16 * MiB, 1, 1 * KiB);
  CHECK(ram_needed(&rvhal_board, &r) <= fits * MiB);
  r = request(8, (fits - 1) * MiB, 16 * MiB, 1, 1 * KiB);
  CHECK_MSG(ram_needed(&rvhal_board, &r) + rounding_slack(8) > (fits - 1) * MiB,
            "8 harts x 16 MiB local memory refused in %" PRIu64 " MiB", fits - 1);
  char needle[64];
  snprintf(needle, sizeof needle, "RAM size %" PRIu64 " MiB", fits - 1);
  CHECK_FAILS(rvhal_layout_compute(&rvhal_board, &r, &l), RVHAL_INVALID_ARGUMENT, needle);
}

/* Hart i's stack and pool (their guards, which the firmware locks in
 * PMP) at the same addresses whatever the device's hart count, where RAM
 * leaves room: a reset that keeps PMP locks (QEMU 7.2's system_reset, under
 * an attached stub) then leaves the previous device's guards where the next
 * one wants them (tests/device/shapes.c runs it). Where RAM leaves no room
 * for every hart's stack, the device's harts still fit. */
static void test_guards_stable(void) {
  rvhal_layout_t first, l;
  rvhal_layout_request_t r = request(1, 256 * MiB, 64 * KiB, 1024, 4 * KiB);
  CHECK_OK(rvhal_layout_compute(&rvhal_board, &r, &first));
  for (uint32_t n = 2; n <= rvhal_board.max_harts; n++) {
    r = request(n, 256 * MiB, 64 * KiB, 1024, 4 * KiB);
    CHECK_OK(rvhal_layout_compute(&rvhal_board, &r, &l));
    CHECK_EQ_U64(l.stacks_base, first.stacks_base);
    CHECK_EQ_U64(l.fibers_base, first.fibers_base);
    CHECK_EQ_U64(l.hart_stack_size, first.hart_stack_size);
    CHECK_EQ_U64(l.fiber_pool_size, first.fiber_pool_size);
  }
  /* one hart with 4 MiB of local memory in 40 MiB: 8 stacks would not fit */
  r = request(1, 40 * MiB, 4 * MiB, 1, 1 * KiB);
  int rc = rvhal_layout_compute(&rvhal_board, &r, &l);
  CHECK_MSG(rc == RVHAL_OK, "1 hart, 4 MiB local memory, 40 MiB: %s", rvhal_last_error());
  if (rc == RVHAL_OK) {
    CHECK_EQ_U64(l.fibers_base, l.stacks_base + l.hart_stack_size);
    check_layout(&rvhal_board, &r, &l);
  }
}

static void test_invalid(void) {
  const rvhal_board_desc_t *b = &rvhal_board;
  rvhal_layout_t l, before;
  memset(&l, 0x77, sizeof l);
  before = l;
  rvhal_layout_request_t r;
#define REFUSED(req, needle)                                                                  \
  do {                                                                                        \
    r = (req);                                                                                \
    CHECK_FAILS(rvhal_layout_compute(b, &r, &l), RVHAL_INVALID_ARGUMENT, needle);             \
    CHECK_MSG(memcmp(&l, &before, sizeof l) == 0, "a refused layout wrote its output");       \
  } while (0)
  /* harts */
  REFUSED(request(0, 256 * MiB, 64 * KiB, 256, 4 * KiB), "0 harts");
  REFUSED(request(9, 256 * MiB, 64 * KiB, 256, 4 * KiB), "9 harts");
  REFUSED(request(UINT32_MAX, 256 * MiB, 64 * KiB, 256, 4 * KiB), "4294967295 harts");
  /* RAM: whole MiB, 32 to 2048 */
  REFUSED(request(4, 256 * MiB + 1, 64 * KiB, 256, 4 * KiB), "RAM size 268435457 bytes");
  REFUSED(request(4, 256 * MiB - 4 * KiB, 64 * KiB, 256, 4 * KiB), "RAM size 268431360 bytes");
  REFUSED(request(1, 31 * MiB, 1 * KiB, 1, 1 * KiB), "RAM size 32505856 bytes");
  REFUSED(request(1, 0, 1 * KiB, 1, 1 * KiB), "RAM size 0 bytes");
  REFUSED(request(1, 2049 * MiB, 1 * KiB, 1, 1 * KiB), "RAM size 2148532224 bytes");
  REFUSED(request(1, 1ull << 40, 1 * KiB, 1, 1 * KiB), "RAM size 1099511627776 bytes");
  /* local memory: a multiple of 64 from 1 KiB to 16 MiB */
  REFUSED(request(4, 256 * MiB, 1000, 256, 4 * KiB), "local memory size 1000 bytes");
  REFUSED(request(4, 256 * MiB, 64 * KiB + 32, 256, 4 * KiB), "local memory size 65568 bytes");
  REFUSED(request(4, 256 * MiB, 960, 256, 4 * KiB), "local memory size 960 bytes");
  REFUSED(request(4, 256 * MiB, 0, 256, 4 * KiB), "local memory size 0 bytes");
  REFUSED(request(4, 256 * MiB, 16 * MiB + 64, 256, 4 * KiB), "local memory size 16777280 bytes");
  /* work-group size: 1 to 65536 */
  REFUSED(request(4, 256 * MiB, 64 * KiB, 0, 4 * KiB), "max work-group size 0");
  REFUSED(request(4, 256 * MiB, 64 * KiB, 65537, 4 * KiB), "max work-group size 65537");
  /* item stack: a multiple of 16 from 1 KiB to 1 MiB */
  REFUSED(request(4, 256 * MiB, 64 * KiB, 256, 512), "work-item stack size 512 bytes");
  REFUSED(request(4, 256 * MiB, 64 * KiB, 256, 0), "work-item stack size 0 bytes");
  REFUSED(request(4, 256 * MiB, 64 * KiB, 256, 4 * KiB + 8), "work-item stack size 4104 bytes");
  REFUSED(request(4, 256 * MiB, 64 * KiB, 256, 1 * MiB + 16), "work-item stack size 1048592 bytes");
  /* RAM too small for the stacks */
  REFUSED(request(8, 2048 * MiB, 64 * KiB, 65536, 1 * MiB), "RAM size 2048 MiB");
  REFUSED(request(8, 32 * MiB, 16 * MiB, 1, 1 * KiB), "RAM size 32 MiB");
  REFUSED(request(2, 64 * MiB, 64 * KiB, 1024, 64 * KiB), "RAM size 64 MiB");
#undef REFUSED
  /* the limits themselves are accepted */
  r = request(8, 2048 * MiB, 16 * MiB, 65536, 1 * KiB);
  CHECK_OK(rvhal_layout_compute(b, &r, &l));
  check_layout(b, &r, &l);
  r = request(1, 2048 * MiB, 1 * KiB, 1, 1 * MiB);
  CHECK_OK(rvhal_layout_compute(b, &r, &l));
  check_layout(b, &r, &l);
}

/* The program store grows with the RAM (no fixed ceiling: pyopencl keeps
 * ~30 programs of ~1 MiB alive), and the device reports it. */
static void test_program_store(void) {
  const rvhal_board_desc_t b = qemu_virt_board();
  const uint64_t rams[] = {32 * MiB, 256 * MiB, 1024 * MiB, 2048 * MiB};
  for (size_t i = 0; i < sizeof rams / sizeof *rams; i++) {
    rvhal_layout_request_t r = request(4, rams[i], 64 * KiB, 256, 4 * KiB);
    rvhal_layout_t l;
    CHECK_OK(rvhal_layout_compute(&b, &r, &l));
    CHECK_MSG(l.staging_size == rams[i] / 16, "%s: program store %" PRIu64 " bytes, not RAM/16", describe(&b, &r),
              l.staging_size);
    rvhal_device_info_t info = {0};
    rvhal_layout_describe(&l, &info);
    CHECK_EQ_U64(info.program_store_size, l.staging_size);
    CHECK_EQ_U64(info.global_mem_size, l.heap_size);
  }
}

int main(void) {
  test_matrix();
  test_program_store();
  test_other_board();
  test_exact_small();
  test_guards_stable();
  test_invalid();
  return check_result("layout");
}

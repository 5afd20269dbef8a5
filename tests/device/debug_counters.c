/* Per-hart counters over the debug link (rvhal_device_debug_counters): on
 * the GDB-remote backend every hart's mcycle and minstret read through the
 * stub after a launch; hart 0 (which takes every launch) retired more
 * instructions after a second launch than after the first, and every hart
 * of a launch that used them all has run. On the QEMU backend (no debug
 * link) the call says it is unsupported.
 *
 * With counters on, the same CSRs are read at every launch's submission
 * and completion and reported as the debug_cycles and debug_instructions
 * counters of every hart. Their span encloses the hart's own part of the
 * launch, which the firmware measures with the same CSRs, so for every hart
 * that took part debug_cycles >= cycles and (instructions from minstret,
 * no plugin) debug_instructions >= instructions; hart 0 ran, so its
 * debug_instructions > 0. Without a debug link the counters are not listed
 * and reading them is RVHAL_NOT_FOUND. */
#include "dev_util.h"

#define ITEMS 256

/* The last launch's counters through the counter API. */
static void check_launch_counters(rvhal_device_t *d, uint32_t harts, int debug_link) {
  uint32_t num;
  const rvhal_counter_description_t *desc;
  CHECK_OK(rvhal_device_counters(d, &num, &desc));
  int listed = 0;
  for (uint32_t i = 0; i < num; i++)
    listed += desc[i].counter_id == RVHAL_HART_COUNTER_DEBUG_CYCLES ||
              desc[i].counter_id == RVHAL_HART_COUNTER_DEBUG_INSTRET;
  CHECK_MSG(listed == (debug_link ? 2 : 0), "%d debug counters listed, debug link %d", listed, debug_link);
  uint64_t plugin;
  const int from_minstret = rvhal_device_instructions(d, 0, &plugin) == RVHAL_UNSUPPORTED;

  for (uint32_t h = 0; h < harts; h++) {
    uint64_t cyc = 0, ins = 0, dcyc = 0, dins = 0, items = 0;
    CHECK_MSG(rvhal_counter_read(d, RVHAL_HART_COUNTER_CYCLES, &cyc, h) == 1, "hart %u: no cycles", h);
    CHECK_MSG(rvhal_counter_read(d, RVHAL_HART_COUNTER_INSTRET, &ins, h) == 1, "hart %u: no instructions", h);
    CHECK_MSG(rvhal_counter_read(d, RVHAL_HART_COUNTER_ITEMS, &items, h) == 1, "hart %u: no work_items", h);
    int rc = rvhal_counter_read(d, RVHAL_HART_COUNTER_DEBUG_CYCLES, &dcyc, h);
    int ri = rvhal_counter_read(d, RVHAL_HART_COUNTER_DEBUG_INSTRET, &dins, h);
    if (!debug_link) {
      CHECK_MSG(rc == RVHAL_NOT_FOUND && ri == RVHAL_NOT_FOUND, "hart %u without a debug link: debug counters "
                "read %s, %s (expected RVHAL_NOT_FOUND)", h, rvhal_status_name(rc), rvhal_status_name(ri));

      continue;
    }
    CHECK_MSG(rc == 1 && ri == 1, "hart %u: debug counters read %d, %d (expected a fresh value, 1)", h, rc, ri);
    printf("hart %u: %llu items, firmware: cycles %llu instructions %llu; debug link: cycles %llu instructions %llu\n",
           h, (unsigned long long)items, (unsigned long long)cyc, (unsigned long long)ins, (unsigned long long)dcyc,
           (unsigned long long)dins);
    if (h == 0) CHECK_MSG(dins > 0 && dcyc > 0, "hart 0: debug counters %llu cycles, %llu instructions",
                          (unsigned long long)dcyc, (unsigned long long)dins);
    if (!items) continue; /* sat out: the firmware reports zeros */
    CHECK_MSG(dcyc >= cyc, "hart %u: debug_cycles %llu < the firmware's cycles %llu (the debug span encloses it)", h,
              (unsigned long long)dcyc, (unsigned long long)cyc);
    if (from_minstret)
      CHECK_MSG(dins >= ins, "hart %u: debug_instructions %llu < the firmware's minstret count %llu", h,
                (unsigned long long)dins, (unsigned long long)ins);
  }
}

int main(void) {
  rvhal_device_options_t o = {.counters = 1};
  rvhal_device_t *d = fixture_device_opts(4, &o);
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  const char *backend = getenv("RVHAL_BACKEND");
  const int debug_link = (backend && !strcmp(backend, "gdb")) || getenv("RVHAL_GDB_REMOTE");
  hal_program_t p = fixture_program(d, "dt_prog_b");
  hal_kernel_t k = fixture_kernel(d, p, "prog_b_fill");
  hal_addr_t out = dt_buffer(d, ITEMS * 4, NULL);
  uint64_t first[RVHAL_MAX_HARTS] = {0};
  for (int round = 0; round < 2; round++) {
    uint32_t v = 7;
    hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&v, 4)};
    hal_ndrange_t nd = {.global = {ITEMS}, .local = {1}}; /* one item a group: every hart gets groups */
    CHECK_OK(rvhal_kernel_exec(d, p, k, &nd, args, 2, 1));
    for (uint32_t h = 0; h < harts; h++) {
      uint64_t cycle = 0, instret = 0;
      int rc = rvhal_device_debug_counters(d, h, &cycle, &instret);
      if (!debug_link) {
        CHECK_MSG(rc == RVHAL_UNSUPPORTED, "hart %u without a debug link: %s (expected RVHAL_UNSUPPORTED)", h,
                  rvhal_status_name(rc));
        continue;
      }
      CHECK_OK(rc);
      printf("round %d hart %u: mcycle %llu minstret %llu\n", round, h, (unsigned long long)cycle,
             (unsigned long long)instret);
      CHECK_MSG(instret > 0 && cycle > 0, "hart %u: mcycle %llu, minstret %llu after a launch", h,
                (unsigned long long)cycle, (unsigned long long)instret);
      if (round == 0) first[h] = instret;
      else if (h == 0)
        CHECK_MSG(instret > first[h], "hart 0: minstret %llu after the second launch, %llu after the first",
                  (unsigned long long)instret, (unsigned long long)first[h]);
    }
    check_launch_counters(d, harts, debug_link);
  }
  uint64_t c, i;
  CHECK_FAILS(rvhal_device_debug_counters(d, harts, &c, &i), RVHAL_INVALID_ARGUMENT, "the device has");
  uint32_t got[ITEMS];
  CHECK_OK(rvhal_mem_read(d, got, out, sizeof got));
  CHECK_MSG(got[0] == 7 && got[ITEMS - 1] == 7 + ITEMS - 1, "out[0] %u, out[last] %u", got[0], got[ITEMS - 1]);
  rvhal_device_delete(d);
  return check_result("debug_counters");
}

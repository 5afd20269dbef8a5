/* Per-hart counters over the debug link (rvhal_device_debug_counters): on
 * the GDB-remote backend every hart's mcycle and minstret read through the
 * stub after a launch; hart 0 (which takes every launch) retired more
 * instructions after a second launch than after the first, and every hart
 * of a launch that used them all has run. On the QEMU backend (no debug
 * link) the call says it is unsupported. */
#include "dev_util.h"

#define ITEMS 256

int main(void) {
  rvhal_device_t *d = fixture_device(4);
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
  }
  uint64_t c, i;
  CHECK_FAILS(rvhal_device_debug_counters(d, harts, &c, &i), RVHAL_INVALID_ARGUMENT, "the device has");
  uint32_t got[ITEMS];
  CHECK_OK(rvhal_mem_read(d, got, out, sizeof got));
  CHECK_MSG(got[0] == 7 && got[ITEMS - 1] == 7 + ITEMS - 1, "out[0] %u, out[last] %u", got[0], got[ITEMS - 1]);
  rvhal_device_delete(d);
  return check_result("debug_counters");
}

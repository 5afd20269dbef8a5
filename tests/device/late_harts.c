/* Launches back to back whose harts come late: a launch of teams of one is
 * complete once its groups are done, and a hart woken for it that comes
 * after that must sleep again without touching it, even while the next
 * launch is being set up (firmware/include/fw_launch.h). Shapes alternate
 * so that a late hart of one launch meets a launch of another shape: one
 * group, a group per hart, more groups than harts, and one group shared by
 * every hart (a team, which waits for all its harts). Every launch must
 * write exactly its own items with its own value, and say how many harts
 * it used; with hart 0 lingering (back-to-back launches skip the doorbell)
 * and with a doorbell every launch. */
#include "dev_util.h"

#define ROUNDS 200

static void run(uint32_t linger_us, const char *mode) {
  rvhal_device_options_t o = {.linger_us = linger_us};
  rvhal_device_t *d = fixture_device_opts(4, &o);
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  hal_program_t p = fixture_program(d, "dt_prog_b");
  hal_kernel_t k = fixture_kernel(d, p, "prog_b_fill");
  const uint32_t n = 2 * harts + 2; /* the largest launch's items, and one more never written */
  hal_addr_t out = dt_buffer(d, n * 4, NULL);
  uint32_t *got = malloc(n * 4), *none = malloc(n * 4);
  CHECK_MSG(got && none, "out of memory");
  memset(none, 0xff, n * 4);
  int wrong = 0;
  for (uint32_t r = 0; r < ROUNDS && !wrong; r++) {
    const uint32_t shape = r % 4;
    const uint32_t groups = shape == 0 ? 1 : shape == 1 ? harts : shape == 2 ? 2 * harts + 1 : 1;
    const uint32_t items = shape == 3 ? harts : 1;
    const uint32_t want_harts = shape == 0 ? 1 : harts;
    rvhal_launch_options_t lo = {.harts_per_group = shape == 3 ? harts : 1};
    uint32_t v = 1000 * (r + 1);
    CHECK_OK(rvhal_mem_write(d, out, none, n * 4));
    hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&v, 4)};
    hal_ndrange_t nd = {.global = {groups * items}, .local = {items}};
    CHECK_OK(rvhal_kernel_exec_ex(d, p, k, &nd, args, 2, 1, &lo));
    rvhal_launch_report_t rep;
    CHECK_OK(rvhal_device_last_launch(d, &rep));
    wrong |= rep.harts != want_harts;
    CHECK_MSG(rep.harts == want_harts, "%s, launch %u (%u groups of %u): %u harts took part, expected %u", mode, r,
              groups, items, rep.harts, want_harts);
    CHECK_OK(rvhal_mem_read(d, got, out, n * 4));
    for (uint32_t i = 0; i < n; i++) {
      const uint32_t want = i < groups * items ? v + i : 0xffffffffu;
      CHECK_MSG(got[i] == want, "%s, launch %u (%u groups of %u items): out[%u] = %u, expected %u", mode, r, groups,
                items, i, got[i], want);
      if (got[i] != want) {
        wrong = 1;
        break;
      }
    }
  }
  free(got);
  free(none);
  CHECK_OK(rvhal_mem_free(d, out));
  CHECK_OK(rvhal_program_free(d, p));
  rvhal_device_delete(d);
}

int main(void) {
  run(0, "hart 0 lingering");
  run(RVHAL_LINGER_OFF, "doorbell every launch");
  return check_result("late harts");
}

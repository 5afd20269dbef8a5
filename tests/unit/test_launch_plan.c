/* The launch's check and plan steps (host/src/launch/launch_plan.c), pure:
 * no device. Every refusal names the value; the plan's ND-range, argument
 * layout, local memory, teams and chunks; the rules shared with the
 * firmware (abi/rvhal/rvhal_launch_rules.h); the same request planned twice
 * gives the same plan. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "launch/launch_plan.h"
#include "program/program.h"
#include "rvhal/rvhal_launch_rules.h"

static const rvhal_launch_limits_t lim = {.word_size = 8, .num_harts = 4, .max_work_group_size = 1024,
                                          .local_mem_size = 65536, .host_cpus = 2, .exact_timing = 0};
static rvhal_kernel_entry_t k = {.name = "k"};
static rvhal_launch_plan_t plan;

/* The plan of a request over these arrays (what kernel_exec hands it). */
static int plan_request(const rvhal_launch_limits_t *l, const rvhal_kernel_entry_t *kobj, uint64_t tls,
                        const hal_ndrange_t *nd, const hal_arg_t *args, uint32_t n, uint32_t dim,
                        const rvhal_launch_options_t *o, int counting, int tracing, rvhal_launch_plan_t *out) {
  const rvhal_launch_request_t r = rvhal_launch_request_view(0, 0, nd, args, n, dim, o);
  return rvhal_launch_plan(l, kobj, tls, &r, counting, tracing, out);
}

static int plan_of(const rvhal_launch_limits_t *l, uint64_t g, uint64_t lo, const hal_arg_t *args, uint32_t n,
                   uint32_t dim, const rvhal_launch_options_t *o) {
  hal_ndrange_t nd = {.global = {g, g, g}, .local = {lo, lo, lo}};
  return plan_request(l, &k, 0, &nd, args, n, dim, o, 1, 0, &plan);
}

#define REFUSED(call, status, needle)                                                                   \
  do {                                                                                                 \
    int rc_ = (call);                                                                                  \
    CHECK_MSG(rc_ == (status) && strstr(rvhal_last_error(), needle), "%s: got %s \"%s\", expected %s with \"%s\"", \
              #call, rvhal_status_name(rc_), rvhal_last_error(), rvhal_status_name(status), needle);   \
  } while (0)

int main(void) {
  uint32_t v = 7;
  hal_arg_t args[4] = {rvhal_arg_global(0x1000), rvhal_arg_local(100), rvhal_arg_value(&v, 4), rvhal_arg_local(64)};

  /* The plan: groups, layout, local memory. */
  CHECK_OK(plan_of(&lim, 64, 4, args, 4, 1, NULL));
  CHECK_EQ_U64(plan.groups[0], 16);
  CHECK_EQ_U64(plan.groups[1], 1); /* past work_dim: one group of one item */
  CHECK_EQ_U64(plan.local[2], 1);
  CHECK_EQ_U64(plan.total_groups, 16);
  rvhal_arg_layout_t want[4];
  uint32_t total;
  CHECK_OK(rvhal_arg_layout(args, 4, 8, want, &total));
  CHECK_EQ_U64(plan.args_size, total);
  for (int i = 0; i < 4; i++) CHECK_EQ_U64(plan.layout[i].offset, want[i].offset);
  CHECK_EQ_U64(plan.num_local_args, 2);
  CHECK_EQ_U64(plan.local_arg_offset[0], want[1].offset);
  CHECK_EQ_U64(plan.local_arg_offset[1], want[3].offset);
  CHECK_EQ_U64(plan.local_bytes, 128 + 128); /* 100 and 64, each rounded up to RVHAL_LOCAL_ALIGN */
  /* 16 groups for 4 harts: one hart per group, 16 / (4 * 8) -> chunks of 1 */
  CHECK_EQ_U64(plan.team, 1);
  CHECK_EQ_U64(plan.harts, 4);
  CHECK_EQ_U64(plan.chunk, 1);
  CHECK_EQ_U64(plan.flags, RVHAL_LAUNCH_COUNTERS);
  /* Pure: the same request, the same plan. */
  rvhal_launch_plan_t first = plan;
  CHECK_OK(plan_of(&lim, 64, 4, args, 4, 1, NULL));
  CHECK(memcmp(&first, &plan, sizeof plan) == 0);

  /* Teams: one group on 4 harts shares the host's 2 cores; exact timing
   * never shares; harts_per_group given must divide the harts. */
  CHECK_OK(plan_of(&lim, 8, 8, args, 4, 1, NULL));
  CHECK_EQ_U64(plan.team, 2);
  CHECK_EQ_U64(plan.harts, 2); /* one team: one group */
  rvhal_launch_limits_t exact = lim;
  exact.exact_timing = 1;
  CHECK_OK(plan_of(&exact, 8, 8, args, 4, 1, NULL));
  CHECK_EQ_U64(plan.team, 1);
  rvhal_launch_options_t o = {.harts_per_group = 3};
  REFUSED(plan_of(&lim, 64, 4, args, 4, 1, &o), RVHAL_INVALID_ARGUMENT, "3 harts per work-group must divide the 4");
  o.harts_per_group = 4;
  REFUSED(plan_of(&lim, 2, 2, args, 4, 1, &o), RVHAL_INVALID_ARGUMENT, "a group has only 2 work-items");
  o = (rvhal_launch_options_t){.harts = 5};
  REFUSED(plan_of(&lim, 64, 4, args, 4, 1, &o), RVHAL_INVALID_ARGUMENT, "5 harts requested, the device has 4");
  o = (rvhal_launch_options_t){.harts = 2, .chunk_groups = 100, .counters_off = 1, .privileged = 1};
  CHECK_OK(plan_of(&lim, 64, 4, args, 4, 1, &o));
  CHECK_EQ_U64(plan.harts, 1); /* chunks of 16 (clamped to the row): one chunk, one hart */
  CHECK_EQ_U64(plan.chunk, 16);
  CHECK_EQ_U64(plan.flags, RVHAL_LAUNCH_PRIVILEGED);
  CHECK_OK(plan_request(&lim, &k, 0, &(hal_ndrange_t){.global = {64}, .local = {4}}, args, 4, 1, NULL, 1, 1,
                             &plan));
  CHECK_EQ_U64(plan.flags, RVHAL_LAUNCH_COUNTERS | RVHAL_LAUNCH_TRACE);

  /* Refusals, each naming the value. */
  REFUSED(plan_of(&lim, 64, 4, args, 4, 0, NULL), RVHAL_INVALID_ARGUMENT, "work_dim 0 is not 1, 2 or 3");
  REFUSED(plan_of(&lim, 64, 4, args, 4, 4, NULL), RVHAL_INVALID_ARGUMENT, "work_dim 4");
  REFUSED(plan_of(&lim, 10, 4, args, 4, 1, NULL), RVHAL_INVALID_ARGUMENT, "global[0]=10 is not a multiple of local[0]=4");
  REFUSED(plan_of(&lim, 0, 4, args, 4, 1, NULL), RVHAL_INVALID_ARGUMENT, "global[0] is 0");
  REFUSED(plan_of(&lim, 2048, 2048, args, 4, 1, NULL), RVHAL_INVALID_ARGUMENT, "exceeds the device's 1024");
  rvhal_launch_limits_t rv32 = lim;
  rv32.word_size = 4;
  REFUSED(plan_of(&rv32, 1ull << 33, 1, args, 4, 1, NULL), RVHAL_INVALID_ARGUMENT, "exceeds the 32-bit device");
  REFUSED(plan_of(&lim, 64, 4, NULL, 2, 1, NULL), RVHAL_INVALID_ARGUMENT, "2 arguments but args is NULL");
  hal_arg_t zero[2] = {rvhal_arg_global(0x1000), rvhal_arg_local(0)};
  REFUSED(plan_of(&lim, 64, 4, zero, 2, 1, NULL), RVHAL_INVALID_ARGUMENT, "local buffer of 0 bytes");
  hal_arg_t big[2] = {rvhal_arg_local(65536), rvhal_arg_local(1)};
  REFUSED(plan_of(&lim, 64, 4, big, 2, 1, NULL), RVHAL_LOCAL_MEMORY, "needs 65664 bytes of local memory"); /* 65536 + 1 rounded to 128 */
  hal_arg_t wrap[2] = {rvhal_arg_local(UINT64_MAX - 8), rvhal_arg_local(64)};
  REFUSED(plan_of(&lim, 64, 4, wrap, 2, 1, NULL), RVHAL_LOCAL_MEMORY, "argument 0: a local buffer of");
  hal_ndrange_t nd = {.global = {64}, .local = {4}};
  REFUSED(plan_request(&lim, &k, 65536, &nd, args, 4, 1, NULL, 0, 0, &plan), RVHAL_LOCAL_MEMORY,
          "in __local_variable");

  /* Non-uniform work-groups, only when asked: the last group along each
   * dimension has the remainder; num groups count it; a uniform launch
   * asked to allow them stays uniform (no flag: it costs nothing). */
  o = (rvhal_launch_options_t){.non_uniform = 1};
  hal_ndrange_t nu = {.global = {10, 7, 3}, .local = {4, 7, 4}, .offset = {5, 0, 9}};
  CHECK_OK(plan_request(&lim, &k, 0, &nu, args, 4, 3, &o, 0, 0, &plan));
  CHECK_EQ_U64(plan.groups[0], 3);
  CHECK_EQ_U64(plan.groups[1], 1);
  CHECK_EQ_U64(plan.groups[2], 1); /* global 3 < local 4: one group of 3 */
  CHECK_EQ_U64(plan.last[0], 2);
  CHECK_EQ_U64(plan.last[1], 7);
  CHECK_EQ_U64(plan.last[2], 3);
  CHECK_EQ_U64(plan.total_groups, 3);
  CHECK_EQ_U64(plan.items_per_group, 4 * 7 * 4); /* the enqueued size */
  CHECK_EQ_U64(plan.flags, RVHAL_LAUNCH_NON_UNIFORM);
  CHECK_OK(plan_of(&lim, 64, 4, args, 4, 2, &o));
  CHECK_EQ_U64(plan.last[0], 4);
  CHECK_EQ_U64(plan.flags, RVHAL_LAUNCH_COUNTERS);
  /* 5 = 4 + 1: a team of 2 would leave a hart without a work-item in the
   * last group; the chosen team fits it, one given is refused */
  CHECK_OK(plan_request(&lim, &k, 0, &(hal_ndrange_t){.global = {5}, .local = {4}}, args, 4, 1, &o, 0, 0, &plan));
  CHECK_EQ_U64(plan.team, 1);
  CHECK_EQ_U64(plan.groups[0], 2);
  CHECK_EQ_U64(plan.harts, 2); /* two claims: the full group, the last one */
  o.harts_per_group = 2;
  REFUSED(plan_request(&lim, &k, 0, &(hal_ndrange_t){.global = {5}, .local = {4}}, args, 4, 1, &o, 0, 0, &plan),
          RVHAL_INVALID_ARGUMENT, "a group has only 1 work-items");
  /* A chosen team never exceeds the smallest group's items, whatever the
   * host's cores: one group of 1 item (global 1 < local 4) on 2 cores, and
   * 4 + 1 items on 4 cores (a team of 2 there would leave a hart of the
   * last group without a work-item: the firmware refuses the launch). 4 + 2
   * items on 4 cores: teams of 2 fit. */
  o = (rvhal_launch_options_t){.non_uniform = 1};
  CHECK_OK(plan_request(&lim, &k, 0, &(hal_ndrange_t){.global = {1}, .local = {4}}, args, 4, 1, &o, 0, 0, &plan));
  CHECK_EQ_U64(plan.total_groups, 1);
  CHECK_EQ_U64(plan.team, 1);
  rvhal_launch_limits_t cores4 = lim;
  cores4.host_cpus = 4;
  CHECK_OK(plan_request(&cores4, &k, 0, &(hal_ndrange_t){.global = {5}, .local = {4}}, args, 4, 1, &o, 0, 0,
                        &plan));
  CHECK_EQ_U64(plan.team, 1);
  CHECK_OK(plan_request(&cores4, &k, 0, &(hal_ndrange_t){.global = {6}, .local = {4}}, args, 4, 1, &o, 0, 0,
                        &plan));
  CHECK_EQ_U64(plan.team, 2);
  CHECK(rvhal_launch_team_ok(plan.harts, plan.team, rvhal_launch_smallest_group((const uint32_t[3]){2, 1, 1})));
  /* without the option: refused, naming the sizes and the way out */
  REFUSED(plan_of(&lim, 10, 4, args, 4, 1, NULL), RVHAL_INVALID_ARGUMENT, "rvhal_launch_options_t.non_uniform");
  CHECK(rvhal_launch_last_size_ok(4, 1) && rvhal_launch_last_size_ok(4, 4) && !rvhal_launch_last_size_ok(4, 0) &&
        !rvhal_launch_last_size_ok(4, 5));
  CHECK_EQ_U64(rvhal_launch_smallest_group((const uint32_t[3]){2, 7, 3}), 42);

  /* The metadata: a value where the kernel declared a buffer. */
  rvhal_kernel_entry_t km = {.name = "km", .has_meta = 1};
  km.meta.num_args = 1;
  km.meta.args_size = 8;
  km.meta.args[0].desc = RVHAL_ARG_DESC(RVHAL_ARG_KIND_GLOBAL, 8, 0);
  hal_arg_t val[1] = {rvhal_arg_value(&v, 4)};
  REFUSED(plan_request(&lim, &km, 0, &nd, val, 1, 1, NULL, 0, 0, &plan), RVHAL_INVALID_ARGUMENT,
          "argument 0 must be a global buffer, got a POD value");
  REFUSED(plan_request(&lim, &km, 0, &nd, args, 2, 1, NULL, 0, 0, &plan), RVHAL_INVALID_ARGUMENT,
          "takes 1 arguments, 2 given");

  /* The shared rules, as the firmware applies them to a descriptor. */
  CHECK(rvhal_launch_team_ok(4, 2, 2) && !rvhal_launch_team_ok(4, 3, 8) && !rvhal_launch_team_ok(4, 0, 8) &&
        !rvhal_launch_team_ok(4, 8, 8) && !rvhal_launch_team_ok(4, 4, 3));
  CHECK(rvhal_launch_chunk_ok(1, 1) && !rvhal_launch_chunk_ok(0, 4) && !rvhal_launch_chunk_ok(5, 4));
  CHECK(rvhal_launch_work_dim_ok(3) && !rvhal_launch_work_dim_ok(0) && !rvhal_launch_work_dim_ok(4));
  return check_result("test_launch_plan");
}

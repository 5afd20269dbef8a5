/* The counter API (host/include/rvhal/counters.h, abi/rvhal/rvhal_counters.h;
 * kernels: tests/exec/ex_barrier.c, tests/exec/ex_misc.c).
 *
 * - rvhal_device_counters lists every counter of the shared tables once,
 *   with its name, description and unit; per-hart counters have
 *   sub_value_name "hart" and contained_values = harts, device counters
 *   contained_values 1.
 * - rvhal_counter_read returns 1 and a value the first time after a launch
 *   and 0 the second time, for every (counter, index); 1 again after the
 *   next launch. Before the first launch there is no hart counter value.
 * - BYTES_WRITTEN / BYTES_READ report the size of the last mem_write /
 *   mem_read and become fresh after each; LAUNCHES counts launches;
 *   LAUNCH_TIME is fresh and non-zero after each launch.
 * - An unknown id or a bad index is a negative status with a message
 *   naming it; a NULL out_value is refused.
 * - Counters off: rvhal_counter_read fails with RVHAL_UNSUPPORTED, no
 *   counter is listed, rvhal_counters_exact says not exact.
 * - rvhal_counters_exact: exact in exact timing mode, not in fast mode
 *   (with a reason naming the timing mode).
 * - Fast timing with counters on: GROUPS and ITEMS add up to the launch's,
 *   the harts that took part have instructions and cycles, and the known
 *   loop of ex_asm_loop (2 instructions per iteration) shows up in INSTRET
 *   (the instruction counts are exact per hart in both modes: rvhal's QEMU
 *   plugin counts them), within the same +-16 margin as exact_counters.c. */
#include "exec_util.h"

/* The device's harts: 4, or all a smaller board has (set when it is made). */
static uint32_t device_harts;
#define LOOP_N 50000u
#define LOOP_MARGIN 16

static int is_hart_counter(uint32_t id) { return id < RVHAL_NUM_HART_COUNTERS; }

static void check_descriptions(rvhal_device_t *d) {
  uint32_t num = 0;
  const rvhal_counter_description_t *desc = NULL;
  CHECK_OK(rvhal_device_counters(d, &num, &desc));
  const size_t listed = EX_NUM_COUNTERS - (ex_debug_link() ? 0 : 2); /* the debug-link pair where there is one */
  CHECK_MSG(num == listed, "device_counters lists %u counters, expected %zu of the tables' %zu", num, listed,
            EX_NUM_COUNTERS);
  CHECK(desc != NULL);
  if (!desc) return;
  int seen[EX_NUM_COUNTERS] = {0};
  for (uint32_t i = 0; i < num; i++) {
    const rvhal_counter_description_t *c = &desc[i];
    size_t t = 0;
    while (t < EX_NUM_COUNTERS && ex_counters[t].id != c->counter_id) t++;
    CHECK_MSG(t < EX_NUM_COUNTERS, "description %u has counter id %u, which no table defines", i, c->counter_id);
    if (t == EX_NUM_COUNTERS) continue;
    seen[t]++;
    CHECK_MSG(c->name && !strcmp(c->name, ex_counters[t].name), "counter %u is named '%s', expected '%s'",
              c->counter_id, c->name ? c->name : "(null)", ex_counters[t].name);
    CHECK_MSG(c->description && strlen(c->description) > 10, "counter %s has description '%s'", ex_counters[t].name,
              c->description ? c->description : "(null)");
    CHECK_MSG(c->unit == ex_counters[t].unit, "counter %s has unit %d, expected %d", ex_counters[t].name, (int)c->unit,
              (int)ex_counters[t].unit);
    if (is_hart_counter(c->counter_id)) {
      CHECK_MSG(c->sub_value_name && !strcmp(c->sub_value_name, "hart"), "counter %s: sub_value_name '%s'",
                ex_counters[t].name, c->sub_value_name ? c->sub_value_name : "(null)");
      CHECK_MSG(c->contained_values == device_harts, "counter %s: contained_values %u, expected %u (harts)",
                ex_counters[t].name, c->contained_values, device_harts);
    } else {
      CHECK_MSG(c->contained_values == 1, "device counter %s: contained_values %u, expected 1", ex_counters[t].name,
                c->contained_values);
      CHECK_MSG(!c->sub_value_name || strcmp(c->sub_value_name, "hart"), "device counter %s has sub-values 'hart'",
                ex_counters[t].name);
    }
  }
  for (size_t t = 0; t < EX_NUM_COUNTERS; t++) {
    const int want = ex_is_debug_counter(ex_counters[t].id) && !ex_debug_link() ? 0 : 1;
    CHECK_MSG(seen[t] == want, "counter %s (id %u) is listed %d times, expected %d", ex_counters[t].name,
              ex_counters[t].id, seen[t], want);
  }
}

/* Reads (id, index) and checks the outcome: want 1 (a value, returned in
 * *v) or 0 (none). */
static void expect_read(rvhal_device_t *d, uint32_t id, uint32_t index, int want, uint64_t *v, const char *when) {
  uint64_t value = 0xdeadbeefdeadbeefull;
  int rc = rvhal_counter_read(d, id, &value, index);
  CHECK_MSG(rc == want, "%s: counter_read(%s, %u) = %d (%s), expected %d", when, ex_counter_name(id), index, rc,
            rc < 0 ? rvhal_last_error() : "", want);
  if (v) *v = value;
}

static void check_all_fresh_once(rvhal_device_t *d, const char *when, uint64_t launches) {
  for (size_t t = 0; t < EX_NUM_COUNTERS; t++) {
    uint32_t id = ex_counters[t].id;
    if (id == RVHAL_COUNTER_BYTES_WRITTEN || id == RVHAL_COUNTER_BYTES_READ) continue; /* not launch counters */
    if (ex_is_debug_counter(id) && !ex_debug_link()) {
      expect_read(d, id, 0, RVHAL_NOT_FOUND, NULL, when); /* not on this device */
      continue;
    }
    uint32_t n = is_hart_counter(id) ? device_harts : 1;
    for (uint32_t i = 0; i < n; i++) {
      uint64_t v;
      expect_read(d, id, i, 1, &v, when);
      if (id == RVHAL_COUNTER_LAUNCHES) CHECK_MSG(v == launches, "%s: LAUNCHES = %" PRIu64 ", expected %" PRIu64, when, v, launches);
      if (id == RVHAL_COUNTER_LAUNCH_TIME) CHECK_MSG(v > 0 && v < 60000000000ull, "%s: LAUNCH_TIME = %" PRIu64 " ns", when, v);
    }
    for (uint32_t i = 0; i < n; i++) expect_read(d, id, i, 0, NULL, when); /* second time: nothing */
  }
}

static void check_bad_calls(rvhal_device_t *d) {
  static const uint32_t bad_ids[] = {RVHAL_NUM_HART_COUNTERS, RVHAL_NUM_HART_COUNTERS + 1, 15, 20, 21, 100, 0x10000, UINT32_MAX};
  for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
    uint64_t v = 0;
    int rc = rvhal_counter_read(d, bad_ids[i], &v, 0);
    char id[16];
    snprintf(id, sizeof id, "%u", bad_ids[i]);
    CHECK_MSG(rc < 0, "counter_read(unknown id %u) = %d", bad_ids[i], rc);
    if (rc < 0) CHECK_LAST_ERROR_HAS(id);
  }
  uint64_t v;
  int rc = rvhal_counter_read(d, RVHAL_HART_COUNTER_CYCLES, &v, device_harts);
  CHECK_MSG(rc < 0, "counter_read(cycles, index %u of %u harts) = %d", device_harts, device_harts, rc);
  if (rc < 0) {
    CHECK_LAST_ERROR_HAS("cycles");
    char idx[32];
    snprintf(idx, sizeof idx, "index %u", device_harts);
    CHECK_LAST_ERROR_HAS(idx);
  }
  rc = rvhal_counter_read(d, RVHAL_HART_COUNTER_ITEMS, &v, UINT32_MAX);
  CHECK_MSG(rc < 0, "counter_read(work_items, index UINT32_MAX) = %d", rc);
  rc = rvhal_counter_read(d, RVHAL_COUNTER_LAUNCHES, &v, 1);
  CHECK_MSG(rc < 0, "counter_read(launches, index 1) = %d", rc);
  if (rc < 0) CHECK_LAST_ERROR_HAS("launches");
  rc = rvhal_counter_read(d, RVHAL_COUNTER_LAUNCHES, NULL, 0);
  CHECK_MSG(rc < 0, "counter_read(launches, out_value NULL) = %d", rc);
  rc = rvhal_counter_read(NULL, RVHAL_COUNTER_LAUNCHES, &v, 0);
  CHECK_MSG(rc < 0, "counter_read(NULL device) = %d", rc);
  uint32_t num;
  const rvhal_counter_description_t *desc;
  CHECK_MSG(rvhal_device_counters(d, NULL, &desc) < 0, "device_counters(NULL out_num) succeeded");
  CHECK_MSG(rvhal_device_counters(d, &num, NULL) < 0, "device_counters(NULL out_descriptions) succeeded");
}

/* Launch the barrier kernel over `groups` groups of 8; returns 0 on success. */
static int launch_bars(rvhal_device_t *d, hal_program_t p, hal_kernel_t k, hal_addr_t out, uint64_t groups) {
  uint32_t nbar = 2;
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&nbar, 4)};
  uint64_t g[3] = {groups * 8, 1, 1}, l[3] = {8, 1, 1};
  return ex_launch(d, p, k, 1, g, l, args, 2, NULL, "ex_bars");
}

static void exact_device_checks(void) {
  rvhal_device_t *d = ex_device(4, 1, RVHAL_TIMING_DEFAULT);
  device_harts = rvhal_device_get_info(d)->num_harts;
  const char *why = NULL;
  CHECK_MSG(rvhal_device_get_info(d)->timing == RVHAL_TIMING_EXACT, "counters on: timing %d, expected exact",
            (int)rvhal_device_get_info(d)->timing);
  CHECK_MSG(rvhal_counters_exact(d, &why) == 1, "exact device: counters_exact = 0: %s", why ? why : "(null)");
  CHECK_MSG(why && *why, "counters_exact gave no explanation");
  check_descriptions(d);

  /* Before any launch: no hart counter value, no launch counted yet. */
  for (uint32_t id = 0; id < RVHAL_NUM_HART_COUNTERS; id++)
    for (uint32_t h = 0; h < device_harts; h++)
      expect_read(d, id, h, ex_is_debug_counter(id) && !ex_debug_link() ? RVHAL_NOT_FOUND : 0, NULL,
                  "before any launch");
  expect_read(d, RVHAL_COUNTER_LAUNCHES, 0, 0, NULL, "before any launch");

  /* Transfers: the size of the last one, fresh once after each. */
  hal_addr_t buf;
  CHECK_OK(rvhal_mem_alloc(d, 1 << 16, 0, &buf));
  static uint8_t host[1 << 16];
  uint64_t v;
  CHECK_OK(rvhal_mem_write(d, buf, host, 1234));
  expect_read(d, RVHAL_COUNTER_BYTES_WRITTEN, 0, 1, &v, "after mem_write(1234)");
  CHECK_EQ_U64(v, 1234);
  expect_read(d, RVHAL_COUNTER_BYTES_WRITTEN, 0, 0, NULL, "after mem_write(1234), second read");
  CHECK_OK(rvhal_mem_read(d, host, buf, 777));
  expect_read(d, RVHAL_COUNTER_BYTES_READ, 0, 1, &v, "after mem_read(777)");
  CHECK_EQ_U64(v, 777);
  expect_read(d, RVHAL_COUNTER_BYTES_READ, 0, 0, NULL, "after mem_read(777), second read");
  expect_read(d, RVHAL_COUNTER_BYTES_WRITTEN, 0, 0, NULL, "after mem_read: BYTES_WRITTEN");
  CHECK_OK(rvhal_mem_write(d, buf + 64, host, 99));
  CHECK_OK(rvhal_mem_write(d, buf, host, 65536));
  expect_read(d, RVHAL_COUNTER_BYTES_WRITTEN, 0, 1, &v, "after mem_write(99), mem_write(65536)");
  CHECK_EQ_U64(v, 65536);
  CHECK_OK(rvhal_mem_read(d, host, buf + 8, 8));
  CHECK_OK(rvhal_mem_read(d, host, buf, 4096));
  expect_read(d, RVHAL_COUNTER_BYTES_READ, 0, 1, &v, "after mem_read(8), mem_read(4096)");
  CHECK_EQ_U64(v, 4096);

  /* Launches: every value fresh once after each. */
  hal_program_t p = fixture_program(d, "ex_barrier");
  hal_kernel_t k = fixture_kernel(d, p, "ex_bars");
  for (uint64_t launch = 1; launch <= 3; launch++) {
    char when[64];
    snprintf(when, sizeof when, "after launch %" PRIu64, launch);
    if (launch_bars(d, p, k, buf, 16 * launch)) break;
    check_all_fresh_once(d, when, launch);
  }
  /* A launch leaves the transfer counters alone (read above: none fresh). */
  expect_read(d, RVHAL_COUNTER_BYTES_WRITTEN, 0, 0, NULL, "after launches: BYTES_WRITTEN");
  expect_read(d, RVHAL_COUNTER_BYTES_READ, 0, 0, NULL, "after launches: BYTES_READ");
  /* ... and the hart counters hold the last launch: 48 groups of 8. */
  if (!launch_bars(d, p, k, buf, 48)) {
    ex_counts_t c;
    ex_read_counts(d, &c, "launch 4");
    CHECK_EQ_U64(ex_sum(&c, RVHAL_HART_COUNTER_GROUPS), 48);
    CHECK_EQ_U64(ex_sum(&c, RVHAL_HART_COUNTER_ITEMS), 48 * 8);
    CHECK_EQ_U64(ex_sum(&c, RVHAL_HART_COUNTER_BARRIERS), 48 * 8 * 2);
    expect_read(d, RVHAL_COUNTER_LAUNCHES, 0, 1, &v, "after launch 4");
    CHECK_EQ_U64(v, 4);
  }
  /* A launch that fails before reaching the device counts nothing. */
  hal_ndrange_t nd = {{0}, {12, 1, 1}, {5, 1, 1}}; /* 12 is not a multiple of 5 */
  uint32_t nbar = 1;
  hal_arg_t args[2] = {rvhal_arg_global(buf), rvhal_arg_value(&nbar, 4)};
  CHECK_FAILS(rvhal_kernel_exec(d, p, k, &nd, args, 2, 1), RVHAL_INVALID_ARGUMENT, "multiple");
  expect_read(d, RVHAL_COUNTER_LAUNCHES, 0, 0, NULL, "after a refused launch");
  check_bad_calls(d);
  rvhal_device_delete(d);
}

static void fast_device_checks(void) {
  rvhal_device_t *d = ex_device(4, 1, RVHAL_TIMING_FAST);
  device_harts = rvhal_device_get_info(d)->num_harts;
  const char *why = NULL;
  CHECK_MSG(rvhal_device_get_info(d)->timing == RVHAL_TIMING_FAST, "fast + counters: timing %d",
            (int)rvhal_device_get_info(d)->timing);
  CHECK_MSG(rvhal_counters_exact(d, &why) == 0, "fast timing: counters_exact says exact (%s)", why ? why : "(null)");
  CHECK_MSG(why && strstr(why, "fast"), "fast timing: counters_exact's reason '%s' does not name the timing mode",
            why ? why : "(null)");
  check_descriptions(d);
  hal_program_t p = fixture_program(d, "ex_barrier");
  hal_kernel_t k = fixture_kernel(d, p, "ex_bars");
  hal_addr_t buf = dt_buffer(d, 1 << 16, NULL);
  static const uint64_t group_counts[] = {1, 3, 64, 200};
  for (size_t i = 0; i < sizeof group_counts / sizeof *group_counts; i++) {
    uint64_t groups = group_counts[i];
    if (launch_bars(d, p, k, buf, groups)) continue;
    rvhal_launch_report_t rep;
    CHECK_OK(rvhal_device_last_launch(d, &rep));
    ex_counts_t c;
    char what[64];
    ex_read_counts(d, &c, ex_fmt(what, sizeof what, "fast, %" PRIu64 " groups of 8", groups));
    CHECK_MSG(ex_sum(&c, RVHAL_HART_COUNTER_GROUPS) == groups, "%s: GROUPS sum %" PRIu64, what,
              ex_sum(&c, RVHAL_HART_COUNTER_GROUPS));
    CHECK_MSG(ex_sum(&c, RVHAL_HART_COUNTER_ITEMS) == groups * 8, "%s: ITEMS sum %" PRIu64, what,
              ex_sum(&c, RVHAL_HART_COUNTER_ITEMS));
    CHECK_MSG(ex_sum(&c, RVHAL_HART_COUNTER_BARRIERS) == groups * 8 * 2, "%s: BARRIERS sum %" PRIu64, what,
              ex_sum(&c, RVHAL_HART_COUNTER_BARRIERS));
    for (uint32_t h = 0; h < device_harts; h++) {
      int took_part = h < rep.harts;
      CHECK_MSG(took_part ? c.v[RVHAL_HART_COUNTER_INSTRET][h] > 0 && c.v[RVHAL_HART_COUNTER_CYCLES][h] > 0
                          : c.v[RVHAL_HART_COUNTER_INSTRET][h] == 0 && c.v[RVHAL_HART_COUNTER_ITEMS][h] == 0,
                "%s: hart %u (%s): %" PRIu64 " instructions, %" PRIu64 " cycles", what, h,
                took_part ? "took part" : "sat out", c.v[RVHAL_HART_COUNTER_INSTRET][h],
                c.v[RVHAL_HART_COUNTER_CYCLES][h]);
      CHECK_MSG(c.v[RVHAL_HART_COUNTER_GROUPS][h] == rep.groups_per_hart[h],
                "%s: hart %u: GROUPS %" PRIu64 ", the launch report says %" PRIu64, what, h,
                c.v[RVHAL_HART_COUNTER_GROUPS][h], rep.groups_per_hart[h]);
    }
  }
  /* The known loop, in fast mode. */
  hal_program_t pm = fixture_program(d, "ex_misc");
  hal_kernel_t kl = fixture_kernel(d, pm, "ex_asm_loop");
  uintptr_t n;
  hal_arg_t al[2] = {rvhal_arg_global(buf), rvhal_arg_value(&n, rvhal_device_get_info(d)->word_size)};
  uint64_t one[3] = {1, 1, 1}, instret[2] = {0, 0};
  for (int k2 = 0; k2 < 2; k2++) {
    n = k2 ? 0 : LOOP_N;
    if (ex_launch(d, pm, kl, 1, one, one, al, 2, NULL, "fast loop")) continue;
    ex_counts_t c;
    ex_read_counts(d, &c, "fast loop");
    instret[k2] = c.v[RVHAL_HART_COUNTER_INSTRET][0];
    CHECK_MSG(ex_sum(&c, RVHAL_HART_COUNTER_ITEMS) == 1 && c.v[RVHAL_HART_COUNTER_ITEMS][0] == 1,
              "fast loop: the item did not run on hart 0");
  }
  int64_t diff = (int64_t)(instret[0] - instret[1]);
  CHECK_MSG(diff >= 2 * (int64_t)LOOP_N - LOOP_MARGIN && diff <= 2 * (int64_t)LOOP_N + LOOP_MARGIN,
            "fast timing: INSTRET(n=%u) - INSTRET(n=0) = %" PRId64 ", expected %u +- %d", LOOP_N, diff, 2 * LOOP_N,
            LOOP_MARGIN);
  printf("  fast timing, counters on: loop n=%u: %" PRIu64 " - %" PRIu64 " = %" PRId64 " instructions\n", LOOP_N,
         instret[0], instret[1], diff);
  rvhal_device_delete(d);
}

static void counters_off_checks(void) {
  rvhal_device_t *d = ex_device(2, 0, RVHAL_TIMING_DEFAULT);
  CHECK_MSG(rvhal_device_get_info(d)->timing == RVHAL_TIMING_FAST, "counters off, default timing: %d, expected fast",
            (int)rvhal_device_get_info(d)->timing);
  uint32_t num = 99;
  const rvhal_counter_description_t *desc;
  CHECK_OK(rvhal_device_counters(d, &num, &desc));
  CHECK_MSG(num == 0, "counters off: %u counters listed", num);
  const char *why = NULL;
  CHECK_MSG(rvhal_counters_exact(d, &why) == 0, "counters off: counters_exact says exact");
  hal_program_t p = fixture_program(d, "ex_barrier");
  hal_kernel_t k = fixture_kernel(d, p, "ex_bars");
  hal_addr_t buf = dt_buffer(d, 4096, NULL);
  launch_bars(d, p, k, buf, 8);
  uint64_t v;
  CHECK_FAILS(rvhal_counter_read(d, RVHAL_HART_COUNTER_CYCLES, &v, 0), RVHAL_UNSUPPORTED, "counters");
  CHECK_FAILS(rvhal_counter_read(d, RVHAL_COUNTER_LAUNCHES, &v, 0), RVHAL_UNSUPPORTED, "counters");
  CHECK_FAILS(rvhal_counter_read(d, RVHAL_COUNTER_BYTES_WRITTEN, &v, 0), RVHAL_UNSUPPORTED, "counters");
  rvhal_device_delete(d);
}

int main(void) {
  ex_clean_env();
  exact_device_checks();
  fast_device_checks();
  counters_off_checks();
  return check_result("exec.counter_api");
}

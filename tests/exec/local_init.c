/* Initialised __local_variable storage (kernel ex_init of
 * tests/exec/ex_misc.c; docs/kernels.md "Local memory": a __local_variable
 * declared with an initialiser gets that value at the start of every
 * group).
 *
 * `__local_variable uint seven = 7;` must read 7 at the start of every
 * group, although the group before it on the same hart (in the same kernel
 * call, when rvhal_launch_options_t.chunk_groups puts several groups in one
 * call) changed it:
 * - mode 0, no barrier: every item takes a ticket with atomic_inc(&seven);
 *   a group's n items must hold the tickets 7 .. 7+n-1, each once;
 * - mode 1, barriers: every item reads 7 first; item 0 then stores
 *   1000 + group, and after a barrier every item reads that back (the
 *   storage is shared by the group) and finds its slot of a local-buffer
 *   argument intact (the two kinds of local memory do not overlap).
 * On 1 and 4 harts, with 1 to 64 groups per call, 1-, 2- and 3-D, and on
 * teams of harts. The launch report must show the chunk asked for. */
#include "exec_util.h"

static void run(rvhal_device_t *d, hal_program_t p, hal_kernel_t k, uint32_t mode, uint32_t dim,
                const uint64_t global[3], const uint64_t local[3], uint64_t chunk, uint32_t team, const char *what) {
  uint64_t items = 1, n = 1, ng[3];
  for (uint32_t i = 0; i < 3; i++) {
    uint64_t g = i < dim ? global[i] : 1, l = i < dim ? local[i] : 1;
    items *= g;
    n *= l;
    ng[i] = g / l;
  }
  char label[200];
  snprintf(label, sizeof label, "%s, mode %u (%s)", what, mode, mode ? "barriers" : "atomic tickets");
  size_t bytes = (size_t)items * 8;
  hal_addr_t out = dt_buffer(d, bytes, NULL);
  const uint8_t junk = 0x5a;
  CHECK_OK(rvhal_mem_fill(d, out, &junk, 1, bytes));
  hal_arg_t a[3] = {rvhal_arg_global(out), rvhal_arg_local(n * 4), rvhal_arg_value(&mode, 4)};
  rvhal_launch_options_t opt = {.chunk_groups = chunk, .harts_per_group = team};
  if (ex_launch(d, p, k, dim, global, local, a, 3, &opt, label)) goto out;
  rvhal_launch_report_t rep;
  CHECK_OK(rvhal_device_last_launch(d, &rep));
  if (chunk) CHECK_MSG(rep.chunk_groups == chunk, "%s: chunk %" PRIu64 ", asked for %" PRIu64, label, rep.chunk_groups, chunk);
  uint32_t *got = malloc(bytes);
  CHECK_OK(rvhal_mem_read(d, got, out, bytes));
  /* Items by group: global linear id -> group and local linear id. */
  uint64_t gsz[3] = {ng[0] * (dim > 0 ? local[0] : 1), ng[1] * (dim > 1 ? local[1] : 1), 1};
  uint64_t lx = dim > 0 ? local[0] : 1, ly = dim > 1 ? local[1] : 1, lz = dim > 2 ? local[2] : 1;
  uint64_t groups = ng[0] * ng[1] * ng[2], bad_groups = 0;
  uint8_t *ticket = malloc(n);
  int shown = 0;
  for (uint64_t g = 0; g < groups; g++) {
    uint64_t gx = g % ng[0], gy = g / ng[0] % ng[1], gz = g / (ng[0] * ng[1]);
    memset(ticket, 0, n);
    int bad = 0;
    for (uint64_t z = 0; z < lz; z++)
      for (uint64_t y = 0; y < ly; y++)
        for (uint64_t x = 0; x < lx; x++) {
          uint64_t id = gx * lx + x + gsz[0] * (gy * ly + y + gsz[1] * (gz * lz + z));
          uint32_t first = got[2 * id], second = got[2 * id + 1];
          int ok = mode == 0 ? first >= 7 && first - 7 < n && !ticket[first - 7]++ && second == 0
                             : first == 7 && second == 1000 + g;
          if (!ok && shown++ < 4)
            fprintf(stderr, "%s: group %" PRIu64 " item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 "): %u, %u\n", label, g,
                    x, y, z, first, second);
          bad |= !ok;
        }
    bad_groups += bad != 0;
  }
  CHECK_MSG(bad_groups == 0, "%s: %" PRIu64 " of %" PRIu64 " groups did not start with seven = 7 (or lost it)", label,
            bad_groups, groups);
  printf("  %-72s %4" PRIu64 " groups of %4" PRIu64 ", chunk %3" PRIu64 ", %u harts (%u per group)\n", label, groups, n,
         rep.chunk_groups, rep.harts, rep.harts_per_group);
  free(ticket);
  free(got);
out:
  CHECK_OK(rvhal_mem_free(d, out));
}

static void on_device(uint32_t harts, int exact) {
  rvhal_device_t *d = ex_device(harts, exact, exact ? RVHAL_TIMING_EXACT : RVHAL_TIMING_FAST);
  hal_program_t p = fixture_program(d, "ex_misc");
  hal_kernel_t k = fixture_kernel(d, p, "ex_init");
  char what[96];
  const char *dev = exact ? "exact" : "fast";
  for (uint32_t mode = 0; mode < 2; mode++) {
    uint64_t g1[3] = {64 * 8, 1, 1}, l1[3] = {8, 1, 1};
    run(d, p, k, mode, 1, g1, l1, 0, 0, ex_fmt(what, sizeof what, "%s %u harts: 1-D 64 groups, default chunk", dev, harts));
    run(d, p, k, mode, 1, g1, l1, 16, 0, ex_fmt(what, sizeof what, "%s %u harts: 1-D 64 groups, 16 a call", dev, harts));
    run(d, p, k, mode, 1, g1, l1, 64, 0, ex_fmt(what, sizeof what, "%s %u harts: 1-D 64 groups, 64 a call", dev, harts));
    uint64_t g2[3] = {40, 12, 1}, l2[3] = {5, 3, 1};
    run(d, p, k, mode, 2, g2, l2, 8, 0, ex_fmt(what, sizeof what, "%s %u harts: 2-D 8x4 groups, 8 a call", dev, harts));
    uint64_t g3[3] = {24, 4, 6}, l3[3] = {2, 2, 3};
    run(d, p, k, mode, 3, g3, l3, 6, 0, ex_fmt(what, sizeof what, "%s %u harts: 3-D 12x2x2 groups, 6 a call", dev, harts));
    uint64_t g4[3] = {16 * 1024, 1, 1}, l4[3] = {1024, 1, 1};
    run(d, p, k, mode, 1, g4, l4, 4, 0, ex_fmt(what, sizeof what, "%s %u harts: 16 groups of 1024, 4 a call", dev, harts));
    uint64_t g5[3] = {200, 1, 1}, l5[3] = {1, 1, 1};
    run(d, p, k, mode, 1, g5, l5, 50, 0, ex_fmt(what, sizeof what, "%s %u harts: 200 groups of 1, 50 a call", dev, harts));
    if (harts >= 2) {
      uint64_t g6[3] = {16 * 12, 1, 1}, l6[3] = {12, 1, 1};
      run(d, p, k, mode, 1, g6, l6, 4, 2, ex_fmt(what, sizeof what, "%s %u harts: teams of 2, 16 groups, 4 a call", dev, harts));
    }
    if (harts == 4) {
      uint64_t g7[3] = {8 * 16, 1, 1}, l7[3] = {16, 1, 1};
      run(d, p, k, mode, 1, g7, l7, 8, 4, ex_fmt(what, sizeof what, "%s %u harts: team of 4, 8 groups, 8 a call", dev, harts));
    }
  }
  rvhal_device_delete(d);
}

int main(void) {
  ex_clean_env();
  on_device(1, 0);
  on_device(4, 0);
  on_device(4, 1);
  return check_result("exec.local_init");
}

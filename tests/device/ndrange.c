/* ND-ranges on the device: the kernel dt_ndrange records, per work-item,
 * every get_* builtin into the slot of the item's linear global position and
 * counts itself there. For 1-, 2- and 3-D ranges, with and without global
 * offsets (beyond 32 bits on RV64, up to the top of the word on both), one
 * group, more than 1000 groups (fewer over a slow debug link: items()),
 * groups smaller than, as large as and larger
 * than the hart count, and launch options, on devices of 1 to 4 harts, every
 * field of every item is compared with the host's computation and every item
 * must have run exactly once. Non-uniform ND-ranges (a last, smaller group
 * along each dimension, rvhal_launch_options_t.non_uniform) too, and in
 * them barriers and local memory (ndrange_local). */
#include "dev_util.h"
#include "dt_shared.h"

typedef struct {
  rvhal_device_t *d;
  hal_program_t prog;
  hal_kernel_t kern, local_kern;
  uint32_t harts;
  uint32_t word_size;
  unsigned cases;
} ctx_t;

static const char *const field_names[] = {"global_id", "local_id", "group_id", "global_size",
                                          "local_size", "num_groups", "global_offset"};

static void field_name(uint32_t f, char *buf, size_t cap) {
  if (f < 21) snprintf(buf, cap, "%s(%u)", field_names[f / 3], f % 3);
  else if (f < 28) snprintf(buf, cap, "%s", (const char *[]){"work_dim", "rank-3 ids", "rank-3 sizes", "local_linear_id",
                                                 "hart", "magic", "zero"}[f - 21]);
  else snprintf(buf, cap, "enqueued_local_size(%u)", f - 28);
}

/* Work-items of group `group` along a dimension of `g` items in groups of
 * `l`: l, or the remainder for the last one. */
static uint64_t group_size(uint64_t g, uint64_t l, uint64_t group) {
  const uint64_t ng = (g + l - 1) / l;
  return group == ng - 1 ? g - (ng - 1) * l : l;
}

/* One launch, verified item by item. nd's fields past work_dim are passed
 * as they are (the library must ignore them). */
static void run(ctx_t *c, uint32_t dim, const hal_ndrange_t *nd, const rvhal_launch_options_t *opt,
                const char *what) {
  uint64_t g[3], l[3], off[3], ng[3];
  for (int i = 0; i < 3; i++) {
    g[i] = i < (int)dim ? nd->global[i] : 1;
    l[i] = i < (int)dim ? nd->local[i] : 1;
    off[i] = i < (int)dim ? nd->offset[i] : 0;
    ng[i] = (g[i] + l[i] - 1) / l[i]; /* the last group may be smaller (non-uniform) */
  }
  uint64_t total = g[0] * g[1] * g[2];
  size_t rec_bytes = (size_t)total * NDR_FIELDS * 8, count_bytes = ((size_t)total + 1) * 4;
  hal_addr_t drec, dcount;
  CHECK_OK(rvhal_mem_alloc(c->d, rec_bytes, 0, &drec));
  CHECK_OK(rvhal_mem_alloc(c->d, count_bytes, 0, &dcount));
  const uint8_t junk = 0xa5, zero = 0;
  CHECK_OK(rvhal_mem_fill(c->d, drec, &junk, 1, rec_bytes));
  CHECK_OK(rvhal_mem_fill(c->d, dcount, &zero, 1, count_bytes));
  hal_arg_t args[3] = {rvhal_arg_global(drec), rvhal_arg_global(dcount), rvhal_arg_value(&total, 8)};
  c->cases++;
  int rc = rvhal_kernel_exec_ex(c->d, c->prog, c->kern, nd, args, 3, dim, opt);
  CHECK_MSG(rc == RVHAL_OK, "%u harts, %s: kernel_exec: %s: %s", c->harts, what, rvhal_status_name(rc),
            rvhal_last_error());
  if (rc) goto out;

  rvhal_launch_report_t rep;
  CHECK_OK(rvhal_device_last_launch(c->d, &rep));
  CHECK_MSG(rep.num_groups == ng[0] * ng[1] * ng[2], "%s: report says %llu groups", what,
            (unsigned long long)rep.num_groups);
  uint32_t max_harts = opt && opt->harts ? opt->harts : c->harts;
  CHECK_MSG(rep.harts >= 1 && rep.harts <= max_harts && rep.harts_per_group >= 1 &&
                rep.harts % rep.harts_per_group == 0,
            "%s: report says %u harts, %u per group (device %u harts)", what, rep.harts, rep.harts_per_group,
            c->harts);
  if (opt && opt->harts_per_group)
    CHECK_MSG(rep.harts_per_group == opt->harts_per_group, "%s: %u harts per group, asked for %u", what,
              rep.harts_per_group, opt->harts_per_group);

  uint64_t *rec = malloc(rec_bytes);
  uint32_t *count = malloc(count_bytes);
  CHECK_OK(rvhal_mem_read(c->d, rec, drec, rec_bytes));
  CHECK_OK(rvhal_mem_read(c->d, count, dcount, count_bytes));
  uint64_t bad = 0, hart_mask = 0;
  for (uint64_t pos = 0; pos < total; pos++) {
    uint64_t rel[3] = {pos % g[0], pos / g[0] % g[1], pos / (g[0] * g[1])};
    uint64_t want[NDR_FIELDS];
    for (int i = 0; i < 3; i++) {
      want[0 + i] = off[i] + rel[i];
      want[3 + i] = rel[i] % l[i];
      want[6 + i] = rel[i] / l[i];
      want[9 + i] = g[i];
      want[12 + i] = group_size(g[i], l[i], want[6 + i]);
      want[15 + i] = ng[i];
      want[18 + i] = off[i];
      want[28 + i] = l[i];
    }
    want[21] = dim;
    want[22] = 0;
    want[23] = 1 | 1ull << 16 | 1ull << 32;
    want[24] = want[3] + want[12] * (want[4] + want[13] * want[5]);
    const uint64_t *r = rec + pos * NDR_FIELDS;
    want[25] = r[25] < max_harts ? r[25] : UINT64_MAX; /* any hart that takes part */
    want[26] = NDR_MAGIC;
    want[27] = 0;
    if (count[pos] != 1) {
      if (bad++ < 5)
        fprintf(stderr, "  %u harts, %s: item %llu ran %u times\n", c->harts, what, (unsigned long long)pos, count[pos]);
      continue;
    }
    if (r[25] < 64) hart_mask |= 1ull << r[25];
    for (uint32_t f = 0; f < NDR_FIELDS; f++) {
      if (r[f] == want[f]) continue;
      if (bad++ < 5) {
        char name[32];
        field_name(f, name, sizeof name);
        fprintf(stderr, "  %u harts, %s: item %llu: %s = %llu (0x%llx), expected %llu (0x%llx)\n", c->harts, what,
                (unsigned long long)pos, name, (unsigned long long)r[f], (unsigned long long)r[f],
                (unsigned long long)want[f], (unsigned long long)want[f]);
      }
    }
  }
  CHECK_MSG(bad == 0, "%u harts, %s: %llu wrong fields or counts over %llu items", c->harts, what,
            (unsigned long long)bad, (unsigned long long)total);
  CHECK_MSG(count[total] == 0, "%u harts, %s: %u items had ids outside the ND-range", c->harts, what, count[total]);
  if (getenv("RVHAL_TEST_VERBOSE"))
    printf("  %u harts, %-48s %6llu items, %5llu groups, harts %u x%u, mask 0x%llx\n", c->harts, what,
           (unsigned long long)total, (unsigned long long)rep.num_groups, rep.harts, rep.harts_per_group,
           (unsigned long long)hart_mask);
  free(rec);
  free(count);
out:
  CHECK_OK(rvhal_mem_free(c->d, drec));
  CHECK_OK(rvhal_mem_free(c->d, dcount));
}

/* ndrange_local over a (non-uniform) ND-range: each item's sum of what its
 * neighbour in the group wrote between barriers (dt_ndrange.c). */
static void run_local(ctx_t *c, uint32_t dim, const hal_ndrange_t *nd, const rvhal_launch_options_t *opt,
                      const char *what) {
  uint64_t g[3], l[3];
  for (int i = 0; i < 3; i++) {
    g[i] = i < (int)dim ? nd->global[i] : 1;
    l[i] = i < (int)dim ? nd->local[i] : 1;
  }
  const uint64_t total = g[0] * g[1] * g[2];
  hal_addr_t dout;
  CHECK_OK(rvhal_mem_alloc(c->d, total * 8, 0, &dout));
  const uint8_t junk = 0xa5;
  CHECK_OK(rvhal_mem_fill(c->d, dout, &junk, 1, total * 8));
  hal_arg_t args[2] = {rvhal_arg_global(dout), rvhal_arg_local(l[0] * l[1] * l[2] * 8)};
  c->cases++;
  int rc = rvhal_kernel_exec_ex(c->d, c->prog, c->local_kern, nd, args, 2, dim, opt);
  CHECK_MSG(rc == RVHAL_OK, "%u harts, %s: kernel_exec: %s: %s", c->harts, what, rvhal_status_name(rc),
            rvhal_last_error());
  uint64_t *out = malloc(total * 8), bad = 0;
  CHECK_OK(rvhal_mem_read(c->d, out, dout, total * 8));
  for (uint64_t pos = 0; rc == RVHAL_OK && pos < total; pos++) {
    uint64_t rel[3] = {pos % g[0], pos / g[0] % g[1], pos / (g[0] * g[1])}, lid[3], size[3], first[3];
    for (int i = 0; i < 3; i++) {
      lid[i] = rel[i] % l[i];
      first[i] = rel[i] - lid[i];
      size[i] = group_size(g[i], l[i], rel[i] / l[i]);
    }
    const uint64_t n = size[0] * size[1] * size[2], me = lid[0] + size[0] * (lid[1] + size[1] * lid[2]);
    const uint64_t nb = (me + 1) % n; /* the neighbour, in the group's own local linear order */
    const uint64_t nrel[3] = {first[0] + nb % size[0], first[1] + nb / size[0] % size[1],
                              first[2] + nb / (size[0] * size[1])};
    const uint64_t npos = nrel[0] + g[0] * (nrel[1] + g[1] * nrel[2]);
    const uint64_t want = NDR_LOCAL_ROUNDS * npos * 16 + NDR_LOCAL_ROUNDS * (NDR_LOCAL_ROUNDS + 1) / 2;
    if (out[pos] != want && bad++ < 5)
      fprintf(stderr, "  %u harts, %s: item %llu read %llu, expected %llu\n", c->harts, what, (unsigned long long)pos,
              (unsigned long long)out[pos], (unsigned long long)want);
  }
  CHECK_MSG(bad == 0, "%u harts, %s: %llu items of %llu read wrong local memory", c->harts, what,
            (unsigned long long)bad, (unsigned long long)total);
  free(out);
  CHECK_OK(rvhal_mem_free(c->d, dout));
}

/* Work-items for a case of `n`: all of them, fewer over a slow debug link
 * (each item's record and count cross it, fixture_link_bytes): at least
 * `least`, a multiple of `unit`. */
static uint64_t items(const ctx_t *c, uint64_t n, uint64_t least, uint64_t unit) {
  const size_t rec = NDR_FIELDS * 8 + 4;
  return fixture_link_bytes(c->d, n * rec, least * rec, unit * rec, 4.0) / rec;
}

/* Non-uniform ND-ranges: every dimension's last group smaller, global
 * sizes below the local size, offsets, teams, chunks; and without the
 * option, the refusal that names the sizes. */
static void non_uniform_cases(ctx_t *c) {
  const uint32_t h = c->harts;
  rvhal_launch_options_t nu = {.non_uniform = 1};
  char what[128];
  run(c, 1, &(hal_ndrange_t){.global = {10}, .local = {4}}, &nu, "non-uniform 1-D 10/4");
  run(c, 1, &(hal_ndrange_t){.global = {3}, .local = {4}}, &nu, "non-uniform 1-D 3/4 (one group of 3)");
  const uint64_t g64 = items(c, 4096, 128, 64) + 1; /* 4097: the last group of 1 */
  snprintf(what, sizeof what, "non-uniform 1-D %llu/64, offset 3", (unsigned long long)g64);
  run(c, 1, &(hal_ndrange_t){.global = {g64}, .local = {64}, .offset = {3}}, &nu, what);
  run(c, 2, &(hal_ndrange_t){.global = {10, 7}, .local = {4, 3}, .offset = {5, 9}}, &nu,
      "non-uniform 2-D 10x7/4x3, offsets");
  run(c, 2, &(hal_ndrange_t){.global = {16, 7}, .local = {4, 3}}, &nu, "non-uniform 2-D 16x7/4x3 (x uniform)");
  run(c, 3, &(hal_ndrange_t){.global = {7, 5, 6}, .local = {2, 2, 4}, .offset = {1, 2, 3}}, &nu,
      "non-uniform 3-D 7x5x6/2x2x4, offsets");
  run(c, 3, &(hal_ndrange_t){.global = {8, 9, 5}, .local = {8, 2, 2}}, &nu, "non-uniform 3-D 8x9x5/8x2x2 (x uniform)");
  if (c->word_size == 8)
    run(c, 1, &(hal_ndrange_t){.global = {70}, .local = {8}, .offset = {UINT64_MAX - 70}}, &nu,
        "non-uniform 1-D 70/8, offset 2^64-71");
  rvhal_launch_options_t nu_chunk = {.non_uniform = 1, .chunk_groups = 3};
  run(c, 2, &(hal_ndrange_t){.global = {23, 5}, .local = {2, 2}}, &nu_chunk, "non-uniform 2-D 23x5/2x2, chunks of 3");
  rvhal_launch_options_t nu_team = {.non_uniform = 1, .harts_per_group = h};
  snprintf(what, sizeof what, "non-uniform 1-D groups of %u, last of %u, %u harts per group", 2 * h + 1, h, h);
  run(c, 1, &(hal_ndrange_t){.global = {3ull * (2 * h + 1) + h}, .local = {2 * h + 1}}, &nu_team, what);

  run_local(c, 1, &(hal_ndrange_t){.global = {10}, .local = {4}}, &nu, "local, non-uniform 1-D 10/4");
  run_local(c, 1, &(hal_ndrange_t){.global = {64}, .local = {8}}, NULL, "local, uniform 1-D 64/8");
  run_local(c, 2, &(hal_ndrange_t){.global = {10, 7}, .local = {4, 3}, .offset = {5, 9}}, &nu,
            "local, non-uniform 2-D 10x7/4x3");
  run_local(c, 3, &(hal_ndrange_t){.global = {7, 5, 6}, .local = {2, 2, 4}}, &nu, "local, non-uniform 3-D 7x5x6/2x2x4");
  snprintf(what, sizeof what, "local, non-uniform 1-D last group of %u, %u harts per group", h, h);
  run_local(c, 1, &(hal_ndrange_t){.global = {2ull * (2 * h + 1) + h}, .local = {2 * h + 1}}, &nu_team, what);

  /* Not asked for: refused, naming the sizes. */
  hal_addr_t dummy;
  CHECK_OK(rvhal_mem_alloc(c->d, 64, 0, &dummy));
  hal_arg_t args[2] = {rvhal_arg_global(dummy), rvhal_arg_local(64)};
  int rc = rvhal_kernel_exec(c->d, c->prog, c->local_kern, &(hal_ndrange_t){.global = {10}, .local = {4}}, args, 2, 1);
  CHECK_MSG(rc == RVHAL_INVALID_ARGUMENT && strstr(rvhal_last_error(), "global[0]=10 is not a multiple of local[0]=4"),
            "a non-uniform launch without the option: %s: %s", rvhal_status_name(rc), rvhal_last_error());
  CHECK_OK(rvhal_mem_free(c->d, dummy));
}

static void run1(ctx_t *c, uint64_t g, uint64_t l, uint64_t off, const rvhal_launch_options_t *opt, const char *what) {
  hal_ndrange_t nd = {.offset = {off}, .global = {g}, .local = {l}};
  run(c, 1, &nd, opt, what);
}

static void run3(ctx_t *c, uint32_t dim, const uint64_t g[3], const uint64_t l[3], const uint64_t off[3],
                 const char *what) {
  hal_ndrange_t nd;
  for (int i = 0; i < 3; i++) {
    nd.global[i] = g[i];
    nd.local[i] = l[i];
    nd.offset[i] = off[i];
  }
  run(c, dim, &nd, NULL, what);
}

static void all_cases(ctx_t *c) {
  char what[128];
  const uint32_t h = c->harts;
  const uint64_t z[3] = {0, 0, 0};

  /* 1-D */
  run1(c, 64, 8, 0, NULL, "1-D 64/8");
  run1(c, 16, 16, 0, NULL, "1-D one group of 16");
  run1(c, 1, 1, 0, NULL, "1-D one item");
  const uint64_t g4 = items(c, 4096, 64, 4), g1 = items(c, 1000, 32, 1);
  snprintf(what, sizeof what, "1-D %llu/4 (%llu groups), offset 3", (unsigned long long)g4,
           (unsigned long long)g4 / 4);
  run1(c, g4, 4, 3, NULL, what);
  snprintf(what, sizeof what, "1-D %llu groups of 1", (unsigned long long)g1);
  run1(c, g1, 1, 0, NULL, what);
  /* Group sizes around the hart count: several groups and a single one. */
  for (uint32_t ls = h > 1 ? h - 1 : 1; ls <= h + 1; ls++) {
    snprintf(what, sizeof what, "1-D 5 groups of %u (harts %u)", ls, h);
    run1(c, 5ull * ls, ls, 2, NULL, what);
    snprintf(what, sizeof what, "1-D one group of %u (harts %u)", ls, h);
    run1(c, ls, ls, 0, NULL, what);
    snprintf(what, sizeof what, "2-D one group of %ux2 (harts %u)", ls, h);
    run3(c, 2, (uint64_t[]){ls, 2, 1}, (uint64_t[]){ls, 2, 1}, (uint64_t[]){1, 1, 0}, what);
  }

  /* 2-D */
  const uint64_t rows = items(c, 40 * 80, 40 * 4, 40 * 2) / 40;
  snprintf(what, sizeof what, "2-D 40x%llu groups of 1x2", (unsigned long long)rows / 2);
  run3(c, 2, (uint64_t[]){40, rows, 1}, (uint64_t[]){1, 2, 1}, (uint64_t[]){5, 9, 0}, what);
  run3(c, 2, (uint64_t[]){12, 6, 1}, (uint64_t[]){4, 3, 1}, z, "2-D 12x6/4x3");
  run3(c, 2, (uint64_t[]){7, 5, 1}, (uint64_t[]){7, 5, 1}, (uint64_t[]){100, 200, 0}, "2-D one group of 7x5");
  /* Dimensions past work_dim hold junk the library must ignore. */
  run3(c, 2, (uint64_t[]){6, 4, 0}, (uint64_t[]){3, 2, 0}, (uint64_t[]){1, 2, 77}, "2-D, junk in dimension 2");
  run3(c, 1, (uint64_t[]){6, 0, 5}, (uint64_t[]){2, 3, 0}, (uint64_t[]){4, 9, 9}, "1-D, junk in dimensions 1-2");

  /* 3-D */
  run3(c, 3, (uint64_t[]){6, 4, 10}, (uint64_t[]){3, 2, 5}, (uint64_t[]){5, 7, 11}, "3-D 6x4x10/3x2x5");
  run3(c, 3, (uint64_t[]){2, 3, 4}, (uint64_t[]){2, 3, 4}, (uint64_t[]){1, 2, 3}, "3-D one group of 2x3x4");
  const uint64_t depth = items(c, 8 * 8 * 16, 8 * 8 * 2, 8 * 8) / 64;
  snprintf(what, sizeof what, "3-D %llu groups of 1", (unsigned long long)depth * 64);
  run3(c, 3, (uint64_t[]){8, 8, depth}, (uint64_t[]){1, 1, 1}, z, what);
  run3(c, 3, (uint64_t[]){4, 1, 3}, (uint64_t[]){2, 1, 1}, z, "3-D 4x1x3/2x1x1");

  /* Large offsets. */
  if (c->word_size == 8) {
    run3(c, 3, (uint64_t[]){4, 6, 2}, (uint64_t[]){2, 3, 1}, (uint64_t[]){1ull << 33, (1ull << 34) + 3, 5},
         "3-D offsets 2^33, 2^34+3, 5");
    run1(c, 64, 8, (1ull << 40) + 1, NULL, "1-D offset 2^40+1");
    run1(c, 64, 4, UINT64_MAX - 64, NULL, "1-D offset 2^64-65 (last id 2^64-2)");
  } else {
    run3(c, 3, (uint64_t[]){4, 6, 2}, (uint64_t[]){2, 3, 1}, (uint64_t[]){1ull << 31, (1ull << 30) + 3, 5},
         "3-D offsets 2^31, 2^30+3, 5");
  }
  run1(c, 32, 4, (c->word_size == 8 ? UINT32_MAX : UINT32_MAX - 32), NULL, "1-D offset at the 32-bit top");

  /* Launch options. */
  rvhal_launch_options_t one = {.harts = 1};
  const uint64_t g256 = items(c, 256, 16, 4);
  snprintf(what, sizeof what, "1-D %llu/4 on 1 hart (option)", (unsigned long long)g256);
  run1(c, g256, 4, 0, &one, what);
  rvhal_launch_options_t team = {.harts_per_group = h};
  snprintf(what, sizeof what, "1-D groups of %u, %u harts per group", 2 * h + 1, h);
  run1(c, 3ull * (2 * h + 1), 2 * h + 1, 1, &team, what);
  if (h >= 4 && h % 2 == 0) {
    /* Two teams: as many groups as teams (each team deals its own claim,
     * no claim barrier), then more groups than teams (the leaders' claims
     * published through the team barrier); with local memory too. */
    rvhal_launch_options_t halves = {.harts_per_group = h / 2};
    snprintf(what, sizeof what, "1-D 2 groups of %u, 2 teams of %u harts", h + 1, h / 2);
    run1(c, 2ull * (h + 1), h + 1, 0, &halves, what);
    snprintf(what, sizeof what, "1-D 7 groups of %u, 2 teams of %u harts", h + 1, h / 2);
    run1(c, 7ull * (h + 1), h + 1, 0, &halves, what);
    snprintf(what, sizeof what, "local, 1-D 2 groups of %u, 2 teams of %u harts", h + 1, h / 2);
    run_local(c, 1, &(hal_ndrange_t){.global = {2ull * (h + 1)}, .local = {h + 1}}, &halves, what);
    snprintf(what, sizeof what, "local, 1-D 7 groups of %u, 2 teams of %u harts", h + 1, h / 2);
    run_local(c, 1, &(hal_ndrange_t){.global = {7ull * (h + 1)}, .local = {h + 1}}, &halves, what);
  }
  rvhal_launch_options_t solo = {.harts_per_group = 1};
  run1(c, 12, 12, 0, &solo, "1-D one group, 1 hart per group");
  rvhal_launch_options_t chunk = {.chunk_groups = 3};
  const uint64_t g600 = items(c, 600, 24, 2);
  snprintf(what, sizeof what, "1-D %llu groups, chunks of 3", (unsigned long long)g600 / 2);
  run1(c, g600, 2, 0, &chunk, what);
  rvhal_launch_options_t chunk2 = {.chunk_groups = 1000};
  run3(c, 2, (uint64_t[]){10, 6, 1}, (uint64_t[]){2, 2, 1}, z, "2-D 5x3 groups, chunk (clamped)");
  hal_ndrange_t nd = {.global = {9, 4, 2}, .local = {3, 2, 1}};
  run(c, 3, &nd, &chunk2, "3-D 3x2x2 groups, chunks of 1000");
}

int main(void) {
  static const uint32_t hart_counts[] = {1, 2, 3, 4};
  for (size_t i = 0; i < sizeof hart_counts / sizeof *hart_counts; i++) {
    double t0 = dt_now();
    ctx_t c = {.d = fixture_device(hart_counts[i])};
    const rvhal_device_info_t *info = rvhal_device_get_info(c.d);
    c.harts = info->num_harts;
    c.word_size = info->word_size;
    c.prog = fixture_program(c.d, "dt_ndrange");
    c.kern = fixture_kernel(c.d, c.prog, "ndrange_record");
    c.local_kern = fixture_kernel(c.d, c.prog, "ndrange_local");
    all_cases(&c);
    non_uniform_cases(&c);
    printf("%s, %u harts: %u launches checked in %.2f s\n", info->name, c.harts, c.cases, dt_now() - t0);
    rvhal_device_delete(c.d);
  }
  return check_result("ndrange");
}

/* OpenCL C kernels on real QEMU harts, against host references: the
 * built-ins that need rvhal's execution model (tests/opencl/kernels/
 * execution.cl), compiled at run time by rvhal_opencl_compile for the
 * device under test's XLEN. One family per run (argv[1]):
 *   workitems  every work-item function, 1-, 2- and 3-D, with a global offset,
 *              uniform and non-uniform (a last, smaller group per dimension)
 *   barrier    a tree reduction in a __local argument, a __local variable,
 *              barrier and work_group_barrier, on one hart and on teams, in
 *              uniform and non-uniform ND-ranges
 *   atomics    atomic_* / atom_* on global and local words, every work-item
 *              of every hart on the same words (and 64-bit on RV64)
 *   async      async_work_group_copy / _strided_copy, wait_group_events, prefetch
 *   printf     OpenCL's printf, vectors included, through the print path
 *   integers   vector division and remainder with a zero (or INT_MIN / -1)
 *              divisor in some lanes: every other lane exact
 * Hart counts and local memory come from the device: a team takes the
 * largest number of harts it divides (3 harts in teams of 2: 2 of them).
 * argv[2], if given: the harts to ask for (default 4, fewer if the board
 * has fewer), e.g. 3 as a board of 3 harts has. */
#include <inttypes.h>
#include <math.h>

#include "../exec/exec_util.h"
#include "rvhal/compiler.h"

#ifndef RVHAL_TEST_OPENCL_DIR
#error "RVHAL_TEST_OPENCL_DIR must be defined by the build"
#endif

static hal_program_t compile_and_load(rvhal_device_t *d, const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", RVHAL_TEST_OPENCL_DIR, file);
  size_t len = 0;
  char *src = dt_read_file(path, &len);
  if (!src) {
    fprintf(stderr, "cannot read %s\n", path);
    exit(1);
  }
  rvhal_opencl_compile_desc_t desc = {src, len, path, "-cl-std=CL3.0 -Werror",
                                      rvhal_device_get_info(d)->word_size * 8,
                                      rvhal_device_get_info(d)->isa}; /* with v: clang may auto-vectorize */
  void *elf = NULL;
  size_t size = 0;
  char *log = NULL;
  int rc = rvhal_opencl_compile(&desc, &elf, &size, &log);
  if (rc) {
    fprintf(stderr, "opencl_compile %s: %s: %s\n%s", path, rvhal_status_name(rc), rvhal_last_error(), log ? log : "");
    exit(1);
  }
  free(log);
  free(src);
  hal_program_t p;
  rc = rvhal_program_load(d, elf, size, &p);
  free(elf);
  if (rc) {
    fprintf(stderr, "program_load: %s: %s\n", rvhal_status_name(rc), rvhal_last_error());
    exit(1);
  }
  return p;
}

static int launch(rvhal_device_t *d, hal_program_t p, const char *kname, uint32_t dim, const uint64_t off[3],
                  const uint64_t global[3], const uint64_t local[3], const hal_arg_t *a, uint32_t n, uint32_t team,
                  const char *what) {
  hal_kernel_t k = fixture_kernel(d, p, kname);
  hal_ndrange_t nd = {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
  for (uint32_t i = 0; i < dim; i++) {
    nd.offset[i] = off ? off[i] : 0;
    nd.global[i] = global[i];
    nd.local[i] = local[i];
  }
  /* Non-uniform allowed (OpenCL C 2.0+): ranges that are multiples stay
   * uniform. A team's harts take part in whole teams (team 0: the library chooses). */
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  rvhal_launch_options_t opt = {.harts_per_group = team, .non_uniform = 1, .harts = team ? harts - harts % team : 0};
  int rc = rvhal_kernel_exec_ex(d, p, k, &nd, a, n, dim, &opt);
  CHECK_MSG(rc == RVHAL_OK, "%s: kernel_exec: %s: %s", what, rvhal_status_name(rc), rvhal_last_error());
  return rc;
}

/* ---- workitems ---- */
#define REC 32

static void workitems_case(rvhal_device_t *d, hal_program_t p, uint32_t dim, const uint64_t off[3],
                           const uint64_t g[3], const uint64_t l[3]) {
  uint64_t gs[3] = {1, 1, 1}, ls[3] = {1, 1, 1}, os[3] = {0, 0, 0};
  for (uint32_t i = 0; i < dim; i++) gs[i] = g[i], ls[i] = l[i], os[i] = off[i];
  uint64_t items = gs[0] * gs[1] * gs[2];
  size_t bytes = (size_t)items * REC * 8;
  hal_addr_t out = dt_buffer(d, bytes, NULL);
  hal_arg_t a[1] = {rvhal_arg_global(out)};
  char what[128];
  ex_fmt(what, sizeof what, "workitems %u-D %" PRIu64 "x%" PRIu64 "x%" PRIu64 " offset %" PRIu64, dim, gs[0], gs[1],
         gs[2], os[0]);
  if (launch(d, p, "workitems", dim, off, g, l, a, 1, 0, what)) return;
  uint64_t *r = malloc(bytes);
  CHECK_OK(rvhal_mem_read(d, r, out, bytes));
  uint64_t bad = 0;
  for (uint64_t z = 0; z < gs[2]; z++)
    for (uint64_t y = 0; y < gs[1]; y++)
      for (uint64_t x = 0; x < gs[0]; x++) {
        uint64_t lin = x + gs[0] * (y + gs[1] * z), id[3] = {x, y, z};
        const uint64_t *q = r + lin * REC;
        uint64_t want[REC] = {0};
        want[0] = dim;
        uint64_t size[3]; /* the item's group's: the last along a dimension may be smaller */
        for (int k = 0; k < 3; k++) {
          const uint64_t ng = (gs[k] + ls[k] - 1) / ls[k];
          size[k] = id[k] / ls[k] == ng - 1 ? gs[k] - (ng - 1) * ls[k] : ls[k];
          want[1 + k] = id[k] + os[k];
          want[4 + k] = id[k] % ls[k];
          want[7 + k] = id[k] / ls[k];
          want[10 + k] = gs[k];
          want[13 + k] = size[k];
          want[16 + k] = ls[k];
          want[19 + k] = ng;
          want[22 + k] = os[k];
        }
        want[25] = lin;
        want[26] = id[0] % ls[0] + size[0] * (id[1] % ls[1] + size[1] * (id[2] % ls[2]));
        want[27] = 0;
        want[28] = 1;
        want[29] = 0x5eed;
        for (int k = 0; k < 30; k++)
          if (q[k] != want[k] && bad++ < 5)
            fprintf(stderr, "%s: item (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ") field %d: %" PRIu64 ", expected %" PRIu64 "\n",
                    what, x, y, z, k, q[k], want[k]);
      }
  CHECK_MSG(bad == 0, "%s: %" PRIu64 " wrong values", what, bad);
  printf("  %-60s %6" PRIu64 " items ok\n", what, items);
  free(r);
  CHECK_OK(rvhal_mem_free(d, out));
}

static void test_workitems(rvhal_device_t *d, hal_program_t p) {
  const uint64_t off0[3] = {0, 0, 0}, off[3] = {5, 7, 3};
  workitems_case(d, p, 1, off0, (uint64_t[3]){64, 1, 1}, (uint64_t[3]){8, 1, 1});
  workitems_case(d, p, 1, off, (uint64_t[3]){48, 1, 1}, (uint64_t[3]){16, 1, 1});
  workitems_case(d, p, 2, off, (uint64_t[3]){12, 10, 1}, (uint64_t[3]){4, 5, 1});
  workitems_case(d, p, 3, off, (uint64_t[3]){6, 4, 6}, (uint64_t[3]){3, 2, 2});
  workitems_case(d, p, 3, off0, (uint64_t[3]){4, 4, 4}, (uint64_t[3]){1, 1, 1});
  /* non-uniform: the last group along each dimension smaller */
  workitems_case(d, p, 1, off, (uint64_t[3]){50, 1, 1}, (uint64_t[3]){16, 1, 1});
  workitems_case(d, p, 1, off0, (uint64_t[3]){5, 1, 1}, (uint64_t[3]){8, 1, 1});
  workitems_case(d, p, 2, off, (uint64_t[3]){13, 11, 1}, (uint64_t[3]){4, 5, 1});
  workitems_case(d, p, 3, off, (uint64_t[3]){7, 5, 7}, (uint64_t[3]){3, 2, 2});
}

/* ---- barrier ---- */
static void test_barrier(rvhal_device_t *d, hal_program_t p) {
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  const uint64_t sizes[] = {2, 16, 64, 128};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    for (uint32_t v = 0; v < 4; v++) {
      /* teams of 1 and 2 harts; ragged: the last of the 12 groups is smaller (non-uniform) */
      const uint32_t team = 1 + v / 2;
      const int ragged = v % 2;
      const uint64_t n = sizes[si], groups = 12, last = n > 2 ? n / 2 + 1 : 1;
      const uint64_t items = ragged ? n * (groups - 1) + last : n * groups;
      if (team > harts || (ragged && team > last)) continue;
      int32_t *in = malloc(items * 4);
      for (uint64_t i = 0; i < items; i++) in[i] = (int32_t)((i * 2654435761u) % 1000) - 300;
      hal_addr_t din = dt_buffer(d, items * 4, in), dout = dt_buffer(d, groups * 8, NULL),
                 dseen = dt_buffer(d, items * 4, NULL);
      hal_arg_t a[4] = {rvhal_arg_global(din), rvhal_arg_global(dout), rvhal_arg_global(dseen),
                        rvhal_arg_local(n * 4)};
      char what[128];
      ex_fmt(what, sizeof what, "reduce: %" PRIu64 " groups of %" PRIu64 "%s, %u hart%s per group", groups, n,
             ragged ? " (the last smaller)" : "", team, team > 1 ? "s" : "");
      if (!launch(d, p, "reduce", 1, NULL, (uint64_t[3]){items, 1, 1}, (uint64_t[3]){n, 1, 1}, a, 4, team, what)) {
        int32_t *out = malloc(groups * 8), *seen = malloc(items * 4);
        CHECK_OK(rvhal_mem_read(d, out, dout, groups * 8));
        CHECK_OK(rvhal_mem_read(d, seen, dseen, items * 4));
        int bad = 0;
        for (uint64_t g = 0; g < groups; g++) {
          int32_t sum = 0, max = INT32_MIN;
          for (uint64_t i = 0; i < n && g * n + i < items; i++) {
            sum += in[g * n + i];
            if (in[g * n + i] > max) max = in[g * n + i];
            if (seen[g * n + i] != in[g * n] && bad++ < 4)
              fprintf(stderr, "%s: item %" PRIu64 " saw first = %d, expected %d\n", what, g * n + i, seen[g * n + i],
                      in[g * n]);
          }
          if ((out[g] != sum || out[groups + g] != max) && bad++ < 4)
            fprintf(stderr, "%s: group %" PRIu64 ": sum %d max %d, expected %d %d\n", what, g, out[g],
                    out[groups + g], sum, max);
        }
        CHECK_MSG(bad == 0, "%s: %d wrong", what, bad);
        printf("  %-60s ok\n", what);
        free(out);
        free(seen);
      }
      free(in);
      CHECK_OK(rvhal_mem_free(d, din));
      CHECK_OK(rvhal_mem_free(d, dout));
      CHECK_OK(rvhal_mem_free(d, dseen));
    }
  }
}

/* Helpers with barriers, a kernel calling a kernel, two __local arguments. */
static void test_plumbing(rvhal_device_t *d, hal_program_t p) {
  const uint64_t n = 16, groups = 5, items = n * groups;
  hal_addr_t out = dt_buffer(d, items * 4, NULL);
  hal_arg_t a[3] = {rvhal_arg_global(out), rvhal_arg_local(n * 4), rvhal_arg_local(n * 4)};
  static const char *const kernels[] = {"plumbing", "plumbing_inner"};
  for (int k = 0; k < 2; k++) {
    char what[128];
    ex_fmt(what, sizeof what, "%s: helpers with barriers, two __local arguments", kernels[k]);
    if (launch(d, p, kernels[k], 1, NULL, (uint64_t[3]){items, 1, 1}, (uint64_t[3]){n, 1, 1}, a, 3, 0, what)) continue;
    int32_t got[80];
    CHECK_OK(rvhal_mem_read(d, got, out, items * 4));
    int bad = 0;
    for (uint64_t i = 0; i < items; i++) {
      uint64_t l = i % n;
      bad += got[i] != (int32_t)(1000 * (l % 4 + 1) + 10 * ((l + 1) % n));
    }
    CHECK_MSG(bad == 0, "%s: %d wrong", what, bad);
    printf("  %-60s ok\n", what);
  }
  CHECK_OK(rvhal_mem_free(d, out));
}

/* ---- atomics ---- */
static void test_atomics(rvhal_device_t *d, hal_program_t p) {
  const int rv64 = rvhal_device_get_info(d)->word_size == 8;
  const uint64_t n = 32, groups = 16, items = n * groups; /* every hart takes groups at once */
  int32_t gi[8] = {0, 0, 0, 0, 1000, -1000, 0, 0};
  uint32_t gu[6] = {0, 0xffffffffu, 0, 0xffffffffu, 0, 0};
  int64_t gl[4] = {0, INT64_MIN, 0, -1};
  hal_addr_t dgi = dt_buffer(d, sizeof gi, gi), dgu = dt_buffer(d, sizeof gu, gu),
             dgf = dt_buffer(d, (items + 1) * 4, NULL), dpg = dt_buffer(d, groups * 8, NULL),
             dgl = dt_buffer(d, sizeof gl, gl);
  float minus = -1.0f;
  CHECK_OK(rvhal_mem_write(d, dgf, &minus, 4));
  hal_arg_t a[5] = {rvhal_arg_global(dgi), rvhal_arg_global(dgu), rvhal_arg_global(dgf), rvhal_arg_global(dpg),
                    rvhal_arg_global(dgl)};
  const char *what = "atomics: 16 groups of 32 on every hart";
  if (!launch(d, p, "atomics", 1, NULL, (uint64_t[3]){items, 1, 1}, (uint64_t[3]){n, 1, 1}, a, 5, 0, what)) {
    CHECK_OK(rvhal_mem_read(d, gi, dgi, sizeof gi));
    CHECK_OK(rvhal_mem_read(d, gu, dgu, sizeof gu));
    CHECK_OK(rvhal_mem_read(d, gl, dgl, sizeof gl));
    const int64_t N = (int64_t)items;
    uint32_t x = 0, or_ = 0;
    for (int64_t i = 0; i < N; i++) x ^= (uint32_t)i, or_ |= 1u << (i % 32);
    CHECK_EQ_U64(gi[0], 3 * N);
    CHECK_EQ_U64((int64_t)gi[1], -2 * N);
    CHECK_EQ_U64(gi[2], N);
    CHECK_EQ_U64((int64_t)gi[3], -N);
    CHECK_EQ_U64((int64_t)gi[4], -(N - 1));
    CHECK_EQ_U64(gi[5], N - 1); /* started at -1000 */
    CHECK_EQ_U64(gu[0], or_);
    CHECK_EQ_U64(gu[1], ~or_);
    CHECK_EQ_U64(gu[2], x);
    CHECK_EQ_U64(gu[3], 5);
    CHECK_EQ_U64(gu[4], 2 * (N - 1));
    CHECK_EQ_U64(gi[6], N); /* cmpxchg loop */
    CHECK_EQ_U64(gi[7], N);
    CHECK_EQ_U64(gu[5], N);
    /* xchg: the old values handed out plus the final one are -1 and each id once */
    float *f = malloc((items + 1) * 4);
    CHECK_OK(rvhal_mem_read(d, f, dgf, (items + 1) * 4));
    uint8_t *seen = calloc(items + 1, 1);
    int bad = 0;
    for (uint64_t i = 0; i <= items; i++) {
      float v = f[i];
      int64_t k = v == -1.0f ? (int64_t)items : (int64_t)v;
      if (k < 0 || k > N || (k < N && (float)k != v) || seen[k]++) {
        if (bad++ < 4) fprintf(stderr, "atomic_xchg(float): slot %" PRIu64 " holds %g\n", i, (double)v);
      }
    }
    CHECK_MSG(bad == 0, "atomic_xchg(float): %d values lost or duplicated", bad);
    int32_t *pg = malloc(groups * 8);
    CHECK_OK(rvhal_mem_read(d, pg, dpg, groups * 8));
    for (uint64_t g = 0; g < groups; g++) {
      CHECK_EQ_U64(pg[2 * g], n);
      CHECK_EQ_U64((uint32_t)pg[2 * g + 1], 0xffffffffu);
    }
    if (rv64) {
      CHECK_EQ_U64(gl[0], (uint64_t)(N * (N - 1) / 2) << 33);
      CHECK_EQ_U64(gl[1], (uint64_t)(N - 1) << 40);
      CHECK_MSG(gl[2] >= 1 && gl[2] <= N, "atom_cmpxchg(long): %" PRId64, gl[2]);
      CHECK_MSG(gl[3] >= 0 && gl[3] < N, "atom_xchg(long): %" PRId64, gl[3]);
    } else {
      CHECK_EQ_U64(gl[0], 0); /* no 64-bit atomics on RV32: the kernel's #ifdef left them out */
    }
    printf("  %-60s ok (%s)\n", what, rv64 ? "32- and 64-bit" : "32-bit");
    free(f);
    free(seen);
    free(pg);
  }
  CHECK_OK(rvhal_mem_free(d, dgi));
  CHECK_OK(rvhal_mem_free(d, dgu));
  CHECK_OK(rvhal_mem_free(d, dgf));
  CHECK_OK(rvhal_mem_free(d, dpg));
  CHECK_OK(rvhal_mem_free(d, dgl));
}

static void test_c11_atomics(rvhal_device_t *d, hal_program_t p) {
  const int rv64 = rvhal_device_get_info(d)->word_size == 8;
  const uint64_t n = 32, groups = 16, items = n * groups;
  int32_t ai[4] = {0, 0, -5, 100};
  uint32_t au[3] = {0, 0, 0};
  int64_t al[1] = {0};
  hal_addr_t dai = dt_buffer(d, sizeof ai, ai), dau = dt_buffer(d, sizeof au, au), dal = dt_buffer(d, sizeof al, al);
  hal_arg_t a[3] = {rvhal_arg_global(dai), rvhal_arg_global(dau), rvhal_arg_global(dal)};
  const char *what = "C11 atomics: 16 groups of 32 on every hart";
  if (!launch(d, p, "c11_atomics", 1, NULL, (uint64_t[3]){items, 1, 1}, (uint64_t[3]){n, 1, 1}, a, 3, 0, what)) {
    CHECK_OK(rvhal_mem_read(d, ai, dai, sizeof ai));
    CHECK_OK(rvhal_mem_read(d, au, dau, sizeof au));
    CHECK_OK(rvhal_mem_read(d, al, dal, sizeof al));
    const int64_t N = (int64_t)items;
    uint32_t or_ = 0, x = 0;
    for (int64_t i = 0; i < N; i++) or_ |= 1u << (i % 32), x ^= (uint32_t)i;
    CHECK_EQ_U64(ai[0], 2 * N);
    CHECK_EQ_U64((int64_t)ai[1], -N);
    CHECK_EQ_U64(ai[2], N - 1);
    CHECK_EQ_U64(ai[3], 100 + 3 * N);
    CHECK_EQ_U64(au[0], or_);
    /* xor of (old ^ id) over all exchanges = xor of all ids ^ final value ^ initial 0 */
    CHECK_EQ_U64(au[2] ^ au[1], x);
    CHECK_EQ_U64(al[0], rv64 ? (uint64_t)(N * (N - 1) / 2) << 33 : 0);
    printf("  %-60s ok\n", what);
  }
  CHECK_OK(rvhal_mem_free(d, dai));
  CHECK_OK(rvhal_mem_free(d, dau));
  CHECK_OK(rvhal_mem_free(d, dal));
}

/* ---- async ---- */
static void test_async(rvhal_device_t *d, hal_program_t p) {
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  for (uint32_t team = 1; team <= harts && team <= 2; team++) {
    const uint64_t n = 16, groups = 6, items = n * groups;
    float *src = malloc(items * 16);
    int32_t *sin = malloc(items * 3 * 4);
    for (uint64_t i = 0; i < items * 4; i++) src[i] = (float)i * 0.5f;
    for (uint64_t i = 0; i < items * 3; i++) sin[i] = (int32_t)(i * 7 + 1);
    hal_addr_t dsrc = dt_buffer(d, items * 16, src), ddst = dt_buffer(d, items * 16, NULL),
               dso = dt_buffer(d, items * 2 * 4, NULL), dsi = dt_buffer(d, items * 3 * 4, sin);
    hal_arg_t a[5] = {rvhal_arg_global(dsrc), rvhal_arg_global(ddst), rvhal_arg_global(dso), rvhal_arg_global(dsi),
                      rvhal_arg_local(n * 16)};
    char what[128];
    ex_fmt(what, sizeof what, "async copies: %" PRIu64 " groups of %" PRIu64 ", %u hart%s per group", groups, n, team,
           team > 1 ? "s" : "");
    if (!launch(d, p, "async_copy", 1, NULL, (uint64_t[3]){items, 1, 1}, (uint64_t[3]){n, 1, 1}, a, 5, team, what)) {
      float *dst = malloc(items * 16);
      int32_t *so = malloc(items * 2 * 4);
      CHECK_OK(rvhal_mem_read(d, dst, ddst, items * 16));
      CHECK_OK(rvhal_mem_read(d, so, dso, items * 2 * 4));
      int bad = 0;
      for (uint64_t g = 0; g < groups; g++)
        for (uint64_t l = 0; l < n; l++) {
          for (int c = 0; c < 4; c++)
            if (dst[(g * n + l) * 4 + c] != src[(g * n + n - 1 - l) * 4 + c] * 2.0f) bad++;
          if (so[(g * n + l) * 2] != sin[g * n * 3 + l * 3]) bad++;
          if (so[(g * n + l) * 2 + 1] != 0) bad++; /* the stride's gaps untouched */
        }
      CHECK_MSG(bad == 0, "%s: %d wrong values", what, bad);
      printf("  %-60s ok\n", what);
      free(dst);
      free(so);
    }
    free(src);
    free(sin);
    CHECK_OK(rvhal_mem_free(d, dsrc));
    CHECK_OK(rvhal_mem_free(d, ddst));
    CHECK_OK(rvhal_mem_free(d, dso));
    CHECK_OK(rvhal_mem_free(d, dsi));
  }
}

/* ---- printf ---- */
typedef struct lines {
  char text[4096];
  size_t len;
  int count;
} lines_t;

static void on_print(void *user, const char *line, size_t len) {
  lines_t *l = user;
  if (l->len + len + 2 < sizeof l->text) {
    memcpy(l->text + l->len, line, len);
    l->len += len;
    if (!len || line[len - 1] != '\n') l->text[l->len++] = '\n';
    l->text[l->len] = '\0';
  }
  l->count++;
}

static void test_printf(rvhal_device_t *d, hal_program_t p) {
  lines_t got = {{0}, 0, 0};
  rvhal_device_set_print_fn(d, on_print, &got);
  int32_t i = -42;
  float f = 3.14159f, v[4] = {1.5f, -2.0f, 0.25f, 1e6f};
  int64_t big = -1234567890123LL;
  hal_addr_t dummy = dt_buffer(d, 16, NULL);
  hal_arg_t a[5] = {rvhal_arg_value(&i, 4), rvhal_arg_value(&f, 4), rvhal_arg_value(v, 16), rvhal_arg_value(&big, 8),
                    rvhal_arg_global(dummy)};
  if (!launch(d, p, "print_formats", 1, NULL, (uint64_t[3]){4, 1, 1}, (uint64_t[3]){2, 1, 1}, a, 5, 0, "printf")) {
    /* The host's own printf is the reference, element by element. */
    char want[2048];
    int n = snprintf(want, sizeof want, "item %u of %u: i=%d f=%.2f\n", 1u, 4u, i, (double)f);
    n += snprintf(want + n, sizeof want - (size_t)n, "v=%f,%f,%f,%f x=%#x big=%lld s=%s c=%c\n", (double)v[0],
                  (double)v[1], (double)v[2], (double)v[3], (unsigned)i, (long long)big, "str", 'Q');
    n += snprintf(want + n, sizeof want - (size_t)n, "ints %hhd,%hhd|%hd,%hd,%hd|%x,%x,%x,%x|%lu,%llu\n", (char)-1,
                  (char)2, (short)-300, (short)0, (short)300, 10, 11, 12, 255, 1ul, 18446744073709551615ull);
    n += snprintf(want + n, sizeof want - (size_t)n, "%5.1f|%-4d|%e|%.6a|%10.2A|%a,%a,%a,%a\n", 2.25, 7,
                  1024.0, 0.5, 1.5, 0.25, 0.5, 1.0, 1.5);
    snprintf(want + n, sizeof want - (size_t)n, "%f,%f,%f,%f|%d,%d\n", (double)v[0], (double)v[1], (double)v[2],
             (double)v[3], -3, 4);
    CHECK_MSG(got.count == 5, "printf: %d lines, expected 5", got.count);
    CHECK_MSG(!strcmp(got.text, want), "printf:\n--- got\n%s--- expected\n%s", got.text, want);
    printf("%s  printf ok (%d lines)\n", got.text, got.count);
  }
  rvhal_device_set_print_fn(d, NULL, NULL);
  CHECK_OK(rvhal_mem_free(d, dummy));
}

/* ---- integers ---- */
static void test_integers(rvhal_device_t *d, hal_program_t p) {
  enum { N = 256 };
  uint8_t *a = malloc(N * 16), *q = malloc(N * 16), *r = malloc(N * 16), *q0 = malloc(N * 16);
  int32_t *sa = malloc(N * 16), *sq = malloc(N * 16), *sr = malloc(N * 16), *sq0 = malloc(N * 16);
  uint32_t x = 12345;
  for (int i = 0; i < N * 16; i++) {
    x = x * 1103515245u + 12345u;
    a[i] = i % 7 == 3 ? 0 : (uint8_t)(x >> 16); /* a zero divisor in most vectors, in every lane position */
    q0[i] = r[i] = (uint8_t)(x >> 8);
  }
  for (int i = 0; i < N * 4; i++) {
    x = x * 1103515245u + 12345u;
    sa[i] = i % 5 == 1 ? 0 : i % 5 == 2 ? -1 : (int32_t)x >> (x & 15);
    sq0[i] = sr[i] = i % 10 == 2 ? INT32_MIN : (int32_t)(x * 2654435761u);
  }
  memcpy(q, q0, N * 16);
  memcpy(sq, sq0, N * 16);
  hal_addr_t ba = dt_buffer(d, N * 16, a), bq = dt_buffer(d, N * 16, q), br = dt_buffer(d, N * 16, r);
  hal_addr_t bsa = dt_buffer(d, N * 16, sa), bsq = dt_buffer(d, N * 16, sq), bsr = dt_buffer(d, N * 16, sr);
  hal_arg_t args[6] = {rvhal_arg_global(ba),  rvhal_arg_global(bq),  rvhal_arg_global(br),
                       rvhal_arg_global(bsa), rvhal_arg_global(bsq), rvhal_arg_global(bsr)};
  if (!launch(d, p, "divide_lanes", 1, NULL, (uint64_t[3]){N, 1, 1}, (uint64_t[3]){16, 1, 1}, args, 6, 0,
              "divide_lanes")) {
    CHECK_OK(rvhal_mem_read(d, q, bq, N * 16));
    CHECK_OK(rvhal_mem_read(d, r, br, N * 16));
    CHECK_OK(rvhal_mem_read(d, sq, bsq, N * 16));
    CHECK_OK(rvhal_mem_read(d, sr, bsr, N * 16));
    int bad = 0, lanes = 0;
    for (int i = 0; i < N * 16; i++) {
      if (!a[i]) continue; /* the value is undefined there */
      lanes++;
      if ((q[i] != q0[i] / a[i] || r[i] != q0[i] % a[i]) && bad++ < 5)
        fprintf(stderr, "uchar16 %d lane %d: %u / %u = %u rem %u, expected %u rem %u\n", i / 16, i % 16, q0[i],
                a[i], q[i], r[i], q0[i] / a[i], q0[i] % a[i]);
    }
    for (int i = 0; i < N * 4; i++) {
      if (!sa[i] || (sa[i] == -1 && sq0[i] == INT32_MIN)) continue;
      lanes++;
      if ((sq[i] != sq0[i] / sa[i] || sr[i] != sq0[i] % sa[i]) && bad++ < 10)
        fprintf(stderr, "int4 %d lane %d: %d / %d = %d rem %d, expected %d rem %d\n", i / 4, i % 4, sq0[i], sa[i],
                sq[i], sr[i], sq0[i] / sa[i], sq0[i] % sa[i]);
    }
    CHECK_MSG(bad == 0, "divide_lanes: %d wrong lanes of %d", bad, lanes);
    if (!bad) printf("  %-60s %6d lanes ok\n", "uchar16 and int4 / and % beside undefined lanes", lanes);
  }
  const hal_addr_t bufs[] = {ba, bq, br, bsa, bsq, bsr};
  for (size_t k = 0; k < sizeof bufs / sizeof *bufs; k++) CHECK_OK(rvhal_mem_free(d, bufs[k]));
  free(a), free(q), free(r), free(q0), free(sa), free(sq), free(sr), free(sq0);
}

int main(int argc, char **argv) {
  ex_clean_env();
  const char *family = argc > 1 ? argv[1] : "";
  rvhal_device_t *d = fixture_device(argc > 2 ? (uint32_t)atoi(argv[2]) : 4);
  hal_program_t p = compile_and_load(d, "kernels/execution.cl");
  printf("%s on %s, %u harts:\n", family, rvhal_device_get_info(d)->name, rvhal_device_get_info(d)->num_harts);
  if (!strcmp(family, "workitems")) test_workitems(d, p);
  else if (!strcmp(family, "barrier")) {
    test_barrier(d, p);
    test_plumbing(d, p);
  }
  else if (!strcmp(family, "atomics")) {
    test_atomics(d, p);
    test_c11_atomics(d, p);
  }
  else if (!strcmp(family, "async")) test_async(d, p);
  else if (!strcmp(family, "printf")) test_printf(d, p);
  else if (!strcmp(family, "integers")) test_integers(d, p);
  else {
    fprintf(stderr, "usage: %s workitems|barrier|atomics|async|printf|integers\n", argv[0]);
    return 2;
  }
  rvhal_device_delete(d);
  char name[64];
  snprintf(name, sizeof name, "opencl.%s", family);
  return check_result(name);
}

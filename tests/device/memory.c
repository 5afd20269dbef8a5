/* Device memory: mem_write/read, mem_copy (including overlapping ranges),
 * mem_fill (patterns of 1, 2, 3, 4, 8, 16 and 128 bytes) and mem_map round
 * trips, each verified on the host and by the dt_mem checksum kernel reading
 * the data on the device; allocation alignment and isolation; bad inputs
 * (addresses outside device memory, ranges past an allocation, freed
 * memory, unknown and repeated frees, size 0, alignments that are not
 * powers of two) refused with a status and a message; and exhaustion:
 * allocate until RVHAL_NO_MEMORY, free, allocate again.
 *
 * With the argument "staged": memory the library took for a program's
 * staged copy (after the user freed it) must stay out of the user's reach.
 * With "ram": a device with the RAM $RVHAL_RAM_MIB asks (512 MiB), its info
 * as rvhal_platform_device_info_for foretold it, a 136 MiB buffer written,
 * read and its last 64 KiB checksummed by the device; a bad $RVHAL_RAM_MIB
 * refused by name. */
#include "dev_util.h"

#define CHUNK 256

typedef struct {
  rvhal_device_t *d;
  hal_program_t prog;
  hal_kernel_t sum;
  const rvhal_device_info_t *info;
  hal_addr_t sums; /* output of the checksum kernel */
  size_t sums_cap;
  uint64_t big; /* the largest write and fill: 64 KiB, less over a slow debug link */
} ctx_t;

static uint32_t fnv_chunk(const uint8_t *p, uint64_t n, uint64_t i) {
  uint64_t lo = i * CHUNK, hi = lo + CHUNK;
  if (hi > n) hi = n;
  uint32_t h = 2166136261u ^ (uint32_t)i;
  for (uint64_t b = lo; b < hi; b++) h = (h ^ p[b]) * 16777619u;
  return h;
}

/* The device reads [addr, addr+n) and must see `expect`. */
static void device_sees(ctx_t *c, hal_addr_t addr, const uint8_t *expect, uint64_t n, const char *what) {
  uint64_t items = (n + CHUNK - 1) / CHUNK;
  uint64_t global = (items + 3) / 4 * 4;
  if (global * 4 > c->sums_cap) {
    CHECK_MSG(0, "%s: %llu bytes is too large for the checksum buffer", what, (unsigned long long)n);
    return;
  }
  uint64_t chunk = CHUNK;
  hal_arg_t args[4] = {rvhal_arg_global(addr), rvhal_arg_global(c->sums), rvhal_arg_value(&n, 8),
                       rvhal_arg_value(&chunk, 8)};
  hal_ndrange_t nd = {.global = {global}, .local = {4}};
  int rc = rvhal_kernel_exec(c->d, c->prog, c->sum, &nd, args, 4, 1);
  CHECK_MSG(rc == RVHAL_OK, "%s: checksum kernel: %s: %s", what, rvhal_status_name(rc), rvhal_last_error());
  uint32_t *got = malloc(global * 4);
  CHECK_OK(rvhal_mem_read(c->d, got, c->sums, global * 4));
  uint64_t bad = 0;
  for (uint64_t i = 0; i < global; i++) {
    uint32_t want = fnv_chunk(expect, n, i);
    if (got[i] != want && bad++ == 0)
      fprintf(stderr, "  %s: device checksum of bytes [%llu, +%d) is 0x%08x, expected 0x%08x\n", what,
              (unsigned long long)(i * CHUNK), CHUNK, got[i], want);
  }
  CHECK_MSG(bad == 0, "%s: the device read %llu of %llu chunks wrong", what, (unsigned long long)bad,
            (unsigned long long)global);
  free(got);
}

/* Host and device both see `expect` at [addr, addr+n). */
static void both_see(ctx_t *c, hal_addr_t addr, const uint8_t *expect, uint64_t n, const char *what) {
  uint8_t *back = malloc(n);
  CHECK_OK(rvhal_mem_read(c->d, back, addr, n));
  CHECK_BYTES(back, expect, n, "%s (host read)", what);
  free(back);
  device_sees(c, addr, expect, n, what);
}

static void write_read(ctx_t *c) {
  const uint64_t sizes[] = {1, 3, 64, 1000, 4096, c->big + 5};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    uint64_t n = sizes[s];
    uint8_t *data = malloc(n);
    dt_fill_random(data, n, s + 1);
    hal_addr_t a;
    CHECK_OK(rvhal_mem_alloc(c->d, n, 0, &a));
    CHECK_OK(rvhal_mem_write(c->d, a, data, n));
    char what[64];
    snprintf(what, sizeof what, "write/read %llu bytes", (unsigned long long)n);
    both_see(c, a, data, n, what);
    /* A write inside the allocation, at an odd offset. */
    if (n >= 64) {
      uint8_t patch[29];
      dt_fill_random(patch, sizeof patch, 1000 + s);
      CHECK_OK(rvhal_mem_write(c->d, a + 7, patch, sizeof patch));
      memcpy(data + 7, patch, sizeof patch);
      snprintf(what, sizeof what, "write of 29 bytes at +7 of %llu", (unsigned long long)n);
      both_see(c, a, data, n, what);
      uint8_t part[29];
      CHECK_OK(rvhal_mem_read(c->d, part, a + 7, sizeof part));
      CHECK_BYTES(part, patch, sizeof patch, "read of 29 bytes at +7");
      CHECK_OK(rvhal_mem_read(c->d, part, a + n - 5, 5)); /* the last bytes */
      CHECK_BYTES(part, data + n - 5, 5, "read of the last 5 bytes");
    }
    /* Size 0 is a no-op. */
    CHECK_OK(rvhal_mem_write(c->d, a, data, 0));
    CHECK_OK(rvhal_mem_read(c->d, data, a, 0));
    CHECK_OK(rvhal_mem_free(c->d, a));
    free(data);
  }
}

static void copies(ctx_t *c) {
  const uint64_t n = 20000;
  uint8_t *src = malloc(n), *want = malloc(n);
  dt_fill_random(src, n, 77);
  hal_addr_t a, b;
  CHECK_OK(rvhal_mem_alloc(c->d, n, 0, &a));
  CHECK_OK(rvhal_mem_alloc(c->d, n, 0, &b));
  CHECK_OK(rvhal_mem_write(c->d, a, src, n));
  const uint8_t z = 0;
  CHECK_OK(rvhal_mem_fill(c->d, b, &z, 1, n));

  /* Whole buffer, then a part at odd offsets. */
  CHECK_OK(rvhal_mem_copy(c->d, b, a, n));
  both_see(c, b, src, n, "mem_copy of 20000 bytes");
  memcpy(want, src, n);
  CHECK_OK(rvhal_mem_copy(c->d, b + 3, a + 1001, 777));
  memcpy(want + 3, src + 1001, 777);
  both_see(c, b, want, n, "mem_copy of 777 bytes at odd offsets");
  both_see(c, a, src, n, "mem_copy source unchanged");

  /* Overlapping, inside one allocation: as memmove. */
  CHECK_OK(rvhal_mem_copy(c->d, b + 100, b, 5000)); /* forward overlap */
  memmove(want + 100, want, 5000);
  both_see(c, b, want, n, "mem_copy overlapping, dst > src");
  CHECK_OK(rvhal_mem_copy(c->d, b + 10, b + 13, 9000)); /* backward overlap */
  memmove(want + 10, want + 13, 9000);
  both_see(c, b, want, n, "mem_copy overlapping, dst < src");
  CHECK_OK(rvhal_mem_copy(c->d, b + 50, b + 50, 100)); /* onto itself */
  both_see(c, b, want, n, "mem_copy onto itself");
  CHECK_OK(rvhal_mem_copy(c->d, b, a, 0));
  both_see(c, b, want, n, "mem_copy of 0 bytes");

  CHECK_OK(rvhal_mem_free(c->d, a));
  CHECK_OK(rvhal_mem_free(c->d, b));
  free(src);
  free(want);
}

static void fills(ctx_t *c) {
  static const uint64_t patterns[] = {1, 2, 3, 4, 8, 16, 128};
  for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++) {
    uint64_t ps = patterns[p];
    uint8_t pat[128];
    dt_fill_random(pat, sizeof pat, 500 + p);
    const uint64_t counts[] = {1, 2, 7, fixture_link_bytes(c->d, 1000 * ps, ps, ps, 4.0) / ps, c->big / ps + 3};
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
      uint64_t size = ps * counts[k];
      /* Fill the middle of a larger allocation: the guards must not change. */
      uint64_t total = size + 2 * 40;
      uint8_t *want = malloc(total);
      dt_fill_random(want, total, 900 + p * 10 + k);
      hal_addr_t a;
      CHECK_OK(rvhal_mem_alloc(c->d, total, 0, &a));
      CHECK_OK(rvhal_mem_write(c->d, a, want, total));
      CHECK_OK(rvhal_mem_fill(c->d, a + 40, pat, ps, size));
      for (uint64_t i = 0; i < size; i++) want[40 + i] = pat[i % ps];
      char what[80];
      snprintf(what, sizeof what, "mem_fill pattern %llu x %llu", (unsigned long long)ps,
               (unsigned long long)counts[k]);
      both_see(c, a, want, total, what);
      CHECK_OK(rvhal_mem_free(c->d, a));
      free(want);
    }
  }
}

static void mapping(ctx_t *c) {
  const uint64_t n = 3000;
  hal_addr_t a;
  CHECK_OK(rvhal_mem_alloc(c->d, n, 0, &a));
  uint8_t *p = NULL;
  const char *backend = getenv("RVHAL_BACKEND");
  if (backend && !strcmp(backend, "gdb")) { /* a device the host cannot map: says so, after the range checks */
    CHECK_FAILS(rvhal_mem_map(c->d, a, n, (void **)&p), RVHAL_UNSUPPORTED, "cannot map");
    CHECK_FAILS(rvhal_mem_map(c->d, a + 100, n, (void **)&p), RVHAL_OUT_OF_RANGE, "past the end");
    CHECK_OK(rvhal_mem_free(c->d, a));
    return;
  }
  CHECK_OK(rvhal_mem_map(c->d, a, n, (void **)&p));
  if (!p) return;
  uint8_t *want = malloc(n);
  dt_fill_random(want, n, 4242);
  memcpy(p, want, n);
  both_see(c, a, want, n, "written through mem_map");
  uint8_t *q = NULL;
  CHECK_OK(rvhal_mem_map(c->d, a + 100, 50, (void **)&q));
  CHECK(q == p + 100);
  CHECK_FAILS(rvhal_mem_map(c->d, a + 100, n, (void **)&q), RVHAL_OUT_OF_RANGE, "past the end");
  /* Device writes are visible through the map: the checksum output. */
  uint32_t *s = NULL;
  CHECK_OK(rvhal_mem_map(c->d, c->sums, 16, (void **)&s));
  device_sees(c, a, want, n, "mem_map (device)");
  if (s) CHECK_EQ_U64(s[1], fnv_chunk(want, n, 1));
  CHECK_OK(rvhal_mem_free(c->d, a));
  free(want);
}

/* Allocations honour their alignment and never overlap. */
static void alignment(ctx_t *c) {
  enum { NA = 20 };
  hal_addr_t a[NA];
  uint64_t size[NA];
  uint8_t pat[NA];
  for (int i = 0; i < NA; i++) {
    uint64_t align = i < 17 ? 1ull << i : 0; /* 1 .. 65536, then the default (64) */
    size[i] = 1 + (uint64_t)i * 37;
    CHECK_OK(rvhal_mem_alloc(c->d, size[i], align, &a[i]));
    uint64_t want = align ? align : 64;
    CHECK_MSG(a[i] % want == 0, "alloc(%llu, alignment %llu) = 0x%llx", (unsigned long long)size[i],
              (unsigned long long)align, (unsigned long long)a[i]);
    CHECK_MSG(a[i] >= c->info->program_area_base + c->info->program_area_size,
              "allocation 0x%llx below the end of the program area", (unsigned long long)a[i]);
    pat[i] = (uint8_t)(0x11 * (i + 1));
    CHECK_OK(rvhal_mem_fill(c->d, a[i], &pat[i], 1, size[i]));
  }
  for (int i = 0; i < NA; i++) {
    for (int j = 0; j < NA; j++)
      if (i != j)
        CHECK_MSG(a[i] + size[i] <= a[j] || a[j] + size[j] <= a[i], "allocations %d and %d overlap", i, j);
    uint8_t *got = malloc(size[i]), *want = malloc(size[i]);
    memset(want, pat[i], size[i]);
    CHECK_OK(rvhal_mem_read(c->d, got, a[i], size[i]));
    CHECK_BYTES(got, want, size[i], "allocation %d after filling all", i);
    free(got);
    free(want);
  }
  for (int i = 0; i < NA; i++) CHECK_OK(rvhal_mem_free(c->d, a[i]));
}

static void bad_inputs(ctx_t *c) {
  rvhal_device_t *d = c->d;
  uint8_t buf[256] = {0};
  /* A guard allocation whose contents must survive everything below. */
  uint8_t guard[512];
  dt_fill_random(guard, sizeof guard, 31337);
  hal_addr_t g = dt_buffer(d, sizeof guard, guard);
  hal_addr_t a, b;
  CHECK_OK(rvhal_mem_alloc(d, 100, 0, &a));
  CHECK_OK(rvhal_mem_alloc(d, 100, 0, &b));

  /* Outside device global memory. */
  CHECK_FAILS(rvhal_mem_write(d, 0x1000, buf, 4), RVHAL_OUT_OF_RANGE, "outside");
  CHECK_FAILS(rvhal_mem_read(d, buf, 0x10, 4), RVHAL_OUT_OF_RANGE, "outside");
  CHECK_FAILS(rvhal_mem_write(d, c->info->program_area_base, buf, 4), RVHAL_OUT_OF_RANGE, "outside");
  CHECK_FAILS(rvhal_mem_write(d, 0x80080000u, buf, 4), RVHAL_OUT_OF_RANGE, "outside"); /* control block */
  CHECK_FAILS(rvhal_mem_read(d, buf, UINT64_MAX - 1, 4), RVHAL_OUT_OF_RANGE, "outside");
  CHECK_FAILS(rvhal_mem_read(d, buf, 0x80000000u + c->info->ram_size - 16, 4), RVHAL_OUT_OF_RANGE, "outside");
  CHECK_FAILS(rvhal_mem_fill(d, 0x2000, buf, 1, 16), RVHAL_OUT_OF_RANGE, "outside");
  CHECK_FAILS(rvhal_mem_copy(d, 0x2000, a, 16), RVHAL_OUT_OF_RANGE, "destination");
  CHECK_FAILS(rvhal_mem_copy(d, a, 0x2000, 16), RVHAL_OUT_OF_RANGE, "source");
  void *p;
  CHECK_FAILS(rvhal_mem_map(d, 0x1000, 4, &p), RVHAL_OUT_OF_RANGE, "outside");

  /* Ranges running past an allocation. */
  CHECK_FAILS(rvhal_mem_write(d, a, buf, 101), RVHAL_OUT_OF_RANGE, "past the end");
  CHECK_FAILS(rvhal_mem_write(d, a + 98, buf, 4), RVHAL_OUT_OF_RANGE, "past the end");
  CHECK_FAILS(rvhal_mem_read(d, buf, a + 99, 2), RVHAL_OUT_OF_RANGE, "past the end");
  CHECK_FAILS(rvhal_mem_read(d, buf, a, UINT64_MAX), RVHAL_OUT_OF_RANGE, "past the end");
  CHECK_FAILS(rvhal_mem_fill(d, a + 4, buf, 4, 100), RVHAL_OUT_OF_RANGE, "past the end");
  CHECK_FAILS(rvhal_mem_write(d, a + 100, buf, 1), RVHAL_OUT_OF_RANGE, "not inside any allocation");

  /* Copies with an invalid side, and across two allocations. */
  CHECK_FAILS(rvhal_mem_copy(d, a, b, 101), RVHAL_OUT_OF_RANGE, "past the end");
  CHECK_FAILS(rvhal_mem_copy(d, a + 50, b, 51), RVHAL_OUT_OF_RANGE, "destination");
  CHECK_FAILS(rvhal_mem_copy(d, a, b + 50, 51), RVHAL_OUT_OF_RANGE, "source");
  CHECK_FAILS(rvhal_mem_copy(d, a + 10, a, 91), RVHAL_OUT_OF_RANGE, "past the end"); /* overlapping, too long */
  CHECK_FAILS(rvhal_mem_copy(d, a + 90, a + 95, 8), RVHAL_OUT_OF_RANGE, "past the end");
  CHECK_FAILS(rvhal_mem_copy(d, b, a + 96, 64), RVHAL_OUT_OF_RANGE, "past the end"); /* a's end into b's start */

  /* mem_fill arguments. */
  CHECK_FAILS(rvhal_mem_fill(d, a, buf, 0, 16), RVHAL_INVALID_ARGUMENT, "pattern size");
  CHECK_FAILS(rvhal_mem_fill(d, a, buf, 129, 129), RVHAL_INVALID_ARGUMENT, "pattern size");
  CHECK_FAILS(rvhal_mem_fill(d, a, buf, 3, 10), RVHAL_INVALID_ARGUMENT, "multiple");
  CHECK_FAILS(rvhal_mem_fill(d, a, NULL, 1, 10), RVHAL_INVALID_ARGUMENT, "NULL");
  CHECK_FAILS(rvhal_mem_write(d, a, NULL, 10), RVHAL_INVALID_ARGUMENT, "NULL");
  CHECK_FAILS(rvhal_mem_read(d, NULL, a, 10), RVHAL_INVALID_ARGUMENT, "NULL");

  /* Frees. */
  CHECK_FAILS(rvhal_mem_free(d, a + 16), RVHAL_NOT_FOUND, "inside the allocation");
  CHECK_FAILS(rvhal_mem_free(d, 0x1000), RVHAL_NOT_FOUND, "not the start of an allocation");
  CHECK_FAILS(rvhal_mem_free(d, b + 4096), RVHAL_NOT_FOUND, "not the start of an allocation");
  /* hal_nullptr (0) is ignored, like free(NULL): no allocation goes, and the
   * device keeps working (a and b just below; the guard, also by a kernel,
   * at the end). */
  CHECK_OK(rvhal_mem_free(d, hal_nullptr));
  CHECK_OK(rvhal_mem_free(d, hal_nullptr)); /* again: still nothing to free */
  CHECK_OK(rvhal_mem_write(d, b, buf, 100));
  CHECK_OK(rvhal_mem_read(d, buf, a, 100));
  CHECK_OK(rvhal_mem_free(d, a));
  CHECK_FAILS(rvhal_mem_free(d, a), RVHAL_NOT_FOUND, "not the start of an allocation"); /* double free */
  /* Freed memory is not accessible. */
  CHECK_FAILS(rvhal_mem_write(d, a, buf, 4), RVHAL_OUT_OF_RANGE, "not inside any allocation");
  CHECK_FAILS(rvhal_mem_read(d, buf, a + 8, 4), RVHAL_OUT_OF_RANGE, "not inside any allocation");
  CHECK_FAILS(rvhal_mem_copy(d, b, a, 4), RVHAL_OUT_OF_RANGE, "not inside any allocation");

  /* Allocation arguments. */
  hal_addr_t x = 12345;
  CHECK_FAILS(rvhal_mem_alloc(d, 0, 0, &x), RVHAL_INVALID_ARGUMENT, "size is 0");
  CHECK_EQ_U64(x, hal_nullptr);
  CHECK_FAILS(rvhal_mem_alloc(d, 64, 3, &x), RVHAL_INVALID_ARGUMENT, "power of two");
  CHECK_FAILS(rvhal_mem_alloc(d, 64, 48, &x), RVHAL_INVALID_ARGUMENT, "power of two");
  CHECK_FAILS(rvhal_mem_alloc(d, 64, (1ull << 63) + 1, &x), RVHAL_INVALID_ARGUMENT, "power of two");
  CHECK_FAILS(rvhal_mem_alloc(d, c->info->global_mem_size + 1, 0, &x), RVHAL_NO_MEMORY, "cannot allocate");
  CHECK_FAILS(rvhal_mem_alloc(d, UINT64_MAX, 0, &x), RVHAL_NO_MEMORY, "cannot allocate");
  CHECK_FAILS(rvhal_mem_alloc(d, 64, 1ull << 40, &x), RVHAL_NO_MEMORY, "cannot allocate");

  CHECK_OK(rvhal_mem_free(d, b));
  uint8_t back[sizeof guard];
  CHECK_OK(rvhal_mem_read(d, back, g, sizeof back));
  CHECK_BYTES(back, guard, sizeof guard, "guard allocation after the bad inputs");
  device_sees(c, g, guard, sizeof guard, "guard allocation after the bad inputs");
  CHECK_OK(rvhal_mem_free(d, g));
}

/* Allocations and frees in a random order (holes, merges, reuse): the live
 * allocations never overlap, checked by their addresses after every
 * allocation and by their contents (each filled with its own byte) at the
 * end. An allocator bug that hands out memory already in use showed only
 * in the unit test before. */
static void churn(ctx_t *c) {
  enum { LIVE = 48, ROUNDS = 400 };
  hal_addr_t a[LIVE] = {0};
  uint64_t size[LIVE] = {0};
  uint8_t tag[LIVE] = {0};
  uint64_t rng = 0x5eed;
  uint32_t allocs = 0;
  for (int r = 0; r < ROUNDS; r++) {
    int i = (int)(dt_rand(&rng) % LIVE);
    if (a[i]) {
      CHECK_OK(rvhal_mem_free(c->d, a[i]));
      a[i] = 0;
      continue;
    }
    size[i] = 1 + dt_rand(&rng) % 3000;
    uint64_t align = dt_rand(&rng) % 3 ? 0 : 1ull << (dt_rand(&rng) % 13);
    if (rvhal_mem_alloc(c->d, size[i], align, &a[i]) != RVHAL_OK) {
      CHECK_MSG(0, "churn round %d: alloc(%llu, %llu): %s", r, (unsigned long long)size[i],
                (unsigned long long)align, rvhal_last_error());
      a[i] = 0;
      continue;
    }
    allocs++;
    tag[i] = (uint8_t)(r + 1);
    CHECK_OK(rvhal_mem_fill(c->d, a[i], &tag[i], 1, size[i]));
    for (int j = 0; j < LIVE; j++)
      if (j != i && a[j])
        CHECK_MSG(a[i] + size[i] <= a[j] || a[j] + size[j] <= a[i],
                  "churn round %d: [0x%llx, +%llu) overlaps live [0x%llx, +%llu)", r, (unsigned long long)a[i],
                  (unsigned long long)size[i], (unsigned long long)a[j], (unsigned long long)size[j]);
  }
  CHECK_MSG(allocs > ROUNDS / 4, "only %u allocations in %d rounds", allocs, ROUNDS);
  uint8_t got[3000], want[3000];
  for (int i = 0; i < LIVE; i++) {
    if (!a[i]) continue;
    memset(want, tag[i], size[i]);
    CHECK_OK(rvhal_mem_read(c->d, got, a[i], size[i]));
    CHECK_BYTES(got, want, size[i], "churn: allocation at 0x%llx", (unsigned long long)a[i]);
    CHECK_OK(rvhal_mem_free(c->d, a[i]));
  }
}

/* Fill global memory with blocks of decreasing size until NO_MEMORY. */
static size_t exhaust(ctx_t *c, hal_addr_t *blocks, size_t cap, uint64_t *bytes) {
  /* The last size is the allocator's granule (16 bytes), so nothing is left. */
  static const uint64_t sizes[] = {8u << 20, 64u << 10, 64, 16}, aligns[] = {0, 0, 0, 1};
  size_t n = 0;
  *bytes = 0;
  for (size_t s = 0; s < 4; s++) {
    for (;;) {
      if (n == cap) {
        CHECK_MSG(0, "more than %zu allocations without running out", cap);
        return n;
      }
      int rc = rvhal_mem_alloc(c->d, sizes[s], aligns[s], &blocks[n]);
      if (rc == RVHAL_OK) {
        *bytes += sizes[s];
        n++;
        continue;
      }
      CHECK_MSG(rc == RVHAL_NO_MEMORY && strstr(rvhal_last_error(), "cannot allocate"),
                "alloc(%llu) after %zu blocks: %s: %s", (unsigned long long)sizes[s], n, rvhal_status_name(rc),
                rvhal_last_error());
      break;
    }
  }
  return n;
}

static void exhaustion(ctx_t *c) {
  enum { CAP = 4096 };
  hal_addr_t *blocks = malloc(CAP * sizeof *blocks);
  uint64_t bytes1, bytes2;
  size_t n1 = exhaust(c, blocks, CAP, &bytes1);
  CHECK_MSG(bytes1 + 16 * 1024 >= c->info->global_mem_size - 2 * 65536,
            "only %llu of %llu bytes of global memory could be allocated (%zu blocks)", (unsigned long long)bytes1,
            (unsigned long long)c->info->global_mem_size, n1);
  CHECK_MSG(bytes1 <= c->info->global_mem_size, "%llu bytes allocated, more than the %llu there are",
            (unsigned long long)bytes1, (unsigned long long)c->info->global_mem_size);
  hal_addr_t x;
  CHECK_FAILS(rvhal_mem_alloc(c->d, 64, 0, &x), RVHAL_NO_MEMORY, "cannot allocate");
  int rc = rvhal_mem_alloc(c->d, 1, 1, &x);
  CHECK_MSG(rc == RVHAL_NO_MEMORY && strstr(rvhal_last_error(), "0 bytes free"), "alloc(1) with memory full: %s: %s",
            rvhal_status_name(rc), rvhal_last_error());
  if (rc == RVHAL_OK) CHECK_OK(rvhal_mem_free(c->d, x));
  /* Programs are kept outside global memory: loading one still works. */
  hal_program_t p;
  char path[1024];
  snprintf(path, sizeof path, "%s/dt_mem.elf", fixture_kernel_dir(c->d));
  CHECK_OK(rvhal_program_load_file(c->d, path, &p));
  CHECK_OK(rvhal_program_free(c->d, p));
  /* Kernels still run with memory full. */
  uint8_t data[1000];
  dt_fill_random(data, sizeof data, 5);
  CHECK_OK(rvhal_mem_write(c->d, blocks[0], data, sizeof data));
  device_sees(c, blocks[0], data, sizeof data, "kernel with global memory full");

  for (size_t i = 0; i < n1; i++) CHECK_OK(rvhal_mem_free(c->d, blocks[i]));
  size_t n2 = exhaust(c, blocks, CAP, &bytes2);
  CHECK_MSG(n2 == n1 && bytes2 == bytes1, "second exhaustion: %zu blocks, %llu bytes; first: %zu, %llu", n2,
            (unsigned long long)bytes2, n1, (unsigned long long)bytes1);
  for (size_t i = 0; i < n2; i++) CHECK_OK(rvhal_mem_free(c->d, blocks[i]));
  free(blocks);
}

/* Memory the library allocates for itself (a program's staged copy) is not
 * the user's: with all global memory free, the user allocates a block, frees
 * it and loads programs (whose copies once took the freed place). Accesses
 * to the freed block must still be refused, and the programs must still work
 * when installed again. */
static void internal_memory(ctx_t *c) {
  hal_addr_t a;
  CHECK_OK(rvhal_mem_alloc(c->d, 65536, 0, &a));
  CHECK_OK(rvhal_mem_free(c->d, a));
  hal_program_t pb = fixture_program(c->d, "dt_prog_b");
  hal_kernel_t fill = fixture_kernel(c->d, pb, "prog_b_fill");
  hal_program_t pa = fixture_program(c->d, "dt_prog_a");
  hal_kernel_t affine = fixture_kernel(c->d, pa, "prog_a_affine");

  uint8_t buf[1024];
  memset(buf, 0, sizeof buf);
  CHECK_FAILS(rvhal_mem_read(c->d, buf, a, sizeof buf), RVHAL_OUT_OF_RANGE, "not inside any allocation");
  memset(buf, 0, sizeof buf);
  CHECK_FAILS(rvhal_mem_write(c->d, a, buf, sizeof buf), RVHAL_OUT_OF_RANGE, "not inside any allocation");
  void *p;
  CHECK_FAILS(rvhal_mem_map(c->d, a, 16, &p), RVHAL_OUT_OF_RANGE, "not inside any allocation");
  uint32_t v = 0x1000;
  hal_arg_t args[3] = {rvhal_arg_global(a), rvhal_arg_value(&v, 4)};
  hal_ndrange_t nd = {.global = {16}, .local = {4}};
  CHECK_FAILS(rvhal_kernel_exec(c->d, pb, fill, &nd, args, 2, 1), RVHAL_OUT_OF_RANGE, "not inside any allocation");
  hal_addr_t out = dt_buffer(c->d, 64 * 4, NULL);

  /* Install A, then B again from its staged copy: B must be intact. */
  args[0] = rvhal_arg_global(out);
  args[1] = rvhal_arg_global(out);
  args[2] = rvhal_arg_value(&v, 4);
  CHECK_OK(rvhal_kernel_exec(c->d, pa, affine, &nd, args, 3, 1));
  args[1] = rvhal_arg_value(&v, 4);
  nd.global[0] = 64;
  int rc = rvhal_kernel_exec(c->d, pb, fill, &nd, args, 2, 1);
  CHECK_MSG(rc == RVHAL_OK, "prog_b_fill reinstalled after accesses to the freed block: %s: %s",
            rvhal_status_name(rc), rvhal_last_error());
  uint32_t got[64];
  CHECK_OK(rvhal_mem_read(c->d, got, out, sizeof got));
  unsigned bad = 0;
  for (uint32_t i = 0; i < 64; i++) bad += got[i] != v + i;
  CHECK_MSG(bad == 0 || rc != RVHAL_OK, "prog_b_fill: %u wrong results", bad);
  CHECK_OK(rvhal_mem_free(c->d, out));
  CHECK_OK(rvhal_program_free(c->d, pb));
  CHECK_OK(rvhal_program_free(c->d, pa));
}

/* "ram": the device under test with 512 MiB of RAM through $RVHAL_RAM_MIB. */
static int ram_option(void) {
  const uint32_t index = fixture_device_index();
  rvhal_device_t *d = NULL;
  setenv("RVHAL_RAM_MIB", "5000", 1);
  int rc = rvhal_device_create(index, NULL, &d);
  CHECK_MSG(rc == RVHAL_INVALID_ARGUMENT && strstr(rvhal_last_error(), "RVHAL_RAM_MIB=5000"),
            "RVHAL_RAM_MIB=5000: %s: %s", rvhal_status_name(rc), rvhal_last_error());
  rvhal_device_delete(d);
  setenv("RVHAL_RAM_MIB", "512", 1);
  rvhal_device_options_t o = {.num_harts = fixture_device_info()->num_harts};
  rvhal_device_info_t want;
  CHECK_OK(rvhal_platform_device_info_for(index, &o, &want));
  ctx_t c = {.d = fixture_device_opts(o.num_harts, &o)};
  c.info = rvhal_device_get_info(c.d);
  CHECK_EQ_U64(c.info->ram_size, 512ull << 20);
  CHECK_EQ_U64(want.ram_size, c.info->ram_size);
  CHECK_EQ_U64(want.global_mem_size, c.info->global_mem_size);
  CHECK_EQ_U64(want.local_mem_size, c.info->local_mem_size);
  CHECK_EQ_U64(want.num_harts, c.info->num_harts);
  CHECK_MSG(c.info->global_mem_size > (384ull << 20), "global memory %llu bytes of 512 MiB",
            (unsigned long long)c.info->global_mem_size);
  c.prog = fixture_program(c.d, "dt_mem");
  c.sum = fixture_kernel(c.d, c.prog, "mem_checksum");
  c.sums_cap = 4096 * 4;
  c.sums = dt_buffer(c.d, c.sums_cap, NULL);
  const uint64_t n = (136ull << 20) + 4096, tail = 64 << 10;
  uint8_t *data = malloc(n), *back = malloc(n);
  for (uint64_t i = 0; i < n; i++) data[i] = (uint8_t)(i * 131 + (i >> 20));
  hal_addr_t big;
  CHECK_OK(rvhal_mem_alloc(c.d, n, 0, &big));
  CHECK_OK(rvhal_mem_write(c.d, big, data, n));
  CHECK_OK(rvhal_mem_read(c.d, back, big, n));
  CHECK_MSG(memcmp(back, data, n) == 0, "a %llu-byte buffer read back differs", (unsigned long long)n);
  device_sees(&c, big + n - tail, data + n - tail, tail, "the last 64 KiB of a 136 MiB buffer");
  printf("%s with RVHAL_RAM_MIB=512: %llu MiB of global memory, a %llu MiB buffer round trip\n", c.info->name,
         (unsigned long long)(c.info->global_mem_size >> 20), (unsigned long long)(n >> 20));
  free(data);
  free(back);
  CHECK_OK(rvhal_mem_free(c.d, big));
  rvhal_device_delete(c.d);
  unsetenv("RVHAL_RAM_MIB");
  return check_result("memory_ram");
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "ram")) return ram_option();
  ctx_t c = {.d = fixture_device(2)};
  c.info = rvhal_device_get_info(c.d);
  if (argc > 1 && !strcmp(argv[1], "staged")) {
    internal_memory(&c); /* on a device with all global memory free */
    rvhal_device_delete(c.d);
    return check_result("memory_staged_program");
  }
  c.prog = fixture_program(c.d, "dt_mem");
  c.sum = fixture_kernel(c.d, c.prog, "mem_checksum");
  c.sums_cap = 4096 * 4;
  c.sums = dt_buffer(c.d, c.sums_cap, NULL);
  c.big = fixture_link_bytes(c.d, 65536, 8192, 128, 4.0);

  write_read(&c);
  copies(&c);
  fills(&c);
  mapping(&c);
  alignment(&c);
  churn(&c);
  bad_inputs(&c);
  /* Exhaustion needs every allocation gone but the checksum output. */
  exhaustion(&c);

  /* Everything freed: all of global memory is one free block again (the
   * program's staged copy and the checksum buffer aside). */
  CHECK_OK(rvhal_mem_free(c.d, c.sums));
  CHECK_OK(rvhal_program_free(c.d, c.prog));
  hal_addr_t all;
  CHECK_OK(rvhal_mem_alloc(c.d, c.info->global_mem_size, 0, &all));
  CHECK_OK(rvhal_mem_free(c.d, all));
  rvhal_device_delete(c.d);
  return check_result("memory");
}

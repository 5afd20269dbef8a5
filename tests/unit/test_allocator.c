/* Unit test of the device global-memory allocator (host/src/memory/allocator.c). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "memory/allocator.h"
#include "check.h"
#include "rvhal/status.h"
#include "test_rng.h"

#define BASE 0x80a00000ull
#define KiB 1024ull
#define MiB (1024ull * 1024ull)

static uint64_t round16(uint64_t v) { return (v + 15) & ~15ull; }

static rvhal_allocator_stats_t stats_of(const rvhal_allocator_t *a) {
  rvhal_allocator_stats_t st;
  memset(&st, 0xa5, sizeof st); /* a stats call that forgets a field shows up */
  rvhal_allocator_stats(a, &st);
  return st;
}

/* Stats must equal the expected values exactly. */
#define CHECK_STATS(a, used_, free_, largest_, allocs_)   \
  do {                                                    \
    rvhal_allocator_stats_t st_ = stats_of(a);            \
    CHECK_EQ_U64(st_.used, (used_));                      \
    CHECK_EQ_U64(st_.free, (free_));                      \
    CHECK_EQ_U64(st_.largest_free, (largest_));           \
    CHECK_EQ_U64(st_.allocations, (allocs_));             \
  } while (0)

static void test_create(void) {
  rvhal_allocator_t *a = (rvhal_allocator_t *)1;
  CHECK_FAILS(rvhal_allocator_create(BASE, 0, &a), RVHAL_INVALID_ARGUMENT, "size 0");
  CHECK(a == NULL);
  CHECK_FAILS(rvhal_allocator_create(BASE + 8, MiB, &a), RVHAL_INVALID_ARGUMENT, "0x80a00008");
  CHECK_FAILS(rvhal_allocator_create(BASE, MiB + 4, &a), RVHAL_INVALID_ARGUMENT, "1048580");
  CHECK_FAILS(rvhal_allocator_create(UINT64_MAX - 15, 32, &a), RVHAL_INVALID_ARGUMENT, "wraps");
  CHECK_FAILS(rvhal_allocator_create(BASE, MiB, NULL), RVHAL_INVALID_ARGUMENT, "out_allocator");

  CHECK_OK(rvhal_allocator_create(BASE, 200 * MiB, &a));
  CHECK(a != NULL);
  rvhal_allocator_stats_t st = stats_of(a);
  CHECK_EQ_U64(st.total, 200 * MiB);
  CHECK_STATS(a, 0, 200 * MiB, 200 * MiB, 0);
  rvhal_allocator_destroy(a);
  rvhal_allocator_destroy(NULL);
}

static void test_basic(void) {
  const uint64_t total = 200 * MiB;
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, total, &a));
  hal_addr_t p = 0, q = 0, r = 0;

  CHECK_OK(rvhal_allocator_alloc(a, 100, 0, &p));
  CHECK_EQ_U64(p, BASE);
  CHECK_STATS(a, 100, total - 112, total - 112, 1);

  /* p ends at BASE+112 (100 rounded to 16); the next 64-aligned start is BASE+128. */
  CHECK_OK(rvhal_allocator_alloc(a, 100, 0, &q));
  CHECK_EQ_U64(q, BASE + 128);
  CHECK_STATS(a, 200, total - 224, total - 240, 2);

  /* Freeing p merges it with the 16-byte padding hole after it. */
  CHECK_OK(rvhal_allocator_free(a, p));
  CHECK_STATS(a, 100, total - 112, total - 240, 1);
  CHECK_OK(rvhal_allocator_alloc(a, 128, 64, &r));
  CHECK_EQ_U64(r, BASE); /* reuse of the merged hole, first fit */
  CHECK_STATS(a, 228, total - 240, total - 240, 2);

  CHECK_OK(rvhal_allocator_free(a, q));
  CHECK_STATS(a, 128, total - 128, total - 128, 1);
  CHECK_OK(rvhal_allocator_free(a, r));
  CHECK_STATS(a, 0, total, total, 0);
  rvhal_allocator_destroy(a);
}

static void test_alignment(void) {
  const uint64_t total = 8 * MiB;
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, total, &a));
  hal_addr_t addrs[21];
  uint64_t used = 0, rounded = 0;
  for (int shift = 0; shift <= 20; shift++) {
    uint64_t align = 1ull << shift, size = 1 + 7 * (uint64_t)shift;
    addrs[shift] = 0;
    CHECK_OK(rvhal_allocator_alloc(a, size, align, &addrs[shift]));
    CHECK_MSG(addrs[shift] % align == 0 && addrs[shift] % 16 == 0, "alignment %" PRIu64 ": got 0x%" PRIx64, align,
              addrs[shift]);
    CHECK(addrs[shift] >= BASE && addrs[shift] + size <= BASE + total);
    hal_addr_t got_base = 0;
    hal_size_t got_size = 0;
    CHECK_OK(rvhal_allocator_lookup(a, addrs[shift] + size - 1, &got_base, &got_size));
    CHECK_EQ_U64(got_base, addrs[shift]);
    CHECK_EQ_U64(got_size, size);
    used += size;
    rounded += round16(size);
  }
  /* The padding before the 1 MiB-aligned block is still free, not lost. */
  rvhal_allocator_stats_t st = stats_of(a);
  CHECK_EQ_U64(st.used, used);
  CHECK_EQ_U64(st.free, total - rounded);
  CHECK_EQ_U64(st.allocations, 21);
  for (int shift = 0; shift <= 20; shift++) CHECK_OK(rvhal_allocator_free(a, addrs[shift]));
  CHECK_STATS(a, 0, total, total, 0);

  /* Alignment 0 means 64: with BASE+16 free, a default request lands on BASE+64. */
  hal_addr_t p = 0, q = 0, r = 0;
  CHECK_OK(rvhal_allocator_alloc(a, 16, 16, &p));
  CHECK_EQ_U64(p, BASE);
  CHECK_OK(rvhal_allocator_alloc(a, 16, 0, &q));
  CHECK_EQ_U64(q, BASE + 64);
  /* ...and the 48-byte padding hole serves a later small request. */
  CHECK_OK(rvhal_allocator_alloc(a, 48, 16, &r));
  CHECK_EQ_U64(r, BASE + 16);
  CHECK_OK(rvhal_allocator_free(a, p));
  CHECK_OK(rvhal_allocator_free(a, q));
  CHECK_OK(rvhal_allocator_free(a, r));

  hal_addr_t untouched = 0x1234;
  CHECK_FAILS(rvhal_allocator_alloc(a, 64, 48, &untouched), RVHAL_INVALID_ARGUMENT, "alignment 48");
  CHECK_FAILS(rvhal_allocator_alloc(a, 64, 3, &untouched), RVHAL_INVALID_ARGUMENT, "alignment 3 ");
  CHECK_FAILS(rvhal_allocator_alloc(a, 64, (1ull << 63) | 1, &untouched), RVHAL_INVALID_ARGUMENT,
              "9223372036854775809");
  CHECK_FAILS(rvhal_allocator_alloc(a, 0, 64, &untouched), RVHAL_INVALID_ARGUMENT, "size is 0");
  CHECK_FAILS(rvhal_allocator_alloc(a, 64, 64, NULL), RVHAL_INVALID_ARGUMENT, "out_addr");
  CHECK_EQ_U64(untouched, 0x1234);
  CHECK_STATS(a, 0, total, total, 0);
  rvhal_allocator_destroy(a);
}

static void test_exhaustion(void) {
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, MiB, &a));
  hal_addr_t p;
  CHECK_FAILS(rvhal_allocator_alloc(a, MiB + 16, 0, &p), RVHAL_NO_MEMORY, "mem_alloc: cannot allocate");
  CHECK_MSG(strcmp(rvhal_last_error(),
                   "mem_alloc: cannot allocate 1048592 bytes (alignment 64): 1048576 bytes free, "
                   "largest free block 1048576 bytes") == 0,
            "message: %s", rvhal_last_error());

  hal_addr_t addrs[300];
  int n = 0, rc;
  while (n < 300 && (rc = rvhal_allocator_alloc(a, 4 * KiB, 16, &addrs[n])) == RVHAL_OK) n++;
  CHECK_EQ_U64(n, 256);
  CHECK_FAILS(rvhal_allocator_alloc(a, 4 * KiB, 16, &p), RVHAL_NO_MEMORY,
              "cannot allocate 4096 bytes (alignment 16): 0 bytes free, largest free block 0 bytes");
  CHECK_STATS(a, MiB, 0, 0, 256);
  /* Free in an interleaved order so merges happen on both sides. */
  for (int i = 0; i < n; i += 2) CHECK_OK(rvhal_allocator_free(a, addrs[i]));
  CHECK_STATS(a, MiB / 2, MiB / 2, 4 * KiB, 128);
  for (int i = 1; i < n; i += 2) CHECK_OK(rvhal_allocator_free(a, addrs[i]));
  CHECK_STATS(a, 0, MiB, MiB, 0);
  CHECK_OK(rvhal_allocator_alloc(a, MiB, 16, &p));
  CHECK_EQ_U64(p, BASE);
  CHECK_STATS(a, MiB, 0, 0, 1);
  CHECK_OK(rvhal_allocator_free(a, p));
  rvhal_allocator_destroy(a);
}

static void test_fragmentation(void) {
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, MiB, &a));
  hal_addr_t b[16], p;
  for (int i = 0; i < 16; i++) {
    CHECK_OK(rvhal_allocator_alloc(a, 64 * KiB, 16, &b[i]));
    CHECK_EQ_U64(b[i], BASE + (uint64_t)i * 64 * KiB);
  }
  for (int i = 0; i < 16; i += 2) CHECK_OK(rvhal_allocator_free(a, b[i]));
  CHECK_STATS(a, 512 * KiB, 512 * KiB, 64 * KiB, 8);
  CHECK_FAILS(rvhal_allocator_alloc(a, 128 * KiB, 16, &p), RVHAL_NO_MEMORY,
              "524288 bytes free, largest free block 65536 bytes");
  CHECK_FAILS(rvhal_allocator_alloc(a, 64 * KiB + 1, 16, &p), RVHAL_NO_MEMORY, "65537");

  /* Freeing b[1] merges three blocks: holes b[0] and b[2] around it. */
  CHECK_OK(rvhal_allocator_free(a, b[1]));
  CHECK_STATS(a, 448 * KiB, 576 * KiB, 192 * KiB, 7);
  CHECK_OK(rvhal_allocator_alloc(a, 192 * KiB, 16, &p));
  CHECK_EQ_U64(p, b[0]);
  CHECK_OK(rvhal_allocator_free(a, p));

  for (int i = 3; i < 16; i += 2) CHECK_OK(rvhal_allocator_free(a, b[i]));
  CHECK_STATS(a, 0, MiB, MiB, 0);
  CHECK_OK(rvhal_allocator_alloc(a, 128 * KiB, 16, &p));
  CHECK_EQ_U64(p, BASE);
  CHECK_OK(rvhal_allocator_free(a, p));
  CHECK_OK(rvhal_allocator_alloc(a, MiB, 0, &p));
  CHECK_OK(rvhal_allocator_free(a, p));
  rvhal_allocator_destroy(a);
}

static void test_bad_free_and_lookup(void) {
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, MiB, &a));
  hal_addr_t p, q, got_base = 0;
  hal_size_t got_size = 0;
  CHECK_OK(rvhal_allocator_alloc(a, 256, 0, &p));
  CHECK_OK(rvhal_allocator_alloc(a, 20, 0, &q)); /* 20 rounds to 32: 12 slack bytes */
  CHECK_EQ_U64(p, BASE);
  CHECK_EQ_U64(q, BASE + 256);

  CHECK_FAILS(rvhal_allocator_free(a, 0x1234), RVHAL_NOT_FOUND, "0x1234");
  CHECK_FAILS(rvhal_allocator_free(a, BASE + 512 * KiB), RVHAL_NOT_FOUND, "0x80a80000 is not the start");
  CHECK_FAILS(rvhal_allocator_free(a, BASE + 16), RVHAL_NOT_FOUND,
              "0x80a00010 is inside the allocation at 0x80a00000 (size 256), not its start");
  CHECK_FAILS(rvhal_allocator_free(a, q + 24), RVHAL_NOT_FOUND, "0x80a00118 is not the start");
  CHECK_FAILS(rvhal_allocator_free(a, UINT64_MAX), RVHAL_NOT_FOUND, "0xffffffffffffffff");
  CHECK_STATS(a, 276, MiB - 288, MiB - 288, 2); /* failed frees changed nothing */

  CHECK_OK(rvhal_allocator_lookup(a, p, &got_base, &got_size));
  CHECK_EQ_U64(got_base, p);
  CHECK_EQ_U64(got_size, 256);
  CHECK_OK(rvhal_allocator_lookup(a, p + 255, &got_base, &got_size));
  CHECK_EQ_U64(got_base, p);
  CHECK_OK(rvhal_allocator_lookup(a, q + 19, &got_base, &got_size));
  CHECK_EQ_U64(got_base, q);
  CHECK_EQ_U64(got_size, 20);
  CHECK_FAILS(rvhal_allocator_lookup(a, q + 20, &got_base, &got_size), RVHAL_NOT_FOUND, "0x80a00114");
  CHECK_FAILS(rvhal_allocator_lookup(a, p - 1, &got_base, &got_size), RVHAL_NOT_FOUND, "0x809fffff");
  CHECK_FAILS(rvhal_allocator_lookup(a, BASE + 512 * KiB, &got_base, &got_size), RVHAL_NOT_FOUND, "0x80a80000");
  CHECK_FAILS(rvhal_allocator_lookup(a, 0, &got_base, &got_size), RVHAL_NOT_FOUND, "0x0 is not inside");

  CHECK_OK(rvhal_allocator_free(a, p));
  CHECK_FAILS(rvhal_allocator_free(a, p), RVHAL_NOT_FOUND, "0x80a00000");
  CHECK_FAILS(rvhal_allocator_lookup(a, p + 8, &got_base, &got_size), RVHAL_NOT_FOUND, "0x80a00008");
  CHECK_OK(rvhal_allocator_free(a, q));
  CHECK_FAILS(rvhal_allocator_free(a, q), RVHAL_NOT_FOUND, "0x80a00100");
  CHECK_STATS(a, 0, MiB, MiB, 0);
  rvhal_allocator_destroy(a);
}

static void test_overflow(void) {
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, MiB, &a));
  hal_addr_t p;
  CHECK_FAILS(rvhal_allocator_alloc(a, UINT64_MAX, 0, &p), RVHAL_NO_MEMORY, "18446744073709551615 bytes");
  CHECK_FAILS(rvhal_allocator_alloc(a, UINT64_MAX - 14, 16, &p), RVHAL_NO_MEMORY, "18446744073709551601 bytes");
  CHECK_FAILS(rvhal_allocator_alloc(a, 16, 1ull << 63, &p), RVHAL_NO_MEMORY, "alignment 9223372036854775808");
  CHECK_FAILS(rvhal_allocator_alloc(a, UINT64_MAX, 1ull << 63, &p), RVHAL_NO_MEMORY,
              "cannot allocate 18446744073709551615 bytes (alignment 9223372036854775808)");
  CHECK_FAILS(rvhal_allocator_alloc(a, 16, 1ull << 40, &p), RVHAL_NO_MEMORY, "alignment 1099511627776");
  CHECK_STATS(a, 0, MiB, MiB, 0);
  rvhal_allocator_destroy(a);

  /* At the top of the address space, where align_up(start) would wrap. */
  const hal_addr_t top = 0xffffffffffff0000ull;
  CHECK_OK(rvhal_allocator_create(top, 0xfff0, &a));
  CHECK_FAILS(rvhal_allocator_alloc(a, 16, 1ull << 63, &p), RVHAL_NO_MEMORY,
              "alignment 9223372036854775808): 65520 bytes free");
  CHECK_FAILS(rvhal_allocator_alloc(a, 16, 1ull << 17, &p), RVHAL_NO_MEMORY, "alignment 131072");
  CHECK_FAILS(rvhal_allocator_alloc(a, 0xfff1, 16, &p), RVHAL_NO_MEMORY,
              "cannot allocate 65521 bytes (alignment 16): 65520 bytes free, largest free block 65520 bytes");
  CHECK_OK(rvhal_allocator_alloc(a, 0xfff0, 1ull << 16, &p));
  CHECK_EQ_U64(p, top);
  CHECK_FAILS(rvhal_allocator_alloc(a, 1, 1, &p), RVHAL_NO_MEMORY, "0 bytes free");
  CHECK_OK(rvhal_allocator_free(a, top));
  CHECK_OK(rvhal_allocator_alloc(a, 16, 0, &p));
  CHECK_OK(rvhal_allocator_alloc(a, 16, 16, &p));
  CHECK_EQ_U64(p, top + 16);
  CHECK_OK(rvhal_allocator_lookup(a, top + 31, &p, NULL));
  CHECK_EQ_U64(p, top + 16);
  rvhal_allocator_destroy(a);

  /* A huge alignment is honoured when the range holds an aligned address. */
  CHECK_OK(rvhal_allocator_create(0, MiB, &a));
  CHECK_OK(rvhal_allocator_alloc(a, 16, 1ull << 63, &p));
  CHECK_EQ_U64(p, 0);
  rvhal_allocator_destroy(a);
}

/* Colouring: large allocations start at page numbers that differ modulo 64
 * (QEMU's smallest TLB), small ones and a colouring-off allocator are
 * placed back to back, and a full heap still fits. */
static void test_colouring(void) {
  const uint64_t page = 4096, total = 64 * MiB;
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, total, &a));
  hal_addr_t p[64];
  for (int i = 0; i < 3; i++) CHECK_OK(rvhal_allocator_alloc(a, MiB, 0, &p[i]));
  CHECK_EQ_U64(p[1], p[0] + MiB); /* off by default: back to back */
  CHECK_EQ_U64(p[2], p[1] + MiB);
  for (int i = 0; i < 3; i++) CHECK_OK(rvhal_allocator_free(a, p[i]));

  rvhal_allocator_set_colouring(a, 1);
  /* 64 successive large allocations: all 64 colours, page-aligned. */
  for (int i = 0; i < 64; i++) {
    CHECK_OK(rvhal_allocator_alloc(a, 256 * KiB + 16 * (uint64_t)i, 64, &p[i]));
    CHECK_MSG(p[i] % page == 0, "allocation %d at 0x%" PRIx64 " is not page-aligned", i, p[i]);
    for (int j = 0; j < i; j++)
      CHECK_MSG((p[i] / page) % 64 != (p[j] / page) % 64, "allocations %d and %d share TLB colour %" PRIu64, j, i,
                (p[i] / page) % 64);
  }
  /* Padding is not lost: a small allocation takes the first hole. */
  hal_addr_t small = 0;
  CHECK_OK(rvhal_allocator_alloc(a, 100, 0, &small));
  CHECK(small < p[1]);
  CHECK_OK(rvhal_allocator_free(a, small));
  for (int i = 0; i < 64; i++) CHECK_OK(rvhal_allocator_free(a, p[i]));
  CHECK_STATS(a, 0, total, total, 0);

  /* Below 256 KiB, or aligned beyond a page: first fit, back to back. */
  CHECK_OK(rvhal_allocator_alloc(a, 256 * KiB - 16, 16, &p[0]));
  CHECK_OK(rvhal_allocator_alloc(a, 256 * KiB - 16, 16, &p[1]));
  CHECK_EQ_U64(p[0], BASE);
  CHECK_EQ_U64(p[1], BASE + 256 * KiB - 16);
  CHECK_OK(rvhal_allocator_alloc(a, MiB, 2 * page, &p[2]));
  CHECK_EQ_U64(p[2], BASE + 512 * KiB);
  for (int i = 0; i < 3; i++) CHECK_OK(rvhal_allocator_free(a, p[i]));

  /* No room at the colour: plain first fit, never a failure. */
  CHECK_OK(rvhal_allocator_alloc(a, MiB, 0, &p[0])); /* takes a colour */
  CHECK_OK(rvhal_allocator_free(a, p[0]));
  CHECK_OK(rvhal_allocator_alloc(a, total, 0, &p[0]));
  CHECK_EQ_U64(p[0], BASE);
  CHECK_OK(rvhal_allocator_free(a, p[0]));
  rvhal_allocator_destroy(a);
}

/* ---- randomized stress against a shadow model ---- */

typedef struct {
  hal_addr_t addr;
  hal_size_t size;
} live_t;

/* colouring: on, with allocations large enough to take colours. */
static void test_stress(int colouring) {
  enum { CAP = 400, OPS = 5000 };
  const uint64_t total = 4 * MiB;
  rvhal_allocator_t *a;
  CHECK_OK(rvhal_allocator_create(BASE, total, &a));
  rvhal_allocator_set_colouring(a, colouring);
  static live_t live[CAP];
  int n = 0, allocs = 0, frees = 0, failures = 0;
  uint64_t used = 0, rounded = 0;
  for (int op = 0; op < OPS; op++) {
    if (n < CAP && (n == 0 || rng() % 5 < 3)) {
      /* One rng() per statement: operand evaluation order is unspecified. */
      uint64_t max_size = rng() % 8 == 0 ? (colouring ? 512 : 256) * KiB : 2 * KiB;
      uint64_t size = 1 + rng() % max_size;
      uint64_t align = rng() % 6 == 0 ? 0 : 1;
      if (align) align <<= rng() % 17;
      uint64_t eff = align == 0 ? 64 : align < 16 ? 16 : align;
      hal_addr_t p = 0;
      int rc = rvhal_allocator_alloc(a, size, align, &p);
      if (rc == RVHAL_NO_MEMORY) {
        /* First fit must succeed whenever some free block is big enough for
         * the worst-case padding; so a failure bounds the largest block. */
        rvhal_allocator_stats_t st = stats_of(a);
        CHECK_MSG(st.largest_free < round16(size) + eff - 16, "size %" PRIu64 " align %" PRIu64
                  " failed with largest free %" PRIu64, size, eff, st.largest_free);
        failures++;
        continue;
      }
      CHECK_OK(rc);
      if (rc != RVHAL_OK) continue;
      CHECK_MSG(p % eff == 0, "0x%" PRIx64 " not aligned to %" PRIu64, p, eff);
      CHECK(p >= BASE && p - BASE <= total - round16(size));
      int hit = 0;
      while (hit < n && (p + round16(size) <= live[hit].addr || live[hit].addr + round16(live[hit].size) <= p)) hit++;
      CHECK_MSG(hit == n, "0x%" PRIx64 "+%" PRIu64 " overlaps 0x%" PRIx64 "+%" PRIu64, p, size, live[hit].addr,
                live[hit].size);
      live[n++] = (live_t){p, size};
      used += size;
      rounded += round16(size);
      allocs++;
    } else {
      int i = (int)(rng() % (uint64_t)n);
      hal_addr_t got_base = 0;
      hal_size_t got_size = 0;
      CHECK_OK(rvhal_allocator_lookup(a, live[i].addr + rng() % live[i].size, &got_base, &got_size));
      CHECK_EQ_U64(got_base, live[i].addr);
      CHECK_EQ_U64(got_size, live[i].size);
      CHECK_OK(rvhal_allocator_free(a, live[i].addr));
      CHECK(rvhal_allocator_free(a, live[i].addr) == RVHAL_NOT_FOUND);
      used -= live[i].size;
      rounded -= round16(live[i].size);
      live[i] = live[--n];
      frees++;
    }
    rvhal_allocator_stats_t st = stats_of(a);
    CHECK_EQ_U64(st.allocations, n);
    CHECK_EQ_U64(st.used, used);
    CHECK_EQ_U64(st.free, total - rounded);
    CHECK(st.largest_free <= st.free);
  }
  /* The mix must really have exercised every path. */
  CHECK(allocs > 1000 && frees > 1000 && failures > 10);

  while (n > 0) {
    int i = (int)(rng() % (uint64_t)n);
    CHECK_OK(rvhal_allocator_free(a, live[i].addr));
    live[i] = live[--n];
  }
  CHECK_STATS(a, 0, total, total, 0);
  hal_addr_t p = 0;
  CHECK_OK(rvhal_allocator_alloc(a, total, 16, &p));
  CHECK_EQ_U64(p, BASE);
  rvhal_allocator_destroy(a);
}

int main(void) {
  test_create();
  test_basic();
  test_alignment();
  test_exhaustion();
  test_fragmentation();
  test_bad_free_and_lookup();
  test_overflow();
  test_colouring();
  test_stress(0);
  test_stress(1);
  return check_result("allocator");
}

/* Unit test of the packed-argument ABI (host/src/program/arg_pack.c): arguments are
 * packed in order, each at an offset aligned to the smallest power of two >=
 * its packed size; global buffers pack as their device address and local
 * buffers as their size, both one little-endian device word (4 bytes on
 * RV32, 8 on RV64); POD values as their bytes. Checked for both word sizes,
 * against hand-computed layouts and against an independent reference
 * packer over thousands of random argument lists. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rvhal/arg_pack.h"
#include "rvhal/status.h"
#include "rvhal/rvhal_protocol.h"
#include "test_rng.h"

#define SENTINEL 0xcc

static const uint32_t word_sizes[] = {4, 8};

/* Bytes POD values point into: byte i is (i * 7 + 3) & 0xff, never all zero. */
static uint8_t pool[2 * RVHAL_ARGS_MAX];

static void fill_pool(void) {
  for (size_t i = 0; i < sizeof pool; i++) pool[i] = (uint8_t)(i * 7 + 3);
}

/* The expected alignment, spelled out rather than computed like the
 * library does: the smallest power of two >= size. */
static uint32_t expected_align(uint32_t size) {
  if (size <= 1) return 1;
  if (size <= 2) return 2;
  if (size <= 4) return 4;
  if (size <= 8) return 8;
  if (size <= 16) return 16;
  if (size <= 32) return 32;
  if (size <= 64) return 64;
  if (size <= 128) return 128;
  if (size <= 256) return 256;
  if (size <= 512) return 512;
  if (size <= 1024) return 1024;
  if (size <= 2048) return 2048;
  return 4096;
}

/* ---- an independent reference --------------------------------------------
 * Returns -1 when the list is valid, else the index of the first bad
 * argument (RVHAL_ARGS_MAX overflow included: the argument that crosses it). */
typedef struct {
  uint32_t offset, size, align;
} slot_t;

static int ref_layout(const hal_arg_t *args, uint32_t n, uint32_t ws, slot_t *slots, uint32_t *total) {
  uint64_t end = 0;
  for (uint32_t i = 0; i < n; i++) {
    const hal_arg_t *a = &args[i];
    uint64_t size;
    if (a->kind == hal_arg_address) {
      if (a->space != hal_space_local && a->space != hal_space_global) return (int)i;
      uint64_t word = a->space == hal_space_local ? a->size : a->address;
      if (ws == 4 && (word >> 32) != 0) return (int)i;
      size = ws;
    } else if (a->kind == hal_arg_value) {
      if (a->size == 0 || a->size > RVHAL_ARGS_MAX || a->pod_data == NULL) return (int)i;
      size = a->size;
    } else {
      return (int)i;
    }
    uint64_t align = size <= 1 ? 1 : 1ull << (64 - __builtin_clzll(size - 1));
    uint64_t offset = (end + align - 1) / align * align;
    if (offset + size > RVHAL_ARGS_MAX) return (int)i;
    slots[i] = (slot_t){(uint32_t)offset, (uint32_t)size, (uint32_t)align};
    end = offset + size;
  }
  *total = (uint32_t)end;
  return -1;
}

/* Packs a valid list into out (total bytes), byte by byte. */
static void ref_pack(const hal_arg_t *args, uint32_t n, uint32_t ws, const slot_t *slots, uint8_t *out,
                     uint32_t total) {
  memset(out, 0, total);
  for (uint32_t i = 0; i < n; i++) {
    const hal_arg_t *a = &args[i];
    if (a->kind == hal_arg_address) {
      uint64_t word = a->space == hal_space_local ? a->size : a->address;
      for (uint32_t b = 0; b < ws; b++) out[slots[i].offset + b] = (uint8_t)(word >> (8 * b));
    } else {
      const uint8_t *src = a->pod_data;
      for (uint32_t b = 0; b < slots[i].size; b++) out[slots[i].offset + b] = src[b];
    }
  }
}

/* ---- helpers --------------------------------------------------------------- */

/* Packs into a buffer of total + slack bytes (prefilled with SENTINEL, with
 * 16 more sentinel bytes after it) and checks: the packed bytes equal
 * `want`, the slack is zeroed, nothing past buf_size is written. */
static void check_pack(int line, const hal_arg_t *args, uint32_t n, uint32_t ws, const uint8_t *want, uint32_t total,
                       uint32_t slack) {
  static uint8_t buf[RVHAL_ARGS_MAX + 64 + 16];
  uint32_t buf_size = total + slack, got_total = 0xdeadbeef;
  memset(buf, SENTINEL, sizeof buf);
  int rc = rvhal_arg_pack(args, n, ws, buf, buf_size, &got_total);
  CHECK_MSG(rc == RVHAL_OK, "line %d: rvhal_arg_pack failed: %s", line, rvhal_last_error());
  CHECK_MSG(got_total == total, "line %d: total %u, expected %u", line, got_total, total);
  uint32_t bad = UINT32_MAX;
  for (uint32_t i = 0; i < total && bad == UINT32_MAX; i++)
    if (buf[i] != want[i]) bad = i;
  CHECK_MSG(bad == UINT32_MAX, "line %d (word size %u): packed byte %u is 0x%02x, expected 0x%02x", line, ws, bad,
            bad == UINT32_MAX ? 0 : buf[bad], bad == UINT32_MAX ? 0 : want[bad]);
  int slack_zero = 1, past_untouched = 1;
  for (uint32_t i = total; i < buf_size; i++) slack_zero &= buf[i] == 0;
  for (uint32_t i = buf_size; i < buf_size + 16; i++) past_untouched &= buf[i] == SENTINEL;
  CHECK_MSG(slack_zero, "line %d: unused bytes after the pack are not zeroed", line);
  CHECK_MSG(past_untouched, "line %d: rvhal_arg_pack wrote past buf_size", line);
}

/* Checks a layout against expected offsets (sizes and alignments follow
 * from the arguments) and the total. */
static void check_layout(int line, const hal_arg_t *args, uint32_t n, uint32_t ws, const uint32_t *offsets,
                         uint32_t total) {
  rvhal_arg_layout_t lay[80];
  uint32_t got_total = 0xdeadbeef;
  memset(lay, 0xa5, sizeof lay);
  int rc = rvhal_arg_layout(args, n, ws, lay, &got_total);
  CHECK_MSG(rc == RVHAL_OK, "line %d: rvhal_arg_layout failed: %s", line, rvhal_last_error());
  CHECK_MSG(got_total == total, "line %d (word size %u): total %u, expected %u", line, ws, got_total, total);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t size = args[i].kind == hal_arg_address ? ws : (uint32_t)args[i].size;
    CHECK_MSG(lay[i].offset == offsets[i] && lay[i].size == size && lay[i].align == expected_align(size),
              "line %d (word size %u): argument %u at %u size %u align %u, expected %u, %u, %u", line, ws, i,
              lay[i].offset, lay[i].size, lay[i].align, offsets[i], size, expected_align(size));
  }
  /* Neither output is required. */
  CHECK_OK(rvhal_arg_layout(args, n, ws, NULL, NULL));
  got_total = 0;
  CHECK_OK(rvhal_arg_layout(args, n, ws, NULL, &got_total));
  CHECK_EQ_U64(got_total, total);
}

static void put_word(uint8_t *out, uint64_t v, uint32_t ws) {
  for (uint32_t b = 0; b < ws; b++) out[b] = (uint8_t)(v >> (8 * b));
}

/* ---- tests ----------------------------------------------------------------- */

static const uint32_t pod_sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,  12,  13,  14,  15,  16,  17, 18,
                                     19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,  31,  32,  48,  64,  100, 128,
                                     200, 256};

static void test_pod_sizes(void) {
  static uint8_t want[RVHAL_ARGS_MAX];
  for (size_t w = 0; w < 2; w++) {
    uint32_t ws = word_sizes[w];
    for (size_t s = 0; s < sizeof pod_sizes / sizeof *pod_sizes; s++) {
      uint32_t size = pod_sizes[s], align = expected_align(size);
      const uint8_t *data = pool + 5 * s;

      /* alone: offset 0 */
      hal_arg_t alone[1] = {rvhal_arg_value(data, size)};
      uint32_t off0[1] = {0};
      check_layout(__LINE__, alone, 1, ws, off0, size);
      memcpy(want, data, size);
      check_pack(__LINE__, alone, 1, ws, want, size, 0);
      check_pack(__LINE__, alone, 1, ws, want, size, 13);

      /* after a 1-byte value: at its alignment, zero padding before it */
      uint8_t one = 0xa5;
      hal_arg_t after[2] = {rvhal_arg_value(&one, 1), rvhal_arg_value(data, size)};
      uint32_t off1[2] = {0, align};
      check_layout(__LINE__, after, 2, ws, off1, align + size);
      memset(want, 0, sizeof want);
      want[0] = 0xa5;
      memcpy(want + align, data, size);
      check_pack(__LINE__, after, 2, ws, want, align + size, 7);

      /* and a 1-byte value after it: straight after, no padding */
      hal_arg_t then_one[2] = {rvhal_arg_value(data, size), rvhal_arg_value(&one, 1)};
      uint32_t off2[2] = {0, size};
      check_layout(__LINE__, then_one, 2, ws, off2, size + 1);
    }
  }
}

static void test_mixed(void) {
  static uint8_t want[RVHAL_ARGS_MAX];
  const hal_addr_t ptr = 0x80a01230ull;
  int32_t i32 = -123456;
  double f64 = 3.25;
  uint8_t bytes24[24];
  for (int i = 0; i < 24; i++) bytes24[i] = (uint8_t)(0x40 + i);

  /* ptr, i32, f64, local:256, bytes:24 (docs/abi.md's first worked example) */
  hal_arg_t a[5] = {rvhal_arg_global(ptr), rvhal_arg_value(&i32, 4), rvhal_arg_value(&f64, 8), rvhal_arg_local(256),
                    rvhal_arg_value(bytes24, 24)};
  const uint32_t off64[5] = {0, 8, 16, 24, 32}, off32[5] = {0, 4, 8, 16, 32};
  check_layout(__LINE__, a, 5, 8, off64, 56);
  check_layout(__LINE__, a, 5, 4, off32, 56);
  for (size_t w = 0; w < 2; w++) {
    uint32_t ws = word_sizes[w];
    const uint32_t *off = ws == 8 ? off64 : off32;
    memset(want, 0, sizeof want);
    put_word(want + off[0], ptr, ws);
    memcpy(want + off[1], &i32, 4);
    memcpy(want + off[2], &f64, 8);
    put_word(want + off[3], 256, ws);
    memcpy(want + off[4], bytes24, 24);
    check_pack(__LINE__, a, 5, ws, want, 56, 8);
  }
  /* Spelled out, RV64: the address little-endian, then -123456 = 0xfffe1dc0. */
  static const uint8_t head64[16] = {0x30, 0x12, 0xa0, 0x80, 0, 0, 0, 0, 0xc0, 0x1d, 0xfe, 0xff, 0, 0, 0, 0};
  uint8_t buf[64];
  uint32_t total = 0;
  CHECK_OK(rvhal_arg_pack(a, 5, 8, buf, sizeof buf, &total));
  CHECK(memcmp(buf, head64, 16) == 0);
  CHECK(buf[24] == 0x00 && buf[25] == 0x01 && buf[26] == 0 && buf[31] == 0); /* local:256 as a word */

  /* i8, ptr, i16, f64, local */
  int8_t i8 = -2;
  int16_t i16 = 0x1234;
  hal_arg_t b[5] = {rvhal_arg_value(&i8, 1), rvhal_arg_global(0xfffffffcull), rvhal_arg_value(&i16, 2),
                    rvhal_arg_value(&f64, 8), rvhal_arg_local(64)};
  const uint32_t boff64[5] = {0, 8, 16, 24, 32}, boff32[5] = {0, 4, 8, 16, 24};
  check_layout(__LINE__, b, 5, 8, boff64, 40);
  check_layout(__LINE__, b, 5, 4, boff32, 28);
  for (size_t w = 0; w < 2; w++) {
    uint32_t ws = word_sizes[w];
    const uint32_t *off = ws == 8 ? boff64 : boff32;
    memset(want, 0, sizeof want);
    want[0] = 0xfe;
    put_word(want + off[1], 0xfffffffcull, ws);
    memcpy(want + off[2], &i16, 2);
    memcpy(want + off[3], &f64, 8);
    put_word(want + off[4], 64, ws);
    check_pack(__LINE__, b, 5, ws, want, ws == 8 ? 40 : 28, 0);
  }

  /* odd sizes: 3 bytes align to 4, 5 to 8, 9 to 16, 17 to 32 */
  hal_arg_t c[6] = {rvhal_arg_value(pool, 1),     rvhal_arg_value(pool + 1, 3),  rvhal_arg_value(pool + 4, 5),
                    rvhal_arg_value(pool + 9, 9), rvhal_arg_value(pool + 18, 1), rvhal_arg_value(pool + 19, 17)};
  const uint32_t coff[6] = {0, 4, 8, 16, 25, 32};
  check_layout(__LINE__, c, 6, 4, coff, 49);
  check_layout(__LINE__, c, 6, 8, coff, 49);

  /* a word after a POD that ends unaligned; two words in a row */
  hal_arg_t d[4] = {rvhal_arg_value(pool, 6), rvhal_arg_local(1), rvhal_arg_global(2), rvhal_arg_value(pool, 2)};
  const uint32_t doff64[4] = {0, 8, 16, 24}, doff32[4] = {0, 8, 12, 16};
  check_layout(__LINE__, d, 4, 8, doff64, 26);
  check_layout(__LINE__, d, 4, 4, doff32, 18);

  /* docs/abi.md's other worked examples: u8,u16,u8,u32,bytes:3,u64 (no
   * words: the same on RV32 and RV64) and u8,ptr,bytes:16,local:100,bytes:100,u16 */
  hal_arg_t ex2[6] = {rvhal_arg_value(pool, 1), rvhal_arg_value(pool, 2), rvhal_arg_value(pool, 1),
                      rvhal_arg_value(pool, 4), rvhal_arg_value(pool, 3), rvhal_arg_value(pool, 8)};
  const uint32_t ex2off[6] = {0, 2, 4, 8, 12, 16};
  check_layout(__LINE__, ex2, 6, 8, ex2off, 24);
  check_layout(__LINE__, ex2, 6, 4, ex2off, 24);
  hal_arg_t ex3[6] = {rvhal_arg_value(pool, 1), rvhal_arg_global(0x80000000u), rvhal_arg_value(pool, 16),
                      rvhal_arg_local(100),     rvhal_arg_value(pool, 100),    rvhal_arg_value(pool, 2)};
  const uint32_t ex3off32[6] = {0, 4, 16, 32, 128, 228}, ex3off64[6] = {0, 8, 16, 32, 128, 228};
  check_layout(__LINE__, ex3, 6, 4, ex3off32, 230);
  check_layout(__LINE__, ex3, 6, 8, ex3off64, 230);

  /* no arguments at all: args may be NULL */
  uint8_t untouched[4] = {1, 2, 3, 4};
  total = 99;
  CHECK_OK(rvhal_arg_layout(NULL, 0, 8, NULL, &total));
  CHECK_EQ_U64(total, 0);
  total = 99;
  CHECK_OK(rvhal_arg_pack(NULL, 0, 4, untouched, sizeof untouched, &total));
  CHECK_EQ_U64(total, 0);
  CHECK(untouched[0] == 0 && untouched[3] == 0); /* unused bytes are zeroed */
}

static void test_locals(void) {
  static uint8_t want[RVHAL_ARGS_MAX];
  static hal_arg_t args[80];
  static uint32_t off[80];
  uint8_t marks[40];
  /* 32 locals (RVHAL_MAX_LOCAL_ARGS) interleaved with 1-byte values */
  for (size_t w = 0; w < 2; w++) {
    uint32_t ws = word_sizes[w];
    memset(want, 0, sizeof want);
    for (uint32_t j = 0; j < RVHAL_MAX_LOCAL_ARGS; j++) {
      marks[j] = (uint8_t)(0x80 + j);
      args[2 * j] = rvhal_arg_value(&marks[j], 1);
      args[2 * j + 1] = rvhal_arg_local(64ull * (j + 1) + j);
      off[2 * j] = 2 * ws * j;
      off[2 * j + 1] = 2 * ws * j + ws;
      want[off[2 * j]] = marks[j];
      put_word(want + off[2 * j + 1], 64ull * (j + 1) + j, ws);
    }
    check_layout(__LINE__, args, 2 * RVHAL_MAX_LOCAL_ARGS, ws, off, 2 * ws * RVHAL_MAX_LOCAL_ARGS);
    check_pack(__LINE__, args, 2 * RVHAL_MAX_LOCAL_ARGS, ws, want, 2 * ws * RVHAL_MAX_LOCAL_ARGS, 5);

    /* 80 locals in a row: one word each, no padding */
    memset(want, 0, sizeof want);
    for (uint32_t j = 0; j < 80; j++) {
      args[j] = rvhal_arg_local(1ull << (j % 32));
      off[j] = ws * j;
      put_word(want + off[j], args[j].size, ws);
    }
    check_layout(__LINE__, args, 80, ws, off, 80 * ws);
    check_pack(__LINE__, args, 80, ws, want, 80 * ws, 0);
  }
}

static void test_words(void) {
  uint8_t buf[32];
  uint32_t total;
  /* RV64: full 64-bit address and local size, little-endian */
  hal_arg_t a[2] = {rvhal_arg_global(0x0123456789abcdefull), rvhal_arg_local(0x1122334455ull)};
  CHECK_OK(rvhal_arg_pack(a, 2, 8, buf, sizeof buf, &total));
  static const uint8_t want64[16] = {0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
                                     0x55, 0x44, 0x33, 0x22, 0x11, 0, 0, 0};
  CHECK_EQ_U64(total, 16);
  CHECK(memcmp(buf, want64, 16) == 0);
  /* RV32: the largest 32-bit values fit */
  hal_arg_t b[2] = {rvhal_arg_global(0xfedcba98ull), rvhal_arg_local(0xffffffffull)};
  CHECK_OK(rvhal_arg_pack(b, 2, 4, buf, sizeof buf, &total));
  static const uint8_t want32[8] = {0x98, 0xba, 0xdc, 0xfe, 0xff, 0xff, 0xff, 0xff};
  CHECK_EQ_U64(total, 8);
  CHECK(memcmp(buf, want32, 8) == 0);
  /* A POD's bytes are copied as they are, on both word sizes */
  uint64_t v = 0x0807060504030201ull;
  hal_arg_t c[1] = {rvhal_arg_value(&v, 8)};
  for (size_t w = 0; w < 2; w++) {
    CHECK_OK(rvhal_arg_pack(c, 1, word_sizes[w], buf, 8, &total));
    CHECK(memcmp(buf, &v, 8) == 0);
  }
}

static void test_limits(void) {
  static uint8_t buf[RVHAL_ARGS_MAX];
  uint32_t total = 0;
  uint8_t one = 1;
  /* exactly RVHAL_ARGS_MAX is fine */
  hal_arg_t a[1] = {rvhal_arg_value(pool, RVHAL_ARGS_MAX)};
  CHECK_OK(rvhal_arg_layout(a, 1, 8, NULL, &total));
  CHECK_EQ_U64(total, RVHAL_ARGS_MAX);
  CHECK_OK(rvhal_arg_pack(a, 1, 8, buf, sizeof buf, &total));
  CHECK(memcmp(buf, pool, RVHAL_ARGS_MAX) == 0);
  hal_arg_t b[2] = {rvhal_arg_value(&one, 1), rvhal_arg_value(pool, 2048)};
  CHECK_OK(rvhal_arg_layout(b, 2, 4, NULL, &total));
  CHECK_EQ_U64(total, RVHAL_ARGS_MAX);
  /* 4088 bytes then a word: 4096 on RV32 and RV64 alike */
  hal_arg_t c[2] = {rvhal_arg_value(pool, 4088), rvhal_arg_global(0x1000)};
  CHECK_OK(rvhal_arg_layout(c, 2, 8, NULL, &total));
  CHECK_EQ_U64(total, 4096);
  CHECK_OK(rvhal_arg_layout(c, 2, 4, NULL, &total));
  CHECK_EQ_U64(total, 4092);
}

static void test_errors(void) {
  uint8_t buf[64];
  uint32_t total = 0;
  uint8_t one = 1;
  hal_arg_t ok[2] = {rvhal_arg_value(&one, 1), rvhal_arg_global(0x80000000ull)};

  CHECK_FAILS(rvhal_arg_layout(ok, 2, 3, NULL, &total), RVHAL_INVALID_ARGUMENT, "word size 3");
  CHECK_FAILS(rvhal_arg_layout(ok, 2, 0, NULL, &total), RVHAL_INVALID_ARGUMENT, "word size 0");
  CHECK_FAILS(rvhal_arg_layout(ok, 2, 16, NULL, &total), RVHAL_INVALID_ARGUMENT, "word size 16");
  CHECK_FAILS(rvhal_arg_pack(ok, 2, 3, buf, sizeof buf, &total), RVHAL_INVALID_ARGUMENT, "word size 3");
  CHECK_FAILS(rvhal_arg_layout(NULL, 3, 8, NULL, &total), RVHAL_INVALID_ARGUMENT, "3 arguments but args is NULL");
  CHECK_FAILS(rvhal_arg_pack(NULL, 1, 8, buf, sizeof buf, &total), RVHAL_INVALID_ARGUMENT, "args is NULL");

  for (size_t w = 0; w < 2; w++) {
    uint32_t ws = word_sizes[w];
    hal_arg_t zero[3] = {rvhal_arg_value(&one, 1), rvhal_arg_global(0x1000), rvhal_arg_value(pool, 0)};
    CHECK_FAILS(rvhal_arg_layout(zero, 3, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "argument 2: POD value of size 0");
    CHECK_FAILS(rvhal_arg_pack(zero, 3, ws, buf, sizeof buf, &total), RVHAL_INVALID_ARGUMENT, "argument 2");
    hal_arg_t null_data[2] = {rvhal_arg_value(&one, 1), rvhal_arg_value(NULL, 4)};
    CHECK_FAILS(rvhal_arg_layout(null_data, 2, ws, NULL, &total), RVHAL_INVALID_ARGUMENT,
                "argument 1: POD value with NULL data");
    CHECK_FAILS(rvhal_arg_pack(null_data, 2, ws, buf, sizeof buf, &total), RVHAL_INVALID_ARGUMENT, "argument 1");
    hal_arg_t huge[1] = {rvhal_arg_value(pool, RVHAL_ARGS_MAX + 1)};
    CHECK_FAILS(rvhal_arg_layout(huge, 1, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "argument 0");
    /* a size that would be 0 if cut to 32 bits */
    hal_arg_t huge64[2] = {rvhal_arg_value(&one, 1), rvhal_arg_value(pool, 1ull << 32)};
    CHECK_FAILS(rvhal_arg_layout(huge64, 2, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "argument 1");

    hal_arg_t bad_kind[2] = {rvhal_arg_value(&one, 1), rvhal_arg_global(0x1000)};
    bad_kind[1].kind = (hal_arg_kind_t)7;
    CHECK_FAILS(rvhal_arg_layout(bad_kind, 2, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "argument 1: kind 7");
    CHECK_FAILS(rvhal_arg_pack(bad_kind, 2, ws, buf, sizeof buf, &total), RVHAL_INVALID_ARGUMENT, "argument 1");
    hal_arg_t bad_space[3] = {rvhal_arg_local(16), rvhal_arg_global(0x1000), rvhal_arg_global(0x2000)};
    bad_space[2].space = (hal_addr_space_t)5;
    CHECK_FAILS(rvhal_arg_layout(bad_space, 3, ws, NULL, &total), RVHAL_INVALID_ARGUMENT,
                "argument 2: address space 5");
    bad_space[0].space = (hal_addr_space_t)-1;
    CHECK_FAILS(rvhal_arg_layout(bad_space, 3, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "argument 0");

    /* crossing RVHAL_ARGS_MAX: the message names the argument that does it */
    hal_arg_t over[3] = {rvhal_arg_value(&one, 1), rvhal_arg_value(pool, 2048), rvhal_arg_value(&one, 1)};
    CHECK_FAILS(rvhal_arg_layout(over, 3, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "4096");
    CHECK_FAILS(rvhal_arg_layout(over, 3, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "argument 2");
    CHECK_FAILS(rvhal_arg_pack(over, 3, ws, buf, sizeof buf, &total), RVHAL_INVALID_ARGUMENT, "argument 2");
    hal_arg_t over_word[2] = {rvhal_arg_value(pool, 4095), rvhal_arg_local(8)};
    CHECK_FAILS(rvhal_arg_layout(over_word, 2, ws, NULL, &total), RVHAL_INVALID_ARGUMENT, "argument 1");
  }

  /* RV32: a word above 32 bits does not fit; RV64 takes it */
  hal_arg_t wide_addr[2] = {rvhal_arg_value(&one, 1), rvhal_arg_global(0x100000000ull)};
  CHECK_FAILS(rvhal_arg_layout(wide_addr, 2, 4, NULL, &total), RVHAL_INVALID_ARGUMENT,
              "argument 1: address 0x100000000 does not fit a 32-bit device word");
  CHECK_FAILS(rvhal_arg_pack(wide_addr, 2, 4, buf, sizeof buf, &total), RVHAL_INVALID_ARGUMENT, "argument 1");
  CHECK_OK(rvhal_arg_layout(wide_addr, 2, 8, NULL, &total));
  hal_arg_t wide_local[3] = {rvhal_arg_local(4), rvhal_arg_value(&one, 1), rvhal_arg_local(0x100000000ull)};
  CHECK_FAILS(rvhal_arg_layout(wide_local, 3, 4, NULL, &total), RVHAL_INVALID_ARGUMENT,
              "argument 2: local size 0x100000000");
  CHECK_OK(rvhal_arg_layout(wide_local, 3, 8, NULL, &total));

  /* buffer too small for the pack: exactly the total is enough */
  double f64 = 1.0;
  hal_arg_t five[5] = {rvhal_arg_global(0x1000), rvhal_arg_value(pool, 4), rvhal_arg_value(&f64, 8),
                       rvhal_arg_local(256), rvhal_arg_value(pool, 24)};
  CHECK_FAILS(rvhal_arg_pack(five, 5, 8, buf, 55, &total), RVHAL_INVALID_ARGUMENT, "need 56 bytes, the buffer holds 55");
  CHECK_FAILS(rvhal_arg_pack(five, 5, 8, buf, 0, &total), RVHAL_INVALID_ARGUMENT, "holds 0");
  CHECK_OK(rvhal_arg_pack(five, 5, 8, buf, 56, &total));
  CHECK_EQ_U64(total, 56);
  CHECK_OK(rvhal_arg_pack(five, 5, 8, buf, 56, NULL));
}

/* ---- random lists against the reference ---------------------------------- */

static hal_arg_t random_arg(uint32_t ws, int allow_bad, int big) {
  uint64_t r = rng() % 100;
  if (allow_bad && r < 5) { /* an invalid argument of some sort */
    switch (rng() % 5) {
    case 0: return rvhal_arg_value(pool, 0);
    case 1: return rvhal_arg_value(NULL, 1 + rng() % 8);
    case 2: {
      hal_arg_t a = rvhal_arg_global(0x1000);
      a.kind = (hal_arg_kind_t)(2 + rng() % 3);
      return a;
    }
    case 3: {
      hal_arg_t a = rvhal_arg_local(64);
      a.space = (hal_addr_space_t)(2 + rng() % 3);
      return a;
    }
    default:
      return rng() % 2 ? rvhal_arg_global(0x100000000ull + rng() % 1000) : rvhal_arg_local(1ull << (32 + rng() % 8));
    }
  }
  if (r < 25) return rvhal_arg_global(ws == 8 && rng() % 2 ? rng() : rng() & 0xffffffffull);
  if (r < 40) return rvhal_arg_local(rng() % 2 ? 1 + rng() % 65536 : 1 + rng() % 0xffffffffull);
  uint64_t size = big ? 1 + rng() % 1200 : r < 75 ? 1 + rng() % 8 : r < 95 ? 9 + rng() % 56 : 65 + rng() % 600;
  return rvhal_arg_value(pool + rng() % (sizeof pool - size), size);
}

static void test_random(void) {
  enum { LISTS = 4000 };
  static hal_arg_t args[16];
  static slot_t slots[16];
  static uint8_t want[RVHAL_ARGS_MAX];
  static uint8_t buf[RVHAL_ARGS_MAX + 32];
  int valid = 0, invalid = 0, overflow = 0;
  for (int l = 0; l < LISTS; l++) {
    uint32_t ws = rng() % 2 ? 8 : 4;
    uint32_t n = (uint32_t)(rng() % 17);
    int allow_bad = l % 4 == 0, big = l % 8 == 1; /* some lists with bad arguments, some near RVHAL_ARGS_MAX */
    for (uint32_t i = 0; i < n; i++) args[i] = random_arg(ws, allow_bad, big);
    uint32_t ref_total = 0;
    int bad = ref_layout(args, n, ws, slots, &ref_total);

    rvhal_arg_layout_t lay[16];
    uint32_t total = 0xdeadbeef;
    int rc = rvhal_arg_layout(args, n, ws, lay, &total);
    if (bad >= 0) {
      CHECK_MSG(rc == RVHAL_INVALID_ARGUMENT, "list %d: argument %d is invalid but layout returned %d", l, bad, rc);
      /* an overflow message need not name the argument: test_errors checks that */
      int over = strstr(rvhal_last_error(), "past the limit of") != NULL;
      char needle[32];
      snprintf(needle, sizeof needle, "argument %d", bad);
      CHECK_MSG(over || strstr(rvhal_last_error(), needle), "list %d: message \"%s\" does not name argument %d", l,
                rvhal_last_error(), bad);
      CHECK(rvhal_arg_pack(args, n, ws, buf, sizeof buf, &total) == RVHAL_INVALID_ARGUMENT);
      invalid++;
      overflow += over;
      continue;
    }
    CHECK_MSG(rc == RVHAL_OK, "list %d: layout failed: %s", l, rvhal_last_error());
    if (rc != RVHAL_OK) continue;
    CHECK_EQ_U64(total, ref_total);
    int same = 1;
    for (uint32_t i = 0; i < n; i++)
      same &= lay[i].offset == slots[i].offset && lay[i].size == slots[i].size && lay[i].align == slots[i].align;
    CHECK_MSG(same, "list %d: layout differs from the reference", l);
    ref_pack(args, n, ws, slots, want, ref_total);
    uint32_t slack = (uint32_t)(rng() % 24);
    check_pack(__LINE__, args, n, ws, want, ref_total, slack);
    valid++;
  }
  /* the mix really exercised every path */
  CHECK_MSG(valid > 2500 && invalid > 200 && overflow > 50, "valid %d, invalid %d, overflow %d", valid, invalid,
            overflow);
}

int main(void) {
  fill_pool();
  test_pod_sizes();
  test_mixed();
  test_locals();
  test_words();
  test_limits();
  test_errors();
  test_random();
  return check_result("arg_pack");
}

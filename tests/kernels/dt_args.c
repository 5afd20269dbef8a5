/* Device test (tests/device/args.c): kernels taking every argument kind in
 * several orders. Each work-item writes, in its slice of `out`, what it got:
 *
 *   slice + 0    uint32 sizeof(args struct), member count, local-buffer
 *                bytes that read back wrong, local buffers misaligned
 *   slice + 16   per member: uint32 offsetof, uint32 sizeof, the member's
 *                bytes (padded to 8)
 *   slice + 512  the whole argument struct, raw
 *
 * Local buffers (packed as their size) are filled with a pattern by the
 * group's items together, then read back whole by every item. */
#include <string.h>

#include "dt_shared.h"
#include "kernel_if.h"

typedef struct { uint8_t b[12]; } pod12;
typedef struct { uint8_t b[16]; } pod16;
typedef struct { uint8_t b[24]; } pod24;
typedef struct { uint64_t x, y; } pod16n; /* 16 bytes, naturally aligned to 8 */

typedef struct {
  uint8_t *slice;
  uint8_t *cur;
  uint32_t members;
} dumper;

static dumper dump_start(__global uint8_t *out, exec_state_t *e) {
  size_t g = get_global_id(0, e);
  dumper d = {out + g * ARGS_SLICE, out + g * ARGS_SLICE + 16, 0};
  return d;
}

static void dump_member(dumper *d, const void *p, size_t off, size_t size) {
  uint32_t hdr[2] = {(uint32_t)off, (uint32_t)size};
  memcpy(d->cur, hdr, sizeof hdr);
  memcpy(d->cur + 8, p, size);
  d->cur += 8 + ((size + 7) & ~(size_t)7);
  d->members++;
}

static void dump_end(dumper *d, const void *args, size_t args_size, uint32_t local_bad, uint32_t misaligned) {
  uint32_t hdr[4] = {(uint32_t)args_size, d->members, local_bad, misaligned};
  memcpy(d->slice, hdr, sizeof hdr);
  memcpy(d->slice + ARGS_RAW_AT, args, args_size);
}

static uint8_t local_pattern(size_t i, uint32_t salt, exec_state_t *e) {
  return (uint8_t)(i * 31u + salt * 7u + get_group_id(0, e) * 13u + 1u);
}

/* This item's share of local buffer `idx` (size bytes). */
static void local_fill(exec_state_t *e, uint32_t idx, size_t size, uint32_t salt) {
  uint8_t *l = rvhal_local_arg(e, idx);
  size_t n = get_local_size(0, e), lid = get_local_id(0, e);
  for (size_t i = size * lid / n; i < size * (lid + 1) / n; i++) l[i] = local_pattern(i, salt, e);
}

static uint32_t local_verify(exec_state_t *e, uint32_t idx, size_t size, uint32_t salt, uint32_t *misaligned) {
  const uint8_t *l = rvhal_local_arg(e, idx);
  uint32_t bad = 0;
  if ((uintptr_t)l % RVHAL_LOCAL_ALIGN) ++*misaligned;
  for (size_t i = 0; i < size; i++) bad += l[i] != local_pattern(i, salt, e);
  return bad;
}

#define DUMP(T, m) dump_member(&d, &a->m, offsetof(T, m), sizeof a->m)

/* ---- A: out, u8, u16, u32, u64, 16, 24, local ---- */
typedef struct {
  __global uint8_t *out;
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  RVHAL_PACKED_ARG(pod16) v16;
  RVHAL_PACKED_ARG(pod24) v24;
  uintptr_t local;
} args_a_t;

static void args_a_item(const args_a_t *a, exec_state_t *e) {
  uint32_t mis = 0;
  local_fill(e, 0, a->local, 1);
  barrier(e);
  uint32_t bad = local_verify(e, 0, a->local, 1, &mis);
  barrier(e);
  dumper d = dump_start(a->out, e);
  DUMP(args_a_t, out);
  DUMP(args_a_t, u8);
  DUMP(args_a_t, u16);
  DUMP(args_a_t, u32);
  DUMP(args_a_t, u64);
  DUMP(args_a_t, v16);
  DUMP(args_a_t, v24);
  DUMP(args_a_t, local);
  dump_end(&d, a, sizeof *a, bad, mis);
}

RVHAL_KERNEL(args_a, args_a_t, args_a_item, RVHAL_GLOBAL(out), RVHAL_VALUE(u8), RVHAL_VALUE(u16), RVHAL_VALUE(u32), RVHAL_VALUE(u64), RVHAL_VALUE(v16), RVHAL_VALUE(v24), RVHAL_LOCAL(local))

/* ---- B: 24, u8, local, out, u64, u16, 16, u32 ---- */
typedef struct {
  RVHAL_PACKED_ARG(pod24) v24;
  uint8_t u8;
  uintptr_t local;
  __global uint8_t *out;
  uint64_t u64;
  uint16_t u16;
  RVHAL_PACKED_ARG(pod16) v16;
  uint32_t u32;
} args_b_t;

static void args_b_item(const args_b_t *a, exec_state_t *e) {
  uint32_t mis = 0;
  local_fill(e, 0, a->local, 2);
  barrier(e);
  uint32_t bad = local_verify(e, 0, a->local, 2, &mis);
  barrier(e);
  dumper d = dump_start(a->out, e);
  DUMP(args_b_t, v24);
  DUMP(args_b_t, u8);
  DUMP(args_b_t, local);
  DUMP(args_b_t, out);
  DUMP(args_b_t, u64);
  DUMP(args_b_t, u16);
  DUMP(args_b_t, v16);
  DUMP(args_b_t, u32);
  dump_end(&d, a, sizeof *a, bad, mis);
}

RVHAL_KERNEL(args_b, args_b_t, args_b_item, RVHAL_VALUE(v24), RVHAL_VALUE(u8), RVHAL_LOCAL(local), RVHAL_GLOBAL(out), RVHAL_VALUE(u64), RVHAL_VALUE(u16), RVHAL_VALUE(v16), RVHAL_VALUE(u32))

/* ---- C: u8, out, u8, local, u16, u8, 12, u32, u8, u64, 16, 24 ---- */
typedef struct {
  uint8_t c0;
  __global uint8_t *out;
  uint8_t c1;
  uintptr_t local;
  uint16_t u16;
  uint8_t c2;
  RVHAL_PACKED_ARG(pod12) v12;
  uint32_t u32;
  uint8_t c3;
  uint64_t u64;
  RVHAL_PACKED_ARG(pod16) v16;
  RVHAL_PACKED_ARG(pod24) v24;
} args_c_t;

static void args_c_item(const args_c_t *a, exec_state_t *e) {
  uint32_t mis = 0;
  local_fill(e, 0, a->local, 3);
  barrier(e);
  uint32_t bad = local_verify(e, 0, a->local, 3, &mis);
  barrier(e);
  dumper d = dump_start(a->out, e);
  DUMP(args_c_t, c0);
  DUMP(args_c_t, out);
  DUMP(args_c_t, c1);
  DUMP(args_c_t, local);
  DUMP(args_c_t, u16);
  DUMP(args_c_t, c2);
  DUMP(args_c_t, v12);
  DUMP(args_c_t, u32);
  DUMP(args_c_t, c3);
  DUMP(args_c_t, u64);
  DUMP(args_c_t, v16);
  DUMP(args_c_t, v24);
  dump_end(&d, a, sizeof *a, bad, mis);
}

RVHAL_KERNEL(args_c, args_c_t, args_c_item, RVHAL_VALUE(c0), RVHAL_GLOBAL(out), RVHAL_VALUE(c1), RVHAL_LOCAL(local), RVHAL_VALUE(u16), RVHAL_VALUE(c2), RVHAL_VALUE(v12), RVHAL_VALUE(u32), RVHAL_VALUE(c3), RVHAL_VALUE(u64), RVHAL_VALUE(v16), RVHAL_VALUE(v24))

/* ---- D: local, out, local, u8: two local buffers, checked for overlap ---- */
typedef struct {
  uintptr_t local0;
  __global uint8_t *out;
  uintptr_t local1;
  uint8_t u8;
} args_d_t;

static void args_d_item(const args_d_t *a, exec_state_t *e) {
  uint32_t mis = 0;
  local_fill(e, 0, a->local0, 4);
  local_fill(e, 1, a->local1, 5);
  barrier(e);
  uint32_t bad = local_verify(e, 0, a->local0, 4, &mis) + local_verify(e, 1, a->local1, 5, &mis);
  barrier(e);
  dumper d = dump_start(a->out, e);
  DUMP(args_d_t, local0);
  DUMP(args_d_t, out);
  DUMP(args_d_t, local1);
  DUMP(args_d_t, u8);
  dump_end(&d, a, sizeof *a, bad, mis);
}

RVHAL_KERNEL(args_d, args_d_t, args_d_item, RVHAL_LOCAL(local0), RVHAL_GLOBAL(out), RVHAL_LOCAL(local1), RVHAL_VALUE(u8))

/* ---- N: u8, a 16-byte POD naturally aligned to 8, 24, out ----
 * docs/abi.md: "Members whose size is a power of two are naturally aligned
 * as the pack needs", so this struct uses RVHAL_PACKED_ARG only for the
 * 24-byte member. The pack aligns the 16-byte value to 16, the compiler to
 * 8: the launch must either be refused or deliver the bytes right. */
typedef struct {
  uint8_t u8;
  pod16n v16;
  RVHAL_PACKED_ARG(pod24) v24;
  __global uint8_t *out;
} args_n_t;

static void args_n_item(const args_n_t *a, exec_state_t *e) {
  dumper d = dump_start(a->out, e);
  DUMP(args_n_t, u8);
  DUMP(args_n_t, v16);
  DUMP(args_n_t, v24);
  DUMP(args_n_t, out);
  dump_end(&d, a, sizeof *a, 0, 0);
}

RVHAL_KERNEL(args_natural16, args_n_t, args_n_item, RVHAL_VALUE(u8), RVHAL_VALUE(v16), RVHAL_VALUE(v24), RVHAL_GLOBAL(out))

/* How an ND-range falls into work-groups, claims and local memory: one set
 * of pure functions for the host's plan (launch_plan.c) and the OpenCL
 * platform's checks, the firmware's launch owner (launch_owner.c,
 * nonuniform.c, user.c) and the SDK (sdk/src/group.c), so that the three
 * cannot count differently. Each says what its arguments must satisfy: the
 * caller has checked that (the firmware re-checks a descriptor with
 * rvhal_launch_rules.h). tests/unit/test_launch_geometry.c pins them. */
#ifndef RVHAL_ABI_LAUNCH_GEOMETRY_H
#define RVHAL_ABI_LAUNCH_GEOMETRY_H

#include <stdint.h>

#include "rvhal/rvhal_limits.h"

/* A size of device memory as the side computing it holds one: the device's
 * word on the device, 64 bits on the host (which plans for either XLEN). */
#if defined(__riscv)
typedef uintptr_t rvhal_launch_size_t;
#else
typedef uint64_t rvhal_launch_size_t;
#endif

/* ---- groups ----------------------------------------------------------- */

/* Groups along a dimension of `global` items in groups of `local` (>= 1):
 * a last, smaller group holds the rest (a non-uniform ND-range). */
static inline uint64_t rvhal_launch_groups(uint64_t global, uint64_t local) {
  return global / local + (global % local != 0);
}

/* Items of the last of `groups` (>= 1) groups along a dimension: 1 to local. */
static inline uint64_t rvhal_launch_last_size(uint64_t global, uint64_t local, uint64_t groups) {
  return global - (groups - 1) * local;
}

/* The first global id of the last group along a dimension, as an offset
 * for the SDK's group_id * last + offset (the last group's id is
 * groups - 1): offset + (groups - 1) * (local - last), modulo 2^XLEN as the
 * SDK adds. */
static inline uint64_t rvhal_launch_last_offset(uint64_t offset, uint64_t groups, uint64_t local, uint64_t last) {
  return offset + (groups - 1) * (local - last);
}

/* Work-items in a group of size[0] x size[1] x size[2], each checked >= 1
 * and their product <= the device's largest work-group (a 32-bit count). */
static inline uint64_t rvhal_launch_group_items(const uint32_t size[3]) {
  return (uint64_t)size[0] * size[1] * size[2];
}

/* The same for sizes not checked yet (the host's plan): 0 if the product
 * does not fit 64 bits. */
static inline uint64_t rvhal_launch_group_items_checked(const uint64_t size[3]) {
  uint64_t n;
  if (__builtin_mul_overflow(size[0], size[1], &n) || __builtin_mul_overflow(n, size[2], &n)) return 0;
  return n;
}

/* ---- claims ----------------------------------------------------------- */

/* Groups along dimension 0 that have local_x items: all of groups_x, or
 * all but a last, smaller one. */
static inline uint64_t rvhal_launch_full_groups(uint64_t groups_x, uint64_t local_x, uint64_t last_x) {
  return groups_x - (last_x != local_x);
}

/* Claims in a row of groups along dimension 0: its full groups (full_x of
 * groups_x) in chunks of `chunk` (1 to groups_x) groups, and a last,
 * smaller group as a claim of its own. No sum wraps: it is at most
 * groups_x. */
static inline uint64_t rvhal_launch_chunks_per_row(uint64_t groups_x, uint64_t full_x, uint64_t chunk) {
  return full_x / chunk + (full_x % chunk != 0) + (groups_x - full_x);
}

/* ---- local memory ------------------------------------------------------ */

/* A group's local memory: each local-buffer argument, then its
 * __local_variable block, each starting at a multiple of
 * RVHAL_LOCAL_ALIGN. The bytes one of them takes: */
static inline rvhal_launch_size_t rvhal_launch_local_block(rvhal_launch_size_t bytes) {
  return (bytes + RVHAL_LOCAL_ALIGN - 1) & ~(rvhal_launch_size_t)(RVHAL_LOCAL_ALIGN - 1);
}

/* Adds one of them (bytes) to *total: 0 if it alone is more than `limit`
 * (the device's local memory) or the sum would wrap; the caller compares
 * the final total with the limit. */
static inline int rvhal_launch_local_add(rvhal_launch_size_t *total, rvhal_launch_size_t bytes,
                                         rvhal_launch_size_t limit) {
  return bytes <= limit && !__builtin_add_overflow(*total, rvhal_launch_local_block(bytes), total);
}

#endif /* RVHAL_ABI_LAUNCH_GEOMETRY_H */

/* Helpers shared by the host library's files. */
#ifndef RVHAL_HOST_INTERNAL_H
#define RVHAL_HOST_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "rvhal/status.h"

/* Record a detailed message for rvhal_last_error() and return status:
 *     return rvhal_error(RVHAL_INVALID_ARGUMENT, "work_dim %u is not 1, 2 or 3", dim); */
int rvhal_error(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rvhal_clear_error(void);
/* The same, keeping the message already recorded (a callee's): it goes
 * where fmt has "{}", else after "fmt: ":
 *     return rvhal_error_annotate(rc, "kernel %s: {} (command %u)", kname, i); */
int rvhal_error_annotate(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* $name as a number into *v; unset or empty leaves *v alone (env.c). */
int rvhal_env_u32(const char *name, uint32_t *v);

/* IREE-style early return on failure. */
#define RVHAL_RETURN_IF_ERROR(expr)     \
  do {                                  \
    int rvhal_rc_ = (expr);             \
    if (rvhal_rc_ != 0) return rvhal_rc_; \
  } while (0)

static inline int rvhal_is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

static inline uint64_t rvhal_align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* [addr, addr+size) inside [base, base+limit), without overflow. */
static inline int rvhal_range_inside(uint64_t addr, uint64_t size, uint64_t base, uint64_t limit) {
  return addr >= base && size <= limit && addr - base <= limit - size;
}

/* The host clock every deadline and time of the library is on. */
static inline uint64_t rvhal_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

#endif /* RVHAL_HOST_INTERNAL_H */

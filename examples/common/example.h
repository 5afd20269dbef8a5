/* The examples: each is a kernel (examples/<name>/<name>.c, built for the
 * device) and a host part that runs it and checks every result against a
 * host computation. The demo runs them all; the tests run them on 1-4 harts
 * with several work-group sizes. */
#ifndef RVHAL_EXAMPLE_H
#define RVHAL_EXAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "rvhal/rvhal.h"

typedef struct example_ctx {
  rvhal_device_t *dev;
  const char *kernel_dir; /* where <name>.elf files are */
  uint32_t local_size;    /* work-items per group along dimension 0 (or each dimension of a square/cube);
                             0: the example's default */
  uint32_t harts_per_group; /* 0: let the library choose */
  int verbose;
} example_ctx_t;

typedef struct example {
  const char *name;
  const char *what; /* one line: what it computes */
  /* Runs the example; 0 if every result matched. On success `summary` says
   * what ran ("1-D, 65536 items in groups of 64"); on failure, what
   * differed. Errors from rvhal are reported in `summary` too. */
  int (*run)(const example_ctx_t *ctx, char *summary, size_t cap);
} example_t;

/* All examples, NULL-terminated (examples/common/registry.c). */
extern const example_t *const rvhal_examples[];

/* Helpers for examples' host parts (examples/common/example_util.c).
 * Kernel arguments are built with rvhal_arg_global/local/value
 * (rvhal/arg_pack.h). */
int example_load(const example_ctx_t *ctx, const char *program, const char *kernel, hal_program_t *out_program,
                 hal_kernel_t *out_kernel, char *summary, size_t cap);
int example_fail(char *summary, size_t cap, const char *what, int rc);
/* The 1-D work-group size: ctx->local_size, or `default_local`; -1 with
 * the reason in `summary` if the device does not allow groups that big. */
int example_local_1d(const example_ctx_t *ctx, uint32_t default_local, uint32_t *out_local, char *summary,
                     size_t cap);
/* n rounded up to a multiple of m: a global size that is whole groups. */
static inline uint32_t example_round_up(uint32_t n, uint32_t m) { return (n + m - 1) / m * m; }
/* `count` items of `item_bytes` each (written to the device and read
 * back), or fewer on a device behind a debug link too slow to move them in
 * about `seconds` (rvhal_device_info_t.link_bytes_per_s: JTAG moves some
 * KB/s): then what it moves in that time, a multiple of `unit`, at least
 * `unit`. */
uint32_t example_link_count(const example_ctx_t *ctx, uint32_t count, size_t item_bytes, uint32_t unit,
                            double seconds);
/* Fixed-seed pseudo-random numbers for inputs. */
uint32_t example_rand(uint32_t *state);

#endif /* RVHAL_EXAMPLE_H */

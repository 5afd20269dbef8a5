/* The built-in library's checks against host references (clt_check.c):
 * math in ulps (long double references, OpenCL 1.2 limits), convert_* in
 * every mode against conversions done by the host FPU in that mode, half
 * stores against an exact nearest-half search, integer functions against
 * 128-bit arithmetic, and every vector width against the scalar result.
 * Where the built-ins run is the runner's business: the host test calls the
 * driver directly, the device tests launch it on RV64 / RV32 harts. */
#ifndef CLT_CHECK_H
#define CLT_CHECK_H

#include <stdint.h>

#include "clt_dispatch.h"

/* Runs the driver for elements [0, n) of the arrays (clt_dispatch.h's
 * op, p, in, out); returns 0 or nonzero (the failure is the runner's to
 * print). */
typedef int (*clt_runner_fn)(void *ctx, int32_t op, const int32_t p[4], void *const in[CLT_MAX_IN],
                             void *const out[CLT_MAX_OUT], uint32_t n);

typedef struct clt_options {
  uint32_t math_samples; /* per math function and type (rounded up to CLT_BLOCK) */
  uint32_t samples;      /* per case of the other families */
  int all_widths;        /* also every vector width and address space (else 1, 3, 16) */
  uint32_t half_stride;  /* half stores and loads: every half_stride-th half pattern (>= 1) */
  const char *only;      /* a family (math, convert, half, integer, other) or NULL: all */
  int verbose;           /* print every math function's measured maximum */
} clt_options_t;

/* Runs the checks; returns the number of failed cases (0: all passed). */
int clt_check_all(clt_runner_fn run, void *ctx, const clt_options_t *o);

#endif

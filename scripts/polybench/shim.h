/* What a PolyBench/GPU OpenCL C file needs to compile as C on the host, so
 * that runner.c can run its kernels serially over the same ND-range as the
 * host reference (the .cl file is #included unchanged). Only what those
 * kernels use: the address-space words, get_global_id, sqrt. */
#ifndef PB_SHIM_H
#define PB_SHIM_H

#include <math.h>
#include <stddef.h>

#define __kernel static
#define __global
#define __local
#define __constant const
#define __private

/* The work-item being run (runner.c steps it over the ND-range). */
static size_t pb_gid[3];
static inline size_t get_global_id(unsigned d) { return d < 3 ? pb_gid[d] : 0; }

#endif /* PB_SHIM_H */

/* One entry for every driver function of clt_driver.cl (OpenCL C), built
 * for the host and for the device kernel: op and p[] say what to run
 * (clt_cases.h), in[0..3] and out[0..2] are the arrays as a whole, and
 * elements [first, first + n) are done (n a multiple of CLT_BLOCK). */
#ifndef CLT_DISPATCH_H
#define CLT_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#define CLT_MAX_IN 4
#define CLT_MAX_OUT 3

/* Returns 0, or nonzero for an op or parameter the driver does not know. */
int clt_dispatch(int32_t op, const int32_t p[4], void *const in[CLT_MAX_IN], void *const out[CLT_MAX_OUT],
                 uint32_t first, uint32_t n);

/* Bytes of one element of each array (in then out) for op and p, and the
 * number of elements each holds for n processed elements: elements(n) =
 * n * num / den (shuffle inputs, per-vector results, aligned 3-wide halves). */
typedef struct clt_array_shape {
  uint32_t size, num, den;
} clt_array_shape_t;
int clt_shapes(int32_t op, const int32_t p[4], clt_array_shape_t in[CLT_MAX_IN], clt_array_shape_t out[CLT_MAX_OUT]);

#endif

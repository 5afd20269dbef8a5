/* The image formats rvhal devices support (clGetSupportedImageFormats):
 * channel orders R, RG and RGBA of every channel type below, and BGRA of
 * UNORM_INT8 (the OpenCL 1.2 minimum list and more); the built-ins
 * (sdk/opencl/builtins/image.cl) read and write each of them. And the host
 * side of a format: a pixel's bytes from a fill colour; the image size
 * limits of a device. */
#include <string.h>

#include "image_format.h"

static const cl_channel_type types[] = {
    CL_UNORM_INT8,      CL_UNORM_INT16,      CL_SIGNED_INT8,      CL_SIGNED_INT16, CL_SIGNED_INT32,
    CL_UNSIGNED_INT8,   CL_UNSIGNED_INT16,   CL_UNSIGNED_INT32,   CL_HALF_FLOAT,   CL_FLOAT};
static const cl_channel_order orders[] = {CL_R, CL_RG, CL_RGBA};
#define NUM_TYPES (sizeof types / sizeof types[0])
#define NUM_ORDERS (sizeof orders / sizeof orders[0])

size_t rvcl_image_formats(cl_image_format *out, size_t cap) {
  size_t n = 0;
  for (size_t o = 0; o < NUM_ORDERS; o++)
    for (size_t t = 0; t < NUM_TYPES; t++, n++)
      if (out && n < cap) out[n] = (cl_image_format){orders[o], types[t]};
  if (out && n < cap) out[n] = (cl_image_format){CL_BGRA, CL_UNORM_INT8};
  return n + 1;
}

static size_t channel_bytes(cl_channel_type t) {
  switch (t) {
  case CL_UNORM_INT8: case CL_SIGNED_INT8: case CL_UNSIGNED_INT8: return 1;
  case CL_UNORM_INT16: case CL_SIGNED_INT16: case CL_UNSIGNED_INT16: case CL_HALF_FLOAT: return 2;
  case CL_SIGNED_INT32: case CL_UNSIGNED_INT32: case CL_FLOAT: return 4;
  }
  return 0;
}

static unsigned channels(cl_channel_order o) {
  switch (o) {
  case CL_R: return 1;
  case CL_RG: return 2;
  case CL_RGBA: case CL_BGRA: return 4;
  }
  return 0;
}

int rvcl_image_format_supported(const cl_image_format *f) {
  if (!f) return 0;
  if (f->image_channel_order == CL_BGRA) return f->image_channel_data_type == CL_UNORM_INT8;
  return channels(f->image_channel_order) && channel_bytes(f->image_channel_data_type);
}

unsigned rvcl_image_format_channels(const cl_image_format *f) { return channels(f->image_channel_order); }

size_t rvcl_image_format_size(const cl_image_format *f) {
  return channels(f->image_channel_order) * channel_bytes(f->image_channel_data_type);
}

int rvcl_image_format_is_float(const cl_image_format *f) {
  switch (f->image_channel_data_type) {
  case CL_UNORM_INT8: case CL_UNORM_INT16: case CL_HALF_FLOAT: case CL_FLOAT: return 1;
  }
  return 0;
}

/* x >= 0 below 2^31 to the nearest integer, ties to even (no libm in the ICD). */
static uint32_t round_even(float x) {
  uint32_t i = (uint32_t)x;
  float frac = x - (float)i;
  return i + (frac > 0.5f || (frac == 0.5f && (i & 1)));
}

/* float to half, rounding to nearest even (as the built-ins' vstore_half_rte). */
static uint16_t to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
  if (abs >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* rounds to infinity */
  if (abs < 0x38800000u) { /* subnormal half (or zero): units of 2^-24 */
    float a;
    memcpy(&a, &abs, 4);
    return (uint16_t)(sign | (uint16_t)round_even(a * 16777216.0f));
  }
  uint32_t m = abs + 0xc8000000u; /* rebias the exponent: 127 - 15 = 112 */
  uint32_t r = (m >> 13) + (((m >> 12) & 1) && ((m & 0x2fffu) != 0));
  return (uint16_t)(sign | r);
}

static int32_t clampi(int64_t v, int64_t lo, int64_t hi) { return (int32_t)(v < lo ? lo : v > hi ? hi : v); }

static uint32_t unorm(float v, float scale) {
  if (!(v > 0.0f)) return 0; /* NaN too */
  if (v >= 1.0f) return (uint32_t)scale;
  return round_even(v * scale);
}

void rvcl_image_pack(const cl_image_format *f, const void *color, uint8_t *out) {
  const float *cf = color;
  const int32_t *ci = color;
  const uint32_t *cu = color;
  unsigned n = channels(f->image_channel_order);
  size_t cb = channel_bytes(f->image_channel_data_type);
  for (unsigned i = 0; i < n; i++) {
    /* memory order: BGRA stores blue first */
    unsigned c = f->image_channel_order == CL_BGRA && i != 3 ? 2 - i : i;
    uint32_t v = 0;
    switch (f->image_channel_data_type) {
    case CL_UNORM_INT8: v = unorm(cf[c], 255.0f); break;
    case CL_UNORM_INT16: v = unorm(cf[c], 65535.0f); break;
    case CL_HALF_FLOAT: v = to_half(cf[c]); break;
    case CL_FLOAT: memcpy(&v, &cf[c], 4); break;
    case CL_SIGNED_INT8: v = (uint32_t)clampi(ci[c], -128, 127); break;
    case CL_SIGNED_INT16: v = (uint32_t)clampi(ci[c], -32768, 32767); break;
    case CL_SIGNED_INT32: v = (uint32_t)ci[c]; break;
    case CL_UNSIGNED_INT8: v = cu[c] > 255 ? 255 : cu[c]; break;
    case CL_UNSIGNED_INT16: v = cu[c] > 65535 ? 65535 : cu[c]; break;
    case CL_UNSIGNED_INT32: v = cu[c]; break;
    }
    memcpy(out + i * cb, &v, cb); /* little-endian: the low bytes */
  }
}

/* ---- limits ------------------------------------------------------------------ */

/* The largest power of two at most cap whose square (cube) of the largest
 * pixels (16 bytes) the device's memory could hold along one dimension:
 * the spec's minimums on every board (1 GiB of RAM by default). */
static size_t dim_limit(cl_device_id d, size_t cap) {
  size_t n = cap;
  while (n > 1 && (uint64_t)n * 16 > d->info.global_mem_size) n >>= 1;
  return n;
}
size_t rvcl_image2d_max(cl_device_id d) { return dim_limit(d, 16384); }
size_t rvcl_image3d_max(cl_device_id d) { return dim_limit(d, 2048); }
size_t rvcl_image_array_max(cl_device_id d) { return dim_limit(d, 2048); }
/* A 1D buffer image's pixels: as many of the largest that one allocation
 * holds, and a width the descriptor's 32 bits carry. */
size_t rvcl_image_buffer_max(cl_device_id d) {
  uint64_t n = d->info.global_mem_size / 16;
  return (size_t)(n < UINT32_MAX ? n : UINT32_MAX);
}

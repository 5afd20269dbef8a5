/* OpenCL C image built-ins (OpenCL C 3.0 section 6.15.15, __opencl_c_images;
 * 1.2 section 6.12.14): read_imagef/i/ui with and without a sampler,
 * write_imagef/i/ui and the image queries, for image1d_t, image1d_buffer_t,
 * image2d_t, image3d_t, image1d_array_t and image2d_array_t; read_write
 * images (__opencl_c_read_write_images) take the sampler-less reads, the
 * writes and the queries. A read_write image's write is a plain store, so a
 * later read by the same work-item sees it once the kernel has fenced
 * (atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, ...)), as the spec asks.
 *
 * An image argument is the device address of its descriptor
 * (abi/rvhal/rvhal_image.h), the pixels after it (a 1D buffer image's
 * at the buffer's address the descriptor holds); a sampler is its
 * CLK_* bits (clSetKernelArg and __translate_sampler_initializer,
 * image_handle.cl). Addressing and filtering follow the OpenCL 3.0
 * environment's "Image Addressing and Filtering" section formula by
 * formula. Where the spec leaves a result undefined (a coordinate outside
 * the image with CLK_ADDRESS_NONE or without a sampler, a write outside it)
 * reads return the border colour and writes are dropped, so that no kernel
 * reaches memory outside the image. */
#include "clc_internal.h"
#include "rvhal/rvhal_image.h"

typedef global const rvhal_image_desc_t *desc_t;

/* The read_write overloads, where the feature is on (the built-ins' device
 * build, OpenCL C 3.0; not the host test's OpenCL C 1.2 build). */
#ifdef __opencl_c_read_write_images
#define RW(x) x
#else
#define RW(x)
#endif

#define HANDLE(T)                                                                                   \
  __attribute__((overloadable)) desc_t __rvhal_image(read_only T) __asm__("__rvhal_opaque_ptr");  \
  __attribute__((overloadable)) desc_t __rvhal_image(write_only T) __asm__("__rvhal_opaque_ptr"); \
  RW(__attribute__((overloadable)) desc_t __rvhal_image(read_write T) __asm__("__rvhal_opaque_ptr");)
HANDLE(image1d_t) HANDLE(image1d_buffer_t) HANDLE(image2d_t) HANDLE(image3d_t)
HANDLE(image1d_array_t) HANDLE(image2d_array_t)
__attribute__((overloadable)) global void *__rvhal_sampler(sampler_t) __asm__("__rvhal_opaque_ptr");
#define SAMPLER_BITS(s) ((uint)(size_t)__rvhal_sampler(s))

/* ---- one pixel ------------------------------------------------------------- */

_CLC_INL global uchar *pixel(desc_t d, int x, int y, int z) {
  ulong at = (ulong)d->data_addr_hi << 32 | d->data_addr_lo;
  global uchar *base = at ? (global uchar *)(size_t)at : (global uchar *)d + d->data_offset;
  return base + (size_t)z * d->slice_pitch + (size_t)y * d->row_pitch + (size_t)x * d->elem_size;
}

/* Layers of an array image count as the y (1D arrays) or z (2D arrays)
 * coordinate; sizes along each of the three. */
_CLC_INL int extent(desc_t d, int axis) {
  uint t = d->image_type;
  if (axis == 0) return (int)d->width;
  if (axis == 1) return t == RVHAL_IMAGE_1D_ARRAY ? (int)d->array_size : (int)d->height;
  return t == RVHAL_IMAGE_2D_ARRAY ? (int)d->array_size : (int)d->depth;
}

_CLC_INL bool inside(desc_t d, int4 c) {
  return c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x < extent(d, 0) && c.y < extent(d, 1) && c.z < extent(d, 2);
}

_CLC_INL bool has_alpha(desc_t d) {
  uint o = d->channel_order;
  return o == CLK_RGBA || o == CLK_BGRA;
}

/* The stored channels in memory order, each as 32 bits (signed types
 * sign-extended). */
_CLC_INL uint4 load_raw(global const uchar *p, desc_t d) {
  uint4 r = 0;
  uint n = d->num_channels;
  for (uint i = 0; i < n; i++) {
    uint v;
    switch (d->channel_type) {
    case CLK_UNORM_INT8: case CLK_UNSIGNED_INT8: v = p[i]; break;
    case CLK_SIGNED_INT8: v = (uint)(int)((global const char *)p)[i]; break;
    case CLK_UNORM_INT16: case CLK_UNSIGNED_INT16: case CLK_HALF_FLOAT: v = ((global const ushort *)p)[i]; break;
    case CLK_SIGNED_INT16: v = (uint)(int)((global const short *)p)[i]; break;
    default: v = ((global const uint *)p)[i]; break; /* 32-bit integers, FLOAT */
    }
    r[i] = v;
  }
  return r;
}

_CLC_INL float to_float(uint v, uint type) {
  switch (type) {
  case CLK_UNORM_INT8: return (float)v / 255.0f;
  case CLK_UNORM_INT16: return (float)v / 65535.0f;
  case CLK_HALF_FLOAT: {
    ushort h = (ushort)v;
    return vload_half(0, (const half *)&h);
  }
  case CLK_FLOAT: return as_float(v);
  case CLK_SIGNED_INT8: case CLK_SIGNED_INT16: case CLK_SIGNED_INT32: return (float)(int)v;
  default: return (float)v;
  }
}

/* Memory order to (r, g, b, a), the missing channels 0 and alpha `one`. */
_CLC_INL uint4 swizzle(uint4 m, desc_t d, uint one) {
  switch (d->channel_order) {
  case CLK_R: return (uint4)(m.x, 0, 0, one);
  case CLK_RG: return (uint4)(m.x, m.y, 0, one);
  case CLK_BGRA: return m.zyxw;
  default: return m;
  }
}

_CLC_INL float4 border_f(desc_t d) { return (float4)(0.0f, 0.0f, 0.0f, has_alpha(d) ? 0.0f : 1.0f); }
_CLC_INL uint4 border_u(desc_t d) { return (uint4)(0, 0, 0, has_alpha(d) ? 0u : 1u); }

_CLC_INL float4 load_f(desc_t d, int4 c) {
  if (!inside(d, c)) return border_f(d);
  uint4 m = load_raw(pixel(d, c.x, c.y, c.z), d);
  float4 f;
  for (int i = 0; i < 4; i++) f[i] = to_float(m[i], d->channel_type);
  f = as_float4(swizzle(as_uint4(f), d, as_uint(1.0f)));
  return f;
}

_CLC_INL uint4 load_u(desc_t d, int4 c) {
  if (!inside(d, c)) return border_u(d);
  return swizzle(load_raw(pixel(d, c.x, c.y, c.z), d), d, 1u);
}

/* (r, g, b, a) to memory order, converted to the channel type. */
_CLC_INL void store(desc_t d, int4 c, uint4 v, float4 f, bool is_float) {
  if (!inside(d, c)) return;
  global uchar *p = pixel(d, c.x, c.y, c.z);
  if (d->channel_order == CLK_BGRA) v = v.zyxw, f = f.zyxw;
  uint n = d->num_channels;
  for (uint i = 0; i < n; i++) {
    switch (d->channel_type) {
    case CLK_UNORM_INT8: p[i] = convert_uchar_sat_rte(f[i] * 255.0f); break;
    case CLK_UNORM_INT16: ((global ushort *)p)[i] = convert_ushort_sat_rte(f[i] * 65535.0f); break;
    case CLK_HALF_FLOAT: vstore_half_rte(f[i], i, (global half *)p); break;
    case CLK_FLOAT: ((global float *)p)[i] = f[i]; break;
    case CLK_SIGNED_INT8: ((global char *)p)[i] = convert_char_sat((int)v[i]); break;
    case CLK_SIGNED_INT16: ((global short *)p)[i] = convert_short_sat((int)v[i]); break;
    case CLK_UNSIGNED_INT8: p[i] = convert_uchar_sat(v[i]); break;
    case CLK_UNSIGNED_INT16: ((global ushort *)p)[i] = convert_ushort_sat(v[i]); break;
    default: ((global uint *)p)[i] = v[i]; break; /* 32-bit integers */
    }
  }
  (void)is_float;
}

/* ---- addressing ------------------------------------------------------------- */

#define ADDRESS_MODE(s) ((s) & 0xEu)

/* An integer coordinate i along an axis of n pixels under a non-repeating
 * mode: CLAMP puts it on the border (*border), the others on the edge. */
_CLC_INL int clamp_index(int i, int n, uint mode, bool *border) {
  if (mode == CLK_ADDRESS_CLAMP && (i < 0 || i >= n)) *border = true;
  return clamp(i, 0, n - 1);
}

/* floor(u) as an int, u first kept to [-2, n + 2] (NaN to -2). */
_CLC_INL int ifloor(float u, int n) { return (int)floor(fmin(fmax(u, -2.0f), (float)n + 2.0f)); }

_CLC_INL float mirror(float s) { return fabs(s - 2.0f * rint(0.5f * s)); }

/* Nearest: the pixel index for coordinate s. */
_CLC_INL int nearest(float s, int n, uint smp, bool *border) {
  uint mode = ADDRESS_MODE(smp);
  if (mode == CLK_ADDRESS_REPEAT) {
    int i = ifloor((s - floor(s)) * (float)n, n);
    return i > n - 1 ? i - n : i;
  }
  if (mode == CLK_ADDRESS_MIRRORED_REPEAT) return min(ifloor(mirror(s) * (float)n, n), n - 1);
  float u = (smp & CLK_NORMALIZED_COORDS_TRUE) ? s * (float)n : s;
  return clamp_index(ifloor(u, n), n, mode, border);
}

/* Linear: the two pixel indices around s and the weight a of the second. */
_CLC_INL void linear(float s, int n, uint smp, int *i0, int *i1, float *a, bool *b0, bool *b1) {
  uint mode = ADDRESS_MODE(smp);
  float u;
  if (mode == CLK_ADDRESS_REPEAT)
    u = (s - floor(s)) * (float)n;
  else if (mode == CLK_ADDRESS_MIRRORED_REPEAT)
    u = mirror(s) * (float)n;
  else
    u = (smp & CLK_NORMALIZED_COORDS_TRUE) ? s * (float)n : s;
  u = fmin(fmax(u, -2.0f), (float)n + 2.0f);
  float f = floor(u - 0.5f);
  *a = (u - 0.5f) - f;
  *i0 = (int)f;
  *i1 = *i0 + 1;
  if (mode == CLK_ADDRESS_REPEAT) {
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
  } else if (mode == CLK_ADDRESS_MIRRORED_REPEAT) {
    *i0 = max(*i0, 0);
    *i1 = min(*i1, n - 1);
  } else {
    *i0 = clamp_index(*i0, n, mode, b0);
    *i1 = clamp_index(*i1, n, mode, b1);
  }
}

/* An array image's layer: rounded and clamped, never filtered. */
_CLC_INL int layer(float s, int n) { return clamp((int)rint(fmin(fmax(s, -1.0f), (float)n)), 0, n - 1); }

/* The sampler applied to float coordinate c (its first nd filtered, the
 * next one the layer of an array image when layered). */
_CLC_INL float4 sample_f(desc_t d, uint smp, float4 c, int nd, bool layered) {
  int idx[3] = {0, 0, 0};
  if (layered) idx[nd] = layer(c[nd], extent(d, nd));
  if (!(smp & CLK_FILTER_LINEAR)) {
    bool border = false;
    for (int k = 0; k < nd; k++) idx[k] = nearest(c[k], extent(d, k), smp, &border);
    return border ? border_f(d) : load_f(d, (int4)(idx[0], idx[1], idx[2], 0));
  }
  int i0[3], i1[3];
  float a[3];
  bool b0[3] = {false, false, false}, b1[3] = {false, false, false};
  for (int k = 0; k < 3; k++) {
    i0[k] = i1[k] = idx[k];
    a[k] = 0.0f;
    if (k < nd) linear(c[k], extent(d, k), smp, &i0[k], &i1[k], &a[k], &b0[k], &b1[k]);
  }
  float4 sum = 0.0f;
  for (int m = 0; m < (1 << nd); m++) {
    float w = 1.0f;
    int xyz[3];
    bool border = false;
    for (int k = 0; k < 3; k++) {
      bool hi = k < nd && ((m >> k) & 1);
      xyz[k] = hi ? i1[k] : i0[k];
      if (k < nd) w *= hi ? a[k] : 1.0f - a[k];
      border |= hi ? b1[k] : b0[k];
    }
    sum += w * (border ? border_f(d) : load_f(d, (int4)(xyz[0], xyz[1], xyz[2], 0)));
  }
  return sum;
}

/* read_imagei/ui take the nearest pixel whatever the filter (the spec
 * leaves linear filtering of integer formats undefined). */
_CLC_INL uint4 sample_u(desc_t d, uint smp, float4 c, int nd, bool layered) {
  int idx[3] = {0, 0, 0};
  bool border = false;
  if (layered) idx[nd] = layer(c[nd], extent(d, nd));
  for (int k = 0; k < nd; k++) idx[k] = nearest(c[k], extent(d, k), smp, &border);
  return border ? border_u(d) : load_u(d, (int4)(idx[0], idx[1], idx[2], 0));
}

/* Integer coordinates with a sampler: unnormalized, nearest, the address
 * mode (CLAMP_TO_EDGE, CLAMP or NONE) on each filtered axis; an array's
 * layer (the next axis) clamped whatever the mode, as a float one is. */
_CLC_INL int4 address_int(desc_t d, uint smp, int4 c, int nd, bool layered, bool *border) {
  for (int k = 0; k < nd; k++) c[k] = clamp_index(c[k], extent(d, k), ADDRESS_MODE(smp), border);
  if (layered) c[nd] = clamp(c[nd], 0, extent(d, nd) - 1);
  return c;
}

_CLC_INL float4 sample_int_f(desc_t d, uint smp, int4 c, int nd, bool layered) {
  bool border = false;
  c = address_int(d, smp, c, nd, layered, &border);
  return border ? border_f(d) : load_f(d, c);
}

_CLC_INL uint4 sample_int_u(desc_t d, uint smp, int4 c, int nd, bool layered) {
  bool border = false;
  c = address_int(d, smp, c, nd, layered, &border);
  return border ? border_u(d) : load_u(d, c);
}

/* ---- the built-ins, per image type ------------------------------------------- */

/* Coordinates to (x, y, z, 0): the layer of a 1D array is y, of a 2D array z. */
#define C1(c) ((int4)((c), 0, 0, 0))
#define C2(c) ((int4)((c), 0, 0))
#define C4(c) ((int4)((c).xyz, 0))
#define F1(c) ((float4)((c), 0.0f, 0.0f, 0.0f))
#define F2(c) ((float4)((c), 0.0f, 0.0f))
#define F4(c) ((float4)((c).xyz, 0.0f))

/* T: the image type; IC/FC: its integer and float coordinate types and
 * their conversions; ND: the filtered axes; LAYERED: an array. */
#define READS(T, IC, CI, FC, CF, ND, LAYERED)                                                                  \
  _CLC_DEF float4 read_imagef(read_only T i, sampler_t s, FC c) {                                             \
    return sample_f(__rvhal_image(i), SAMPLER_BITS(s), CF(c), ND, LAYERED);                                   \
  }                                                                                                           \
  _CLC_DEF int4 read_imagei(read_only T i, sampler_t s, FC c) {                                               \
    return as_int4(sample_u(__rvhal_image(i), SAMPLER_BITS(s), CF(c), ND, LAYERED));                          \
  }                                                                                                           \
  _CLC_DEF uint4 read_imageui(read_only T i, sampler_t s, FC c) {                                             \
    return sample_u(__rvhal_image(i), SAMPLER_BITS(s), CF(c), ND, LAYERED);                                   \
  }                                                                                                           \
  _CLC_DEF float4 read_imagef(read_only T i, sampler_t s, IC c) {                                             \
    return sample_int_f(__rvhal_image(i), SAMPLER_BITS(s), CI(c), ND, LAYERED);                               \
  }                                                                                                           \
  _CLC_DEF int4 read_imagei(read_only T i, sampler_t s, IC c) {                                               \
    return as_int4(sample_int_u(__rvhal_image(i), SAMPLER_BITS(s), CI(c), ND, LAYERED));                      \
  }                                                                                                           \
  _CLC_DEF uint4 read_imageui(read_only T i, sampler_t s, IC c) {                                             \
    return sample_int_u(__rvhal_image(i), SAMPLER_BITS(s), CI(c), ND, LAYERED);                               \
  }                                                                                                           \
  UNSAMPLED(T, IC, CI, read_only) RW(UNSAMPLED(T, IC, CI, read_write))

/* The reads without a sampler (all an image1d_buffer_t and a read_write
 * image have). */
#define UNSAMPLED(T, IC, CI, A)                                                                               \
  _CLC_DEF float4 read_imagef(A T i, IC c) { return load_f(__rvhal_image(i), CI(c)); }                        \
  _CLC_DEF int4 read_imagei(A T i, IC c) { return as_int4(load_u(__rvhal_image(i), CI(c))); }                 \
  _CLC_DEF uint4 read_imageui(A T i, IC c) { return load_u(__rvhal_image(i), CI(c)); }

#define WRITES_ACCESS(T, IC, CI, A)                                                                           \
  _CLC_DEF void write_imagef(A T i, IC c, float4 v) { store(__rvhal_image(i), CI(c), 0, v, true); }           \
  _CLC_DEF void write_imagei(A T i, IC c, int4 v) { store(__rvhal_image(i), CI(c), as_uint4(v), 0.0f, false); } \
  _CLC_DEF void write_imageui(A T i, IC c, uint4 v) { store(__rvhal_image(i), CI(c), v, 0.0f, false); }
#define WRITES(T, IC, CI) WRITES_ACCESS(T, IC, CI, write_only) RW(WRITES_ACCESS(T, IC, CI, read_write))

#define QUERIES_ACCESS(T, A)                                                                                  \
  _CLC_DEF int get_image_width(A T i) { return (int)__rvhal_image(i)->width; }                                \
  _CLC_DEF int get_image_channel_data_type(A T i) { return (int)__rvhal_image(i)->channel_type; }             \
  _CLC_DEF int get_image_channel_order(A T i) { return (int)__rvhal_image(i)->channel_order; }
#define QUERIES(T) QUERIES_ACCESS(T, read_only) QUERIES_ACCESS(T, write_only) RW(QUERIES_ACCESS(T, read_write))

#define HEIGHT(T, A) _CLC_DEF int get_image_height(A T i) { return (int)__rvhal_image(i)->height; }
#define ARRAY(T, A) _CLC_DEF size_t get_image_array_size(A T i) { return __rvhal_image(i)->array_size; }
#define DIM2(T, A)                                                                                            \
  _CLC_DEF int2 get_image_dim(A T i) { return (int2)((int)__rvhal_image(i)->width, (int)__rvhal_image(i)->height); }
#define EACH_ACCESS(M, T) M(T, read_only) M(T, write_only) RW(M(T, read_write))

READS(image1d_t, int, C1, float, F1, 1, false)
READS(image2d_t, int2, C2, float2, F2, 2, false)
READS(image3d_t, int4, C4, float4, F4, 3, false)
READS(image1d_array_t, int2, C2, float2, F2, 1, true)
READS(image2d_array_t, int4, C4, float4, F4, 2, true)
UNSAMPLED(image1d_buffer_t, int, C1, read_only) RW(UNSAMPLED(image1d_buffer_t, int, C1, read_write))
WRITES(image1d_t, int, C1)
WRITES(image1d_buffer_t, int, C1)
WRITES(image2d_t, int2, C2)
WRITES(image3d_t, int4, C4)
WRITES(image1d_array_t, int2, C2)
WRITES(image2d_array_t, int4, C4)
QUERIES(image1d_t) QUERIES(image1d_buffer_t) QUERIES(image2d_t) QUERIES(image3d_t)
QUERIES(image1d_array_t) QUERIES(image2d_array_t)
EACH_ACCESS(HEIGHT, image2d_t) EACH_ACCESS(HEIGHT, image3d_t) EACH_ACCESS(HEIGHT, image2d_array_t)
EACH_ACCESS(DIM2, image2d_t) EACH_ACCESS(DIM2, image2d_array_t)
EACH_ACCESS(ARRAY, image1d_array_t) EACH_ACCESS(ARRAY, image2d_array_t)

#define DEPTH3(A)                                                                                             \
  _CLC_DEF int get_image_depth(A image3d_t i) { return (int)__rvhal_image(i)->depth; }                        \
  _CLC_DEF int4 get_image_dim(A image3d_t i) {                                                                \
    desc_t d = __rvhal_image(i);                                                                              \
    return (int4)((int)d->width, (int)d->height, (int)d->depth, 0);                                           \
  }
DEPTH3(read_only) DEPTH3(write_only) RW(DEPTH3(read_write))

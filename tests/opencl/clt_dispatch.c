/* clt_dispatch.h: from (op, p) to the driver function of clt_driver.cl. The
 * driver functions are OpenCL C without overloading, so their C names are
 * their names; pointers of every address space are plain pointers on RISC-V
 * and x86-64 (clang maps all of them to address space 0 there). */
#include "clt_dispatch.h"

#include "clt_cases.h"

typedef unsigned char uchar_t;

int clt_math_f32(int fn, int width, int space, const float *x, const float *y, const float *z, const int *k,
                 float *r, float *r2, float *r2g, float *r2l, int *ri, int *rig, int *ril, uint32_t n);
int clt_math_f64(int fn, int width, int space, const double *x, const double *y, const double *z,
                 const int *k, double *r, double *r2, double *r2g, double *r2l, int *ri, int *rig, int *ril,
                 uint32_t n);
#define CLT_T_DECL(T, size, sgn, fp)                                                          \
  int clt_vls_##T(int width, const void *in, void *out, uint32_t n);                          \
  int clt_select_##T(int kind, int width, const void *a, const void *b, const void *cs, const void *cu, \
                     const void *ct, void *r, uint32_t n);                                    \
  int clt_shuffle_##T(int two, int mw, int nw, const void *x, const void *y, const void *mask, void *r, \
                      uint32_t n);
CLT_TYPES(CLT_T_DECL)
#define CLT_INT_DECL(T) \
  int clt_int_##T(int fn, int width, const void *x, const void *y, const void *z, void *r, uint32_t n);
CLT_INT_DECL(char) CLT_INT_DECL(uchar) CLT_INT_DECL(short) CLT_INT_DECL(ushort)
CLT_INT_DECL(int) CLT_INT_DECL(uint) CLT_INT_DECL(long) CLT_INT_DECL(ulong)
int clt_int24_int(int fn, int width, const void *x, const void *y, const void *z, void *r, uint32_t n);
int clt_int24_uint(int fn, int width, const void *x, const void *y, const void *z, void *r, uint32_t n);
int clt_upsample_char(int width, const void *x, const void *y, void *r, uint32_t n);
int clt_upsample_uchar(int width, const void *x, const void *y, void *r, uint32_t n);
int clt_upsample_short(int width, const void *x, const void *y, void *r, uint32_t n);
int clt_upsample_ushort(int width, const void *x, const void *y, void *r, uint32_t n);
int clt_upsample_int(int width, const void *x, const void *y, void *r, uint32_t n);
int clt_upsample_uint(int width, const void *x, const void *y, void *r, uint32_t n);
int clt_convert(int dst, int src, int modesat, int width, const void *in, void *out, uint32_t n);
int clt_half_store_f32(int mode, int width, int aligned, const float *in, void *out, uint32_t n);
int clt_half_store_f64(int mode, int width, int aligned, const double *in, void *out, uint32_t n);
int clt_half_load(int width, int aligned, const void *in, float *out, uint32_t n);
int clt_rel_float(int fn, int width, const float *x, const float *y, int32_t *r, uint32_t n);
int clt_rel_double(int fn, int width, const double *x, const double *y, int64_t *r, uint32_t n);
int clt_anyall_char(int all, int width, const void *x, int32_t *r, uint32_t n);
int clt_anyall_short(int all, int width, const void *x, int32_t *r, uint32_t n);
int clt_anyall_int(int all, int width, const void *x, int32_t *r, uint32_t n);
int clt_anyall_long(int all, int width, const void *x, int32_t *r, uint32_t n);
int clt_common_float(int fn, int width, const float *x, const float *y, const float *z, float *r, uint32_t n);
int clt_common_double(int fn, int width, const double *x, const double *y, const double *z, double *r,
                      uint32_t n);
int clt_geom_float(int fn, int width, const float *x, const float *y, float *r, uint32_t n);
int clt_geom_double(int fn, int width, const double *x, const double *y, double *r, uint32_t n);

int clt_dispatch(int32_t op, const int32_t p[4], void *const in_all[CLT_MAX_IN], void *const out_all[CLT_MAX_OUT],
                 uint32_t first, uint32_t n) {
  clt_array_shape_t si[CLT_MAX_IN], so[CLT_MAX_OUT];
  if (clt_shapes(op, p, si, so)) return -1;
  if (first % CLT_BLOCK || n % CLT_BLOCK) return -1;
  /* This block's part of each array. */
  void *in[CLT_MAX_IN], *out[CLT_MAX_OUT];
  for (int i = 0; i < CLT_MAX_IN; i++)
    in[i] = in_all[i] ? (char *)in_all[i] + (size_t)first * si[i].num / si[i].den * si[i].size : 0;
  for (int i = 0; i < CLT_MAX_OUT; i++)
    out[i] = out_all[i] ? (char *)out_all[i] + (size_t)first * so[i].num / so[i].den * so[i].size : 0;
  switch (op) {
  case CLTO_MATH_F32:
    return clt_math_f32(p[0], p[1], p[2], in[0], in[1], in[2], in[3], out[0], out[1], out[1], out[1], out[2],
                        out[2], out[2], n);
  case CLTO_MATH_F64:
    return clt_math_f64(p[0], p[1], p[2], in[0], in[1], in[2], in[3], out[0], out[1], out[1], out[1], out[2],
                        out[2], out[2], n);
  case CLTO_INT:
    switch (p[0]) {
#define CLT_INT_CASE(T) \
  case CLTT_##T: return clt_int_##T(p[1], p[2], in[0], in[1], in[2], out[0], n);
      CLT_INT_CASE(char) CLT_INT_CASE(uchar) CLT_INT_CASE(short) CLT_INT_CASE(ushort)
      CLT_INT_CASE(int) CLT_INT_CASE(uint) CLT_INT_CASE(long) CLT_INT_CASE(ulong)
    }
    return -1;
  case CLTO_INT24:
    if (p[0] == CLTT_int) return clt_int24_int(p[1], p[2], in[0], in[1], in[2], out[0], n);
    if (p[0] == CLTT_uint) return clt_int24_uint(p[1], p[2], in[0], in[1], in[2], out[0], n);
    return -1;
  case CLTO_UPSAMPLE:
    switch (p[0]) {
    case CLTT_char: return clt_upsample_char(p[1], in[0], in[1], out[0], n);
    case CLTT_uchar: return clt_upsample_uchar(p[1], in[0], in[1], out[0], n);
    case CLTT_short: return clt_upsample_short(p[1], in[0], in[1], out[0], n);
    case CLTT_ushort: return clt_upsample_ushort(p[1], in[0], in[1], out[0], n);
    case CLTT_int: return clt_upsample_int(p[1], in[0], in[1], out[0], n);
    case CLTT_uint: return clt_upsample_uint(p[1], in[0], in[1], out[0], n);
    }
    return -1;
  case CLTO_CONVERT:
    return clt_convert(p[0], p[1], p[2], p[3], in[0], out[0], n);
  case CLTO_HALF_STORE:
    if (p[0] == CLTT_float) return clt_half_store_f32(p[1], p[2], p[3], in[0], out[0], n);
    if (p[0] == CLTT_double) return clt_half_store_f64(p[1], p[2], p[3], in[0], out[0], n);
    return -1;
  case CLTO_HALF_LOAD:
    return clt_half_load(p[0], p[1], in[0], out[0], n);
  case CLTO_VLOADSTORE:
    switch (p[0]) {
#define CLT_VLS_CASE(T, size, sgn, fp)                                                        \
  case CLTT_##T: return clt_vls_##T(p[1], in[0], out[0], n);
      CLT_TYPES(CLT_VLS_CASE)
    }
    return -1;
  case CLTO_REL:
    if (p[0] == CLTT_float) return clt_rel_float(p[1], p[2], in[0], in[1], out[0], n);
    if (p[0] == CLTT_double) return clt_rel_double(p[1], p[2], in[0], in[1], out[0], n);
    return -1;
  case CLTO_SELECT:
    switch (p[0]) {
#define CLT_SEL_CASE(T, size, sgn, fp)                                                        \
  case CLTT_##T: return clt_select_##T(p[2], p[1], in[0], in[1], in[2], in[2], in[3], out[0], n);
      CLT_TYPES(CLT_SEL_CASE)
    }
    return -1;
  case CLTO_ANYALL:
    switch (p[0]) {
    case CLTT_char: return clt_anyall_char(p[2], p[1], in[0], out[0], n);
    case CLTT_short: return clt_anyall_short(p[2], p[1], in[0], out[0], n);
    case CLTT_int: return clt_anyall_int(p[2], p[1], in[0], out[0], n);
    case CLTT_long: return clt_anyall_long(p[2], p[1], in[0], out[0], n);
    }
    return -1;
  case CLTO_COMMON:
    if (p[0] == CLTT_float) return clt_common_float(p[1], p[2], in[0], in[1], in[2], out[0], n);
    if (p[0] == CLTT_double) return clt_common_double(p[1], p[2], in[0], in[1], in[2], out[0], n);
    return -1;
  case CLTO_GEOM:
    if (p[0] == CLTT_float) return clt_geom_float(p[1], p[2], in[0], in[1], out[0], n);
    if (p[0] == CLTT_double) return clt_geom_double(p[1], p[2], in[0], in[1], out[0], n);
    return -1;
  case CLTO_SHUFFLE:
    switch (p[0]) {
#define CLT_SH_CASE(T, size, sgn, fp)                                                         \
  case CLTT_##T: return clt_shuffle_##T(p[3], p[1], p[2], in[0], in[1], in[2], out[0], n);
      CLT_TYPES(CLT_SH_CASE)
    }
    return -1;
  }
  return -1;
}

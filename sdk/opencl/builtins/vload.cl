/* OpenCL 1.2 vector data load and store functions (section 6.12.7):
 * vloadn / vstoren for every element type, vload_half[n], vloada_half[n],
 * vstore_half[n] and vstorea_half[n] from float and double with every
 * rounding mode, for the __global, __local, __constant (loads) and
 * __private address spaces.
 *
 * Pointers need only the element's alignment, so accesses are per element
 * (the compiler merges what it can). half is read and written as its 16
 * bits: no cl_khr_fp16 needed. */
#include "clc_internal.h"

/* ---- vloadn / vstoren ---------------------------------------------------- */
#define VLOAD_AS(T, AS)                                                                       \
  _CLC_DEF T##2 vload2(size_t o, const AS T *p) { p += o * 2; return (T##2)(p[0], p[1]); }    \
  _CLC_DEF T##3 vload3(size_t o, const AS T *p) { p += o * 3; return (T##3)(p[0], p[1], p[2]); } \
  _CLC_DEF T##4 vload4(size_t o, const AS T *p) { p += o * 4; return (T##4)(vload2(0, p), vload2(1, p)); } \
  _CLC_DEF T##8 vload8(size_t o, const AS T *p) { p += o * 8; return (T##8)(vload4(0, p), vload4(1, p)); } \
  _CLC_DEF T##16 vload16(size_t o, const AS T *p) { p += o * 16; return (T##16)(vload8(0, p), vload8(1, p)); }
#define VSTORE_AS(T, AS)                                                                      \
  _CLC_DEF void vstore2(T##2 v, size_t o, AS T *p) { p += o * 2; p[0] = v.s0; p[1] = v.s1; }  \
  _CLC_DEF void vstore3(T##3 v, size_t o, AS T *p) { p += o * 3; p[0] = v.s0; p[1] = v.s1; p[2] = v.s2; } \
  _CLC_DEF void vstore4(T##4 v, size_t o, AS T *p) { p += o * 4; vstore2(v.lo, 0, p); vstore2(v.hi, 1, p); } \
  _CLC_DEF void vstore8(T##8 v, size_t o, AS T *p) { p += o * 8; vstore4(v.lo, 0, p); vstore4(v.hi, 1, p); } \
  _CLC_DEF void vstore16(T##16 v, size_t o, AS T *p) { p += o * 16; vstore8(v.lo, 0, p); vstore8(v.hi, 1, p); }
#define VLOADSTORE(T)                                                                         \
  VLOAD_AS(T, __global) VLOAD_AS(T, __local) VLOAD_AS(T, __constant) VLOAD_AS(T, __private)   \
  VSTORE_AS(T, __global) VSTORE_AS(T, __local) VSTORE_AS(T, __private)
CLC_ALL_TYPES(VLOADSTORE)

/* ---- half <-> float / double ---------------------------------------------- */
_CLC_INL float __clc_half_to_float(ushort h) {
  uint s = (uint)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 1023u;
  if (e == 0) return as_float(s | as_uint((float)m * 0x1p-24f)); /* zero, subnormal */
  if (e == 31) return as_float(s | 0x7f800000u | (m << 13));      /* inf, NaN */
  return as_float(s | ((e + 112u) << 23) | (m << 13));
}

/* Rounding of a magnitude to an integer, by mode, for a value of sign neg:
 * 0 rte, 1 rtz, 2 rtp, 3 rtn. */
_CLC_INL double __clc_round_mag(double m, int mode, int neg) {
  switch (mode) {
  case 0: return rint(m);
  case 1: return trunc(m);
  case 2: return neg ? trunc(m) : ceil(m);
  default: return neg ? ceil(m) : trunc(m);
  }
}

/* double -> half bits, rounded once (float sources convert to double
 * exactly first, so no double rounding). */
_CLC_INL ushort __clc_double_to_half(double x, int mode) {
  ushort s = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isnan(x)) return s | 0x7e00 | (ushort)((as_ulong(x) >> 42) & 0x1ff);
  if (isinf(x)) return s | 0x7c00;
  if (a == 0.0) return s;
  int e = ilogb(a);
  int qe = e < -14 ? -24 : e - 10; /* exponent of the half ulp at a */
  double v = ldexp(__clc_round_mag(ldexp(a, -qe), mode, s != 0), qe);
  if (v > 65504.0) {
    /* nearest and away-from-zero modes overflow to inf, the others stop at the largest half */
    int up = mode == 0 || (mode == 2 && !s) || (mode == 3 && s);
    return s | (up ? 0x7c00 : 0x7bff);
  }
  if (v < 0x1p-14) return s | (ushort)(v * 0x1p24); /* subnormal (or the smallest normal's carry) */
  int ve = ilogb(v);
  return s | (ushort)((ve + 15) << 10) | (ushort)(ldexp(v, 10 - ve) - 1024.0);
}

/* ---- vload_half[n], vloada_half[n] --------------------------------------- */
#define VLOAD_HALF_AS(AS)                                                                     \
  _CLC_DEF float vload_half(size_t o, const AS half *p) {                                     \
    return __clc_half_to_float(((const AS ushort *)p)[o]);                                    \
  }                                                                                           \
  _CLC_DEF float2 vload_half2(size_t o, const AS half *p) {                                   \
    return (float2)(vload_half(o * 2, p), vload_half(o * 2 + 1, p));                          \
  }                                                                                           \
  _CLC_DEF float3 vload_half3(size_t o, const AS half *p) {                                   \
    return (float3)(vload_half(o * 3, p), vload_half(o * 3 + 1, p), vload_half(o * 3 + 2, p)); \
  }                                                                                           \
  _CLC_DEF float4 vload_half4(size_t o, const AS half *p) {                                   \
    return (float4)(vload_half2(o * 2, p), vload_half2(o * 2 + 1, p));                        \
  }                                                                                           \
  _CLC_DEF float8 vload_half8(size_t o, const AS half *p) {                                   \
    return (float8)(vload_half4(o * 2, p), vload_half4(o * 2 + 1, p));                        \
  }                                                                                           \
  _CLC_DEF float16 vload_half16(size_t o, const AS half *p) {                                 \
    return (float16)(vload_half8(o * 2, p), vload_half8(o * 2 + 1, p));                       \
  }                                                                                           \
  /* vloada: aligned to the vector size; 3-wide ones are 4 halves apart */                   \
  _CLC_DEF float vloada_half(size_t o, const AS half *p) { return vload_half(o, p); }         \
  _CLC_DEF float2 vloada_half2(size_t o, const AS half *p) { return vload_half2(o, p); }      \
  _CLC_DEF float3 vloada_half3(size_t o, const AS half *p) { return vload_half3(0, p + o * 4); } \
  _CLC_DEF float4 vloada_half4(size_t o, const AS half *p) { return vload_half4(o, p); }      \
  _CLC_DEF float8 vloada_half8(size_t o, const AS half *p) { return vload_half8(o, p); }      \
  _CLC_DEF float16 vloada_half16(size_t o, const AS half *p) { return vload_half16(o, p); }
VLOAD_HALF_AS(__global)
VLOAD_HALF_AS(__local)
VLOAD_HALF_AS(__constant)
VLOAD_HALF_AS(__private)

/* ---- vstore_half[n], vstorea_half[n] ---------------------------------------
 * F: float or double; R: suffix; MODE: its number for __clc_double_to_half. */
#define VSTORE_HALF_MODE(F, AS, R, MODE)                                                      \
  _CLC_DEF void vstore_half##R(F v, size_t o, AS half *p) {                                   \
    ((AS ushort *)p)[o] = __clc_double_to_half((double)v, MODE);                              \
  }                                                                                           \
  _CLC_DEF void vstore_half2##R(F##2 v, size_t o, AS half *p) {                               \
    vstore_half##R(v.s0, o * 2, p); vstore_half##R(v.s1, o * 2 + 1, p);                      \
  }                                                                                           \
  _CLC_DEF void vstore_half3##R(F##3 v, size_t o, AS half *p) {                               \
    vstore_half##R(v.s0, o * 3, p); vstore_half##R(v.s1, o * 3 + 1, p);                       \
    vstore_half##R(v.s2, o * 3 + 2, p);                                                       \
  }                                                                                           \
  _CLC_DEF void vstore_half4##R(F##4 v, size_t o, AS half *p) {                               \
    vstore_half2##R(v.lo, o * 2, p); vstore_half2##R(v.hi, o * 2 + 1, p);                     \
  }                                                                                           \
  _CLC_DEF void vstore_half8##R(F##8 v, size_t o, AS half *p) {                               \
    vstore_half4##R(v.lo, o * 2, p); vstore_half4##R(v.hi, o * 2 + 1, p);                    \
  }                                                                                           \
  _CLC_DEF void vstore_half16##R(F##16 v, size_t o, AS half *p) {                             \
    vstore_half8##R(v.lo, o * 2, p); vstore_half8##R(v.hi, o * 2 + 1, p);                    \
  }                                                                                           \
  _CLC_DEF void vstorea_half2##R(F##2 v, size_t o, AS half *p) { vstore_half2##R(v, o, p); }  \
  _CLC_DEF void vstorea_half3##R(F##3 v, size_t o, AS half *p) { vstore_half3##R(v, 0, p + o * 4); } \
  _CLC_DEF void vstorea_half4##R(F##4 v, size_t o, AS half *p) { vstore_half4##R(v, o, p); }  \
  _CLC_DEF void vstorea_half8##R(F##8 v, size_t o, AS half *p) { vstore_half8##R(v, o, p); }  \
  _CLC_DEF void vstorea_half16##R(F##16 v, size_t o, AS half *p) { vstore_half16##R(v, o, p); }
#define VSTORE_HALF_AS(F, AS)                                                                 \
  VSTORE_HALF_MODE(F, AS, , 0) VSTORE_HALF_MODE(F, AS, _rte, 0) VSTORE_HALF_MODE(F, AS, _rtz, 1) \
  VSTORE_HALF_MODE(F, AS, _rtp, 2) VSTORE_HALF_MODE(F, AS, _rtn, 3)
VSTORE_HALF_AS(float, __global)
VSTORE_HALF_AS(float, __local)
VSTORE_HALF_AS(float, __private)
VSTORE_HALF_AS(double, __global)
VSTORE_HALF_AS(double, __local)
VSTORE_HALF_AS(double, __private)

/* ---- OpenCL C 2.0 / 3.0: the generic address space ---------------------------
 * Where the library is built with the generic address space (as
 * sdk/opencl/CMakeLists.txt builds it, so one archive serves 1.x and 3.0
 * kernels), an unqualified pointer is generic: the same definitions once
 * more with no address-space word give the PU9CLgeneric overloads. */
#ifdef __opencl_c_generic_address_space
#define VLOADSTORE_GENERIC(T) VLOAD_AS(T, ) VSTORE_AS(T, )
CLC_ALL_TYPES(VLOADSTORE_GENERIC)
VLOAD_HALF_AS()
VSTORE_HALF_AS(float, )
VSTORE_HALF_AS(double, )
#endif

/* OpenCL 1.2 geometric functions (section 6.12.5): float and double
 * scalars, 2, 3 and 4 wide; fast_* for float.
 *
 * Float: summed in double, so no intermediate overflows or underflows and
 * the result is the exact one rounded once. Double: components scaled by a
 * power of two when the largest is outside [2^-500, 2^500], as the spec's
 * "avoid overflow/underflow" asks. */
#include "clc_internal.h"

_CLC_DEF float dot(float x, float y) { return x * y; }
_CLC_DEF double dot(double x, double y) { return x * y; }
#define DOT(T, N, ...)                                                                        \
  _CLC_DEF T dot(T##N x, T##N y) { T##N p = x * y; return __VA_ARGS__; }
DOT(float, 2, p.s0 + p.s1)
DOT(float, 3, p.s0 + p.s1 + p.s2)
DOT(float, 4, p.s0 + p.s1 + p.s2 + p.s3)
DOT(double, 2, p.s0 + p.s1)
DOT(double, 3, p.s0 + p.s1 + p.s2)
DOT(double, 4, p.s0 + p.s1 + p.s2 + p.s3)

_CLC_DEF float3 cross(float3 a, float3 b) { return a.yzx * b.zxy - a.zxy * b.yzx; }
_CLC_DEF double3 cross(double3 a, double3 b) { return a.yzx * b.zxy - a.zxy * b.yzx; }
_CLC_DEF float4 cross(float4 a, float4 b) { return (float4)(cross(a.xyz, b.xyz), 0.0f); }
_CLC_DEF double4 cross(double4 a, double4 b) { return (double4)(cross(a.xyz, b.xyz), 0.0); }

/* Float: length and normalize through double. */
#define GEOM_FLOAT(N, DN, CVT)                                                                \
  _CLC_DEF float length(float##N x) {                                                         \
    DN d = CVT(x);                                                                            \
    return (float)__builtin_sqrt(dot(d, d));                                                  \
  }                                                                                           \
  _CLC_DEF float distance(float##N x, float##N y) { return length(x - y); }                   \
  _CLC_DEF float##N normalize(float##N x) {                                                   \
    DN d = CVT(x);                                                                            \
    double s = dot(d, d);                                                                     \
    if (s == 0.0) return x;                                                                   \
    if (__builtin_isinf(s)) { /* infinite components become +-1, the others 0 */            \
      d = copysign(CVT(as_float##N(isinf(x) & as_int##N((float##N)1.0f))), d);                 \
      s = dot(d, d);                                                                          \
    }                                                                                         \
    return GEOM_TO_FLOAT##N(d / __builtin_sqrt(s));                                           \
  }                                                                                           \
  _CLC_DEF float fast_length(float##N x) { return length(x); }                                \
  _CLC_DEF float fast_distance(float##N x, float##N y) { return distance(x, y); }             \
  _CLC_DEF float##N fast_normalize(float##N x) { return normalize(x); }
#define GEOM_TO_FLOAT(d) ((float)(d))
#define GEOM_TO_FLOAT2(d) ((float2)((float)(d).s0, (float)(d).s1))
#define GEOM_TO_FLOAT3(d) ((float3)((float)(d).s0, (float)(d).s1, (float)(d).s2))
#define GEOM_TO_FLOAT4(d) ((float4)((float)(d).s0, (float)(d).s1, (float)(d).s2, (float)(d).s3))

#define TO_D2(x) ((double2)((double)(x).s0, (double)(x).s1))
#define TO_D3(x) ((double3)((double)(x).s0, (double)(x).s1, (double)(x).s2))
#define TO_D4(x) ((double4)((double)(x).s0, (double)(x).s1, (double)(x).s2, (double)(x).s3))
GEOM_FLOAT(2, double2, TO_D2)
GEOM_FLOAT(3, double3, TO_D3)
GEOM_FLOAT(4, double4, TO_D4)

/* Double: the largest magnitude's exponent sets the scale. */
#define GEOM_DOUBLE(N, MAXABS)                                                                \
  _CLC_INL double##N __clc_scaled(double##N x, int *e) {                                      \
    double##N a = fabs(x);                                                          \
    double m = MAXABS;                                                                        \
    *e = 0;                                                                                   \
    if (m > 0x1p500 || (m < 0x1p-500 && m > 0.0)) {                                           \
      *e = ilogb(m);                                                                          \
      x = ldexp(x, -*e);                                                                      \
    }                                                                                         \
    return x;                                                                                 \
  }                                                                                           \
  _CLC_DEF double length(double##N x) {                                                       \
    if (any(isinf(x))) return __builtin_inf();                                                \
    int e;                                                                                    \
    double##N s = __clc_scaled(x, &e);                                                        \
    return ldexp(__builtin_sqrt(dot(s, s)), e);                                               \
  }                                                                                           \
  _CLC_DEF double distance(double##N x, double##N y) { return length(x - y); }                \
  _CLC_DEF double##N normalize(double##N x) {                                                 \
    if (any(isinf(x)))                                                                        \
      x = copysign(as_double##N(isinf(x) & as_long##N((double##N)1.0)), x);                    \
    int e;                                                                                    \
    double##N s = __clc_scaled(x, &e);                                                        \
    double l = dot(s, s);                                                                     \
    if (l == 0.0) return x;                                                                   \
    return s / __builtin_sqrt(l);                                                             \
  }
GEOM_DOUBLE(2, __builtin_fmax(a.s0, a.s1))
GEOM_DOUBLE(3, __builtin_fmax(__builtin_fmax(a.s0, a.s1), a.s2))
GEOM_DOUBLE(4, __builtin_fmax(__builtin_fmax(a.s0, a.s1), __builtin_fmax(a.s2, a.s3)))

/* Scalars: the magnitude. */
#define GEOM_SCALAR(T)                                                                        \
  _CLC_DEF T length(T x) { return __builtin_fabs(x); }                                        \
  _CLC_DEF T distance(T x, T y) { return __builtin_fabs(x - y); }                             \
  _CLC_DEF T normalize(T x) {                                                                 \
    if (__builtin_isnan(x) || x == (T)0) return x;                                            \
    return __builtin_copysign((T)1, x);                                                       \
  }
GEOM_SCALAR(double)
GEOM_SCALAR(float)
_CLC_DEF float fast_length(float x) { return length(x); }
_CLC_DEF float fast_distance(float x, float y) { return distance(x, y); }
_CLC_DEF float fast_normalize(float x) { return normalize(x); }

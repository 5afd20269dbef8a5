/* OpenCL 1.2 common functions (section 6.12.4), float and double, every
 * width, with the scalar-argument forms (clamp(float4, float, float),
 * mix(float4, float4, float), step(float, float4), ...). clamp, max and min
 * of the integer types are in integer.cl. */
#include "clc_internal.h"

#define COMMON(T, PI)                                                                         \
  _CLC_DEF T clamp(T x, T lo, T hi) { return __builtin_fmin(__builtin_fmax(x, lo), hi); }    \
  _CLC_DEF T degrees(T r) { return r * ((T)180 / PI); }                                       \
  _CLC_DEF T radians(T d) { return d * (PI / (T)180); }                                       \
  _CLC_DEF T max(T x, T y) { return __builtin_fmax(x, y); }                                   \
  _CLC_DEF T min(T x, T y) { return __builtin_fmin(x, y); }                                   \
  _CLC_DEF T mix(T x, T y, T a) { return x + (y - x) * a; }                                   \
  _CLC_DEF T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }                             \
  _CLC_DEF T smoothstep(T e0, T e1, T x) {                                                    \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                                            \
    return t * t * ((T)3 - (T)2 * t);                                                         \
  }                                                                                           \
  _CLC_DEF T sign(T x) {                                                                      \
    if (__builtin_isnan(x)) return (T)0;                                                      \
    if (x > (T)0) return (T)1;                                                                \
    if (x < (T)0) return (T)-1;                                                               \
    return x; /* +-0 */                                                                       \
  }                                                                                           \
  CLC_V3(T, clamp, T, T, T) CLC_V3SS(T, clamp, T, T)                                          \
  CLC_V1(T, degrees, T) CLC_V1(T, radians, T) CLC_V1(T, sign, T)                              \
  CLC_V2(T, max, T, T) CLC_V2S(T, max, T, T) CLC_V2(T, min, T, T) CLC_V2S(T, min, T, T)       \
  CLC_V3(T, mix, T, T, T) CLC_V2(T, step, T, T) CLC_V3(T, smoothstep, T, T, T)                \
  COMMON_SCALAR_FIRST(T, 2) COMMON_SCALAR_FIRST(T, 3) COMMON_SCALAR_FIRST(T, 4)               \
  COMMON_SCALAR_FIRST(T, 8) COMMON_SCALAR_FIRST(T, 16)

/* The forms whose scalar arguments come first (step, smoothstep) or last (mix). */
#define COMMON_SCALAR_FIRST(T, N)                                                             \
  _CLC_DEF T##N mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)a); }                      \
  _CLC_DEF T##N step(T edge, T##N x) { return step((T##N)edge, x); }                          \
  _CLC_DEF T##N smoothstep(T e0, T e1, T##N x) { return smoothstep((T##N)e0, (T##N)e1, x); }

COMMON(float, M_PI_F)
COMMON(double, M_PI)

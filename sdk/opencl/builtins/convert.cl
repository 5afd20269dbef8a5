/* OpenCL 1.2 explicit conversions (section 6.2.3): convert_<dst>[n][_sat]
 * [_rte|_rtz|_rtp|_rtn](<src>[n]) for every pair of the ten element types
 * and every width: 5400 overloads, generated below from one scalar rule
 * per (destination class, source class).
 *
 * integer <- integer: wraps (modulo), _sat clamps; rounding is moot.
 * integer <- float:   rounds by the mode (default toward zero), then
 *                     converts; _sat maps NaN to 0 and clamps.
 * float   <- any:     the conversion rounds to nearest even; for _rtz,
 *                     _rtp and _rtn the result is then stepped one ulp
 *                     when it lies on the wrong side of the exact value
 *                     (the comparison is exact: through double for sources
 *                     up to 32 bits, in the integer type for long/ulong). */
#include "clc_internal.h"

/* ---- exact comparisons: the sign of r - x --------------------------------- */
#define CVT_CMP_VIA_DOUBLE(D, S)                                                              \
  _CLC_INL int __clc_cvt_cmp(D r, S x) { return ((double)r > (double)x) - ((double)r < (double)x); }
#define CVT_CMP_SRCS(D)                                                                       \
  CVT_CMP_VIA_DOUBLE(D, char) CVT_CMP_VIA_DOUBLE(D, uchar) CVT_CMP_VIA_DOUBLE(D, short)       \
  CVT_CMP_VIA_DOUBLE(D, ushort) CVT_CMP_VIA_DOUBLE(D, int) CVT_CMP_VIA_DOUBLE(D, uint)        \
  CVT_CMP_VIA_DOUBLE(D, float) CVT_CMP_VIA_DOUBLE(D, double)                                  \
  _CLC_INL int __clc_cvt_cmp(D r, long x) {                                                   \
    if (r >= (D)0x1p63) return 1;                                                             \
    long v = (long)r; /* r is an integer in range here: exact */                              \
    return (v > x) - (v < x);                                                                 \
  }                                                                                           \
  _CLC_INL int __clc_cvt_cmp(D r, ulong x) {                                                  \
    if (r >= (D)0x1p64) return 1;                                                             \
    ulong v = (ulong)r;                                                                       \
    return (v > x) - (v < x);                                                                 \
  }
CVT_CMP_SRCS(float)
CVT_CMP_SRCS(double)

/* ---- scalar rules, one per class pair and mode ----------------------------
 * Arguments: D, DMIN, DMAX (integer limits), FMIN, FMAXP1 (the same as
 * floating values: DMIN and DMAX + 1, powers of two), S. */

/* integer <- integer */
#define CVT_II_MODE(D, DMIN, DMAX, S, R)                                                      \
  _CLC_DEF D convert_##D##R(S x) { return (D)x; }                                             \
  _CLC_DEF D convert_##D##_sat##R(S x) {                                                      \
    if (x < (S)0) /* only for signed S */                                                     \
      return (long)x < (long)(DMIN) ? (D)(DMIN) : (D)x;                                       \
    return (ulong)x > (ulong)(DMAX) ? (D)(DMAX) : (D)x;                                       \
  }
#define CVT_II(D, DMIN, DMAX, FMIN, FMAXP1, S)                                                \
  CVT_II_MODE(D, DMIN, DMAX, S, ) CVT_II_MODE(D, DMIN, DMAX, S, _rte)                         \
  CVT_II_MODE(D, DMIN, DMAX, S, _rtz) CVT_II_MODE(D, DMIN, DMAX, S, _rtp)                     \
  CVT_II_MODE(D, DMIN, DMAX, S, _rtn)                                                         \
  CVT_VEC_SAT(D, S)

/* integer <- floating: ROUND is the mode's rounding to an integral value.
 * Without _sat an out-of-range value's result is implementation-defined:
 * here the saturated one, because a plain C cast would be poison in LLVM,
 * and poison let the RISC-V back end merge a 3-wide uchar result without
 * masking, so one out-of-range lane overwrote its neighbours (measured on
 * RV64: convert_uchar3(float3)). */
#define CVT_IF_MODE(D, DMIN, DMAX, FMIN, FMAXP1, S, R, ROUND)                                 \
  _CLC_DEF D convert_##D##_sat##R(S x) {                                                      \
    if (x != x) return (D)0;                                                                  \
    S r = ROUND(x);                                                                           \
    if (r >= (S)(FMAXP1)) return (D)(DMAX);                                                   \
    if (r < (S)(FMIN)) return (D)(DMIN);                                                      \
    return (D)r;                                                                              \
  }                                                                                           \
  _CLC_DEF D convert_##D##R(S x) { return convert_##D##_sat##R(x); }
#define CVT_IF(D, DMIN, DMAX, FMIN, FMAXP1, S)                                                \
  CVT_IF_MODE(D, DMIN, DMAX, FMIN, FMAXP1, S, , trunc)                                        \
  CVT_IF_MODE(D, DMIN, DMAX, FMIN, FMAXP1, S, _rte, rint)                                     \
  CVT_IF_MODE(D, DMIN, DMAX, FMIN, FMAXP1, S, _rtz, trunc)                                    \
  CVT_IF_MODE(D, DMIN, DMAX, FMIN, FMAXP1, S, _rtp, ceil)                                     \
  CVT_IF_MODE(D, DMIN, DMAX, FMIN, FMAXP1, S, _rtn, floor)                                    \
  CVT_VEC_SAT(D, S)

/* floating <- integer or floating */
#define CVT_F_MODES(D, S)                                                                     \
  _CLC_DEF D convert_##D(S x) { return (D)x; }                                                \
  _CLC_DEF D convert_##D##_rte(S x) { return (D)x; }                                          \
  _CLC_DEF D convert_##D##_rtz(S x) {                                                         \
    D r = (D)x;                                                                               \
    int c = __clc_cvt_cmp(r, x);                                                              \
    return (c != 0 && (c > 0) == (x > (S)0)) ? nextafter(r, (D)0) : r;                        \
  }                                                                                           \
  _CLC_DEF D convert_##D##_rtp(S x) {                                                         \
    D r = (D)x;                                                                               \
    return __clc_cvt_cmp(r, x) < 0 ? nextafter(r, (D)INFINITY) : r;                           \
  }                                                                                           \
  _CLC_DEF D convert_##D##_rtn(S x) {                                                         \
    D r = (D)x;                                                                               \
    return __clc_cvt_cmp(r, x) > 0 ? nextafter(r, -(D)INFINITY) : r;                          \
  }                                                                                           \
  CVT_VEC(D, S, ) CVT_VEC(D, S, _rte) CVT_VEC(D, S, _rtz) CVT_VEC(D, S, _rtp) CVT_VEC(D, S, _rtn)
#define CVT_FI(D, DMIN, DMAX, FMIN, FMAXP1, S) CVT_F_MODES(D, S)
#define CVT_FF(D, DMIN, DMAX, FMIN, FMAXP1, S) CVT_F_MODES(D, S)

/* ---- vector widths, per component ------------------------------------------ */
#define CVT_VEC(D, S, SUF)                                                                    \
  _CLC_DEF D##2 convert_##D##2##SUF(S##2 x) { return (D##2)(convert_##D##SUF(x.s0), convert_##D##SUF(x.s1)); } \
  _CLC_DEF D##3 convert_##D##3##SUF(S##3 x) {                                                 \
    return (D##3)(convert_##D##SUF(x.s0), convert_##D##SUF(x.s1), convert_##D##SUF(x.s2));     \
  }                                                                                           \
  _CLC_DEF D##4 convert_##D##4##SUF(S##4 x) { return (D##4)(convert_##D##2##SUF(x.lo), convert_##D##2##SUF(x.hi)); } \
  _CLC_DEF D##8 convert_##D##8##SUF(S##8 x) { return (D##8)(convert_##D##4##SUF(x.lo), convert_##D##4##SUF(x.hi)); } \
  _CLC_DEF D##16 convert_##D##16##SUF(S##16 x) {                                              \
    return (D##16)(convert_##D##8##SUF(x.lo), convert_##D##8##SUF(x.hi));                     \
  }
/* An integer destination: every mode with and without _sat. */
#define CVT_VEC_SAT(D, S)                                                                     \
  CVT_VEC(D, S, ) CVT_VEC(D, S, _rte) CVT_VEC(D, S, _rtz) CVT_VEC(D, S, _rtp) CVT_VEC(D, S, _rtn) \
  CVT_VEC(D, S, _sat) CVT_VEC(D, S, _sat_rte) CVT_VEC(D, S, _sat_rtz) CVT_VEC(D, S, _sat_rtp)   \
  CVT_VEC(D, S, _sat_rtn)

/* ---- every pair ---------------------------------------------------------- */
/* Destinations: type, class (I integer, F floating), limits. */
#define CVT_DSTS(M)                                                                           \
  M(char, I, CHAR_MIN, CHAR_MAX, -0x1p7, 0x1p7)                                               \
  M(uchar, I, 0, UCHAR_MAX, 0.0, 0x1p8)                                                       \
  M(short, I, SHRT_MIN, SHRT_MAX, -0x1p15, 0x1p15)                                            \
  M(ushort, I, 0, USHRT_MAX, 0.0, 0x1p16)                                                     \
  M(int, I, INT_MIN, INT_MAX, -0x1p31, 0x1p31)                                                \
  M(uint, I, 0, UINT_MAX, 0.0, 0x1p32)                                                        \
  M(long, I, LONG_MIN, LONG_MAX, -0x1p63, 0x1p63)                                             \
  M(ulong, I, 0, ULONG_MAX, 0.0, 0x1p64)                                                      \
  M(float, F, 0, 0, 0.0, 0.0)                                                                 \
  M(double, F, 0, 0, 0.0, 0.0)
#define CVT_SRCS(M, ...)                                                                      \
  M(__VA_ARGS__, char, I) M(__VA_ARGS__, uchar, I) M(__VA_ARGS__, short, I)                   \
  M(__VA_ARGS__, ushort, I) M(__VA_ARGS__, int, I) M(__VA_ARGS__, uint, I)                    \
  M(__VA_ARGS__, long, I) M(__VA_ARGS__, ulong, I) M(__VA_ARGS__, float, F)                   \
  M(__VA_ARGS__, double, F)
#define CVT_PAIR(D, DC, DMIN, DMAX, FMIN, FMAXP1, S, SC) CVT_##DC##SC(D, DMIN, DMAX, FMIN, FMAXP1, S)
#define CVT_FOR_DST(D, DC, DMIN, DMAX, FMIN, FMAXP1) CVT_SRCS(CVT_PAIR, D, DC, DMIN, DMAX, FMIN, FMAXP1)
CVT_DSTS(CVT_FOR_DST)

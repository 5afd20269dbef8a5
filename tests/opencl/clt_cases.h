/* The built-in test cases, said once for the OpenCL C driver
 * (clt_driver.cl, which applies the built-ins on the device or the host) and
 * the C checker (clt_check.c, which compares with a long double / exact
 * reference). Math rows: X(name, kind, float ulp limit, double ulp limit);
 * a limit < 0 means the specification sets none (measured, not enforced).
 * Limits: OpenCL 1.2 tables 7.1 (float) and 7.2 (double). Kinds say the
 * signature: U unary, B binary, T ternary, I (x, int n), R result int,
 * P2 (x, T *out2), PI (x, int *out), Q (x, y, int *out). */
#ifndef CLT_CASES_H
#define CLT_CASES_H

#define CLT_MATH_BOTH(X)                                                                         \
  X(acos, U, 4, 4) X(acosh, U, 4, 4) X(acospi, U, 5, 5) X(asin, U, 4, 4) X(asinh, U, 4, 4)     \
  X(asinpi, U, 5, 5) X(atan, U, 5, 5) X(atanh, U, 5, 5) X(atanpi, U, 5, 5) X(cbrt, U, 2, 2)    \
  X(ceil, U, 0, 0) X(cos, U, 4, 4) X(cosh, U, 4, 4) X(cospi, U, 4, 4) X(erfc, U, 16, 16)       \
  X(erf, U, 16, 16) X(exp, U, 3, 3) X(exp2, U, 3, 3) X(exp10, U, 3, 3) X(expm1, U, 3, 3)       \
  X(fabs, U, 0, 0) X(floor, U, 0, 0) X(lgamma, U, -1, -1) X(log, U, 3, 3) X(log2, U, 3, 3)     \
  X(log10, U, 3, 3) X(log1p, U, 2, 2) X(logb, U, 0, 0) X(rint, U, 0, 0) X(round, U, 0, 0)      \
  X(rsqrt, U, 2, 2) X(sin, U, 4, 4) X(sinh, U, 4, 4) X(sinpi, U, 4, 4) X(sqrt, U, 3, 0)        \
  X(tan, U, 5, 5) X(tanh, U, 5, 5) X(tanpi, U, 6, 6) X(tgamma, U, 16, 16) X(trunc, U, 0, 0)    \
  X(atan2, B, 6, 6) X(atan2pi, B, 6, 6) X(copysign, B, 0, 0) X(fdim, B, 0, 0) X(fmax, B, 0, 0) \
  X(fmin, B, 0, 0) X(fmod, B, 0, 0) X(hypot, B, 4, 4) X(maxmag, B, 0, 0) X(minmag, B, 0, 0)    \
  X(nextafter, B, 0, 0) X(pow, B, 16, 16) X(powr, B, 16, 16) X(remainder, B, 0, 0)             \
  X(fma, T, 0, 0) X(mad, T, -1, -1)                                                           \
  X(ldexp, I, 0, 0) X(pown, I, 16, 16) X(rootn, I, 16, 16) X(ilogb, R, 0, 0)                  \
  X(fract, P2, 0, 0) X(modf, P2, 0, 0) X(sincos, P2, 4, 4) X(frexp, PI, 0, 0)                 \
  X(lgamma_r, PI, -1, -1) X(remquo, Q, 0, 0)
/* float only */
#define CLT_MATH_FLOAT_ONLY(X)                                                                \
  X(half_cos, U, 8192, -2) X(half_exp, U, 8192, -2) X(half_exp2, U, 8192, -2)                  \
  X(half_exp10, U, 8192, -2) X(half_log, U, 8192, -2) X(half_log2, U, 8192, -2)                \
  X(half_log10, U, 8192, -2) X(half_recip, U, 8192, -2) X(half_rsqrt, U, 8192, -2)             \
  X(half_sin, U, 8192, -2) X(half_sqrt, U, 8192, -2) X(half_tan, U, 8192, -2)                  \
  X(half_divide, B, 8192, -2) X(half_powr, B, 8192, -2)                                       \
  X(native_cos, U, -1, -2) X(native_exp, U, -1, -2) X(native_exp2, U, -1, -2)                  \
  X(native_exp10, U, -1, -2) X(native_log, U, -1, -2) X(native_log2, U, -1, -2)                \
  X(native_log10, U, -1, -2) X(native_recip, U, -1, -2) X(native_rsqrt, U, -1, -2)             \
  X(native_sin, U, -1, -2) X(native_sqrt, U, -1, -2) X(native_tan, U, -1, -2)                  \
  X(native_divide, B, -1, -2) X(native_powr, B, -1, -2)

#define CLT_MATH(X) CLT_MATH_BOTH(X) CLT_MATH_FLOAT_ONLY(X)

enum clt_math_fn {
#define CLT_ENUM(name, kind, uf, ud) CLT_##name,
  CLT_MATH(CLT_ENUM)
#undef CLT_ENUM
  CLT_MATH_COUNT
};

/* Integer functions, every integer type. */
#define CLT_INT(X)                                                                            \
  X(abs) X(abs_diff) X(add_sat) X(hadd) X(rhadd) X(clamp) X(clz) X(mad_hi) X(mad_sat)   \
  X(max) X(min) X(mul_hi) X(rotate) X(sub_sat) X(popcount) X(upsample) X(mad24) X(mul24)
enum clt_int_fn {
#define CLT_ENUM(name) CLTI_##name,
  CLT_INT(CLT_ENUM)
#undef CLT_ENUM
  CLT_INT_COUNT
};

/* Element types, in convert_* order. */
#define CLT_TYPES(X)                                                                          \
  X(char, 1, 1, 0) X(uchar, 1, 0, 0) X(short, 2, 1, 0) X(ushort, 2, 0, 0) X(int, 4, 1, 0)      \
  X(uint, 4, 0, 0) X(long, 8, 1, 0) X(ulong, 8, 0, 0) X(float, 4, 1, 1) X(double, 8, 1, 1)
enum clt_type {
#define CLT_ENUM(t, size, sgn, fp) CLTT_##t,
  CLT_TYPES(CLT_ENUM)
#undef CLT_ENUM
  CLT_TYPE_COUNT
};

/* Rounding modes of convert_* and vstore_half: default, rte, rtz, rtp, rtn. */
enum clt_mode { CLTM_DEFAULT, CLTM_RTE, CLTM_RTZ, CLTM_RTP, CLTM_RTN, CLTM_COUNT };

/* Elements per driver call: a multiple of every width (1, 2, 3, 4, 8, 16). */
#define CLT_BLOCK 48

/* What one run of the driver does (clt_dispatch.c): op, then p[0..3]. */
enum clt_op {
  CLTO_MATH_F32,    /* p: fn, width, space */
  CLTO_MATH_F64,    /* p: fn, width, space */
  CLTO_INT,         /* p: type, fn, width */
  CLTO_INT24,       /* p: type (int or uint), fn, width */
  CLTO_UPSAMPLE,    /* p: hi type (char .. uint), width */
  CLTO_CONVERT,     /* p: dst type, src type, mode | sat << 4, width */
  CLTO_HALF_STORE,  /* p: src type (float, double), mode, width, aligned */
  CLTO_HALF_LOAD,   /* p: width, aligned */
  CLTO_VLOADSTORE,  /* p: type, width */
  CLTO_REL,         /* p: type (float, double), fn, width */
  CLTO_SELECT,      /* p: type, width, 0 select / 1 bitselect */
  CLTO_ANYALL,      /* p: type (char, short, int, long), width, 0 any / 1 all */
  CLTO_COMMON,      /* p: type (float, double), fn, width */
  CLTO_GEOM,        /* p: type (float, double), fn, width */
  CLTO_SHUFFLE,     /* p: type, in width, out width, 0 shuffle / 1 shuffle2 */
  CLTO_COUNT
};

#endif

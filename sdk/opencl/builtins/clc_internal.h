/* Shared by the pure OpenCL C built-ins (math, common, geometric, integer,
 * relational, convert, vload, shuffle): the overload attribute, the libm
 * entry points they wrap, and the macros that generate every vector width
 * from a scalar definition so no width is typed out by hand.
 *
 * The files are OpenCL C, compiled by the same clang and for the same target
 * as the kernels (-x cl -cl-std=CL1.2 -Xclang -finclude-default-header
 * -Xclang -cl-ext=+cl_khr_fp64): a built-in's mangled name and its vector
 * calling convention (i128 pairs on RV64, sret/indirect on RV32) are then
 * the ones the kernel's call expects, by construction. */
#ifndef CLC_INTERNAL_H
#define CLC_INTERNAL_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* A definition of one of opencl-c.h's overloads (same name, same mangling). */
#define _CLC_DEF __attribute__((overloadable))
/* Internal helpers: static, so they never clash with a kernel's names. */
#define _CLC_INL static inline __attribute__((always_inline, overloadable))

/* libm, by its C name: picolibc on the device, the host's libm in the host
 * tests. Named through asm labels because sin, cos, ... are taken by the
 * overloadable built-ins. */
/* 64-bit high half of an unsigned product: one mulhu on RV64, 32-bit
 * pieces on RV32 (no 128-bit type). */
_CLC_INL ulong __clc_umul_hi64(ulong x, ulong y) {
#ifdef __SIZEOF_INT128__
  return (ulong)(((unsigned __int128)x * y) >> 64);
#else
  ulong xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
  ulong ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
  ulong mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

#define CLC_LIBM_D1(n) double __clc_libm_##n(double) __asm__(#n);
#define CLC_LIBM_D2(n) double __clc_libm_##n(double, double) __asm__(#n);
CLC_LIBM_D1(acos) CLC_LIBM_D1(acosh) CLC_LIBM_D1(asin) CLC_LIBM_D1(asinh)
CLC_LIBM_D1(atan) CLC_LIBM_D1(atanh) CLC_LIBM_D1(cbrt) CLC_LIBM_D1(cos)
CLC_LIBM_D1(cosh) CLC_LIBM_D1(erf) CLC_LIBM_D1(erfc) CLC_LIBM_D1(exp)
CLC_LIBM_D1(exp2) CLC_LIBM_D1(exp10) CLC_LIBM_D1(expm1) CLC_LIBM_D1(log)
CLC_LIBM_D1(log10) CLC_LIBM_D1(log1p) CLC_LIBM_D1(logb)
CLC_LIBM_D1(sin) CLC_LIBM_D1(sinh) CLC_LIBM_D1(tan) CLC_LIBM_D1(tanh)
CLC_LIBM_D1(tgamma)
CLC_LIBM_D2(atan2) CLC_LIBM_D2(fmod) CLC_LIBM_D2(hypot) CLC_LIBM_D2(pow)
CLC_LIBM_D2(remainder)
double __clc_libm_lgamma_r(double, int *) __asm__("lgamma_r");
double __clc_libm_frexp(double, int *) __asm__("frexp");
double __clc_libm_ldexp(double, int) __asm__("ldexp");
/* fdlibm's tan of a reduced argument (|x| <= pi/4, y its tail): tan(x + y)
 * for k = 1, -1 / tan(x + y) for k = -1, in double-double where it counts.
 * In picolibc's (and newlib's) libc, what their tan calls. */
double __clc_libm_kernel_tan(double, double, int) __asm__("__kernel_tan");
#undef CLC_LIBM_D1
#undef CLC_LIBM_D2

/* ---- rounding to integral values ------------------------------------------
 * Not libm's: picolibc's RV32 double trunc shifts a 64-bit mask by the
 * exponent through __ashrdi3 and goes wrong from 2^64 up (trunc(2.8e52)
 * measured 49 ulp off), and its floor lost the carry for some negative
 * values (fract(-2948195.78) came out -1.78). Values below 2^52 (2^23) go
 * through the integer conversion, which truncates; larger ones are
 * integers already. Signed zeros kept. */
#define CLC_ROUNDING(T, I, BIG)                                                               \
  _CLC_INL T __clc_trunc(T x) {                                                               \
    if (!(__builtin_fabs(x) < BIG)) return x; /* NaN, infinities, integers */                 \
    return __builtin_copysign((T)(I)x, x);                                                    \
  }                                                                                           \
  _CLC_INL T __clc_floor(T x) {                                                               \
    T t = __clc_trunc(x);                                                                     \
    return t > x ? t - (T)1 : t;                                                              \
  }                                                                                           \
  _CLC_INL T __clc_ceil(T x) {                                                                \
    T t = __clc_trunc(x);                                                                     \
    return t < x ? __builtin_copysign(t + (T)1, x) : t;                                       \
  }                                                                                           \
  _CLC_INL T __clc_round(T x) { /* halfway cases away from zero */                            \
    T t = __clc_trunc(x);                                                                     \
    return __builtin_fabs(x - t) >= (T)0.5 ? t + __builtin_copysign((T)1, x) : t;            \
  }                                                                                           \
  _CLC_INL T __clc_rint(T x) { /* the current rounding mode: to nearest even */               \
    T a = __builtin_fabs(x);                                                                  \
    if (!(a < BIG)) return x;                                                                 \
    return __builtin_copysign((a + BIG) - BIG, x);                                            \
  }
CLC_ROUNDING(float, int, 0x1p23f)
CLC_ROUNDING(double, long, 0x1p52)
#undef CLC_ROUNDING

/* ---- vector widths from scalars ------------------------------------------
 * Each macro defines the 2, 3, 4, 8 and 16 wide overloads of F, given the
 * scalar overload: width 2 and 3 per component, wider ones as two halves
 * (which are themselves overloads of F). R/A/B/C are scalar type names. */
#define CLC_V1(R, F, A)                                                                       \
  _CLC_DEF R##2 F(A##2 x) { return (R##2)(F(x.s0), F(x.s1)); }                               \
  _CLC_DEF R##3 F(A##3 x) { return (R##3)(F(x.s0), F(x.s1), F(x.s2)); }                      \
  _CLC_DEF R##4 F(A##4 x) { return (R##4)(F(x.lo), F(x.hi)); }                               \
  _CLC_DEF R##8 F(A##8 x) { return (R##8)(F(x.lo), F(x.hi)); }                               \
  _CLC_DEF R##16 F(A##16 x) { return (R##16)(F(x.lo), F(x.hi)); }

/* Both arguments vectors. */
#define CLC_V2(R, F, A, B)                                                                    \
  _CLC_DEF R##2 F(A##2 x, B##2 y) { return (R##2)(F(x.s0, y.s0), F(x.s1, y.s1)); }           \
  _CLC_DEF R##3 F(A##3 x, B##3 y) { return (R##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2)); } \
  _CLC_DEF R##4 F(A##4 x, B##4 y) { return (R##4)(F(x.lo, y.lo), F(x.hi, y.hi)); }           \
  _CLC_DEF R##8 F(A##8 x, B##8 y) { return (R##8)(F(x.lo, y.lo), F(x.hi, y.hi)); }           \
  _CLC_DEF R##16 F(A##16 x, B##16 y) { return (R##16)(F(x.lo, y.lo), F(x.hi, y.hi)); }

/* A vector and a scalar second argument (fmax(float4, float), ldexp(float4, int)). */
#define CLC_V2S(R, F, A, B)                                                                   \
  _CLC_DEF R##2 F(A##2 x, B y) { return (R##2)(F(x.s0, y), F(x.s1, y)); }                    \
  _CLC_DEF R##3 F(A##3 x, B y) { return (R##3)(F(x.s0, y), F(x.s1, y), F(x.s2, y)); }        \
  _CLC_DEF R##4 F(A##4 x, B y) { return (R##4)(F(x.lo, y), F(x.hi, y)); }                    \
  _CLC_DEF R##8 F(A##8 x, B y) { return (R##8)(F(x.lo, y), F(x.hi, y)); }                    \
  _CLC_DEF R##16 F(A##16 x, B y) { return (R##16)(F(x.lo, y), F(x.hi, y)); }

/* Three vector arguments. */
#define CLC_V3(R, F, A, B, C)                                                                 \
  _CLC_DEF R##2 F(A##2 x, B##2 y, C##2 z) { return (R##2)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1)); } \
  _CLC_DEF R##3 F(A##3 x, B##3 y, C##3 z) {                                                  \
    return (R##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2));             \
  }                                                                                           \
  _CLC_DEF R##4 F(A##4 x, B##4 y, C##4 z) { return (R##4)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); } \
  _CLC_DEF R##8 F(A##8 x, B##8 y, C##8 z) { return (R##8)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); } \
  _CLC_DEF R##16 F(A##16 x, B##16 y, C##16 z) {                                              \
    return (R##16)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi));                                 \
  }

/* Vector x, y and scalar z (clamp(float4, float, float) is CLC_V3SS). */
#define CLC_V3SS(R, F, A, B)                                                                  \
  _CLC_DEF R##2 F(A##2 x, B y, B z) { return (R##2)(F(x.s0, y, z), F(x.s1, y, z)); }         \
  _CLC_DEF R##3 F(A##3 x, B y, B z) { return (R##3)(F(x.s0, y, z), F(x.s1, y, z), F(x.s2, y, z)); } \
  _CLC_DEF R##4 F(A##4 x, B y, B z) { return (R##4)(F(x.lo, y, z), F(x.hi, y, z)); }         \
  _CLC_DEF R##8 F(A##8 x, B y, B z) { return (R##8)(F(x.lo, y, z), F(x.hi, y, z)); }         \
  _CLC_DEF R##16 F(A##16 x, B y, B z) { return (R##16)(F(x.lo, y, z), F(x.hi, y, z)); }

/* Pointer outputs. CLC_VP1: R F(A x, private P *p) for the vector widths,
 * from the scalar private overload. */
#define CLC_VP1(R, F, A, P)                                                                   \
  _CLC_DEF R##2 F(A##2 x, P##2 *p) {                                                          \
    P a, b;                                                                                   \
    R##2 r = (R##2)(F(x.s0, &a), F(x.s1, &b));                                                \
    *p = (P##2)(a, b);                                                                        \
    return r;                                                                                 \
  }                                                                                           \
  _CLC_DEF R##3 F(A##3 x, P##3 *p) {                                                          \
    P a, b, c;                                                                                \
    R##3 r = (R##3)(F(x.s0, &a), F(x.s1, &b), F(x.s2, &c));                                   \
    *p = (P##3)(a, b, c);                                                                     \
    return r;                                                                                 \
  }                                                                                           \
  CLC_VP1_HALVES(R, F, A, P, 4, 2) CLC_VP1_HALVES(R, F, A, P, 8, 4) CLC_VP1_HALVES(R, F, A, P, 16, 8)
#define CLC_VP1_HALVES(R, F, A, P, N, H)                                                      \
  _CLC_DEF R##N F(A##N x, P##N *p) {                                                          \
    P##H a, b;                                                                                \
    R##N r = (R##N)(F(x.lo, &a), F(x.hi, &b));                                                \
    *p = (P##N)(a, b);                                                                        \
    return r;                                                                                 \
  }

/* Same for two value arguments (remquo). */
#define CLC_VP2(R, F, A, P)                                                                   \
  _CLC_DEF R##2 F(A##2 x, A##2 y, P##2 *p) {                                                  \
    P a, b;                                                                                   \
    R##2 r = (R##2)(F(x.s0, y.s0, &a), F(x.s1, y.s1, &b));                                    \
    *p = (P##2)(a, b);                                                                        \
    return r;                                                                                 \
  }                                                                                           \
  _CLC_DEF R##3 F(A##3 x, A##3 y, P##3 *p) {                                                  \
    P a, b, c;                                                                                \
    R##3 r = (R##3)(F(x.s0, y.s0, &a), F(x.s1, y.s1, &b), F(x.s2, y.s2, &c));                 \
    *p = (P##3)(a, b, c);                                                                     \
    return r;                                                                                 \
  }                                                                                           \
  CLC_VP2_HALVES(R, F, A, P, 4, 2) CLC_VP2_HALVES(R, F, A, P, 8, 4) CLC_VP2_HALVES(R, F, A, P, 16, 8)
#define CLC_VP2_HALVES(R, F, A, P, N, H)                                                      \
  _CLC_DEF R##N F(A##N x, A##N y, P##N *p) {                                                  \
    P##H a, b;                                                                                \
    R##N r = (R##N)(F(x.lo, y.lo, &a), F(x.hi, y.hi, &b));                                    \
    *p = (P##N)(a, b);                                                                        \
    return r;                                                                                 \
  }

/* The __global and __local overloads of a pointer-output function, through
 * its private one (T is one exact type: scalar or vector). */
#define CLC_AS1(R, F, A, P)                                                                   \
  _CLC_DEF R F(A x, __global P *p) { P t; R r = F(x, &t); *p = t; return r; }               \
  _CLC_DEF R F(A x, __local P *p) { P t; R r = F(x, &t); *p = t; return r; }
#define CLC_AS2(R, F, A, P)                                                                   \
  _CLC_DEF R F(A x, A y, __global P *p) { P t; R r = F(x, y, &t); *p = t; return r; }       \
  _CLC_DEF R F(A x, A y, __local P *p) { P t; R r = F(x, y, &t); *p = t; return r; }
#define CLC_ALLW(M, R, F, A, P)                                                               \
  M(R, F, A, P) M(R##2, F, A##2, P##2) M(R##3, F, A##3, P##3) M(R##4, F, A##4, P##4)          \
  M(R##8, F, A##8, P##8) M(R##16, F, A##16, P##16)

/* Every scalar integer type: M(type, unsigned type, bits, signed). */
#define CLC_INTEGER_TYPES(M)                                                                  \
  M(char, uchar, 8, 1) M(uchar, uchar, 8, 0) M(short, ushort, 16, 1)                          \
  M(ushort, ushort, 16, 0) M(int, uint, 32, 1) M(uint, uint, 32, 0)                           \
  M(long, ulong, 64, 1) M(ulong, ulong, 64, 0)

/* Every element type, integer and floating. */
#define CLC_ALL_TYPES(M)                                                                      \
  M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong) M(float) M(double)

#endif /* CLC_INTERNAL_H */

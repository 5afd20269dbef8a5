/* Applies the OpenCL C built-ins to arrays, for the built-in tests: plain
 * (unmangled, non-kernel) functions a C caller reaches on the host
 * (test_opencl_builtins, x86-64) and on the device (the C kernels of
 * clt_kernels.c, RV64 and RV32). Each call applies one function at one
 * vector width to n elements (n a multiple of CLT_BLOCK); the C side
 * compares with its reference and the widths with each other. */
#include "clt_cases.h"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* Width-generic loads and stores of element i (a multiple of W). */
#define LD_1(p, i) (p)[i]
#define ST_1(v, p, i) ((p)[i] = (v))
#define LD_W(W, p, i) vload##W(0, (p) + (i))
#define ST_W(W, v, p, i) vstore##W((v), 0, (p) + (i))
#define LD_2(p, i) LD_W(2, p, i)
#define LD_3(p, i) LD_W(3, p, i)
#define LD_4(p, i) LD_W(4, p, i)
#define LD_8(p, i) LD_W(8, p, i)
#define LD_16(p, i) LD_W(16, p, i)
#define ST_2(v, p, i) ST_W(2, v, p, i)
#define ST_3(v, p, i) ST_W(3, v, p, i)
#define ST_4(v, p, i) ST_W(4, v, p, i)
#define ST_8(v, p, i) ST_W(8, v, p, i)
#define ST_16(v, p, i) ST_W(16, v, p, i)
#define VT_1(T) T
#define VT_2(T) T##2
#define VT_3(T) T##3
#define VT_4(T) T##4
#define VT_8(T) T##8
#define VT_16(T) T##16

/* One loop per signature kind (clt_cases.h). */
#define K_U(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i)), r, i);
#define K_B(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i), LD_##W(y, i)), r, i);
#define K_T(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i), LD_##W(y, i), LD_##W(z, i)), r, i);
#define K_I(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i), LD_##W(k, i)), r, i);
#define K_R(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i)), ri, i);
/* Pointer outputs: space 0 a private variable, 1 a __global and 2 a
 * __local pointer straight into the output (widths 1, 2, 4, 8, 16: those
 * are aligned in the caller's buffers). */
#define K_P2(F, T, W)                                                                         \
  for (uint i = 0; i < n; i += W) {                                                           \
    VT_##W(T) t;                                                                              \
    if (space == 1 && W != 3) ST_##W(F(LD_##W(x, i), (__global VT_##W(T) *)(r2g + i)), r, i); \
    else if (space == 2 && W != 3) ST_##W(F(LD_##W(x, i), (__local VT_##W(T) *)(r2l + i)), r, i); \
    else { ST_##W(F(LD_##W(x, i), &t), r, i); ST_##W(t, r2, i); }                             \
  }
#define K_PI(F, T, W)                                                                         \
  for (uint i = 0; i < n; i += W) {                                                           \
    VT_##W(int) t;                                                                            \
    if (space == 1 && W != 3) ST_##W(F(LD_##W(x, i), (__global VT_##W(int) *)(rig + i)), r, i); \
    else if (space == 2 && W != 3) ST_##W(F(LD_##W(x, i), (__local VT_##W(int) *)(ril + i)), r, i); \
    else { ST_##W(F(LD_##W(x, i), &t), r, i); ST_##W(t, ri, i); }                             \
  }
#define K_Q(F, T, W)                                                                          \
  for (uint i = 0; i < n; i += W) {                                                           \
    VT_##W(int) t;                                                                            \
    if (space == 1 && W != 3) ST_##W(F(LD_##W(x, i), LD_##W(y, i), (__global VT_##W(int) *)(rig + i)), r, i); \
    else if (space == 2 && W != 3) ST_##W(F(LD_##W(x, i), LD_##W(y, i), (__local VT_##W(int) *)(ril + i)), r, i); \
    else { ST_##W(F(LD_##W(x, i), LD_##W(y, i), &t), r, i); ST_##W(t, ri, i); }               \
  }

#define WIDTHS(K, F, T)                                                                       \
  switch (width) {                                                                            \
  case 1: K(F, T, 1) break;                                                                   \
  case 2: K(F, T, 2) break;                                                                   \
  case 3: K(F, T, 3) break;                                                                   \
  case 4: K(F, T, 4) break;                                                                   \
  case 8: K(F, T, 8) break;                                                                   \
  case 16: K(F, T, 16) break;                                                                 \
  default: return -1;                                                                         \
  }
/* Every case is its own function: the driver is compiled at -O0 (the
 * optimiser takes minutes over thousands of loops), where one function
 * holding every case would need a stack frame of hundreds of KiB. */
#define MATH_PARAMS(T)                                                                        \
  int width, int space, const T *x, const T *y, const T *z, const int *k, T *r, T *r2,        \
      __global T *r2g, __local T *r2l, int *ri, __global int *rig, __local int *ril, uint n
#define MATH_ARGS width, space, x, y, z, k, r, r2, r2g, r2l, ri, rig, ril, n
#define MATH_FN(T) MATH_FN_##T
#define MATH_FN_float(name, kind, uf, ud)                                                     \
  static int m_float_##name(MATH_PARAMS(float)) { WIDTHS(K_##kind, name, float) return 0; }
#define MATH_FN_double(name, kind, uf, ud)                                                    \
  static int m_double_##name(MATH_PARAMS(double)) { WIDTHS(K_##kind, name, double) return 0; }
#define MATH_CASE(T) MATH_CASE_##T
#define MATH_CASE_float(name, kind, uf, ud) case CLT_##name: return m_float_##name(MATH_ARGS);
#define MATH_CASE_double(name, kind, uf, ud) case CLT_##name: return m_double_##name(MATH_ARGS);

/* Returns 0, or -1 for an unknown function or width. */
#define MATH_DRIVER(T, NAME, LIST)                                                            \
  LIST(MATH_FN(T))                                                                            \
  int NAME(int fn, MATH_PARAMS(T)) {                                                          \
    switch (fn) {                                                                             \
      LIST(MATH_CASE(T))                                                                      \
    default: return -1;                                                                       \
    }                                                                                         \
  }
MATH_DRIVER(float, clt_math_f32, CLT_MATH)
MATH_DRIVER(double, clt_math_f64, CLT_MATH_BOTH)

/* ---- integer functions ---------------------------------------------------- */
/* abs and abs_diff answer the unsigned type: stored through it. */
#define K_UU(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i)), (U *)r, i);
#define K_BU(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i), LD_##W(y, i)), (U *)r, i);
#define INT_PARAMS(T) int width, const T *x, const T *y, const T *z, T *r, uint n
#define INT_FN(TT, UU, name, K)                                                               \
  static int i_##TT##_##name(INT_PARAMS(TT)) {                                                \
    typedef UU U;                                                                             \
    (void)(U)0;                                                                               \
    WIDTHS(K, name, TT) return 0;                                                             \
  }
#define INT_FNS(TT, UU)                                                                       \
  INT_FN(TT, UU, abs, K_UU) INT_FN(TT, UU, abs_diff, K_BU) INT_FN(TT, UU, add_sat, K_B)       \
  INT_FN(TT, UU, hadd, K_B) INT_FN(TT, UU, rhadd, K_B) INT_FN(TT, UU, clamp, K_T)             \
  INT_FN(TT, UU, clz, K_U) INT_FN(TT, UU, mad_hi, K_T) INT_FN(TT, UU, mad_sat, K_T)           \
  INT_FN(TT, UU, max, K_B) INT_FN(TT, UU, min, K_B) INT_FN(TT, UU, mul_hi, K_B)               \
  INT_FN(TT, UU, rotate, K_B) INT_FN(TT, UU, sub_sat, K_B) INT_FN(TT, UU, popcount, K_U)
#define INT_ONE(TT, name) case CLTI_##name: return i_##TT##_##name(width, x, y, z, r, n);
#define INT_DRIVER(TT, UU)                                                                    \
  INT_FNS(TT, UU)                                                                             \
  int clt_int_##TT(int fn, INT_PARAMS(TT)) {                                                  \
    switch (fn) {                                                                             \
      INT_ONE(TT, abs) INT_ONE(TT, abs_diff) INT_ONE(TT, add_sat) INT_ONE(TT, hadd)           \
      INT_ONE(TT, rhadd) INT_ONE(TT, clamp) INT_ONE(TT, clz) INT_ONE(TT, mad_hi)              \
      INT_ONE(TT, mad_sat) INT_ONE(TT, max) INT_ONE(TT, min) INT_ONE(TT, mul_hi)              \
      INT_ONE(TT, rotate) INT_ONE(TT, sub_sat) INT_ONE(TT, popcount)                          \
    default: return -1;                                                                       \
    }                                                                                         \
  }
INT_DRIVER(char, uchar)
INT_DRIVER(uchar, uchar)
INT_DRIVER(short, ushort)
INT_DRIVER(ushort, ushort)
INT_DRIVER(int, uint)
INT_DRIVER(uint, uint)
INT_DRIVER(long, ulong)
INT_DRIVER(ulong, ulong)

/* mul24 / mad24 (int, uint) and upsample (hi type -> wider type). */
#define INT24_DRIVER(TT)                                                                      \
  int clt_int24_##TT(int fn, int width, const TT *x, const TT *y, const TT *z, TT *r, uint n) { \
    switch (fn) {                                                                             \
    case CLTI_mul24: WIDTHS(K_B, mul24, TT) return 0;                                         \
    case CLTI_mad24: WIDTHS(K_T, mad24, TT) return 0;                                         \
    default: return -1;                                                                       \
    }                                                                                         \
  }
INT24_DRIVER(int)
INT24_DRIVER(uint)
#define K_UP(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(x, i), LD_##W(y, i)), r, i);
#define UPSAMPLE_DRIVER(H, L, R)                                                              \
  int clt_upsample_##H(int width, const H *x, const L *y, R *r, uint n) {                    \
    WIDTHS(K_UP, upsample, H) return 0;                                                       \
  }
UPSAMPLE_DRIVER(char, uchar, short)
UPSAMPLE_DRIVER(uchar, uchar, ushort)
UPSAMPLE_DRIVER(short, ushort, int)
UPSAMPLE_DRIVER(ushort, ushort, uint)
UPSAMPLE_DRIVER(int, uint, long)
UPSAMPLE_DRIVER(uint, uint, ulong)

/* ---- convert_*: widths 1, 3 and 16 (16 goes through 8, 4 and 2) --------- */
#define VN_1
#define VN_3 3
#define VN_16 16
#define CVN(D, W, SUF) CVN_(D, VN_##W, SUF)
#define CVN_(D, N, SUF) CVN__(D, N, SUF)
#define CVN__(D, N, SUF) convert_##D##N##SUF
#define CV_LOOP(D, S, SUF, W)                                                                 \
  for (uint i = 0; i < n; i += W) ST_##W(CVN(D, W, SUF)(LD_##W((const S *)in, i)), (D *)out, i);
#define CV_SUF(D, S, SUF)                                                                     \
  switch (width) {                                                                            \
  case 1: CV_LOOP(D, S, SUF, 1) return 0;                                                     \
  case 3: CV_LOOP(D, S, SUF, 3) return 0;                                                     \
  case 16: CV_LOOP(D, S, SUF, 16) return 0;                                                   \
  default: return -1;                                                                         \
  }
#define CV_MODES(D, S)                                                                        \
  case CLTM_DEFAULT: CV_SUF(D, S, )                                                           \
  case CLTM_RTE: CV_SUF(D, S, _rte)                                                           \
  case CLTM_RTZ: CV_SUF(D, S, _rtz)                                                           \
  case CLTM_RTP: CV_SUF(D, S, _rtp)                                                           \
  case CLTM_RTN: CV_SUF(D, S, _rtn)
#define CV_SAT_MODES(D, S)                                                                    \
  case 16 + CLTM_DEFAULT: CV_SUF(D, S, _sat)                                                  \
  case 16 + CLTM_RTE: CV_SUF(D, S, _sat_rte)                                                  \
  case 16 + CLTM_RTZ: CV_SUF(D, S, _sat_rtz)                                                  \
  case 16 + CLTM_RTP: CV_SUF(D, S, _sat_rtp)                                                  \
  case 16 + CLTM_RTN: CV_SUF(D, S, _sat_rtn)
#define CV_PARAMS int modesat, int width, const void *in, void *out, uint n
#define CV_FN_I(D, S)                                                                         \
  static int cv_##D##_##S(CV_PARAMS) {                                                        \
    switch (modesat) { CV_MODES(D, S) CV_SAT_MODES(D, S) default: return -1; }                \
  }
#define CV_FN_F(D, S)                                                                         \
  static int cv_##D##_##S(CV_PARAMS) {                                                        \
    switch (modesat) { CV_MODES(D, S) default: return -1; }                                   \
  }
#define CV_PAIR_I(D, S) case CLTT_##S: return cv_##D##_##S(modesat, width, in, out, n);
#define CV_PAIR_F(D, S) CV_PAIR_I(D, S)
#define CV_FNS(K, D) K(D, char) K(D, uchar) K(D, short) K(D, ushort) K(D, int) K(D, uint) K(D, long) \
  K(D, ulong) K(D, float) K(D, double)
CV_FNS(CV_FN_I, char) CV_FNS(CV_FN_I, uchar) CV_FNS(CV_FN_I, short) CV_FNS(CV_FN_I, ushort)
CV_FNS(CV_FN_I, int) CV_FNS(CV_FN_I, uint) CV_FNS(CV_FN_I, long) CV_FNS(CV_FN_I, ulong)
CV_FNS(CV_FN_F, float) CV_FNS(CV_FN_F, double)
#define CV_SRCS(K, D)                                                                         \
  switch (src) {                                                                              \
    K(D, char) K(D, uchar) K(D, short) K(D, ushort) K(D, int) K(D, uint) K(D, long)            \
    K(D, ulong) K(D, float) K(D, double)                                                      \
  default: return -1;                                                                         \
  }
int clt_convert(int dst, int src, int modesat, int width, const void *in, void *out, uint n) {
  switch (dst) {
  case CLTT_char: CV_SRCS(CV_PAIR_I, char)
  case CLTT_uchar: CV_SRCS(CV_PAIR_I, uchar)
  case CLTT_short: CV_SRCS(CV_PAIR_I, short)
  case CLTT_ushort: CV_SRCS(CV_PAIR_I, ushort)
  case CLTT_int: CV_SRCS(CV_PAIR_I, int)
  case CLTT_uint: CV_SRCS(CV_PAIR_I, uint)
  case CLTT_long: CV_SRCS(CV_PAIR_I, long)
  case CLTT_ulong: CV_SRCS(CV_PAIR_I, ulong)
  case CLTT_float: CV_SRCS(CV_PAIR_F, float)
  case CLTT_double: CV_SRCS(CV_PAIR_F, double)
  default: return -1;
  }
}

/* ---- half loads and stores (__global), offsets as the spec counts them --- */
#define HS_LOOP(F, W, SUF)                                                                    \
  for (uint i = 0; i < n; i += W)                                                             \
    if (aligned) HS_CALL(vstorea_half, W, SUF)(LD_##W(in, i), i / W, out);                    \
    else HS_CALL(vstore_half, W, SUF)(LD_##W(in, i), i / W, out);
#define HS_CALL(P, W, SUF) HS_CALL_(P, VN_##W, SUF)
#define HS_CALL_(P, N, SUF) HS_CALL__(P, N, SUF)
#define HS_CALL__(P, N, SUF) P##N##SUF
#define VN_2 2
#define VN_4 4
#define VN_8 8
#define HS_WIDTHS(F, SUF)                                                                     \
  switch (width) {                                                                            \
  case 1: /* no vstorea_half: width 1 is never aligned */                                   \
    for (uint i = 0; i < n; i++) vstore_half##SUF(in[i], i, out);                             \
    return 0;                                                                                 \
  case 2: HS_LOOP(F, 2, SUF) return 0;                                                        \
  case 3: HS_LOOP(F, 3, SUF) return 0;                                                        \
  case 4: HS_LOOP(F, 4, SUF) return 0;                                                        \
  case 8: HS_LOOP(F, 8, SUF) return 0;                                                        \
  case 16: HS_LOOP(F, 16, SUF) return 0;                                                      \
  default: return -1;                                                                         \
  }
#define HS_DRIVER(F, NAME)                                                                    \
  int NAME(int mode, int width, int aligned, const F *in, __global half *out, uint n) {       \
    switch (mode) {                                                                           \
    case CLTM_DEFAULT: HS_WIDTHS(F, )                                                         \
    case CLTM_RTE: HS_WIDTHS(F, _rte)                                                         \
    case CLTM_RTZ: HS_WIDTHS(F, _rtz)                                                         \
    case CLTM_RTP: HS_WIDTHS(F, _rtp)                                                         \
    case CLTM_RTN: HS_WIDTHS(F, _rtn)                                                         \
    default: return -1;                                                                       \
    }                                                                                         \
  }
HS_DRIVER(float, clt_half_store_f32)
HS_DRIVER(double, clt_half_store_f64)

#define HL_LOOP(W)                                                                            \
  for (uint i = 0; i < n; i += W)                                                             \
    ST_##W(aligned ? HS_CALL(vloada_half, W, )(i / W, in) : HS_CALL(vload_half, W, )(i / W, in), out, i);
int clt_half_load(int width, int aligned, const __global half *in, float *out, uint n) {
  switch (width) {
  case 1: for (uint i = 0; i < n; i++) out[i] = vload_half(i, in); return 0;
  case 2: HL_LOOP(2) return 0;
  case 3: HL_LOOP(3) return 0;
  case 4: HL_LOOP(4) return 0;
  case 8: HL_LOOP(8) return 0;
  case 16: HL_LOOP(16) return 0;
  default: return -1;
  }
}

/* ---- vloadn / vstoren: a copy through every width, offsets by the spec --- */
#define VLS_LOOP(T, W) for (uint i = 0; i < n; i += W) vstore##W(vload##W(i / W, in), i / W, out);
#define VLS_DRIVER(T)                                                                         \
  int clt_vls_##T(int width, const __constant T *in, __global T *out, uint n) {              \
    switch (width) {                                                                          \
    case 2: VLS_LOOP(T, 2) return 0;                                                          \
    case 3: VLS_LOOP(T, 3) return 0;                                                          \
    case 4: VLS_LOOP(T, 4) return 0;                                                          \
    case 8: VLS_LOOP(T, 8) return 0;                                                          \
    case 16: VLS_LOOP(T, 16) return 0;                                                        \
    default: return -1;                                                                       \
    }                                                                                         \
  }
VLS_DRIVER(char) VLS_DRIVER(uchar) VLS_DRIVER(short) VLS_DRIVER(ushort) VLS_DRIVER(int)
VLS_DRIVER(uint) VLS_DRIVER(long) VLS_DRIVER(ulong) VLS_DRIVER(float) VLS_DRIVER(double)

/* ---- relational ------------------------------------------------------------ */
#define REL_FNS(X)                                                                            \
  X(0, isequal, K_B) X(1, isnotequal, K_B) X(2, isgreater, K_B) X(3, isgreaterequal, K_B)      \
  X(4, isless, K_B) X(5, islessequal, K_B) X(6, islessgreater, K_B) X(7, isfinite, K_U)       \
  X(8, isinf, K_U) X(9, isnan, K_U) X(10, isnormal, K_U) X(11, isordered, K_B)                \
  X(12, isunordered, K_B) X(13, signbit, K_U)
#define REL_ONE(id, name, K) case id: WIDTHS(K, name, T) return 0;
#define REL_DRIVER(TT, II)                                                                    \
  int clt_rel_##TT(int fn, int width, const TT *x, const TT *y, II *r, uint n) {              \
    switch (fn) { REL_FNS(REL_ONE) default: return -1; }                                      \
  }
REL_DRIVER(float, int)
REL_DRIVER(double, long)

/* select(a, b, c) with a signed (kind 0) or unsigned (1) mask, bitselect (2). */
#define K_SEL(F, T, W) for (uint i = 0; i < n; i += W) ST_##W(F(LD_##W(a, i), LD_##W(b, i), LD_##W(C, i)), r, i);
#define SEL_DRIVER(T, S, U)                                                                   \
  int clt_select_##T(int kind, int width, const T *a, const T *b, const S *cs, const U *cu, const T *ct, T *r, uint n) { \
    if (kind == 0) {                                                                          \
      const S *C = cs;                                                                        \
      WIDTHS(K_SEL, select, T) return 0;                                                      \
    }                                                                                         \
    if (kind == 1) { const U *C = cu; WIDTHS(K_SEL, select, T) return 0; }                    \
    { const T *C = ct; WIDTHS(K_SEL, bitselect, T) return 0; }                                \
  }
SEL_DRIVER(char, char, uchar) SEL_DRIVER(uchar, char, uchar) SEL_DRIVER(short, short, ushort)
SEL_DRIVER(ushort, short, ushort) SEL_DRIVER(int, int, uint) SEL_DRIVER(uint, int, uint)
SEL_DRIVER(long, long, ulong) SEL_DRIVER(ulong, long, ulong) SEL_DRIVER(float, int, uint)
SEL_DRIVER(double, long, ulong)

/* any / all: one int per vector. */
#define K_ANY(F, T, W) for (uint i = 0; i < n; i += W) r[i / W] = F(LD_##W(x, i));
#define ANYALL_DRIVER(T)                                                                      \
  int clt_anyall_##T(int all_, int width, const T *x, int *r, uint n) {                       \
    if (all_) { WIDTHS(K_ANY, all, T) } else { WIDTHS(K_ANY, any, T) }                        \
    return 0;                                                                                 \
  }
ANYALL_DRIVER(char) ANYALL_DRIVER(short) ANYALL_DRIVER(int) ANYALL_DRIVER(long)

/* ---- common and geometric -------------------------------------------------- */
#define COMMON_FNS(X)                                                                         \
  X(0, clamp, K_T) X(1, degrees, K_U) X(2, max, K_B) X(3, min, K_B) X(4, mix, K_T)             \
  X(5, radians, K_U) X(6, step, K_B) X(7, smoothstep, K_T) X(8, sign, K_U)
#define COMMON_DRIVER(TT)                                                                     \
  int clt_common_##TT(int fn, int width, const TT *x, const TT *y, const TT *z, TT *r, uint n) { \
    switch (fn) { COMMON_FNS(REL_ONE) default: return -1; }                                   \
  }
COMMON_DRIVER(float)
COMMON_DRIVER(double)

/* dot, distance, length, fast_*: one scalar per vector; normalize, cross: vectors. */
#define K_GS1(F, T, W) for (uint i = 0; i < n; i += W) r[i / W] = F(LD_##W(x, i));
#define K_GS2(F, T, W) for (uint i = 0; i < n; i += W) r[i / W] = F(LD_##W(x, i), LD_##W(y, i));
#define GEOM_W4(K, F, T)                                                                      \
  switch (width) {                                                                            \
  case 1: K(F, T, 1) return 0;                                                                \
  case 2: K(F, T, 2) return 0;                                                                \
  case 3: K(F, T, 3) return 0;                                                                \
  case 4: K(F, T, 4) return 0;                                                                \
  default: return -1;                                                                         \
  }
#define GEOM_COMMON(T)                                                                        \
  case 0: GEOM_W4(K_GS2, dot, T)                                                              \
  case 1: GEOM_W4(K_GS2, distance, T)                                                         \
  case 2: GEOM_W4(K_GS1, length, T)                                                           \
  case 3: GEOM_W4(K_U, normalize, T)                                                          \
  case 4:                                                                                     \
    if (width == 3) { K_B(cross, T, 3) return 0; }                                            \
    if (width == 4) { K_B(cross, T, 4) return 0; }                                            \
    return -1;
int clt_geom_float(int fn, int width, const float *x, const float *y, float *r, uint n) {
  switch (fn) {
    GEOM_COMMON(float)
  case 5: GEOM_W4(K_GS2, fast_distance, float)
  case 6: GEOM_W4(K_GS1, fast_length, float)
  case 7: GEOM_W4(K_U, fast_normalize, float)
  default: return -1;
  }
}
int clt_geom_double(int fn, int width, const double *x, const double *y, double *r, uint n) {
  switch (fn) {
    GEOM_COMMON(double)
  default: return -1;
  }
}

/* ---- shuffle / shuffle2: M-wide inputs, N-wide masks and results ----------- */
#define K_SH(T, U, M, N)                                                                      \
  for (uint i = 0, j = 0; i < n; i += N, j += M)                                              \
    vstore##N(two ? shuffle2(vload##M(0, x + j), vload##M(0, y + j), vload##N(0, mask + i))   \
                  : shuffle(vload##M(0, x + j), vload##N(0, mask + i)), 0, r + i);
#define SH_N(T, U, M)                                                                         \
  switch (nw) {                                                                               \
  case 2: K_SH(T, U, M, 2) return 0;                                                          \
  case 4: K_SH(T, U, M, 4) return 0;                                                          \
  case 8: K_SH(T, U, M, 8) return 0;                                                          \
  case 16: K_SH(T, U, M, 16) return 0;                                                        \
  default: return -1;                                                                         \
  }
/* x and y hold n/N*M elements each; mask and r n. */
#define SH_DRIVER(T, U)                                                                       \
  int clt_shuffle_##T(int two, int mw, int nw, const T *x, const T *y, const U *mask, T *r, uint n) { \
    switch (mw) {                                                                             \
    case 2: SH_N(T, U, 2)                                                                     \
    case 4: SH_N(T, U, 4)                                                                     \
    case 8: SH_N(T, U, 8)                                                                     \
    case 16: SH_N(T, U, 16)                                                                   \
    default: return -1;                                                                       \
    }                                                                                         \
  }
SH_DRIVER(char, uchar) SH_DRIVER(uchar, uchar) SH_DRIVER(short, ushort) SH_DRIVER(ushort, ushort)
SH_DRIVER(int, uint) SH_DRIVER(uint, uint) SH_DRIVER(long, ulong) SH_DRIVER(ulong, ulong)
SH_DRIVER(float, uint) SH_DRIVER(double, ulong)

/* OpenCL 1.2 integer functions (section 6.12.3) for char, uchar, short,
 * ushort, int, uint, long, ulong, every width; clamp/max/min with scalar
 * bounds; ctz too (OpenCL C 2.0, for kernels built as CL2.0/3.0). Scalars
 * written once per type from (T, U, BITS, SIGNED); widths generated. */
#include "clc_internal.h"

_CLC_INL long __clc_smul_hi64(long x, long y) {
  ulong h = __clc_umul_hi64((ulong)x, (ulong)y);
  if (x < 0) h -= (ulong)y;
  if (y < 0) h -= (ulong)x;
  return (long)h;
}

/* Per-signedness pieces: _1 signed, _0 unsigned. */
#define INT_ABS_1(T, U) _CLC_DEF U abs(T x) { return x < 0 ? (U)0 - (U)x : (U)x; }
#define INT_ABS_0(T, U) _CLC_DEF U abs(T x) { return x; }
#define INT_MIN_1(BITS) (-(long)(1ul << (BITS - 1)))
#define INT_MAX_1(BITS) ((long)((1ul << (BITS - 1)) - 1))
#define INT_MIN_0(BITS) 0l
#define INT_MAX_0(BITS) ((long)((1ul << BITS) - 1))

/* Below 64 bits the exact result fits in a long: compute, then clamp
 * (INT_SMALL, below). */

/* uint's mul_hi and mad_sat need an unsigned 64-bit product. */
#define INT_32U                                                                               \
  _CLC_DEF uint add_sat(uint x, uint y) { uint r = x + y; return r < x ? 0xffffffffu : r; }  \
  _CLC_DEF uint sub_sat(uint x, uint y) { return x < y ? 0u : x - y; }                        \
  _CLC_DEF uint mul_hi(uint x, uint y) { return (uint)(((ulong)x * (ulong)y) >> 32); }        \
  _CLC_DEF uint mad_sat(uint a, uint b, uint c) {                                             \
    ulong v = (ulong)a * (ulong)b + (ulong)c;                                                 \
    return v > 0xfffffffful ? 0xffffffffu : (uint)v;                                          \
  }                                                                                           \
  _CLC_DEF uint clz(uint x) { return x == 0 ? 32u : (uint)__builtin_clz(x); }                 \
  _CLC_DEF uint ctz(uint x) { return x == 0 ? 32u : (uint)__builtin_ctz(x); }                 \
  _CLC_DEF uint popcount(uint x) { return (uint)__builtin_popcount(x); }

#define INT_64(T, S)                                                                          \
  _CLC_DEF T clz(T x) { return x == 0 ? (T)64 : (T)__builtin_clzl((ulong)x); }                \
  _CLC_DEF T ctz(T x) { return x == 0 ? (T)64 : (T)__builtin_ctzl((ulong)x); }                \
  _CLC_DEF T popcount(T x) { return (T)__builtin_popcountl((ulong)x); }
INT_64(long, 1)
INT_64(ulong, 0)
_CLC_DEF long add_sat(long x, long y) {
  long r = (long)((ulong)x + (ulong)y);
  if (((x ^ r) & (y ^ r)) < 0) return x < 0 ? LONG_MIN : LONG_MAX;
  return r;
}
_CLC_DEF long sub_sat(long x, long y) {
  long r = (long)((ulong)x - (ulong)y);
  if (((x ^ y) & (x ^ r)) < 0) return x < 0 ? LONG_MIN : LONG_MAX;
  return r;
}
_CLC_DEF ulong add_sat(ulong x, ulong y) { ulong r = x + y; return r < x ? ULONG_MAX : r; }
_CLC_DEF ulong sub_sat(ulong x, ulong y) { return x < y ? 0ul : x - y; }
_CLC_DEF long mul_hi(long x, long y) { return __clc_smul_hi64(x, y); }
_CLC_DEF ulong mul_hi(ulong x, ulong y) { return __clc_umul_hi64(x, y); }
/* a*b + c exactly as a 128-bit (hi, lo) pair, then saturated. */
_CLC_DEF long mad_sat(long a, long b, long c) {
  ulong lo = (ulong)a * (ulong)b;
  long hi = __clc_smul_hi64(a, b);
  ulong lo2 = lo + (ulong)c;
  hi += (c < 0 ? -1 : 0) + (lo2 < lo ? 1 : 0);
  if (hi != ((long)lo2 >> 63)) return hi < 0 ? LONG_MIN : LONG_MAX;
  return (long)lo2;
}
_CLC_DEF ulong mad_sat(ulong a, ulong b, ulong c) {
  ulong lo = a * b;
  ulong lo2 = lo + c;
  if (__clc_umul_hi64(a, b) != 0 || lo2 < lo) return ULONG_MAX;
  return lo2;
}

#define INT_SMALL(T, U, BITS, S)                                                              \
  _CLC_INL T __clc_sat(T t, long v) {                                                         \
    (void)t;                                                                                  \
    return (T)(v < INT_MIN_##S(BITS) ? INT_MIN_##S(BITS) : v > INT_MAX_##S(BITS) ? INT_MAX_##S(BITS) : v); \
  }                                                                                           \
  _CLC_DEF T add_sat(T x, T y) { return __clc_sat((T)0, (long)x + (long)y); }                 \
  _CLC_DEF T sub_sat(T x, T y) { return __clc_sat((T)0, (long)x - (long)y); }                 \
  _CLC_DEF T mul_hi(T x, T y) { return (T)(((long)x * (long)y) >> BITS); }                    \
  _CLC_DEF T mad_sat(T a, T b, T c) { return __clc_sat((T)0, (long)a * (long)b + (long)c); }  \
  _CLC_DEF T clz(T x) { return (U)x == 0 ? (T)BITS : (T)(__builtin_clz((uint)(U)x) - (32 - BITS)); } \
  _CLC_DEF T ctz(T x) { return (U)x == 0 ? (T)BITS : (T)__builtin_ctz((uint)(U)x); }         \
  _CLC_DEF T popcount(T x) { return (T)__builtin_popcount((uint)(U)x); }
INT_SMALL(char, uchar, 8, 1)
INT_SMALL(uchar, uchar, 8, 0)
INT_SMALL(short, ushort, 16, 1)
INT_SMALL(ushort, ushort, 16, 0)
INT_SMALL(int, uint, 32, 1)
INT_32U

/* Everything else is one definition for every type. */
#define INT_COMMON(T, U, BITS, S)                                                             \
  INT_ABS_##S(T, U)                                                                           \
  _CLC_DEF U abs_diff(T x, T y) { return x > y ? (U)((U)x - (U)y) : (U)((U)y - (U)x); }       \
  _CLC_DEF T hadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + (x & y & 1)); }                \
  _CLC_DEF T rhadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + ((x | y) & 1)); }             \
  _CLC_DEF T max(T x, T y) { return x > y ? x : y; }                                          \
  _CLC_DEF T min(T x, T y) { return x < y ? x : y; }                                          \
  _CLC_DEF T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                           \
  _CLC_DEF T mad_hi(T a, T b, T c) { return (T)(mul_hi(a, b) + c); }                          \
  _CLC_DEF T rotate(T v, T i) {                                                               \
    uint n = (uint)((U)i & (BITS - 1));                                                       \
    U u = (U)v;                                                                               \
    return (T)(U)((u << n) | (u >> ((BITS - n) & (BITS - 1))));                               \
  }                                                                                           \
  CLC_V1(U, abs, T) CLC_V2(U, abs_diff, T, T) CLC_V2(T, add_sat, T, T)                        \
  CLC_V2(T, sub_sat, T, T) CLC_V2(T, hadd, T, T) CLC_V2(T, rhadd, T, T)                       \
  CLC_V2(T, max, T, T) CLC_V2S(T, max, T, T) CLC_V2(T, min, T, T) CLC_V2S(T, min, T, T)       \
  CLC_V3(T, clamp, T, T, T) CLC_V3SS(T, clamp, T, T) CLC_V1(T, clz, T) CLC_V1(T, ctz, T)      \
  CLC_V1(T, popcount, T) CLC_V2(T, mul_hi, T, T) CLC_V3(T, mad_hi, T, T, T)                   \
  CLC_V3(T, mad_sat, T, T, T) CLC_V2(T, rotate, T, T)
CLC_INTEGER_TYPES(INT_COMMON)

/* upsample(hi, lo): the wider type, hi in the upper half. */
#define UPSAMPLE(R, H, L, BITS)                                                               \
  _CLC_DEF R upsample(H hi, L lo) { return (R)(((R)hi << BITS) | (R)lo); }                    \
  CLC_V2(R, upsample, H, L)
UPSAMPLE(short, char, uchar, 8)
UPSAMPLE(ushort, uchar, uchar, 8)
UPSAMPLE(int, short, ushort, 16)
UPSAMPLE(uint, ushort, ushort, 16)
UPSAMPLE(long, int, uint, 32)
UPSAMPLE(ulong, uint, uint, 32)

/* 24-bit multiplies: the full product of in-range operands (outside the
 * range the spec leaves the result undefined; this wraps). */
_CLC_DEF int mul24(int x, int y) { return (int)((uint)x * (uint)y); }
_CLC_DEF uint mul24(uint x, uint y) { return x * y; }
_CLC_DEF int mad24(int x, int y, int z) { return (int)((uint)x * (uint)y + (uint)z); }
_CLC_DEF uint mad24(uint x, uint y, uint z) { return x * y + z; }
CLC_V2(int, mul24, int, int) CLC_V2(uint, mul24, uint, uint)
CLC_V3(int, mad24, int, int, int) CLC_V3(uint, mad24, uint, uint, uint)

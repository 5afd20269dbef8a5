/* OpenCL 1.2 relational functions (section 6.12.6). Scalars answer 0 or 1
 * in an int; vectors answer -1 (all bits) or 0 per component in the signed
 * integer type of the element's size (int for float, long for double) —
 * which is exactly what OpenCL C's own vector comparisons yield, so the
 * vector forms are the operators themselves. select and bitselect for every
 * element type. */
#include "clc_internal.h"

/* F: float type (scalar or vector), I: its comparison result type,
 * AI: as_<signed int type> of F's size, INF / MINN: infinity and the
 * smallest normal. */
#define REL(F, I, AI, INF, MINN)                                                              \
  _CLC_DEF I isequal(F x, F y) { return x == y; }                                             \
  _CLC_DEF I isnotequal(F x, F y) { return x != y; }                                          \
  _CLC_DEF I isgreater(F x, F y) { return x > y; }                                            \
  _CLC_DEF I isgreaterequal(F x, F y) { return x >= y; }                                      \
  _CLC_DEF I isless(F x, F y) { return x < y; }                                               \
  _CLC_DEF I islessequal(F x, F y) { return x <= y; }                                         \
  _CLC_DEF I islessgreater(F x, F y) { return (x < y) | (x > y); }                            \
  _CLC_DEF I isfinite(F x) { return fabs(x) < INF; }                                          \
  _CLC_DEF I isinf(F x) { return fabs(x) == INF; }                                            \
  _CLC_DEF I isnan(F x) { return x != x; }                                                    \
  _CLC_DEF I isnormal(F x) { return (fabs(x) >= MINN) & (fabs(x) < INF); }                    \
  _CLC_DEF I isordered(F x, F y) { return (x == x) & (y == y); }                              \
  _CLC_DEF I isunordered(F x, F y) { return (x != x) | (y != y); }                            \
  _CLC_DEF I signbit(F x) { return AI(x) < 0; }
#define REL_ALL(F, I, SI, INF, MINN)                                                          \
  REL(F, int, as_##SI, INF, MINN) REL(F##2, I##2, as_##SI##2, INF, MINN)                      \
  REL(F##3, I##3, as_##SI##3, INF, MINN) REL(F##4, I##4, as_##SI##4, INF, MINN)               \
  REL(F##8, I##8, as_##SI##8, INF, MINN) REL(F##16, I##16, as_##SI##16, INF, MINN)
REL_ALL(float, int, int, INFINITY, FLT_MIN)
REL_ALL(double, long, long, (double)INFINITY, DBL_MIN)

/* any / all: the most significant bit of any / all components (signed
 * integer types). */
#define ANY_ALL(T)                                                                            \
  _CLC_DEF int any(T x) { return x < 0; }                                                     \
  _CLC_DEF int all(T x) { return x < 0; }                                                     \
  _CLC_DEF int any(T##2 x) { return (x.s0 | x.s1) < 0; }                                      \
  _CLC_DEF int all(T##2 x) { return (x.s0 & x.s1) < 0; }                                      \
  _CLC_DEF int any(T##3 x) { return (x.s0 | x.s1 | x.s2) < 0; }                               \
  _CLC_DEF int all(T##3 x) { return (x.s0 & x.s1 & x.s2) < 0; }                               \
  _CLC_DEF int any(T##4 x) { return any(x.lo | x.hi); }                                       \
  _CLC_DEF int all(T##4 x) { return all(x.lo & x.hi); }                                       \
  _CLC_DEF int any(T##8 x) { return any(x.lo | x.hi); }                                       \
  _CLC_DEF int all(T##8 x) { return all(x.lo & x.hi); }                                       \
  _CLC_DEF int any(T##16 x) { return any(x.lo | x.hi); }                                      \
  _CLC_DEF int all(T##16 x) { return all(x.lo & x.hi); }
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

/* bitselect(a, b, c): bits of b where c has ones, of a elsewhere.
 * select(a, b, c): scalars b if c != 0; vectors per component b where c's
 * most significant bit is set. S: the signed integer type of T's size,
 * U: the unsigned one. */
#define SEL_ONE(T, S, U)                                                                      \
  _CLC_DEF T bitselect(T a, T b, T c) { return as_##T((S)((as_##S(a) & ~as_##S(c)) | (as_##S(b) & as_##S(c)))); } \
  _CLC_DEF T select(T a, T b, S c) { return c ? b : a; }                                      \
  _CLC_DEF T select(T a, T b, U c) { return c ? b : a; }
#define SEL_VEC(T, S, U)                                                                      \
  _CLC_DEF T bitselect(T a, T b, T c) { return as_##T((as_##S(a) & ~as_##S(c)) | (as_##S(b) & as_##S(c))); } \
  _CLC_DEF T select(T a, T b, S c) {                                                          \
    S m = c < (S)0; /* -1 where the MSB is set */                                             \
    return as_##T((as_##S(a) & ~m) | (as_##S(b) & m));                                       \
  }                                                                                           \
  _CLC_DEF T select(T a, T b, U c) { return select(a, b, as_##S(c)); }
#define SEL(T, S, U)                                                                          \
  SEL_ONE(T, S, U) SEL_VEC(T##2, S##2, U##2) SEL_VEC(T##3, S##3, U##3)                        \
  SEL_VEC(T##4, S##4, U##4) SEL_VEC(T##8, S##8, U##8) SEL_VEC(T##16, S##16, U##16)
SEL(char, char, uchar)
SEL(uchar, char, uchar)
SEL(short, short, ushort)
SEL(ushort, short, ushort)
SEL(int, int, uint)
SEL(uint, int, uint)
SEL(long, long, ulong)
SEL(ulong, long, ulong)
SEL(float, int, uint)
SEL(double, long, ulong)

/* OpenCL 1.2 shuffle and shuffle2 (section 6.12.12): every element type,
 * input and mask widths 2, 4, 8, 16. Only the mask's low log2(inputs) bits
 * select, as the spec says; elements go through private arrays (vstore /
 * vload, vload.cl). */
#include "clc_internal.h"

/* T: element, U: the mask's element (unsigned, same size), M: input width,
 * N: result width. */
#define SHUF(T, U, M, N)                                                                      \
  _CLC_DEF T##N shuffle(T##M x, U##N mask) {                                                  \
    T in[M], out[N];                                                                          \
    U sel[N];                                                                                 \
    vstore##M(x, 0, in);                                                                      \
    vstore##N(mask, 0, sel);                                                                  \
    for (int i = 0; i < N; i++) out[i] = in[sel[i] & (M - 1)];                                \
    return vload##N(0, out);                                                                  \
  }                                                                                           \
  _CLC_DEF T##N shuffle2(T##M x, T##M y, U##N mask) {                                         \
    T in[2 * M], out[N];                                                                      \
    U sel[N];                                                                                 \
    vstore##M(x, 0, in);                                                                      \
    vstore##M(y, 1, in);                                                                      \
    vstore##N(mask, 0, sel);                                                                  \
    for (int i = 0; i < N; i++) out[i] = in[sel[i] & (2 * M - 1)];                            \
    return vload##N(0, out);                                                                  \
  }
#define SHUF_N(T, U, M) SHUF(T, U, M, 2) SHUF(T, U, M, 4) SHUF(T, U, M, 8) SHUF(T, U, M, 16)
#define SHUF_T(T, U) SHUF_N(T, U, 2) SHUF_N(T, U, 4) SHUF_N(T, U, 8) SHUF_N(T, U, 16)
SHUF_T(char, uchar)
SHUF_T(uchar, uchar)
SHUF_T(short, ushort)
SHUF_T(ushort, ushort)
SHUF_T(int, uint)
SHUF_T(uint, uint)
SHUF_T(long, ulong)
SHUF_T(ulong, ulong)
SHUF_T(float, uint)
SHUF_T(double, ulong)

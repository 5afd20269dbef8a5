/* OpenCL 1.2 math functions (section 6.12.2), float and double, scalar and
 * every vector width, native_* and half_* forms.
 *
 * Double: libm (picolibc on the device) where it has the function, else
 * the double helpers below, each built from libm functions with its error
 * bound in a comment. Float: the double function rounded once to float
 * (error <= 0.5 ulp + the double's error, far inside table 7.1), except the
 * exact operations (fabs, floor, fma, ...), which use the float instruction
 * or libm's float function. Vectors: per component (clc_internal.h). */
#include "clc_internal.h"

/* ---- double helpers not in libm ---------------------------------------- */

#define CLC_PI 0x1.921fb54442d18p+1
#define CLC_1_PI 0x1.45f306dc9c883p-2

/* sin(pi x), cos(pi x) for |r| <= 0.25: the argument pi*r carries < 1 ulp
 * of error (pi's rounding + the product), sin/cos add < 1: <= 2.5 ulp. */
_CLC_INL double __clc_sinpi_k(double r) { return __clc_libm_sin(CLC_PI * r); }
_CLC_INL double __clc_cospi_k(double r) { return __clc_libm_cos(CLC_PI * r); }

/* x - 2*rint(x/2): exact, in [-1, 1]. */
_CLC_INL double __clc_mod2(double x) { return x - 2.0 * __clc_rint(x * 0.5); }

_CLC_INL double __clc_sinpi(double x) {
  if (__builtin_isinf(x) || __builtin_isnan(x)) return __builtin_nan("");
  double r = __clc_mod2(x); /* sinpi has period 2 */
  double a = __builtin_fabs(r);
  double s;
  if (a > 0.5) a = 1.0 - a; /* sin(pi (1-a)) = sin(pi a), exact by Sterbenz */
  if (a <= 0.25) s = __clc_sinpi_k(a);
  else s = __clc_cospi_k(0.5 - a);
  /* sign: of r; integers give +-0 with the sign of x */
  if (s == 0.0) return __builtin_copysign(0.0, x);
  return __builtin_copysign(s, r);
}

_CLC_INL double __clc_cospi(double x) {
  if (__builtin_isinf(x) || __builtin_isnan(x)) return __builtin_nan("");
  double a = __builtin_fabs(__clc_mod2(x)); /* [0, 1] */
  double sign = 1.0;
  if (a > 0.5) { a = 1.0 - a; sign = -1.0; } /* cos(pi (1-a)) = -cos(pi a) */
  double c;
  if (a <= 0.25) c = __clc_cospi_k(a);
  else c = __clc_sinpi_k(0.5 - a); /* cos(pi a) = sin(pi (1/2 - a)) */
  if (c == 0.0) return 0.0; /* cospi(n + 1/2) is +0 */
  return sign * c;
}

_CLC_INL double __clc_tanpi(double x) {
  if (__builtin_isinf(x) || __builtin_isnan(x)) return __builtin_nan("");
  double r = x - __clc_rint(x); /* period 1: [-0.5, 0.5], exact */
  double a = __builtin_fabs(r);
  double t;
  if (a <= 0.25) {
    t = __builtin_copysign(__clc_libm_tan(CLC_PI * a), r);
    if (a == 0.0) {
      /* tanpi(n) = +-0: sign of x for even n, its opposite for odd n */
      double n = __clc_rint(x);
      int odd = __builtin_fabs(__clc_mod2(n)) == 1.0;
      return __builtin_copysign(0.0, odd ? -x : x);
    }
  } else {
    /* tan(pi a) = 1 / tan(pi (1/2 - a)); a = 1/2 is the pole */
    double b = 0.5 - a;
    if (b == 0.0) {
      double n = __clc_rint(x - 0.5); /* x = n + 1/2 */
      int odd = __builtin_fabs(__clc_mod2(n)) == 1.0;
      return odd ? -__builtin_inf() : __builtin_inf();
    }
    t = __builtin_copysign(1.0 / __clc_libm_tan(CLC_PI * b), r);
  }
  return t;
}

/* cbrt: libm's, then one Newton step on the exact residual y^3 - x
 * (y*y split exactly by an fma): within 0.6 ulp whatever the libm (glibc's
 * own reaches 2.8 ulp, over OpenCL's 2). */
_CLC_INL double __clc_cbrt(double x) {
  double y = __clc_libm_cbrt(x);
  if (y == 0.0 || __builtin_isinf(y) || __builtin_isnan(y)) return y;
  double a = x, s = 1.0;
  if (__builtin_fabs(y) > 0x1p300 || __builtin_fabs(y) < 0x1p-300) { /* keep y^3 in range */
    int e = (int)__clc_libm_logb(y);
    s = __clc_libm_ldexp(1.0, e);
    y = __clc_libm_ldexp(y, -e);
    a = __clc_libm_ldexp(x, -3 * e);
  }
  double y2 = y * y, y2lo = __builtin_fma(y, y, -y2);
  double r = __builtin_fma(y2, y, -a) + y2lo * y; /* y^3 - a */
  return (y - r / (3.0 * y2)) * s;
}

/* tgamma. picolibc's measured 362 ulp (limit 16), so: Gamma(x) =
 * Gamma(r) * prod (x + j) or Gamma(r) / prod (x + j), r = x - n in [1, 2],
 * with r and every factor carried as an exact double-double (two-sum), the
 * product as a double-double with its exponent kept apart (no overflow on
 * the way), and Gamma(r) = exp(lgamma(r)) (lgamma is near 0 on [1, 2], so
 * its absolute error is the result's relative one), corrected for r's low
 * part by psi(r) ~ r - 1.5772 (|psi(r) - that| < 0.08, times < 2^-52). */
_CLC_INL void __clc_two_sum(double a, double b, double *s, double *e) {
  double t = a + b, bb = t - a;
  *s = t;
  *e = (a - (t - bb)) + (b - bb);
}
_CLC_INL double __clc_tgamma(double x) {
  if (__builtin_isnan(x)) return x;
  if (x == 0.0) return __builtin_copysign(__builtin_inf(), x);
  if (__builtin_isinf(x)) return x > 0.0 ? x : __builtin_nan("");
  if (x < 0.0 && x == __clc_rint(x)) return __builtin_nan("");
  if (x > 171.7) return __builtin_inf();
  if (__builtin_fabs(x) < 0x1p-54) return 1.0 / x; /* Gamma(x) = 1/x - 0.577.. + O(x) */
  double n = __clc_floor(x) - 1.0; /* x = r + n, r in [1, 2] */
  if (x < -200.0) { /* |Gamma(x)| < 2^-1200: +-0, the sign of (-1)^ceil(-x) */
    return __builtin_fabs(__clc_mod2(n)) == 1.0 ? 0.0 : -0.0;
  }
  double rh, rl;
  __clc_two_sum(x, -n, &rh, &rl);
  int s;
  double g = __clc_libm_exp(__clc_libm_lgamma_r(rh, &s));
  g = __builtin_fma(g, (rh - 1.5772156649015329) * rl, g);
  /* the product of (x + j), j over the integers between x and r */
  double ph = 1.0, pl = 0.0;
  int e = 0;
  double j0 = n > 0.0 ? 0.0 : n, j1 = n > 0.0 ? n : 0.0; /* j in [j0, j1) gives the factors x - ... */
  for (double j = j0; j < j1; j += 1.0) {
    double mh, ml;
    /* factors: r + j for n > 0 (r, r+1, ..., x-1); x + (j - n) for n < 0 */
    if (n > 0.0) __clc_two_sum(rh, j, &mh, &ml), ml += rl;
    else __clc_two_sum(x, j - n, &mh, &ml);
    double hi = ph * mh, lo = __builtin_fma(ph, mh, -hi) + (ph * ml + pl * mh);
    double t = hi + lo;
    pl = lo - (t - hi);
    ph = t;
    if (__builtin_fabs(ph) > 0x1p500) { ph *= 0x1p-500; pl *= 0x1p-500; e += 500; }
  }
  double res;
  if (n > 0.0) {
    double hi = g * ph;
    res = hi + (__builtin_fma(g, ph, -hi) + g * pl);
    return __clc_libm_ldexp(res, e);
  }
  double q = g / ph;
  double rem = __builtin_fma(-q, ph, g);
  res = q + (rem - q * pl) / ph;
  return __clc_libm_ldexp(res, -e);
}

_CLC_INL double __clc_asinpi(double x) { return __clc_libm_asin(x) * CLC_1_PI; }
_CLC_INL double __clc_acospi(double x) { return __clc_libm_acos(x) * CLC_1_PI; }
_CLC_INL double __clc_atanpi(double x) { return __clc_libm_atan(x) * CLC_1_PI; }
_CLC_INL double __clc_atan2pi(double y, double x) { return __clc_libm_atan2(y, x) * CLC_1_PI; }

/* 1/sqrt(x): two roundings, <= 1.5 ulp (limit 2 for double). */
_CLC_INL double __clc_rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }

_CLC_INL double __clc_powr(double x, double y) {
  if (x < 0.0 || __builtin_isnan(x) || __builtin_isnan(y)) return __builtin_nan("");
  x = x == 0.0 ? 0.0 : x; /* -0 is +0 here: powr(-0, -1) is +inf and powr(-0, 1) is +0, where pow keeps the sign */
  if ((x == 0.0 || __builtin_isinf(x)) && y == 0.0) return __builtin_nan("");
  if (x == 1.0 && __builtin_isinf(y)) return __builtin_nan("");
  return __clc_libm_pow(x, y);
}

/* x^n: pow with an exactly converted integer exponent. */
_CLC_INL double __clc_pown(double x, int n) { return __clc_libm_pow(x, (double)n); }

/* log2 as k + log(m) / ln 2 with x = 2^k m, m in [sqrt(1/2), sqrt(2)):
 * exact for powers of two, and |log(m) / ln 2| <= 0.5 keeps log's error
 * (< 1 ulp) and the product's (< 1, ln 2's inverse split in two) in the
 * smaller term: < 2.5 ulp (limit 3). picolibc's log2 is log(x) / ln 2 with
 * ln 2 converted from long double on every call: a softfloat routine,
 * which took longer than log itself on an emulated hart. */
#define CLC_LOG2E_HI 0x1.71547652b82fep+0
#define CLC_LOG2E_LO 0x1.777d0ffda0d24p-56
_CLC_INL double __clc_log2(double x) {
  if (!(x > 0.0) || __builtin_isinf(x)) return __clc_libm_log(x); /* NaN, -inf (for +-0), NaN, +inf */
  ulong b = as_ulong(x);
  int k = -1023;
  if (b < 0x0010000000000000ul) { /* subnormal */
    b = as_ulong(x * 0x1p54);
    k -= 54;
  }
  ulong m = (b & 0x000ffffffffffffful) | 0x3ff0000000000000ul;
  k += (int)(b >> 52);
  if (m > 0x3ff6a09e667f3bcdul) { /* m > sqrt(2): halve it */
    m -= 0x0010000000000000ul;
    k++;
  }
  double t = __clc_libm_log(as_double(m));
  return (double)k + __builtin_fma(t, CLC_LOG2E_HI, t * CLC_LOG2E_LO);
}

/* 2^x and 10^x. picolibc computes both as pow(2, x) and pow(10, x): three
 * times exp's time on an emulated hart. Here exp(x ln b) with the product's
 * rounding error e (an fma, and ln b's own in a second word) applied as
 * exp(t)(1 + e): exp's error (< 1 ulp) and the last product's (0.5). Only
 * where the result is a normal number: beyond, pow keeps the edge cases
 * (overflow, subnormal results, inf, NaN), and a large |x| leaves pow early.
 * 2^n for an integer n is exact. */
#define CLC_LN2_HI 0x1.62e42fefa39efp-1
#define CLC_LN2_LO 0x1.abc9e3b39803fp-56
#define CLC_LN10_HI 0x1.26bb1bbb55516p+1
#define CLC_LN10_LO -0x1.f48ad494ea3e9p-53
_CLC_INL double __clc_exp_scaled(double x, double hi, double lo) {
  double t = x * hi;
  double e = __builtin_fma(x, hi, -t) + x * lo;
  double r = __clc_libm_exp(t);
  return __builtin_fma(r, e, r);
}
_CLC_INL double __clc_exp2(double x) {
  if (!(__builtin_fabs(x) < 1000.0)) return __clc_libm_exp2(x);
  if (x == __clc_rint(x)) return as_double((ulong)((long)x + 1023) << 52);
  return __clc_exp_scaled(x, CLC_LN2_HI, CLC_LN2_LO);
}
_CLC_INL double __clc_exp10(double x) {
  if (!(__builtin_fabs(x) < 300.0)) return __clc_libm_exp10(x);
  return __clc_exp_scaled(x, CLC_LN10_HI, CLC_LN10_LO);
}

/* x^(1/n). pow(|x|, d) with d = fl(1/n) is off by the factor
 * |x|^(1/n - d) = 1 + (1/n - d) ln|x| (up to ~230 ulp for |x| near the top
 * of the range): the residual 1/n - d comes exactly from an fma, and the
 * factor is applied as one correction. */
_CLC_INL double __clc_rootn(double x, int n) {
  if (n == 0 || __builtin_isnan(x)) return __builtin_nan("");
  int odd = n & 1;
  if (x < 0.0 && !odd) return __builtin_nan("");
  double a = __builtin_fabs(x);
  double d = 1.0 / (double)n;
  double y = __clc_libm_pow(a, d);
  if (y != 0.0 && !__builtin_isinf(y) && a != 1.0) {
    double delta = __builtin_fma(-d, (double)n, 1.0) / (double)n;
    y = __builtin_fma(y, delta * __clc_libm_log(a), y);
  }
  return odd ? __builtin_copysign(y, x) : y;
}

/* A float's rootn: pow's result without the correction, which moves it by
 * < 2^-54 * 89 relative for a float's |x| (ln of the largest float is 89):
 * far below a float's ulp, and the log it takes is a third of the time. */
_CLC_INL float __clc_rootn_float(float xf, int n) {
  double x = (double)xf;
  if (n == 0 || __builtin_isnan(x)) return __builtin_nanf("");
  if (x < 0.0 && !(n & 1)) return __builtin_nanf("");
  double y = __clc_libm_pow(__builtin_fabs(x), 1.0 / (double)n);
  return (float)((n & 1) ? __builtin_copysign(y, x) : y);
}

/* A double's sin, cos and tan, where picolibc would reduce with
 * __kernel_rem_pio2 (|x| >= 2^20 pi/2: most doubles of the CTS's random
 * bits). The same integer reduction as a float's below, wider: x = m 2^E
 * (m < 2^53), x 2/pi mod 4 = m W 2^-190 mod 4 where W is the 192 bits of
 * 2/pi from bit E-1 on (bits before it add multiples of 4): the low 192
 * bits of that product, five 64-bit products. The bits left out move it by
 * < 2^-137; the nearest a double comes to a multiple of pi/2 is ~2^-61
 * (6381956970095103 * 2^797), so r + tail keeps > 70 good bits. A C copy
 * (glibc's sin, cos, tan for r) against sinl, cosl, tanl on 2.6 M doubles
 * from 2^20 up: at most 1.0, 1.0 and 2.0 ulp (limits 4, 4, 5). */
constant ulong __clc_two_over_pi_64[20] = {
    0x0000000000000000UL, 0xA2F9836E4E441529UL, 0xFC2757D1F534DDC0UL, 0xDB6295993C439041UL,
    0xFE5163ABDEBBC561UL, 0xB7246E3A424DD2E0UL, 0x06492EEA09D1921CUL, 0xFE1DEB1CB129A73EUL,
    0xE88235F52EBB4484UL, 0xE99C7026B45F7E41UL, 0x3991D639835339F4UL, 0x9C845F8BBDF9283BUL,
    0x1FF897FFDE05980FUL, 0xEF2F118B5A0A6D1FUL, 0x6D367ECF27CB09B7UL, 0x4F463F669E5FEA2DUL,
    0x7527BAC7EBE5F17BUL, 0x3D0739F78A5292EAUL, 0x6BFB5FB11F8D5D08UL, 0x56033046FC7B6BABUL};

/* 64 bits of 2/pi from bit 64 j + o - 63 on (the table starts with 64 zero
 * bits, so that bit numbers down to -63 read as 0). */
_CLC_INL ulong __clc_two_over_pi_word(int j, int o) {
  ulong w = __clc_two_over_pi_64[j];
  return o ? (w << o) | (__clc_two_over_pi_64[j + 1] >> (64 - o)) : w;
}

/* x (finite, >= 2^20) = (4k + *q) pi/2 + r + *tail, |r| <= pi/4. */
_CLC_INL double __clc_reduce_double(double x, int *q, double *tail) {
  ulong u = as_ulong(x);
  ulong m = (u & 0xfffffffffffffUL) | (1UL << 52);
  int p0 = (int)(u >> 52) - 1075 + 62; /* bit E-1 of 2/pi, counted in the table */
  int j = p0 >> 6, o = p0 & 63;
  ulong w0 = __clc_two_over_pi_word(j, o), w1 = __clc_two_over_pi_word(j + 1, o);
  ulong w2 = __clc_two_over_pi_word(j + 2, o);
  ulong r0 = m * w2, b0 = m * w1; /* r2:r1:r0 = m (w0 w1 w2) mod 2^192 */
  ulong r1 = __clc_umul_hi64(m, w2) + b0;
  ulong r2 = __clc_umul_hi64(m, w1) + m * w0 + (r1 < b0);
  int quadrant = (int)(r2 >> 62);
  ulong hi = (r2 << 2) | (r1 >> 62), lo = (r1 << 2) | (r0 >> 62); /* the fraction in 2^-128 */
  int neg = (int)(hi >> 63); /* >= 1/2: take it as f - 1, in the next quadrant */
  if (neg) {
    lo = ~lo + 1;
    hi = ~hi + (lo == 0);
    quadrant++;
  }
  int lz = __builtin_clzl(hi); /* < 63: |f| > 2^-62 */
  if (lz) {
    hi = (hi << lz) | (lo >> (64 - lz));
    lo <<= lz;
  }
  double scale = as_double((ulong)(1023 - 64 - lz) << 52);
  double fh = (double)(hi >> 11) * (scale * 0x1p11), fl = ((double)(hi & 0x7ff) + (double)lo * 0x1p-64) * scale;
  double rh = fh * 0x1.921fb54442d18p+0; /* pi/2 in two words */
  double rl = __builtin_fma(fh, 0x1.921fb54442d18p+0, -rh) + (fh * 0x1.1a62633145c07p-54 + fl * 0x1.921fb54442d18p+0);
  double r = rh + rl, t = rl - (r - rh);
  *q = quadrant & 3;
  *tail = neg ? -t : t;
  return neg ? -r : r;
}

_CLC_INL int __clc_reduces_double(double x) { return __builtin_fabs(x) >= 0x1p20 && !__builtin_isinf(x); }

/* sin(r + t) and cos(r + t) to first order in t (t < ulp(r) / 2). */
_CLC_INL double __clc_sin_tail(double r, double t) { return __clc_libm_sin(r) + t * (1.0 - 0.5 * r * r); }
_CLC_INL double __clc_cos_tail(double r, double t) { return __clc_libm_cos(r) - t * r; }

_CLC_INL double __clc_sin_double(double x) {
  if (!__clc_reduces_double(x)) return __clc_libm_sin(x);
  int q;
  double t, r = __clc_reduce_double(__builtin_fabs(x), &q, &t);
  double s = q & 1 ? __clc_cos_tail(r, t) : __clc_sin_tail(r, t);
  if (q & 2) s = -s;
  return x < 0.0 ? -s : s;
}

_CLC_INL double __clc_cos_double(double x) {
  if (!__clc_reduces_double(x)) return __clc_libm_cos(x);
  int q;
  double t, r = __clc_reduce_double(__builtin_fabs(x), &q, &t);
  double c = q & 1 ? -__clc_sin_tail(r, t) : __clc_cos_tail(r, t);
  return q & 2 ? -c : c;
}

/* tan(r + t), or -cot(r + t) in odd quadrants, as libm's tan does after its
 * own reduction: -1 / tan(r) would round twice (docs/opencl.md). */
_CLC_INL double __clc_tan_double(double x) {
  if (!__clc_reduces_double(x)) return __clc_libm_tan(x);
  int q;
  double t, r = __clc_reduce_double(__builtin_fabs(x), &q, &t);
  double v = __clc_libm_kernel_tan(r, t, q & 1 ? -1 : 1);
  return x < 0.0 ? -v : v;
}

/* A float's sin, cos and tan. picolibc reduces arguments above 2^20 pi/2
 * with __kernel_rem_pio2: a few hundred floating-point operations, each a
 * softfloat call on an emulated hart, for ~40% of all floats. A float of
 * at least 2^25 is m * 2^E (m < 2^24, E >= 2), so x * 2/pi modulo 4 needs
 * only the 96 bits of 2/pi from bit E-1 on: three integer products. The
 * bits left out move the result by < 2^-70; a float's nearest approach to
 * a multiple of pi/2 is far larger, so r keeps ~52 good bits. */
constant uint __clc_two_over_pi[8] = {0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0,
                                      0xDB629599, 0x3C439041, 0xFE5163AB, 0xDEBBC561};

/* 32 bits of 2/pi from bit s on (bit 1 is the first after the point). */
_CLC_INL ulong __clc_two_over_pi_bits(int s) {
  int i = (s - 1) >> 5, off = (s - 1) & 31;
  ulong pair = ((ulong)__clc_two_over_pi[i] << 32) | __clc_two_over_pi[i + 1];
  return (pair << off) >> 32;
}

/* x (a float's value, 2^25 <= x < 2^128) = (4k + *q) pi/2 + r, |r| <= pi/4. */
_CLC_INL double __clc_reduce_float(double x, int *q) {
  ulong u = as_ulong(x);
  uint m = (uint)(((u & 0xfffffffffffffUL) | (1UL << 52)) >> 29);
  int e = (int)(u >> 52) - 1075 + 29; /* x = m * 2^e */
  ulong w0 = __clc_two_over_pi_bits(e - 1), w1 = __clc_two_over_pi_bits(e + 31), w2 = __clc_two_over_pi_bits(e + 63);
  /* x 2/pi mod 4 = m (w0 2^64 + w1 2^32 + w2) 2^-94 mod 4: hi:lo is that product */
  ulong p2 = m * w2, p1 = m * w1, lo = p2 + (p1 << 32);
  ulong hi = m * w0 + (p1 >> 32) + (lo < p2);
  int quadrant = (int)(hi >> 30) & 3;
  long frac = (long)((hi << 34) | (lo >> 30)); /* the fraction in 2^-64, as [-1/2, 1/2) */
  if (frac < 0) quadrant = (quadrant + 1) & 3;
  *q = quadrant;
  return (double)frac * 0x1p-64 * 0x1.921fb54442d18p+0; /* pi/2 */
}

_CLC_INL int __clc_reduces(double x) { return __builtin_fabs(x) >= 0x1p25 && !__builtin_isinf(x); }

_CLC_INL double __clc_sin_float(double x) {
  if (!__clc_reduces(x)) return __clc_sin_double(x);
  int q;
  double r = __clc_reduce_float(__builtin_fabs(x), &q);
  double s = q & 1 ? __clc_libm_cos(r) : __clc_libm_sin(r);
  if (q & 2) s = -s;
  return x < 0.0 ? -s : s;
}

_CLC_INL double __clc_cos_float(double x) {
  if (!__clc_reduces(x)) return __clc_cos_double(x);
  int q;
  double r = __clc_reduce_float(__builtin_fabs(x), &q);
  double c = q & 1 ? -__clc_libm_sin(r) : __clc_libm_cos(r);
  return q & 2 ? -c : c;
}

_CLC_INL double __clc_tan_float(double x) {
  if (!__clc_reduces(x)) return __clc_tan_double(x);
  int q;
  double r = __clc_reduce_float(__builtin_fabs(x), &q);
  double t = q & 1 ? -1.0 / __clc_libm_tan(r) : __clc_libm_tan(r);
  return x < 0.0 ? -t : t;
}

/* fmod, remainder and remquo in integers. libm's fmod shifts the
 * dividend's mantissa one bit per step: up to 277 steps for a float's
 * exponents, 2098 for a double's, the slowest built-ins on an emulated
 * hart. Here a step shifts 11 bits into a 64-bit remainder (mantissas are
 * below 2^53): at most 26 steps for floats. Every step is exact, and so
 * are the results. */

/* |x| = m * 2^e, m an integer below 2^53 (x finite). */
_CLC_INL void __clc_split(double x, ulong *m, int *e) {
  ulong u = as_ulong(x) & 0x7fffffffffffffffUL;
  int biased = (int)(u >> 52);
  ulong frac = u & 0xfffffffffffffUL;
  *m = biased ? frac | (1UL << 52) : frac;
  *e = (biased ? biased : 1) - 1075;
}

/* |x| mod |y| = r * 2^*e, where the return value r is below |y| = *my *
 * 2^*e, and the low bits of the truncated quotient in *q. 0 < |y| <= |x|,
 * both finite, so x's exponent is at least y's. */
_CLC_INL ulong __clc_mod_bits(double x, double y, int *e, uint *q, ulong *out_my) {
  ulong mx, my;
  int ex, ey;
  __clc_split(x, &mx, &ex);
  __clc_split(y, &my, &ey);
  *out_my = my;
  ulong r = mx % my;
  uint quot = (uint)(mx / my);
  for (int d = ex - ey; d > 0;) {
    int s = d < 11 ? d : 11;
    ulong t = r << s;
    quot = (quot << s) + (uint)(t / my);
    r = t % my;
    d -= s;
  }
  *e = ey;
  *q = quot;
  return r;
}

_CLC_INL double __clc_fmod(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y) || __builtin_isinf(x) || y == 0.0) return __builtin_nan("");
  if (__builtin_fabs(x) < __builtin_fabs(y)) return x; /* y infinite too */
  int e;
  uint q;
  ulong my;
  ulong r = __clc_mod_bits(x, y, &e, &q, &my);
  return __builtin_copysign(__clc_libm_ldexp((double)r, e), x);
}

/* remainder(x, y) = x - n*y, n the nearest integer to x/y (even on a tie);
 * *quo gets n's low 7 bits with the sign of x/y (OpenCL asks for >= 7; C's
 * libm only promises 3). */
_CLC_INL double __clc_remquo(double x, double y, int *quo) {
  *quo = 0;
  if (__builtin_isnan(x) || __builtin_isnan(y) || __builtin_isinf(x) || y == 0.0) return __builtin_nan("");
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  double r;
  uint n;
  if (ax < ay) { /* n is 0 or 1 (y infinite: 0) */
    n = 2.0 * ax > ay; /* (2ax is exact, or overflows only when above ay) */
    r = n ? ax - ay : ax; /* exact: ay/2 < ax < ay */
  } else {
    int e;
    uint q;
    ulong my;
    ulong m = __clc_mod_bits(x, y, &e, &q, &my);
    n = q;
    long rs = (long)m;
    if (2 * m > my || (2 * m == my && (q & 1))) {
      rs -= (long)my;
      n++;
    }
    r = __clc_libm_ldexp((double)rs, e);
  }
  int k = (int)(n & 127);
  *quo = (x < 0.0) != (y < 0.0) ? -k : k;
  return __builtin_copysign(1.0, x) < 0.0 ? -r : r; /* -0 too */
}

_CLC_INL double __clc_remainder(double x, double y) {
  int q;
  return __clc_remquo(x, y, &q);
}

_CLC_INL int __clc_ilogb(double x) {
  if (__builtin_isnan(x)) return FP_ILOGBNAN;
  if (x == 0.0) return FP_ILOGB0;
  if (__builtin_isinf(x)) return INT_MAX;
  int e;
  __clc_libm_frexp(x, &e);
  return e - 1;
}

_CLC_INL double __clc_maxmag(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  if (ax > ay) return x;
  if (ay > ax) return y;
  return __builtin_fmax(x, y);
}
_CLC_INL double __clc_minmag(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  if (ax < ay) return x;
  if (ay < ax) return y;
  return __builtin_fmin(x, y);
}

_CLC_INL double __clc_fdim(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return __builtin_nan("");
  return x > y ? x - y : 0.0;
}

_CLC_INL double __clc_ldexp(double x, int n) { return __clc_libm_ldexp(x, n); }

_CLC_INL double __clc_lgamma(double x) { int s; return __clc_libm_lgamma_r(x, &s); }

/* ---- generators ----------------------------------------------------------- */

/* F(x): double from IMPL, float through it, every width. */
#define MATH_D1(F, IMPL)                                                                      \
  _CLC_DEF double F(double x) { return IMPL(x); }                                             \
  _CLC_DEF float F(float x) { return (float)IMPL((double)x); }                                \
  CLC_V1(float, F, float) CLC_V1(double, F, double)
/* The same, with a float-only path taking the float's value as a double. */
#define MATH_D1F(F, IMPL, FIMPL)                                                              \
  _CLC_DEF double F(double x) { return IMPL(x); }                                             \
  _CLC_DEF float F(float x) { return (float)FIMPL((double)x); }                               \
  CLC_V1(float, F, float) CLC_V1(double, F, double)
#define MATH_D2(F, IMPL)                                                                      \
  _CLC_DEF double F(double x, double y) { return IMPL(x, y); }                                \
  _CLC_DEF float F(float x, float y) { return (float)IMPL((double)x, (double)y); }            \
  CLC_V2(float, F, float, float) CLC_V2(double, F, double, double)
/* Exact in each type: float uses the float operation itself. */
#define MATH_EXACT1(F, FIMPL, DIMPL)                                                          \
  _CLC_DEF double F(double x) { return DIMPL(x); }                                            \
  _CLC_DEF float F(float x) { return FIMPL(x); }                                              \
  CLC_V1(float, F, float) CLC_V1(double, F, double)
#define MATH_EXACT2(F, FIMPL, DIMPL)                                                          \
  _CLC_DEF double F(double x, double y) { return DIMPL(x, y); }                               \
  _CLC_DEF float F(float x, float y) { return FIMPL(x, y); }                                  \
  CLC_V2(float, F, float, float) CLC_V2(double, F, double, double)
/* half_* and native_*: float only, the full-precision function. */
#define MATH_FLOAT_ALIAS1(F, G)                                                               \
  _CLC_DEF float F(float x) { return G(x); }                                                  \
  CLC_V1(float, F, float)
#define MATH_FLOAT_ALIAS2(F, G)                                                               \
  _CLC_DEF float F(float x, float y) { return G(x, y); }                                      \
  CLC_V2(float, F, float, float)

/* ---- one argument --------------------------------------------------------- */
MATH_D1(acos, __clc_libm_acos)
MATH_D1(acosh, __clc_libm_acosh)
MATH_D1(acospi, __clc_acospi)
MATH_D1(asin, __clc_libm_asin)
MATH_D1(asinh, __clc_libm_asinh)
MATH_D1(asinpi, __clc_asinpi)
MATH_D1(atan, __clc_libm_atan)
MATH_D1(atanh, __clc_libm_atanh)
MATH_D1(atanpi, __clc_atanpi)
MATH_D1(cbrt, __clc_cbrt)
MATH_D1F(cos, __clc_cos_double, __clc_cos_float)
MATH_D1(cosh, __clc_libm_cosh)
MATH_D1(cospi, __clc_cospi)
MATH_D1(erfc, __clc_libm_erfc)
MATH_D1(erf, __clc_libm_erf)
MATH_D1(exp, __clc_libm_exp)
MATH_D1(exp2, __clc_exp2)
MATH_D1(exp10, __clc_exp10)
MATH_D1(expm1, __clc_libm_expm1)
MATH_D1(lgamma, __clc_lgamma)
MATH_D1(log, __clc_libm_log)
MATH_D1(log2, __clc_log2)
MATH_D1(log10, __clc_libm_log10)
MATH_D1(log1p, __clc_libm_log1p)
MATH_D1(logb, __clc_libm_logb)
MATH_D1(rsqrt, __clc_rsqrt)
MATH_D1F(sin, __clc_sin_double, __clc_sin_float)
MATH_D1(sinh, __clc_libm_sinh)
MATH_D1(sinpi, __clc_sinpi)
MATH_D1F(tan, __clc_tan_double, __clc_tan_float)
MATH_D1(tanh, __clc_libm_tanh)
MATH_D1(tanpi, __clc_tanpi)
MATH_D1(tgamma, __clc_tgamma)

MATH_EXACT1(ceil, __clc_ceil, __clc_ceil)
MATH_EXACT1(fabs, __builtin_fabsf, __builtin_fabs)
MATH_EXACT1(floor, __clc_floor, __clc_floor)
MATH_EXACT1(rint, __clc_rint, __clc_rint)
MATH_EXACT1(round, __clc_round, __clc_round)
MATH_EXACT1(sqrt, __builtin_sqrtf, __builtin_sqrt) /* correctly rounded in both */
MATH_EXACT1(trunc, __clc_trunc, __clc_trunc)

/* ---- two arguments -------------------------------------------------------- */
MATH_D2(atan2, __clc_libm_atan2)
MATH_D2(atan2pi, __clc_atan2pi)
MATH_D2(fdim, __clc_fdim)
MATH_D2(fmod, __clc_fmod) /* exact: float through double loses nothing */
MATH_D2(hypot, __clc_libm_hypot)
MATH_D2(maxmag, __clc_maxmag)
MATH_D2(minmag, __clc_minmag)
MATH_D2(pow, __clc_libm_pow)
MATH_D2(powr, __clc_powr)
MATH_D2(remainder, __clc_remainder)

MATH_EXACT2(copysign, __builtin_copysignf, __builtin_copysign)
MATH_EXACT2(fmax, __builtin_fmaxf, __builtin_fmax)
MATH_EXACT2(fmin, __builtin_fminf, __builtin_fmin)
CLC_V2S(float, fmax, float, float) CLC_V2S(double, fmax, double, double)
CLC_V2S(float, fmin, float, float) CLC_V2S(double, fmin, double, double)

/* nextafter steps in the argument's own type. */
#define NEXTAFTER(T, I, ASI, AST, TINY)                                                       \
  _CLC_DEF T nextafter(T x, T y) {                                                            \
    if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;                               \
    if (x == y) return y;                                                                     \
    if (x == (T)0) return __builtin_copysign(TINY, y);                                        \
    I b = ASI(x);                                                                             \
    b += ((x < y) == (x > (T)0)) ? (I)1 : (I)-1;                                              \
    return AST(b);                                                                            \
  }                                                                                           \
  CLC_V2(T, nextafter, T, T)
NEXTAFTER(float, int, as_int, as_float, 0x1p-149f)
NEXTAFTER(double, long, as_long, as_double, 0x1p-1074)

/* ---- three arguments ------------------------------------------------------ */
_CLC_DEF float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
_CLC_DEF double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
_CLC_DEF float mad(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
_CLC_DEF double mad(double a, double b, double c) { return __builtin_fma(a, b, c); }
CLC_V3(float, fma, float, float, float) CLC_V3(double, fma, double, double, double)
CLC_V3(float, mad, float, float, float) CLC_V3(double, mad, double, double, double)

/* ---- integer arguments and results ---------------------------------------- */
_CLC_DEF double ldexp(double x, int n) { return __clc_ldexp(x, n); }
_CLC_DEF float ldexp(float x, int n) { return (float)__clc_ldexp((double)x, n); }
CLC_V2(float, ldexp, float, int) CLC_V2(double, ldexp, double, int)
CLC_V2S(float, ldexp, float, int) CLC_V2S(double, ldexp, double, int)

_CLC_DEF double pown(double x, int n) { return __clc_pown(x, n); }
_CLC_DEF float pown(float x, int n) { return (float)__clc_pown((double)x, n); }
CLC_V2(float, pown, float, int) CLC_V2(double, pown, double, int)

_CLC_DEF double rootn(double x, int n) { return __clc_rootn(x, n); }
_CLC_DEF float rootn(float x, int n) { return __clc_rootn_float(x, n); }
CLC_V2(float, rootn, float, int) CLC_V2(double, rootn, double, int)

_CLC_DEF int ilogb(double x) { return __clc_ilogb(x); }
_CLC_DEF int ilogb(float x) { return __clc_ilogb((double)x); }
CLC_V1(int, ilogb, float) CLC_V1(int, ilogb, double)

_CLC_DEF float nan(uint c) { return as_float(0x7fc00000u | (c & 0x003fffffu)); }
_CLC_DEF double nan(ulong c) { return as_double(0x7ff8000000000000ul | (c & 0x0007fffffffffffful)); }
CLC_V1(float, nan, uint) CLC_V1(double, nan, ulong)

/* ---- pointer outputs (private here; __global/__local below) ---------------- */

_CLC_DEF double lgamma_r(double x, int *s) { return __clc_libm_lgamma_r(x, s); }
_CLC_DEF float lgamma_r(float x, int *s) { return (float)__clc_libm_lgamma_r((double)x, s); }
CLC_VP1(float, lgamma_r, float, int) CLC_VP1(double, lgamma_r, double, int)

_CLC_DEF double frexp(double x, int *e) {
  if (__builtin_isinf(x) || __builtin_isnan(x)) { *e = 0; return x; }
  return __clc_libm_frexp(x, e);
}
_CLC_DEF float frexp(float x, int *e) { return (float)frexp((double)x, e); }
CLC_VP1(float, frexp, float, int) CLC_VP1(double, frexp, double, int)

_CLC_DEF double remquo(double x, double y, int *q) { return __clc_remquo(x, y, q); }
_CLC_DEF float remquo(float x, float y, int *q) { return (float)__clc_remquo((double)x, (double)y, q); }
CLC_VP2(float, remquo, float, int) CLC_VP2(double, remquo, double, int)

/* fract: x - floor(x), below 1 (the largest value under 1 of the type). */
#define FRACT_MODF_SINCOS(T, ONE_MINUS)                                                       \
  _CLC_DEF T fract(T x, T *ip) {                                                              \
    T f = __clc_floor(x);                                                                 \
    *ip = f;                                                                                  \
    if (__builtin_isnan(x)) return x;                                                         \
    if (__builtin_isinf(x)) return __builtin_copysign((T)0, x);                               \
    return __builtin_fmin(x - f, ONE_MINUS);                                                  \
  }                                                                                           \
  _CLC_DEF T modf(T x, T *ip) {                                                               \
    T i = __clc_trunc(x);                                                                 \
    *ip = i;                                                                                  \
    if (__builtin_isnan(x)) return x;                                                         \
    return __builtin_copysign(__builtin_isinf(x) ? (T)0 : x - i, x);                         \
  }                                                                                           \
  _CLC_DEF T sincos(T x, T *c) { *c = cos(x); return sin(x); }                                \
  CLC_VP1(T, fract, T, T) CLC_VP1(T, modf, T, T) CLC_VP1(T, sincos, T, T)
FRACT_MODF_SINCOS(float, 0x1.fffffep-1f)
FRACT_MODF_SINCOS(double, 0x1.fffffffffffffp-1)

#define MATH_PTR_SPACES(T, I)                                                                 \
  CLC_ALLW(CLC_AS1, T, fract, T, T) CLC_ALLW(CLC_AS1, T, modf, T, T)                          \
  CLC_ALLW(CLC_AS1, T, sincos, T, T) CLC_ALLW(CLC_AS1, T, frexp, T, I)                        \
  CLC_ALLW(CLC_AS1, T, lgamma_r, T, I) CLC_ALLW(CLC_AS2, T, remquo, T, I)
MATH_PTR_SPACES(float, int)
MATH_PTR_SPACES(double, int)

/* Built with the generic address space (OpenCL C 2.0/3.0, as
 * sdk/opencl/CMakeLists.txt builds the library), the unqualified pointers
 * above are generic: OpenCL C 1.x kernels also need the __private forms
 * (which reach the generic ones through a (P *) cast: &t alone would pick
 * the __private overload itself). */
#ifdef __opencl_c_generic_address_space
#define CLC_ASP1(R, F, A, P) _CLC_DEF R F(A x, __private P *p) { P t; R r = F(x, (P *)&t); *p = t; return r; }
#define CLC_ASP2(R, F, A, P) _CLC_DEF R F(A x, A y, __private P *p) { P t; R r = F(x, y, (P *)&t); *p = t; return r; }
#define MATH_PTR_PRIVATE(T, I)                                                                \
  CLC_ALLW(CLC_ASP1, T, fract, T, T) CLC_ALLW(CLC_ASP1, T, modf, T, T)                        \
  CLC_ALLW(CLC_ASP1, T, sincos, T, T) CLC_ALLW(CLC_ASP1, T, frexp, T, I)                      \
  CLC_ALLW(CLC_ASP1, T, lgamma_r, T, I) CLC_ALLW(CLC_ASP2, T, remquo, T, I)
MATH_PTR_PRIVATE(float, int)
MATH_PTR_PRIVATE(double, int)
#endif

/* ---- half_* and native_* (float): the full-precision functions ------------ */
_CLC_INL float __clc_divide(float x, float y) { return x / y; }
_CLC_INL float __clc_recip(float x) { return 1.0f / x; }
#define MATH_REDUCED(P)                                                                       \
  MATH_FLOAT_ALIAS1(P##cos, cos) MATH_FLOAT_ALIAS2(P##divide, __clc_divide)                   \
  MATH_FLOAT_ALIAS1(P##exp, exp) MATH_FLOAT_ALIAS1(P##exp2, exp2)                             \
  MATH_FLOAT_ALIAS1(P##exp10, exp10) MATH_FLOAT_ALIAS1(P##log, log)                           \
  MATH_FLOAT_ALIAS1(P##log2, log2) MATH_FLOAT_ALIAS1(P##log10, log10)                         \
  MATH_FLOAT_ALIAS2(P##powr, powr) MATH_FLOAT_ALIAS1(P##recip, __clc_recip)                   \
  MATH_FLOAT_ALIAS1(P##rsqrt, rsqrt) MATH_FLOAT_ALIAS1(P##sin, sin)                           \
  MATH_FLOAT_ALIAS1(P##sqrt, sqrt) MATH_FLOAT_ALIAS1(P##tan, tan)
MATH_REDUCED(half_)
MATH_REDUCED(native_)

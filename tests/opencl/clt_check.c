/* clt_check.h: the references and comparisons. Host code (x86-64 long
 * double, glibc libm, the FPU's rounding modes). */
#define _GNU_SOURCE
#include "clt_check.h"

#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clt_cases.h"

typedef long double ld;
typedef __int128 i128;
typedef unsigned __int128 u128;

/* ---- plumbing --------------------------------------------------------------- */
typedef struct checker {
  clt_runner_fn run;
  void *ctx;
  const clt_options_t *o;
  int failures;
  int cases;
} checker_t;

static uint64_t rng_s = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rng_s ^= rng_s << 13;
  rng_s ^= rng_s >> 7;
  rng_s ^= rng_s << 17;
  return rng_s;
}
static double unif(double lo, double hi) { return lo + (hi - lo) * (double)(rnd() >> 11) * 0x1p-53; }

static uint32_t round_block(uint32_t n) { return (n + CLT_BLOCK - 1) / CLT_BLOCK * CLT_BLOCK; }

static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s ? s : 1);
  if (!p) {
    fprintf(stderr, "clt_check: out of memory (%zu x %zu)\n", n, s);
    exit(2);
  }
  return p;
}

/* Runs op; a runner failure counts as a failed case. */
static int run(checker_t *c, int32_t op, int32_t p0, int32_t p1, int32_t p2, int32_t p3, void *in0, void *in1,
               void *in2, void *in3, void *out0, void *out1, void *out2, uint32_t n) {
  const int32_t p[4] = {p0, p1, p2, p3};
  void *const in[CLT_MAX_IN] = {in0, in1, in2, in3};
  void *const out[CLT_MAX_OUT] = {out0, out1, out2};
  if (c->run(c->ctx, op, p, in, out, n)) {
    fprintf(stderr, "FAIL: driver op %d (%d %d %d %d) did not run\n", op, p0, p1, p2, p3);
    c->failures++;
    return -1;
  }
  return 0;
}

static int want(checker_t *c, const char *family) { return !c->o->only || !strcmp(c->o->only, family); }

/* The widths checked against width 1: all, or 3 and 16 (16 runs through 8,
 * 4 and 2 in the library). */
static const int widths_all[] = {2, 3, 4, 8, 16}, widths_few[] = {3, 16};

/* ---- math ------------------------------------------------------------------------ */
static const struct math_row {
  const char *name;
  const char *kind;
  double ulp_f, ulp_d; /* < 0: no limit; -2: no double form */
} math_rows[] = {
#define CLT_ROW(name, kind, uf, ud) {#name, #kind, uf, ud},
    CLT_MATH(CLT_ROW)
#undef CLT_ROW
};

static const ld PI_L = 3.141592653589793238462643383279502884L;

/* x mod 2 in [-1, 1], exact */
static ld mod2(ld x) { return x - 2 * rintl(x / 2); }
static ld ref_sinpi(ld x) {
  if (isinf(x)) return NAN;
  ld r = mod2(x), a = fabsl(r);
  if (a > 0.5L) a = 1 - a;
  ld s = a <= 0.25L ? sinl(PI_L * a) : cosl(PI_L * (0.5L - a));
  return s == 0 ? copysignl(0, x) : copysignl(s, r);
}
static ld ref_cospi(ld x) {
  if (isinf(x)) return NAN;
  ld a = fabsl(mod2(x)), sg = 1;
  if (a > 0.5L) {
    a = 1 - a;
    sg = -1;
  }
  ld c = a <= 0.25L ? cosl(PI_L * a) : sinl(PI_L * (0.5L - a));
  return c == 0 ? 0.0L : sg * c;
}
static ld ref_tanpi(ld x) {
  if (isinf(x)) return NAN;
  ld r = x - rintl(x), a = fabsl(r);
  if (a == 0) return copysignl(0, fabsl(mod2(rintl(x))) == 1 ? -x : x);
  if (a == 0.5L) return fabsl(mod2(rintl(x - 0.5L))) == 1 ? -INFINITY : INFINITY;
  ld t = a <= 0.25L ? tanl(PI_L * a) : 1 / tanl(PI_L * (0.5L - a));
  return copysignl(t, r);
}
static ld ref_rootn(ld x, int n) {
  if (n == 0 || isnan(x)) return NAN;
  if (x < 0 && !(n & 1)) return NAN;
  ld y = powl(fabsl(x), 1.0L / n);
  return (n & 1) ? copysignl(y, x) : y;
}
static ld ref_powr(ld x, ld y) {
  if (x < 0 || isnan(x) || isnan(y)) return NAN;
  if (x == 0) x = 0; /* powr(-0, y) is powr(+0, y) (OpenCL C 7.5.1): +inf for y < 0, +0 for y > 0 */
  if ((x == 0 || isinf(x)) && y == 0) return NAN;
  if (x == 1 && isinf(y)) return NAN;
  return powl(x, y);
}
static int ref_ilogb(ld x) {
  if (isnan(x)) return INT_MAX;
  if (x == 0) return INT_MIN;
  if (isinf(x)) return INT_MAX;
  return ilogbl(x);
}
static ld ref_maxmag(ld x, ld y) {
  if (fabsl(x) > fabsl(y)) return x;
  if (fabsl(y) > fabsl(x)) return y;
  return fmaxl(x, y);
}
static ld ref_minmag(ld x, ld y) {
  if (fabsl(x) < fabsl(y)) return x;
  if (fabsl(y) < fabsl(x)) return y;
  return fminl(x, y);
}
/* remquo's quotient: nearest integer to x/y, its low 7 bits (exact: the
 * fmod is exact and the remaining quotient is an integer below 129). */
static int ref_quo7(ld x, ld y) {
  ld ay = fabsl(y), a = fmodl(fabsl(x), 128 * ay);
  int k = (int)((a - remainderl(a, ay)) / ay) & 127;
  return (x < 0) != (y < 0) ? -k : k;
}

/* The reference of one math function. T is float or double (its next
 * representable step matters for nextafter and fract). */
static ld math_ref(int fn, int is_double, ld x, ld y, ld z, int k, ld *r2, int *ri) {
  switch (fn) {
  case CLT_acos: return acosl(x);
  case CLT_acosh: return acoshl(x);
  case CLT_acospi: return acosl(x) / PI_L;
  case CLT_asin: return asinl(x);
  case CLT_asinh: return asinhl(x);
  case CLT_asinpi: return asinl(x) / PI_L;
  case CLT_atan: return atanl(x);
  case CLT_atanh: return atanhl(x);
  case CLT_atanpi: return atanl(x) / PI_L;
  case CLT_cbrt: return cbrtl(x);
  case CLT_ceil: return ceill(x);
  case CLT_cos: case CLT_half_cos: case CLT_native_cos: return cosl(x);
  case CLT_cosh: return coshl(x);
  case CLT_cospi: return ref_cospi(x);
  case CLT_erfc: return erfcl(x);
  case CLT_erf: return erfl(x);
  case CLT_exp: case CLT_half_exp: case CLT_native_exp: return expl(x);
  case CLT_exp2: case CLT_half_exp2: case CLT_native_exp2: return exp2l(x);
  case CLT_exp10: case CLT_half_exp10: case CLT_native_exp10: return exp10l(x);
  case CLT_expm1: return expm1l(x);
  case CLT_fabs: return fabsl(x);
  case CLT_floor: return floorl(x);
  case CLT_lgamma: return lgammal(x);
  case CLT_log: case CLT_half_log: case CLT_native_log: return logl(x);
  case CLT_log2: case CLT_half_log2: case CLT_native_log2: return log2l(x);
  case CLT_log10: case CLT_half_log10: case CLT_native_log10: return log10l(x);
  case CLT_log1p: return log1pl(x);
  case CLT_logb: return logbl(x);
  case CLT_rint: return rintl(x);
  case CLT_round: return roundl(x);
  case CLT_rsqrt: case CLT_half_rsqrt: case CLT_native_rsqrt: return 1 / sqrtl(x);
  case CLT_sin: case CLT_half_sin: case CLT_native_sin: return sinl(x);
  case CLT_sinh: return sinhl(x);
  case CLT_sinpi: return ref_sinpi(x);
  case CLT_sqrt: case CLT_half_sqrt: case CLT_native_sqrt: return sqrtl(x);
  case CLT_tan: case CLT_half_tan: case CLT_native_tan: return tanl(x);
  case CLT_tanh: return tanhl(x);
  case CLT_tanpi: return ref_tanpi(x);
  case CLT_tgamma: return tgammal(x);
  case CLT_trunc: return truncl(x);
  case CLT_half_recip: case CLT_native_recip: return 1 / x;
  case CLT_atan2: return atan2l(x, y);
  case CLT_atan2pi: return atan2l(x, y) / PI_L;
  case CLT_copysign: return copysignl(x, y);
  case CLT_fdim: return isnan(x) || isnan(y) ? NAN : x > y ? x - y : 0.0L;
  case CLT_fmax: return fmaxl(x, y);
  case CLT_fmin: return fminl(x, y);
  case CLT_fmod: return fmodl(x, y);
  case CLT_hypot: return hypotl(x, y);
  case CLT_maxmag: return ref_maxmag(x, y);
  case CLT_minmag: return ref_minmag(x, y);
  case CLT_nextafter: return is_double ? (ld)nextafter((double)x, (double)y) : (ld)nextafterf((float)x, (float)y);
  case CLT_pow: return powl(x, y);
  case CLT_powr: case CLT_half_powr: case CLT_native_powr: return ref_powr(x, y);
  case CLT_remainder: return remainderl(x, y);
  case CLT_half_divide: case CLT_native_divide: return x / y;
  case CLT_fma: case CLT_mad: return fmal(x, y, z);
  case CLT_ldexp: return ldexpl(x, k);
  case CLT_pown: return powl(x, (ld)k);
  case CLT_rootn: return ref_rootn(x, k);
  case CLT_ilogb: *ri = ref_ilogb(x); return 0;
  case CLT_fract: {
    ld f = floorl(x);
    *r2 = f;
    if (isnan(x)) return x;
    if (isinf(x)) return copysignl(0, x);
    ld below1 = is_double ? 0x1.fffffffffffffp-1L : 0x1.fffffep-1L;
    return fminl(x - f, below1);
  }
  case CLT_modf: {
    ld i = truncl(x);
    *r2 = i;
    if (isnan(x)) return x;
    return copysignl(isinf(x) ? 0 : x - i, x);
  }
  case CLT_sincos: *r2 = cosl(x); return sinl(x);
  case CLT_frexp: {
    if (isinf(x) || isnan(x)) {
      *ri = 0;
      return x;
    }
    return frexpl(x, ri);
  }
  case CLT_lgamma_r: return lgammal_r(x, ri);
  case CLT_remquo:
    *ri = isnan(x) || isnan(y) || isinf(x) || y == 0 ? 0 : ref_quo7(x, y);
    return remainderl(x, y);
  }
  return NAN;
}

/* Error of got against ref in ulps of the result type (mant: 24 or 53). */
static double ulp_error(ld ref, ld got, int mant, int emin, ld maxv) {
  if (isnan(ref)) return isnan(got) ? 0 : INFINITY;
  if (isnan(got)) return INFINITY;
  if (isinf(got) || isinf(ref)) {
    if (got == ref) return 0;
    /* an infinite result where the exact one is beyond the largest finite (overflow) */
    if (fabsl(ref) >= maxv && signbit(ref) == signbit(got) && (isinf(got) || fabsl(got) == maxv)) return 0;
    return INFINITY;
  }
  int e = ref == 0 ? emin : ilogbl(ref);
  if (e < emin) e = emin;
  ld ulp = ldexpl(1, e - (mant - 1));
  return (double)(fabsl(got - ref) / ulp);
}

static void gen_fp(int is_double, int fn, double *v, uint32_t n) {
  static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, INFINITY, -INFINITY, NAN, 0.25,
                                   0.75, 1.5, -1.5, 2.5, -2.5, 3.0, 100.0, -100.0, 1e-10, -1e-10, 1e10, 3.14159265,
                                   0.1, 10.0, 1e30, -1e30, 1e300, 88.7, -103.9, 709.7, -745.1, 16777217.0,
                                   /* float trigonometry's own reduction: where it starts, the float nearest
                                    * a multiple of pi/2 above it (r ~ 1.6e-9), the largest float */
                                   0x1p25, 0x1.fffffep+24, 0x1.f37c8ap+95, -0x1.f37c8ap+95, 0x1.fffffep+127,
                                   /* log2's split: subnormals, either side of sqrt(2), powers of two */
                                   0x1p-1074, 0x1.8p-1040, 0x1p-149, 0x1.6a09e667f3bcdp+0, 0x1.6a09e667f3bcep+0,
                                   0x1.6a09e6p+0, 0x1p-126, 0x1p+1023, 0x1p-20,
                                   /* exp2's and exp10's own path ends at 1000 and 300 */
                                   999.9, -999.9, 1023.9, -1070.3, 299.99, -299.99, 308.2, -323.1,
                                   /* double trigonometry's own reduction: where it starts, the double
                                    * nearest a multiple of pi/2, the largest double */
                                   0x1p20, -0x1p20, 0x1.6ac5b262ca1ffp+849, -0x1.6ac5b262ca1ffp+849,
                                   0x1.fffffffffffffp+1023};
  const int ns = (int)(sizeof special / sizeof special[0]);
  (void)fn;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t r = rnd();
    double x;
    switch (r % 8) {
    case 0: x = special[(r >> 8) % ns]; break;
    case 1: case 2: x = unif(-1, 1); break;
    case 3: case 4: x = unif(-20, 20); break;
    case 5: x = ldexp(unif(1, 2), (int)((r >> 8) % 200) - 100) * ((r >> 40) & 1 ? -1 : 1); break;
    default:
      if (is_double) {
        uint64_t b = rnd();
        memcpy(&x, &b, 8);
      } else {
        uint32_t b = (uint32_t)rnd();
        float f;
        memcpy(&f, &b, 4);
        x = f;
      }
    }
    v[i] = is_double ? x : (double)(float)x;
  }
}

static int same_bits_or_nan(ld a, ld b) {
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  return a == b && signbit(a) == signbit(b);
}

/* One math function in one type: width 1 against the reference, the other
 * widths and address spaces against width 1. */
static void check_math_fn(checker_t *c, int fn, int is_double) {
  const struct math_row *row = &math_rows[fn];
  double limit = is_double ? row->ulp_d : row->ulp_f;
  if (limit == -2) return;
  const uint32_t n = round_block(c->o->math_samples);
  const size_t s = is_double ? 8 : 4;
  double *xd = xcalloc(n, 8), *yd = xcalloc(n, 8), *zd = xcalloc(n, 8);
  gen_fp(is_double, fn, xd, n);
  gen_fp(is_double, fn, yd, n);
  gen_fp(is_double, fn, zd, n);
  /* Every pair of the first special values as x and y first: two-argument
   * edge cases (powr(-0, -1) is +inf, pow's is -inf) are too rare at random. */
  static const double pairs[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, INFINITY, -INFINITY, NAN};
  const uint32_t np = sizeof pairs / sizeof *pairs;
  if (n >= np * np)
    for (uint32_t i = 0; i < np * np; i++) xd[i] = pairs[i / np], yd[i] = pairs[i % np];
  int *k = xcalloc(n, 4);
  for (uint32_t i = 0; i < n; i++) {
    uint64_t r = rnd();
    k[i] = fn == CLT_rootn ? (int)(r % 21) - 10
           : fn == CLT_pown ? (int)(r % 81) - 40
           : (r & 7) == 0   ? (int)(r >> 8) % 4000 - 2000
                            : (int)((r >> 8) % 300) - 150;
  }
  void *x = xcalloc(n, s), *y = xcalloc(n, s), *z = xcalloc(n, s);
  for (uint32_t i = 0; i < n; i++) {
    if (is_double) {
      ((double *)x)[i] = xd[i], ((double *)y)[i] = yd[i], ((double *)z)[i] = zd[i];
    } else {
      ((float *)x)[i] = (float)xd[i], ((float *)y)[i] = (float)yd[i], ((float *)z)[i] = (float)zd[i];
    }
  }
  void *r = xcalloc(n, s), *r2 = xcalloc(n, s), *w = xcalloc(n, s), *w2 = xcalloc(n, s);
  int *ri = xcalloc(n, 4), *wi = xcalloc(n, 4);
  const int32_t op = is_double ? CLTO_MATH_F64 : CLTO_MATH_F32;
  const int mant = is_double ? 53 : 24, emin = is_double ? -1022 : -126;
  const ld maxv = is_double ? (ld)DBL_MAX : (ld)FLT_MAX;
#define GETV(p, i) (is_double ? (ld)((double *)(p))[i] : (ld)((float *)(p))[i])
  c->cases++;
  if (run(c, op, fn, 1, 0, 0, x, y, z, k, r, r2, ri, n)) goto out;
  double worst = 0, worst2 = 0;
  uint32_t bad = 0, worst_i = 0;
  const int has_r2 = !strcmp(row->kind, "P2"), has_ri = !strcmp(row->kind, "PI") || !strcmp(row->kind, "Q") ||
                                                       !strcmp(row->kind, "R");
  const int result_int = !strcmp(row->kind, "R");
  for (uint32_t i = 0; i < n; i++) {
    ld ref2 = 0;
    int refi = 0;
    ld ref = math_ref(fn, is_double, GETV(x, i), GETV(y, i), GETV(z, i), k[i], &ref2, &refi);
    ld got = GETV(r, i);
    double e = result_int ? 0 : ulp_error(ref, got, mant, emin, maxv);
    double e2 = has_r2 ? ulp_error(ref2, GETV(r2, i), mant, emin, maxv) : 0;
    int ok_i = 1;
    if (has_ri) {
      if (fn == CLT_lgamma_r)
        ok_i = isinf(ref) || isnan(ref) || ri[i] == refi; /* the sign; poles and NaN leave it open */
      else if (fn == CLT_remquo)
        ok_i = refi == 0 ? (ri[i] & 127) == 0 : ri[i] == refi;
      else
        ok_i = ri[i] == refi;
    }
    /* exact functions: correctly rounded (the long double reference's own
     * rounding allows a hair over 0.5), zeros with the right sign */
    double lim = limit == 0 ? 0.51 : limit;
    int ok = ok_i;
    if (limit >= 0) {
      ok = ok && e <= lim && e2 <= lim;
      /* (fmin/fmax and the mag forms may answer either zero for -0 vs +0) */
      int either_zero = fn == CLT_fmin || fn == CLT_fmax || fn == CLT_minmag || fn == CLT_maxmag;
      if (limit == 0 && !result_int && !either_zero && ref == 0 && got == 0 && signbit(ref) != signbit(got)) ok = 0;
    }
    if (e > worst || (isnan(e) && !isnan(worst))) worst = e, worst_i = i;
    if (e2 > worst2) worst2 = e2;
    if (!ok && bad++ < 3)
      fprintf(stderr, "FAIL: %s(%s) x=%.17Lg y=%.17Lg z=%.17Lg k=%d: got %.17Lg (int %d, 2nd %.17Lg), expected %.17Lg (int %d, 2nd %.17Lg), %.3g ulp\n",
              row->name, is_double ? "double" : "float", GETV(x, i), GETV(y, i), GETV(z, i), k[i], got, ri[i],
              GETV(r2, i), ref, refi, ref2, e);
  }
  if (bad) c->failures++;
  if (c->o->verbose || bad)
    printf("math %-14s %-6s max %8.3f ulp%s (limit %s%g) at x=%.9Lg, %u samples%s\n", row->name,
           is_double ? "double" : "float", worst > worst2 ? worst : worst2, has_r2 ? " (both results)" : "",
           limit < 0 ? "none, " : "", limit < 0 ? 0 : limit, GETV(x, worst_i), n, bad ? "  FAILED" : "");
  /* The vector widths and address spaces give exactly the scalar answers. */
  const int *ws = c->o->all_widths ? widths_all : widths_few;
  int nw = c->o->all_widths ? 5 : 2;
  const int ptr_kind = has_r2 || !strcmp(row->kind, "PI") || !strcmp(row->kind, "Q");
  for (int spc = 0; spc < (ptr_kind ? 3 : 1); spc++)
    for (int wi_ = -1; wi_ < nw; wi_++) {
      int width = wi_ < 0 ? 1 : ws[wi_];
      if (wi_ < 0 && spc == 0) continue; /* that is the reference run */
      if (spc && width == 3) continue;
      if (spc && !c->o->all_widths && wi_ >= 0) width = 4; /* pointers: 1 and 4 in the short run */
      c->cases++;
      memset(w, 0xa5, n * s);
      memset(w2, 0xa5, n * s);
      memset(wi, 0xa5, n * 4);
      if (run(c, op, fn, width, spc, 0, x, y, z, k, w, w2, wi, n)) continue;
      uint32_t vbad = 0;
      for (uint32_t i = 0; i < n; i++) {
        int ok = result_int ? wi[i] == ri[i] : same_bits_or_nan(GETV(w, i), GETV(r, i));
        if (has_r2) ok = ok && same_bits_or_nan(GETV(w2, i), GETV(r2, i));
        if (has_ri && !result_int) ok = ok && wi[i] == ri[i];
        if (!ok && vbad++ < 2)
          fprintf(stderr, "FAIL: %s(%s) width %d space %d element %u: %.17Lg / %d, width 1 gave %.17Lg / %d\n",
                  row->name, is_double ? "double" : "float", width, spc, i, GETV(w, i), wi[i], GETV(r, i), ri[i]);
      }
      if (vbad) c->failures++;
    }
#undef GETV
out:
  free(xd), free(yd), free(zd), free(k), free(x), free(y), free(z), free(r), free(r2), free(w), free(w2);
  free(ri), free(wi);
}

static void check_math(checker_t *c) {
  for (int fn = 0; fn < CLT_MATH_COUNT; fn++) {
    check_math_fn(c, fn, 0);
    check_math_fn(c, fn, 1);
  }
}

/* ---- convert_* ------------------------------------------------------------------ */
static const struct type_row {
  const char *name;
  int size, sgn, fp;
} types[] = {
#define CLT_TROW(T, size, sgn, fp) {#T, size, sgn, fp},
    CLT_TYPES(CLT_TROW)
#undef CLT_TROW
};

/* Element i of a typed array, exactly, as a long double. */
static ld get_elem(int t, const void *p, uint32_t i) {
  switch (t) {
  case CLTT_char: return ((const int8_t *)p)[i];
  case CLTT_uchar: return ((const uint8_t *)p)[i];
  case CLTT_short: return ((const int16_t *)p)[i];
  case CLTT_ushort: return ((const uint16_t *)p)[i];
  case CLTT_int: return ((const int32_t *)p)[i];
  case CLTT_uint: return ((const uint32_t *)p)[i];
  case CLTT_long: return ((const int64_t *)p)[i];
  case CLTT_ulong: return ((const uint64_t *)p)[i];
  case CLTT_float: return ((const float *)p)[i];
  default: return ((const double *)p)[i];
  }
}
/* Raw bits of element i (for exact comparisons and wrap-around). */
static uint64_t get_bits(int t, const void *p, uint32_t i) {
  uint64_t b = 0;
  memcpy(&b, (const char *)p + (size_t)i * types[t].size, (size_t)types[t].size);
  return b;
}
static void put_bits(int t, void *p, uint32_t i, uint64_t b) {
  memcpy((char *)p + (size_t)i * types[t].size, &b, (size_t)types[t].size);
}
static void int_range(int t, i128 *lo, i128 *hi) {
  int bits = types[t].size * 8;
  if (types[t].sgn) {
    *lo = -((i128)1 << (bits - 1));
    *hi = ((i128)1 << (bits - 1)) - 1;
  } else {
    *lo = 0;
    *hi = ((i128)1 << bits) - 1;
  }
}

/* Source values for convert_*: every boundary of every type (+-1 around
 * it), halfway points, NaN, infinities, then random bits. */
static void gen_convert_src(int t, void *p, uint32_t n) {
  uint32_t i = 0;
  static const ld edges[] = {0, 1, -1, 0.5L, -0.5L, 1.5L, -1.5L, 2.5L, -2.5L, 0.49999997L, 127, 128, -128, -129,
                             255, 256, 32767, 32768, -32768, -32769, 65535, 65536, 2147483647.0L,
                             2147483648.0L, -2147483648.0L, -2147483649.0L, 4294967295.0L, 4294967296.0L,
                             9223372036854775807.0L, 9223372036854775808.0L, -9223372036854775808.0L,
                             18446744073709551615.0L, 18446744073709551616.0L, 16777217, 16777216,
                             9007199254740993.0L, 1e30L, -1e30L, 1e-30L, 0.3L, -0.7L, 1e300L};
  const uint32_t ne = sizeof edges / sizeof edges[0];
  for (uint32_t e = 0; e < ne && i + 3 <= n; e++)
    for (int d = -1; d <= 1; d++, i++) {
      ld v = edges[e];
      if (types[t].fp) {
        double x = (double)v;
        if (t == CLTT_float) x = (float)x;
        if (d) x = t == CLTT_float ? nextafterf((float)x, d * INFINITY) : nextafter(x, d * INFINITY);
        if (t == CLTT_float) ((float *)p)[i] = (float)x;
        else ((double *)p)[i] = x;
      } else {
        i128 lo, hi, q;
        int_range(t, &lo, &hi);
        if (v >= 1.8e19L) q = hi; /* beyond every type: converting would overflow */
        else if (v <= -9.3e18L) q = lo;
        else q = (i128)v + d;
        if (q < lo) q = lo;
        if (q > hi) q = hi;
        put_bits(t, p, i, (uint64_t)q);
      }
    }
  if (types[t].fp && i + 3 <= n) {
    double sp[3] = {NAN, INFINITY, -INFINITY};
    for (int j = 0; j < 3; j++, i++) {
      if (t == CLTT_float) ((float *)p)[i] = (float)sp[j];
      else ((double *)p)[i] = sp[j];
    }
  }
  for (; i < n; i++) {
    uint64_t r = rnd();
    if (types[t].fp && (r & 3) == 0) {
      /* values in every integer type's range, with fractions */
      double x = ldexp(unif(-1, 1), (int)(rnd() % 66));
      if (t == CLTT_float) ((float *)p)[i] = (float)x;
      else ((double *)p)[i] = x;
    } else if (!types[t].fp && (r & 3) == 0) {
      put_bits(t, p, i, rnd() >> (rnd() % 64)); /* small magnitudes too */
    } else {
      put_bits(t, p, i, r);
    }
  }
}

static const int fe_mode[CLTM_COUNT] = {FE_TONEAREST, FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
static const char *const mode_name[CLTM_COUNT] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

/* Rounds the exact value v to float / double in the FPU's current mode
 * (x87 conversions from long double follow the control word fesetround sets). */
static double round_to(int t, ld v) {
  volatile ld vv = v;
  if (t == CLTT_float) {
    volatile float f = (float)vv;
    return f;
  }
  volatile double d = (double)vv;
  return d;
}

/* The expected bits of convert_<dst><mode><sat>(v); returns 0 where the
 * result is undefined (out of range without _sat, NaN without _sat). */
static int convert_ref(int dst, int src, int mode, int sat, const void *in, uint32_t i, uint64_t *bits) {
  ld v = get_elem(src, in, i);
  if (types[dst].fp) {
    fesetround(fe_mode[mode]);
    double r = round_to(dst, v);
    fesetround(FE_TONEAREST);
    if (dst == CLTT_float) {
      float f = (float)r;
      uint32_t b;
      memcpy(&b, &f, 4);
      *bits = b;
    } else {
      memcpy(bits, &r, 8);
    }
    return 1;
  }
  i128 lo, hi;
  int_range(dst, &lo, &hi);
  if (!types[src].fp) {
    i128 q = types[src].sgn ? (i128)(int64_t)(uint64_t)(i128)v : (i128)(uint64_t)v;
    if (sat) q = q < lo ? lo : q > hi ? hi : q;
    *bits = (uint64_t)q & (types[dst].size == 8 ? ~0ull : (1ull << (types[dst].size * 8)) - 1);
    return 1;
  }
  if (isnan(v)) {
    if (!sat) return 0;
    *bits = 0;
    return 1;
  }
  ld r = mode == CLTM_RTE ? rintl(v) : mode == CLTM_RTP ? ceill(v) : mode == CLTM_RTN ? floorl(v) : truncl(v);
  i128 q;
  if (r < (ld)lo || r > (ld)hi) {
    if (!sat) return 0;
    q = r < (ld)lo ? lo : hi;
  } else {
    q = (i128)r;
  }
  *bits = (uint64_t)q & (types[dst].size == 8 ? ~0ull : (1ull << (types[dst].size * 8)) - 1);
  return 1;
}

static int same_result(int t, uint64_t a, uint64_t b) {
  if (t == CLTT_float) {
    float x, y;
    uint32_t a32 = (uint32_t)a, b32 = (uint32_t)b;
    memcpy(&x, &a32, 4), memcpy(&y, &b32, 4);
    return a32 == b32 || (isnan(x) && isnan(y));
  }
  if (t == CLTT_double) {
    double x, y;
    memcpy(&x, &a, 8), memcpy(&y, &b, 8);
    return a == b || (isnan(x) && isnan(y));
  }
  return a == b;
}

static void check_convert(checker_t *c) {
  const uint32_t n = round_block(c->o->samples < 240 ? 240 : c->o->samples);
  void *in = xcalloc(n, 8), *out = xcalloc(n, 8), *out_w = xcalloc(n, 8);
  int combos = 0, bad_combos = 0;
  for (int src = 0; src < CLT_TYPE_COUNT; src++) {
    gen_convert_src(src, in, n);
    for (int dst = 0; dst < CLT_TYPE_COUNT; dst++)
      for (int sat = 0; sat <= (types[dst].fp ? 0 : 1); sat++)
        for (int mode = 0; mode < CLTM_COUNT; mode++) {
          combos++;
          c->cases++;
          if (run(c, CLTO_CONVERT, dst, src, mode | sat << 4, 1, in, 0, 0, 0, out, 0, 0, n)) continue;
          uint32_t bad = 0;
          for (uint32_t i = 0; i < n; i++) {
            uint64_t want_b;
            if (!convert_ref(dst, src, mode, sat, in, i, &want_b)) continue;
            uint64_t got = get_bits(dst, out, i);
            if (!same_result(dst, got, want_b) && bad++ < 2)
              fprintf(stderr, "FAIL: convert_%s%s%s(%s %.21Lg): got 0x%" PRIx64 ", expected 0x%" PRIx64 "\n",
                      types[dst].name, sat ? "_sat" : "", mode_name[mode], types[src].name, get_elem(src, in, i),
                      got, want_b);
          }
          const int *ws = widths_few;
          for (int wj = 0; wj < 2; wj++) {
            c->cases++;
            memset(out_w, 0x5a, (size_t)n * 8);
            if (run(c, CLTO_CONVERT, dst, src, mode | sat << 4, ws[wj], in, 0, 0, 0, out_w, 0, 0, n)) continue;
            for (uint32_t i = 0; i < n; i++) {
              uint64_t want_b;
              if (!convert_ref(dst, src, mode, sat, in, i, &want_b)) continue; /* undefined: may differ */
              if (!same_result(dst, get_bits(dst, out_w, i), get_bits(dst, out, i)) && bad++ < 2)
                fprintf(stderr, "FAIL: convert_%s%d%s%s(%s %.21Lg) element %u: 0x%" PRIx64 ", the scalar gave 0x%" PRIx64 "\n",
                        types[dst].name, ws[wj], sat ? "_sat" : "", mode_name[mode], types[src].name,
                        get_elem(src, in, i), i, get_bits(dst, out_w, i), get_bits(dst, out, i));
            }
          }
          if (bad) c->failures++, bad_combos++;
        }
  }
  printf("convert: %d conversions (destination, source, mode, _sat) x widths 1, 3, 16, %u values each: %d failed\n",
         combos, n, bad_combos);
  free(in), free(out), free(out_w);
}

/* ---- half ------------------------------------------------------------------------ */
static double half_value(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
/* The half nearest v under mode, by search over the finite halves. */
static uint16_t half_ref(ld v, int mode) {
  if (isnan(v)) return 0x7e00;
  uint16_t s = signbit(v) ? 0x8000 : 0;
  ld a = fabsl(v);
  if (isinf(v)) return s | 0x7c00;
  /* lo: the largest half magnitude <= a (0x7bff at most); hi: the next (0x7c00 "65536") */
  unsigned lo = 0, top = 0x7bff;
  while (lo < top) {
    unsigned mid = (lo + top + 1) / 2;
    if ((ld)half_value((uint16_t)mid) <= a) lo = mid;
    else top = mid - 1;
  }
  ld lov = half_value((uint16_t)lo), hiv = lo == 0x7bff ? 65536.0L : half_value((uint16_t)(lo + 1));
  unsigned hi = lo + 1; /* 0x7c00 is infinity */
  unsigned pick;
  if (a == lov) pick = lo;
  else if (mode == CLTM_RTZ) pick = lo;
  else if (mode == CLTM_RTP) pick = s ? lo : hi;
  else if (mode == CLTM_RTN) pick = s ? hi : lo;
  else {
    ld dl = a - lov, dh = hiv - a;
    pick = dl < dh ? lo : dh < dl ? hi : (lo & 1 ? hi : lo);
  }
  if (a > 65504 && pick == lo && lo != 0x7bff) pick = lo; /* unreachable: lo is 0x7bff there */
  return (uint16_t)(s | pick);
}

static void check_half(checker_t *c) {
  /* every half bit pattern, then values between and around them */
  const uint32_t stride = c->o->half_stride ? c->o->half_stride : 1, nh = (65536 + stride - 1) / stride;
  const uint32_t n = round_block(nh * 3 + 48 * 20);
  double *vd = xcalloc(n, 8);
  float *vf = xcalloc(n, 4);
  uint32_t i = 0;
  for (uint32_t h = 0; h < 65536; h += stride, i += 3) {
    double v = half_value((uint16_t)h);
    double nx = half_value((uint16_t)((h & 0x7fff) == 0x7bff ? h : h + 1));
    vd[i] = v;
    vd[i + 1] = isnan(v) || isinf(v) ? v : (v + nx) / 2; /* the midpoint: ties */
    vd[i + 2] = isnan(v) || isinf(v) ? v : nextafter(v, (v >= 0 ? 1 : -1) * INFINITY);
  }
  for (; i < n; i++) vd[i] = ldexp(unif(-1, 1), (int)(rnd() % 60) - 30);
  for (i = 0; i < n; i++) vf[i] = (float)vd[i];
  uint16_t *out = xcalloc(n * 2, 2), *outw = xcalloc(n * 2, 2);
  int bad_total = 0;
  for (int src = 0; src < 2; src++) {
    int t = src ? CLTT_double : CLTT_float;
    void *in = src ? (void *)vd : (void *)vf;
    for (int mode = 0; mode < CLTM_COUNT; mode++) {
      c->cases++;
      if (run(c, CLTO_HALF_STORE, t, mode, 1, 0, in, 0, 0, 0, out, 0, 0, n)) continue;
      uint32_t bad = 0;
      for (i = 0; i < n; i++) {
        ld v = src ? (ld)vd[i] : (ld)vf[i];
        uint16_t want_h = half_ref(v, mode);
        int ok = isnan(v) ? ((out[i] & 0x7c00) == 0x7c00 && (out[i] & 0x3ff)) : out[i] == want_h;
        if (!ok && bad++ < 3)
          fprintf(stderr, "FAIL: vstore_half%s(%s %.17Lg): got 0x%04x, expected 0x%04x\n", mode_name[mode],
                  types[t].name, v, out[i], want_h);
      }
      /* vector widths, plain and aligned, against the scalar stores */
      for (int aligned = 0; aligned < 2; aligned++)
        for (int wj = 0; wj < 5; wj++) {
          int w = widths_all[wj];
          c->cases++;
          memset(outw, 0xee, (size_t)n * 4);
          if (run(c, CLTO_HALF_STORE, t, mode, w, aligned, in, 0, 0, 0, outw, 0, 0, n)) continue;
          for (i = 0; i < n; i++) {
            uint32_t at = aligned && w == 3 ? i / 3 * 4 + i % 3 : i;
            if (outw[at] != out[i] && bad++ < 3)
              fprintf(stderr, "FAIL: vstore%s_half%d%s(%s) element %u: 0x%04x, the scalar store gave 0x%04x\n",
                      aligned ? "a" : "", w, mode_name[mode], types[t].name, i, outw[at], out[i]);
          }
        }
      if (bad) c->failures++, bad_total++;
    }
  }
  /* loads: every half */
  const uint32_t nl = round_block(nh); /* every stride-th half, rounded up to whole blocks */
  uint16_t *h = xcalloc(nl * 2, 2);
  float *lf = xcalloc(nl, 4), *lw = xcalloc(nl, 4);
  for (i = 0; i < nl; i++) h[i] = (uint16_t)(i * stride); /* wraps around past 65535 */
  c->cases++;
  uint32_t lbad = 0;
  if (!run(c, CLTO_HALF_LOAD, 1, 0, 0, 0, h, 0, 0, 0, lf, 0, 0, nl)) {
    for (i = 0; i < nl; i++) {
      double want_v = half_value(h[i]);
      if (!same_bits_or_nan(lf[i], want_v) && lbad++ < 3)
        fprintf(stderr, "FAIL: vload_half(0x%04x) = %.9g, expected %.9g\n", h[i], lf[i], want_v);
    }
    /* aligned 3-wide loads read 4 halves apart: lay the data out so */
    uint16_t *h4 = xcalloc(nl * 2, 2);
    for (i = 0; i < nl; i++) h4[i / 3 * 4 + i % 3] = h[i];
    for (int aligned = 0; aligned < 2; aligned++)
      for (int wj = 0; wj < 5; wj++) {
        int w = widths_all[wj];
        c->cases++;
        memset(lw, 0xee, nl * 4);
        if (run(c, CLTO_HALF_LOAD, w, aligned, 0, 0, aligned && w == 3 ? h4 : h, 0, 0, 0, lw, 0, 0, nl)) continue;
        for (i = 0; i < nl; i++)
          if (!same_bits_or_nan(lw[i], lf[i]) && lbad++ < 3)
            fprintf(stderr, "FAIL: vload%s_half%d element %u: %.9g, vload_half gave %.9g\n", aligned ? "a" : "", w, i,
                    lw[i], lf[i]);
      }
    free(h4);
  }
  if (lbad) c->failures++, bad_total++;
  printf("half: vstore_half from float and double, 5 modes, %u values (every %u. half, the midpoints, the next values, random), widths 1-16 plain and aligned; vload_half of %u halves: %d failed\n",
         n, stride, nl, bad_total);
  free(vd), free(vf), free(out), free(outw), free(h), free(lf), free(lw);
}

/* ---- integer ----------------------------------------------------------------------- */
static i128 as_val(int t, uint64_t b) {
  int bits = types[t].size * 8;
  uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
  b &= mask;
  if (types[t].sgn && bits < 64 && (b >> (bits - 1))) return (i128)b - ((i128)1 << bits);
  if (types[t].sgn && bits == 64) return (int64_t)b;
  return b;
}
static uint64_t to_bits(int t, i128 v) {
  int bits = types[t].size * 8;
  return (uint64_t)v & (bits == 64 ? ~0ull : (1ull << bits) - 1);
}
static i128 sat_to(int t, i128 v) {
  i128 lo, hi;
  int_range(t, &lo, &hi);
  return v < lo ? lo : v > hi ? hi : v;
}
static i128 floor_shift(i128 v, int s) { return v >> s; } /* arithmetic: floor */

/* The high half of x*y in t (ulong's product needs the unsigned 128 bits). */
static i128 mul_hi_ref(int t, i128 x, i128 y) {
  if (types[t].size == 8 && !types[t].sgn) return (i128)(((u128)x * (u128)y) >> 64);
  return floor_shift(x * y, types[t].size * 8);
}

static uint64_t int_ref(int t, int fn, uint64_t xb, uint64_t yb, uint64_t zb) {
  const int bits = types[t].size * 8;
  i128 x = as_val(t, xb), y = as_val(t, yb), z = as_val(t, zb);
  switch (fn) {
  case CLTI_abs: return to_bits(t, x < 0 ? -x : x);
  case CLTI_abs_diff: return to_bits(t, x > y ? x - y : y - x);
  case CLTI_add_sat: return to_bits(t, sat_to(t, x + y));
  case CLTI_sub_sat: return to_bits(t, sat_to(t, x - y));
  case CLTI_hadd: return to_bits(t, floor_shift(x + y, 1));
  case CLTI_rhadd: return to_bits(t, floor_shift(x + y + 1, 1));
  case CLTI_clamp: return to_bits(t, x < y ? y : x > z ? z : x);
  case CLTI_clz: {
    uint64_t u = to_bits(t, x);
    int n = 0;
    for (int b = bits - 1; b >= 0 && !((u >> b) & 1); b--) n++;
    return to_bits(t, n);
  }
  case CLTI_popcount: return to_bits(t, __builtin_popcountll(to_bits(t, x)));
  case CLTI_mul_hi: return to_bits(t, mul_hi_ref(t, x, y));
  case CLTI_mad_hi: return to_bits(t, mul_hi_ref(t, x, y) + z);
  case CLTI_mad_sat: {
    if (bits == 64 && !types[t].sgn) {
      u128 p = (u128)(uint64_t)x * (uint64_t)y + (uint64_t)z;
      int over = (uint64_t)x && (u128)(uint64_t)y > (((u128)1 << 64) - 1 - (uint64_t)z) / (uint64_t)x;
      return over || p >> 64 ? ~0ull : (uint64_t)p;
    }
    return to_bits(t, sat_to(t, x * y + z)); /* |x*y| < 2^126 */
  }
  case CLTI_max: return to_bits(t, x > y ? x : y);
  case CLTI_min: return to_bits(t, x < y ? x : y);
  case CLTI_rotate: {
    uint64_t u = to_bits(t, x);
    int r = (int)(to_bits(t, y) % (uint64_t)bits);
    return to_bits(t, r ? (i128)((u << r) | (u >> (bits - r))) : (i128)u);
  }
  }
  return 0;
}

static void gen_int(int t, void *p, uint32_t n) {
  i128 lo, hi;
  int_range(t, &lo, &hi);
  const i128 edges[] = {0, 1, -1, 2, lo, hi, lo + 1, hi - 1, hi / 2, lo / 2, 7, -7};
  for (uint32_t i = 0; i < n; i++) {
    uint64_t r = rnd();
    i128 v;
    if (r % 4 == 0) v = edges[(r >> 8) % 12];
    else if (r % 4 == 1) v = (i128)((r >> 8) % 200) - 100;
    else v = (i128)rnd();
    put_bits(t, p, i, to_bits(t, v));
  }
}

static const char *const int_names[] = {
#define CLT_INAME(name) #name,
    CLT_INT(CLT_INAME)
#undef CLT_INAME
};

static void check_integer(checker_t *c) {
  const uint32_t n = round_block(c->o->samples);
  void *x = xcalloc(n, 8), *y = xcalloc(n, 8), *z = xcalloc(n, 8), *r = xcalloc(n, 16), *w = xcalloc(n, 16);
  int cases = 0, bad_cases = 0;
  const int *ws = c->o->all_widths ? widths_all : widths_few;
  const int nw = c->o->all_widths ? 5 : 2;
  for (int t = 0; t < 8; t++) {
    gen_int(t, x, n);
    gen_int(t, y, n);
    gen_int(t, z, n);
    for (int fn = 0; fn < CLT_INT_COUNT; fn++) {
      if (fn == CLTI_upsample || fn == CLTI_mad24 || fn == CLTI_mul24) continue;
      if (fn == CLTI_clamp) /* lo <= hi, as the spec requires */
        for (uint32_t i = 0; i < n; i++) {
          uint64_t a = get_bits(t, y, i), b = get_bits(t, z, i);
          if (as_val(t, a) > as_val(t, b)) put_bits(t, y, i, b), put_bits(t, z, i, a);
        }
      cases++;
      c->cases++;
      if (run(c, CLTO_INT, t, fn, 1, 0, x, y, z, 0, r, 0, 0, n)) continue;
      uint32_t bad = 0;
      for (uint32_t i = 0; i < n; i++) {
        uint64_t want_b = int_ref(t, fn, get_bits(t, x, i), get_bits(t, y, i), get_bits(t, z, i));
        uint64_t got = get_bits(t, r, i);
        if (got != want_b && bad++ < 3)
          fprintf(stderr, "FAIL: %s(%s 0x%" PRIx64 ", 0x%" PRIx64 ", 0x%" PRIx64 "): got 0x%" PRIx64 ", expected 0x%" PRIx64 "\n",
                  int_names[fn], types[t].name, get_bits(t, x, i), get_bits(t, y, i), get_bits(t, z, i), got, want_b);
      }
      for (int wj = 0; wj < nw; wj++) {
        c->cases++;
        if (run(c, CLTO_INT, t, fn, ws[wj], 0, x, y, z, 0, w, 0, 0, n)) continue;
        if (memcmp(w, r, (size_t)n * types[t].size) && bad++ < 3)
          fprintf(stderr, "FAIL: %s(%s%d) differs from the scalar\n", int_names[fn], types[t].name, ws[wj]);
      }
      if (bad) c->failures++, bad_cases++;
    }
  }
  /* mul24 / mad24 on 24-bit operands */
  for (int t = CLTT_int; t <= CLTT_uint; t++)
    for (int fn = CLTI_mad24; fn <= CLTI_mul24; fn++) {
      for (uint32_t i = 0; i < n; i++) {
        int32_t a = (int32_t)(rnd() % (1 << 24)), b = (int32_t)(rnd() % (1 << 24));
        if (t == CLTT_int) a -= 1 << 23, b -= 1 << 23;
        ((int32_t *)x)[i] = a, ((int32_t *)y)[i] = b, ((int32_t *)z)[i] = (int32_t)rnd();
      }
      cases++;
      c->cases++;
      uint32_t bad = 0;
      for (int wj = -1; wj < nw; wj++) {
        if (run(c, CLTO_INT24, t, fn, wj < 0 ? 1 : ws[wj], 0, x, y, z, 0, r, 0, 0, n)) continue;
        for (uint32_t i = 0; i < n; i++) {
          int64_t a = ((int32_t *)x)[i], b = ((int32_t *)y)[i];
          uint32_t want_v = (uint32_t)(a * b) + (fn == CLTI_mad24 ? (uint32_t)((int32_t *)z)[i] : 0);
          if (((uint32_t *)r)[i] != want_v && bad++ < 3)
            fprintf(stderr, "FAIL: %s(%s) width %d: %" PRId64 " * %" PRId64 ": got %u, expected %u\n", int_names[fn],
                    types[t].name, wj < 0 ? 1 : ws[wj], a, b, ((uint32_t *)r)[i], want_v);
        }
      }
      if (bad) c->failures++, bad_cases++;
    }
  /* upsample */
  for (int t = CLTT_char; t <= CLTT_uint; t++) {
    int lt = types[t].sgn ? t + 1 : t;
    gen_int(t, x, n);
    gen_int(lt, y, n);
    cases++;
    c->cases++;
    uint32_t bad = 0;
    for (int wj = -1; wj < nw; wj++) {
      if (run(c, CLTO_UPSAMPLE, t, wj < 0 ? 1 : ws[wj], 0, 0, x, y, 0, 0, r, 0, 0, n)) continue;
      for (uint32_t i = 0; i < n; i++) {
        int wt = t + 2; /* the type twice as wide, same signedness */
        uint64_t want_b = to_bits(wt, (as_val(t, get_bits(t, x, i)) * ((i128)1 << (types[t].size * 8))) |
                                          (i128)get_bits(lt, y, i));
        if (get_bits(wt, r, i) != want_b && bad++ < 3)
          fprintf(stderr, "FAIL: upsample(%s) width %d element %u: got 0x%" PRIx64 ", expected 0x%" PRIx64 "\n",
                  types[t].name, wj < 0 ? 1 : ws[wj], i, get_bits(wt, r, i), want_b);
      }
    }
    if (bad) c->failures++, bad_cases++;
  }
  printf("integer: %d (function, type) cases, %u values, widths 1%s: %d failed\n", cases, n,
         c->o->all_widths ? "-16" : ", 3, 16", bad_cases);
  free(x), free(y), free(z), free(r), free(w);
}

/* ---- relational, select, any/all, common, geometric, shuffle, vload/vstore --------- */
static void check_other(checker_t *c) {
  const uint32_t n = round_block(c->o->samples);
  void *x = xcalloc(n, 8), *y = xcalloc(n, 8), *z = xcalloc(n, 8), *q = xcalloc(n, 8);
  void *r = xcalloc(n, 8), *w = xcalloc(n, 8);
  int bad_total = 0, cases = 0;
  /* relational: scalars 1/0, vectors -1/0 */
  static const char *const rel_names[] = {"isequal", "isnotequal", "isgreater", "isgreaterequal", "isless",
                                          "islessequal", "islessgreater", "isfinite", "isinf", "isnan",
                                          "isnormal", "isordered", "isunordered", "signbit"};
  for (int d = 0; d < 2; d++) {
    int t = d ? CLTT_double : CLTT_float;
    double *xd = xcalloc(n, 8), *yd = xcalloc(n, 8);
    gen_fp(d, 0, xd, n);
    gen_fp(d, 0, yd, n);
    for (uint32_t i = 0; i < n; i += 4) yd[i] = xd[i]; /* equal pairs too */
    for (uint32_t i = 0; i < n; i++) {
      if (d) ((double *)x)[i] = xd[i], ((double *)y)[i] = yd[i];
      else ((float *)x)[i] = (float)xd[i], ((float *)y)[i] = (float)yd[i];
    }
    for (int fn = 0; fn < 14; fn++)
      for (int wj = -1; wj < 5; wj++) {
        int width = wj < 0 ? 1 : widths_all[wj];
        cases++;
        c->cases++;
        if (run(c, CLTO_REL, t, fn, width, 0, x, y, 0, 0, r, 0, 0, n)) continue;
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++) {
          ld a = get_elem(t, x, i), b = get_elem(t, y, i);
          ld an = fabsl(a);
          int v = 0;
          switch (fn) {
          case 0: v = a == b; break;
          case 1: v = a != b; break;
          case 2: v = a > b; break;
          case 3: v = a >= b; break;
          case 4: v = a < b; break;
          case 5: v = a <= b; break;
          case 6: v = a < b || a > b; break;
          case 7: v = isfinite(a); break;
          case 8: v = isinf(a); break;
          case 9: v = isnan(a); break;
          case 10: v = isfinite(a) && an >= (d ? DBL_MIN : FLT_MIN); break;
          case 11: v = !isnan(a) && !isnan(b); break;
          case 12: v = isnan(a) || isnan(b); break;
          case 13: v = signbit(a) != 0; break;
          }
          int64_t want_v = v ? (width == 1 ? 1 : -1) : 0;
          int64_t got = d ? ((int64_t *)r)[i] : ((int32_t *)r)[i];
          if (d && width == 1) got = (int32_t)got; /* scalar double answers int: only 4 bytes written */
          if (got != want_v && bad++ < 3)
            fprintf(stderr, "FAIL: %s(%s%d %.17Lg, %.17Lg) = %" PRId64 ", expected %" PRId64 "\n", rel_names[fn],
                    types[t].name, width, a, b, got, want_v);
        }
        if (bad) c->failures++, bad_total++;
      }
    free(xd), free(yd);
  }
  /* select / bitselect, every type */
  for (int t = 0; t < CLT_TYPE_COUNT; t++) {
    for (uint32_t i = 0; i < n; i++) {
      put_bits(t, x, i, rnd()), put_bits(t, y, i, rnd()), put_bits(t, z, i, rnd()), put_bits(t, q, i, rnd());
      if (i % 5 == 0) put_bits(t, z, i, 0);
    }
    for (int kind = 0; kind < 3; kind++)
      for (int wj = -1; wj < 5; wj++) {
        int width = wj < 0 ? 1 : widths_all[wj];
        cases++;
        c->cases++;
        if (run(c, CLTO_SELECT, t, width, kind, 0, x, y, z, q, r, 0, 0, n)) continue;
        uint32_t bad = 0;
        const int bits = types[t].size * 8;
        for (uint32_t i = 0; i < n; i++) {
          uint64_t a = get_bits(t, x, i), b = get_bits(t, y, i), m = get_bits(t, z, i), bs = get_bits(t, q, i);
          uint64_t want_b = kind == 2       ? (a & ~bs) | (b & bs)
                            : width == 1    ? (m ? b : a)
                            : (m >> (bits - 1)) & 1 ? b
                                                    : a;
          want_b = to_bits(t < 8 ? t : (t == CLTT_float ? CLTT_uint : CLTT_ulong), (i128)want_b);
          if (get_bits(t, r, i) != want_b && bad++ < 3)
            fprintf(stderr, "FAIL: %s(%s%d) element %u: 0x%" PRIx64 ", expected 0x%" PRIx64 "\n",
                    kind == 2 ? "bitselect" : kind ? "select(unsigned mask)" : "select", types[t].name, width, i,
                    get_bits(t, r, i), want_b);
        }
        if (bad) c->failures++, bad_total++;
      }
  }
  /* any / all */
  const int signed_types[4] = {CLTT_char, CLTT_short, CLTT_int, CLTT_long};
  for (int s = 0; s < 4; s++) {
    int t = signed_types[s];
    for (uint32_t i = 0; i < n; i++) put_bits(t, x, i, rnd() % 3 ? to_bits(t, -(i128)(rnd() % 2)) : rnd());
    for (int all = 0; all < 2; all++)
      for (int wj = -1; wj < 5; wj++) {
        int width = wj < 0 ? 1 : widths_all[wj];
        cases++;
        c->cases++;
        if (run(c, CLTO_ANYALL, t, width, all, 0, x, 0, 0, 0, r, 0, 0, n)) continue;
        uint32_t bad = 0;
        for (uint32_t v = 0; v < n / (uint32_t)width; v++) {
          int any = 0, every = 1;
          for (int j = 0; j < width; j++) {
            int msb = as_val(t, get_bits(t, x, v * width + j)) < 0;
            any |= msb;
            every &= msb;
          }
          int want_v = all ? every : any;
          if (((int32_t *)r)[v] != want_v && bad++ < 3)
            fprintf(stderr, "FAIL: %s(%s%d) vector %u: %d, expected %d\n", all ? "all" : "any", types[t].name, width,
                    v, ((int32_t *)r)[v], want_v);
        }
        if (bad) c->failures++, bad_total++;
      }
  }
  /* common: against long double formulas (degrees, radians, mix and
   * smoothstep within a few ulps; the rest exact) */
  static const char *const common_names[] = {"clamp", "degrees", "max", "min", "mix", "radians", "step",
                                             "smoothstep", "sign"};
  for (int d = 0; d < 2; d++) {
    int t = d ? CLTT_double : CLTT_float;
    for (uint32_t i = 0; i < n; i++) {
      double a = unif(-100, 100), b = unif(-100, 100), m = unif(0, 1);
      if (i % 7 == 0) a = 0;
      if (i % 11 == 0) a = -0.0;
      if (i % 13 == 0) a = NAN;
      double lo = a < b ? a : b, hi = a < b ? b : a;
      (void)lo;
      if (d) ((double *)x)[i] = a, ((double *)y)[i] = b, ((double *)z)[i] = m;
      else ((float *)x)[i] = (float)a, ((float *)y)[i] = (float)b, ((float *)z)[i] = (float)m;
      (void)hi;
    }
    for (int fn = 0; fn < 9; fn++) {
      /* clamp and smoothstep take ordered bounds in y, z */
      void *yy = y, *zz = z;
      double *yb = NULL, *zb = NULL;
      if (fn == 0 || fn == 7) {
        yb = xcalloc(n, 8), zb = xcalloc(n, 8);
        for (uint32_t i = 0; i < n; i++) {
          double b = (double)get_elem(t, y, i), e = b + unif(0.5, 50);
          if (d) yb[i] = b, zb[i] = e;
          else ((float *)yb)[i] = (float)b, ((float *)zb)[i] = (float)e;
        }
        yy = yb, zz = zb;
      }
      for (int wj = -1; wj < 5; wj++) {
        int width = wj < 0 ? 1 : widths_all[wj];
        cases++;
        c->cases++;
        /* smoothstep(edge0, edge1, v): the edges first */
        if (fn == 7 ? run(c, CLTO_COMMON, t, fn, width, 0, yy, zz, x, 0, r, 0, 0, n)
                    : run(c, CLTO_COMMON, t, fn, width, 0, x, yy, fn == 0 ? zz : z, 0, r, 0, 0, n))
          continue;
        uint32_t bad = 0;
        for (uint32_t i = 0; i < n; i++) {
          ld a = get_elem(t, x, i), b = get_elem(t, yy, i), e = get_elem(t, fn == 0 || fn == 7 ? zz : z, i), want_v = 0;
          double tol = 0.51;
          switch (fn) {
          case 0: want_v = fminl(fmaxl(a, b), e); break;
          case 1: want_v = a * (180 / PI_L); tol = 2; break;
          case 2: want_v = fmaxl(a, b); break;
          case 3: want_v = fminl(a, b); break;
          case 4: want_v = a + (b - a) * e; tol = -1; break; /* mix: implementation-defined precision */
          case 5: want_v = a * (PI_L / 180); tol = 2; break;
          case 6: want_v = b < a ? 0 : 1; break;
          case 7: {
            ld tt = fminl(fmaxl((a - b) / (e - b), 0), 1);
            want_v = tt * tt * (3 - 2 * tt);
            tol = -1; /* smoothstep: implementation-defined precision */
            break;
          }
          case 8: want_v = isnan(a) ? 0 : a > 0 ? 1 : a < 0 ? -1 : a; break;
          }
          if (fn == 6) b = get_elem(t, x, i), a = get_elem(t, yy, i); /* step(edge = x, v = y) */
          if (fn == 6) want_v = b > a ? 0 : 1, want_v = a < b ? 0 : 1;
          ld got = get_elem(t, r, i);
          double err = ulp_error(want_v, got, d ? 53 : 24, d ? -1022 : -126, d ? DBL_MAX : FLT_MAX);
          if (tol < 0) err = fabsl(got - want_v) <= 1e-4L * (1 + fabsl(want_v)) || (isnan(got) && isnan(want_v)) ? 0 : 1e9, tol = 1;
          if (err > tol && bad++ < 3)
            fprintf(stderr, "FAIL: %s(%s%d %.9Lg, %.9Lg, %.9Lg) = %.17Lg, expected %.17Lg\n", common_names[fn],
                    types[t].name, width, a, b, e, got, want_v);
        }
        if (bad) c->failures++, bad_total++;
      }
      free(yb), free(zb);
    }
  }
  /* geometric: against long double, with the spec's bounds loosened to a
   * few ulps per component (the spec allows more) */
  static const char *const geom_names[] = {"dot", "distance", "length", "normalize", "cross", "fast_distance",
                                           "fast_length", "fast_normalize"};
  for (int d = 0; d < 2; d++) {
    int t = d ? CLTT_double : CLTT_float;
    for (uint32_t i = 0; i < n; i++) {
      double a = unif(-10, 10), b = unif(-10, 10);
      if (i % 17 == 0) a = ldexp(a, d ? 600 : 70); /* overflow-prone squares */
      if (i % 19 == 0) a = ldexp(a, d ? -600 : -70);
      if (d) ((double *)x)[i] = a, ((double *)y)[i] = b;
      else ((float *)x)[i] = (float)a, ((float *)y)[i] = (float)b;
    }
    for (int fn = 0; fn < (d ? 5 : 8); fn++)
      for (int width = 1; width <= 4; width++) {
        if (fn == 4 && width < 3) continue;
        cases++;
        c->cases++;
        if (run(c, CLTO_GEOM, t, fn, width, 0, x, y, 0, 0, r, 0, 0, n)) continue;
        uint32_t bad = 0;
        for (uint32_t v = 0; v < n / (uint32_t)width; v++) {
          ld xs[4] = {0}, ys[4] = {0}, sum = 0, sumd = 0, sq = 0;
          for (int j = 0; j < width; j++) {
            xs[j] = get_elem(t, x, v * width + j), ys[j] = get_elem(t, y, v * width + j);
            sum += xs[j] * ys[j];
            sumd += (xs[j] - ys[j]) * (xs[j] - ys[j]);
            sq += xs[j] * xs[j];
          }
          const int g = fn >= 5 ? fn - 4 : fn; /* fast_* check as their full forms, loosely */
          int nres = (g == 3 || g == 4) ? width : 1;
          for (int j = 0; j < nres; j++) {
            ld want_v, got = get_elem(t, r, g == 3 || g == 4 ? v * width + j : v);
            double tol = fn >= 5 ? 8192 : 4;
            switch (g) {
            case 0: want_v = sum; tol = -1; break; /* cancellation: relative to the terms */
            case 1: want_v = sqrtl(sumd); if (d == 0) { ld dd = 0; for (int k = 0; k < width; k++) { ld df = (ld)(float)(xs[k] - ys[k]); dd += df * df; } want_v = sqrtl(dd); } break;
            case 2: want_v = sqrtl(sq); break;
            case 3: want_v = sq == 0 ? xs[j] : xs[j] / sqrtl(sq); break;
            default: {
              int a1 = (j + 1) % 3, a2 = (j + 2) % 3;
              want_v = j == 3 ? 0 : xs[a1] * ys[a2] - xs[a2] * ys[a1];
              tol = -1;
            }
            }
            double err;
            if (tol < 0) {
              ld scale = 0;
              for (int k = 0; k < width; k++) scale += fabsl(xs[k] * ys[k]) + fabsl(xs[k]) * fabsl(ys[(k + 1) % width]);
              err = fabsl(got - want_v) <= (d ? 0x1p-50L : 0x1p-21L) * (scale + LDBL_MIN) ? 0 : 1e9;
              tol = 1;
            } else {
              err = ulp_error(want_v, got, d ? 53 : 24, d ? -1022 : -126, d ? DBL_MAX : FLT_MAX);
            }
            if (err > tol && bad++ < 3)
              fprintf(stderr, "FAIL: %s(%s%d) vector %u component %d: %.17Lg, expected %.17Lg (%.3g ulp)\n",
                      geom_names[fn], types[t].name, width, v, j, got, want_v, err);
          }
        }
        if (bad) c->failures++, bad_total++;
      }
  }
  /* shuffle / shuffle2: every type, every (input, mask) width pair */
  static const int sw[4] = {2, 4, 8, 16};
  /* inputs: n / N vectors of M elements, up to 8 n elements */
  void *sx = xcalloc((size_t)n * 8, 8), *sy = xcalloc((size_t)n * 8, 8);
  for (int t = 0; t < CLT_TYPE_COUNT; t++) {
    for (uint32_t i = 0; i < n * 8; i++) put_bits(t, sx, i, rnd()), put_bits(t, sy, i, rnd());
    for (uint32_t i = 0; i < n; i++) put_bits(t, z, i, rnd());
    for (int two = 0; two < 2; two++)
      for (int mi = 0; mi < 4; mi++)
        for (int ni = 0; ni < 4; ni++) {
          int m = sw[mi], nn = sw[ni];
          cases++;
          c->cases++;
          if (run(c, CLTO_SHUFFLE, t, m, nn, two, sx, sy, z, 0, r, 0, 0, n)) continue;
          uint32_t bad = 0;
          for (uint32_t i = 0; i < n; i++) {
            uint32_t vec = i / (uint32_t)nn, sel = (uint32_t)(get_bits(t, z, i) & (uint64_t)(two ? 2 * m - 1 : m - 1));
            uint64_t want_b = sel < (uint32_t)m ? get_bits(t, sx, vec * m + sel) : get_bits(t, sy, vec * m + sel - m);
            if (get_bits(t, r, i) != want_b && bad++ < 3)
              fprintf(stderr, "FAIL: %s(%s%d -> %d) element %u: 0x%" PRIx64 ", expected 0x%" PRIx64 "\n",
                      two ? "shuffle2" : "shuffle", types[t].name, m, nn, i, get_bits(t, r, i), want_b);
          }
          if (bad) c->failures++, bad_total++;
        }
  }
  free(sx), free(sy);
  /* vloadn / vstoren: a copy through every width */
  for (int t = 0; t < CLT_TYPE_COUNT; t++) {
    for (uint32_t i = 0; i < n; i++) put_bits(t, x, i, rnd());
    for (int wj = 0; wj < 5; wj++) {
      cases++;
      c->cases++;
      memset(r, 0x77, (size_t)n * 8);
      if (run(c, CLTO_VLOADSTORE, t, widths_all[wj], 0, 0, x, 0, 0, 0, r, 0, 0, n)) continue;
      /* x86-64 returns double3 partly through x87, which quiets signalling
       * NaNs: the host allows that (the quiet bit), the device does not need to */
      const uint64_t quiet = t == CLTT_double ? 1ull << 51 : t == CLTT_float ? 1ull << 22 : 0;
      uint32_t at = 0;
      while (at < n && (get_bits(t, r, at) == get_bits(t, x, at) ||
                        (quiet && isnan(get_elem(t, x, at)) && (get_bits(t, r, at) | quiet) == (get_bits(t, x, at) | quiet))))
        at++;
      if (at < n) {
        fprintf(stderr, "FAIL: vload%d/vstore%d(%s) did not copy: element %u is 0x%" PRIx64 ", not 0x%" PRIx64 "\n",
                widths_all[wj], widths_all[wj], types[t].name, at, get_bits(t, r, at), get_bits(t, x, at));
        c->failures++, bad_total++;
      }
    }
  }
  printf("relational, select, any/all, common, geometric, shuffle, vload/vstore: %d cases, %u values: %d failed\n",
         cases, n, bad_total);
  free(x), free(y), free(z), free(q), free(r), free(w);
}

int clt_check_all(clt_runner_fn run_fn, void *ctx, const clt_options_t *o) {
  checker_t c = {run_fn, ctx, o, 0, 0};
  rng_s = 0x9e3779b97f4a7c15ull;
  if (want(&c, "math")) check_math(&c);
  if (want(&c, "convert")) check_convert(&c);
  if (want(&c, "half")) check_half(&c);
  if (want(&c, "integer")) check_integer(&c);
  if (want(&c, "other")) check_other(&c);
  printf("built-in checks: %d driver runs, %d failed\n", c.cases, c.failures);
  return c.failures;
}

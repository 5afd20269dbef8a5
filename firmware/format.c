/* A small vsnprintf for the firmware and for kernels' print(): integers,
 * strings, characters, pointers and floating point (%f %e %g %a), with flags,
 * width, precision and length modifiers. No libc state, no TLS, no heap. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "fw_format.h"

typedef struct out {
  char *buf;
  size_t cap, len;
} out_t;

static void put(out_t *o, char c) {
  if (o->len + 1 < o->cap) o->buf[o->len] = c;
  o->len++;
}

static void pad(out_t *o, char c, long long n) {
  while (n-- > 0) put(o, c);
}

enum { F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16 };

/* A piece of a converted number: len bytes of s, or (s NULL) len copies of
 * fill. Runs of zeros are pieces, so any precision costs no buffer. */
typedef struct piece {
  const char *s;
  long long len;
  char fill;
} piece_t;

/* Emit prefix (sign, 0x) + pieces, padded to width: with spaces before, or
 * with '-' spaces after, or with '0' (when zero_ok) between prefix and
 * pieces. */
static void emit_pieces(out_t *o, const char *prefix, const piece_t *pc, int npc, int flags, int width, int zero_ok) {
  long long total = 0;
  for (int i = 0; prefix[i]; i++) total++;
  for (int i = 0; i < npc; i++) total += pc[i].len;
  int zero = zero_ok && (flags & F_ZERO) && !(flags & F_LEFT);
  if (!(flags & F_LEFT) && !zero) pad(o, ' ', width - total);
  for (int i = 0; prefix[i]; i++) put(o, prefix[i]);
  if (zero) pad(o, '0', width - total);
  for (int i = 0; i < npc; i++) {
    if (pc[i].s)
      for (long long k = 0; k < pc[i].len; k++) put(o, pc[i].s[k]);
    else
      pad(o, pc[i].fill, pc[i].len);
  }
  if (flags & F_LEFT) pad(o, ' ', width - total);
}

/* Emit sign/prefix + digits with width, precision and flags applied. */
static void emit_number(out_t *o, const char *digits, int ndigits, const char *prefix, int flags, int width,
                        int prec) {
  piece_t pc[2] = {{NULL, prec > ndigits ? prec - ndigits : 0, '0'}, {digits, ndigits, 0}};
  emit_pieces(o, prefix, pc, 2, flags, width, prec < 0);
}

static int utoa_rev(uint64_t v, unsigned base, int upper, char *tmp) {
  const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  int n = 0;
  do {
    tmp[n++] = dig[v % base];
    v /= base;
  } while (v);
  return n;
}

static void fmt_int(out_t *o, uint64_t mag, int neg, unsigned base, int upper, int flags, int width, int prec,
                    int is_signed) {
  char tmp[24], digits[24];
  int n = 0;
  if (!(prec == 0 && mag == 0)) n = utoa_rev(mag, base, upper, tmp);
  for (int i = 0; i < n; i++) digits[i] = tmp[n - 1 - i];
  char prefix[4] = {0};
  int p = 0;
  if (is_signed) {
    if (neg) prefix[p++] = '-';
    else if (flags & F_PLUS) prefix[p++] = '+';
    else if (flags & F_SPACE) prefix[p++] = ' ';
  }
  if ((flags & F_ALT) && base == 8) {
    /* '#' with %o: the first digit must be a 0. Without a precision, a 0
     * prefix (zero padding goes after it); with one, raise the precision,
     * which also prints a 0 for %#.0o of 0. */
    if (prec < 0 && mag != 0) prefix[p++] = '0';
    else if (prec >= 0 && prec <= n && !(n > 0 && digits[0] == '0')) prec = n + 1;
  } else if ((flags & F_ALT) && base == 16 && mag != 0) {
    prefix[p++] = '0';
    prefix[p++] = upper ? 'X' : 'x';
  }
  emit_number(o, digits, n, prefix, flags, width, prec);
}

/* ---- floating point ----
 * Decimal digits come from double arithmetic, not an exact decimal
 * conversion: v * 10^k is formed as a double-double (hi + lo, ~100 bits)
 * from the exact powers of ten up to 1e22, and rounded to an integer of at
 * most 17 digits. That is correctly rounded except within ~2^-100 of a tie;
 * exact ties (0.125 to 2 places, 2.5 to 0) go to even, as in glibc. Digits
 * past the 17th significant one print as 0. fma is one instruction on RV
 * with the D extension. */

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static uint64_t pow10_u64(int k) { /* k <= 19 */
  uint64_t p = 1;
  while (k-- > 0) p *= 10;
  return p;
}

/* v * 10^k = hi + *lo, |*lo| <= ulp(hi) / 2. */
static double scale10(double v, int k, double *lo) {
  double hi = v, l = 0;
  while (k != 0) {
    int step = k > 22 ? 22 : k < -22 ? -22 : k;
    double p = pow10_exact[step < 0 ? -step : step], h, e;
    if (step > 0) {
      h = hi * p;
      e = __builtin_fma(hi, p, -h) + l * p; /* the product's exact error, plus lo's share */
    } else {
      h = hi / p;
      e = (l - __builtin_fma(h, p, -hi)) / p; /* the exact remainder hi - h*p, plus lo, over p */
    }
    hi = h + e;
    l = e - (hi - h);
    k -= step;
  }
  *lo = l;
  return hi;
}

/* Is v * 10^k (v > 0) exactly n + 1/2? */
static int exact_tie(double v, int k, uint64_t *n) {
  if (k >= 0) {
    /* v = m / 2^(k+1) with m odd, so v * 10^k = m * 5^k / 2 */
    if (k > 26) return 0;
    double t = v;
    for (int i = 0; i <= k; i++) t *= 2; /* exact */
    if (!(t < 9.0e18)) return 0;
    uint64_t m = (uint64_t)t, p5 = 1;
    if ((double)m != t || !(m & 1)) return 0;
    for (int i = 0; i < k; i++) p5 *= 5;
    if (m > UINT64_MAX / p5) return 0;
    *n = (m * p5 - 1) / 2;
    return 1;
  }
  /* k < 0: v is an integer ending in 5 followed by -k-1 zeros */
  if (k < -19 || !(v < 1.8e19)) return 0;
  uint64_t iv = (uint64_t)v, p = pow10_u64(-k);
  if ((double)iv != v || iv % p != p / 2) return 0;
  *n = iv / p;
  return 1;
}

/* round(v * 10^k) for v > 0, when that is below 10^19. */
static uint64_t round_scaled(double v, int k) {
  uint64_t n;
  if (exact_tie(v, k, &n)) return n + (n & 1);
  double lo, hi = scale10(v, k, &lo);
  n = (uint64_t)hi;
  double f = hi - (double)n; /* exact */
  if (f != 0) /* hi < 2^52, so |lo| is below half hi's last bit: f decides, lo breaks f == 1/2 */
    return f > 0.5 || (f == 0.5 && (lo > 0 || (lo == 0 && (n & 1)))) ? n + 1 : n;
  /* hi is an integer: round lo */
  int64_t li = (int64_t)lo;
  double lf = lo - (double)li;
  n += (uint64_t)li;
  if (lf > 0.5 || (lf == 0.5 && (n & 1))) n++;
  else if (lf < -0.5 || (lf == -0.5 && (n & 1))) n--;
  return n;
}

/* v > 0 rounded to ndig (1..17) significant digits: *digits (exactly ndig
 * digits) * 10^(e - ndig); returns e. */
static int sig_digits(double v, int ndig, uint64_t *digits) {
  union {
    double d;
    uint64_t u;
  } b = {v};
  int bexp = (int)((b.u >> 52) & 0x7ff), bias = 1023;
  if (bexp == 0) { /* subnormal */
    b.d = v * 18014398509481984.0; /* 2^54 */
    bexp = (int)((b.u >> 52) & 0x7ff);
    bias += 54;
  }
  /* 2^(bexp-bias) <= v: an estimate of e = floor(log10(v)) + 1, fixed below */
  long long t = (long long)(bexp - bias) * 78913; /* log10(2) ~ 78913 / 2^18 */
  int e = (int)(t >= 0 ? t >> 18 : -((-t + 262143) >> 18)) + 1;
  uint64_t hi = pow10_u64(ndig), lo = hi / 10, n = 0;
  for (int tries = 0; tries < 4; tries++) {
    n = round_scaled(v, ndig - e);
    if (n > hi) {
      e++; /* estimate too small */
    } else if (n == hi) { /* rounded up to a new digit: 9.99 -> 10.0 */
      n = lo;
      e++;
      break;
    } else if (n < lo) {
      e--; /* estimate too large */
    } else {
      break;
    }
  }
  *digits = n;
  return e;
}

/* Exactly ndig decimal digits of v into out. */
static void put_digits(uint64_t v, int ndig, char *out) {
  for (int i = ndig - 1; i >= 0; i--) {
    out[i] = (char)('0' + v % 10);
    v /= 10;
  }
}

/* Drop trailing zeros from pieces pc[0..n) (%g without '#'); returns how
 * many pieces still hold something. */
static int strip_zeros(piece_t *pc, int n) {
  while (n > 0) {
    piece_t *p = &pc[n - 1];
    if (p->s)
      while (p->len > 0 && p->s[p->len - 1] == '0') p->len--;
    else if (p->fill == '0')
      p->len = 0;
    if (p->len > 0) break;
    n--;
  }
  return n;
}

static void fmt_float(out_t *o, double v, char conv, int flags, int width, int prec) {
  union {
    double d;
    uint64_t u;
  } bits = {v};
  int neg = (int)(bits.u >> 63); /* -0 and -nan included */
  if (neg) v = -v;
  int upper = conv == 'F' || conv == 'E' || conv == 'G';
  int alt = (flags & F_ALT) != 0;
  if (prec < 0) prec = 6;
  char prefix[2] = {0};
  if (neg) prefix[0] = '-';
  else if (flags & F_PLUS) prefix[0] = '+';
  else if (flags & F_SPACE) prefix[0] = ' ';

  if (v != v || v > 1.7976931348623157e308) {
    piece_t word = {v != v ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), 3, 0};
    emit_pieces(o, prefix, &word, 1, flags, width, 0);
    return;
  }
  char lc = (char)(conv | 0x20);
  int strip = 0;
  uint64_t n = 0;
  if (lc == 'g') {
    int p = prec ? prec : 1, x = 0;
    if (v != 0) x = sig_digits(v, p > 17 ? 17 : p, &n) - 1; /* exponent in %e form */
    if (x < -4 || x >= p) {
      lc = 'e';
      prec = p - 1;
    } else {
      lc = 'f';
      prec = p - 1 - x;
    }
    strip = !alt;
  }

  char d[24], ebuf[8];
  piece_t pc[8];
  int np = 0;
  piece_t *frac; /* the pieces after the point */
  int nfrac;
  if (lc == 'e') {
    int nd = prec + 1 > 17 ? 17 : prec + 1, x = 0;
    if (v != 0) x = sig_digits(v, nd, &n) - 1;
    else n = 0;
    put_digits(n, nd, d);
    pc[np++] = (piece_t){d, 1, 0};
    pc[np++] = (piece_t){".", 1, 0};
    frac = &pc[np];
    pc[np++] = (piece_t){d + 1, nd - 1, 0};
    pc[np++] = (piece_t){NULL, prec - (nd - 1), '0'};
    nfrac = 2;
    int ax = x < 0 ? -x : x, ne = 0;
    ebuf[ne++] = upper ? 'E' : 'e';
    ebuf[ne++] = x < 0 ? '-' : '+';
    if (ax >= 100) ebuf[ne++] = (char)('0' + ax / 100);
    ebuf[ne++] = (char)('0' + (ax / 10) % 10);
    ebuf[ne++] = (char)('0' + ax % 10);
    pc[np++] = (piece_t){ebuf, ne, 0};
  } else {
    /* %f: the value is D * 10^-prec when that fits 17 digits, else the
     * first 17 significant digits and zeros. */
    int e = 0;
    if (v != 0) e = sig_digits(v, 17, &n);
    if (v == 0 || e + prec <= 17) {
      uint64_t m = v == 0 ? 0 : round_scaled(v, prec);
      int len = 1;
      for (uint64_t t = m; t >= 10; t /= 10) len++;
      put_digits(m, len, d);
      if (len > prec) {
        pc[np++] = (piece_t){d, len - prec, 0};
        pc[np++] = (piece_t){".", 1, 0};
        frac = &pc[np];
        pc[np++] = (piece_t){d + len - prec, prec, 0};
        nfrac = 1;
      } else {
        pc[np++] = (piece_t){"0", 1, 0};
        pc[np++] = (piece_t){".", 1, 0};
        frac = &pc[np];
        pc[np++] = (piece_t){NULL, prec - len, '0'};
        pc[np++] = (piece_t){d, len, 0};
        nfrac = 2;
      }
    } else {
      put_digits(n, 17, d);
      if (e >= 17) {
        pc[np++] = (piece_t){d, 17, 0};
        pc[np++] = (piece_t){NULL, e - 17, '0'};
        pc[np++] = (piece_t){".", 1, 0};
        frac = &pc[np];
        pc[np++] = (piece_t){NULL, prec, '0'};
        nfrac = 1;
      } else if (e > 0) {
        pc[np++] = (piece_t){d, e, 0};
        pc[np++] = (piece_t){".", 1, 0};
        frac = &pc[np];
        pc[np++] = (piece_t){d + e, 17 - e, 0};
        pc[np++] = (piece_t){NULL, prec - (17 - e), '0'};
        nfrac = 2;
      } else {
        pc[np++] = (piece_t){"0", 1, 0};
        pc[np++] = (piece_t){".", 1, 0};
        frac = &pc[np];
        pc[np++] = (piece_t){NULL, -e, '0'};
        pc[np++] = (piece_t){d, 17, 0};
        pc[np++] = (piece_t){NULL, prec + e - 17, '0'};
        nfrac = 3;
      }
    }
  }
  /* The point: only with digits after it, or '#'; %g drops trailing zeros. */
  int kept = strip ? strip_zeros(frac, nfrac) : nfrac;
  long long frac_len = 0;
  for (int i = 0; i < kept; i++) frac_len += frac[i].len;
  if (frac_len == 0 && !alt) frac[-1].len = 0;
  emit_pieces(o, prefix, pc, np, flags, width, 1);
}

/* %a / %A as glibc prints a double: 0x1.hhhp+d (0x0.hhhp-1022 when
 * subnormal, 0x0p+0 for zero); without a precision the 13 fraction digits
 * less their trailing zeros, else rounded to prec digits, ties to even (a
 * carry past the leading digit makes it 2, as in glibc). */
static void fmt_hexfloat(out_t *o, double v, char conv, int flags, int width, int prec) {
  union {
    double d;
    uint64_t u;
  } bits = {v};
  int upper = conv == 'A';
  char prefix[4] = {0};
  int p = 0;
  if (bits.u >> 63) prefix[p++] = '-';
  else if (flags & F_PLUS) prefix[p++] = '+';
  else if (flags & F_SPACE) prefix[p++] = ' ';
  int bexp = (int)((bits.u >> 52) & 0x7ff);
  uint64_t frac = bits.u & 0xfffffffffffffull;
  if (bexp == 0x7ff) {
    piece_t word = {frac ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), 3, 0};
    emit_pieces(o, prefix, &word, 1, flags, width, 0);
    return;
  }
  prefix[p++] = '0';
  prefix[p++] = upper ? 'X' : 'x';
  unsigned lead = bexp != 0;
  int exp = bexp == 0 ? (frac ? -1022 : 0) : bexp - 1023;
  int nd = 13; /* fraction digits kept */
  if (prec >= 0 && prec < 13) {
    int drop = 4 * (13 - prec);
    uint64_t rest = frac & ((1ull << drop) - 1), half = 1ull << (drop - 1);
    frac >>= drop;
    uint64_t odd = prec > 0 ? frac & 1 : lead; /* the last digit kept */
    if (rest > half || (rest == half && odd)) {
      frac++;
      if (frac >> (4 * prec)) { /* carried into the leading digit */
        frac &= (1ull << (4 * prec)) - 1;
        lead++;
      }
    }
    nd = prec;
  } else if (prec < 0) {
    while (nd > 0 && (frac & 0xf) == 0) {
      frac >>= 4;
      nd--;
    }
  }
  const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char d[16], ebuf[8];
  d[0] = dig[lead];
  for (int i = nd; i >= 1; i--) {
    d[i] = dig[frac & 0xf];
    frac >>= 4;
  }
  int ne = 0, ax = exp < 0 ? -exp : exp;
  ebuf[ne++] = upper ? 'P' : 'p';
  ebuf[ne++] = exp < 0 ? '-' : '+';
  char tmp[8];
  int nt = utoa_rev((uint64_t)ax, 10, 0, tmp);
  while (nt > 0) ebuf[ne++] = tmp[--nt];
  piece_t pc[5];
  int np = 0;
  pc[np++] = (piece_t){d, 1, 0};
  if (nd > 0 || (flags & F_ALT)) pc[np++] = (piece_t){".", 1, 0};
  pc[np++] = (piece_t){d + 1, nd, 0};
  if (prec > 13) pc[np++] = (piece_t){NULL, prec - 13, '0'};
  pc[np++] = (piece_t){ebuf, ne, 0};
  emit_pieces(o, prefix, pc, np, flags, width, 1);
}

int fw_vformat(char *buf, size_t cap, const char *fmt, va_list ap) {
  out_t o = {buf, cap, 0};
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') {
      put(&o, *p);
      continue;
    }
    p++;
    int flags = 0, width = -1, prec = -1;
    for (;; p++) {
      if (*p == '-') flags |= F_LEFT;
      else if (*p == '+') flags |= F_PLUS;
      else if (*p == ' ') flags |= F_SPACE;
      else if (*p == '#') flags |= F_ALT;
      else if (*p == '0') flags |= F_ZERO;
      else break;
    }
    if (*p == '*') {
      width = va_arg(ap, int);
      if (width < 0) {
        flags |= F_LEFT;
        width = -width;
      }
      p++;
    } else {
      for (width = 0; *p >= '0' && *p <= '9'; p++) width = width * 10 + (*p - '0');
    }
    if (*p == '.') {
      p++;
      if (*p == '*') {
        prec = va_arg(ap, int);
        p++;
      } else {
        for (prec = 0; *p >= '0' && *p <= '9'; p++) prec = prec * 10 + (*p - '0');
      }
    }
    int len = 0; /* 0 int, 1 long, 2 long long, -1 short, -2 char, 3 size/ptrdiff/intmax */
    if (*p == 'h') {
      len = -1;
      if (*++p == 'h') {
        len = -2;
        p++;
      }
    } else if (*p == 'l') {
      len = 1;
      if (*++p == 'l') {
        len = 2;
        p++;
      }
    } else if (*p == 'z' || *p == 't') {
      len = 3;
      p++;
    } else if (*p == 'j') {
      len = 2;
      p++;
    } else if (*p == 'L') {
      p++;
    }
    char c = *p;
    if (!c) break;
    switch (c) {
    case 'd':
    case 'i': {
      int64_t v;
      if (len == 2) v = va_arg(ap, long long);
      else if (len == 1) v = va_arg(ap, long);
      else if (len == 3) v = (int64_t)va_arg(ap, ptrdiff_t);
      else v = va_arg(ap, int);
      if (len == -1) v = (short)v;
      if (len == -2) v = (signed char)v;
      uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
      fmt_int(&o, mag, v < 0, 10, 0, flags, width, prec, 1);
      break;
    }
    case 'u':
    case 'x':
    case 'X':
    case 'o': {
      uint64_t v;
      if (len == 2) v = va_arg(ap, unsigned long long);
      else if (len == 1) v = va_arg(ap, unsigned long);
      else if (len == 3) v = va_arg(ap, size_t);
      else v = va_arg(ap, unsigned);
      if (len == -1) v = (unsigned short)v;
      if (len == -2) v = (unsigned char)v;
      unsigned base = c == 'u' ? 10 : c == 'o' ? 8 : 16;
      fmt_int(&o, v, 0, base, c == 'X', flags, width, prec, 0);
      break;
    }
    case 'p': {
      uintptr_t v = (uintptr_t)va_arg(ap, void *);
      if (v) {
        fmt_int(&o, v, 0, 16, 0, flags | F_ALT, width, prec, 0);
      } else { /* as glibc prints a null pointer */
        piece_t nil = {"(nil)", 5, 0};
        emit_pieces(&o, "", &nil, 1, flags, width, 0);
      }
      break;
    }
    case 'c': {
      char ch = (char)va_arg(ap, int);
      if (!(flags & F_LEFT)) pad(&o, ' ', width - 1);
      put(&o, ch);
      if (flags & F_LEFT) pad(&o, ' ', width - 1);
      break;
    }
    case 's': {
      const char *s = va_arg(ap, const char *);
      if (!s) s = "(null)";
      int n = 0;
      while ((prec < 0 || n < prec) && s[n]) n++; /* never reads s[prec]: %.Ns may be unterminated */
      if (!(flags & F_LEFT)) pad(&o, ' ', width - n);
      for (int i = 0; i < n; i++) put(&o, s[i]);
      if (flags & F_LEFT) pad(&o, ' ', width - n);
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      fmt_float(&o, va_arg(ap, double), c, flags, width, prec);
      break;
    case 'a':
    case 'A':
      fmt_hexfloat(&o, va_arg(ap, double), c, flags, width, prec);
      break;
    case '%':
      put(&o, '%');
      break;
    default: /* unknown conversion: show it as written */
      put(&o, '%');
      put(&o, c);
      break;
    }
  }
  if (o.cap) o.buf[o.len < o.cap ? o.len : o.cap - 1] = '\0';
  return (int)o.len;
}

int fw_format(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = fw_vformat(buf, cap, fmt, ap);
  va_end(ap);
  return n;
}

/* A small vsnprintf for the firmware and for kernels' print(): integers,
 * strings, characters, pointers and floating point (%f %e %g), with flags,
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

static void pad(out_t *o, char c, int n) {
  while (n-- > 0) put(o, c);
}

enum { F_LEFT = 1, F_PLUS = 2, F_SPACE = 4, F_ALT = 8, F_ZERO = 16 };

/* Emit sign/prefix + digits with width, precision and flags applied. */
static void emit_number(out_t *o, const char *digits, int ndigits, const char *prefix, int flags, int width,
                        int prec) {
  int plen = 0;
  while (prefix[plen]) plen++;
  int zeros = prec > ndigits ? prec - ndigits : 0;
  int total = plen + zeros + ndigits;
  if (!(flags & F_LEFT) && !(flags & F_ZERO && prec < 0)) pad(o, ' ', width - total);
  for (int i = 0; i < plen; i++) put(o, prefix[i]);
  if (!(flags & F_LEFT) && (flags & F_ZERO) && prec < 0) pad(o, '0', width - total);
  pad(o, '0', zeros);
  for (int i = 0; i < ndigits; i++) put(o, digits[i]);
  if (flags & F_LEFT) pad(o, ' ', width - total);
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
  if ((flags & F_ALT) && mag != 0) {
    if (base == 16) {
      prefix[p++] = '0';
      prefix[p++] = upper ? 'X' : 'x';
    } else if (base == 8) {
      prefix[p++] = '0';
    }
  }
  emit_number(o, digits, n, prefix, flags, width, prec);
}

/* Decimal digits of a double: mantissa digits and decimal exponent, so that
 * value ~= 0.d1d2d3... * 10^exp10. Good to ~17 significant digits. */
static int float_digits(double v, int ndig, char *digits, int *exp10) {
  int e = 0;
  if (v == 0.0) {
    for (int i = 0; i < ndig; i++) digits[i] = '0';
    *exp10 = 1;
    return ndig;
  }
  while (v >= 1e16) { v /= 1e16; e += 16; }
  while (v >= 1.0) { v /= 10.0; e++; }
  while (v < 1e-16) { v *= 1e16; e -= 16; }
  while (v < 0.1) { v *= 10.0; e--; }
  /* now 0.1 <= v < 1 */
  if (ndig > 17) ndig = 17;
  uint64_t scaled;
  double s = v;
  for (int i = 0; i < ndig; i++) s *= 10.0;
  scaled = (uint64_t)(s + 0.5);
  uint64_t limit = 1;
  for (int i = 0; i < ndig; i++) limit *= 10;
  if (scaled >= limit) { /* rounding carried into a new digit */
    scaled /= 10;
    e++;
  }
  for (int i = ndig - 1; i >= 0; i--) {
    digits[i] = (char)('0' + scaled % 10);
    scaled /= 10;
  }
  *exp10 = e;
  return ndig;
}

static void fmt_float(out_t *o, double v, char conv, int flags, int width, int prec) {
  char buf[400];
  int n = 0;
  int neg = v < 0 || (v == 0 && 1 / v < 0);
  if (neg) v = -v;
  int upper = conv == 'F' || conv == 'E' || conv == 'G';
  if (prec < 0) prec = 6;
  if (prec > 60) prec = 60;
  char prefix[2] = {0};
  if (neg) prefix[0] = '-';
  else if (flags & F_PLUS) prefix[0] = '+';
  else if (flags & F_SPACE) prefix[0] = ' ';

  if (v != v || v > 1.7976931348623157e308) {
    const char *s = v != v ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    emit_number(o, s, 3, prefix, flags & ~F_ZERO, width, -1);
    return;
  }
  char lc = (char)(conv | 0x20);
  int strip = 0;
  if (lc == 'g') {
    int p = prec ? prec : 1, e;
    char d[20];
    float_digits(v, p > 17 ? 17 : p, d, &e);
    int x = v == 0 ? 0 : e - 1; /* exponent in %e form */
    if (x < -4 || x >= p) {
      lc = 'e';
      prec = p - 1;
    } else {
      lc = 'f';
      prec = p - 1 - x;
    }
    strip = !(flags & F_ALT);
  }
  char d[20];
  int e;
  if (lc == 'e') {
    int nd = prec + 1 > 17 ? 17 : prec + 1;
    float_digits(v, nd, d, &e);
    int x = v == 0 ? 0 : e - 1;
    buf[n++] = d[0];
    if (prec > 0 || (flags & F_ALT)) buf[n++] = '.';
    for (int i = 1; i <= prec; i++) buf[n++] = i < nd ? d[i] : '0';
    if (strip) {
      while (n > 1 && buf[n - 1] == '0') n--;
      if (buf[n - 1] == '.') n--;
    }
    buf[n++] = upper ? 'E' : 'e';
    buf[n++] = x < 0 ? '-' : '+';
    int ax = x < 0 ? -x : x;
    if (ax >= 100) buf[n++] = (char)('0' + ax / 100);
    buf[n++] = (char)('0' + (ax / 10) % 10);
    buf[n++] = (char)('0' + ax % 10);
  } else {
    /* %f: integer digits, then prec fraction digits. */
    int nd;
    if (v == 0) {
      e = 1;
      nd = 0;
    } else {
      float_digits(v, 17, d, &e);
      nd = e + prec; /* significant digits needed */
      if (nd > 17) nd = 17;
      if (nd >= 0) {
        int e2;
        if (nd == 0) { /* value rounds to 0 or 1 in the last place */
          double scale = 1;
          for (int i = 0; i < prec; i++) scale *= 10;
          nd = v * scale >= 0.5 ? 1 : 0;
          if (nd) {
            d[0] = '1';
            e = 1 - prec;
          }
        } else {
          float_digits(v, nd, d, &e2);
          if (e2 != e) { /* carried: 9.99 -> 10.0 */
            e = e2;
            nd = e + prec > 17 ? 17 : e + prec;
            float_digits(v, nd, d, &e2);
          }
        }
      } else {
        nd = 0;
      }
    }
    /* digit at position k (0 = first integer digit, counting from 10^(e-1)) */
    if (e <= 0) buf[n++] = '0';
    for (int k = 0; k < e && n < 330; k++) buf[n++] = k < nd ? d[k] : '0';
    if (prec > 0 || (flags & F_ALT)) buf[n++] = '.';
    for (int i = 0; i < prec && n < 395; i++) {
      int k = e + i; /* index into d */
      buf[n++] = (k >= 0 && k < nd) ? d[k] : '0';
    }
    if (strip && prec > 0) {
      while (buf[n - 1] == '0') n--;
      if (buf[n - 1] == '.') n--;
    }
  }
  emit_number(o, buf, n, prefix, flags, width, -1);
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
      fmt_int(&o, v, 0, 16, 0, flags | F_ALT, width, prec, 0);
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
      while (s[n] && (prec < 0 || n < prec)) n++;
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

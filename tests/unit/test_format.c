/* Unit test of the firmware's formatter (firmware/format.c, built into this
 * test for the host) against glibc's snprintf.
 *
 * Integers, strings, characters, pointers and %% must match glibc byte for
 * byte, return value included. Floating point is held to this explicit
 * tolerance, where S is the number of significant digits glibc prints:
 *
 *   - inf and nan, and every output with S <= 17: exactly glibc's, that is
 *     correctly rounded, exact ties (0.125 with %.2f, 2.5 with %.0f) to even.
 *     Up to 17 digits the firmware's double-double arithmetic resolves every
 *     case glibc's exact conversion does.
 *   - S > 17: the firmware uses double arithmetic, not an exact decimal
 *     conversion, and prints x correctly rounded to 17 significant digits,
 *     then zeros, where glibc prints the exact binary expansion of the
 *     double. So the 17th digit may differ by one (rounded vs. continued)
 *     and all digits after it may differ. Exactly that is allowed: fw's
 *     significant digits must be glibc's "%.16e" digits of x followed by
 *     zeros only (or, for %g, trailing zeros removed), at the same decimal
 *     exponent; and the output must be well formed for its conversion:
 *     sign, one digit before the point for %e, exactly `precision` digits
 *     after it, exponent form, no trailing zeros for %g without '#'. */
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <sys/types.h>

#include "check.h"
#include "fw_format.h"
#include "test_rng.h"

#define BUF 1024
static int max_shown = 40; /* $TEST_FORMAT_SHOW_ALL: all */
#define MAX_SHOWN max_shown

static int shown;

/* One comparison: one check; the first MAX_SHOWN failures are printed. */
static void record(int ok, int line, const char *fmt, const char *want, int wn, const char *got, int gn,
                   const char *why) {
  check_count_++;
  if (ok) return;
  check_failures_++;
  if (shown++ < MAX_SHOWN)
    fprintf(stderr, "%s:%d: format \"%s\": glibc \"%s\" (%d), fw_format \"%s\" (%d)%s%s\n", __FILE__, line, fmt, want,
            wn, got, gn, why ? ": " : "", why ? why : "");
  else if (shown == MAX_SHOWN + 1)
    fprintf(stderr, "(further mismatches not shown)\n");
}

/* Exact: same return value, same bytes (embedded NULs included), NUL after. */
static void same_(int line, const char *fmt, const char *want, int wn, const char *got, int gn) {
  int ok = wn == gn && wn >= 0 && wn < BUF && memcmp(want, got, (size_t)wn + 1) == 0;
  record(ok, line, fmt, want, wn, got, gn, NULL);
}

#define EXPECT_SAME(fmt, ...)                                         \
  do {                                                                \
    char w_[BUF], g_[BUF];                                            \
    memset(g_, 0x5a, sizeof g_);                                      \
    int wn_ = snprintf(w_, sizeof w_, fmt, __VA_ARGS__);              \
    int gn_ = fw_format(g_, sizeof g_, fmt, __VA_ARGS__);             \
    same_(__LINE__, fmt, w_, wn_, g_, gn_);                           \
  } while (0)

/* The same, for formats gcc would warn about (flags C says are ignored): the
 * format is not a literal here, so it is not checked at compile time. */
static void expect_same_unchecked(int line, const char *fmt, ...) {
  char w[BUF], g[BUF];
  va_list ap, aq;
  va_start(ap, fmt);
  va_copy(aq, ap);
  int wn = vsnprintf(w, sizeof w, fmt, ap);
  int gn = fw_vformat(g, sizeof g, fmt, aq);
  va_end(aq);
  va_end(ap);
  same_(line, fmt, w, wn, g, gn);
}

/* All 32 combinations of the five flags. */
static void flag_string(unsigned bits, char *out) {
  static const char f[] = "-+ #0";
  int n = 0;
  for (int i = 0; i < 5; i++)
    if (bits & (1u << i)) out[n++] = f[i];
  out[n] = '\0';
}

/* ---- integers ------------------------------------------------------------ */

static const long long int_values[] = {0, 1, -1, 7, -8, 42, 100, 127, 128, -128, -129, 255, 256, 4095, 32767,
                                       -32768, 65535, 65536, 1000000, INT_MAX, INT_MIN, 4294967295LL, 4294967296LL,
                                       1234567890123LL, -1234567890123LL, LLONG_MAX, LLONG_MIN};

/* One integer conversion, with the argument of the type its length modifier
 * names (values are converted to that type first, as a caller would). */
static void int_case(int line, const char *fmt, const char *len, char conv, long long v) {
  int is_signed = conv == 'd' || conv == 'i';
  int k = !strcmp(len, "hh") || !strcmp(len, "h") || !*len ? 0
          : !strcmp(len, "l")                             ? 1
          : !strcmp(len, "ll")                            ? 2
          : !strcmp(len, "z")                             ? 3
          : !strcmp(len, "t")                             ? 4
                                                          : 5; /* j */
  char w[BUF], g[BUF];
  int wn, gn;
#define BOTH_(arg)                                  \
  do {                                              \
    wn = snprintf(w, sizeof w, fmt, arg);           \
    gn = fw_format(g, sizeof g, fmt, arg);          \
  } while (0)
  if (is_signed) {
    switch (k) {
    case 0: BOTH_((int)v); break;
    case 1: BOTH_((long)v); break;
    case 2: BOTH_((long long)v); break;
    case 3: BOTH_((ssize_t)v); break;
    case 4: BOTH_((ptrdiff_t)v); break;
    default: BOTH_((intmax_t)v); break;
    }
  } else {
    switch (k) {
    case 0: BOTH_((unsigned)v); break;
    case 1: BOTH_((unsigned long)v); break;
    case 2: BOTH_((unsigned long long)v); break;
    case 3: BOTH_((size_t)v); break;
    case 4: BOTH_((size_t)v); break; /* %tu: the unsigned type of ptrdiff_t's size */
    default: BOTH_((uintmax_t)v); break;
    }
  }
#undef BOTH_
  same_(line, fmt, w, wn, g, gn);
}

static void test_int_table(void) {
  static const char *const widths[] = {"", "1", "6", "21"};
  static const char *const precs[] = {"", ".", ".0", ".1", ".4", ".20"};
  static const char *const lens[] = {"hh", "h", "", "l", "ll", "z", "t", "j"};
  static const char convs[] = "diuxXo";
  for (unsigned fl = 0; fl < 32; fl++) {
    char flags[8];
    flag_string(fl, flags);
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
      for (size_t pi = 0; pi < sizeof precs / sizeof *precs; pi++)
        for (size_t li = 0; li < sizeof lens / sizeof *lens; li++)
          for (const char *c = convs; *c; c++) {
            char fmt[64];
            snprintf(fmt, sizeof fmt, "<%%%s%s%s%s%c>", flags, widths[wi], precs[pi], lens[li], *c);
            for (size_t vi = 0; vi < sizeof int_values / sizeof *int_values; vi++)
              int_case(__LINE__, fmt, lens[li], *c, int_values[vi]);
          }
  }
}

static void test_int_literals(void) {
  EXPECT_SAME("%d|%i|%u|%x|%X|%o", 1, -2, 3u, 0xbeefu, 0xbeefu, 0755u);
  EXPECT_SAME("%d %d %d", INT_MIN, INT_MAX, 0);
  EXPECT_SAME("%lld %llu %llx", LLONG_MIN, ULLONG_MAX, ULLONG_MAX);
  /* ints on purpose: hh and h must narrow what they are given (clang's
   * -Wformat wants the narrow types there) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
  EXPECT_SAME("%hhd %hhu %hhx %hd %hu %hx", 300, 300, -1, 70000, 70000, -1);
#pragma GCC diagnostic pop
  EXPECT_SAME("%zu %zx %td %jd %ju", (size_t)SIZE_MAX, (size_t)12345, (ptrdiff_t)-77, (intmax_t)INTMAX_MIN,
              (uintmax_t)UINTMAX_MAX);
  EXPECT_SAME("%ld %lu %lx", LONG_MIN, ULONG_MAX, 0xdeadbeefUL);
  /* '*' width and precision, negative ones included */
  EXPECT_SAME("[%*d][%-*d][%*d]", 6, 42, 6, 42, -6, 42);
  EXPECT_SAME("[%.*d][%.*d][%.*d]", 5, 42, 0, 0, -1, 0);
  expect_same_unchecked(__LINE__, "[%*.*d][%0*d][%0*.*x]", 9, 4, -7, 8, -7, 10, 3, 0xabu);
  EXPECT_SAME("[%-*.*d]", -9, 4, 12);
  /* '#' corner cases: zero values, precision already giving a leading 0 */
  EXPECT_SAME("[%#o][%#.0o][%#.3o][%#.4o][%#5o][%#-5o][%#05o][%#08o]", 0u, 0u, 8u, 8u, 8u, 8u, 8u, 8u);
  EXPECT_SAME("[%#x][%#.0x][%#X][%#06x][%#-6x][%#.4x]", 0u, 0u, 0xabu, 0xabu, 0xabu, 0xabu);
  EXPECT_SAME("[%#llo][%#llx]", ULLONG_MAX, ULLONG_MAX);
  /* '0' is ignored when a precision is given; '-' beats '0'; '+' beats ' ' */
  expect_same_unchecked(__LINE__, "[%08.3d][%-08d][%+ d][% +d][% d][%+d]", -5, -5, 5, 5, -5, 0);
  EXPECT_SAME("[%.0d][%5.0d][%+.0d][% .0d][%.0u][%.0x]", 0, 0, 0, 0, 0u, 0u);
  EXPECT_SAME("%%|%d%%|100%%", 5);
  EXPECT_SAME("%s", "no conversions here");
  EXPECT_SAME("x=%d y=%s z=%c %lu %lld %zu %td %jd %hhd %hd", 1, "two", '3', 4ul, 5ll, (size_t)6, (ptrdiff_t)7,
              (intmax_t)8, (signed char)9, (short)10);
}

/* ---- characters, strings, pointers --------------------------------------- */

static void test_chars(void) {
  static const char chars[] = {'a', ' ', '\0', '\n', '%', (char)0xff, '0'};
  static const char *const fmts[] = {"<%c>", "<%1c>", "<%4c>", "<%-4c>", "<%-1c>", "<%c%c>"};
  for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++)
    for (size_t i = 0; i < sizeof chars; i++) {
      char w[BUF], g[BUF];
      int wn = snprintf(w, sizeof w, fmts[f], chars[i], chars[(i + 1) % sizeof chars]);
      int gn = fw_format(g, sizeof g, fmts[f], chars[i], chars[(i + 1) % sizeof chars]);
      same_(__LINE__, fmts[f], w, wn, g, gn);
    }
  EXPECT_SAME("%c%c%c", 'a', 0, 'b'); /* an embedded NUL is output and counted */
  EXPECT_SAME("[%*c][%-*c]", 3, 'x', 3, 'y');
}

static void test_strings(void) {
  static const char *const strs[] = {"", "a", "hello", "hello, world", ("\xc3\xbcnic\xc3\xb6" "de"), "tab\there"};
  static const char *const widths[] = {"", "1", "5", "20"};
  static const char *const precs[] = {"", ".", ".0", ".3", ".8"};
  for (int left = 0; left < 2; left++)
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
      for (size_t pi = 0; pi < sizeof precs / sizeof *precs; pi++) {
        char fmt[32];
        snprintf(fmt, sizeof fmt, "<%%%s%s%ss>", left ? "-" : "", widths[wi], precs[pi]);
        for (size_t si = 0; si < sizeof strs / sizeof *strs; si++) {
          char w[BUF], g[BUF];
          int wn = snprintf(w, sizeof w, fmt, strs[si]);
          int gn = fw_format(g, sizeof g, fmt, strs[si]);
          same_(__LINE__, fmt, w, wn, g, gn);
        }
      }
  EXPECT_SAME("[%.*s][%.*s][%*.*s]", 2, "abcdef", -1, "abcdef", -8, 3, "abcdef");
  /* A precision lets the string lack a NUL past it. */
  static const char unterminated[4] = {'w', 'x', 'y', 'z'};
  EXPECT_SAME("[%.4s][%.2s]", unterminated, unterminated);
  const char *volatile null_string = NULL; /* volatile: keep gcc from seeing the NULL */
  EXPECT_SAME("[%s][%10s][%-8s]", null_string, null_string, null_string);
}

/* %.Ns reads at most N bytes: a string without a terminator that ends
 * right before an unreadable page (it read one byte past it: SIGSEGV here,
 * the issue's one ASan report). */
static void test_string_precision_bound(void) {
  long page = sysconf(_SC_PAGESIZE);
  char *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  CHECK(map != MAP_FAILED);
  if (map == MAP_FAILED) return;
  CHECK(mprotect(map + page, (size_t)page, PROT_NONE) == 0);
  char *s = map + page - 4;
  memcpy(s, "abcd", 4); /* no terminator: the next byte is the guard page */
  char g[32];
  CHECK_EQ_U64(fw_format(g, sizeof g, "[%.4s]", s), 6);
  CHECK(strcmp(g, "[abcd]") == 0);
  CHECK_EQ_U64(fw_format(g, sizeof g, "[%6.4s][%-.2s]", s, s + 2), 12);
  CHECK(strcmp(g, "[  abcd][cd]") == 0);
  munmap(map, (size_t)page * 2);
}

static void test_pointers(void) {
  void *ptrs[] = {(void *)0x1234, (void *)(uintptr_t)0xdeadbeef, (void *)UINTPTR_MAX, (void *)1, NULL};
  static const char *const fmts[] = {"<%p>", "<%20p>", "<%-20p>", "<%3p>", "<%020p>", "<%-3p>"};
  for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++)
    for (size_t i = 0; i < sizeof ptrs / sizeof *ptrs; i++) {
      char w[BUF], g[BUF];
      int wn = snprintf(w, sizeof w, fmts[f], ptrs[i]);
      int gn = fw_format(g, sizeof g, fmts[f], ptrs[i]);
      same_(__LINE__, fmts[f], w, wn, g, gn);
    }
}

/* ---- floating point ------------------------------------------------------- */

static double neg_nan(void) { return copysign(NAN, -1.0); }

/* Is s a well-formed output of `conv` with precision prec (after default)? */
static int well_formed(const char *s, char conv, int prec, int alt, const char **why) {
  const char *p = s;
  char lc = (char)(conv | 0x20);
  int upper = conv != lc;
  while (*p == ' ') p++;
  if (*p == '+' || *p == '-') p++;
  if (*p == ' ') p++;
  const char *digits = p;
  while (*p >= '0' && *p <= '9') p++;
  if (p == digits) return *why = "no integer digits", 0;
  while (*digits == '0' && digits + 1 < p) digits++; /* zero padding */
  int frac = -1;
  if (*p == '.') {
    const char *f = ++p;
    while (*p >= '0' && *p <= '9') p++;
    frac = (int)(p - f);
    if (lc == 'g' && !alt && (frac == 0 || p[-1] == '0')) return *why = "%g left trailing zeros or point", 0;
  }
  if (lc == 'f' || lc == 'e') {
    int want_frac = prec > 0 ? prec : alt ? 0 : -1;
    if (frac != want_frac) return *why = "wrong number of digits after the point", 0;
    if (lc == 'e' && p - digits != (frac < 0 ? 1 : frac + 2)) return *why = "not one digit before the point", 0;
  }
  if (*p == 'e' || *p == 'E') {
    if (lc == 'f') return *why = "exponent in %f", 0;
    if ((*p == 'E') != upper) return *why = "exponent letter case", 0;
    p++;
    if (*p != '+' && *p != '-') return *why = "exponent sign", 0;
    const char *x = ++p;
    while (*p >= '0' && *p <= '9') p++;
    if (p - x < 2 || p - x > 3) return *why = "exponent digits", 0;
  } else if (lc == 'e') {
    return *why = "no exponent", 0;
  }
  while (*p == ' ') p++;
  if (*p) return *why = "junk after the number", 0;
  return 1;
}

/* The sign character before the digits ('-', '+' or 0), padding skipped. */
static char sign_of(const char *s) {
  while (*s == ' ') s++;
  return *s == '-' || *s == '+' ? *s : 0;
}

static int exponent_of(const char *e_form) { /* "d.ddde+XX" -> XX */
  const char *e = strpbrk(e_form, "eE");
  return e ? atoi(e + 1) : 0;
}

static int tolerated; /* float outputs that differ from glibc's: see the top */

/* Significant digits in a glibc output (mantissa digits from the first
 * nonzero one; 1 for zero). */
static int sig_digits_of(const char *s) {
  int n = 0, started = 0;
  for (; *s && *s != 'e' && *s != 'E'; s++) {
    if (*s < '0' || *s > '9') continue;
    if (*s != '0') started = 1;
    if (started) n++;
  }
  return n ? n : 1;
}

/* The significant digits of a formatted number (from the first nonzero
 * one; "0" for zero) and the decimal exponent of the first of them. */
static void significant(const char *s, char *digits, int *exp10) {
  while (*s == ' ' || *s == '+' || *s == '-') s++;
  int n = 0, int_digits = 0, first = -1, pos = 0, in_frac = 0;
  for (; *s && *s != 'e' && *s != 'E' && *s != ' '; s++) {
    if (*s == '.') {
      in_frac = 1;
      continue;
    }
    if (!in_frac) int_digits++;
    if (first < 0 && *s != '0') first = pos;
    if (first >= 0) digits[n++] = *s;
    pos++;
  }
  int e = (*s == 'e' || *s == 'E') ? atoi(s + 1) : 0;
  if (first < 0) {
    digits[n++] = '0';
    first = int_digits - 1;
  }
  digits[n] = '\0';
  *exp10 = int_digits - 1 - first + e;
}

/* Checks fw's output `got` of value x against glibc's `want` under the
 * tolerance described at the top. */
static void float_check(int line, const char *fmt, char conv, int prec, int alt, double x, const char *want, int wn,
                        const char *got, int gn) {
  if (wn == gn && strcmp(want, got) == 0) return record(1, line, fmt, want, wn, got, gn, NULL);
  if (!isfinite(x)) return record(0, line, fmt, want, wn, got, gn, "inf/nan must match exactly");
  if (sig_digits_of(want) <= 17)
    return record(0, line, fmt, want, wn, got, gn, "up to 17 significant digits must match exactly");
  const char *why = NULL;
  if (!well_formed(got, conv, prec, alt, &why)) return record(0, line, fmt, want, wn, got, gn, why);
  if (sign_of(got) != sign_of(want)) return record(0, line, fmt, want, wn, got, gn, "sign differs");
  if (gn != (int)strlen(got)) return record(0, line, fmt, want, wn, got, gn, "return value is not the length");
  tolerated++;
  if (getenv("TEST_FORMAT_DIAG")) fprintf(stderr, "TOL %s: glibc %s fw %s\n", fmt, want, got);
  char e_form[64], want_digits[32], got_digits[BUF];
  snprintf(e_form, sizeof e_form, "%.16e", x); /* x correctly rounded to 17 digits */
  int want_exp, got_exp;
  significant(e_form, want_digits, &want_exp);
  significant(got, got_digits, &got_exp);
  size_t keep = strlen(want_digits);
  while (keep > 1 && want_digits[keep - 1] == '0') keep--;
  int ok = got_exp == want_exp && strncmp(got_digits, want_digits, keep) == 0;
  for (const char *d = got_digits + (ok ? keep : 0); ok && *d; d++) ok = *d == '0';
  char why_buf[160];
  snprintf(why_buf, sizeof why_buf, "past 17 digits: expected the digits %s then zeros, exponent %d", want_digits,
           want_exp);
  record(ok, line, fmt, want, wn, got, gn, why_buf);
}

/* %#g by the C rule, from glibc's %#e and %#f: style e with precision P-1
 * when the exponent X of the value rounded to P digits is < -4 or >= P,
 * else style f with precision P-1-X; '#' keeps the trailing zeros.
 * glibc's own %#g gets this wrong when the rounding carries into a new
 * decade: it prints 999999.5 with %#g as "1.e+06", not "1.00000e+06". */
static int alt_g_by_rule(char *out, const char *flags, const char *width, char conv, int prec, double v) {
  int p = prec ? prec : 1;
  char e_form[64], fmt[32];
  snprintf(e_form, sizeof e_form, "%.*e", p - 1, v);
  int x = exponent_of(e_form);
  int e_style = x < -4 || x >= p;
  snprintf(fmt, sizeof fmt, "%%%s%s.%d%c", flags, width, e_style ? p - 1 : p - 1 - x,
           e_style ? (conv == 'G' ? 'E' : 'e') : (conv == 'G' ? 'F' : 'f'));
  return snprintf(out, BUF, fmt, v);
}

static const double float_values[] = {
    0.0, -0.0, 1.0, -1.0, 0.1, 0.5, -0.5, 1.5, 2.5, 3.5, 9.5, 99.5, 0.125, 0.375, 0.0625, 1e-5, 1.234e-5,
    0.0001, 0.00009999, 0.001, 0.05, 0.35, 0.45, 0.3, 2.0 / 3.0, 100.0, 1234567.0, 999999.5, 123456.789,
    -123.456, 3.141592653589793, 9.9999999, 99.999, 0.999, 1e15, 1e16, 1e17, 1e22, 1e23, 9223372036854775808.0,
    1.5e300, 1e100, 1e-10, 1e-300, 4.9406564584124654e-324, 2.2250738585072014e-308, DBL_MAX, 1.0 / 3.0e10,
    65536.0 * 65536.0 * 65536.0, 7e-7, 5e-5, 0.0005, 1e21, 12345678901234567890.0,
};

static void test_float_table(void) {
  static const char *const flagsets[] = {"", "-", "+", " ", "#", "0", "-+", "+0", " #", "#0", "-0", "+ "};
  static const char *const widths[] = {"", "1", "14", "32"};
  static const char convs[] = "feEgFG";
  double specials[] = {INFINITY, -INFINITY, NAN, neg_nan()};
  for (size_t fi = 0; fi < sizeof flagsets / sizeof *flagsets; fi++)
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
      for (int pr = -2; pr <= 17; pr++) /* -2: none, -1: "." alone */
        for (const char *c = convs; *c; c++) {
          char fmt[64], ptxt[8] = "";
          if (pr == -1) strcpy(ptxt, ".");
          else if (pr >= 0) snprintf(ptxt, sizeof ptxt, ".%d", pr);
          snprintf(fmt, sizeof fmt, "%%%s%s%s%c", flagsets[fi], widths[wi], ptxt, *c);
          int prec = pr == -2 ? 6 : pr == -1 ? 0 : pr;
          int alt = strchr(flagsets[fi], '#') != NULL;
          size_t nv = sizeof float_values / sizeof *float_values, ns = sizeof specials / sizeof *specials;
          for (size_t vi = 0; vi < nv + ns; vi++) {
            double x = vi < nv ? float_values[vi] : specials[vi - nv];
            for (int sgn = 0; sgn < (vi < nv ? 2 : 1); sgn++) {
              double v = sgn ? -x : x;
              char w[BUF], g[BUF];
              int wn = snprintf(w, sizeof w, fmt, v);
              int gn = fw_format(g, sizeof g, fmt, v);
              if (alt && (*c | 0x20) == 'g') wn = alt_g_by_rule(w, flagsets[fi], widths[wi], *c, prec, v);
              char shown_fmt[96];
              snprintf(shown_fmt, sizeof shown_fmt, "%s of %.17g", fmt, v);
              float_check(__LINE__, shown_fmt, *c, prec, alt, v, w, wn, g, gn);
            }
          }
        }
}

static void test_float_literals(void) {
  /* The rounding cases the brief names, exactly. */
  EXPECT_SAME("[%.2f][%.0f][%.0f][%.0f][%.0f][%.0f]", 0.125, 2.5, 0.5, 1.5, -0.5, -2.5);
  EXPECT_SAME("[%.0e][%.0e][%.1e][%.2e][%.1g][%.2g]", 2.5, 9.5, 99.5, 0.125, 2.5, 0.125);
  EXPECT_SAME("[%.1f][%.3f][%.0f]", 0.25, 0.0625, 999999.5);
  /* exact ties that need 10^23 and 10^24, and ties of large integers */
  EXPECT_SAME("[%.23f][%.24f][%.15e][%.16e]", 0x1p-24, 0x3p-25, 0x1p-24, 0x3p-25);
  EXPECT_SAME("[%.0e][%.0e][%.0e][%.1e][%.0f]", 2.5e21, 1.5e22, 4.5e21, 1.25e21, 4503599627370494.5);
  EXPECT_SAME("[%f][%e][%g]", 0.0, 0.0, 0.0);
  EXPECT_SAME("[%f][%e][%g][%G]", -0.0, -0.0, -0.0, -0.0);
  EXPECT_SAME("[%f][%F][%e][%E][%g][%G]", INFINITY, INFINITY, -INFINITY, -INFINITY, NAN, NAN);
  EXPECT_SAME("[%08f][%-8f|][%+f][% f][%08.3e]", INFINITY, NAN, INFINITY, NAN, -INFINITY);
  EXPECT_SAME("[%f][%+e]", neg_nan(), neg_nan());
  EXPECT_SAME("[%*.*f][%-*.*e][%.*g]", 12, 3, 3.25, 12, 2, 3.25, -1, 3.25);
  EXPECT_SAME("[%g][%g][%g][%g][%g][%g]", 100000.0, 1000000.0, 0.0001, 0.00001, 1e-5, 123456.0);
  EXPECT_SAME("[%#g][%#.0f][%#.0e][%#.3g]", 1.0, 2.0, 3.0, 100.0);
  char g[32];
  CHECK_EQ_U64(fw_format(g, sizeof g, "[%#g][%#.2g]", 999999.5, 99.5), 22); /* glibc: "[1.e+06][1.e+02]" */
  CHECK_MSG(strcmp(g, "[1.00000e+06][1.0e+02]") == 0, "got %s", g);
  EXPECT_SAME("[%.3f][%.10f][%.0f]", 1e22, 1e15, 1e16);
  EXPECT_SAME("[%e][%.3e][%g]", 1e-300, 1e300, 1e300);
  EXPECT_SAME("[%.1f][%.3f][%.2e][%g]", 9.96, 9.9996, 9.996, 9.9999996); /* carries to a new digit */
}

/* Random values (fixed seed): random bit patterns over the whole range, and
 * short decimals k / 10^j and k / 2^j that probe exact and near ties. */
static void test_float_random(void) {
  rng_seed(0x2545f4914f6cdd1dull);
  for (int i = 0; i < 20000; i++) {
    double v;
    uint64_t kind = rng() % 3;
    if (kind == 0) {
      uint64_t b = rng();
      memcpy(&v, &b, sizeof v);
      if (!isfinite(v)) continue;
    } else {
      int64_t k = (int64_t)(rng() % 2000001) - 1000000;
      int j = (int)(rng() % 12);
      v = kind == 1 ? (double)k / pow(10, j) : ldexp((double)k, -j);
    }
    char conv = "feg"[rng() % 3];
    int prec = (int)(rng() % 18);
    if (conv == 'f' && fabs(v) > 1e25) conv = 'e';
    char fmt[16], w[BUF], g[BUF], shown_fmt[96];
    snprintf(fmt, sizeof fmt, "%%.%d%c", prec, conv);
    int wn = snprintf(w, sizeof w, fmt, v);
    int gn = fw_format(g, sizeof g, fmt, v);
    snprintf(shown_fmt, sizeof shown_fmt, "%s of %.17g", fmt, v);
    float_check(__LINE__, shown_fmt, conv, prec, 0, v, w, wn, g, gn);
  }
}

/* Precisions past the table's 17: zeros past the 17th digit, whatever the
 * precision. */
static void test_float_long(void) {
  static const char *const fmts[] = {"%.30f", "%.40f", "%.25e", "%.60e", "%.30g", "%#.30g", "%.330f", "%50.20f"};
  static const double vals[] = {0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-5, 123456.789, 4.9406564584124654e-324, 1e-300,
                                12345678901234567890.0, 0.5};
  for (size_t f = 0; f < sizeof fmts / sizeof *fmts; f++)
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
      char w[BUF], g[BUF], shown_fmt[96];
      int wn = snprintf(w, sizeof w, fmts[f], vals[i]);
      int gn = fw_format(g, sizeof g, fmts[f], vals[i]);
      const char *dot = strchr(fmts[f], '.');
      char conv = fmts[f][strlen(fmts[f]) - 1];
      snprintf(shown_fmt, sizeof shown_fmt, "%s of %.17g", fmts[f], vals[i]);
      float_check(__LINE__, shown_fmt, conv, atoi(dot + 1), strchr(fmts[f], '#') != NULL, vals[i], w, wn, g, gn);
    }
}

/* %a and %A: exact, glibc's digits, so byte for byte. Ties to even, carries
 * into the leading digit, subnormals, zero, flags, widths and precisions. */
static void test_hexfloat(void) {
  static const double vals[] = {0.0, 0.5, 1.0, 1.5, 0.1, 1.0 / 3.0, 24295.671875, 0x1.08p0, 0x1.18p0,
                                0x1.fffffffffffffp0, 0x1.f8p3, 0x1.7ffffp-5, DBL_MAX, DBL_MIN,
                                4.9406564584124654e-324, 0x0.8000000000001p-1022, 1e300, 1e-300};
  static const char *const flagsets[] = {"", "-", "+", " ", "#", "0", "+0", "#0", "- "};
  static const char *const widths[] = {"", "1", "12", "30"};
  double specials[] = {INFINITY, NAN, neg_nan()};
  for (size_t fi = 0; fi < sizeof flagsets / sizeof *flagsets; fi++)
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
      for (int pr = -2; pr <= 16; pr++)
        for (int up = 0; up < 2; up++) {
          char fmt[64], ptxt[8] = "";
          if (pr == -1) strcpy(ptxt, ".");
          else if (pr >= 0) snprintf(ptxt, sizeof ptxt, ".%d", pr);
          snprintf(fmt, sizeof fmt, "[%%%s%s%s%c]", flagsets[fi], widths[wi], ptxt, up ? 'A' : 'a');
          size_t nv = sizeof vals / sizeof *vals, ns = sizeof specials / sizeof *specials;
          for (size_t vi = 0; vi < nv + ns; vi++)
            for (int sgn = 0; sgn < 2; sgn++) {
              double v = vi < nv ? vals[vi] : specials[vi - nv];
              expect_same_unchecked(__LINE__, fmt, sgn ? -v : v);
            }
        }
  EXPECT_SAME("[%.1a][%.0a][%.2a][%.0a]", 0x1.f8p0, 0x1.8p0, 0x1.0ffp0, 0x1.fp-1);
}

/* ---- truncation and the return value ------------------------------------ */

static void trunc_case(int line, const char *fmt, ...) {
  va_list ap, aq;
  va_start(ap, fmt);
  char full[BUF], glibc[BUF];
  va_copy(aq, ap);
  int n = fw_vformat(full, sizeof full, fmt, aq); /* fw's own full output */
  va_end(aq);
  va_copy(aq, ap);
  int glibc_n = vsnprintf(glibc, sizeof glibc, fmt, aq); /* same length for these formats */
  va_end(aq);
  CHECK_MSG(n == glibc_n && n == (int)strlen(full), "line %d: \"%s\" returned %d, glibc %d, length %d", line, fmt, n,
            glibc_n, (int)strlen(full));
  va_copy(aq, ap);
  int n0 = fw_vformat(NULL, 0, fmt, aq); /* cap 0: nothing written, even with a NULL buffer */
  va_end(aq);
  CHECK_MSG(n0 == n, "line %d: \"%s\" with cap 0 returned %d, expected %d", line, fmt, n0, n);
  for (int cap = 0; cap <= n + 3; cap++) {
    char buf[BUF + 16];
    memset(buf, 0x7e, sizeof buf);
    va_copy(aq, ap);
    int r = fw_vformat(buf, (size_t)cap, fmt, aq);
    va_end(aq);
    CHECK_MSG(r == n, "line %d: \"%s\" with cap %d returned %d, expected %d", line, fmt, cap, r, n);
    int kept = cap == 0 ? 0 : cap - 1 < n ? cap - 1 : n;
    if (cap > 0) {
      CHECK_MSG(memcmp(buf, full, (size_t)kept) == 0 && buf[kept] == '\0',
                "line %d: \"%s\" with cap %d: got \"%.*s\", expected \"%.*s\" and a NUL", line, fmt, cap, kept, buf,
                kept, full);
    }
    int untouched = 1;
    for (int i = cap; i < cap + 16; i++) untouched &= buf[i] == 0x7e;
    CHECK_MSG(untouched, "line %d: \"%s\" with cap %d wrote past the buffer", line, fmt, cap);
  }
  va_end(ap);
}

static void test_truncation(void) {
  trunc_case(__LINE__, "hello %d world %s!", 12345, "abc");
  trunc_case(__LINE__, "%-10s|%08.3f|%+e", "x", 3.14159, -2.5e-7);
  trunc_case(__LINE__, "%c%c%c", 'a', 'b', 'c');
  trunc_case(__LINE__, "%lld%%%#x", LLONG_MIN, 0xabcu);
  trunc_case(__LINE__, "");
  trunc_case(__LINE__, "%s", "");
  trunc_case(__LINE__, "%40.20f", 1.0 / 7.0);

  /* cap 1: only the NUL; cap 0 with a real buffer: untouched. */
  char b[4] = {'x', 'y', 'z', 'w'};
  CHECK_EQ_U64(fw_format(b, 1, "%d", 987), 3);
  CHECK(b[0] == '\0' && b[1] == 'y');
  CHECK_EQ_U64(fw_format(b, 0, "%d", 987), 3);
  CHECK(b[0] == '\0' && b[1] == 'y');
  b[0] = 'x';
  CHECK_EQ_U64(fw_format(b, 0, "abc"), 3);
  CHECK(b[0] == 'x');
  CHECK_EQ_U64(fw_format(b, sizeof b, "abc"), 3);
  CHECK(strcmp(b, "abc") == 0);
  CHECK_EQ_U64(fw_format(b, sizeof b, "abcd"), 4);
  CHECK(strcmp(b, "abc") == 0);
  /* A long output into a small buffer: full length returned. */
  char big[8];
  CHECK_EQ_U64(fw_format(big, sizeof big, "%0500d", 1), 500);
  CHECK(big[7] == '\0' && strcmp(big, "0000000") == 0);
  CHECK_EQ_U64(fw_format(big, sizeof big, "%.300f", 1.0), 302); /* any precision: no cap */
  CHECK_EQ_U64(fw_format(NULL, 0, "%.1000e", -1.0), snprintf(NULL, 0, "%.1000e", -1.0));
}

int main(void) {
  test_string_precision_bound();
  if (getenv("TEST_FORMAT_SHOW_ALL")) max_shown = INT_MAX - 1;
  test_int_literals();
  test_int_table();
  test_chars();
  test_strings();
  test_pointers();
  test_float_literals();
  test_float_table();
  test_float_random();
  test_float_long();
  test_hexfloat();
  test_truncation();
  printf("format: %d float outputs differ from glibc's within the tolerance\n", tolerated);
  return check_result("format");
}

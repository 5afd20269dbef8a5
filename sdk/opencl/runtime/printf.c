/* OpenCL C printf (OpenCL 1.2 section 6.12.13) on the SDK's print path: the
 * format is walked here, each conversion formatted with the firmware's
 * formatter (rvhal_svc_vformat), and the whole line sent as one print()
 * record. OpenCL's rules: `l` is 64-bit on RV32 too; vectors are written
 * %v<N><length><conv> (length hh, h, hl or l: char, short, int/float,
 * long/double; none: float or int) and print their elements separated
 * by commas; a float
 * argument arrives as double (C's promotion, OpenCL with doubles), a vector
 * as itself. Compiled by clang (sdk/opencl/CMakeLists.txt): the vector
 * arguments are read with va_arg of the same vector types the kernel
 * passes, so clang lays them out alike on both sides. */
#include <stdarg.h>
#include <stdint.h>

#include "kernel_if.h"

#define LINE_MAX_ 512

typedef signed char char2 __attribute__((ext_vector_type(2)));
typedef signed char char3 __attribute__((ext_vector_type(3)));
typedef signed char char4 __attribute__((ext_vector_type(4)));
typedef signed char char8 __attribute__((ext_vector_type(8)));
typedef signed char char16 __attribute__((ext_vector_type(16)));
typedef short short2 __attribute__((ext_vector_type(2)));
typedef short short3 __attribute__((ext_vector_type(3)));
typedef short short4 __attribute__((ext_vector_type(4)));
typedef short short8 __attribute__((ext_vector_type(8)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef int int2 __attribute__((ext_vector_type(2)));
typedef int int3 __attribute__((ext_vector_type(3)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef int int8 __attribute__((ext_vector_type(8)));
typedef int int16 __attribute__((ext_vector_type(16)));
typedef long long long2 __attribute__((ext_vector_type(2)));
typedef long long long3 __attribute__((ext_vector_type(3)));
typedef long long long4 __attribute__((ext_vector_type(4)));
typedef long long long8 __attribute__((ext_vector_type(8)));
typedef long long long16 __attribute__((ext_vector_type(16)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef float float3 __attribute__((ext_vector_type(3)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float8 __attribute__((ext_vector_type(8)));
typedef float float16 __attribute__((ext_vector_type(16)));
typedef double double2 __attribute__((ext_vector_type(2)));
typedef double double3 __attribute__((ext_vector_type(3)));
typedef double double4 __attribute__((ext_vector_type(4)));
typedef double double8 __attribute__((ext_vector_type(8)));
typedef double double16 __attribute__((ext_vector_type(16)));

typedef struct line {
  const rvhal_call_info_t *ci;
  char buf[LINE_MAX_];
  size_t len;
  int truncated;
} line_t;

static void fmt_one(line_t *l, const char *spec, ...) {
  va_list ap;
  va_start(ap, spec);
  size_t room = sizeof l->buf - l->len;
  int n = rvhal_svc_vformat(l->ci, l->buf + l->len, room, spec, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= room) {
    l->len = sizeof l->buf - 1;
    l->truncated = 1;
  } else
    l->len += (size_t)n;
}

static void put(line_t *l, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (l->len + 1 >= sizeof l->buf) {
      l->truncated = 1;
      return;
    }
    l->buf[l->len++] = s[i];
  }
}

/* Element kinds of a vector conversion. */
enum { K_CHAR, K_SHORT, K_INT, K_LONG, K_FLOAT, K_DOUBLE, K_BAD };

#define VEC_CASE(T, N)                          \
  case N: {                                     \
    T##N v = va_arg(*ap, T##N);                 \
    for (int i = 0; i < N; i++) out[i] = v[i];  \
    break;                                      \
  }
#define VEC_FETCH(T, OUT_T)                                                                      \
  static int fetch_##T(va_list *ap, int n, OUT_T *out) {                                        \
    switch (n) { VEC_CASE(T, 2) VEC_CASE(T, 3) VEC_CASE(T, 4) VEC_CASE(T, 8) VEC_CASE(T, 16)    \
    default: return -1; }                                                                        \
    return 0;                                                                                    \
  }
VEC_FETCH(char, long long)
VEC_FETCH(short, long long)
VEC_FETCH(int, long long)
VEC_FETCH(long, long long)
VEC_FETCH(float, double)
VEC_FETCH(double, double)

int __rvhal_cl_printf(exec_state_t *e, const char *fmt, ...) {
  line_t l = {e->group->ci, {0}, 0, 0};
  va_list ap;
  va_start(ap, fmt);
  int rc = 0;
  for (const char *p = fmt; *p;) {
    if (*p != '%') {
      const char *q = __builtin_strchr(p, '%');
      size_t n = q ? (size_t)(q - p) : __builtin_strlen(p);
      put(&l, p, n);
      p += n;
      continue;
    }
    if (p[1] == '%') {
      put(&l, "%", 1);
      p += 2;
      continue;
    }
    /* %[flags][width][.prec][vN][length]conv */
    char spec[48] = "%";
    size_t sl = 1;
    const char *q = p + 1;
    while (*q && __builtin_strchr("-+ #0", *q) && sl < 20) spec[sl++] = *q++;
    while (*q >= '0' && *q <= '9' && sl < 30) spec[sl++] = *q++;
    if (*q == '.') {
      spec[sl++] = *q++;
      while (*q >= '0' && *q <= '9' && sl < 40) spec[sl++] = *q++;
    }
    int vec = 0;
    if (*q == 'v') {
      q++;
      while (*q >= '0' && *q <= '9') vec = vec * 10 + (*q++ - '0');
    }
    int len = 0; /* 0 none, 1 hh, 2 h, 3 hl, 4 l */
    if (q[0] == 'h' && q[1] == 'h') len = 1, q += 2;
    else if (q[0] == 'h' && q[1] == 'l') len = 3, q += 2;
    else if (q[0] == 'h') len = 2, q += 1;
    else if (q[0] == 'l') len = 4, q += 1;
    char conv = *q ? *q++ : '\0';
    int is_float = conv && __builtin_strchr("fFeEgGaA", conv), is_int = conv && __builtin_strchr("diouxXc", conv);
    if (!is_float && !is_int && conv != 's' && conv != 'p') {
      rc = -1; /* a malformed conversion: printf returns -1 */
      break;
    }
    if (is_int && conv != 'c') {
      spec[sl++] = 'l';
      spec[sl++] = 'l';
    }
    spec[sl++] = conv;
    spec[sl] = '\0';
    if (vec) {
      /* Without a length modifier (undefined in OpenCL) a vector is taken
       * as float or int elements: %v4f prints a float4, as people write it. */
      int kind = is_float ? (len == 3 || len == 0 ? K_FLOAT : len == 4 ? K_DOUBLE : K_BAD)
                          : (len == 1 ? K_CHAR : len == 2 ? K_SHORT : len == 3 || len == 0 ? K_INT
                             : len == 4 ? K_LONG : K_BAD);
      long long iv[16];
      double fv[16];
      int bad = kind == K_BAD;
      if (!bad) switch (kind) {
        case K_CHAR: bad = fetch_char(&ap, vec, iv); break;
        case K_SHORT: bad = fetch_short(&ap, vec, iv); break;
        case K_INT: bad = fetch_int(&ap, vec, iv); break;
        case K_LONG: bad = fetch_long(&ap, vec, iv); break;
        case K_FLOAT: bad = fetch_float(&ap, vec, fv); break;
        default: bad = fetch_double(&ap, vec, fv); break;
        }
      if (bad) {
        rc = -1;
        break;
      }
      for (int i = 0; i < vec; i++) {
        if (i) put(&l, ",", 1);
        if (is_float) fmt_one(&l, spec, fv[i]);
        else if (conv == 'd' || conv == 'i') fmt_one(&l, spec, iv[i]);
        else /* unsigned conversions see the element's own width */
          fmt_one(&l, spec, (unsigned long long)iv[i] & (kind == K_CHAR ? 0xffull : kind == K_SHORT ? 0xffffull
                                                          : kind == K_INT ? 0xffffffffull : ~0ull));
      }
    } else if (is_float) {
      fmt_one(&l, spec, va_arg(ap, double));
    } else if (is_int) {
      long long v = len == 4 ? va_arg(ap, long long) : (long long)va_arg(ap, int);
      unsigned long long u = (unsigned long long)v;
      if (len == 1) u &= 0xff, v = (signed char)v;
      else if (len == 2) u &= 0xffff, v = (short)v;
      else if (len != 4) u &= 0xffffffffull;
      if (conv == 'd' || conv == 'i') fmt_one(&l, spec, v);
      else if (conv == 'c') fmt_one(&l, spec, (int)v);
      else fmt_one(&l, spec, u);
    } else if (conv == 's') {
      fmt_one(&l, spec, va_arg(ap, const char *));
    } else {
      fmt_one(&l, spec, va_arg(ap, void *));
    }
    p = q;
  }
  va_end(ap);
  l.buf[l.len] = '\0';
  print(e, "%s", l.buf);
  return rc;
}

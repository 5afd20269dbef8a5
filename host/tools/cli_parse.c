/* Element types, values and number lists as the tool's commands spell them. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_type_t types[] = {
    {"u8", "uint8_t", 1, CLI_UNSIGNED},  {"i8", "int8_t", 1, CLI_SIGNED},   {"u16", "uint16_t", 2, CLI_UNSIGNED},
    {"i16", "int16_t", 2, CLI_SIGNED},   {"u32", "uint32_t", 4, CLI_UNSIGNED}, {"i32", "int32_t", 4, CLI_SIGNED},
    {"u64", "uint64_t", 8, CLI_UNSIGNED}, {"i64", "int64_t", 8, CLI_SIGNED},  {"f32", "float", 4, CLI_FLOAT},
    {"f64", "double", 8, CLI_FLOAT},
};

/* C names with the sizes a kernel sees; `long` is 8 bytes here although C's
 * long is 4 bytes on RV32, so its member type is int64_t. */
static const cli_type_t c_types[] = {
    {"char", "char", 1, CLI_SIGNED}, {"short", "short", 2, CLI_SIGNED},  {"int", "int", 4, CLI_SIGNED},
    {"long", "int64_t", 8, CLI_SIGNED}, {"float", "float", 4, CLI_FLOAT}, {"double", "double", 8, CLI_FLOAT},
};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

const cli_type_t *cli_type_find(const char *name, size_t len, int c_names) {
  for (size_t i = 0; i < COUNT_OF(types); i++)
    if (strlen(types[i].name) == len && !memcmp(types[i].name, name, len)) return &types[i];
  for (size_t i = 0; c_names && i < COUNT_OF(c_types); i++)
    if (strlen(c_types[i].name) == len && !memcmp(c_types[i].name, name, len)) return &c_types[i];
  return NULL;
}

/* The names (or sizes) of n types, space-separated, into buf (once: the
 * tables are constant). */
static const char *join(char *buf, size_t cap, const cli_type_t *t, size_t n, int sizes) {
  if (buf[0]) return buf;
  size_t len = 0;
  for (size_t i = 0; i < n && len < cap; i++) {
    int w = sizes ? snprintf(buf + len, cap - len, "%s%u", i ? " " : "", t[i].size)
                  : snprintf(buf + len, cap - len, "%s%s", i ? " " : "", t[i].name);
    if (w < 0) break;
    len += (size_t)w;
  }
  return buf;
}

const char *cli_type_list(void) {
  static char list[COUNT_OF(types) * 8];
  return join(list, sizeof list, types, COUNT_OF(types), 0);
}

const char *cli_c_type_list(void) {
  static char list[COUNT_OF(c_types) * 8];
  return join(list, sizeof list, c_types, COUNT_OF(c_types), 0);
}

const char *cli_c_type_sizes(void) {
  static char list[COUNT_OF(c_types) * 4];
  return join(list, sizeof list, c_types, COUNT_OF(c_types), 1);
}

/* Little-endian hosts only (as the library): the low bytes of v are the value. */
static void store_u64(const cli_type_t *t, uint64_t v, void *out) { memcpy(out, &v, t->size); }

int cli_value_parse(const cli_type_t *t, const char *text, void *out, char *why, size_t why_size) {
  char *end;
  if (!*text || isspace((unsigned char)*text)) {
    snprintf(why, why_size, "'%s' is not a %s value", text, t->name);
    return -1;
  }
  errno = 0;
  if (t->cls == CLI_FLOAT) {
    double v = strtod(text, &end);
    if (*end) {
      snprintf(why, why_size, "'%s' is not a number", text);
      return -1;
    }
    /* Overflow only: underflow to a tiny or zero value is fine. */
    if ((errno == ERANGE && fabs(v) > 1) || (t->size == 4 && isfinite(v) && fabs(v) > FLT_MAX)) {
      snprintf(why, why_size, "%s is out of range for %s", text, t->name);
      return -1;
    }
    if (t->size == 4) {
      float f = (float)v;
      memcpy(out, &f, 4);
    } else {
      memcpy(out, &v, 8);
    }
    return 0;
  }
  const unsigned bits = 8 * t->size;
  if (t->cls == CLI_UNSIGNED) {
    uint64_t max = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (*text == '-' || *text == '+') {
      snprintf(why, why_size, "%s is out of range for %s (0..%" PRIu64 ")", text, t->name, max);
      return -1;
    }
    uint64_t v = strtoull(text, &end, 0);
    if (*end) {
      snprintf(why, why_size, "'%s' is not an integer", text);
      return -1;
    }
    if (errno == ERANGE || v > max) {
      snprintf(why, why_size, "%s is out of range for %s (0..%" PRIu64 ")", text, t->name, max);
      return -1;
    }
    store_u64(t, v, out);
    return 0;
  }
  int64_t max = bits == 64 ? INT64_MAX : (INT64_C(1) << (bits - 1)) - 1, min = -max - 1;
  long long v = strtoll(text, &end, 0);
  if (*end) {
    snprintf(why, why_size, "'%s' is not an integer", text);
    return -1;
  }
  if (errno == ERANGE || v > max || v < min) {
    snprintf(why, why_size, "%s is out of range for %s (%" PRId64 "..%" PRId64 ")", text, t->name, min, max);
    return -1;
  }
  store_u64(t, (uint64_t)v, out);
  return 0;
}

void cli_value_from_u64(const cli_type_t *t, uint64_t n, void *out) {
  if (t->cls != CLI_FLOAT) {
    store_u64(t, n, out);
  } else if (t->size == 4) {
    float f = (float)n;
    memcpy(out, &f, 4);
  } else {
    double d = (double)n;
    memcpy(out, &d, 8);
  }
}

void cli_value_random(const cli_type_t *t, uint64_t bits, void *out) {
  if (t->cls != CLI_FLOAT) {
    /* Small numbers read better than full-width noise and fit every type. */
    store_u64(t, bits % 100, out);
  } else {
    double d = (double)(bits >> 11) * 0x1p-53;
    if (t->size == 4) {
      float f = (float)d;
      if (f >= 1.0f) f = 0x1.fffffep-1f; /* rounding may reach 1 */
      memcpy(out, &f, 4);
    } else {
      memcpy(out, &d, 8);
    }
  }
}

void cli_value_print(FILE *f, const cli_type_t *t, const void *p) {
  uint64_t u = 0;
  memcpy(&u, p, t->size);
  if (t->cls == CLI_UNSIGNED) {
    fprintf(f, "%" PRIu64, u);
  } else if (t->cls == CLI_SIGNED) {
    unsigned shift = 64 - 8 * t->size; /* sign-extend the low bytes */
    fprintf(f, "%" PRId64, (int64_t)(u << shift) >> shift);
  } else if (t->size == 4) {
    float v;
    memcpy(&v, p, 4);
    fprintf(f, "%g", v);
  } else {
    double v;
    memcpy(&v, p, 8);
    fprintf(f, "%g", v);
  }
}

int cli_parse_u64(const char *text, uint64_t *out) {
  if (!isdigit((unsigned char)*text)) return -1; /* no sign, no space */
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 0);
  if (*end || errno == ERANGE) return -1;
  *out = v;
  return 0;
}

int cli_parse_dims(const char *text, uint64_t min, uint64_t out[3], uint32_t *out_n, char *why, size_t why_size) {
  uint32_t n = 0;
  const char *p = text;
  for (;;) {
    size_t len = strcspn(p, ",");
    char item[32];
    if (n == 3) {
      snprintf(why, why_size, "more than 3 dimensions");
      return -1;
    }
    if (len == 0 || len >= sizeof item) {
      snprintf(why, why_size, "dimension %u is %s", n, len ? "too long" : "empty");
      return -1;
    }
    memcpy(item, p, len);
    item[len] = 0;
    if (cli_parse_u64(item, &out[n])) {
      snprintf(why, why_size, "'%s' is not a number", item);
      return -1;
    }
    if (out[n] < min) {
      snprintf(why, why_size, "dimension %u is %s, it must be at least %" PRIu64, n, item, min);
      return -1;
    }
    n++;
    p += len;
    if (!*p) break;
    p++;
  }
  *out_n = n;
  return 0;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (char)tolower((unsigned char)c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int cli_parse_hex(const char *text, uint8_t **out, size_t *out_len, char *why, size_t why_size) {
  size_t len = strlen(text);
  if (len == 0) {
    snprintf(why, why_size, "no hex digits");
    return -1;
  }
  if (len % 2) {
    snprintf(why, why_size, "odd number of hex digits (%zu): two per byte", len);
    return -1;
  }
  uint8_t *b = malloc(len / 2);
  if (!b) {
    snprintf(why, why_size, "out of host memory");
    return -1;
  }
  for (size_t i = 0; i < len; i += 2) {
    int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);
    if (hi < 0 || lo < 0) {
      snprintf(why, why_size, "'%c' at position %zu is not a hex digit", hi < 0 ? text[i] : text[i + 1],
               hi < 0 ? i : i + 1);
      free(b);
      return -1;
    }
    b[i / 2] = (uint8_t)(hi << 4 | lo);
  }
  *out = b;
  *out_len = len / 2;
  return 0;
}

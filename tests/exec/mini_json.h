/* A minimal JSON reader for tests: strict RFC 8259 syntax, parsed into a
 * small tree. json_parse returns NULL and an error message with the byte
 * offset if the text is not valid JSON. */
#ifndef RVHAL_TEST_MINI_JSON_H
#define RVHAL_TEST_MINI_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type_t;

typedef struct json {
  json_type_t type;
  double number;       /* JSON_NUMBER, JSON_BOOL (0/1) */
  char *string;        /* JSON_STRING (decoded; \u escapes above 0x7f become '?') */
  struct json **items; /* JSON_ARRAY elements, JSON_OBJECT values */
  char **keys;         /* JSON_OBJECT keys */
  size_t count;
} json_t;

typedef struct json_parser {
  const char *s;
  size_t len, pos;
  int depth;
  char error[160];
} json_parser_t;

static inline void json_free(json_t *v) {
  if (!v) return;
  for (size_t i = 0; i < v->count; i++) {
    json_free(v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
  free(v);
}

static inline json_t *json_fail_(json_parser_t *p, const char *what) {
  if (!p->error[0]) snprintf(p->error, sizeof p->error, "%s at byte %zu", what, p->pos);
  return NULL;
}

static inline void json_ws_(json_parser_t *p) {
  while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
    p->pos++;
}

static inline int json_hex_(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static inline char *json_string_(json_parser_t *p) {
  if (p->pos >= p->len || p->s[p->pos] != '"') return (char *)json_fail_(p, "expected a string");
  p->pos++;
  size_t cap = 16, n = 0;
  char *out = malloc(cap);
  for (;;) {
    if (p->pos >= p->len) {
      free(out);
      return (char *)json_fail_(p, "unterminated string");
    }
    unsigned char c = (unsigned char)p->s[p->pos++];
    if (c == '"') break;
    if (c < 0x20) {
      free(out);
      p->pos--;
      return (char *)json_fail_(p, "control character in string");
    }
    if (c == '\\') {
      if (p->pos >= p->len) {
        free(out);
        return (char *)json_fail_(p, "unterminated escape");
      }
      char e = p->s[p->pos++];
      switch (e) {
      case '"': c = '"'; break;
      case '\\': c = '\\'; break;
      case '/': c = '/'; break;
      case 'b': c = '\b'; break;
      case 'f': c = '\f'; break;
      case 'n': c = '\n'; break;
      case 'r': c = '\r'; break;
      case 't': c = '\t'; break;
      case 'u': {
        unsigned v = 0;
        for (int i = 0; i < 4; i++) {
          int h = p->pos < p->len ? json_hex_(p->s[p->pos]) : -1;
          if (h < 0) {
            free(out);
            return (char *)json_fail_(p, "bad \\u escape");
          }
          v = v * 16 + (unsigned)h;
          p->pos++;
        }
        c = v < 0x80 ? (unsigned char)v : '?';
        break;
      }
      default:
        free(out);
        p->pos--;
        return (char *)json_fail_(p, "bad escape");
      }
    }
    if (n + 2 > cap) out = realloc(out, cap *= 2);
    out[n++] = (char)c;
  }
  out[n] = '\0';
  return out;
}

static inline json_t *json_value_(json_parser_t *p);

static inline json_t *json_new_(json_type_t t) {
  json_t *v = calloc(1, sizeof *v);
  v->type = t;
  return v;
}

static inline void json_push_(json_t *v, json_t *item, char *key) {
  if ((v->count & (v->count - 1)) == 0) { /* grow at powers of two */
    size_t cap = v->count ? 2 * v->count : 1;
    v->items = realloc(v->items, cap * sizeof *v->items);
    if (v->type == JSON_OBJECT) v->keys = realloc(v->keys, cap * sizeof *v->keys);
  }
  v->items[v->count] = item;
  if (v->type == JSON_OBJECT) v->keys[v->count] = key;
  v->count++;
}

static inline json_t *json_number_(json_parser_t *p) {
  size_t start = p->pos;
  const char *s = p->s;
  if (p->pos < p->len && s[p->pos] == '-') p->pos++;
  if (p->pos < p->len && s[p->pos] == '0') p->pos++;
  else if (p->pos < p->len && s[p->pos] >= '1' && s[p->pos] <= '9')
    while (p->pos < p->len && s[p->pos] >= '0' && s[p->pos] <= '9') p->pos++;
  else return json_fail_(p, "bad number");
  if (p->pos < p->len && s[p->pos] == '.') {
    p->pos++;
    if (!(p->pos < p->len && s[p->pos] >= '0' && s[p->pos] <= '9')) return json_fail_(p, "bad fraction");
    while (p->pos < p->len && s[p->pos] >= '0' && s[p->pos] <= '9') p->pos++;
  }
  if (p->pos < p->len && (s[p->pos] == 'e' || s[p->pos] == 'E')) {
    p->pos++;
    if (p->pos < p->len && (s[p->pos] == '+' || s[p->pos] == '-')) p->pos++;
    if (!(p->pos < p->len && s[p->pos] >= '0' && s[p->pos] <= '9')) return json_fail_(p, "bad exponent");
    while (p->pos < p->len && s[p->pos] >= '0' && s[p->pos] <= '9') p->pos++;
  }
  char buf[64];
  size_t n = p->pos - start < sizeof buf - 1 ? p->pos - start : sizeof buf - 1;
  memcpy(buf, s + start, n);
  buf[n] = '\0';
  json_t *v = json_new_(JSON_NUMBER);
  v->number = strtod(buf, NULL);
  return v;
}

static inline json_t *json_value_(json_parser_t *p) {
  json_ws_(p);
  if (p->pos >= p->len) return json_fail_(p, "unexpected end");
  if (++p->depth > 64) return json_fail_(p, "nested too deeply");
  json_t *v = NULL;
  char c = p->s[p->pos];
  if (c == '{' || c == '[') {
    int obj = c == '{';
    v = json_new_(obj ? JSON_OBJECT : JSON_ARRAY);
    p->pos++;
    json_ws_(p);
    if (p->pos < p->len && p->s[p->pos] == (obj ? '}' : ']')) {
      p->pos++;
    } else {
      for (;;) {
        char *key = NULL;
        json_ws_(p);
        if (obj) {
          if (!(key = json_string_(p))) goto fail;
          json_ws_(p);
          if (p->pos >= p->len || p->s[p->pos] != ':') {
            free(key);
            json_fail_(p, "expected ':'");
            goto fail;
          }
          p->pos++;
        }
        json_t *item = json_value_(p);
        if (!item) {
          free(key);
          goto fail;
        }
        json_push_(v, item, key);
        json_ws_(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
          p->pos++;
          continue;
        }
        if (p->pos < p->len && p->s[p->pos] == (obj ? '}' : ']')) {
          p->pos++;
          break;
        }
        json_fail_(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        goto fail;
      }
    }
  } else if (c == '"') {
    char *s = json_string_(p);
    if (!s) goto fail;
    v = json_new_(JSON_STRING);
    v->string = s;
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    if (!(v = json_number_(p))) goto fail;
  } else if (!strncmp(p->s + p->pos, "true", 4) || !strncmp(p->s + p->pos, "false", 5)) {
    v = json_new_(JSON_BOOL);
    v->number = c == 't';
    p->pos += c == 't' ? 4 : 5;
  } else if (!strncmp(p->s + p->pos, "null", 4)) {
    v = json_new_(JSON_NULL);
    p->pos += 4;
  } else {
    json_fail_(p, "unexpected character");
    goto fail;
  }
  p->depth--;
  return v;
fail:
  json_free(v);
  return NULL;
}

/* Parses all of text[0..len): one value, surrounded by whitespace only. */
static inline json_t *json_parse(const char *text, size_t len, char *error, size_t error_cap) {
  json_parser_t p = {text, len, 0, 0, {0}};
  json_t *v = json_value_(&p);
  if (v) {
    json_ws_(&p);
    if (p.pos != len) {
      json_free(v);
      v = json_fail_(&p, "trailing characters");
    }
  }
  if (!v && error) snprintf(error, error_cap, "%s", p.error);
  return v;
}

/* Member `key` of an object (NULL if absent or not an object). */
static inline const json_t *json_get(const json_t *v, const char *key) {
  if (!v || v->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < v->count; i++)
    if (!strcmp(v->keys[i], key)) return v->items[i];
  return NULL;
}

static inline const char *json_get_string(const json_t *v, const char *key) {
  const json_t *m = json_get(v, key);
  return m && m->type == JSON_STRING ? m->string : NULL;
}

/* The number `key`, or `dflt` if absent or not a number. */
static inline double json_get_number(const json_t *v, const char *key, double dflt) {
  const json_t *m = json_get(v, key);
  return m && m->type == JSON_NUMBER ? m->number : dflt;
}

#endif /* RVHAL_TEST_MINI_JSON_H */

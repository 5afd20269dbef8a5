/* A growing text buffer, always NUL-terminated (data[len] == '\0'). */
#ifndef RVHAL_TEXT_BUF_H
#define RVHAL_TEXT_BUF_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text_buf {
  char *data;
  size_t len, cap;
} text_buf_t;

static inline int tb_reserve(text_buf_t *b, size_t more) {
  if (b->len + more + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + more + 1) cap *= 2;
  char *d = realloc(b->data, cap);
  if (!d) return -1;
  b->data = d;
  b->cap = cap;
  return 0;
}

static inline int tb_add(text_buf_t *b, const char *s, size_t n) {
  if (tb_reserve(b, n)) return -1;
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

static inline int tb_insert(text_buf_t *b, size_t at, const char *s) {
  size_t n = strlen(s);
  if (at > b->len || tb_reserve(b, n)) return -1;
  memmove(b->data + at + n, b->data + at, b->len - at + 1);
  memcpy(b->data + at, s, n);
  b->len += n;
  return 0;
}

static inline int tb_printf(text_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int tb_printf(text_buf_t *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || tb_reserve(b, (size_t)n)) return -1;
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
  return 0;
}

#endif /* RVHAL_TEXT_BUF_H */

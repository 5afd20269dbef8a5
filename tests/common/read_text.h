/* A whole file as a NUL-terminated string (malloc'd), or NULL. */
#ifndef RVHAL_TEST_READ_TEXT_H
#define RVHAL_TEST_READ_TEXT_H

#include <stdio.h>
#include <stdlib.h>

static inline char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) b = (free(b), NULL);
  if (b) b[n] = '\0';
  fclose(f);
  return b;
}

#endif /* RVHAL_TEST_READ_TEXT_H */

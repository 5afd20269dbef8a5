/* memcpy, memmove, memset and memcmp for the firmware, a word at a time.
 * picolibc's (as Debian builds it) go a byte at a time. Every launch
 * copies the descriptor and the arguments to the kernel's block (user.c
 * copies those inline now) and compares the PMP ranges (what it saved:
 * docs/performance.md, "Figures behind the code's choices").
 * Built with -fno-tree-loop-distribute-patterns (CMakeLists.txt), so that
 * GCC does not turn these loops back into calls to themselves. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uintptr_t word_t;
#define W sizeof(word_t)

/* Whether p and q are both word-aligned once the same number of bytes
 * has been done on each: the word loop is possible. */
static inline int co_aligned(uintptr_t p, uintptr_t q) { return ((p ^ q) & (W - 1)) == 0; }

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (n >= 2 * W && co_aligned((uintptr_t)d, (uintptr_t)s)) {
    while ((uintptr_t)d & (W - 1)) {
      *d++ = *s++;
      n--;
    }
    word_t *dw = (word_t *)d;
    const word_t *sw = (const word_t *)s;
    for (; n >= 4 * W; n -= 4 * W, dw += 4, sw += 4) {
      word_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
      dw[0] = a;
      dw[1] = b;
      dw[2] = c;
      dw[3] = e;
    }
    for (; n >= W; n -= W) *dw++ = *sw++;
    d = (unsigned char *)dw;
    s = (const unsigned char *)sw;
  }
  while (n--) *d++ = *s++;
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if ((uintptr_t)d - (uintptr_t)s >= n) return memcpy(dst, src, n); /* no overlap that a forward copy breaks */
  /* backwards: dst lies above src, inside [src, src + n) */
  d += n;
  s += n;
  if (n >= 2 * W && co_aligned((uintptr_t)d, (uintptr_t)s)) {
    while ((uintptr_t)d & (W - 1)) {
      *--d = *--s;
      n--;
    }
    word_t *dw = (word_t *)d;
    const word_t *sw = (const word_t *)s;
    for (; n >= W; n -= W) *--dw = *--sw;
    d = (unsigned char *)dw;
    s = (const unsigned char *)sw;
  }
  while (n--) *--d = *--s;
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  if (n >= 2 * W) {
    while ((uintptr_t)d & (W - 1)) {
      *d++ = (unsigned char)c;
      n--;
    }
    word_t v = (unsigned char)c;
    v |= v << 8;
    v |= v << 16;
#if UINTPTR_MAX > 0xffffffffu
    v |= v << 32;
#endif
    word_t *dw = (word_t *)d;
    for (; n >= 4 * W; n -= 4 * W, dw += 4) {
      dw[0] = v;
      dw[1] = v;
      dw[2] = v;
      dw[3] = v;
    }
    for (; n >= W; n -= W) *dw++ = v;
    d = (unsigned char *)dw;
  }
  while (n--) *d++ = (unsigned char)c;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  if (co_aligned((uintptr_t)p, (uintptr_t)q) && !((uintptr_t)p & (W - 1))) {
    /* equal words are skipped; the first unequal one is compared bytewise below */
    for (; n >= W && *(const word_t *)p == *(const word_t *)q; n -= W, p += W, q += W) {
    }
  }
  for (; n; n--, p++, q++)
    if (*p != *q) return *p - *q;
  return 0;
}

/* Passes over LLVM IR text between the LLVM tools (ir_text.h). */
#define _GNU_SOURCE /* memmem */
#include "compiler/ir_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '$' || c == '-';
}

/* The length of the local value name at s ("%38", "%.lcssa"), 0 if s is not one. */
static size_t local_name(const char *s, const char *end) {
  if (s >= end || *s != '%') return 0;
  size_t k = 1;
  while (s + k < end && ident_char(s[k])) k++;
  return k > 1 ? k : 0;
}

/* Whole-token occurrences of the local v[0..vl) in s[b..e). */
static size_t count_uses(const char *s, size_t b, size_t e, const char *v, size_t vl) {
  size_t k = 0;
  while (b + vl <= e) {
    const char *p = memmem(s + b, e - b, v, vl);
    if (!p) break;
    b = (size_t)(p - s) + vl;
    if (b >= e || !ident_char(s[b])) k++;
  }
  return k;
}

typedef struct line {
  size_t start, end; /* end: after its newline */
  int drop;          /* an assume call */
  int neutral;       /* an icmp given constant operands */
  const char *operand; /* assumes: the condition's name */
  size_t operand_len;
} line_t;

static const char *skip_blanks(const char *s, const char *e) {
  while (s < e && (*s == ' ' || *s == '\t')) s++;
  return s;
}

/* Whether line l is "[tail ]call void @llvm.assume(...)"; sets its operand
 * when that is a single local ("i1 %X") and nothing follows the call. */
static int assume_call(const char *ir, line_t *l) {
  const char *s = skip_blanks(ir + l->start, ir + l->end), *e = ir + l->end;
  if ((size_t)(e - s) > 5 && !memcmp(s, "tail ", 5)) s += 5;
  static const char call[] = "call void @llvm.assume(";
  if ((size_t)(e - s) < sizeof call - 1 || memcmp(s, call, sizeof call - 1)) return 0;
  s += sizeof call - 1;
  if ((size_t)(e - s) > 3 && !memcmp(s, "i1 ", 3)) {
    size_t k = local_name(s + 3, e);
    const char *after = skip_blanks(s + 3 + k, e);
    if (k && after < e && *after == ')' && skip_blanks(after + 1, e) + (e[-1] == '\n') == e) {
      l->operand = s + 3;
      l->operand_len = k;
    }
  }
  return 1;
}

/* Uses of v in the function's lines [0..n) that stay: not dropped, and not
 * conditions already given constant operands (their text still names theirs). */
static size_t live_uses(const char *ir, const line_t *lines, size_t n, const char *v, size_t vl, size_t except) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!lines[i].drop && !lines[i].neutral && i != except) k += count_uses(ir, lines[i].start, lines[i].end, v, vl);
  return k;
}

/* Gives the condition of the assume at lines[a] constant operands where it
 * is an icmp the assume alone used and its operands stay used; 0 if done,
 * 1 if dce must run instead. */
static int neutralize(const char *ir, line_t *lines, size_t n, size_t a) {
  const char *v = lines[a].operand;
  size_t vl = lines[a].operand_len;
  if (!v) return 1;
  size_t def = n;
  for (size_t i = 0; i < n; i++) {
    if (lines[i].drop) continue;
    const char *s = skip_blanks(ir + lines[i].start, ir + lines[i].end);
    if (count_uses(ir, lines[i].start, lines[i].end, v, vl)) {
      if (def != n || (size_t)(ir + lines[i].end - s) < vl + 3 || memcmp(s, v, vl) || memcmp(s + vl, " = ", 3))
        return 1; /* used again, or not defined by an instruction here */
      def = i;
    }
  }
  if (def == n || count_uses(ir, lines[def].start, lines[def].end, v, vl) != 1) return 1;
  const char *e = ir + lines[def].end, *s = skip_blanks(ir + lines[def].start, e) + vl + 3;
  if ((size_t)(e - s) < 5 || memcmp(s, "icmp ", 5)) return 1;
  /* icmp PRED TYPE A, B: each operand a constant or a local used elsewhere */
  s += 5;
  while (s < e && ident_char(*s)) s++;
  s = skip_blanks(s, e);
  if (s < e && *s == '<') {
    while (s < e && *s != '>') s++;
    s++;
  }
  while (s < e && *s != ' ' && *s != '\n') s++;
  for (const char *o = skip_blanks(s, e); o < e && *o != '\n';) {
    size_t k = local_name(o, e);
    if (k && live_uses(ir, lines, n, o, k, def) < 2) return 1; /* it would be dead too: its definition and nothing */
    if (!k && (*o == '!' || *o == '#')) return 1;              /* metadata: keep to dce */
    while (o < e && *o != ',' && *o != '\n') o++;
    if (o < e && *o == ',') o = skip_blanks(o + 1, e);
  }
  lines[def].neutral = (int)(s - (ir + lines[def].start)); /* where the operands start */
  return 0;
}

/* One function's lines [b..e), edited, onto out. */
static int function(const char *ir, size_t b, size_t e, text_buf_t *out, int *needs_dce) {
  size_t n = 0, cap = 64;
  line_t *lines = malloc(cap * sizeof *lines);
  if (!lines) return -1;
  for (size_t at = b; at < e;) {
    const char *nl = memchr(ir + at, '\n', e - at);
    size_t end = nl ? (size_t)(nl - ir) + 1 : e;
    if (n == cap) {
      line_t *more = realloc(lines, 2 * cap * sizeof *lines);
      if (!more) {
        free(lines);
        return -1;
      }
      lines = more;
      cap *= 2;
    }
    lines[n] = (line_t){at, end, 0, 0, NULL, 0};
    lines[n].drop = assume_call(ir, &lines[n]);
    n++;
    at = end;
  }
  for (size_t i = 0; i < n; i++)
    if (lines[i].drop && neutralize(ir, lines, n, i)) *needs_dce = 1;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    const line_t *l = &lines[i];
    if (l->drop) continue;
    if (l->neutral)
      rc = tb_add(out, ir + l->start, (size_t)l->neutral) ||
           tb_add(out, " zeroinitializer, zeroinitializer\n", 34);
    else
      rc = tb_add(out, ir + l->start, l->end - l->start);
  }
  free(lines);
  return rc ? -1 : 0;
}

int rvhal_ir_drop_assumes(const char *ir, size_t n, text_buf_t *out, int *out_needs_dce) {
  *out_needs_dce = 0;
  if (tb_reserve(out, n)) return -1;
  for (size_t at = 0; at < n;) {
    const char *nl = memchr(ir + at, '\n', n - at);
    size_t end = nl ? (size_t)(nl - ir) + 1 : n;
    if (end - at > 7 && !memcmp(ir + at, "define ", 7)) { /* to its closing "}" line */
      size_t fe = end;
      while (fe < n && ir[fe] != '}') {
        const char *f = memchr(ir + fe, '\n', n - fe);
        fe = f ? (size_t)(f - ir) + 1 : n;
      }
      const char *f = fe < n ? memchr(ir + fe, '\n', n - fe) : NULL;
      fe = f ? (size_t)(f - ir) + 1 : n;
      if (function(ir, at, fe, out, out_needs_dce)) return -1;
      at = fe;
      continue;
    }
    if (tb_add(out, ir + at, end - at)) return -1;
    at = end;
  }
  return 0;
}

/* A name and its index in the caller's list (sorted, then searched by name). */
typedef struct name_entry {
  const char *s;
  size_t len, index;
} name_entry_t;

static int cmp_entry(const void *a, const void *b) {
  const name_entry_t *x = a, *y = b;
  int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

long rvhal_ir_first_referenced(const char *ir, const char *const *names, size_t count) {
  if (!count) return -1;
  name_entry_t *order = malloc(count * sizeof *order);
  if (!order) return -2;
  for (size_t i = 0; i < count; i++) order[i] = (name_entry_t){names[i], strlen(names[i]), i};
  qsort(order, count, sizeof *order, cmp_entry);
  long found = -1;
  for (const char *l = ir; *l && found < 0;) {
    const char *nl = strchr(l, '\n'), *e = nl ? nl : l + strlen(l);
    int skip = !strncmp(l, "define ", 7); /* the first global on a define line is the one it defines */
    for (const char *p = l; p < e && found < 0; p++) {
      if (*p == ';') break;
      if (*p == '"') {
        const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
        p = q ? q : e;
        continue;
      }
      if (*p != '@') continue;
      const char *s = ++p;
      if (s < e && *s == '"') { /* a quoted name: not an identifier a kernel can have */
        const char *q = memchr(s + 1, '"', (size_t)(e - s - 1));
        p = q ? q : e;
        skip = 0;
        continue;
      }
      while (p < e && ident_char(*p)) p++;
      name_entry_t key = {s, (size_t)(p - s), 0};
      if (skip) {
        skip = 0;
      } else if (key.len) {
        const name_entry_t *hit = bsearch(&key, order, count, sizeof *order, cmp_entry);
        if (hit) found = (long)hit->index;
      }
      p--;
    }
    l = nl ? nl + 1 : e;
  }
  free(order);
  return found;
}

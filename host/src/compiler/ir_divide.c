/* Integer division made defined for every divisor (ir_divide.h). */
#include "compiler/ir_divide.h"

#include <ctype.h>
#include <string.h>

#include "compiler/ir_text.h"

static int starts(const char *s, size_t n, const char *w) {
  size_t k = strlen(w);
  return n >= k && !memcmp(s, w, k);
}

/* The end of an operand starting at s: the first comma outside brackets. */
static size_t operand_end(const char *l, size_t i, size_t n) {
  int depth = 0;
  for (; i < n; i++) {
    char c = l[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') depth++;
    if (c == ')' || c == '>' || c == ']' || c == '}') depth--;
    if (c == ',' && depth == 0) break;
  }
  return i;
}

/* A decimal literal that is a safe divisor: not 0, and for a signed
 * division not -1 either. */
static int safe_literal(const char *s, size_t n, int is_signed) {
  size_t i = 0;
  int neg = n > 0 && s[0] == '-';
  i += (size_t)neg;
  if (i == n) return 0;
  int nonzero = 0, minus_one = neg;
  for (size_t k = i; k < n; k++) {
    if (!isdigit((unsigned char)s[k])) return 0;
    if (s[k] != '0') nonzero = 1;
  }
  if (neg) {
    size_t k = i;
    while (k < n - 1 && s[k] == '0') k++;
    minus_one = k == n - 1 && s[k] == '1';
  }
  return nonzero && !(is_signed && minus_one);
}

/* `v` as a constant of type iK or <N x iK>. */
static int constant(text_buf_t *o, unsigned lanes, unsigned bits, const char *v) {
  if (!lanes) return tb_printf(o, "%s", v);
  if (tb_add(o, "<", 1)) return -1;
  for (unsigned k = 0; k < lanes; k++)
    if (tb_printf(o, "%si%u %s", k ? ", " : "", bits, v)) return -1;
  return tb_add(o, ">", 1);
}

int rvhal_ir_guard_division(const char *l, size_t n, text_buf_t *out) {
  size_t i = 0;
  while (i < n && l[i] == ' ') i++;
  const size_t indent = i;
  if (i >= n || l[i] != '%') return 0;
  /* the result's name: %name, %42 or %"any text" */
  size_t ns = ++i, ne;
  int quoted = i < n && l[i] == '"';
  if (quoted) {
    const char *q = memchr(l + i + 1, '"', n - i - 1);
    if (!q) return 0;
    ns = i + 1;
    ne = (size_t)(q - l);
    i = ne + 1;
  } else {
    while (i < n && rvhal_ir_is_ident((unsigned char)l[i])) i++;
    ne = i;
  }
  if (ne == ns || !starts(l + i, n - i, " = ")) return 0;
  i += 3;
  const char *op = l + i;
  int is_signed;
  if (starts(op, n - i, "udiv ") || starts(op, n - i, "urem ")) is_signed = 0;
  else if (starts(op, n - i, "sdiv ") || starts(op, n - i, "srem ")) is_signed = 1;
  else return 0;
  i += 5;
  int exact = starts(l + i, n - i, "exact ");
  if (exact) i += 6;
  /* the type: iK or <N x iK> */
  const size_t ts = i;
  unsigned lanes = 0, bits = 0;
  if (i < n && l[i] == '<') {
    char *end;
    lanes = (unsigned)strtoul(l + i + 1, &end, 10);
    if ((size_t)(end - l) >= n || !starts(end, n - (size_t)(end - l), " x i")) return 0;
    bits = (unsigned)strtoul(end + 4, &end, 10);
    if ((size_t)(end - l) >= n || *end != '>' || lanes == 0) return 0;
    i = (size_t)(end - l) + 1;
  } else if (i < n && l[i] == 'i') {
    char *end;
    bits = (unsigned)strtoul(l + i + 1, &end, 10);
    i = (size_t)(end - l);
  }
  if (bits < 2 || bits > 64 || i >= n || l[i] != ' ') return 0;
  const size_t te = i++;
  const size_t as = i, ae = operand_end(l, i, n);
  if (ae >= n || !starts(l + ae, n - ae, ", ")) return 0;
  size_t bs = ae + 2, be = operand_end(l, bs, n);
  const size_t rest = be;
  while (be > bs && l[be - 1] == ' ') be--;
  if (be == bs || safe_literal(l + bs, be - bs, is_signed)) return 0;

  const int tl = (int)(te - ts), al = (int)(ae - as), bl = (int)(be - bs), nl = (int)(ne - ns);
  char cond_type[32];
  if (lanes) snprintf(cond_type, sizeof cond_type, "<%u x i1>", lanes);
  else snprintf(cond_type, sizeof cond_type, "i1");
  /* guard values: %rvhal.dz.NAME.x (or %"rvhal.dz.NAME.x") */
  char g[8];
  snprintf(g, sizeof g, "%s", quoted ? "%\"" : "%");
  const char *gq = quoted ? "\"" : "";
#define GUARD(x) "%srvhal.dz.%.*s." x "%s"
#define GUARD_ARGS g, nl, l + ns, gq
  const int sp = (int)indent;
  if (tb_printf(out, "%*s" GUARD("z") " = icmp eq %.*s %.*s, zeroinitializer\n", sp, "", GUARD_ARGS, tl, l + ts, bl,
                l + bs))
    return -1;
  const char *bad = "z";
  if (is_signed) {
    char min[24];
    snprintf(min, sizeof min, "-%llu", 1ULL << (bits - 1));
    if (tb_printf(out, "%*s" GUARD("m") " = icmp eq %.*s %.*s, ", sp, "", GUARD_ARGS, tl, l + ts, bl, l + bs) ||
        constant(out, lanes, bits, "-1") ||
        tb_printf(out, "\n%*s" GUARD("i") " = icmp eq %.*s %.*s, ", sp, "", GUARD_ARGS, tl, l + ts, al, l + as) ||
        constant(out, lanes, bits, min) ||
        tb_printf(out, "\n%*s" GUARD("o") " = and %s " GUARD("m") ", " GUARD("i") "\n", sp, "", GUARD_ARGS, cond_type,
                  GUARD_ARGS, GUARD_ARGS) ||
        tb_printf(out, "%*s" GUARD("b") " = or %s " GUARD("z") ", " GUARD("o") "\n", sp, "", GUARD_ARGS, cond_type,
                  GUARD_ARGS, GUARD_ARGS))
      return -1;
    bad = "b";
  }
  if (tb_printf(out, "%*s" GUARD("d") " = select %s %srvhal.dz.%.*s.%s%s, %.*s ", sp, "", GUARD_ARGS, cond_type, g, nl,
                l + ns, bad, gq, tl, l + ts) ||
      constant(out, lanes, bits, "1") || tb_printf(out, ", %.*s %.*s\n", tl, l + ts, bl, l + bs))
    return -1;
  /* the division itself, its divisor the guarded one, the rest of the line as it was */
  if (tb_add(out, l, as) || tb_printf(out, "%.*s, " GUARD("d"), al, l + as, GUARD_ARGS) ||
      tb_add(out, l + rest, n - rest))
    return -1;
#undef GUARD
#undef GUARD_ARGS
  return 1;
}

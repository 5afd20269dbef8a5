/* OpenCL C's LLVM IR made into SDK kernels: see opencl_ir.h. Line by line
 * over the text clang -S -emit-llvm writes (one instruction or definition
 * per line), so no LLVM library is needed at run time. */
#define _GNU_SOURCE
#include "compiler/opencl_ir.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"
#include "compiler/ir_divide.h"
#include "compiler/ir_text.h"
#include "compiler/text_buf.h"
#include "rvhal/program_info.h"

#define MAX_FUNCS 4096

/* ---- built-ins by name ---------------------------------------------------- */

/* The base name of an Itanium-mangled _Z<len><name>..., or the name itself. */
static void base_name(const char *m, size_t mlen, char *out, size_t cap) {
  if (mlen > 2 && m[0] == '_' && m[1] == 'Z' && isdigit((unsigned char)m[2])) {
    size_t i = 2, len = 0;
    while (i < mlen && isdigit((unsigned char)m[i])) len = len * 10 + (size_t)(m[i++] - '0');
    if (i + len <= mlen && len < cap) {
      memcpy(out, m + i, len);
      out[len] = '\0';
      return;
    }
  }
  size_t n = mlen < cap - 1 ? mlen : cap - 1;
  memcpy(out, m, n);
  out[n] = '\0';
}

/* Built-ins that read the work-item's state (take the hidden parameter). */
static const char *const state_builtins[] = {
    "get_work_dim",   "get_global_size",      "get_global_id",       "get_local_size",
    "get_enqueued_local_size", "get_local_id", "get_num_groups",     "get_group_id",
    "get_global_offset", "get_global_linear_id", "get_local_linear_id", "barrier",
    "work_group_barrier", "async_work_group_copy", "async_work_group_strided_copy", "wait_group_events",
    "printf"};

static int is_state_builtin(const char *base) {
  for (size_t i = 0; i < sizeof state_builtins / sizeof *state_builtins; i++)
    if (!strcmp(base, state_builtins[i])) return 1;
  return 0;
}

/* What rvhal refuses, by built-in name prefix, and why. */
static const struct {
  const char *prefix, *what;
} refused[] = {{"read_pipe", "pipes"},
               {"write_pipe", "pipes"},          {"reserve_read_pipe", "pipes"},
               {"reserve_write_pipe", "pipes"},  {"commit_read_pipe", "pipes"},
               {"commit_write_pipe", "pipes"},   {"work_group_reserve", "pipes"},
               {"work_group_commit", "pipes"},   {"sub_group_reserve", "pipes"},
               {"sub_group_commit", "pipes"},    {"get_pipe_", "pipes"},
               {"is_valid_reserve_id", "pipes"}, {"__enqueue_kernel", "device-side enqueue"},
               {"enqueue_kernel", "device-side enqueue"}, {"enqueue_marker", "device-side enqueue"},
               {"get_default_queue", "device-side enqueue"}, {"__get_kernel", "device-side enqueue"},
               {"get_kernel_", "device-side enqueue"}, {"create_user_event", "device-side enqueue"},
               {"ndrange_", "device-side enqueue"},   {"__read_pipe", "pipes"},
               {"__write_pipe", "pipes"},        {"__reserve_", "pipes"},
               {"__commit_", "pipes"},           {"__work_group_reserve", "pipes"},
               {"__work_group_commit", "pipes"}, {"__sub_group_reserve", "pipes"},
               {"__sub_group_commit", "pipes"},  {"__get_pipe", "pipes"}};

static const char *refused_builtin(const char *base) {
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
    if (!strncmp(base, refused[i].prefix, strlen(refused[i].prefix))) return refused[i].what;
  return NULL;
}

/* The size of a mangled pointee type at s ("Dv4_f", "h", ...); 0 if unknown. */
static uint32_t mangled_type_size(const char *s) {
  uint32_t n = 1;
  if (s[0] == 'D' && s[1] == 'v') {
    n = (uint32_t)strtoul(s + 2, (char **)&s, 10);
    if (*s != '_') return 0;
    s++;
    if (n == 3) n = 4;
  }
  uint32_t e = 0;
  switch (s[0]) {
  case 'c': case 'a': case 'h': e = 1; break;
  case 's': case 't': e = 2; break;
  case 'i': case 'j': case 'f': e = 4; break;
  case 'l': case 'm': case 'd': e = 8; break;
  case 'D': e = s[1] == 'h' ? 2 : 0; break;
  default: e = 0;
  }
  return n * e;
}

/* The SDK's name for a state built-in's mangled name m (opencl_entry.h). */
static void state_target(const char *m, const char *base, char *out, size_t cap) {
  if (!strcmp(base, "async_work_group_copy") || !strcmp(base, "async_work_group_strided_copy")) {
    /* _Z..P U<n>CLlocal [K|V]* <type> ...: the destination's space and the element size */
    const char *p = m + 2;
    while (isdigit((unsigned char)*p)) p++;
    p += strlen(base);
    int to_local = 0;
    if (*p == 'P') p++;
    while (*p == 'U' && isdigit((unsigned char)p[1])) {
      char *end;
      unsigned long q = strtoul(p + 1, &end, 10);
      if (!strncmp(end, "CLlocal", 7) || !strncmp(end, "AS3", 3)) to_local = 1;
      p = end + q;
    }
    while (*p == 'K' || *p == 'V' || *p == 'r') p++;
    uint32_t size = mangled_type_size(p);
    if (base[21] == '\0')
      snprintf(out, cap, "__rvhal_cl_async_copy_%u", size);
    else
      snprintf(out, cap, "__rvhal_cl_async_strided_%s_%u", to_local ? "l" : "g", size);
    return;
  }
  if (!strcmp(base, "work_group_barrier") && strstr(m, "memory_scope")) {
    snprintf(out, cap, "__rvhal_cl_work_group_barrier_scope");
    return;
  }
  snprintf(out, cap, "__rvhal_cl_%s", base);
}

/* ---- the module's functions ---------------------------------------------- */

typedef struct func {
  char *name; /* malloc'd: kernel names may be thousands of characters (the CTS tries 2048) */
  int defined, kernel, state; /* state: takes the hidden parameter */
  char **callees;
  size_t num_callees;
} func_t;

typedef struct module {
  const char *text;
  func_t funcs[MAX_FUNCS];
  size_t num_funcs;
  char refused[512]; /* the first refused built-in a kernel reaches, reported after the kernels' own parameters */
  char refused_call[300]; /* that call: "read_imagef (through helper)" */
  const char *refused_kernel; /* the kernel that reaches it */
  const char **md; /* !N -> its line */
  size_t md_cap;
  const char **types; /* %name = type ... lines */
  size_t num_types;
} module_t;

static func_t *func_named(module_t *m, const char *name, size_t len, int add) {
  for (size_t i = 0; i < m->num_funcs; i++)
    if (strlen(m->funcs[i].name) == len && !memcmp(m->funcs[i].name, name, len)) return &m->funcs[i];
  if (!add || m->num_funcs == MAX_FUNCS) return NULL;
  char *copy = strndup(name, len);
  if (!copy) return NULL;
  func_t *f = &m->funcs[m->num_funcs++];
  memset(f, 0, sizeof *f);
  f->name = copy;
  return f;
}

static size_t line_len(const char *l) {
  const char *e = strchr(l, '\n');
  return e ? (size_t)(e - l) : strlen(l);
}

static int starts(const char *l, const char *w) { return !strncmp(l, w, strlen(w)); }

/* The name after the first '@' of a define/declare line. */
static const char *decl_name(const char *l, size_t n, size_t *len) {
  const char *at = memchr(l, '@', n);
  if (!at) return NULL;
  const char *e = at + 1;
  while (e < l + n && rvhal_ir_is_ident((unsigned char)*e)) e++;
  *len = (size_t)(e - at - 1);
  return at + 1;
}

static int add_callee(func_t *f, const char *name, size_t len) {
  for (size_t i = 0; i < f->num_callees; i++)
    if (strlen(f->callees[i]) == len && !memcmp(f->callees[i], name, len)) return 0;
  char **c = realloc(f->callees, (f->num_callees + 1) * sizeof *c);
  if (!c) return -1;
  f->callees = c;
  if (!(c[f->num_callees] = strndup(name, len))) return -1;
  f->num_callees++;
  return 0;
}

static void module_free(module_t *m) {
  for (size_t i = 0; i < m->num_funcs; i++) {
    for (size_t j = 0; j < m->funcs[i].num_callees; j++) free(m->funcs[i].callees[j]);
    free(m->funcs[i].callees);
    free(m->funcs[i].name);
  }
  free(m->md);
  free(m->types);
}

static int find_refused(module_t *m, char *err, size_t cap);

static int scan(module_t *m, char *err, size_t cap) {
  func_t *cur = NULL;
  for (const char *l = m->text; *l; l += line_len(l) + (l[line_len(l)] == '\n')) {
    size_t n = line_len(l);
    if (starts(l, "define ") || starts(l, "declare ")) {
      size_t len;
      const char *name = decl_name(l, n, &len);
      if (!name) continue;
      func_t *f = func_named(m, name, len, 1);
      if (!f) return snprintf(err, cap, "too many functions in the program (limit %d) or out of host memory", MAX_FUNCS), -1;
      if (starts(l, "define ")) {
        f->defined = 1;
        f->kernel = memmem(l, n, " spir_kernel ", 13) != NULL;
        cur = f;
      }
      continue;
    }
    if (l[0] == '}') cur = NULL;
    if (l[0] == '!' && isdigit((unsigned char)l[1])) {
      size_t id = strtoul(l + 1, NULL, 10);
      if (id >= m->md_cap) {
        size_t cap2 = (id + 1) * 2;
        const char **md = realloc(m->md, cap2 * sizeof *md);
        if (!md) return snprintf(err, cap, "out of host memory"), -1;
        memset(md + m->md_cap, 0, (cap2 - m->md_cap) * sizeof *md);
        m->md = md;
        m->md_cap = cap2;
      }
      m->md[id] = l;
    }
    if (l[0] == '%' && memmem(l, n, " = type ", 8)) {
      const char **t = realloc(m->types, (m->num_types + 1) * sizeof *t);
      if (!t) return snprintf(err, cap, "out of host memory"), -1;
      m->types = t;
      t[m->num_types++] = l;
    }
    if (cur && (memmem(l, n, "call ", 5) || memmem(l, n, "invoke ", 7))) {
      for (const char *p = l; (p = memchr(p, '@', (size_t)(l + n - p))); p++) {
        const char *e = p + 1;
        while (e < l + n && rvhal_ir_is_ident((unsigned char)*e)) e++;
        if (e < l + n && *e == '(' && add_callee(cur, p + 1, (size_t)(e - p - 1)))
          return snprintf(err, cap, "out of host memory"), -1;
      }
    }
  }
  /* Which functions need the state: kernels, state built-ins, and their callers. */
  for (size_t i = 0; i < m->num_funcs; i++) {
    func_t *f = &m->funcs[i];
    char base[256];
    base_name(f->name, strlen(f->name), base, sizeof base);
    f->state = f->kernel || (!f->defined && is_state_builtin(base));
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t i = 0; i < m->num_funcs; i++) {
      func_t *f = &m->funcs[i];
      if (f->state || !f->defined) continue;
      for (size_t j = 0; j < f->num_callees && !f->state; j++) {
        func_t *c = func_named(m, f->callees[j], strlen(f->callees[j]), 0);
        if (c && c->state) f->state = changed = 1;
      }
    }
  }
  return find_refused(m, err, cap);
}

/* The first refused built-in a kernel reaches, through any chain of calls,
 * into m->refused naming the kernel and its caller. Functions no kernel
 * reaches do not count (the compile drops them before this, but a module
 * may still declare what only they called). */
static int find_refused(module_t *m, char *err, size_t cap) {
  size_t *stack = malloc((m->num_funcs + 1) * sizeof *stack);
  unsigned char *seen = malloc(m->num_funcs + 1);
  if (!stack || !seen) {
    free(stack);
    free(seen);
    return snprintf(err, cap, "out of host memory"), -1;
  }
  for (size_t k = 0; k < m->num_funcs && !m->refused[0]; k++) {
    if (!m->funcs[k].kernel || !m->funcs[k].defined) continue;
    memset(seen, 0, m->num_funcs);
    size_t top = 0;
    stack[top++] = k;
    seen[k] = 1;
    while (top && !m->refused[0]) {
      const func_t *f = &m->funcs[stack[--top]];
      for (size_t j = 0; j < f->num_callees; j++) {
        func_t *c = func_named(m, f->callees[j], strlen(f->callees[j]), 0);
        if (!c || seen[c - m->funcs]) continue;
        seen[c - m->funcs] = 1;
        if (c->defined) {
          stack[top++] = (size_t)(c - m->funcs);
          continue;
        }
        char base[256], via[256];
        base_name(c->name, strlen(c->name), base, sizeof base);
        const char *what = refused_builtin(base);
        if (!what) continue;
        base_name(f->name, strlen(f->name), via, sizeof via);
        const int direct = f == &m->funcs[k];
        snprintf(m->refused_call, sizeof m->refused_call, "%.80s%s%.80s%s", base, direct ? "" : " (through ",
                 direct ? "" : via, direct ? "" : ")");
        m->refused_kernel = m->funcs[k].name;
        snprintf(m->refused, sizeof m->refused, "error: kernel %.100s calls %.200s: %s %s not supported by rvhal "
                 "(docs/kernels.md)", m->funcs[k].name, m->refused_call, what,
                 strcmp(what, "device-side enqueue") ? "are" : "is");
        break;
      }
    }
  }
  free(stack);
  free(seen);
  return 0;
}

/* ---- types and sizes ---------------------------------------------------- */

static const char *skip_sp(const char *s) {
  while (*s == ' ') s++;
  return s;
}

/* The end of the (balanced) IR type starting at s. */
static const char *type_end(const char *s) {
  int depth = 0;
  for (const char *p = s; *p; p++) {
    if (*p == '<' || *p == '{' || *p == '[' || *p == '(') depth++;
    else if (*p == '>' || *p == '}' || *p == ']' || *p == ')') {
      if (--depth == 0) return p + 1 + (*p == '}' && p[1] == '>');
    } else if (depth == 0 && (*p == ' ' || *p == ',' || *p == '\n')) return p;
  }
  return s + strlen(s);
}

static int type_layout(const module_t *m, const char *s, uint32_t word, uint32_t *size, uint32_t *align, int depth);

/* Struct members from s (after '{' or '<{') to the closing brace. */
static int struct_layout(const module_t *m, const char *s, int packed, uint32_t word, uint32_t *size, uint32_t *align,
                         int depth) {
  uint32_t off = 0, al = 1;
  s = skip_sp(s);
  while (*s && *s != '}') {
    uint32_t es, ea;
    if (type_layout(m, s, word, &es, &ea, depth + 1)) return -1;
    if (packed) ea = 1;
    off = (uint32_t)rvhal_align_up(off, ea) + es;
    if (ea > al) al = ea;
    s = skip_sp(type_end(s));
    if (*s == ',') s = skip_sp(s + 1);
  }
  *size = (uint32_t)rvhal_align_up(off, al);
  *align = al;
  return 0;
}

static int type_layout(const module_t *m, const char *s, uint32_t word, uint32_t *size, uint32_t *align, int depth) {
  if (depth > 32) return -1;
  s = skip_sp(s);
  static const struct {
    const char *name;
    uint32_t size;
  } prim[] = {{"i1", 1}, {"i8", 1}, {"i16", 2}, {"i32", 4}, {"i64", 8}, {"i128", 16}, {"half", 2}, {"float", 4}, {"double", 8}};
  for (size_t i = 0; i < sizeof prim / sizeof *prim; i++) {
    size_t n = strlen(prim[i].name);
    if (!strncmp(s, prim[i].name, n) && !rvhal_ir_is_ident((unsigned char)s[n])) {
      *size = *align = prim[i].size;
      if (*size == 16 && word == 4) *align = 16;
      return 0;
    }
  }
  if (!strncmp(s, "ptr", 3) && !rvhal_ir_is_ident((unsigned char)s[3])) return *size = *align = word, 0;
  if (*s == '<' && s[1] != '{') { /* <N x T>: OpenCL's 3-vectors take 4 elements; aligned to their size */
    char *e;
    unsigned long n = strtoul(s + 1, &e, 10);
    uint32_t es, ea;
    if (strncmp(e, " x ", 3) || type_layout(m, e + 3, word, &es, &ea, depth + 1)) return -1;
    uint32_t bytes = (uint32_t)(n == 3 ? 4 : n) * es, p = 1;
    while (p < bytes) p <<= 1;
    *size = *align = p;
    return 0;
  }
  if (*s == '[') {
    char *e;
    unsigned long n = strtoul(s + 1, &e, 10);
    uint32_t es, ea;
    if (strncmp(e, " x ", 3) || type_layout(m, e + 3, word, &es, &ea, depth + 1)) return -1;
    *size = (uint32_t)n * es;
    *align = ea;
    return 0;
  }
  if (*s == '{') return struct_layout(m, s + 1, 0, word, size, align, depth);
  if (s[0] == '<' && s[1] == '{') return struct_layout(m, s + 2, 1, word, size, align, depth);
  if (*s == '%') {
    const char *e = s + 1;
    if (*e == '"') return -1;
    while (rvhal_ir_is_ident((unsigned char)*e)) e++;
    for (size_t i = 0; i < m->num_types; i++) {
      const char *t = m->types[i];
      if (!strncmp(t, s, (size_t)(e - s)) && !strncmp(t + (e - s), " = type ", 8)) {
        const char *body = t + (e - s) + 8;
        if (starts(body, "opaque")) return -1;
        return type_layout(m, body, word, size, align, depth + 1);
      }
    }
  }
  return -1;
}

static int clean_line(text_buf_t *o, const char *l, size_t n);

/* ---- kernel signatures ---------------------------------------------------- */

/* The i-th string of metadata node `md` ("!{!"a", !"b"}") or integer. */
static int md_item(const module_t *m, const char *line, size_t n, const char *attach, uint32_t i, char *out,
                   size_t cap) {
  const char *a = memmem(line, n, attach, strlen(attach));
  if (!a) return -1;
  size_t id = strtoul(a + strlen(attach) + 2, NULL, 10);
  if (id >= m->md_cap || !m->md[id]) return -1;
  const char *p = strchr(m->md[id], '{');
  const char *end = m->md[id] + line_len(m->md[id]);
  if (!p) return -1;
  p++;
  for (uint32_t k = 0; k < i && p < end; k++) {
    int inq = 0;
    while (p < end && (inq || *p != ',')) {
      if (*p == '"') inq = !inq;
      p++;
    }
    p++;
  }
  p = skip_sp(p);
  if (p >= end) return -1;
  if (*p == '!' && p[1] == '"') {
    const char *q = strchr(p + 2, '"');
    if (!q || q > end) return -1;
    snprintf(out, cap, "%.*s", (int)(q - p - 2), p + 2);
  } else if (starts(p, "i32 ")) {
    snprintf(out, cap, "%ld", strtol(p + 4, NULL, 10));
  } else
    return -1;
  return 0;
}

static uint32_t value_type_of(const char *base, uint32_t word) {
  static const struct {
    const char *n;
    uint32_t t;
  } map[] = {{"char", RVHAL_TYPE_I8},   {"uchar", RVHAL_TYPE_U8},    {"unsigned char", RVHAL_TYPE_U8},
             {"short", RVHAL_TYPE_I16}, {"ushort", RVHAL_TYPE_U16},  {"unsigned short", RVHAL_TYPE_U16},
             {"int", RVHAL_TYPE_I32},   {"uint", RVHAL_TYPE_U32},    {"unsigned int", RVHAL_TYPE_U32},
             {"long", RVHAL_TYPE_I64},  {"ulong", RVHAL_TYPE_U64},   {"unsigned long", RVHAL_TYPE_U64},
             {"float", RVHAL_TYPE_F32}, {"double", RVHAL_TYPE_F64}};
  for (size_t i = 0; i < sizeof map / sizeof *map; i++)
    if (!strcmp(base, map[i].n)) return map[i].t;
  if (!strcmp(base, "size_t") || !strcmp(base, "uintptr_t")) return word == 8 ? RVHAL_TYPE_U64 : RVHAL_TYPE_U32;
  if (!strcmp(base, "ptrdiff_t") || !strcmp(base, "intptr_t")) return word == 8 ? RVHAL_TYPE_I64 : RVHAL_TYPE_I32;
  return RVHAL_TYPE_POD;
}

/* The OpenCL C type name of a vec_type_hint node's IR type ("<4 x float>",
 * "i32") and signedness: "float4", "uint". 0, or -1 if it is no vector of
 * a built-in scalar. */
static int hint_type_name(const char *t, int is_signed, char *out, size_t cap) {
  unsigned long n = 1;
  if (*t == '<') {
    char *e;
    n = strtoul(t + 1, &e, 10);
    if (strncmp(e, " x ", 3)) return -1;
    t = e + 3;
  }
  static const struct {
    const char *ir, *s, *u;
  } names[] = {{"i8 ", "char", "uchar"}, {"i16 ", "short", "ushort"}, {"i32 ", "int", "uint"},
               {"i64 ", "long", "ulong"}, {"half ", "half", "half"}, {"float ", "float", "float"},
               {"double ", "double", "double"}, {"i8>", "char", "uchar"}, {"i16>", "short", "ushort"},
               {"i32>", "int", "uint"}, {"i64>", "long", "ulong"}, {"half>", "half", "half"},
               {"float>", "float", "float"}, {"double>", "double", "double"}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (starts(t, names[i].ir)) {
      const char *base = is_signed ? names[i].s : names[i].u;
      if (n == 1) snprintf(out, cap, "%s", base);
      else snprintf(out, cap, "%s%lu", base, n);
      return 0;
    }
  return -1;
}

/* A kernel's attributes from its define line: reqd_work_group_size,
 * work_group_size_hint (three i32 each) and vec_type_hint, recorded and
 * written out as the source spells them, for CL_KERNEL_ATTRIBUTES. */
static int kernel_attributes(const module_t *m, const char *l, size_t n, cl_kernel_t *k, char *err, size_t cap) {
  static const char *const sized[2] = {"!reqd_work_group_size", "!work_group_size_hint"};
  text_buf_t t = {0};
  int bad = 0;
  for (int a = 0; a < 2 && !bad; a++) {
    uint32_t *v = a ? k->work_group_size_hint : k->reqd_work_group_size;
    char s[32];
    if (md_item(m, l, n, sized[a], 0, s, sizeof s)) continue;
    for (uint32_t d = 0; d < 3; d++) {
      long x = md_item(m, l, n, sized[a], d, s, sizeof s) ? 0 : strtol(s, NULL, 10);
      if (x <= 0 || x > (long)UINT32_MAX) {
        free(t.data);
        return snprintf(err, cap, "error: kernel %s: %s has a bad size in dimension %u", k->name, sized[a] + 1, d), -1;
      }
      v[d] = (uint32_t)x;
    }
    bad = tb_printf(&t, "%s%s(%u,%u,%u)", t.len ? " " : "", sized[a] + 1, v[0], v[1], v[2]);
  }
  const char *h = memmem(l, n, "!vec_type_hint !", 16);
  if (h && !bad) {
    size_t id = strtoul(h + 16, NULL, 10);
    const char *node = id < m->md_cap ? m->md[id] : NULL, *brace = node ? strchr(node, '{') : NULL;
    const char *sign = brace ? strstr(brace, " undef, i32 ") : NULL;
    char name[32];
    if (!sign || sign > node + line_len(node) || hint_type_name(brace + 1, sign[12] == '1', name, sizeof name)) {
      free(t.data);
      return snprintf(err, cap, "error: kernel %s: cannot read its vec_type_hint in the IR", k->name), -1;
    }
    bad = tb_printf(&t, "%svec_type_hint(%s)", t.len ? " " : "", name);
  }
  if (bad) {
    free(t.data);
    return snprintf(err, cap, "out of host memory"), -1;
  }
  if (t.len >= sizeof k->attributes) {
    free(t.data);
    return snprintf(err, cap, "error: kernel %s: its attributes are too long", k->name), -1;
  }
  snprintf(k->attributes, sizeof k->attributes, "%s", t.data ? t.data : "");
  free(t.data);
  return 0;
}

/* The entry is the kernel's own name, in one ELF with the SDK and picolibc. */
static const char *const reserved_names[] = {"print", "barrier", "start_dma", "wait_dma", "main", "_start",
                                             "memcpy", "memset", "memmove", "printf"};

static int kernel_signature(const module_t *m, const char *l, uint32_t word, cl_kernel_t *k, char *err, size_t cap) {
  size_t n = line_len(l), len;
  const char *name = decl_name(l, n, &len);
  if (len >= sizeof k->name)
    return snprintf(err, cap, "error: a kernel name of %zu characters (rvhal's limit is %zu)", len,
                    sizeof k->name - 1), -1;
  snprintf(k->name, sizeof k->name, "%.*s", (int)len, name);
  if (strstr(k->name, "_block_invoke")) /* clang's kernel for a block passed to enqueue_kernel */
    return snprintf(err, cap, "error: device-side enqueue (enqueue_kernel) is not supported by rvhal "
                    "(docs/kernels.md)"), -1;
  int reserved = !strncmp(k->name, "rvhal_", 6) || !strncmp(k->name, "__rvhal", 7);
  for (size_t i = 0; i < sizeof reserved_names / sizeof *reserved_names; i++)
    reserved |= !strcmp(k->name, reserved_names[i]);
  if (reserved)
    return snprintf(err, cap, "error: kernel name '%s' is reserved by rvhal's kernel SDK; rename the "
                    "kernel", k->name), -1;
  const char *p = name + len + 1; /* after '(' */
  uint32_t off = 0, maxal = 1;
  /* " #N" after the parameters: the attribute group, so that the generated
   * item function may inline the kernel (RISC-V inlines only when the
   * callee's target features are the caller's). */
  for (const char *h = l + n - 1; h > p; h--)
    if (h[0] == '#' && h[-1] == ' ' && isdigit((unsigned char)h[1])) {
      size_t j = 1;
      while (isdigit((unsigned char)h[j]) && j < sizeof k->attrs - 1) j++;
      snprintf(k->attrs, sizeof k->attrs, "%.*s", (int)j, h);
      break;
    }
  while (*p && *p != ')') {
    if (k->num_params == RVHAL_META_MAX_ARGS)
      return snprintf(err, cap, "error: kernel %s has more than %d parameters", k->name, RVHAL_META_MAX_ARGS), -1;
    cl_param_t *q = &k->params[k->num_params];
    memset(q, 0, sizeof *q);
    const char *te = type_end(p);
    snprintf(q->ir_type, sizeof q->ir_type, "%.*s", (int)(te - p), p);
    /* to the end of this parameter */
    const char *e = te;
    int depth = 0;
    while (*e && (depth || (*e != ',' && *e != ')'))) {
      if (*e == '(') depth++;
      if (*e == ')') depth--;
      e++;
    }
    {
      text_buf_t t = {0};
      const char *ne = e;
      while (ne > p && ne[-1] != ' ') ne--; /* drop the value's name (%3) */
      if (ne == p || ne[0] != '%') ne = e;
      if (clean_line(&t, p, (size_t)(ne - p)) || !t.data) return snprintf(err, cap, "out of host memory"), -1;
      snprintf(q->ir_param, sizeof q->ir_param, "%s", t.data);
      free(t.data);
    }
    const char *bv = memmem(te, (size_t)(e - te), "byval(", 6);
    if (bv) {
      const char *be = type_end(bv + 5);
      snprintf(q->ir_type, sizeof q->ir_type, "%.*s", (int)(be - bv - 7), bv + 6);
      q->byval = 1;
    }
    char s[128];
    uint32_t i = k->num_params;
    if (md_item(m, l, n, "!kernel_arg_addr_space", i, s, sizeof s))
      return snprintf(err, cap, "error: kernel %s: no address space for parameter %u in the IR", k->name, i), -1;
    q->address_space = (uint32_t)atoi(s);
    md_item(m, l, n, "!kernel_arg_type", i, q->type_name, sizeof q->type_name);
    md_item(m, l, n, "!kernel_arg_name", i, q->name, sizeof q->name);
    char base[128] = "";
    md_item(m, l, n, "!kernel_arg_base_type", i, base, sizeof base);
    if (!md_item(m, l, n, "!kernel_arg_type_qual", i, s, sizeof s)) {
      if (strstr(s, "pipe"))
        return snprintf(err, cap, "error: kernel %s: parameter %u '%s' is a pipe: pipes are not supported by rvhal "
                        "(docs/kernels.md)", k->name, i, q->name), -1;
      if (strstr(s, "const")) q->type_qual |= RVHAL_TYPE_QUAL_CONST;
      if (strstr(s, "restrict")) q->type_qual |= RVHAL_TYPE_QUAL_RESTRICT;
      if (strstr(s, "volatile")) q->type_qual |= RVHAL_TYPE_QUAL_VOLATILE;
    }
    if (strstr(q->type_name, "image") && !md_item(m, l, n, "!kernel_arg_access_qual", i, s, sizeof s))
      q->access_qual = strstr(s, "read_only")    ? RVHAL_ACCESS_READ_ONLY
                       : strstr(s, "write_only") ? RVHAL_ACCESS_WRITE_ONLY
                       : strstr(s, "read_write") ? RVHAL_ACCESS_READ_WRITE
                                                  : RVHAL_ACCESS_NONE;
    /* Images are global pointers (their descriptor) and samplers values
     * (their bits) in the IR: they pass as such (docs/opencl.md). */
    static const char *const opaque[] = {"pipe", "queue_t", "clk_event_t", "reserve_id_t"};
    for (size_t j = 0; j < sizeof opaque / sizeof *opaque; j++)
      if (strstr(q->type_name, opaque[j]) || strstr(base, opaque[j]))
        return snprintf(err, cap,
                        "error: kernel %s: parameter %u '%s' is %s: pipes and device-side "
                        "enqueue are not supported by rvhal (docs/kernels.md)%s%s",
                        k->name, i, q->name, q->type_name,
                        m->refused_kernel && !strcmp(m->refused_kernel, k->name) ? "; it calls " : "",
                        m->refused_kernel && !strcmp(m->refused_kernel, k->name) ? m->refused_call : ""),
               -1;
    if (q->address_space == 0) { /* a value */
      q->kind = RVHAL_ARG_KIND_VALUE;
      uint32_t al;
      if (type_layout(m, q->ir_type, word, &q->size, &al, 0))
        return snprintf(err, cap, "error: kernel %s: parameter %u '%s': cannot lay out IR type %s", k->name, i,
                        q->name, q->ir_type),
               -1;
      q->value_type = value_type_of(base, word);
    } else {
      q->kind = q->address_space == RVHAL_ADDRESS_LOCAL ? RVHAL_ARG_KIND_LOCAL : RVHAL_ARG_KIND_GLOBAL;
      q->size = word;
    }
    q->align = 1;
    while (q->align < q->size) q->align <<= 1;
    off = (uint32_t)rvhal_align_up(off, q->align);
    q->offset = off;
    off += q->size;
    if (q->align > maxal) maxal = q->align;
    k->num_params++;
    p = *e == ',' ? skip_sp(e + 1) : e;
  }
  k->args_size = (uint32_t)rvhal_align_up(off, maxal);
  return kernel_attributes(m, l, n, k, err, cap);
}

/* ---- the rewrite ---------------------------------------------------------- */

/* Appends line [l, l+n) with address spaces and SPIR calling conventions
 * removed, addrspacecast turned into bitcast. */
/* The end of a c"..." string constant starting at l[i], or i if there is none:
 * its bytes are data, left as they are. */
static size_t string_end(const char *l, size_t n, size_t i) {
  if (i + 1 >= n || l[i] != 'c' || l[i + 1] != '"' || (i > 0 && rvhal_ir_is_ident((unsigned char)l[i - 1]))) return i;
  const char *q = memchr(l + i + 2, '"', n - i - 2);
  return q ? (size_t)(q - l) + 1 : i;
}

/* Copies a string constant at l[*i] to o as it is: 1 if there was one
 * (*i past it), 0 if not, -1 out of memory. */
static int copy_string(text_buf_t *o, const char *l, size_t n, size_t *i) {
  size_t se = string_end(l, n, *i);
  if (se == *i) return 0;
  if (tb_add(o, l + *i, se - *i)) return -1;
  *i = se;
  return 1;
}

static int clean_line(text_buf_t *o, const char *l, size_t n) {
  for (size_t i = 0; i < n;) {
    int str = copy_string(o, l, n, &i);
    if (str < 0) return -1;
    if (str) continue;
    if (n - i >= 11 && !memcmp(l + i, " addrspace(", 11)) {
      size_t j = i + 11;
      while (j < n && isdigit((unsigned char)l[j])) j++;
      if (j < n && l[j] == ')') {
        i = j + 1;
        continue;
      }
    }
    if (n - i >= 12 && !memcmp(l + i, "spir_kernel ", 12)) {
      i += 12;
      continue;
    }
    if (n - i >= 10 && !memcmp(l + i, "spir_func ", 10)) {
      i += 10;
      continue;
    }
    if (n - i >= 13 && !memcmp(l + i, "addrspacecast", 13)) {
      if (tb_add(o, "bitcast", 7)) return -1;
      i += 13;
      continue;
    }
    if (tb_add(o, l + i, 1)) return -1;
    i++;
  }
  return 0;
}

/* Renames symbols and adds the hidden parameter in one cleaned line. */
static int rename_line(module_t *m, text_buf_t *o, const char *l, size_t n) {
  int is_def = starts(l, "define "), is_decl = starts(l, "declare ");
  int is_call = memmem(l, n, "call ", 5) || memmem(l, n, "invoke ", 7);
  for (size_t i = 0; i < n;) {
    int str = copy_string(o, l, n, &i);
    if (str < 0) return -1;
    if (str) continue;
    if (l[i] != '@') {
      if (tb_add(o, l + i, 1)) return -1;
      i++;
      continue;
    }
    size_t s = i + 1, e = s;
    while (e < n && rvhal_ir_is_ident((unsigned char)l[e])) e++;
    func_t *f = func_named(m, l + s, e - s, 0);
    int paren = e < n && l[e] == '(';
    if (!f) {
      if (tb_add(o, l + i, e - i)) return -1;
      i = e;
      continue;
    }
    char base[256], target[300];
    base_name(f->name, strlen(f->name), base, sizeof base);
    if (f->kernel) target[0] = '\0'; /* __rvhal_clk_<name>, printed below: the name may be long */
    else if (!f->defined && f->state) state_target(f->name, base, target, sizeof target);
    else if (!f->defined && !strcmp(base, "prefetch")) snprintf(target, sizeof target, "__rvhal_cl_prefetch");
    else snprintf(target, sizeof target, "%s", f->name);
    int add_param = f->state && paren && (is_def || is_decl || is_call);
    if (add_param && is_call && !is_def && !is_decl) {
      /* call <ret> (<param types>) @f(: the explicit function type gains a ptr */
      size_t k = o->len;
      while (k > 0 && o->data[k - 1] == ' ') k--;
      if (k > 0 && o->data[k - 1] == ')') {
        int depth = 0;
        size_t j = k;
        while (j > 0) {
          j--;
          if (o->data[j] == ')') depth++;
          if (o->data[j] == '(' && --depth == 0) break;
        }
        if (tb_insert(o, j + 1, "ptr, ")) return -1;
      }
    }
    if (f->kernel ? tb_printf(o, "@__rvhal_clk_%s(", f->name) : tb_printf(o, "@%s(", target)) return -1;
    i = e + paren;
    if (!paren) o->len--; /* no '(' after a plain reference */
    if (add_param) {
      int empty = i < n && l[i] == ')';
      const char *arg = is_def ? "ptr %__rvhal_e" : is_decl ? "ptr" : "ptr %__rvhal_e";
      if (tb_printf(o, "%s%s", arg, empty ? "" : ", ")) return -1;
    }
  }
  return 0;
}

/* @x = ... addrspace(3) global ...: the group's copy, in the SDK's TLS block. */
static int local_variable(text_buf_t *o, size_t start) {
  char *l = o->data + start;
  char *u = strstr(l, " unnamed_addr ");
  char *lu = strstr(l, " local_unnamed_addr ");
  char *g = strstr(l, " global ");
  char *at = lu ? lu : u ? u : g;
  if (!at) return -1;
  return tb_insert(o, (size_t)(at - o->data) + 1, "thread_local(localexec) ");
}

char *rvhal_cl_ir_kernel_list(const char *ir) {
  text_buf_t list = {0};
  if (tb_add(&list, "", 0)) return NULL;
  for (const char *l = ir; *l; l += line_len(l) + (l[line_len(l)] == '\n')) {
    size_t n = line_len(l), len;
    const char *name;
    if (!starts(l, "define ") || !memmem(l, n, " spir_kernel ", 13) || !(name = decl_name(l, n, &len))) continue;
    if ((list.len && tb_add(&list, ",", 1)) || tb_add(&list, name, len)) {
      free(list.data);
      return NULL;
    }
  }
  return list.data;
}

int rvhal_cl_ir_rewrite(const char *ir, uint32_t word, cl_program_ir_t *out, char *err, size_t err_cap) {
  memset(out, 0, sizeof *out);
  module_t *m = calloc(1, sizeof *m);
  if (!m) return snprintf(err, err_cap, "out of host memory"), RVHAL_HOST_IO;
  m->text = ir;
  text_buf_t o = {0}, line = {0}, guarded = {0};
  int rc = RVHAL_BUILD_FAILED;
  if (scan(m, err, err_cap)) goto done;
  size_t nk = 0;
  for (size_t i = 0; i < m->num_funcs; i++) nk += m->funcs[i].kernel;
  out->kernels = calloc(nk + 1, sizeof *out->kernels);
  if (!out->kernels) goto oom;
  for (const char *l = ir; *l; l += line_len(l) + (l[line_len(l)] == '\n')) {
    size_t n = line_len(l);
    if (starts(l, "define ") && memmem(l, n, " spir_kernel ", 13)) {
      if (kernel_signature(m, l, word, &out->kernels[out->num_kernels], err, err_cap)) goto done;
      out->num_kernels++;
    }
    line.len = 0;
    if (clean_line(&line, l, n) || tb_add(&line, "", 0)) goto oom;
    size_t start = o.len;
    if (rename_line(m, &o, line.data, line.len)) goto oom;
    guarded.len = 0;
    int g = rvhal_ir_guard_division(o.data + start, o.len - start, &guarded);
    if (g < 0) goto oom;
    if (g) {
      o.len = start;
      if (tb_add(&o, guarded.data, guarded.len)) goto oom;
    }
    if (l[0] == '@' && memmem(l, n, "addrspace(3) global", 19)) {
      if (tb_add(&o, "", 0) || local_variable(&o, start)) goto oom;
    }
    if (tb_add(&o, "\n", 1)) goto oom;
  }
  if (m->refused[0]) {
    snprintf(err, err_cap, "%s", m->refused);
    goto done;
  }
  out->text = o.data;
  out->text_len = o.len;
  o.data = NULL;
  rc = RVHAL_OK;
  goto done;
oom:
  snprintf(err, err_cap, "out of host memory");
  rc = RVHAL_HOST_IO;
done:
  free(o.data);
  free(line.data);
  free(guarded.data);
  module_free(m);
  free(m);
  if (rc) rvhal_cl_ir_free(out);
  return rc;
}

void rvhal_cl_ir_free(cl_program_ir_t *p) {
  free(p->text);
  free(p->kernels);
  memset(p, 0, sizeof *p);
}

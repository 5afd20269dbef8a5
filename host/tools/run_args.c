/* Kernel arguments of `rvhal run` from their command-line tokens. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_args.h"
#include "rvhal/arg_pack.h"
#include "rvhal/rvhal_kernel_meta.h"

/* More than any device's memory: refuse before allocating it on the host. */
#define MAX_BUFFER_BYTES (UINT64_C(1) << 32)

#define FAIL(...)                          \
  do {                                     \
    snprintf(why, why_size, __VA_ARGS__);  \
    return -1;                             \
  } while (0)

/* splitmix64: a fixed, repeatable sequence per argument. */
static uint64_t mix(uint64_t x) {
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* INIT of a buffer whose contents are zeroed already; with no contents
 * (a->data NULL), only checks INIT: the command line is checked before any
 * device exists, the buffer filled once the device says it fits. */
static int fill_buffer(run_arg_t *a, uint32_t index, const char *init, char *why, size_t why_size) {
  const cli_type_t *t = a->type;
  const uint32_t es = t->size;
  uint8_t scratch[8];
  if (!*init) FAIL("empty INIT after '=' (zero, iota, rand, a value or a list v1,v2,...)");
  if (!strcmp(init, "zero")) return 0;
  if (!a->data && (!strcmp(init, "iota") || !strcmp(init, "rand"))) return 0;
  if (!strcmp(init, "iota")) {
    for (uint64_t i = 0; i < a->count; i++) cli_value_from_u64(t, i, a->data + i * es);
    return 0;
  }
  if (!strcmp(init, "rand")) {
    for (uint64_t i = 0; i < a->count; i++)
      cli_value_random(t, mix(((uint64_t)index << 40) ^ i), a->data + i * es);
    return 0;
  }
  if (!strchr(init, ',')) { /* one value fills the buffer */
    uint8_t v[8];
    if (cli_value_parse(t, init, v, why, why_size)) return -1;
    for (uint64_t i = 0; a->data && i < a->count; i++) memcpy(a->data + i * es, v, es);
    return 0;
  }
  uint64_t n = 0;
  for (const char *p = init;; n++) {
    size_t len = strcspn(p, ",");
    char item[128];
    if (len == 0) FAIL("value %" PRIu64 " of the list is empty", n);
    if (len >= sizeof item) FAIL("value %" PRIu64 " of the list is too long", n);
    if (n == a->count) {
      uint64_t total = n + 1;
      for (const char *q = p; (q = strchr(q, ',')); q++) total++;
      FAIL("%" PRIu64 " values for a buffer of %" PRIu64 " element%s", total, a->count, a->count == 1 ? "" : "s");
    }
    memcpy(item, p, len);
    item[len] = 0;
    char reason[160];
    if (cli_value_parse(t, item, a->data ? a->data + n * es : scratch, reason, sizeof reason))
      FAIL("value %" PRIu64 " of the list: %s", n, reason);
    p += len;
    if (!*p) break;
    p++;
  }
  return 0;
}

/* INIT @FILE, when parsing: a file of exactly the buffer's size (the file
 * decides the count when COUNT is not given). Nothing is read yet. */
static int check_init_file(run_arg_t *a, const char *path, int count_given, char *why, size_t why_size) {
  FILE *f = fopen(path, "rb");
  if (!f) FAIL("cannot open '%s': %s", path, strerror(errno));
  long n = -1;
  if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
  fclose(f);
  const uint32_t es = a->type->size;
  if (n < 0) FAIL("cannot read '%s'", path);
  if (!count_given) {
    if (n == 0 || n % es) FAIL("'%s' holds %ld bytes, not a whole number (>= 1) of %u-byte %s", path, n, es, a->type->name);
    a->count = (uint64_t)n / es;
  } else if ((uint64_t)n != a->count * es) {
    FAIL("'%s' holds %ld bytes; %" PRIu64 " x %s need %" PRIu64 " (leave COUNT out to take the file's)", path, n,
         a->count, a->type->name, a->count * es);
  }
  return 0;
}

/* INIT @FILE, once the device has said the buffer fits. */
static int read_init_file(run_arg_t *a, const char *path, char *why, size_t why_size) {
  FILE *f = fopen(path, "rb");
  if (!f) FAIL("cannot open '%s': %s", path, strerror(errno));
  size_t got = a->data ? fread(a->data, 1, a->size, f) : 0;
  fclose(f);
  if (got != a->size) FAIL("cannot read %" PRIu64 " bytes from '%s'", a->size, path);
  return 0;
}

static int parse_buffer(run_arg_t *a, uint32_t index, const char *token_spec, uint64_t default_count, char *why,
                        size_t why_size) {
  /* >FILE: where the contents go after the run. */
  const char *gt = strchr(token_spec, '>');
  if (gt && !gt[1]) FAIL("missing FILE after '>'");
  a->out_path = gt ? gt + 1 : NULL;
  char spec[512];
  size_t spec_all = gt ? (size_t)(gt - token_spec) : strlen(token_spec);
  if (spec_all >= sizeof spec) FAIL("buffer description too long");
  memcpy(spec, token_spec, spec_all);
  spec[spec_all] = 0;
  const char *eq = strchr(spec, '=');
  size_t spec_len = eq ? (size_t)(eq - spec) : strlen(spec);
  size_t type_len = strcspn(spec, ":=");
  if (type_len == 0) FAIL("missing element type after 'buf:' (types: %s)", cli_type_list());
  a->type = cli_type_find(spec, type_len, 0);
  if (!a->type) FAIL("unknown type '%.*s' (types: %s)", (int)type_len, spec, cli_type_list());
  a->count = default_count;
  if (type_len < spec_len) {
    char num[32];
    size_t len = spec_len - type_len - 1;
    if (len == 0 || len >= sizeof num) FAIL("COUNT after the type is %s", len ? "too long" : "empty");
    memcpy(num, spec + type_len + 1, len);
    num[len] = 0;
    if (cli_parse_u64(num, &a->count)) FAIL("COUNT '%s' is not a number", num);
    if (a->count == 0) FAIL("COUNT must be at least 1");
  }
  if (eq && eq[1] == '@' && check_init_file(a, eq + 2, type_len < spec_len, why, why_size)) return -1;
  if (a->count > MAX_BUFFER_BYTES / a->type->size)
    FAIL("%" PRIu64 " elements of %s do not fit any device memory", a->count, a->type->name);
  a->kind = RUN_ARG_BUFFER;
  a->size = a->count * a->type->size;
  a->index = index;
  if (!eq) return 0;
  if (!(a->init = strdup(eq + 1))) FAIL("out of host memory");
  return eq[1] == '@' ? 0 : fill_buffer(a, index, a->init, why, why_size); /* checks INIT, allocates nothing */
}

int run_arg_fill(run_arg_t *a, char *why, size_t why_size) {
  if (a->kind != RUN_ARG_BUFFER || a->data) return 0;
  a->data = calloc((size_t)a->count, a->type->size);
  if (!a->data) FAIL("cannot allocate %" PRIu64 " bytes on the host", a->size);
  if (a->init && a->init[0] == '@') return read_init_file(a, a->init + 1, why, why_size);
  return a->init ? fill_buffer(a, a->index, a->init, why, why_size) : 0;
}

int run_arg_parse(run_arg_t *a, uint32_t index, const char *token, uint64_t default_count, char *why,
                  size_t why_size) {
  memset(a, 0, sizeof *a);
  a->token = token;
  const char *colon = strchr(token, ':');
  if (!colon) FAIL("expected buf:TYPE[:COUNT][=INIT], TYPE:VALUE, bytes:HEX or local:SIZE");
  size_t head = (size_t)(colon - token);
  const char *rest = colon + 1;
  if (head == 3 && !memcmp(token, "buf", 3)) return parse_buffer(a, index, rest, default_count, why, why_size);
  if (head == 5 && !memcmp(token, "bytes", 5)) {
    size_t len;
    if (cli_parse_hex(rest, &a->data, &len, why, why_size)) return -1;
    a->kind = RUN_ARG_VALUE;
    a->size = len;
    return 0;
  }
  if (head == 5 && !memcmp(token, "local", 5)) {
    if (cli_parse_u64(rest, &a->size)) FAIL("SIZE '%s' is not a number of bytes", rest);
    if (a->size == 0) FAIL("a local buffer needs at least 1 byte");
    a->kind = RUN_ARG_LOCAL;
    return 0;
  }
  a->type = cli_type_find(token, head, 0);
  if (!a->type)
    FAIL("unknown type '%.*s' (types: %s; or buf:, bytes:, local:)", (int)head, token, cli_type_list());
  a->kind = RUN_ARG_VALUE;
  a->size = a->type->size;
  a->data = malloc(a->type->size);
  if (!a->data) FAIL("out of host memory");
  return cli_value_parse(a->type, rest, a->data, why, why_size);
}

hal_arg_t run_arg_desc(const run_arg_t *a) {
  switch (a->kind) {
  case RUN_ARG_BUFFER: return rvhal_arg_global(a->addr);
  case RUN_ARG_LOCAL: return rvhal_arg_local(a->size);
  case RUN_ARG_VALUE: break;
  }
  return rvhal_arg_value(a->data, a->size);
}

uint8_t run_arg_type(const run_arg_t *a) {
  if (a->kind != RUN_ARG_VALUE || !a->type) return RVHAL_TYPE_UNKNOWN; /* bytes: is any POD */
  const cli_type_t *t = a->type;
  if (t->cls == CLI_FLOAT) return t->size == 4 ? RVHAL_TYPE_F32 : RVHAL_TYPE_F64;
  uint8_t base = t->size == 1 ? RVHAL_TYPE_I8 : t->size == 2 ? RVHAL_TYPE_I16 : t->size == 4 ? RVHAL_TYPE_I32 : RVHAL_TYPE_I64;
  return (uint8_t)(base + (t->cls == CLI_UNSIGNED)); /* U* follows I* */
}

void run_arg_free(run_arg_t *a) {
  free(a->data);
  free(a->init);
  a->data = NULL;
  a->init = NULL;
}

/* json_check [PATH | PATH=VALUE | PATH#=N]... < TEXT
 * Fails (exit 1, naming what) unless TEXT is one valid JSON value (strict
 * RFC 8259, tests/exec/mini_json.h) in which each PATH exists, equals VALUE
 * (a string, or a number written as %.17g) or has N elements. PATH is
 * dot-separated object keys and array indices: "devices.0.name". For the
 * --json output of the rvhal tool (json.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mini_json.h"

/* The value at path (modified while walking), or NULL. */
static const json_t *walk(const json_t *v, char *path) {
  for (char *seg = strtok(path, "."); v && seg; seg = strtok(NULL, ".")) {
    if (v->type == JSON_ARRAY) {
      char *end;
      unsigned long i = strtoul(seg, &end, 10);
      v = *end || i >= v->count ? NULL : v->items[i];
    } else {
      v = json_get(v, seg);
    }
  }
  return v;
}

int main(int argc, char **argv) {
  size_t cap = 1 << 16, n = 0;
  char *text = malloc(cap);
  for (size_t got; text && (got = fread(text + n, 1, cap - n, stdin)) > 0;) {
    n += got;
    if (n == cap) text = realloc(text, cap *= 2);
  }
  if (!text) return 1;
  char err[200];
  json_t *root = json_parse(text, n, err, sizeof err);
  if (!root) {
    printf("json_check: not valid JSON: %s\n", err);
    return 1;
  }
  int failed = 0;
  for (int a = 1; a < argc; a++) {
    char path[512], want[512] = "";
    snprintf(path, sizeof path, "%s", argv[a]);
    char *eq = strchr(path, '=');
    int count = 0;
    if (eq) {
      snprintf(want, sizeof want, "%s", eq + 1);
      count = eq > path && eq[-1] == '#';
      eq[-count] = 0;
      *eq = 0;
    }
    const json_t *v = walk(root, path);
    char got[512] = "";
    if (v && v->type == JSON_STRING) snprintf(got, sizeof got, "%s", v->string);
    else if (v && v->type == JSON_NUMBER) snprintf(got, sizeof got, "%.17g", v->number);
    else if (v && v->type == JSON_BOOL) snprintf(got, sizeof got, "%s", v->number ? "true" : "false");
    else if (v && v->type == JSON_NULL) snprintf(got, sizeof got, "null");
    if (count && v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT)) snprintf(got, sizeof got, "%zu", v->count);
    if (!v) printf("json_check: %s: not found\n", argv[a]);
    else if (eq && strcmp(got, want)) printf("json_check: %s: found '%s'\n", argv[a], got);
    else continue;
    failed = 1;
  }
  json_free(root);
  free(text);
  if (!failed) printf("json_check: valid JSON, %d check%s passed\n", argc - 1, argc == 2 ? "" : "s");
  return failed;
}

/* The --json writer (cli_json.h). */
#include "cli_json.h"

#include <inttypes.h>
#include <math.h>

/* value as a JSON string literal. */
static void write_string(FILE *f, const char *value) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", f); break;
    case '\\': fputs("\\\\", f); break;
    case '\n': fputs("\\n", f); break;
    case '\t': fputs("\\t", f); break;
    case '\r': fputs("\\r", f); break;
    default:
      if (*p < 0x20) fprintf(f, "\\u%04x", *p);
      else fputc(*p, f);
    }
  }
  fputc('"', f);
}

/* The separator and indentation before a member or element, then its key. */
static void member(cli_json_t *j, const char *key) {
  if (j->depth > 0 && j->depth <= CLI_JSON_MAX_DEPTH) {
    fputs(j->count[j->depth - 1]++ ? ",\n" : "\n", j->f);
    fprintf(j->f, "%*s", 2 * j->depth, "");
  }
  if (key) {
    write_string(j->f, key);
    fputs(": ", j->f);
  }
}

static void begin(cli_json_t *j, const char *key, char c) {
  member(j, key);
  fputc(c, j->f);
  if (j->depth < CLI_JSON_MAX_DEPTH) j->count[j->depth] = 0;
  j->depth++;
}

static void end(cli_json_t *j, char c) {
  j->depth--;
  if (j->depth < CLI_JSON_MAX_DEPTH && j->count[j->depth]) fprintf(j->f, "\n%*s", 2 * j->depth, "");
  fputc(c, j->f);
}

void cli_json_begin_object(cli_json_t *j, const char *key) { begin(j, key, '{'); }
void cli_json_end_object(cli_json_t *j) { end(j, '}'); }
void cli_json_begin_array(cli_json_t *j, const char *key) { begin(j, key, '['); }
void cli_json_end_array(cli_json_t *j) { end(j, ']'); }

void cli_json_string(cli_json_t *j, const char *key, const char *value) {
  member(j, key);
  if (value) write_string(j->f, value);
  else fputs("null", j->f);
}

void cli_json_u64(cli_json_t *j, const char *key, uint64_t value) {
  member(j, key);
  fprintf(j->f, "%" PRIu64, value);
}

void cli_json_double(cli_json_t *j, const char *key, double value) {
  member(j, key);
  if (isfinite(value)) fprintf(j->f, "%.17g", value);
  else fputs("null", j->f); /* JSON has no NaN or infinity */
}

void cli_json_bool(cli_json_t *j, const char *key, int value) {
  member(j, key);
  fputs(value ? "true" : "false", j->f);
}

void cli_json_finish(cli_json_t *j) { fputc('\n', j->f); }

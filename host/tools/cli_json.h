/* A small JSON writer for the commands' --json output (one value per
 * command, indented, numbers as integers where they are counts, sizes or
 * addresses). Strings are escaped as RFC 8259 requires. */
#ifndef RVHAL_CLI_JSON_H
#define RVHAL_CLI_JSON_H

#include <stdint.h>
#include <stdio.h>

#define CLI_JSON_MAX_DEPTH 16

typedef struct cli_json {
  FILE *f;
  int depth;
  int count[CLI_JSON_MAX_DEPTH]; /* members written so far at each depth */
} cli_json_t;

/* key: the member's name inside an object; NULL inside an array or at the top. */
void cli_json_begin_object(cli_json_t *j, const char *key);
void cli_json_end_object(cli_json_t *j);
void cli_json_begin_array(cli_json_t *j, const char *key);
void cli_json_end_array(cli_json_t *j);
/* value NULL writes null. */
void cli_json_string(cli_json_t *j, const char *key, const char *value);
void cli_json_u64(cli_json_t *j, const char *key, uint64_t value);
void cli_json_double(cli_json_t *j, const char *key, double value);
void cli_json_bool(cli_json_t *j, const char *key, int value);
/* After the top-level value: its closing newline. */
void cli_json_finish(cli_json_t *j);

#endif

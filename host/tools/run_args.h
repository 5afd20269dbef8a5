/* Kernel arguments of `rvhal run`, one command-line token each:
 *   buf:TYPE[:COUNT][=INIT][>FILE]   global buffer (INIT: zero iota rand VALUE V1,V2,...
 *                             @FILE: the file's bytes); >FILE: written there after the run
 *   TYPE:VALUE                POD value
 *   bytes:HEX                 POD value of raw bytes
 *   local:SIZE                local buffer of SIZE bytes */
#ifndef RVHAL_RUN_ARGS_H
#define RVHAL_RUN_ARGS_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "rvhal/hal_types.h"

typedef enum run_arg_kind { RUN_ARG_BUFFER, RUN_ARG_VALUE, RUN_ARG_LOCAL } run_arg_kind_t;

typedef struct run_arg {
  const char *token;
  run_arg_kind_t kind;
  const cli_type_t *type; /* buffer elements or value; NULL for bytes: and local: */
  uint64_t count;         /* buffer elements */
  uint64_t size;          /* bytes of the buffer, the value or the local buffer */
  uint8_t *data;          /* a buffer's initial contents (after run_arg_fill), a value's bytes */
  char *init;             /* a buffer's INIT text (without >FILE), NULL: zeros */
  uint32_t index;         /* argument number */
  hal_addr_t addr;        /* the device buffer once allocated (0: none) */
  const char *out_path;   /* a buffer's contents go to this file after the run (NULL: none) */
} run_arg_t;

/* Parses and checks argument `index` from `token`; default_count is the
 * number of work-items. Allocates no buffer contents (run_arg_fill does,
 * once the device has said the buffer fits). Returns -1 with the reason in
 * why. */
int run_arg_parse(run_arg_t *a, uint32_t index, const char *token, uint64_t default_count, char *why,
                  size_t why_size);
/* A buffer's host copy, allocated and filled as its INIT says. */
int run_arg_fill(run_arg_t *a, char *why, size_t why_size);
/* The library's descriptor of a parsed argument (buffers: after allocation). */
hal_arg_t run_arg_desc(const run_arg_t *a);
/* The RVHAL_TYPE_* of a value argument (0 for the rest and bytes:), for the
 * library's type check. */
uint8_t run_arg_type(const run_arg_t *a);
void run_arg_free(run_arg_t *a);

#endif /* RVHAL_RUN_ARGS_H */

/* Shared pieces of the rvhal command-line tool: the commands, exit codes,
 * and the parsers for element types, values and number lists that several
 * commands use. */
#ifndef RVHAL_CLI_H
#define RVHAL_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes. */
#define CLI_OK 0
#define CLI_FAIL 1  /* the library or the device reported an error */
#define CLI_USAGE 2 /* the command line is wrong */

/* ---- commands (argv[0] is the command's name) ---------------------------- */

typedef struct cli_command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv);
  void (*usage)(FILE *f);
} cli_command_t;

int cmd_info(int argc, char **argv);
void cmd_info_usage(FILE *f);
int cmd_run(int argc, char **argv);
void cmd_run_usage(FILE *f);
int cmd_abi(int argc, char **argv);
void cmd_abi_usage(FILE *f);
int cmd_kernels(int argc, char **argv);
int cmd_cc(int argc, char **argv);
void cmd_cc_usage(FILE *f);
void cmd_kernels_usage(FILE *f);
/* rvhal abi ELF...: the kernels' layouts checked (cmd_kernels.c); json:
 * as one JSON object. */
int cmd_abi_elf(int argc, char **argv, int json);
/* The file exists and starts like an ELF file. */
int cli_is_elf_file(const char *path);

/* "rvhal CMD: message" on stderr; returns CLI_USAGE. With usage, the
 * command's usage follows; otherwise a pointer to `rvhal CMD --help` (or,
 * cmd NULL, `rvhal --help`). */
int cli_usage_error(const char *cmd, void (*usage)(FILE *f), const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* getopt_long's failure as a usage error (call with its '?' or ':'): one
 * line and a pointer to `rvhal CMD --help`, not the whole usage; an
 * unknown long option close to one of opts gets "did you mean". */
struct option;
int cli_getopt_error(const char *cmd, char **argv, const struct option *opts, int c);
/* The name among names[0..n) that word[0..len) most likely meant (a typo
 * or a prefix away), or NULL. */
const char *cli_closest(const char *word, size_t len, const char *const *names, size_t n);
/* The option's unsigned value in [min, max], or a usage error. */
int cli_opt_u32(const char *cmd, const char *opt, const char *text, uint32_t min, uint32_t max, uint32_t *out);
/* --device: an index of the platform's devices, or a usage error. */
int cli_opt_device(const char *cmd, const char *text, uint32_t *out);
/* A number of harts (--harts, --harts-per-group): 1..RVHAL_MAX_HARTS, or a
 * usage error. */
int cli_opt_harts(const char *cmd, const char *opt, const char *text, uint32_t *out);

/* ---- element types ------------------------------------------------------ */

typedef enum cli_class { CLI_UNSIGNED, CLI_SIGNED, CLI_FLOAT } cli_class_t;

typedef struct cli_type {
  const char *name;   /* "u32", or a C name ("int") */
  const char *c_type; /* what a kernel declares: "uint32_t" */
  uint32_t size;
  cli_class_t cls;
} cli_type_t;

/* The type called name[0..len); C names (char short int long float double)
 * only when c_names is set. NULL if there is none. */
const cli_type_t *cli_type_find(const char *name, size_t len, int c_names);
/* The type names, space-separated: "u8 i8 u16 i16 u32 i32 u64 i64 f32 f64". */
const char *cli_type_list(void);
/* The C names ("char short int long float double") and, in the same
 * order, their sizes ("1 2 4 8 4 8"). */
const char *cli_c_type_list(void);
const char *cli_c_type_sizes(void);

/* Parses `text` as a value of type t into out (t->size bytes). On error
 * returns -1 with the reason in why. */
int cli_value_parse(const cli_type_t *t, const char *text, void *out, char *why, size_t why_size);
/* Stores n (ints: truncated; floats: converted) into out. */
void cli_value_from_u64(const cli_type_t *t, uint64_t n, void *out);
/* Stores a float in [0, 1) or an int in [0, 100) derived from `bits`. */
void cli_value_random(const cli_type_t *t, uint64_t bits, void *out);
void cli_value_print(FILE *f, const cli_type_t *t, const void *p);

/* ---- numbers and lists ---------------------------------------------------- */

/* A whole unsigned number (decimal or 0x hex, no sign); -1 if it is not. */
int cli_parse_u64(const char *text, uint64_t *out);
/* "X[,Y[,Z]]": 1-3 numbers, each >= min. -1 with the reason in why. */
int cli_parse_dims(const char *text, uint64_t min, uint64_t out[3], uint32_t *out_n, char *why, size_t why_size);
/* "00112233" to bytes (malloc'ed). -1 with the reason in why. */
int cli_parse_hex(const char *text, uint8_t **out, size_t *out_len, char *why, size_t why_size);

#endif /* RVHAL_CLI_H */

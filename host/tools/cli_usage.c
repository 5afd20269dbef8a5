/* Usage errors: one message naming what was wrong, then where to read more,
 * and exit code 2. */
#include <stdarg.h>
#include <string.h>

#include "cli.h"
#include "rvhal/rvhal.h"

int cli_usage_error(const char *cmd, void (*usage)(FILE *f), const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (cmd) fprintf(stderr, "rvhal %s: ", cmd);
  else fputs("rvhal: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (usage) {
    fputc('\n', stderr);
    usage(stderr);
  } else if (cmd) {
    fprintf(stderr, "Try 'rvhal %s --help'.\n", cmd);
  }
  return CLI_USAGE;
}

int cli_getopt_error(const char *cmd, void (*usage)(FILE *f), char **argv, int c) {
  extern int optind, optopt;
  /* getopt has already advanced past the offending word. */
  const char *word = argv[optind - 1];
  if (c == ':') return cli_usage_error(cmd, usage, "option '%s' needs a value", word);
  if (optopt && strncmp(word, "--", 2)) return cli_usage_error(cmd, usage, "unknown option '-%c'", optopt);
  return cli_usage_error(cmd, usage, "unknown option '%s'", word);
}

int cli_opt_u32(const char *cmd, const char *opt, const char *text, uint32_t min, uint32_t max, uint32_t *out) {
  uint64_t v;
  if (cli_parse_u64(text, &v))
    return cli_usage_error(cmd, NULL, "%s '%s': not a number", opt, text);
  if (v < min || v > max)
    return cli_usage_error(cmd, NULL, "%s %s: must be %u..%u", opt, text, min, max);
  *out = (uint32_t)v;
  return 0;
}

int cli_opt_device(const char *cmd, const char *text, uint32_t *out) {
  const uint32_t n = rvhal_platform_info()->num_devices;
  if (n == 0) return cli_usage_error(cmd, NULL, "--device %s: the platform has no devices", text);
  return cli_opt_u32(cmd, "--device", text, 0, n - 1, out);
}

int cli_opt_harts(const char *cmd, const char *opt, const char *text, uint32_t *out) {
  return cli_opt_u32(cmd, opt, text, 1, RVHAL_MAX_HARTS, out);
}

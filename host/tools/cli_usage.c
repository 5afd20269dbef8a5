/* Usage errors: one message naming what was wrong, then where to read more,
 * and exit code 2. */
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "base/edit_distance.h" /* host/src: shared with the library */
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
  } else {
    fputs("Try 'rvhal --help'.\n", stderr);
  }
  return CLI_USAGE;
}

const char *cli_closest(const char *word, size_t len, const char *const *names, size_t n) {
  char w[64];
  if (len >= sizeof w) return NULL;
  memcpy(w, word, len);
  w[len] = 0;
  const char *best = NULL;
  size_t best_d = SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    size_t d = !strncmp(names[i], w, len) && len >= 3 ? 1 : rvhal_edit_distance(w, names[i]); /* a prefix, or a typo */
    if (d < best_d) best_d = d, best = names[i];
  }
  return best_d <= (len < 6 ? 2 : 3) ? best : NULL;
}

int cli_getopt_error(const char *cmd, char **argv, const struct option *opts, int c) {
  extern int optind, optopt;
  /* getopt has already advanced past the offending word. */
  const char *word = argv[optind - 1];
  if (c == ':') return cli_usage_error(cmd, NULL, "option '%s' needs a value", word);
  if (optopt && strncmp(word, "--", 2)) return cli_usage_error(cmd, NULL, "unknown option '-%c'", optopt);
  const char *names[64];
  size_t n = 0;
  for (; opts && opts[n].name && n < 64; n++) names[n] = opts[n].name;
  const char *near = strncmp(word, "--", 2) ? NULL : cli_closest(word + 2, strcspn(word + 2, "="), names, n);
  if (near) return cli_usage_error(cmd, NULL, "unknown option '%s'; did you mean --%s?", word, near);
  return cli_usage_error(cmd, NULL, "unknown option '%s'", word);
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
  if (*text >= '0' && *text <= '9') return cli_opt_u32(cmd, "--device", text, 0, n - 1, out);
  /* a name: the device's ("qemu-virt-rv64") or its board's if it has one device */
  if (rvhal_platform_find_device(text, out)) return cli_usage_error(cmd, NULL, "--device: %s", rvhal_last_error());
  return 0;
}

int cli_opt_harts(const char *cmd, const char *opt, const char *text, uint32_t *out) {
  return cli_opt_u32(cmd, opt, text, 1, RVHAL_MAX_HARTS, out);
}

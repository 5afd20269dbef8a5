/* Helpers shared by the execution-model and counter tests (tests/exec/). */
#ifndef RVHAL_TEST_EXEC_UTIL_H
#define RVHAL_TEST_EXEC_UTIL_H

#include <stdarg.h>

#include "dev_util.h"
#include "mini_json.h"

/* The firmware's hart counters; the two after them (debug_cycles,
 * debug_instructions) are the host's, listed only on a device with a debug
 * link (the GDB-remote backend), RVHAL_NOT_FOUND elsewhere. */
#define EX_NUM_HART_COUNTERS RVHAL_HART_COUNTER_DEBUG_CYCLES
_Static_assert(RVHAL_HART_COUNTER_DEBUG_INSTRET == RVHAL_HART_COUNTER_DEBUG_CYCLES + 1 &&
                   RVHAL_NUM_HART_COUNTERS == RVHAL_HART_COUNTER_DEBUG_CYCLES + 2,
               "the debug-link counters come last");
static inline int ex_is_debug_counter(uint32_t id) {
  return id == RVHAL_HART_COUNTER_DEBUG_CYCLES || id == RVHAL_HART_COUNTER_DEBUG_INSTRET;
}
/* The device has a debug link: the gdb backend, spawned or attached. */
static inline int ex_debug_link(void) {
  const char *b = getenv("RVHAL_BACKEND"), *r = getenv("RVHAL_GDB_REMOTE"), *s = getenv("RVHAL_GDB_SPAWN");
  return (b && !strcmp(b, "gdb")) || (r && *r) || (s && *s);
}
#define EX_MAX_HARTS RVHAL_MAX_HARTS

/* The options a test sets itself must not be changed behind its back by
 * the caller's environment (RVHAL_COUNTERS=1 would turn counters on where a
 * test needs them off, RVHAL_TIMING would change the timing mode). */
static inline void ex_clean_env(void) {
  unsetenv("RVHAL_COUNTERS");
  unsetenv("RVHAL_PROFILE");
  unsetenv("RVHAL_TIMING");
  unsetenv("RVHAL_HARTS");
  unsetenv("RVHAL_TEST_HARTS");
}

/* A device of `harts` harts; counters on or off; timing as given. */
static inline rvhal_device_t *ex_device(uint32_t harts, int counters, rvhal_timing_mode_t timing) {
  rvhal_device_options_t o = {0};
  o.counters = counters;
  o.timing = timing;
  return fixture_device_opts(harts, &o);
}

/* Every counter of abi/rvhal/rvhal_counters.h, hart counters then device
 * counters, expanded from the two maps. */
typedef struct ex_counter_info {
  uint32_t id;
  const char *name;
  rvhal_counter_unit_t unit;
} ex_counter_info_t;

static const ex_counter_info_t ex_counters[] = {
#define EX_HART_COUNTER_(id, name, unit, desc) {RVHAL_HART_COUNTER_##id, name, unit},
    RVHAL_HART_COUNTER_MAP(EX_HART_COUNTER_)
#undef EX_HART_COUNTER_
#define EX_DEVICE_COUNTER_(id, num, name, unit, desc) {num, name, unit},
    RVHAL_DEVICE_COUNTER_MAP(EX_DEVICE_COUNTER_)
#undef EX_DEVICE_COUNTER_
};
#define EX_NUM_COUNTERS (sizeof ex_counters / sizeof *ex_counters)

static inline const char *ex_counter_name(uint32_t id) {
  for (size_t i = 0; i < EX_NUM_COUNTERS; i++)
    if (ex_counters[i].id == id) return ex_counters[i].name;
  return "?";
}

/* Every hart counter of every hart of the last launch, read through the
 * counter API: v[counter][hart]. Each read must return 1 (fresh). */
typedef struct ex_counts {
  uint64_t v[EX_NUM_HART_COUNTERS][EX_MAX_HARTS];
  uint32_t harts;
} ex_counts_t;

static inline void ex_read_counts(rvhal_device_t *d, ex_counts_t *c, const char *what) {
  memset(c, 0, sizeof *c);
  c->harts = rvhal_device_get_info(d)->num_harts;
  for (uint32_t id = 0; id < EX_NUM_HART_COUNTERS; id++)
    for (uint32_t h = 0; h < c->harts; h++) {
      uint64_t v = 0;
      int rc = rvhal_counter_read(d, id, &v, h);
      CHECK_MSG(rc == 1, "%s: counter_read(%s, hart %u) returned %d (%s)", what, ex_counter_name(id), h, rc,
                rc < 0 ? rvhal_last_error() : "no fresh value");
      c->v[id][h] = v;
    }
}

static inline uint64_t ex_sum(const ex_counts_t *c, uint32_t id) {
  uint64_t s = 0;
  for (uint32_t h = 0; h < c->harts; h++) s += c->v[id][h];
  return s;
}

static inline void ex_print_counts(FILE *f, const ex_counts_t *c, const char *what) {
  fprintf(f, "  %s:\n  %-20s", what, "counter");
  for (uint32_t h = 0; h < c->harts; h++) fprintf(f, " %14s%u", "hart", h);
  fputc('\n', f);
  for (uint32_t id = 0; id < EX_NUM_HART_COUNTERS; id++) {
    fprintf(f, "  %-20s", ex_counter_name(id));
    for (uint32_t h = 0; h < c->harts; h++) fprintf(f, " %15" PRIu64, c->v[id][h]);
    fputc('\n', f);
  }
}

/* A case written for more harts than the device has (a team of 4 on a
 * one-hart board) is not run, and says so: EX_NOT_RUN. */
#define EX_NOT_RUN 1
static int ex_not_run_count;

/* 1 if the device has the harts `opt` asks for (opt->harts, and teams of
 * opt->harts_per_group that divide them); else prints why not. */
static inline int ex_fits(rvhal_device_t *d, const rvhal_launch_options_t *opt, const char *what) {
  const uint32_t have = rvhal_device_get_info(d)->num_harts;
  const uint32_t harts = opt && opt->harts ? opt->harts : have, team = opt ? opt->harts_per_group : 0;
  if (harts <= have && (!team || (team <= harts && harts % team == 0))) return 1;
  printf("  %-58s not run: asks for %u harts%s%u, the device has %u\n", what, harts, team ? " in teams of " : "",
         team ? team : harts, have);
  ex_not_run_count++;
  return 0;
}

/* A launch that must succeed; returns its status (0), the error, or
 * EX_NOT_RUN if the device has too few harts for it (ex_fits). */
static inline int ex_launch(rvhal_device_t *d, hal_program_t p, hal_kernel_t k, uint32_t dim, const uint64_t global[3],
                            const uint64_t local[3], const hal_arg_t *args, uint32_t nargs,
                            const rvhal_launch_options_t *opt, const char *what) {
  if (!ex_fits(d, opt, what)) return EX_NOT_RUN;
  hal_ndrange_t nd = {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
  for (uint32_t i = 0; i < dim; i++) {
    nd.global[i] = global[i];
    nd.local[i] = local[i];
  }
  int rc = rvhal_kernel_exec_ex(d, p, k, &nd, args, nargs, dim, opt);
  CHECK_MSG(rc == RVHAL_OK, "%s: kernel_exec: %s: %s", what, rvhal_status_name(rc), rvhal_last_error());
  return rc;
}

/* A profile's Chrome trace (trace=FILE): its traceEvents array, or NULL
 * after a failed check saying why (not written, not JSON, no array).
 * *out_root and *out_text (NULL on failure) are the caller's to free. */
static inline const json_t *ex_load_trace(const char *path, json_t **out_root, char **out_text) {
  size_t len;
  *out_root = NULL;
  *out_text = dt_read_file(path, &len);
  CHECK_MSG(*out_text != NULL, "trace %s was not written", path);
  if (!*out_text) return NULL;
  char err[160];
  *out_root = json_parse(*out_text, len, err, sizeof err);
  CHECK_MSG(*out_root != NULL, "trace %s is not valid JSON: %s", path, err);
  const json_t *events = *out_root ? json_get(*out_root, "traceEvents") : NULL;
  CHECK_MSG(!*out_root || (events && events->type == JSON_ARRAY), "trace %s: no traceEvents array", path);
  return events && events->type == JSON_ARRAY ? events : NULL;
}

/* snprintf into a fixed buffer, for messages. */
static inline const char *ex_fmt(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline const char *ex_fmt(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return buf;
}

#endif /* RVHAL_TEST_EXEC_UTIL_H */

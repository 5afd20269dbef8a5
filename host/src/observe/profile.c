/* Launch profiles: table, CSV, Chrome trace JSON and SVG timeline. */
#include "observe/profile.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/internal.h"
#include "base/profile_spec.h"
#include "observe/counters_internal.h"
#include "rvhal/rvhal_counters.h"

#define MAX_SPANS 20000 /* drawn in the SVG; the JSON keeps every event */
#define MAX_KERNELS 64
#define MAX_LAUNCHES 20000 /* whose host times the SVG's gap labels look at */
#define MAX_SVG_COLUMNS 16 /* per-hart counters summed for the SVG (the table's columns) */

enum { SPAN_CALL, SPAN_WAIT, SPAN_IDLE };

typedef struct span {
  double t0, t1; /* microseconds since the device was created */
  uint32_t hart, kind, count, kernel;
  uint32_t group[3];
  uint64_t launch;
} span_t;

struct rvhal_profile {
  pthread_mutex_t lock; /* the host tracks are written from any thread */
  int table;
  int debug_columns;     /* the device has a debug link: its DEBUG_* counters are shown too */
  int csv_header_due;    /* written at the first launch, once debug_columns is known */
  FILE *csv, *trace;
  char *svg_path;
  int trace_events;  /* events written to the JSON so far */
  uint32_t harts_named;
  uint64_t queues_named[4];  /* bit per queue id < 256 that has its track's name */
  uint32_t host_named;       /* bit per rvhal_profile_track_t that has its name */
  span_t *spans;
  size_t num_spans, dropped_spans;
  char *kernels[MAX_KERNELS];
  uint32_t num_kernels;
  double end_us;
  /* For the SVG: each launch's time on the host (a cut gap may fall inside
   * one: exact timing draws the harts on the device's clock), and the
   * per-hart counters summed over the launches. */
  struct launch_time {
    double t0, t1;
    uint64_t seq;
  } *launches;
  size_t num_launches;
  uint64_t hart_sum[RVHAL_MAX_HARTS][MAX_SVG_COLUMNS];
  uint32_t sum_harts;
  uint64_t summed_launches;
};

static void free_profile(rvhal_profile_t *p) {
  pthread_mutex_destroy(&p->lock);
  if (p->csv) fclose(p->csv);
  if (p->trace) fclose(p->trace);
  for (uint32_t i = 0; i < p->num_kernels; i++) free(p->kernels[i]);
  free(p->launches);
  free(p->svg_path);
  free(p->spans);
  free(p);
}

/* The per-hart counters a profile shows, in order: the table's heading and
 * width; the CSV uses the counters' own names (abi/rvhal/rvhal_counters.h). */
static const struct {
  uint32_t id;
  const char *heading;
  int width;
} columns[] = {
    {RVHAL_HART_COUNTER_GROUPS, "groups", 10},
    {RVHAL_HART_COUNTER_ITEMS, "items", 10},
    {RVHAL_HART_COUNTER_INSTRET, "instructions", 14},
    {RVHAL_HART_COUNTER_CYCLES, "cycles", 14},
    {RVHAL_HART_COUNTER_KERNEL_CYCLES, "kernel_cycles", 14},
    {RVHAL_HART_COUNTER_BARRIERS, "barriers", 10},
    {RVHAL_HART_COUNTER_BARRIER_WAIT_CYCLES, "barrier_wait", 14},
    {RVHAL_HART_COUNTER_IDLE_CYCLES, "idle_cycles", 14},
    {RVHAL_HART_COUNTER_CONTEXT_SWITCHES, "switches", 10},
    {RVHAL_HART_COUNTER_VECTOR_GROUPS, "vector_groups", 13},
    {RVHAL_HART_COUNTER_FP_GROUPS, "fp_groups", 9},
};
#define NUM_COLUMNS (sizeof columns / sizeof *columns)
_Static_assert(NUM_COLUMNS <= MAX_SVG_COLUMNS, "the SVG's per-hart sums have a column for each of the table's");
/* ...and after them, on a device with a debug link: */
static const struct {
  uint32_t id;
  const char *heading;
  int width;
} debug_columns[] = {
    {RVHAL_HART_COUNTER_DEBUG_INSTRET, "debug_instret", 14},
    {RVHAL_HART_COUNTER_DEBUG_CYCLES, "debug_cycles", 14},
};
#define NUM_DEBUG_COLUMNS (sizeof debug_columns / sizeof *debug_columns)

static const char *const counter_names[] = {
#define X(id, name, unit, desc) name,
    RVHAL_HART_COUNTER_MAP(X)
#undef X
};

static int open_file(const char *path, FILE **out) {
  *out = fopen(path, "w");
  if (!*out) return rvhal_error(RVHAL_HOST_IO, "profile: cannot write %s: %s", path, strerror(errno));
  return RVHAL_OK;
}

/* One output of the spec, opened into p. */
static int open_output(void *user, rvhal_profile_out_t out, const char *file) {
  rvhal_profile_t *p = user;
  int rc = RVHAL_OK;
  switch (out) {
  case RVHAL_PROFILE_OUT_TABLE: p->table = 1; break;
  case RVHAL_PROFILE_OUT_CSV:
    if (!(rc = open_file(file, &p->csv))) p->csv_header_due = 1;
    break;
  case RVHAL_PROFILE_OUT_TRACE:
    if (!(rc = open_file(file, &p->trace))) fputs("{\"traceEvents\": [\n", p->trace);
    break;
  case RVHAL_PROFILE_OUT_SVG: {
    p->svg_path = strdup(file);
    FILE *f; /* fail now, not at the end, if it cannot be written */
    if (!(rc = open_file(file, &f))) fclose(f);
    break;
  }
  }
  return rc;
}

int rvhal_profile_open(const char *spec, rvhal_profile_t **out_profile) {
  rvhal_profile_t *p = calloc(1, sizeof *p);
  if (!p) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  pthread_mutex_init(&p->lock, NULL);
  int rc = rvhal_profile_spec_each(spec, open_output, p);
  if (rc) {
    free_profile(p);
    return rc;
  }
  *out_profile = p;
  return RVHAL_OK;
}

int rvhal_profile_wants_events(const rvhal_profile_t *p) { return p && (p->trace || p->svg_path); }

void rvhal_profile_debug_link(rvhal_profile_t *p) {
  if (p) p->debug_columns = 1;
}

static void csv_header(rvhal_profile_t *p) {
  if (!p->csv || !p->csv_header_due) return;
  p->csv_header_due = 0;
  fputs("launch,kernel,hart", p->csv);
  for (size_t k = 0; k < NUM_COLUMNS; k++) fprintf(p->csv, ",%s", counter_names[columns[k].id]);
  for (size_t k = 0; p->debug_columns && k < NUM_DEBUG_COLUMNS; k++)
    fprintf(p->csv, ",%s", counter_names[debug_columns[k].id]);
  fputs(",exact\n", p->csv);
}

static uint32_t kernel_index(rvhal_profile_t *p, const char *name) {
  for (uint32_t i = 0; i < p->num_kernels; i++)
    if (!strcmp(p->kernels[i], name)) return i;
  if (p->num_kernels == MAX_KERNELS) return MAX_KERNELS - 1;
  p->kernels[p->num_kernels] = strdup(name);
  return p->num_kernels++;
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

static void add_span(rvhal_profile_t *p, const span_t *s, const char *kernel) {
  if (s->t1 > p->end_us) p->end_us = s->t1;
  if (p->trace) {
    static const char *const names[] = {"kernel call", "barrier wait", "idle"};
    static const char *const cats[] = {"kernel", "barrier", "idle"};
    fprintf(p->trace, "%s{\"name\": ", p->trace_events++ ? ",\n" : "");
    if (s->kind == SPAN_CALL) {
      char name[160];
      snprintf(name, sizeof name, "%s groups (%u,%u,%u)%s", kernel, s->group[0], s->group[1], s->group[2],
               s->count > 1 ? "+" : "");
      json_string(p->trace, name);
    } else {
      json_string(p->trace, names[s->kind]);
    }
    fprintf(p->trace, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": 1, \"tid\": %u, "
                      "\"args\": {\"launch\": %" PRIu64 ", \"kernel\": ",
            cats[s->kind], s->t0, s->t1 - s->t0, s->hart, s->launch);
    json_string(p->trace, kernel);
    if (s->kind == SPAN_CALL)
      fprintf(p->trace, ", \"first_group\": [%u, %u, %u], \"groups\": %u", s->group[0], s->group[1], s->group[2],
              s->count);
    fputs("}}", p->trace);
  }
  if (!p->svg_path) return;
  if (p->num_spans == MAX_SPANS) {
    p->dropped_spans++;
    return;
  }
  if (!p->spans && !(p->spans = malloc(MAX_SPANS * sizeof *p->spans))) return;
  p->spans[p->num_spans++] = *s;
}

/* The harts' timeline events of this launch, as spans on the host clock. */
static void collect_spans(rvhal_profile_t *p, const rvhal_launch_record_t *l) {
  uint64_t first = UINT64_MAX, last = 0;
  for (uint32_t h = 0; h < l->num_harts; h++) {
    const rvhal_launch_hart_record_t *b = &l->hart[h];
    if (!b->took_part) continue;
    if (b->start_cycle < first) first = b->start_cycle;
    if (b->end_cycle > last) last = b->end_cycle;
  }
  if (first >= last) return;
  /* Exact timing runs the harts in turn (see firmware/scheduler.c) and its
   * counters describe them as side by side: so does the timeline, every
   * hart starting at the launch's start; a cycle is a virtual nanosecond.
   * Fast timing: real overlap, cycles turned into host time through the
   * launch's span in the device timebase. */
  const int exact = l->exact_timing;
  if (exact) {
    last = first;
    for (uint32_t h = 0; h < l->num_harts; h++) {
      const rvhal_launch_hart_record_t *b = &l->hart[h];
      if (b->took_part && first + (b->end_cycle - b->start_cycle) > last)
        last = first + (b->end_cycle - b->start_cycle);
    }
  }
  double scale = exact ? 1e-3 : (double)l->device_ticks * 1e6 / (double)l->timebase_hz / (double)(last - first);
  double t0 = (double)l->host_start_ns / 1e3;
  uint32_t kidx = kernel_index(p, l->kernel);
  uint64_t shift = 0; /* exact: this hart's start moved to the launch's */
#define T(c) (t0 + (double)((c) - shift - first) * scale)
  for (uint32_t h = 0; h < l->num_harts; h++) {
    const rvhal_launch_hart_record_t *b = &l->hart[h];
    if (!b->took_part) continue;
    shift = exact ? b->start_cycle - first : 0;
    if (p->trace && h >= p->harts_named) {
      for (; p->harts_named <= h; p->harts_named++)
        fprintf(p->trace, "%s{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": "
                          "{\"name\": \"hart %u\"}}",
                p->trace_events++ ? ",\n" : "", p->harts_named, p->harts_named);
    }
    span_t idle = {.hart = h, .kind = SPAN_IDLE, .kernel = kidx, .launch = l->seq};
    if (b->start_cycle - shift > first) {
      idle.t0 = T(first);
      idle.t1 = T(b->start_cycle);
      add_span(p, &idle, l->kernel);
    }
    /* The events were device memory a kernel can write: the record holds
     * a copy (they cannot change between the passes below), their count
     * bounded; each begin is matched with its end in one backward pass (a
     * search per begin was quadratic in events a kernel can forge). */
    const rvhal_trace_event_t *ev = b->events;
    uint32_t n = ev ? b->num_events : 0;
    uint32_t *end_of = n ? malloc((size_t)n * sizeof *end_of) : NULL;
    if (!end_of) n = 0;
    for (uint32_t i = n, call_end = n, wait_end = n; i-- > 0;) {
      end_of[i] = ev[i].kind == RVHAL_TRACE_CALL_BEGIN ? call_end : ev[i].kind == RVHAL_TRACE_WAIT_BEGIN ? wait_end : n;
      if (ev[i].kind == RVHAL_TRACE_CALL_END) call_end = i;
      if (ev[i].kind == RVHAL_TRACE_WAIT_END) wait_end = i;
    }
    if (b->dropped)
      fprintf(stderr,
              "rvhal profile: launch %" PRIu64 ", hart %u: the timeline keeps %u events per hart; %u later ones "
              "are missing\n",
              l->seq, h, l->trace_capacity, b->dropped);
    for (uint32_t i = 0; i + 1 < n; i++) {
      uint32_t want = ev[i].kind == RVHAL_TRACE_CALL_BEGIN ? RVHAL_TRACE_CALL_END
                      : ev[i].kind == RVHAL_TRACE_WAIT_BEGIN ? RVHAL_TRACE_WAIT_END : 0;
      if (!want) continue;
      uint32_t j = end_of[i];
      if (j >= n) continue;
      span_t s = {.t0 = T(ev[i].cycle), .t1 = T(ev[j].cycle), .hart = h, .kernel = kidx, .launch = l->seq,
                  .kind = want == RVHAL_TRACE_CALL_END ? SPAN_CALL : SPAN_WAIT, .count = ev[i].count};
      memcpy(s.group, ev[i].group, sizeof s.group);
      add_span(p, &s, l->kernel);
    }
    free(end_of);
    if (b->end_cycle - shift < last) {
      idle.t0 = T(b->end_cycle);
      idle.t1 = T(last + shift);
      add_span(p, &idle, l->kernel);
    }
  }
#undef T
}

/* A hart's counter in the launch (0 for a hart that sat out). */
static uint64_t hart_counter(const rvhal_launch_record_t *l, uint32_t h, uint32_t id) {
  if (id == RVHAL_HART_COUNTER_DEBUG_CYCLES || id == RVHAL_HART_COUNTER_DEBUG_INSTRET) /* every hart's */
    return l->debug_counts ? l->hart[h].counters[id] : 0;
  return l->hart[h].took_part ? l->hart[h].counters[id] : 0;
}

static void print_table(const rvhal_launch_record_t *l, int exact, const char *why, int debug) {
  fprintf(stderr, "rvhal profile: launch %" PRIu64 " %s, %u-D %" PRIu64 "x%" PRIu64 "x%" PRIu64 " in %" PRIu64
                  " groups of %" PRIu64 "x%" PRIu64 "x%" PRIu64 ", %u harts (%u per group), device %.3f ms, host %.3f ms\n",
          l->seq, l->kernel, l->work_dim, l->global[0], l->global[1], l->global[2], l->groups, l->local[0],
          l->local[1], l->local[2], l->harts, l->harts_per_group, (double)l->device_ticks * 1e3 / (double)l->timebase_hz,
          (double)l->host_ns / 1e6);
  if (!exact) fprintf(stderr, "rvhal profile: approximate: %s\n", why);
  fprintf(stderr, "%6s", "hart");
  for (size_t k = 0; k < NUM_COLUMNS; k++) fprintf(stderr, " %*s", columns[k].width, columns[k].heading);
  for (size_t k = 0; debug && k < NUM_DEBUG_COLUMNS; k++)
    fprintf(stderr, " %*s", debug_columns[k].width, debug_columns[k].heading);
  fputc('\n', stderr);
  uint64_t tot[NUM_COLUMNS + NUM_DEBUG_COLUMNS] = {0};
  for (uint32_t h = 0; h < l->num_harts; h++) {
    fprintf(stderr, "%6u", h);
    for (size_t k = 0; k < NUM_COLUMNS; k++) {
      fprintf(stderr, " %*" PRIu64, columns[k].width, hart_counter(l, h, columns[k].id));
      tot[k] += hart_counter(l, h, columns[k].id);
    }
    for (size_t k = 0; debug && k < NUM_DEBUG_COLUMNS; k++) {
      fprintf(stderr, " %*" PRIu64, debug_columns[k].width, hart_counter(l, h, debug_columns[k].id));
      tot[NUM_COLUMNS + k] += hart_counter(l, h, debug_columns[k].id);
    }
    fputc('\n', stderr);
  }
  fprintf(stderr, "%6s", "total");
  for (size_t k = 0; k < NUM_COLUMNS; k++) fprintf(stderr, " %*" PRIu64, columns[k].width, tot[k]);
  for (size_t k = 0; debug && k < NUM_DEBUG_COLUMNS; k++)
    fprintf(stderr, " %*" PRIu64, debug_columns[k].width, tot[NUM_COLUMNS + k]);
  fputc('\n', stderr);
}

static void host_span(rvhal_profile_t *p, rvhal_profile_track_t track, const char *name, double t0_us,
                      double t1_us, const char *args_json);

void rvhal_profile_record(rvhal_profile_t *p, const rvhal_launch_record_t *l) {
  pthread_mutex_lock(&p->lock);
  const char *why;
  int exact = rvhal_counters_exactness(1, l->plugin_counts, l->exact_timing, l->harts_per_group, &why);
  if (p->table) print_table(l, exact, why, p->debug_columns);
  if (p->csv) {
    csv_header(p);
    for (uint32_t h = 0; h < l->num_harts; h++) {
      fprintf(p->csv, "%" PRIu64 ",%s,%u", l->seq, l->kernel, h);
      for (size_t k = 0; k < NUM_COLUMNS; k++) fprintf(p->csv, ",%" PRIu64, hart_counter(l, h, columns[k].id));
      for (size_t k = 0; p->debug_columns && k < NUM_DEBUG_COLUMNS; k++)
        fprintf(p->csv, ",%" PRIu64, hart_counter(l, h, debug_columns[k].id));
      fprintf(p->csv, ",%d\n", exact);
    }
    fflush(p->csv);
  }
  if (rvhal_profile_wants_events(p)) collect_spans(p, l);
  if (p->svg_path) {
    if (!p->launches) p->launches = malloc(MAX_LAUNCHES * sizeof *p->launches);
    if (p->launches && p->num_launches < MAX_LAUNCHES)
      p->launches[p->num_launches++] = (struct launch_time){(double)l->host_start_ns / 1e3,
                                                            (double)(l->host_start_ns + l->host_ns) / 1e3, l->seq};
    for (uint32_t h = 0; h < l->num_harts && h < RVHAL_MAX_HARTS; h++)
      for (size_t k = 0; k < NUM_COLUMNS; k++) p->hart_sum[h][k] += hart_counter(l, h, columns[k].id);
    if (l->num_harts > p->sum_harts) p->sum_harts = l->num_harts < RVHAL_MAX_HARTS ? l->num_harts : RVHAL_MAX_HARTS;
    p->summed_launches++;
  }
  if (p->trace) {
    /* room for (NUM_COLUMNS + NUM_DEBUG_COLUMNS) x RVHAL_MAX_HARTS 20-digit values and their names */
    char name[160], args[(NUM_COLUMNS + NUM_DEBUG_COLUMNS) * (RVHAL_MAX_HARTS * 22 + 32) + 256];
    uint64_t vg = 0, fg = 0; /* groups that wrote vector / FP state, over the harts */
    for (uint32_t h = 0; h < l->num_harts; h++) {
      vg += hart_counter(l, h, RVHAL_HART_COUNTER_VECTOR_GROUPS);
      fg += hart_counter(l, h, RVHAL_HART_COUNTER_FP_GROUPS);
    }
    snprintf(name, sizeof name, "launch %" PRIu64 " %s", l->seq, l->kernel);
    int n = snprintf(args, sizeof args,
                     "{\"launch\": %" PRIu64 ", \"groups\": %" PRIu64 ", \"vector_groups\": %" PRIu64
                     ", \"fp_groups\": %" PRIu64,
                     l->seq, l->groups, vg, fg);
    for (size_t k = 0; p->debug_columns && k < NUM_DEBUG_COLUMNS && (size_t)n < sizeof args; k++) { /* per hart */
      n += snprintf(args + n, sizeof args - (size_t)n, ", \"%s\": [", counter_names[debug_columns[k].id]);
      for (uint32_t h = 0; h < l->num_harts && (size_t)n < sizeof args; h++)
        n += snprintf(args + n, sizeof args - (size_t)n, "%s%" PRIu64, h ? ", " : "", hart_counter(l, h, debug_columns[k].id));
      if ((size_t)n < sizeof args) n += snprintf(args + n, sizeof args - (size_t)n, "]");
    }
    /* the table's counters, one value per hart */
    if ((size_t)n < sizeof args) n += snprintf(args + n, sizeof args - (size_t)n, ", \"per_hart\": {");
    for (size_t k = 0; k < NUM_COLUMNS && (size_t)n < sizeof args; k++) {
      n += snprintf(args + n, sizeof args - (size_t)n, "%s\"%s\": [", k ? ", " : "", counter_names[columns[k].id]);
      for (uint32_t h = 0; h < l->num_harts && (size_t)n < sizeof args; h++)
        n += snprintf(args + n, sizeof args - (size_t)n, "%s%" PRIu64, h ? ", " : "", hart_counter(l, h, columns[k].id));
      if ((size_t)n < sizeof args) n += snprintf(args + n, sizeof args - (size_t)n, "]");
    }
    if ((size_t)n < sizeof args) n += snprintf(args + n, sizeof args - (size_t)n, "}");
    if (n > 0 && (size_t)n < sizeof args) snprintf(args + n, sizeof args - (size_t)n, "}");
    host_span(p, RVHAL_PROFILE_TRACK_LAUNCHES, name, (double)l->host_start_ns / 1e3,
              (double)(l->host_start_ns + l->host_ns) / 1e3, args);
    fflush(p->trace);
  }
  pthread_mutex_unlock(&p->lock);
}

/* ---- host tracks -----------------------------------------------------------
 * The host's side beside the harts (tids RVHAL_PROFILE_HOST_TID + track):
 * the API calls, each launch from submit to completion seen, and waits. */

void rvhal_profile_name_process(rvhal_profile_t *p, const char *name) {
  if (!p || !p->trace) return;
  pthread_mutex_lock(&p->lock);
  fprintf(p->trace, "%s{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"name\": ",
          p->trace_events++ ? ",\n" : "");
  json_string(p->trace, name);
  fputs("}}", p->trace);
  /* the host's tracks above the harts' */
  fprintf(p->trace, ",\n{\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": 1, \"args\": {\"sort_index\": 0}}");
  p->trace_events++;
  pthread_mutex_unlock(&p->lock);
}

static void host_span(rvhal_profile_t *p, rvhal_profile_track_t track, const char *name, double t0_us,
                      double t1_us, const char *args_json) {
  static const char *const track_names[] = {"host: API calls", "host: launches (submit to completion)",
                                            "host: waits"};
  const uint32_t tid = RVHAL_PROFILE_HOST_TID + (uint32_t)track;
  if (!(p->host_named >> track & 1)) {
    p->host_named |= 1u << track;
    fprintf(p->trace, "%s{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": "
                      "{\"name\": \"%s\"}},\n{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, "
                      "\"tid\": %u, \"args\": {\"sort_index\": %d}}",
            p->trace_events++ ? ",\n" : "", tid, track_names[track], tid, -10 + (int)track);
    p->trace_events++;
  }
  fprintf(p->trace, "%s{\"name\": ", p->trace_events++ ? ",\n" : "");
  json_string(p->trace, name);
  fprintf(p->trace, ", \"cat\": \"host\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": 1, \"tid\": %u",
          t0_us, t1_us > t0_us ? t1_us - t0_us : 0, tid);
  if (args_json) fprintf(p->trace, ", \"args\": %s", args_json);
  fputc('}', p->trace);
}

void rvhal_profile_host_call(rvhal_profile_t *p, uint64_t created_ns, rvhal_profile_track_t track, const char *name,
                             uint64_t bytes, uint64_t start_ns, uint64_t end_ns) {
  if (!p || !p->trace || (unsigned)track > RVHAL_PROFILE_TRACK_WAITS) return;
  char args[48] = "";
  if (bytes) snprintf(args, sizeof args, "{\"bytes\": %" PRIu64 "}", bytes);
  pthread_mutex_lock(&p->lock);
  host_span(p, track, name, (double)(start_ns - created_ns) / 1e3, (double)(end_ns - created_ns) / 1e3,
            bytes ? args : NULL);
  pthread_mutex_unlock(&p->lock);
}

/* The host clock the device's created_ns is on (CLOCK_MONOTONIC). */
static uint64_t host_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

rvhal_profile_call_t rvhal_profile_call_begin_(rvhal_profile_t *p, uint64_t created_ns, const char *name,
                                               uint64_t bytes) {
  rvhal_profile_call_t c = {0};
  if (p && p->trace) c = (rvhal_profile_call_t){p, created_ns, name, bytes, host_now_ns()};
  return c;
}

void rvhal_profile_call_end_(rvhal_profile_call_t *c) {
  if (c->p)
    rvhal_profile_host_call(c->p, c->created_ns, RVHAL_PROFILE_TRACK_CALLS, c->name, c->bytes, c->start_ns,
                            host_now_ns());
}

/* Queue tracks sit below the harts' (tid 1000 + queue id): what the host
 * did with each command, so the device's idle gaps show next to the queues
 * that could have filled them. */
void rvhal_profile_queue_command(rvhal_profile_t *p, uint64_t created_ns, uint32_t queue_id, const char *what,
                                 uint64_t queued_ns, uint64_t submitted_ns, uint64_t started_ns, uint64_t ended_ns) {
  if (!p || !p->trace) return;
  pthread_mutex_lock(&p->lock);
  uint32_t tid = 1000 + queue_id;
  if (queue_id >= 256 || !(p->queues_named[queue_id / 64] >> (queue_id % 64) & 1)) {
    if (queue_id < 256) p->queues_named[queue_id / 64] |= 1ull << (queue_id % 64);
    fprintf(p->trace, "%s{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": "
                      "{\"name\": \"queue %u\"}}",
            p->trace_events++ ? ",\n" : "", tid, queue_id);
  }
#define US(t) ((double)((t) - created_ns) / 1e3)
  /* The enqueue as an instant (commands wait overlapping one another); the
   * run as a span (a queue runs one command at a time). */
  fprintf(p->trace, "%s{\"name\": \"enqueue\", \"cat\": \"queue\", \"ph\": \"i\", \"s\": \"t\", \"ts\": %.3f, "
                    "\"pid\": 1, \"tid\": %u, \"args\": {\"command\": ",
          p->trace_events++ ? ",\n" : "", US(queued_ns), tid);
  json_string(p->trace, what);
  fprintf(p->trace, ", \"waited_us\": %.3f}}", US(submitted_ns) - US(queued_ns));
  /* submitted: its dependencies met, handed to the queue's worker */
  fprintf(p->trace, "%s{\"name\": \"submit\", \"cat\": \"queue\", \"ph\": \"i\", \"s\": \"t\", \"ts\": %.3f, "
                    "\"pid\": 1, \"tid\": %u, \"args\": {\"command\": ",
          p->trace_events++ ? ",\n" : "", US(submitted_ns), tid);
  json_string(p->trace, what);
  fputs("}}", p->trace);
  fprintf(p->trace, "%s{\"name\": ", p->trace_events++ ? ",\n" : "");
  json_string(p->trace, what);
  fprintf(p->trace, ", \"cat\": \"queue\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": 1, \"tid\": %u}",
          US(started_ns), US(ended_ns) - US(started_ns), tid);
#undef US
  pthread_mutex_unlock(&p->lock);
}

/* ---- SVG timeline --------------------------------------------------------- */

static const char *const palette[] = {"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e",
                                      "#17becf", "#8c564b", "#e377c2", "#bcbd22"};

static double nice_step(double range) {
  double raw = range / 8, p = 1;
  while (p * 10 <= raw) p *= 10;
  while (p > raw) p /= 10;
  return raw >= 5 * p ? 5 * p : raw >= 2 * p ? 2 * p : p;
}

/* The plot's time axis, piecewise: every idle gap longer than a tenth of
 * the busy time (the host's work between launches: 200 ms would otherwise
 * set the scale and make each launch a sliver) is drawn as a fixed-width
 * break, marked and labelled with its length; the busy pieces between the
 * breaks share the width. */
#define MAX_PIECES 64
#define BREAK_PX 28.0

typedef struct piece {
  double t0, t1; /* host microseconds */
  double x0, x1; /* plot pixels */
} piece_t;

typedef struct time_axis {
  piece_t piece[MAX_PIECES];
  uint32_t n;
} time_axis_t;

static int by_start(const void *a, const void *b) {
  const span_t *x = a, *y = b;
  return (x->t0 > y->t0) - (x->t0 < y->t0);
}

/* Sorts the spans by start and cuts the axis at the long gaps. */
static void build_axis(span_t *spans, size_t n, double plot_w, time_axis_t *ax) {
  qsort(spans, n, sizeof *spans, by_start);
  /* busy stretches: the union of the spans */
  double busy = 0, a = spans[0].t0, b = spans[0].t1;
  for (size_t i = 1; i <= n; i++) {
    if (i < n && spans[i].t0 <= b) {
      if (spans[i].t1 > b) b = spans[i].t1;
      continue;
    }
    busy += b - a;
    if (i < n) a = spans[i].t0, b = spans[i].t1;
  }
  /* pieces: stretches joined across the gaps too short to cut; a gap is
   * cut only while pieces remain (the last piece takes the rest) */
  const double min_gap = busy / 10;
  ax->n = 0;
  a = spans[0].t0, b = spans[0].t1;
  for (size_t i = 1; i <= n; i++) {
    if (i < n && (spans[i].t0 - b <= min_gap || ax->n + 1 == MAX_PIECES)) {
      if (spans[i].t1 > b) b = spans[i].t1;
      continue;
    }
    ax->piece[ax->n].t0 = a;
    ax->piece[ax->n++].t1 = b;
    if (i < n) a = spans[i].t0, b = spans[i].t1;
  }
  double total = 0;
  for (uint32_t k = 0; k < ax->n; k++) total += ax->piece[k].t1 - ax->piece[k].t0;
  /* Half the room shared evenly, half in proportion to time: a short
   * launch beside a long one stays readable (each piece has its own ticks). */
  double room = plot_w - BREAK_PX * (ax->n - 1), x = 0;
  for (uint32_t k = 0; k < ax->n; k++) {
    piece_t *pc = &ax->piece[k];
    double share = total > 0 ? (pc->t1 - pc->t0) / total : 1.0 / ax->n;
    double w = ax->n == 1 ? room : room * (0.5 / ax->n + 0.5 * share);
    pc->x0 = x;
    pc->x1 = x + w;
    x = pc->x1 + BREAK_PX;
  }
}

/* Where host time t is on the plot (t inside the timeline). */
static double axis_x(const time_axis_t *ax, double t) {
  uint32_t k = 0;
  while (k + 1 < ax->n && t >= ax->piece[k + 1].t0) k++;
  const piece_t *pc = &ax->piece[k];
  if (t <= pc->t0) return pc->x0;
  if (t >= pc->t1) return pc->x1;
  return pc->x0 + (t - pc->t0) * (pc->x1 - pc->x0) / (pc->t1 - pc->t0);
}

/* v without an exponent, with as many decimals as `step` needs. */
static void fmt_plain(char *out, size_t size, double v, double step) {
  int decimals = 0;
  for (double s = step; s > 0 && s < 1 - 1e-9 && decimals < 6; s *= 10) decimals++;
  snprintf(out, size, "%.*f", decimals, v);
}

/* A length in ms for a label: 1132 ms, 12.5 ms, 0.042 ms (never 1.13e+03). */
static void fmt_ms(char *out, size_t size, double ms) {
  snprintf(out, size, "%.*f ms", ms >= 100 ? 0 : ms >= 10 ? 1 : 3, ms);
}

/* The title of a cut gap from host time g0 to g1 (us): what of it no launch
 * had, and which launches were still running on the host then (their harts
 * drawn on the device's clock, shorter than the host's: exact timing). */
static void gap_title(const rvhal_profile_t *p, double g0, double g1, char *out, size_t size) {
  double busy = 0; /* the union of the launches' host times within the gap */
  size_t n = 0;
  char ran[256] = "";
  size_t rn = 0;
  double a = 0, b = -1;
  for (size_t i = 0; i < p->num_launches; i++) { /* launches are recorded in the order they completed */
    double s0 = p->launches[i].t0 > g0 ? p->launches[i].t0 : g0, s1 = p->launches[i].t1 < g1 ? p->launches[i].t1 : g1;
    if (s1 <= s0) continue;
    if (n++ < 4 && rn < sizeof ran)
      rn += (size_t)snprintf(ran + rn, sizeof ran - rn, "%s%" PRIu64, rn ? ", " : "", p->launches[i].seq);
    if (s0 > b) {
      if (b > a) busy += b - a;
      a = s0, b = s1;
    } else if (s1 > b) {
      b = s1;
    }
  }
  if (b > a) busy += b - a;
  char idle[32], total[32]; /* to the microsecond: a title is read closely */
  snprintf(idle, sizeof idle, "%.3f ms", (g1 - g0 - busy) / 1e3);
  snprintf(total, sizeof total, "%.3f ms", (g1 - g0) / 1e3);
  if (!n) {
    snprintf(out, size, "no launch for %s (not to scale)", idle);
    return;
  }
  char in_launch[32];
  snprintf(in_launch, sizeof in_launch, "%.3f ms", busy / 1e3);
  snprintf(out, size, "no launch for %s of these %s; for %s launch%s %s%s ran on the host with no hart "
           "activity drawn (its harts are on the device's clock) (not to scale)",
           idle, total, in_launch, n > 1 ? "es" : "", ran, n > 4 ? ", ..." : "");
}

/* The per-hart counters summed over the launches, as a table. */
static void svg_counter_table(FILE *f, const rvhal_profile_t *p, double x, double y, double row) {
  static const double col_w = 84;
  fprintf(f, "<g class=\"counters\"><text x=\"%.0f\" y=\"%.1f\" font-weight=\"bold\">per-hart counters, summed over "
             "%" PRIu64 " launch%s</text>\n", x, y, p->summed_launches, p->summed_launches == 1 ? "" : "es");
  y += row;
  fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"10\">hart</text>", x, y);
  for (size_t k = 0; k < NUM_COLUMNS; k++)
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%s</text>", x + 40 + (k + 1) * col_w,
            y, columns[k].heading);
  fputc('\n', f);
  for (uint32_t h = 0; h < p->sum_harts; h++) {
    y += row;
    fprintf(f, "<text class=\"hart_counters\" x=\"%.0f\" y=\"%.1f\" font-size=\"10\">%u</text>", x, y, h);
    for (size_t k = 0; k < NUM_COLUMNS; k++)
      fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\" data-counter=\"%s\" "
                 "data-hart=\"%u\">%" PRIu64 "</text>",
              x + 40 + (k + 1) * col_w, y, counter_names[columns[k].id], h, p->hart_sum[h][k]);
    fputc('\n', f);
  }
  fputs("</g>\n", f);
}

static void write_svg(rvhal_profile_t *p) {
  FILE *f = fopen(p->svg_path, "w");
  if (!f) return;
  uint32_t lanes = 0;
  double t0 = 1e300, t1 = 0;
  for (size_t i = 0; i < p->num_spans; i++) {
    if (p->spans[i].hart + 1 > lanes) lanes = p->spans[i].hart + 1;
    if (p->spans[i].t0 < t0) t0 = p->spans[i].t0;
    if (p->spans[i].t1 > t1) t1 = p->spans[i].t1;
  }
  const double left = 70, right = 20, top = 50, lane_h = 28, gap = 8, plot_w = 1000;
  const double table_row = 16, table_h = p->summed_launches ? (p->sum_harts + 2) * table_row + 16 : 0;
  const double height = top + lanes * (lane_h + gap) + 90 + table_h;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" "
             "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
          left + plot_w + right, height);
  fprintf(f, "<text x=\"%.0f\" y=\"22\" font-size=\"15\" font-weight=\"bold\">rvhal timeline: what each hart did"
             "</text>\n", left);
  if (!p->num_spans || t1 <= t0) {
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">no launch was recorded</text>\n</svg>\n", left, top + 20);
    fclose(f);
    return;
  }
  time_axis_t ax;
  build_axis(p->spans, p->num_spans, plot_w, &ax);
  for (uint32_t h = 0; h < lanes; h++) {
    double y = top + h * (lane_h + gap);
    fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">hart %u</text>\n", left - 8, y + lane_h / 2 + 4, h);
    fprintf(f, "<rect class=\"lane\" x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" fill=\"#f7f7f7\"/>\n", left,
            y, plot_w, lane_h);
  }
  const double lanes_h = lanes * (lane_h + gap) - gap;
  for (uint32_t k = 0; k + 1 < ax.n; k++) { /* the cut gaps: hatched, with their length and what ran */
    const double g0 = ax.piece[k].t1, g1 = ax.piece[k + 1].t0, x = left + ax.piece[k].x1;
    char title[512], label[32];
    gap_title(p, g0, g1, title, sizeof title);
    fmt_ms(label, sizeof label, (g1 - g0) / 1e3);
    fprintf(f, "<g class=\"gap\"><rect x=\"%.2f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" fill=\"#ffffff\" "
               "stroke=\"#888888\" stroke-dasharray=\"3,3\"><title>%s</title></rect>"
               "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\" fill=\"#555555\">%s</text></g>\n",
            x, top, BREAK_PX, lanes_h, title, x + BREAK_PX / 2, top - 4, label);
  }
  for (size_t i = 0; i < p->num_spans; i++) {
    const span_t *s = &p->spans[i];
    double x = left + axis_x(&ax, s->t0), w = axis_x(&ax, s->t1) - (x - left);
    if (w < 0.5) w = 0.5;
    double y = top + s->hart * (lane_h + gap);
    const char *fill = s->kind == SPAN_CALL ? palette[s->kernel % 8] : s->kind == SPAN_WAIT ? "#d62728" : "#c8c8c8";
    double inset = s->kind == SPAN_WAIT ? 6 : s->kind == SPAN_IDLE ? 10 : 2;
    fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" stroke=\"white\" "
               "stroke-width=\"0.3\"><title>hart %u, launch %" PRIu64 ", %s: %.3f-%.3f us",
            x, y + inset, w, lane_h - 2 * inset, fill, s->hart, s->launch,
            s->kind == SPAN_CALL ? p->kernels[s->kernel] : s->kind == SPAN_WAIT ? "barrier wait" : "idle",
            s->t0 - t0, s->t1 - t0);
    if (s->kind == SPAN_CALL)
      fprintf(f, ", %u group%s from (%u,%u,%u)", s->count, s->count == 1 ? "" : "s", s->group[0], s->group[1],
              s->group[2]);
    fputs("</title></rect>\n", f);
  }
  /* time axis: microseconds since the first span, ticked piece by piece */
  double axis_y = top + lanes * (lane_h + gap) + 4;
  for (uint32_t k = 0; k < ax.n; k++) {
    const piece_t *pc = &ax.piece[k];
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n", left + pc->x0, axis_y,
            left + pc->x1, axis_y);
    double len = pc->t1 - pc->t0, step = len > 0 ? nice_step(len * plot_w / (pc->x1 - pc->x0 + 1e-9)) : 1;
    double first = (pc->t0 - t0) / step, t = (double)(uint64_t)first * step;
    if (t < pc->t0 - t0 - 1e-9) t += step;
    for (uint32_t ticks = 0; t <= pc->t1 - t0 + 1e-9 && ticks < 64; t += step, ticks++) {
      double x = left + axis_x(&ax, t + t0);
      char tick[40];
      fmt_plain(tick, sizeof tick, t, step);
      fprintf(f, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>"
                 "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
              x, axis_y, x, axis_y + 5, x, axis_y + 18, tick);
    }
  }
  fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">microseconds%s</text>\n", left + plot_w, axis_y + 34,
          ax.n > 1 ? " (dashed breaks: idle gaps cut out; each piece has its own scale)" : "");
  /* legend */
  double ly = axis_y + 52, lx = left;
  for (uint32_t k = 0; k < p->num_kernels && k < 8; k++) {
    fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"12\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">%s"
               "</text>\n", lx, ly - 10, palette[k], lx + 18, ly, p->kernels[k]);
    lx += 30 + 7.0 * (double)strlen(p->kernels[k]);
  }
  fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"12\" fill=\"#d62728\"/><text x=\"%.0f\" y=\"%.0f\">"
             "barrier wait</text>\n", lx, ly - 10, lx + 18, ly);
  lx += 120;
  fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"12\" fill=\"#c8c8c8\"/><text x=\"%.0f\" y=\"%.0f\">"
             "idle</text>\n", lx, ly - 10, lx + 18, ly);
  if (p->dropped_spans)
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">(%zu more spans not drawn)</text>\n", lx + 80, ly, p->dropped_spans);
  if (p->summed_launches) svg_counter_table(f, p, left, ly + 26, table_row);
  fputs("</svg>\n", f);
  fclose(f);
}

void rvhal_profile_close(rvhal_profile_t *p) {
  if (!p) return;
  pthread_mutex_lock(&p->lock);
  csv_header(p); /* no launch ran */
  if (p->trace) {
    fputs("\n],\n\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"producer\": \"rvhal\"}}\n", p->trace);
  }
  if (p->svg_path) write_svg(p);
  pthread_mutex_unlock(&p->lock);
  free_profile(p);
}

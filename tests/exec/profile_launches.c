/* Profiles of a program with several launches and host work between them
 * (host/src/observe/profile.c; kernels: tests/exec/ex_misc.c, ex_barrier.c).
 *
 * A 2-hart device (fewer if the board has fewer) with profile =
 * "trace=A,svg=B" runs ex_asm_loop, sleeps 1000 ms on the host, writes a
 * buffer, then runs ex_bars through a queue and waits with queue_finish.
 * - SVG: the 1000 ms gap is cut out and marked (a "gap" group whose title
 *   gives the time no launch ran: the time between the two launches' spans
 *   on the trace's launches track, not the longer one between their harts'
 *   spans, which once was said to have no launch while one still ran), no
 *   number is written with an exponent (1.13e+03 ms), a table of per-hart
 *   counters summed over the launches has each hart's groups, which add up
 *   to the two launches', and each launch's kernel-call spans, parsed from
 *   the <rect>s and their titles, cover more than 20 % of the plot's width
 *   (the lanes' background rect); before the gaps were cut the 200 ms set
 *   the scale and each launch was a few pixels wide.
 * - Chrome trace: a process_name metadata event for pid 1 naming the
 *   device; the host tracks ("host: API calls", "host: launches ...",
 *   "host: waits") named once each, with a mem_write call (its bytes), one
 *   span per launch on the launches track (its launch number, not shorter
 *   than the harts' spans of it), the queue's submit instant and the
 *   queue_finish wait; each launch's span has its per-hart counters
 *   (args.per_hart), whose groups add up to the launch's. */
#include <time.h>

#include "exec_util.h"

#define GAP_MS 1000 /* past 1000 ms a label once became 1e+03 */

/* ---- SVG -------------------------------------------------------------------- */

static double attr(const char *tag, const char *end, const char *name) {
  char key[32];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *at = strstr(tag, key);
  if (!at || at > end) return -1;
  return strtod(at + strlen(key), NULL);
}

static double no_launch_ms = -1;    /* between the launches, from the trace's launches track */
static uint64_t groups_total[2];     /* of each launch */

static void check_svg(const char *path, const uint64_t seq[2], const char *const kernel[2], uint32_t harts) {
  size_t len;
  char *text = dt_read_file(path, &len);
  CHECK_MSG(text != NULL, "SVG %s was not written", path);
  if (!text) return;
  double plot_x = -1, plot_w = -1, lo[2] = {1e300, 1e300}, hi[2] = {-1, -1};
  size_t calls[2] = {0, 0};
  for (const char *p = text; (p = strstr(p, "<rect "));) {
    const char *end = strchr(p, '>');
    if (!end) break;
    double x = attr(p, end, "x"), w = attr(p, end, "width");
    if (strstr(p, "class=\"lane\"") && strstr(p, "class=\"lane\"") < end) {
      plot_x = x;
      plot_w = w;
    }
    const char *title = strstr(end, "<title>"), *next = strstr(end, "<rect ");
    if (title && (!next || title < next)) {
      unsigned hart;
      unsigned long long s;
      char name[64];
      if (sscanf(title, "<title>hart %u, launch %llu, %63[^:]:", &hart, &s, name) == 3)
        for (int i = 0; i < 2; i++)
          if (s == seq[i] && !strcmp(name, kernel[i])) {
            calls[i]++;
            if (x < lo[i]) lo[i] = x;
            if (x + w > hi[i]) hi[i] = x + w;
          }
    }
    p = end;
  }
  CHECK_MSG(plot_w > 0 && plot_x >= 0, "SVG: no lane background (class=\"lane\") to measure the plot by");
  const char *gap = strstr(text, "class=\"gap\"");
  CHECK_MSG(gap != NULL, "SVG: the %d ms between the launches is not marked as a cut gap", GAP_MS);
  if (gap) {
    const char *t = strstr(gap, "<title>no launch for ");
    double ms = t ? strtod(t + strlen("<title>no launch for "), NULL) : -1;
    CHECK_MSG(ms >= GAP_MS - 10, "SVG: the gap's title says %.3f ms, the host slept %d ms", ms, GAP_MS);
    CHECK_MSG(no_launch_ms > 0 && ms > no_launch_ms - 0.005 && ms < no_launch_ms + 0.005,
              "SVG: the gap's title says no launch for %.3f ms; between the launches' host spans: %.3f ms", ms,
              no_launch_ms);
  }
  CHECK_MSG(!strstr(text, "e+") && !strstr(text, "e-0"), "SVG: a number with an exponent: ...%.40s",
            strstr(text, "e+") ? strstr(text, "e+") - 20 : strstr(text, "e-0") - 20);
  /* the per-hart counters: each hart's groups, all harts' adding up */
  const char *table = strstr(text, "class=\"counters\"");
  CHECK_MSG(table != NULL, "SVG: no per-hart counter table");
  uint64_t groups = 0;
  uint32_t rows = 0;
  for (const char *q = table; q && (q = strstr(q, "data-counter=\"work_groups\" data-hart=\"")); q++) {
    const char *v = strchr(q, '>');
    if (v) groups += strtoull(v + 1, NULL, 10), rows++;
  }
  CHECK_MSG(rows == harts, "SVG: %u harts' groups in the counter table, the device has %u", rows, harts);
  CHECK_MSG(groups == groups_total[0] + groups_total[1], "SVG: the harts' groups add up to %llu, the launches had %llu",
            (unsigned long long)groups, (unsigned long long)(groups_total[0] + groups_total[1]));
  for (int i = 0; i < 2 && plot_w > 0; i++) {
    double frac = calls[i] ? (hi[i] - lo[i]) / plot_w : 0;
    printf("  SVG: launch %" PRIu64 " (%s): %zu call spans over %.1f%% of the plot\n", seq[i], kernel[i], calls[i],
           100 * frac);
    CHECK_MSG(calls[i] > 0, "SVG: launch %" PRIu64 " (%s) has no kernel-call span", seq[i], kernel[i]);
    CHECK_MSG(frac > 0.20, "SVG: launch %" PRIu64 " (%s) spans %.1f%% of the plot's width, want more than 20%%",
              seq[i], kernel[i], 100 * frac);
  }
  free(text);
}

/* ---- trace -------------------------------------------------------------------- */

static void check_trace(const char *path, const uint64_t seq[2], uint32_t harts) {
  json_t *root;
  char *text;
  const json_t *events = ex_load_trace(path, &root, &text);
  if (!events) goto out;
  static const char *const tracks[3] = {"host: API calls", "host: launches (submit to completion)", "host: waits"};
  int process_named = 0, track_named[3] = {0}, writes = 0, submits = 0, finishes = 0;
  double track_tid[3] = {-1, -1, -1};
  int launch_spans[2] = {0, 0};
  double launch_dur[2] = {0, 0}, hart_dur[2] = {0, 0}, launch_ts[2] = {0, 0};
  for (int pass = 0; pass < 2; pass++) /* names first: the spans are matched by tid */
    for (size_t i = 0; i < events->count; i++) {
      const json_t *e = events->items[i];
      const char *ph = json_get_string(e, "ph"), *name = json_get_string(e, "name");
      const json_t *args = json_get(e, "args");
      double tid = json_get_number(e, "tid", -1), pid = json_get_number(e, "pid", -1);
      if (!ph || !name) continue;
      if (pass == 0 && !strcmp(ph, "M")) {
        const char *n = json_get_string(args, "name");
        if (!strcmp(name, "process_name") && pid == 1 && n && strstr(n, "rvhal device")) process_named++;
        for (int t = 0; t < 3; t++)
          if (!strcmp(name, "thread_name") && n && !strcmp(n, tracks[t])) track_named[t]++, track_tid[t] = tid;
        continue;
      }
      if (pass == 0) continue;
      if (!strcmp(ph, "X") && tid == track_tid[0] && !strcmp(name, "mem_write"))
        writes += json_get_number(args, "bytes", -1) == 4096;
      if (!strcmp(ph, "X") && tid == track_tid[2] && strstr(name, "finish")) finishes++;
      if (!strcmp(ph, "i") && !strcmp(name, "submit")) submits++;
      double launch = json_get_number(args, "launch", -1), dur = json_get_number(e, "dur", -1);
      for (int k = 0; k < 2; k++) {
        if (launch != (double)seq[k] || strcmp(ph, "X")) continue;
        if (tid == track_tid[1]) {
          launch_spans[k]++, launch_dur[k] = dur, launch_ts[k] = json_get_number(e, "ts", -1);
          /* its per-hart counters: one value a hart, the groups adding up */
          const json_t *per = json_get(args, "per_hart"), *g = per ? json_get(per, "work_groups") : NULL;
          double sum = 0;
          for (size_t h = 0; g && h < g->count; h++) sum += g->items[h]->number;
          CHECK_MSG(g && g->count == harts && sum == json_get_number(args, "groups", -2),
                    "trace: launch %" PRIu64 ": per_hart.work_groups has %zu values adding up to %.0f, the launch had %.0f "
                    "groups", seq[k], g ? g->count : 0, sum, json_get_number(args, "groups", -2));
          groups_total[k] = (uint64_t)json_get_number(args, "groups", 0);
        }
        else if (tid >= 0 && tid < harts && dur > hart_dur[k]) hart_dur[k] = dur;
      }
    }
  CHECK_MSG(process_named == 1, "trace: %d process_name events naming the rvhal device for pid 1", process_named);
  for (int t = 0; t < 3; t++) CHECK_MSG(track_named[t] == 1, "trace: track \"%s\" named %d times", tracks[t], track_named[t]);
  CHECK_MSG(writes == 1, "trace: %d mem_write calls of 4096 bytes on the API-calls track, expected 1", writes);
  CHECK_MSG(submits >= 1, "trace: no queue submit instant");
  CHECK_MSG(finishes == 1, "trace: %d queue finish waits on the waits track, expected 1", finishes);
  for (int k = 0; k < 2; k++) {
    CHECK_MSG(launch_spans[k] == 1, "trace: launch %" PRIu64 " has %d spans on the launches track", seq[k],
              launch_spans[k]);
    /* the host saw it from submit to completion: not shorter than any hart's part (1 us of rounding) */
    CHECK_MSG(launch_dur[k] + 1 >= hart_dur[k], "trace: launch %" PRIu64 ": host span %.3f us, a hart's %.3f us",
              seq[k], launch_dur[k], hart_dur[k]);
  }
  if (launch_spans[0] == 1 && launch_spans[1] == 1) no_launch_ms = (launch_ts[1] - launch_ts[0] - launch_dur[0]) / 1e3;
out:
  json_free(root);
  free(text);
}

int main(void) {
  ex_clean_env();
  char dir[] = "/tmp/rvhal-exec-profile-launches-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char trace[256], svg[256], spec[600];
  snprintf(trace, sizeof trace, "%s/p.json", dir);
  snprintf(svg, sizeof svg, "%s/p.svg", dir);
  snprintf(spec, sizeof spec, "trace=%s,svg=%s", trace, svg);
  rvhal_device_options_t o = {0};
  o.profile = spec;
  rvhal_device_t *d = fixture_device_opts(2, &o);
  const uint32_t harts = rvhal_device_get_info(d)->num_harts;
  hal_program_t pm = fixture_program(d, "ex_misc"), pb = fixture_program(d, "ex_barrier");
  hal_kernel_t kloop = fixture_kernel(d, pm, "ex_asm_loop"), kbars = fixture_kernel(d, pb, "ex_bars");
  hal_addr_t buf = dt_buffer(d, 4096, NULL);
  static const char *const kernel[2] = {"ex_asm_loop", "ex_bars"};
  uint64_t seq[2] = {0, 0};
  int ok = 1;

  uint64_t n = 2000, g[3] = {8 * harts, 1, 1}, l[3] = {1, 1, 1};
  hal_arg_t aloop[2] = {rvhal_arg_global(buf), rvhal_arg_value(&n, rvhal_device_get_info(d)->word_size)};
  ok &= ex_launch(d, pm, kloop, 1, g, l, aloop, 2, NULL, "ex_asm_loop") == RVHAL_OK;
  rvhal_launch_report_t rep;
  if (ok && !rvhal_device_last_launch(d, &rep)) seq[0] = rep.seq;

  struct timespec pause = {GAP_MS / 1000, (GAP_MS % 1000) * 1000000L};
  nanosleep(&pause, NULL); /* the host doing something else */
  static uint8_t bytes[4096];
  CHECK_OK(rvhal_mem_write(d, buf, bytes, sizeof bytes));

  rvhal_queue_t *q = NULL;
  CHECK_OK(rvhal_queue_create(d, &q));
  uint32_t nbar = 2;
  hal_arg_t abars[2] = {rvhal_arg_global(buf), rvhal_arg_value(&nbar, 4)};
  hal_ndrange_t nd = {{0, 0, 0}, {16 * 8, 1, 1}, {8, 1, 1}};
  if (q) {
    CHECK_OK(rvhal_enqueue_kernel(q, NULL, pb, kbars, &nd, abars, 2, 1, NULL, NULL));
    CHECK_OK(rvhal_queue_finish(q, 60000));
    if (!rvhal_device_last_launch(d, &rep)) seq[1] = rep.seq;
    rvhal_queue_destroy(q);
  }
  rvhal_device_delete(d); /* writes the files */
  CHECK_MSG(seq[0] && seq[1] && seq[0] != seq[1], "launches %" PRIu64 " and %" PRIu64, seq[0], seq[1]);
  if (seq[0] && seq[1]) {
    check_trace(trace, seq, harts); /* first: the SVG is checked against it */
    check_svg(svg, seq, kernel, harts);
  }
  if (!check_failures_) {
    unlink(trace);
    unlink(svg);
    rmdir(dir);
  } else {
    printf("  profile files kept in %s\n", dir);
  }
  return check_result("exec.profile_launches");
}

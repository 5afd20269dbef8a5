/* Launch profiles (device option `profile`, $RVHAL_PROFILE; host/src/
 * profile.c; kernels: tests/exec/ex_barrier.c).
 *
 * A 4-hart device with profile = "table,csv=A,trace=B,svg=C" (paths in a
 * mkdtemp directory) runs 3 launches of different shapes — every hart, one
 * group per team of 2 harts, 2 harts with several groups per call — and is
 * deleted; then:
 * - table (stderr, captured): a header line per launch naming its number
 *   and kernel, a row per hart and a total row;
 * - CSV: the header, then exactly harts x launches rows, each with as many
 *   columns as the header; every number equals what rvhal_counter_read gave
 *   after that launch, and exact what rvhal_counters_exact said then (1 on
 *   this exact-timing device, at least for one hart per group);
 * - trace: valid JSON (checked by the strict parser of mini_json.h, and by
 *   python3's json module when python3 is installed; the process name and
 *   host tracks are profile_launches.c's to check), a "hart N" name for
 *   every hart, and for every launch a kernel-call event on the tid of
 *   every hart that took part and none on the others; their "groups" add up
 *   to the hart's GROUPS counter (one hart per group), calls on one hart do
 *   not overlap;
 * - SVG: starts with <svg, ends with </svg>, balanced tags, one "hart N"
 *   label per hart, a span titled with each launch on each hart that took
 *   part.
 * A bad profile specification ("tabel", "csv=", an unwritable path) given
 * as the option makes device_create fail with INVALID_ARGUMENT (HOST_IO for
 * the path) naming the item, leaving no QEMU behind. The same typo in
 * $RVHAL_PROFILE (a user's, not the program's) is said once on stderr, and
 * devices are made without a profile. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "exec_util.h"

#define HARTS 4
#define LAUNCHES 3

typedef struct launch_info {
  const char *kernel;
  uint64_t seq;
  uint32_t harts, harts_per_group;
  uint64_t chunk;
  int exact; /* rvhal_counters_exact() right after the launch */
  ex_counts_t c;
} launch_info_t;

/* ---- CSV ---------------------------------------------------------------- */

static const char *const csv_columns[] = {"launch", "kernel", "hart", "work_groups", "work_items", "instructions",
                                          "cycles", "kernel_cycles", "barriers", "barrier_wait_cycles", "idle_cycles",
                                          "context_switches", "vector_groups", "fp_groups", "exact"};
#define NCOL (sizeof csv_columns / sizeof *csv_columns)
static const int csv_counter[NCOL] = {-1, -1, -1, RVHAL_HART_COUNTER_GROUPS, RVHAL_HART_COUNTER_ITEMS,
                                      RVHAL_HART_COUNTER_INSTRET, RVHAL_HART_COUNTER_CYCLES,
                                      RVHAL_HART_COUNTER_KERNEL_CYCLES, RVHAL_HART_COUNTER_BARRIERS,
                                      RVHAL_HART_COUNTER_BARRIER_WAIT_CYCLES, RVHAL_HART_COUNTER_IDLE_CYCLES,
                                      RVHAL_HART_COUNTER_CONTEXT_SWITCHES, RVHAL_HART_COUNTER_VECTOR_GROUPS,
                                      RVHAL_HART_COUNTER_FP_GROUPS, -1};

/* Splits a line at commas, in place; returns the number of fields. */
static size_t split(char *line, char **fields, size_t cap) {
  size_t n = 0;
  for (char *p = line;;) {
    if (n < cap) fields[n] = p;
    n++;
    char *comma = strchr(p, ',');
    if (!comma) break;
    *comma = '\0';
    p = comma + 1;
  }
  return n;
}

static int parse_u64(const char *s, uint64_t *out) {
  if (!*s) return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || *s == '-') return 0;
  *out = v;
  return 1;
}

static void check_csv(const char *path, const launch_info_t *L) {
  size_t len;
  char *text = dt_read_file(path, &len);
  CHECK_MSG(text != NULL, "CSV %s was not written", path);
  if (!text) return;
  CHECK_MSG(len > 0 && text[len - 1] == '\n', "CSV does not end with a newline");
  int col[NCOL];
  for (size_t i = 0; i < NCOL; i++) col[i] = -1;
  size_t ncols = 0, rows = 0;
  int seen[LAUNCHES][HARTS] = {{0}};
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    char *f[64];
    if (!ncols) { /* the header */
      ncols = split(line, f, 64);
      CHECK_MSG(ncols == NCOL, "CSV header has %zu columns, expected %zu", ncols, NCOL);
      for (size_t i = 0; i < ncols && i < 64; i++)
        for (size_t k = 0; k < NCOL; k++)
          if (!strcmp(f[i], csv_columns[k])) col[k] = (int)i;
      for (size_t k = 0; k < NCOL; k++) CHECK_MSG(col[k] >= 0, "CSV header lacks column %s", csv_columns[k]);
      continue;
    }
    rows++;
    size_t n = split(line, f, 64);
    CHECK_MSG(n == ncols, "CSV row %zu has %zu fields, the header %zu", rows, n, ncols);
    if (n != ncols || n > 64) continue;
    int ok = 1;
    for (size_t k = 0; k < NCOL; k++) ok &= col[k] >= 0;
    if (!ok) continue;
    uint64_t seq, hart, exact;
    CHECK_MSG(parse_u64(f[col[0]], &seq) && parse_u64(f[col[2]], &hart) && parse_u64(f[col[NCOL - 1]], &exact),
              "CSV row %zu: launch '%s' hart '%s' exact '%s'", rows, f[col[0]], f[col[2]], f[col[NCOL - 1]]);
    int li = -1;
    for (int i = 0; i < LAUNCHES; i++)
      if (L[i].seq == seq) li = i;
    CHECK_MSG(li >= 0 && hart < HARTS, "CSV row %zu: launch %" PRIu64 ", hart %" PRIu64 " unknown", rows, seq, hart);
    if (li < 0 || hart >= HARTS) continue;
    seen[li][hart]++;
    CHECK_MSG(!strcmp(f[col[1]], L[li].kernel), "CSV row %zu: kernel '%s', launch %" PRIu64 " ran %s", rows, f[col[1]],
              seq, L[li].kernel);
    CHECK_MSG(exact == (uint64_t)L[li].exact, "CSV row %zu: exact = %" PRIu64 ", rvhal_counters_exact() said %d after "
              "launch %" PRIu64, rows, exact, L[li].exact, seq);
    for (size_t k = 3; k < NCOL - 1; k++) {
      uint64_t v;
      int num = parse_u64(f[col[k]], &v);
      CHECK_MSG(num, "CSV row %zu: %s '%s' is not a number", rows, csv_columns[k], f[col[k]]);
      uint64_t want = L[li].c.v[csv_counter[k]][hart];
      CHECK_MSG(!num || v == want, "CSV launch %" PRIu64 " hart %" PRIu64 ": %s = %" PRIu64 ", counter_read gave %" PRIu64,
                seq, hart, csv_columns[k], v, want);
    }
  }
  CHECK_MSG(rows == HARTS * LAUNCHES, "CSV has %zu rows, expected %d harts x %d launches", rows, HARTS, LAUNCHES);
  for (int i = 0; i < LAUNCHES; i++)
    for (int h = 0; h < HARTS; h++)
      CHECK_MSG(seen[i][h] == 1, "CSV: launch %" PRIu64 " hart %d appears %d times", L[i].seq, h, seen[i][h]);
  free(text);
}

/* ---- trace JSON ---------------------------------------------------------- */

static void json_self_test(void) {
  static const char *const good[] = {"{}", "[]", " {\"a\": [1, -2.5e3, true, false, null, \"x\\u0041\\n\"]} ",
                                     "0", "\"\""};
  static const char *const bad[] = {"",          "{",        "[1,]",      "{\"a\" 1}", "{\"a\":1,}", "[01]",
                                    "[1.]",      "[.5]",     "\"\\x\"",   "[tru]",     "{} {}",     "{'a':1}",
                                    "[\"a\nb\"]", "[1e]",    "[-]",       "{\"a\":}"};
  char err[160];
  for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
    json_t *v = json_parse(good[i], strlen(good[i]), err, sizeof err);
    CHECK_MSG(v != NULL, "JSON self-test: valid %s rejected: %s", good[i], err);
    json_free(v);
  }
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    json_t *v = json_parse(bad[i], strlen(bad[i]), err, sizeof err);
    CHECK_MSG(v == NULL, "JSON self-test: invalid %s accepted", bad[i]);
    json_free(v);
  }
}

typedef struct call_span {
  double t0, t1;
} call_span_t;

static int span_cmp(const void *a, const void *b) {
  const call_span_t *x = a, *y = b;
  return (x->t0 > y->t0) - (x->t0 < y->t0);
}

static void check_trace(const char *path, const launch_info_t *L) {
  json_t *root;
  char *text;
  const json_t *events = ex_load_trace(path, &root, &text);
  if (!events) goto out;
  /* An independent opinion, where available. */
  if (system("command -v python3 >/dev/null 2>&1") == 0) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'", path);
    CHECK_MSG(system(cmd) == 0, "python3's json module rejects %s", path);
  } else {
    printf("  (python3 not found: skipping its check of the trace JSON; the built-in parser accepted it)\n");
  }
  int named[HARTS] = {0};
  uint64_t calls[LAUNCHES][HARTS] = {{0}}, groups[LAUNCHES][HARTS] = {{0}};
  static call_span_t spans[LAUNCHES][HARTS][512];
  size_t nspans[LAUNCHES][HARTS] = {{0}};
  size_t bad_events = 0;
  for (size_t i = 0; i < events->count; i++) {
    const json_t *e = events->items[i];
    const char *ph = json_get_string(e, "ph"), *name = json_get_string(e, "name");
    double tid = json_get_number(e, "tid", -1);
    /* the process's name and the host's tracks (tests/exec/profile_launches.c checks them) */
    if (ph && name && !strcmp(ph, "M") && tid < 0 && (!strcmp(name, "process_name") || !strcmp(name, "process_sort_index")))
      continue;
    if (ph && name && tid >= 900 && (!strcmp(ph, "M") || !strcmp(ph, "X") || !strcmp(ph, "i"))) continue;
    int ok = e->type == JSON_OBJECT && ph && name && tid >= 0 && tid < HARTS && tid == (int)tid &&
             json_get_number(e, "pid", -1) >= 0;
    if (ok && !strcmp(ph, "M")) {
      const char *tn = json_get_string(json_get(e, "args"), "name");
      char want[16];
      snprintf(want, sizeof want, "hart %d", (int)tid);
      ok = !strcmp(name, "thread_name") && tn && !strcmp(tn, want);
      if (ok) named[(int)tid]++;
    } else if (ok && !strcmp(ph, "X")) {
      const json_t *args = json_get(e, "args");
      const char *cat = json_get_string(e, "cat"), *kernel = json_get_string(args, "kernel");
      double ts = json_get_number(e, "ts", -1), dur = json_get_number(e, "dur", -1);
      double launch = json_get_number(args, "launch", -1);
      int li = -1;
      for (int k = 0; k < LAUNCHES; k++)
        if ((double)L[k].seq == launch) li = k;
      ok = cat && kernel && ts >= 0 && dur >= 0 && li >= 0 && !strcmp(kernel, L[li].kernel);
      if (ok && !strcmp(cat, "kernel")) {
        const json_t *fg = json_get(args, "first_group");
        double g = json_get_number(args, "groups", -1);
        ok = fg && fg->type == JSON_ARRAY && fg->count == 3 && g >= 1 && strstr(name, L[li].kernel) == name;
        if (ok) {
          int h = (int)tid;
          calls[li][h]++;
          groups[li][h] += (uint64_t)g;
          if (nspans[li][h] < 512) spans[li][h][nspans[li][h]++] = (call_span_t){ts, ts + dur};
        }
      } else if (ok) {
        ok = !strcmp(cat, "barrier") || !strcmp(cat, "idle");
      }
    } else {
      ok = 0;
    }
    if (!ok && bad_events++ < 3) fprintf(stderr, "trace: event %zu is not as expected\n", i);
  }
  CHECK_MSG(bad_events == 0, "trace: %zu events lack fields or have unexpected values", bad_events);
  for (int h = 0; h < HARTS; h++) CHECK_MSG(named[h] == 1, "trace: hart %d is named %d times", h, named[h]);
  for (int li = 0; li < LAUNCHES; li++) {
    for (int h = 0; h < HARTS; h++) {
      int took_part = L[li].c.v[RVHAL_HART_COUNTER_ITEMS][h] > 0;
      CHECK_MSG(took_part == ((uint32_t)h < L[li].harts), "launch %" PRIu64 ": hart %d ran %" PRIu64
                " items, the launch used %u harts", L[li].seq, h, L[li].c.v[RVHAL_HART_COUNTER_ITEMS][h], L[li].harts);
      CHECK_MSG(took_part ? calls[li][h] > 0 : calls[li][h] == 0,
                "trace: launch %" PRIu64 " (%s): hart %d %s and has %" PRIu64 " kernel-call events", L[li].seq,
                L[li].kernel, h, took_part ? "took part" : "sat out", calls[li][h]);
      if (L[li].harts_per_group == 1)
        CHECK_MSG(groups[li][h] == L[li].c.v[RVHAL_HART_COUNTER_GROUPS][h],
                  "trace: launch %" PRIu64 ": hart %d's calls have %" PRIu64 " groups, its GROUPS counter %" PRIu64,
                  L[li].seq, h, groups[li][h], L[li].c.v[RVHAL_HART_COUNTER_GROUPS][h]);
      else if (took_part) /* every member of a team calls the kernel for each of the team's groups */
        CHECK_MSG(groups[li][h] == L[li].c.v[RVHAL_HART_COUNTER_GROUPS][h - h % L[li].harts_per_group],
                  "trace: launch %" PRIu64 ": team hart %d's calls have %" PRIu64 " groups, its leader's GROUPS %" PRIu64,
                  L[li].seq, h, groups[li][h], L[li].c.v[RVHAL_HART_COUNTER_GROUPS][h - h % L[li].harts_per_group]);
      if (L[li].chunk > 1 && calls[li][h])
        CHECK_MSG(groups[li][h] == calls[li][h] * L[li].chunk,
                  "trace: launch %" PRIu64 ": hart %d: %" PRIu64 " calls with %" PRIu64 " groups, chunk %" PRIu64,
                  L[li].seq, h, calls[li][h], groups[li][h], L[li].chunk);
      qsort(spans[li][h], nspans[li][h], sizeof(call_span_t), span_cmp);
      for (size_t k = 1; k < nspans[li][h]; k++)
        CHECK_MSG(spans[li][h][k].t0 >= spans[li][h][k - 1].t1 - 1e-3,
                  "trace: launch %" PRIu64 ": hart %d: kernel calls overlap (%.3f-%.3f and %.3f-%.3f us)", L[li].seq,
                  h, spans[li][h][k - 1].t0, spans[li][h][k - 1].t1, spans[li][h][k].t0, spans[li][h][k].t1);
    }
  }
out:
  json_free(root);
  free(text);
}

/* ---- SVG ------------------------------------------------------------------ */

/* Tags balance: every <x ...> is closed by </x> in order, or is <x .../>. */
static int xml_balanced(const char *s, char *why, size_t cap) {
  char stack[64][32];
  int depth = 0;
  for (const char *p = s; (p = strchr(p, '<'));) {
    const char *end = strchr(p, '>');
    if (!end) return snprintf(why, cap, "unclosed '<' at byte %zu", (size_t)(p - s)), 0;
    if (p[1] == '?' || p[1] == '!') {
      p = end + 1;
      continue;
    }
    int closing = p[1] == '/';
    const char *n = p + 1 + closing;
    size_t nl = strcspn(n, " \t\n/>");
    if (nl == 0 || nl >= 32) return snprintf(why, cap, "bad tag name at byte %zu", (size_t)(p - s)), 0;
    if (memchr(p + 1, '<', (size_t)(end - p - 1)))
      return snprintf(why, cap, "'<' inside a tag at byte %zu", (size_t)(p - s)), 0;
    if (closing) {
      if (!depth || strncmp(stack[depth - 1], n, nl) || stack[depth - 1][nl])
        return snprintf(why, cap, "</%.*s> at byte %zu closes <%s>", (int)nl, n, (size_t)(p - s),
                        depth ? stack[depth - 1] : "nothing"), 0;
      depth--;
    } else if (end[-1] != '/') {
      if (depth == 64) return snprintf(why, cap, "nested too deeply"), 0;
      memcpy(stack[depth], n, nl);
      stack[depth++][nl] = '\0';
    }
    p = end + 1;
  }
  if (depth) return snprintf(why, cap, "<%s> never closed", stack[depth - 1]), 0;
  return 1;
}

static size_t count_of(const char *s, const char *needle) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

static void check_svg(const char *path, const launch_info_t *L) {
  size_t len;
  char *text = dt_read_file(path, &len);
  CHECK_MSG(text != NULL, "SVG %s was not written", path);
  if (!text) return;
  while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) text[--len] = '\0';
  CHECK_MSG(!strncmp(text, "<svg", 4), "SVG starts with '%.20s'", text);
  CHECK_MSG(len >= 6 && !strcmp(text + len - 6, "</svg>"), "SVG ends with '%s'", len >= 20 ? text + len - 20 : text);
  char why[160];
  CHECK_MSG(xml_balanced(text, why, sizeof why), "SVG tags do not balance: %s", why);
  for (int h = 0; h <= HARTS; h++) {
    char label[32];
    snprintf(label, sizeof label, ">hart %d</text>", h);
    size_t n = count_of(text, label);
    CHECK_MSG(n == (h < HARTS ? 1u : 0u), "SVG has %zu labels \"hart %d\"", n, h);
  }
  for (int li = 0; li < LAUNCHES; li++)
    for (uint32_t h = 0; h < HARTS; h++) {
      char title[64];
      snprintf(title, sizeof title, "<title>hart %u, launch %" PRIu64 ", %s:", h, L[li].seq, L[li].kernel);
      size_t n = count_of(text, title);
      CHECK_MSG(h < L[li].harts ? n > 0 : n == 0, "SVG: hart %u, launch %" PRIu64 " (%u harts): %zu call spans", h,
                L[li].seq, L[li].harts, n);
    }
  free(text);
}

/* ---- table ------------------------------------------------------------------ */

static void check_table(const char *path, const launch_info_t *L) {
  size_t len;
  char *text = dt_read_file(path, &len);
  CHECK_MSG(text != NULL, "captured stderr %s missing", path);
  if (!text) return;
  printf("  --- table (stderr) ---\n%s  ---\n", text);
  for (int li = 0; li < LAUNCHES; li++) {
    char head[96];
    snprintf(head, sizeof head, "rvhal profile: launch %" PRIu64 " %s,", L[li].seq, L[li].kernel);
    const char *at = strstr(text, head);
    CHECK_MSG(at != NULL, "table: no line \"%s\"", head);
    if (!at) continue;
    /* The rows that follow: harts 0..3 then total, with the counters. */
    const char *p = strchr(at, '\n');
    int rows = 0, total = 0;
    while (p && *++p && strncmp(p, "rvhal profile: launch", 21)) {
      unsigned h;
      unsigned long long groups, items;
      if (sscanf(p, " %u %llu %llu", &h, &groups, &items) == 3 && h < HARTS) {
        CHECK_MSG(groups == L[li].c.v[RVHAL_HART_COUNTER_GROUPS][h] && items == L[li].c.v[RVHAL_HART_COUNTER_ITEMS][h],
                  "table: launch %" PRIu64 " hart %u: %llu groups %llu items", L[li].seq, h, groups, items);
        rows++;
      } else if (sscanf(p, " total %llu %llu", &groups, &items) == 2) {
        CHECK_MSG(groups == ex_sum(&L[li].c, RVHAL_HART_COUNTER_GROUPS) && items == ex_sum(&L[li].c, RVHAL_HART_COUNTER_ITEMS),
                  "table: launch %" PRIu64 " total: %llu groups %llu items", L[li].seq, groups, items);
        total++;
      }
      p = strchr(p, '\n');
    }
    CHECK_MSG(rows == HARTS && total == 1, "table: launch %" PRIu64 ": %d hart rows and %d total rows", L[li].seq,
              rows, total);
  }
  free(text);
}

/* ---- bad specifications ------------------------------------------------------ */

static void check_bad_spec(const char *spec, int via_env, int status, const char *needle) {
  rvhal_device_options_t o = {0};
  o.num_harts = 1;
  if (via_env) setenv("RVHAL_PROFILE", spec, 1);
  else o.profile = spec;
  rvhal_device_t *d = NULL;
  char what[300];
  snprintf(what, sizeof what, "device_create with %s \"%s\"", via_env ? "RVHAL_PROFILE=" : "profile =", spec);
  int rc = rvhal_device_create(0, &o, &d);
  CHECK_MSG(rc == status && strstr(rvhal_last_error(), needle), "%s: %s (%d) \"%s\", expected %s naming \"%s\"", what,
            rvhal_status_name(rc), rc, rvhal_last_error(), rvhal_status_name(status), needle);
  if (rc == 0) rvhal_device_delete(d);
  if (via_env) unsetenv("RVHAL_PROFILE");
  pid_t pids[8];
  int left = dt_find_qemu(getpid(), NULL, pids, 8);
  CHECK_MSG(left == 0, "%s: %d QEMU processes left behind (pid %d)", what, left, left > 0 ? (int)pids[0] : 0);
}

/* $RVHAL_PROFILE=tabel: two devices made, each without a profile (no
 * exact timing forced), one line on stderr naming the word. */
static void check_env_typo(void) {
  char path[] = "/tmp/rvhal-profile-typo-XXXXXX";
  int fd = mkstemp(path), saved = dup(2);
  CHECK(fd >= 0 && saved >= 0);
  if (fd < 0 || saved < 0) return;
  unlink(path);
  fflush(stderr);
  dup2(fd, 2);
  setenv("RVHAL_PROFILE", "tabel", 1);
  setenv("RVHAL_NO_WARM_QEMU", "1", 1); /* no spare QEMU for a second device alike: the checks count QEMUs */
  int rc[2];
  for (int i = 0; i < 2; i++) {
    rvhal_device_options_t o = {0};
    o.num_harts = 1;
    rvhal_device_t *d = NULL;
    rc[i] = rvhal_device_create(0, &o, &d);
    if (rc[i] == RVHAL_OK) {
      CHECK_MSG(rvhal_device_get_info(d)->timing != RVHAL_TIMING_EXACT || getenv("RVHAL_TIMING"),
                "RVHAL_PROFILE=tabel: the device runs in exact timing, as a profile would ask");
      rvhal_device_delete(d);
    }
  }
  unsetenv("RVHAL_PROFILE");
  unsetenv("RVHAL_NO_WARM_QEMU");
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char text[4096];
  ssize_t n = pread(fd, text, sizeof text - 1, 0);
  close(fd);
  text[n > 0 ? n : 0] = 0;
  fputs(text, stderr);
  for (int i = 0; i < 2; i++)
    CHECK_MSG(rc[i] == RVHAL_OK, "RVHAL_PROFILE=tabel: device_create %d: %s: %s", i, rvhal_status_name(rc[i]),
              rvhal_last_error());
  const char *w = strstr(text, "RVHAL_PROFILE ignored");
  CHECK_MSG(w && strstr(w, "'tabel'") && !strstr(w + 1, "RVHAL_PROFILE ignored"),
            "RVHAL_PROFILE=tabel: stderr should say once that it was ignored, naming the word: \"%s\"", text);
}

int main(void) {
  ex_clean_env();
  json_self_test();
  char dir[] = "/tmp/rvhal-exec-profile-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char csv[256], trace[256], svg[256], table[256], spec[1024];
  snprintf(csv, sizeof csv, "%s/p.csv", dir);
  snprintf(trace, sizeof trace, "%s/p.json", dir);
  snprintf(svg, sizeof svg, "%s/p.svg", dir);
  snprintf(table, sizeof table, "%s/table.txt", dir);
  snprintf(spec, sizeof spec, "table,csv=%s,trace=%s,svg=%s", csv, trace, svg);

  /* The table goes to stderr: capture it for the launches. */
  fflush(stderr);
  int saved_err = dup(2), tfd = open(table, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (saved_err < 0 || tfd < 0 || dup2(tfd, 2) < 0) {
    perror("redirecting stderr");
    return 1;
  }
  close(tfd);

  rvhal_device_options_t o = {0};
  o.profile = spec;
  rvhal_device_t *d = fixture_device_opts(HARTS, &o);
  launch_info_t L[LAUNCHES] = {{0}};
  int launched = 0;
  CHECK_MSG(rvhal_device_get_info(d)->timing == RVHAL_TIMING_EXACT, "profile implies counters: timing %d",
            (int)rvhal_device_get_info(d)->timing);
  hal_program_t p = fixture_program(d, "ex_barrier");
  hal_kernel_t kb = fixture_kernel(d, p, "ex_bars"), kn = fixture_kernel(d, p, "ex_nobar");
  hal_addr_t buf = dt_buffer(d, 1 << 16, NULL);
  uint32_t nbar = 2;
  hal_arg_t ab[2] = {rvhal_arg_global(buf), rvhal_arg_value(&nbar, 4)}, an[1] = {rvhal_arg_global(buf)};
  struct {
    hal_kernel_t k;
    const char *name;
    hal_arg_t *args;
    uint32_t nargs;
    uint64_t global, local;
    rvhal_launch_options_t opt;
  } plan[LAUNCHES] = {
      {kb, "ex_bars", ab, 2, 32 * 8, 8, {.harts = 0}},                                   /* 32 groups, 4 harts */
      {kn, "ex_nobar", an, 1, 2 * 64, 64, {.harts_per_group = 2}},                      /* 2 teams of 2 */
      {kb, "ex_bars", ab, 2, 16 * 4, 4, {.harts = 2, .harts_per_group = 1, .chunk_groups = 4}}, /* 4 groups a call */
  };
  for (int i = 0; i < LAUNCHES; i++) {
    uint64_t g[3] = {plan[i].global, 1, 1}, l[3] = {plan[i].local, 1, 1};
    if (ex_launch(d, p, plan[i].k, 1, g, l, plan[i].args, plan[i].nargs, &plan[i].opt, plan[i].name)) break;
    rvhal_launch_report_t rep;
    CHECK_OK(rvhal_device_last_launch(d, &rep));
    L[i].kernel = plan[i].name;
    L[i].seq = rep.seq;
    L[i].harts = rep.harts;
    L[i].harts_per_group = rep.harts_per_group;
    L[i].chunk = rep.chunk_groups;
    L[i].exact = rvhal_counters_exact(d, NULL);
    ex_read_counts(d, &L[i].c, plan[i].name);
    launched++;
  }
  rvhal_device_delete(d);
  fflush(stderr);
  dup2(saved_err, 2);
  close(saved_err);
  CHECK_MSG(launched == LAUNCHES, "only %d of %d launches ran (see %s)", launched, LAUNCHES, table);
  /* The launches are of the shapes intended. */
  CHECK_MSG(L[0].harts == 4 && L[0].harts_per_group == 1, "launch 1: %u harts, %u per group", L[0].harts,
            L[0].harts_per_group);
  CHECK_MSG(L[1].harts == 4 && L[1].harts_per_group == 2, "launch 2: %u harts, %u per group", L[1].harts,
            L[1].harts_per_group);
  CHECK_MSG(L[0].exact == 1 && L[2].exact == 1, "exact timing, one hart per group: counters_exact says %d and %d",
            L[0].exact, L[2].exact);
  CHECK_MSG(L[2].harts == 2 && L[2].harts_per_group == 1 && L[2].chunk == 4, "launch 3: %u harts, %u per group, chunk %" PRIu64,
            L[2].harts, L[2].harts_per_group, L[2].chunk);

  if (launched == LAUNCHES) {
    check_table(table, L);
    check_csv(csv, L);
    check_trace(trace, L);
    check_svg(svg, L);
  }

  check_bad_spec("tabel", 0, RVHAL_INVALID_ARGUMENT, "'tabel'");
  check_bad_spec("table,tabel", 0, RVHAL_INVALID_ARGUMENT, "'tabel'");
  check_bad_spec("csv=", 0, RVHAL_INVALID_ARGUMENT, "'csv='");
  check_env_typo();
  char unwritable[300];
  snprintf(unwritable, sizeof unwritable, "svg=%s/no-such-dir/p.svg", dir);
  check_bad_spec(unwritable, 0, RVHAL_HOST_IO, "no-such-dir/p.svg");

  if (!check_failures_) { /* keep the files of a failed run for a look */
    unlink(csv);
    unlink(trace);
    unlink(svg);
    unlink(table);
    rmdir(dir);
  } else {
    printf("  profile files kept in %s\n", dir);
  }
  return check_result("exec.profile_files");
}

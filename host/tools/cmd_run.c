/* rvhal run: load a kernel ELF, build the arguments from command-line
 * tokens, launch the kernel once and show what it wrote. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <time.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_args.h"
#include "rvhal/rvhal.h"

#define CMD "run"

void cmd_run_usage(FILE *f) {
  fprintf(f,
          "usage: rvhal run [options] --global X[,Y[,Z]] ELF KERNEL [ARG...]\n"
          "Loads ELF, runs its kernel KERNEL once over the ND-range with one ARG per kernel argument\n"
          "(in kernel order, numbered from 0 as in the library's messages), prints a summary of the\n"
          "launch, then the contents of every buffer argument after the run.\n\n"
          "  -g, --global X[,Y[,Z]]   global size; the number of values is the work_dim (required)\n"
          "  -l, --local X[,Y[,Z]]    work-group size (default: the largest divisor of the global size\n"
          "                           that is <= 64 in dimension 0, 1 in the others)\n"
          "      --offset X[,Y[,Z]]   global offset (default 0)\n"
          "  -d, --device N           device index or name, e.g. qemu-virt-rv64 (default 0; see `rvhal info`)\n"
          "  -n, --harts N            harts of the device (default: $RVHAL_HARTS or 4)\n"
          "      --harts-per-group N  harts cooperating on one work-group (default: the library chooses)\n"
          "      --timing fast|exact  fast: harts in parallel; exact: QEMU -icount, repeatable\n"
          "      --backend qemu|gdb   how the host reaches the device: qemu (guest RAM shared, the default),\n"
          "                           gdb (GDB remote protocol to QEMU's gdbstub, as to OpenOCD on a board;\n"
          "                           default: $RVHAL_BACKEND; see docs/porting.md)\n"
          "      --gdb-remote ADDR    attach to a GDB stub rvhal did not start: host:port or unix:PATH (a QEMU's\n"
          "                           -gdb, OpenOCD's gdb_port); implies --backend gdb (default: $RVHAL_GDB_REMOTE)\n"
          "      --timeout-ms N       give up on a launch after N ms (default: $RVHAL_LAUNCH_TIMEOUT_MS or 60000)\n"
          "      --profile[=SPEC]     profile the launch; SPEC: table (default, to stderr), csv=FILE,\n"
          "                           trace=FILE (Chrome/Perfetto JSON), svg=FILE, comma-separated\n"
          "                           (default: $RVHAL_PROFILE; see docs/counters.md)\n"
          "  -s, --show N             elements shown per buffer (default 16, 0: all)\n"
          "  -o, --out-dir DIR        also write every buffer argument to DIR/argN.bin after the run\n"
          "  -q, --quiet              discard the kernel's print() output\n"
          "  -h, --help               this help\n\n"
          "ARG, one per kernel argument:\n"
          "  buf:TYPE[:COUNT][=INIT][>FILE]\n"
          "                           global buffer of COUNT elements (default: one per work-item;\n"
          "                           with --offset, a kernel indexing by global id needs more)\n"
          "                           INIT: zero (default), iota (0,1,2,...), rand (fixed seed: integers\n"
          "                           0..99, floats in [0,1)), a value filling the buffer, a list\n"
          "                           v0,v1,... (the rest zero), or @FILE: the file's bytes (COUNT\n"
          "                           defaults to what the file holds). >FILE: the buffer is written\n"
          "                           to FILE after the run (raw, in device order)\n"
          "  TYPE:VALUE               a value: u32:7 f32:1.5 i64:-3 u8:0xff (range-checked)\n"
          "  bytes:HEX                a value of raw bytes in memory order: bytes:00112233 is 4 bytes\n"
          "  local:SIZE               a local buffer of SIZE bytes\n"
          "  TYPE: %s\n\n"
          "example:\n"
          "  rvhal run build/device-rv64/kernels/vector_add.elf vector_add_entry --global 8 --local 4 \\\n"
          "      buf:u32=iota buf:u32=10 buf:u32\n"
          "prints (the times, and the harts per group on a host with more cores, differ)\n"
          "  vector_add_entry: global 8, local 4, 2 groups, 2 harts (1 per group), device 1.126 ms, host 2.268 ms\n"
          "  argument 0 'buf:u32=iota': 8 x u32\n"
          "    [0] 0 1 2 3 4 5 6 7\n"
          "  argument 1 'buf:u32=10': 8 x u32\n"
          "    [0] 10 10 10 10 10 10 10 10\n"
          "  argument 2 'buf:u32': 8 x u32\n"
          "    [0] 10 11 12 13 14 15 16 17\n\n"
          "A launch still running after 2 s gets a heartbeat line on stderr every 2 s.\n\n"
          "Exit status: 0 success, 1 the library or the kernel failed, 2 wrong command line.\n",
          cli_type_list());
}

typedef struct run_opts {
  uint32_t device, harts, harts_per_group, timeout_ms, show;
  rvhal_timing_mode_t timing;
  int quiet, local_default, offset_given;
  uint32_t work_dim;
  uint64_t global[3], local[3], offset[3];
  const char *elf, *kernel, *profile, *out_dir, *gdb_remote;
} run_opts_t;

static void discard_print(void *user, const char *line, size_t len) {
  (void)user;
  (void)line;
  (void)len;
}

static int dims_option(const char *opt, const char *text, uint64_t min, uint64_t out[3], uint32_t *out_n) {
  char why[128];
  if (cli_parse_dims(text, min, out, out_n, why, sizeof why))
    return cli_usage_error(CMD, NULL, "%s '%s': %s", opt, text, why);
  return 0;
}

/* Options and the ELF and KERNEL words; optind is left at the first ARG
 * (getopt_long moves the non-options to the end). */
static int parse_options(int argc, char **argv, run_opts_t *o) {
  enum { OPT_OFFSET = 256, OPT_HPG, OPT_TIMING, OPT_TIMEOUT, OPT_PROFILE, OPT_BACKEND, OPT_GDB_REMOTE };
  static const struct option opts[] = {
      {"global", 1, 0, 'g'},          {"local", 1, 0, 'l'},     {"offset", 1, 0, OPT_OFFSET},
      {"device", 1, 0, 'd'},          {"harts", 1, 0, 'n'},     {"harts-per-group", 1, 0, OPT_HPG},
      {"timing", 1, 0, OPT_TIMING},   {"timeout-ms", 1, 0, OPT_TIMEOUT}, {"show", 1, 0, 's'},
      {"profile", 2, 0, OPT_PROFILE}, {"quiet", 0, 0, 'q'},           {"help", 0, 0, 'h'},
      {"out-dir", 1, 0, 'o'},         {"backend", 1, 0, OPT_BACKEND}, {"gdb-remote", 1, 0, OPT_GDB_REMOTE},
      {0, 0, 0, 0}};
  const char *global_text = NULL, *local_text = NULL, *offset_text = NULL;
  uint32_t nlocal = 0, noffset = 0;
  int c;
  *o = (run_opts_t){.show = 16};
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":g:l:d:n:s:o:qh", opts, NULL)) != -1) {
    switch (c) {
    case 'g':
      global_text = optarg;
      if (dims_option("--global", optarg, 1, o->global, &o->work_dim)) return CLI_USAGE;
      break;
    case 'l':
      local_text = optarg;
      if (dims_option("--local", optarg, 1, o->local, &nlocal)) return CLI_USAGE;
      break;
    case OPT_OFFSET:
      offset_text = optarg;
      if (dims_option("--offset", optarg, 0, o->offset, &noffset)) return CLI_USAGE;
      break;
    case 'd':
      if (cli_opt_device(CMD, optarg, &o->device)) return CLI_USAGE;
      break;
    case 'n':
      if (cli_opt_harts(CMD, "--harts", optarg, &o->harts)) return CLI_USAGE;
      break;
    case OPT_HPG:
      if (cli_opt_harts(CMD, "--harts-per-group", optarg, &o->harts_per_group)) return CLI_USAGE;
      break;
    case OPT_TIMING:
      if (!strcmp(optarg, "fast")) o->timing = RVHAL_TIMING_FAST;
      else if (!strcmp(optarg, "exact")) o->timing = RVHAL_TIMING_EXACT;
      else return cli_usage_error(CMD, NULL, "--timing '%s': expected fast or exact", optarg);
      break;
    case OPT_TIMEOUT:
      if (cli_opt_u32(CMD, "--timeout-ms", optarg, 1, UINT32_MAX - 1, &o->timeout_ms)) return CLI_USAGE;
      break;
    case OPT_PROFILE:
      if (optarg && !*optarg)
        return cli_usage_error(CMD, NULL, "--profile=: empty SPEC (use table, csv=FILE, trace=FILE or svg=FILE)");
      o->profile = optarg ? optarg : "table";
      break;
    case 's':
      if (cli_opt_u32(CMD, "--show", optarg, 0, UINT32_MAX, &o->show)) return CLI_USAGE;
      break;
    case OPT_BACKEND: /* the library reads it when the device is created */
      if (strcmp(optarg, "qemu") && strcmp(optarg, "gdb"))
        return cli_usage_error(CMD, NULL, "--backend '%s': expected qemu or gdb", optarg);
      setenv("RVHAL_BACKEND", optarg, 1);
      break;
    case OPT_GDB_REMOTE:
      if (!*optarg) return cli_usage_error(CMD, NULL, "--gdb-remote: expected host:port or unix:PATH");
      o->gdb_remote = optarg;
      break;
    case 'q': o->quiet = 1; break;
    case 'o': o->out_dir = optarg; break;
    case 'h': cmd_run_usage(stdout); return -1;
    default: return cli_getopt_error(CMD, argv, opts, c);
    }
  }
  if (argc - optind < 2)
    return cli_usage_error(CMD, cmd_run_usage, argc == optind ? "missing ELF and KERNEL" : "missing KERNEL");
  o->elf = argv[optind++];
  o->kernel = argv[optind++];
  if (!global_text) return cli_usage_error(CMD, NULL, "--global X[,Y[,Z]] is required");
  if (local_text && nlocal != o->work_dim)
    return cli_usage_error(CMD, NULL, "--local %s has %u dimension%s, --global %s has %u", local_text, nlocal,
                           nlocal == 1 ? "" : "s", global_text, o->work_dim);
  if (offset_text && noffset != o->work_dim)
    return cli_usage_error(CMD, NULL, "--offset %s has %u dimension%s, --global %s has %u", offset_text, noffset,
                           noffset == 1 ? "" : "s", global_text, o->work_dim);
  o->local_default = !local_text;
  o->offset_given = offset_text != NULL;
  for (uint32_t d = 0; d < 3; d++) {
    if (d >= o->work_dim) {
      o->global[d] = o->local[d] = 1;
      o->offset[d] = 0;
    } else if (!local_text) {
      uint64_t l = d == 0 ? (o->global[d] < 64 ? o->global[d] : 64) : 1;
      while (o->global[d] % l) l--;
      o->local[d] = l;
    } else if (o->global[d] % o->local[d]) {
      return cli_usage_error(CMD, NULL,
                             "--local %s: %" PRIu64 " does not divide the global size %" PRIu64 " (dimension %u)",
                             local_text, o->local[d], o->global[d], d);
    }
  }
  return 0;
}

static void print_dims(FILE *f, const uint64_t v[3], uint32_t n) {
  for (uint32_t d = 0; d < n; d++) fprintf(f, d ? "x%" PRIu64 : "%" PRIu64, v[d]);
}

static void print_summary(const run_opts_t *o, const rvhal_launch_report_t *r) {
  printf("%s: global ", o->kernel);
  print_dims(stdout, o->global, o->work_dim);
  printf(", local ");
  print_dims(stdout, o->local, o->work_dim);
  if (o->local_default) printf(" (default)");
  if (o->offset_given) {
    printf(", offset ");
    print_dims(stdout, o->offset, o->work_dim);
  }
  printf(", %" PRIu64 " group%s, %u hart%s (%u per group), device %.3f ms, host %.3f ms\n", r->num_groups,
         r->num_groups == 1 ? "" : "s", r->harts, r->harts == 1 ? "" : "s", r->harts_per_group,
         (double)r->device_ns / 1e6, (double)r->host_ns / 1e6);
}

static void print_buffer(const run_arg_t *a, uint32_t index, uint32_t show) {
  enum { PER_LINE = 8 };
  printf("argument %u '%s': %" PRIu64 " x %s\n", index, a->token, a->count, a->type->name);
  uint64_t n = show && show < a->count ? show : a->count;
  int width = snprintf(NULL, 0, "%" PRIu64, n - 1);
  for (uint64_t i = 0; i < n; i++) {
    if (i % PER_LINE == 0) printf("%s  [%*" PRIu64 "]", i ? "\n" : "", width, i);
    putchar(' ');
    cli_value_print(stdout, a->type, a->data + i * a->type->size);
  }
  putchar('\n');
  if (n < a->count) printf("  ... %" PRIu64 " more (--show 0 shows all)\n", a->count - n);
}

/* A line on stderr every HEARTBEAT_MS while a launch runs: elapsed time
 * and, when the device can tell, progress per hart. */
#define HEARTBEAT_MS 2000

typedef struct heartbeat {
  pthread_mutex_t lock;
  pthread_cond_t cond;
  int done;
  rvhal_device_t *dev;
  const char *kernel;
} heartbeat_t;

static void print_heartbeat(const heartbeat_t *hb) {
  rvhal_launch_progress_t p;
  if (rvhal_device_launch_progress(hb->dev, &p) || !p.seq) return;
  char line[1024];
  int n = snprintf(line, sizeof line, "rvhal run: %.1f s, %s still running (%" PRIu64 " group%s on %u hart%s)",
                   (double)p.elapsed_ns / 1e9, hb->kernel, p.num_groups, p.num_groups == 1 ? "" : "s", p.harts,
                   p.harts == 1 ? "" : "s");
  if (p.have_groups) {
    uint64_t sum = 0;
    for (uint32_t h = 0; h < p.harts; h++) sum += p.groups_begun[h];
    n += snprintf(line + n, sizeof line - n, "; %.1f %% of groups done, begun %" PRIu64 ", per hart:",
                  100 * p.fraction_done, sum);
    for (uint32_t h = 0; h < p.harts && n < (int)sizeof line - 24; h++)
      n += snprintf(line + n, sizeof line - n, " %" PRIu64, p.groups_begun[h]);
  } else if (p.have_instructions) {
    n += snprintf(line + n, sizeof line - n, "; instructions per hart:");
    for (uint32_t h = 0; h < p.harts && n < (int)sizeof line - 24; h++)
      n += snprintf(line + n, sizeof line - n, " %.3gM", (double)p.instructions[h] / 1e6);
  } else {
    n += snprintf(line + n, sizeof line - n, "; --profile=svg=FILE shows groups per hart");
  }
  fprintf(stderr, "%s\n", line);
}

static void *heartbeat_main(void *arg) {
  heartbeat_t *hb = arg;
  pthread_mutex_lock(&hb->lock);
  while (!hb->done) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += HEARTBEAT_MS / 1000;
    t.tv_nsec += (long)(HEARTBEAT_MS % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) t.tv_sec++, t.tv_nsec -= 1000000000L;
    if (pthread_cond_timedwait(&hb->cond, &hb->lock, &t) == ETIMEDOUT && !hb->done) print_heartbeat(hb);
  }
  pthread_mutex_unlock(&hb->lock);
  return NULL;
}

/* The launch, with a heartbeat thread beside it. */
static int exec_with_heartbeat(rvhal_device_t *dev, const char *kname, hal_program_t prog, hal_kernel_t kernel,
                               const hal_ndrange_t *nd, const hal_arg_t *desc, uint32_t num_args, uint32_t work_dim,
                               const rvhal_launch_options_t *lo) {
  heartbeat_t hb = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, dev, kname};
  pthread_t th;
  int started = pthread_create(&th, NULL, heartbeat_main, &hb) == 0;
  int rc = rvhal_kernel_exec_ex(dev, prog, kernel, nd, desc, num_args, work_dim, lo);
  if (started) {
    pthread_mutex_lock(&hb.lock);
    hb.done = 1;
    pthread_cond_signal(&hb.cond);
    pthread_mutex_unlock(&hb.lock);
    pthread_join(th, NULL);
  }
  return rc;
}

/* Raw bytes of a buffer to a file. */
static int write_buffer(const run_arg_t *a, uint32_t index, const char *path) {
  FILE *f = fopen(path, "wb");
  size_t put = f ? fwrite(a->data, 1, a->size, f) : 0;
  if (!f || fclose(f) != 0 || put != a->size) {
    fprintf(stderr, "rvhal run: argument %u '%s': cannot write %s: %s\n", index, a->token, path, strerror(errno));
    return CLI_FAIL;
  }
  fprintf(stderr, "rvhal run: argument %u: %" PRIu64 " bytes written to %s\n", index, a->size, path);
  return CLI_OK;
}

/* Runs the launch on a fresh device, which is always deleted again. */
static int execute(const run_opts_t *o, run_arg_t *args, uint32_t num_args) {
  rvhal_device_options_t dopt = {.num_harts = o->harts,
                                 .timing = o->timing,
                                 .launch_timeout_ms = o->timeout_ms,
                                 .print_fn = o->quiet ? discard_print : NULL,
                                 .profile = o->profile,
                                 .gdb_remote = o->gdb_remote};
  rvhal_device_t *dev = NULL;
  hal_arg_t *desc = calloc(num_args ? num_args : 1, sizeof *desc);
  uint8_t *types = calloc(num_args ? num_args : 1, 1);
  if (!desc || !types) {
    fprintf(stderr, "rvhal run: out of host memory\n");
    return CLI_FAIL;
  }
  int rc = CLI_FAIL;
  if ((rc = rvhal_device_create(o->device, &dopt, &dev))) {
    /* The library checks --profile's SPEC: a wrong one is a usage error. */
    int usage = rc == RVHAL_INVALID_ARGUMENT && o->profile && !strncmp(rvhal_last_error(), "profile:", 8);
    fprintf(stderr, "rvhal run: cannot start device %u: %s\n", o->device, rvhal_last_error());
    rc = usage ? CLI_USAGE : CLI_FAIL;
    goto out;
  }
  rc = CLI_FAIL;
  hal_program_t prog;
  hal_kernel_t kernel;
  if (rvhal_program_load_file(dev, o->elf, &prog) || rvhal_program_find_kernel(dev, prog, o->kernel, &kernel)) {
    fprintf(stderr, "rvhal run: %s\n", rvhal_last_error());
    goto out;
  }
  /* The buffers against the device before any host memory is spent on
   * them (a 4 GiB buffer used to be filled on the host first). */
  const rvhal_device_info_t *info = rvhal_device_get_info(dev);
  uint64_t all = 0;
  for (uint32_t i = 0; i < num_args; i++) {
    const run_arg_t *a = &args[i];
    if (a->kind != RUN_ARG_BUFFER) continue;
    if (a->size > info->global_mem_size || __builtin_add_overflow(all, a->size, &all) || all > info->global_mem_size) {
      fprintf(stderr, "rvhal run: argument %u '%s': a buffer of %" PRIu64 " bytes%s does not fit the device's %" PRIu64
              " bytes of global memory\n", i, a->token, a->size, a->size < all ? " (with the buffers before it)" : "",
              info->global_mem_size);
      goto out;
    }
  }
  for (uint32_t i = 0; i < num_args; i++) {
    run_arg_t *a = &args[i];
    char why[256];
    if (run_arg_fill(a, why, sizeof why)) {
      fprintf(stderr, "rvhal run: argument %u '%s': %s\n", i, a->token, why);
      goto out;
    }
    if (a->kind == RUN_ARG_BUFFER &&
        (rvhal_mem_alloc(dev, a->size, 0, &a->addr) || rvhal_mem_write(dev, a->addr, a->data, a->size))) {
      fprintf(stderr, "rvhal run: argument %u '%s': %s\n", i, a->token, rvhal_last_error());
      goto out;
    }
    desc[i] = run_arg_desc(a);
    types[i] = run_arg_type(a);
  }
  hal_ndrange_t nd;
  memcpy(nd.global, o->global, sizeof nd.global);
  memcpy(nd.local, o->local, sizeof nd.local);
  memcpy(nd.offset, o->offset, sizeof nd.offset);
  rvhal_launch_options_t lo = {.harts = o->harts, .harts_per_group = o->harts_per_group, .arg_types = types};
  int xrc = exec_with_heartbeat(dev, o->kernel, prog, kernel, &nd, desc, num_args, o->work_dim, &lo);
  if (xrc == RVHAL_TIMEOUT) {
    fprintf(stderr, "rvhal run: %s\nrvhal run: to give the kernel longer, use --timeout-ms N\n", rvhal_last_error());
    goto out;
  }
  if (xrc) {
    fprintf(stderr, "rvhal run: %s\n", rvhal_last_error());
    goto out;
  }
  rvhal_launch_report_t rep;
  if (rvhal_device_last_launch(dev, &rep)) {
    fprintf(stderr, "rvhal run: %s\n", rvhal_last_error());
    goto out;
  }
  fflush(stdout); /* kernel output first, then ours */
  print_summary(o, &rep);
  for (uint32_t i = 0; i < num_args; i++) {
    run_arg_t *a = &args[i];
    if (a->kind != RUN_ARG_BUFFER) continue;
    if (rvhal_mem_read(dev, a->data, a->addr, a->size)) {
      fprintf(stderr, "rvhal run: argument %u '%s': %s\n", i, a->token, rvhal_last_error());
      goto out;
    }
    print_buffer(a, i, o->show);
  }
  rc = CLI_OK;
  for (uint32_t i = 0; i < num_args; i++) {
    const run_arg_t *a = &args[i];
    if (a->kind != RUN_ARG_BUFFER) continue;
    if (a->out_path && write_buffer(a, i, a->out_path)) rc = CLI_FAIL;
    if (o->out_dir) {
      char path[4096];
      snprintf(path, sizeof path, "%s/arg%u.bin", o->out_dir, i);
      if (write_buffer(a, i, path)) rc = CLI_FAIL;
    }
  }
out:
  rvhal_device_delete(dev); /* never leave QEMU behind, whatever failed */
  free(desc);
  free(types);
  return rc;
}

int cmd_run(int argc, char **argv) {
  run_opts_t o;
  int rc = parse_options(argc, argv, &o);
  if (rc) return rc < 0 ? CLI_OK : rc; /* -1: --help was shown */
  uint32_t num_args = (uint32_t)(argc - optind);
  run_arg_t *args = calloc(num_args ? num_args : 1, sizeof *args);
  if (!args) {
    fprintf(stderr, "rvhal run: out of host memory\n");
    return CLI_FAIL;
  }
  /* Buffers default to one element per work-item (an overflow is refused
   * as too large a buffer). */
  uint64_t items = o.global[0], xy;
  if (__builtin_mul_overflow(items, o.global[1], &xy) || __builtin_mul_overflow(xy, o.global[2], &items))
    items = UINT64_MAX;
  for (uint32_t i = 0; i < num_args && rc == 0; i++) {
    char why[256];
    if (run_arg_parse(&args[i], i, argv[optind + i], items, why, sizeof why))
      rc = cli_usage_error(CMD, NULL, "argument %u '%s': %s", i, argv[optind + i], why);
  }
  /* A buffer with fewer elements than the ND-range has global ids: a
   * kernel indexing it by global id would go past its end. */
  uint64_t ids = 1;
  for (uint32_t d = 0; d < 3; d++)
    if (__builtin_mul_overflow(ids, o.offset[d] + o.global[d], &ids)) ids = UINT64_MAX;
  for (uint32_t i = 0; i < num_args && rc == 0; i++)
    if (args[i].kind == RUN_ARG_BUFFER && args[i].count < ids)
      fprintf(stderr,
              "rvhal run: warning: argument %u '%s' has %" PRIu64 " element%s, fewer than the %" PRIu64
              " global ids of the ND-range: a kernel indexing it by global id goes past its end\n",
              i, argv[optind + i], args[i].count, args[i].count == 1 ? "" : "s", ids);
  if (rc == 0) rc = execute(&o, args, num_args);
  for (uint32_t i = 0; i < num_args; i++) run_arg_free(&args[i]);
  free(args);
  return rc;
}

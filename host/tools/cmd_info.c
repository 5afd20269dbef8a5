/* rvhal info: the platform and its devices, from the catalogue or (--boot)
 * from devices really started, which checks that the installation works. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_json.h"
#include "device_ram.h"
#include "rvhal/rvhal.h"

void cmd_info_usage(FILE *f) {
  fprintf(f,
          "usage: rvhal info [--device N] [--boot [--harts N]] [--json]\n"
          "Shows the platform and each device's information. Without --boot the values are the\n"
          "defaults of the device catalogue; nothing is started.\n\n"
          "  -d, --device N   only device N, an index or a name (qemu-virt-rv64; default: every device)\n"
          "  -b, --boot       start the device(s), report the boot time and the live information;\n"
          "                   fails (exit 1) with the reason if QEMU or the firmware is missing\n"
          "  -n, --harts N    harts of a booted device (default: $RVHAL_HARTS or 4)\n"
          "  -j, --json       the same as one JSON object (numbers in bytes and Hz), for scripts\n"
          "  -h, --help       this help\n\n"
          "example:\n"
          "  rvhal info --boot --device 0 --harts 2\n");
}

/* "256 MiB", "1.5 KiB", "512 bytes". */
static void human_size(char *buf, size_t n, uint64_t bytes) {
  static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  unsigned u = 0;
  uint64_t scale = 1;
  while (u + 1 < sizeof units / sizeof units[0] && bytes >= (scale << 10)) {
    scale <<= 10;
    u++;
  }
  if (bytes % scale == 0) snprintf(buf, n, "%" PRIu64 " %s", bytes / scale, units[u]);
  else snprintf(buf, n, "%.1f %s", (double)bytes / (double)scale, units[u]);
}

/* A size with its exact byte count when the short form rounds or hides it. */
static void print_size(const char *label, uint64_t bytes, const char *suffix) {
  char h[32];
  human_size(h, sizeof h, bytes);
  if (bytes < 1024) printf("  %-22s %s%s\n", label, h, suffix);
  else printf("  %-22s %s%s (%" PRIu64 " bytes)\n", label, h, suffix, bytes);
}

static const char *timing_name(rvhal_timing_mode_t t) {
  switch (t) {
  case RVHAL_TIMING_FAST: return "fast (harts in parallel, approximate counts)";
  case RVHAL_TIMING_EXACT: return "exact (-icount, repeatable counts)";
  default: return "default ($RVHAL_TIMING, else fast)";
  }
}

/* The backend devices get, as device.c chooses it: a stub to attach to
 * (RVHAL_GDB_REMOTE, RVHAL_GDB_SPAWN) implies gdb. */
static int info_backend_gdb(void) {
  const char *backend = getenv("RVHAL_BACKEND"), *remote = getenv("RVHAL_GDB_REMOTE"), *spawn = getenv("RVHAL_GDB_SPAWN");
  return (backend && !strcmp(backend, "gdb")) || (remote && *remote) || (spawn && *spawn);
}

static void print_device(uint32_t index, const rvhal_device_info_t *di, double boot_ms) {
  printf("device %u: %s\n", index, di->name);
  if (boot_ms >= 0) printf("  %-22s booted in %.0f ms\n", "status", boot_ms);
  else printf("  %-22s not started (catalogue defaults; --boot starts it)\n", "status");
  printf("  %-22s %s\n", "board", di->board);
  printf("  %-22s %s\n", "ISA", di->isa);
  if (di->vlen) printf("  %-22s VLEN %u bits (RVV)\n", "vector unit", di->vlen);
  else printf("  %-22s none%s\n", "vector unit", boot_ms >= 0 ? "" : " (RVHAL_VLEN=128..1024 gives vector harts on virt)");
  printf("  %-22s %u bytes (RV%u)\n", "word size", di->word_size, di->word_size * 8);
  const char *set = rvhal_kernel_set_name(di->kernel_abi);
  printf("  %-22s %s (%s; kernel set %s)\n", "kernel ABI", di->kernel_abi,
         strchr(di->kernel_abi, 'd') ? "hard-float" : "soft-float", set ? set : "none");
  printf("  %-22s %u\n", "harts", di->num_harts);
  printf("  %-22s %u\n", "max harts", di->max_harts);
  printf("  %-22s %s-mode\n", "firmware runs in", di->firmware_mode);
  print_size("RAM", di->ram_size, "");
  print_size("global memory", di->global_mem_size, "");
  /* An OpenCL context's device gets more RAM by default (device_ram.h):
   * the figure clinfo shows, here too. */
  rvhal_device_options_t ocl = {.num_harts = di->num_harts};
  rvhal_device_info_t oi;
  if (rvcl_device_ram(index, &ocl, &oi) == RVHAL_OK) {
    char ram[32], what[96];
    human_size(ram, sizeof ram, oi.ram_size);
    snprintf(what, sizeof what, " (an OpenCL device: %s of RAM)", ram);
    print_size("global memory, OpenCL", oi.global_mem_size, what);
  }
  print_size("local memory", di->local_mem_size, " per work-group");
  printf("  %-22s %u work-items\n", "max work-group size", di->max_work_group_size);
  char h[32];
  human_size(h, sizeof h, di->program_area_size);
  printf("  %-22s 0x%" PRIx64 ", %s (%" PRIu64 " bytes)\n", "program area", di->program_area_base, h,
         di->program_area_size);
  human_size(h, sizeof h, di->program_store_size);
  printf("  %-22s %s (%" PRIu64 " bytes): loaded programs' copies, RAM/16\n", "program store", h,
         di->program_store_size);
  printf("  %-22s %u bytes\n", "max packed arguments", di->max_args_size);
  if (di->timebase_hz % 1000000 == 0)
    printf("  %-22s %" PRIu64 " MHz (%" PRIu64 " Hz)\n", "timebase", di->timebase_hz / 1000000, di->timebase_hz);
  else printf("  %-22s %" PRIu64 " Hz\n", "timebase", di->timebase_hz);
  printf("  %-22s %s\n", "timing", timing_name(di->timing));
  const char *remote = getenv("RVHAL_GDB_REMOTE"), *spawn = getenv("RVHAL_GDB_SPAWN");
  if (remote && *remote)
    printf("  %-22s gdb, attached to the stub at %s (RVHAL_GDB_REMOTE)\n", "backend", remote);
  else if (spawn && *spawn)
    printf("  %-22s gdb, through the stub that '%s' starts (RVHAL_GDB_SPAWN)\n", "backend", spawn);
  else
    printf("  %-22s %s\n", "backend", info_backend_gdb() ? "gdb (GDB remote protocol to QEMU's gdbstub; RVHAL_BACKEND)"
                                                          : "qemu (guest RAM shared with the host)");
  const char *fw = rvhal_firmware_dir(di->word_size * 8);
  printf("  %-22s %s\n", "firmware from", fw ? fw : "(none)");
}

static const char *timing_word(rvhal_timing_mode_t t) {
  return t == RVHAL_TIMING_FAST ? "fast" : t == RVHAL_TIMING_EXACT ? "exact" : "default";
}

/* The device as print_device shows it, as a JSON object; boot_ms < 0: not
 * started. */
static void json_device(cli_json_t *j, uint32_t index, const rvhal_device_info_t *di, double boot_ms) {
  cli_json_begin_object(j, NULL);
  cli_json_u64(j, "index", index);
  cli_json_string(j, "name", di->name);
  cli_json_string(j, "status", boot_ms >= 0 ? "booted" : "not started");
  if (boot_ms >= 0) cli_json_double(j, "boot_ms", boot_ms);
  cli_json_string(j, "board", di->board);
  cli_json_string(j, "isa", di->isa);
  cli_json_u64(j, "word_size", di->word_size);
  cli_json_string(j, "kernel_abi", di->kernel_abi);
  cli_json_u64(j, "harts", di->num_harts);
  cli_json_u64(j, "vlen", di->vlen); /* bits; 0: no vector unit */
  cli_json_u64(j, "max_harts", di->max_harts);
  cli_json_string(j, "firmware_mode", di->firmware_mode);
  cli_json_u64(j, "ram_size", di->ram_size);
  cli_json_u64(j, "global_mem_size", di->global_mem_size);
  rvhal_device_options_t ocl = {.num_harts = di->num_harts};
  rvhal_device_info_t oi;
  if (rvcl_device_ram(index, &ocl, &oi) == RVHAL_OK) { /* an OpenCL context's device (device_ram.h) */
    cli_json_u64(j, "opencl_ram_size", oi.ram_size);
    cli_json_u64(j, "opencl_global_mem_size", oi.global_mem_size);
  }
  cli_json_u64(j, "local_mem_size", di->local_mem_size);
  cli_json_u64(j, "max_work_group_size", di->max_work_group_size);
  cli_json_u64(j, "program_area_base", di->program_area_base);
  cli_json_u64(j, "program_area_size", di->program_area_size);
  cli_json_u64(j, "program_store_size", di->program_store_size);
  cli_json_u64(j, "max_args_size", di->max_args_size);
  cli_json_u64(j, "timebase_hz", di->timebase_hz);
  cli_json_string(j, "timing", timing_word(di->timing));
  cli_json_string(j, "backend", info_backend_gdb() ? "gdb" : "qemu");
  const char *remote = getenv("RVHAL_GDB_REMOTE");
  if (remote && *remote) cli_json_string(j, "gdb_remote", remote);
  cli_json_string(j, "firmware_dir", rvhal_firmware_dir(di->word_size * 8));
  cli_json_end_object(j);
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Starts device `index`, shows it (as JSON into j if set), stops it. */
static int boot_device(uint32_t index, uint32_t harts, cli_json_t *j) {
  rvhal_device_options_t o = {.num_harts = harts};
  rvhal_device_t *dev = NULL;
  double t0 = now_ms();
  if (rvhal_device_create(index, &o, &dev)) {
    fprintf(stderr, "rvhal info: device %u does not start: %s\n", index, rvhal_last_error());
    return CLI_FAIL;
  }
  if (j) json_device(j, index, rvhal_device_get_info(dev), now_ms() - t0);
  else print_device(index, rvhal_device_get_info(dev), now_ms() - t0);
  rvhal_device_delete(dev);
  return CLI_OK;
}

/* Device `index`, booted or from the catalogue, as text or (j set) JSON. */
static int show_device(uint32_t index, int boot, uint32_t harts, cli_json_t *j) {
  if (boot) return boot_device(index, harts, j);
  const rvhal_device_info_t *di;
  if (rvhal_platform_device_info(index, &di)) {
    fprintf(stderr, "rvhal info: %s\n", rvhal_last_error());
    return CLI_FAIL;
  }
  if (j) json_device(j, index, di, -1);
  else print_device(index, di, -1);
  return CLI_OK;
}

/* rvhal info --json: one object, the devices [first, end) in "devices";
 * a device that does not start is left out, with the reason on stderr and
 * exit status 1 (as without --json). */
static int info_json(const rvhal_platform_info_t *pi, uint32_t first, uint32_t end, int boot, uint32_t harts) {
  cli_json_t j = {.f = stdout};
  cli_json_begin_object(&j, NULL);
  cli_json_begin_object(&j, "platform");
  cli_json_string(&j, "name", pi->name);
  cli_json_string(&j, "version", pi->version);
  cli_json_u64(&j, "api_version", pi->api_version);
  cli_json_u64(&j, "num_devices", pi->num_devices);
  cli_json_end_object(&j);
  cli_json_string(&j, "qemu_plugin", rvhal_qemu_plugin_path());
  if (*rvhal_platform_skipped()) fprintf(stderr, "rvhal info: board descriptors left out: %s\n", rvhal_platform_skipped());
  int rc = CLI_OK;
  cli_json_begin_array(&j, "devices");
  for (uint32_t i = first; i < end; i++)
    if (show_device(i, boot, harts, &j)) rc = CLI_FAIL;
  cli_json_end_array(&j);
  cli_json_end_object(&j);
  cli_json_finish(&j);
  return rc;
}

int cmd_info(int argc, char **argv) {
  static const struct option opts[] = {{"device", 1, 0, 'd'}, {"boot", 0, 0, 'b'}, {"harts", 1, 0, 'n'},
                                       {"json", 0, 0, 'j'},   {"help", 0, 0, 'h'},  {0, 0, 0, 0}};
  const rvhal_platform_info_t *pi = rvhal_platform_info();
  uint32_t device = 0, harts = 0;
  int one = 0, boot = 0, json = 0, c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":d:bn:jh", opts, NULL)) != -1) {
    switch (c) {
    case 'd':
      if (cli_opt_device("info", optarg, &device)) return CLI_USAGE;
      one = 1;
      break;
    case 'b': boot = 1; break;
    case 'j': json = 1; break;
    case 'n':
      if (cli_opt_harts("info", "--harts", optarg, &harts)) return CLI_USAGE;
      break;
    case 'h': cmd_info_usage(stdout); return CLI_OK;
    default: return cli_getopt_error("info", argv, opts, c);
    }
  }
  if (optind < argc) return cli_usage_error("info", cmd_info_usage, "unexpected argument '%s'", argv[optind]);
  if (harts && !boot)
    return cli_usage_error("info", NULL, "--harts applies to a booted device: add --boot");

  if (json) return info_json(pi, one ? device : 0, one ? device + 1 : pi->num_devices, boot, harts);
  printf("platform: %s %s, API version %u, %u device%s\n", pi->name, pi->version, pi->api_version, pi->num_devices,
         pi->num_devices == 1 ? "" : "s");
  const char *plugin = rvhal_qemu_plugin_path();
  printf("QEMU plugin: %s\n", plugin ? plugin : "none (no exact instruction counts)");
  if (*rvhal_platform_skipped()) fprintf(stderr, "rvhal info: board descriptors left out: %s\n", rvhal_platform_skipped());
  int rc = CLI_OK;
  for (uint32_t i = one ? device : 0; i < (one ? device + 1 : pi->num_devices); i++) {
    printf("\n");
    fflush(stdout); /* keep the order with stderr */
    if (show_device(i, boot, harts, NULL)) rc = CLI_FAIL;
  }
  return rc;
}

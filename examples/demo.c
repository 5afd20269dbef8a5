/* rvhal-demo: runs every example kernel on a device and checks each result
 * against a host computation. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "example.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: rvhal-demo [options]\n"
          "Runs the example kernels on an emulated RISC-V device and checks every result on the host.\n\n"
          "  -d, --device N        device index or name, e.g. qemu-virt-rv32 (default 0; see `rvhal info`)\n"
          "  -n, --harts N         harts (default 4)\n"
          "  -l, --local N         work-group size for every example (default: each example's own)\n"
          "  -o, --only NAME       run only this example (repeatable)\n"
          "  -k, --kernel-dir DIR  where the example kernels are (default: the build tree, or $RVHAL_KERNEL_DIR)\n"
          "      --list            list the examples and exit\n"
          "  -v, --verbose         show kernel output\n"
          "  -h, --help            this help\n");
}

static void quiet_print(void *user, const char *line, size_t len) {
  (void)user;
  (void)line;
  (void)len;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  uint32_t device = 0, harts = 4, local = 0;
  int verbose = 0, list = 0;
  const char *only[64];
  int nonly = 0;
  const char *kernel_dir = getenv("RVHAL_KERNEL_DIR");
  static const struct option opts[] = {{"device", 1, 0, 'd'}, {"harts", 1, 0, 'n'},      {"local", 1, 0, 'l'},
                                       {"only", 1, 0, 'o'},   {"kernel-dir", 1, 0, 'k'}, {"list", 0, 0, 'L'},
                                       {"verbose", 0, 0, 'v'}, {"help", 0, 0, 'h'},      {0, 0, 0, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "d:n:l:o:k:vh", opts, NULL)) != -1) {
    switch (c) {
    case 'd':
      if (rvhal_platform_find_device(optarg, &device)) {
        fprintf(stderr, "rvhal-demo: --device %s\n", rvhal_last_error());
        return 2;
      }
      break;
    case 'n': harts = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'l': local = (uint32_t)strtoul(optarg, NULL, 0); break;
    case 'o':
      if (nonly < 64) only[nonly++] = optarg;
      break;
    case 'k': kernel_dir = optarg; break;
    case 'L': list = 1; break;
    case 'v': verbose = 1; break;
    case 'h': usage(stdout); return 0;
    default: usage(stderr); return 2;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "rvhal-demo: unexpected argument '%s'\n", argv[optind]);
    usage(stderr);
    return 2;
  }
  if (list) {
    for (const example_t *const *e = rvhal_examples; *e; e++) printf("%-24s %s\n", (*e)->name, (*e)->what);
    return 0;
  }
  for (int i = 0; i < nonly; i++) {
    int found = 0;
    for (const example_t *const *e = rvhal_examples; *e; e++) found |= !strcmp((*e)->name, only[i]);
    if (!found) {
      fprintf(stderr, "rvhal-demo: no example called '%s' (see --list)\n", only[i]);
      return 2;
    }
  }
  const rvhal_platform_info_t *pi = rvhal_platform_info();
  const rvhal_device_info_t *catalogue;
  if (rvhal_platform_device_info(device, &catalogue)) {
    fprintf(stderr, "rvhal-demo: %s\n", rvhal_last_error());
    return 2;
  }
  char set_dir[1024];
  if (!kernel_dir || !*kernel_dir) { /* the build's kernels of the device's kernel set (XLEN, float ABI) */
    const char *set = rvhal_kernel_set_name(catalogue->kernel_abi);
    if (!set) {
      fprintf(stderr, "rvhal-demo: device %s: kernel ABI %s has no kernel set\n", catalogue->name, catalogue->kernel_abi);
      return 2;
    }
    snprintf(set_dir, sizeof set_dir, "%s/device-%s/kernels", RVHAL_EXAMPLE_BUILD_DIR, set);
    kernel_dir = set_dir;
  }

  rvhal_device_options_t o = {.num_harts = harts, .print_fn = verbose ? NULL : quiet_print};
  rvhal_device_t *dev;
  double t0 = now_ms();
  int rc = rvhal_device_create(device, &o, &dev);
  if (rc) {
    fprintf(stderr, "rvhal-demo: cannot start device %u: %s\n", device, rvhal_last_error());
    return 1;
  }
  const rvhal_device_info_t *di = rvhal_device_get_info(dev);
  printf("%s %s: device %s (%s), %u harts, %llu MiB global memory, started in %.0f ms\n\n", pi->name, pi->version,
         di->name, di->isa, di->num_harts, (unsigned long long)(di->global_mem_size >> 20), now_ms() - t0);
  printf("%-24s %-7s %-9s %-50s %s\n", "example", "harts", "time", "what ran", "result");

  int run = 0, passed = 0;
  for (const example_t *const *e = rvhal_examples; *e; e++) {
    int selected = nonly == 0;
    for (int i = 0; i < nonly; i++) selected |= !strcmp((*e)->name, only[i]);
    if (!selected) continue;
    example_ctx_t ctx = {.dev = dev, .kernel_dir = kernel_dir, .local_size = local, .verbose = verbose};
    char summary[512] = "";
    rvhal_launch_report_t before = {0}, rep = {0};
    rvhal_device_last_launch(dev, &before); /* to tell whether this example launched at all */
    double t = now_ms();
    rc = (*e)->run(&ctx, summary, sizeof summary);
    t = now_ms() - t;
    char harts_used[32] = "-";
    if (rvhal_device_last_launch(dev, &rep) == 0 && rep.seq != before.seq) {
      if (rep.harts_per_group > 1) snprintf(harts_used, sizeof harts_used, "%ux%u", rep.harts / rep.harts_per_group, rep.harts_per_group);
      else snprintf(harts_used, sizeof harts_used, "%u", rep.harts);
    }
    run++;
    passed += rc == 0;
    printf("%-24s %-7s %6.1f ms  %-50s %s\n", (*e)->name, harts_used, t, rc ? "" : summary,
           rc ? "MISMATCH" : "matched");
    if (rc) printf("    %s\n", summary);
  }
  rvhal_device_delete(dev);
  printf("\n%d of %d examples matched the host computation.\n", passed, run);
  return passed == run ? 0 : 1;
}

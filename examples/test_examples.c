/* Runs every example on a device of N harts (argv[1]) with work-group
 * sizes smaller than, equal to and larger than the hart count, and with
 * teams of harts per group. Every example checks all its results. With
 * "once" after the device, each example runs once, with its own sizes (a
 * device behind a slow link: scripts/spike.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "example.h"

static void quiet(void *user, const char *line, size_t len) {
  (void)user;
  (void)line;
  (void)len;
}

int main(int argc, char **argv) {
  if (argc < 2 || (argc > 3 && strcmp(argv[3], "once"))) {
    fprintf(stderr, "usage: test_examples HARTS [DEVICE (index or name) [once]]\n");
    return 2;
  }
  const int once = argc > 3;
  /* line by line: a run that a timeout kills still shows how far it got */
  setvbuf(stdout, NULL, _IOLBF, 0);
  uint32_t harts = (uint32_t)atoi(argv[1]), device = 0;
  if (argc > 2 && rvhal_platform_find_device(argv[2], &device)) { /* an index or a device name */
    fprintf(stderr, "test_examples: %s\n", rvhal_last_error());
    return 2;
  }
  const rvhal_device_info_t *catalogue;
  if (rvhal_platform_device_info(device, &catalogue)) {
    fprintf(stderr, "test_examples: %s\n", rvhal_last_error());
    return 2;
  }
  if (harts > catalogue->max_harts) harts = catalogue->max_harts; /* a one-hart board runs the 1-hart case */
  rvhal_device_options_t o = {.num_harts = harts, .print_fn = quiet};
  rvhal_device_t *dev;
  if (rvhal_device_create(device, &o, &dev)) {
    fprintf(stderr, "device_create: %s\n", rvhal_last_error());
    return 1;
  }
  /* the kernel set of the device's ISA: XLEN and float ABI */
  const char *set = rvhal_kernel_set_name(rvhal_device_get_info(dev)->kernel_abi);
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/device-%s/kernels", RVHAL_EXAMPLE_BUILD_DIR, set ? set : "(none)");
  /* local sizes around the hart count, and the examples' defaults (0) */
  uint32_t locals[] = {0, 1, harts > 1 ? harts - 1 : 2, harts, harts + 1, 2 * harts + 1, 16};
  uint32_t teams[] = {0, 1, 2, 4};
  int runs = 0, failures = 0;
  for (const example_t *const *e = rvhal_examples; *e; e++) {
    for (size_t li = 0; li < sizeof locals / sizeof *locals; li++) {
      for (size_t ti = 0; ti < sizeof teams / sizeof *teams; ti++) {
        uint32_t team = teams[ti];
        /* a team must divide the harts and fit the group (the library
         * rejects others; that is tested elsewhere) */
        if (team > harts || (team && harts % team)) continue;
        if (team > 1 && locals[li] && locals[li] < team) continue;
        if (team > 1 && locals[li] == 0) continue;
        if (once && (li || ti)) continue;
        example_ctx_t ctx = {.dev = dev, .kernel_dir = dir, .local_size = locals[li], .harts_per_group = team};
        char summary[512] = "";
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        int rc = (*e)->run(&ctx, summary, sizeof summary);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        runs++;
        if (once) /* a slow device: each example as it ends */
          printf("%s %s (%.1f s)\n", rc ? "failed" : "passed", (*e)->name,
                 (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
        if (rc) {
          failures++;
          printf("FAIL %s harts=%u local=%u team=%u: %s\n", (*e)->name, harts, locals[li], team, summary);
        }
      }
    }
  }
  rvhal_device_delete(dev);
  printf("examples on %u harts: %d runs, %d failed\n", harts, runs, failures);
  return failures != 0;
}

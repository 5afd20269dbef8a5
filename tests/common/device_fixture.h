/* Shared set-up for device tests: a device with a given number of harts
 * (overridable with RVHAL_TEST_HARTS), and test kernels by name from the
 * build tree. Failures print rvhal's message and count as check failures. */
#ifndef RVHAL_TEST_DEVICE_FIXTURE_H
#define RVHAL_TEST_DEVICE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "rvhal/rvhal.h"

#ifndef RVHAL_TEST_KERNEL_DIR_RV64
#error "RVHAL_TEST_KERNEL_DIR_RV64 must be defined by the build"
#endif

/* Device 0 (RV64) unless RVHAL_TEST_DEVICE says otherwise. */
static inline rvhal_device_t *fixture_device_opts(uint32_t harts, rvhal_device_options_t *o) {
  const char *env = getenv("RVHAL_TEST_HARTS");
  if (env && *env) harts = (uint32_t)atoi(env);
  rvhal_device_options_t def = {0};
  if (!o) o = &def;
  o->num_harts = harts;
  const char *dev = getenv("RVHAL_TEST_DEVICE");
  rvhal_device_t *d = NULL;
  int rc = rvhal_device_create(dev && *dev ? (uint32_t)atoi(dev) : 0, o, &d);
  if (rc) {
    fprintf(stderr, "device_create(%u harts): %s: %s\n", harts, rvhal_status_name(rc), rvhal_last_error());
    exit(1);
  }
  return d;
}

static inline rvhal_device_t *fixture_device(uint32_t harts) { return fixture_device_opts(harts, NULL); }

static inline const char *fixture_kernel_dir(rvhal_device_t *d) {
  return rvhal_device_get_info(d)->word_size == 8 ? RVHAL_TEST_KERNEL_DIR_RV64 : RVHAL_TEST_KERNEL_DIR_RV32;
}

/* Loads <kernel dir>/<name>.elf; exits the test on failure. */
static inline hal_program_t fixture_program(rvhal_device_t *d, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.elf", fixture_kernel_dir(d), name);
  hal_program_t p;
  int rc = rvhal_program_load_file(d, path, &p);
  if (rc) {
    fprintf(stderr, "program_load %s: %s: %s\n", path, rvhal_status_name(rc), rvhal_last_error());
    exit(1);
  }
  return p;
}

static inline hal_kernel_t fixture_kernel(rvhal_device_t *d, hal_program_t p, const char *name) {
  hal_kernel_t k;
  int rc = rvhal_program_find_kernel(d, p, name, &k);
  if (rc) {
    fprintf(stderr, "find_kernel %s: %s: %s\n", name, rvhal_status_name(rc), rvhal_last_error());
    exit(1);
  }
  return k;
}

#endif /* RVHAL_TEST_DEVICE_FIXTURE_H */

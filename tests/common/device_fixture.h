/* Shared set-up for device tests: a device with a given number of harts
 * (overridable with RVHAL_TEST_HARTS), and test kernels by name from the
 * build tree. Failures print rvhal's message and count as check failures. */
#ifndef RVHAL_TEST_DEVICE_FIXTURE_H
#define RVHAL_TEST_DEVICE_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rvhal/rvhal.h"

#ifndef RVHAL_TEST_DEVICE_BUILD_DIR
#error "RVHAL_TEST_DEVICE_BUILD_DIR (the build tree, with its device-<kernel set>/ folders) must be defined by the build"
#endif

/* stdout line by line even into ctest's pipe: a test that ctest kills at
 * its TIMEOUT then shows how far it got (a hang of device.ndrange.gdb.uart
 * showed no output at all: block buffering had kept it). */
__attribute__((constructor)) static void fixture_line_buffered_(void) { setvbuf(stdout, NULL, _IOLBF, 0); }

/* The device under test: RVHAL_TEST_DEVICE, an index or a device name
 * ("sifive-u-rv64", as `rvhal info` lists them; the suite's registry in
 * tests/device/device.cmake sets it), else device 0 (qemu-virt RV64). */
static inline uint32_t fixture_device_index(void) {
  const char *dev = getenv("RVHAL_TEST_DEVICE");
  if (!dev || !*dev) return 0;
  if (*dev >= '0' && *dev <= '9') return (uint32_t)atoi(dev);
  const rvhal_platform_info_t *pi = rvhal_platform_info();
  for (uint32_t i = 0; i < pi->num_devices; i++) {
    const rvhal_device_info_t *di;
    if (rvhal_platform_device_info(i, &di) == RVHAL_OK && !strcmp(di->name, dev)) return i;
  }
  fprintf(stderr, "RVHAL_TEST_DEVICE=%s: no such device (rvhal info lists them)%s%s\n", dev,
          *rvhal_platform_skipped() ? "; left out: " : "", rvhal_platform_skipped());
  exit(1);
}

/* The catalogue information of the device under test. */
static inline const rvhal_device_info_t *fixture_device_info(void) {
  const rvhal_device_info_t *di = NULL;
  if (rvhal_platform_device_info(fixture_device_index(), &di)) {
    fprintf(stderr, "device info: %s\n", rvhal_last_error());
    exit(1);
  }
  return di;
}

/* The harts a test that wants `harts` gets: RVHAL_TEST_HARTS's count
 * where it is set (a target with fewer harts), at most the board's. */
static inline uint32_t fixture_harts(uint32_t harts) {
  const char *env = getenv("RVHAL_TEST_HARTS");
  if (env && *env) harts = (uint32_t)atoi(env);
  const rvhal_device_info_t *di = fixture_device_info();
  return harts > di->max_harts ? di->max_harts : harts;
}

/* A device with fixture_harts(harts) harts. */
static inline rvhal_device_t *fixture_device_opts(uint32_t harts, rvhal_device_options_t *o) {
  harts = fixture_harts(harts);
  const uint32_t index = fixture_device_index();
  rvhal_device_options_t def = {0};
  if (!o) o = &def;
  o->num_harts = harts;
  rvhal_device_t *d = NULL;
  int rc = rvhal_device_create(index, o, &d);
  if (rc) {
    fprintf(stderr, "device_create(%u harts): %s: %s\n", harts, rvhal_status_name(rc), rvhal_last_error());
    exit(1);
  }
  return d;
}

static inline rvhal_device_t *fixture_device(uint32_t harts) { return fixture_device_opts(harts, NULL); }

/* The build's kernels for the device's kernel set (its kernel ABI: a
 * soft-float device runs device-rv64-lp64/kernels, docs/kernels.md). */
static inline const char *fixture_kernel_dir(rvhal_device_t *d) {
  static char dir[768]; /* callers add "/<name>.elf" in 1024 bytes */
  const char *abi = rvhal_device_get_info(d)->kernel_abi, *set = rvhal_kernel_set_name(abi);
  if (!set) {
    fprintf(stderr, "device %s: kernel ABI %s has no kernel set\n", rvhal_device_get_info(d)->name, abi);
    exit(1);
  }
  snprintf(dir, sizeof dir, "%s/device-%s/kernels", RVHAL_TEST_DEVICE_BUILD_DIR, set);
  return dir;
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

/* How many of `bytes` (written to the device and read back) a test moves:
 * all of them, unless the device is reached through a debug link too slow
 * to move them in about `seconds` (rvhal_device_info_t.link_bytes_per_s:
 * Spike through OpenOCD moves a few KB/s, QEMU's gdbstub MB/s); then what
 * it moves in that time (a write, and a read as hex: three bytes on the
 * wire for each), a multiple of `unit`, at least `least`. */
static inline size_t fixture_link_bytes(const rvhal_device_t *d, size_t bytes, size_t least, size_t unit,
                                        double seconds) {
  const uint64_t bps = rvhal_device_get_info(d)->link_bytes_per_s;
  if (!bps || (double)bytes * 3 <= (double)bps * seconds) return bytes;
  size_t n = (size_t)((double)bps * seconds / 3);
  n -= n % (unit ? unit : 1);
  if (n < least) n = least;
  return n < bytes ? n : bytes;
}

/* Seconds a launch spends on the link beyond QEMU's (halts, its slot and
 * results over the wire: some KiB): 0 without a link or on a fast one. */
static inline double fixture_link_launch_s(const rvhal_device_t *d) {
  const uint64_t bps = rvhal_device_get_info(d)->link_bytes_per_s;
  return bps ? 16384.0 / (double)bps : 0;
}

#endif /* RVHAL_TEST_DEVICE_FIXTURE_H */

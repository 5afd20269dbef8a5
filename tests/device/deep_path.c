/* Firmware under a deep path: every device of the build started from a
 * firmware directory whose path is over 300 characters long and holds a
 * comma (QEMU's option syntax), through RVHAL_FIRMWARE_DIR. Boards that
 * load the firmware through QEMU's `loader` device once cut that argument
 * at 128 characters ("Cannot load specified image"); no argument rvhal
 * builds for QEMU may be cut. Each device runs a kernel. */
#include <dirent.h>
#include <sys/stat.h>
#include <limits.h>
#include <unistd.h>

#include "dev_util.h"

static char deep[PATH_MAX];

/* Links every rvhal-fw-* file of `from` into `deep`; how many boards. */
static int link_firmware(const char *from) {
  DIR *dir = opendir(from);
  CHECK_MSG(dir != NULL, "firmware directory %s", from);
  if (!dir) return 0;
  int boards = 0;
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (strncmp(e->d_name, "rvhal-fw-", 9)) continue;
    char src[2 * PATH_MAX], dst[2 * PATH_MAX];
    snprintf(src, sizeof src, "%s/%s", from, e->d_name);
    snprintf(dst, sizeof dst, "%s/%s", deep, e->d_name);
    CHECK_MSG(symlink(src, dst) == 0, "symlink %s", dst);
    size_t n = strlen(e->d_name);
    boards += n > 6 && !strcmp(e->d_name + n - 6, ".board");
  }
  closedir(dir);
  return boards;
}

static void remove_deep(const char *top) {
  DIR *dir = opendir(deep);
  struct dirent *e;
  while (dir && (e = readdir(dir))) {
    char p[PATH_MAX + 256];
    snprintf(p, sizeof p, "%s/%s", deep, e->d_name);
    if (e->d_name[0] != '.') unlink(p);
  }
  if (dir) closedir(dir);
  rmdir(deep);
  *strrchr(deep, '/') = '\0';
  rmdir(deep);
  rmdir(top);
}

int main(void) {
  const char *build = getenv("RVHAL_TEST_BUILD_DIR");
  CHECK_MSG(build != NULL, "RVHAL_TEST_BUILD_DIR is not set");
  if (!build) return check_result("deep_path");
  char top[] = "/tmp/rvhal-deep-XXXXXX";
  CHECK(mkdtemp(top) != NULL);
  char leaf[151]; /* two of them: a name has at most 255 bytes */
  memset(leaf, 'd', sizeof leaf - 1);
  leaf[sizeof leaf - 1] = '\0';
  leaf[40] = ','; /* a comma inside a QEMU option value */
  snprintf(deep, sizeof deep, "%s/%s", top, leaf);
  CHECK(mkdir(deep, 0700) == 0);
  snprintf(deep, sizeof deep, "%s/%s/%s", top, leaf, leaf);
  CHECK(mkdir(deep, 0700) == 0);
  char from[PATH_MAX];
  int boards = 0;
  for (int xlen = 32; xlen <= 64; xlen += 32) {
    snprintf(from, sizeof from, "%s/device-rv%d/firmware", build, xlen);
    if (access(from, F_OK) == 0) boards += link_firmware(from);
  }
  setenv("RVHAL_FIRMWARE_DIR", deep, 1);
  const rvhal_platform_info_t *pi = rvhal_platform_info();
  CHECK_MSG(pi->num_devices == (uint32_t)boards, "%u devices from %d board descriptors under %s (left out: %s)",
            pi->num_devices, boards, deep, rvhal_platform_skipped());
  int loader = 0;
  for (uint32_t i = 0; i < pi->num_devices; i++) {
    const rvhal_device_info_t *di = NULL;
    CHECK_OK(rvhal_platform_device_info(i, &di));
    rvhal_device_options_t o = {.num_harts = 1};
    rvhal_device_t *d = NULL;
    int rc = rvhal_device_create(i, &o, &d);
    CHECK_MSG(rc == RVHAL_OK, "device %s from %zu-character path: %s: %s", di ? di->name : "?", strlen(deep),
              rvhal_status_name(rc), rvhal_last_error());
    if (rc) continue;
    loader += di && strstr(di->name, "icicle") != NULL;
    hal_program_t p = fixture_program(d, "empty"); /* the device's kernel set: soft-float without F/D */
    hal_ndrange_t nd = {.global = {4}, .local = {1}};
    CHECK_OK(rvhal_kernel_exec(d, p, fixture_kernel(d, p, "empty"), &nd, NULL, 0, 1));
    rvhal_device_delete(d);
  }
  if (getenv("RVHAL_TEST_VERBOSE")) printf("%u devices from %s (%d through a loader device)\n", pi->num_devices, deep, loader);
  remove_deep(top);
  return check_result("deep_path");
}

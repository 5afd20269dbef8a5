/* Where the library finds the device firmware and its QEMU plugin. In order:
 * the environment ($RVHAL_FIRMWARE_DIR, $RVHAL_QEMU_PLUGIN); the install
 * this library belongs to, found from the library's own file (dladdr), so
 * an install tree moved elsewhere still works; the build tree it was built
 * in. The relative paths from the install's lib/ and bin/ come from CMake
 * (GNUInstallDirs), so a packager's layout is followed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/internal.h"
#include "rvhal/device.h"

/* This object's directory: the shared library's, or the program's when
 * linked statically. Empty if dladdr cannot tell. */
static const char *own_dir(void) {
  static char dir[PATH_MAX];
  static int done;
  if (done) return dir;
  done = 1;
  Dl_info info;
  char real[PATH_MAX];
  if (!dladdr((void *)own_dir, &info) || !info.dli_fname || !realpath(info.dli_fname, real)) return dir;
  char *slash = strrchr(real, '/');
  if (slash) *slash = '\0';
  snprintf(dir, sizeof dir, "%s", real);
  return dir;
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* <own dir>/<rel>/<leaf> for the first of the lib/ and bin/ relations that
 * exists (tested with `exists`), into buf; 0 if none does. */
static int from_install(const char *rel_lib, const char *rel_bin, const char *leaf, int (*exists)(const char *),
                        char buf[PATH_MAX]) {
  const char *dir = own_dir();
  if (!*dir) return 0;
  const char *rels[] = {rel_lib, rel_bin};
  for (int i = 0; i < 2; i++) {
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s/%s", dir, rels[i], leaf);
    if (n > 0 && (size_t)n < sizeof path && exists(path) && realpath(path, buf)) return 1;
  }
  return 0;
}

const char *rvhal_firmware_dir(uint32_t xlen) {
  static char dirs[2][PATH_MAX];
  if (xlen != 32 && xlen != 64) return NULL;
  const char *env = getenv("RVHAL_FIRMWARE_DIR");
  if (env && *env) return env;
  char *buf = dirs[xlen == 64];
  char leaf[32];
  snprintf(leaf, sizeof leaf, "firmware/rv%u", xlen);
  if (from_install(RVHAL_INSTALL_LIB_TO_DATA, RVHAL_INSTALL_BIN_TO_DATA, leaf, is_dir, buf))
    return buf;
#ifdef RVHAL_BUILD_FIRMWARE_DIR_RV64
  snprintf(buf, sizeof dirs[0], "%s", xlen == 64 ? RVHAL_BUILD_FIRMWARE_DIR_RV64 : RVHAL_BUILD_FIRMWARE_DIR_RV32);
  return buf;
#else
  return NULL;
#endif
}

static int is_readable(const char *p) { return access(p, R_OK) == 0; }

const char *rvhal_qemu_plugin_path(void) {
  static char path[PATH_MAX];
  const char *env = getenv("RVHAL_QEMU_PLUGIN");
  if (env && *env) return is_readable(env) ? env : NULL;
  if (from_install(RVHAL_INSTALL_LIB_TO_PLUGIN, RVHAL_INSTALL_BIN_TO_PLUGIN, RVHAL_QEMU_PLUGIN_NAME, is_readable,
                   path))
    return path;
#ifdef RVHAL_BUILD_QEMU_PLUGIN
  if (is_readable(RVHAL_BUILD_QEMU_PLUGIN)) return RVHAL_BUILD_QEMU_PLUGIN;
#endif
  return NULL;
}

/* A kernel set's SDK (rvhal_kernel_set_name: "rv64", "rv64-lp64"), for the
 * OpenCL C compiler: the directory with librvhal_kernel.a, kernel.ld and
 * librvhal_opencl.a, and the SDK's and the ABI's header directories.
 * $RVHAL_KERNEL_SDK_DIR (laid out as an install's lib/rvhal/<set>, its
 * headers beside in include/); the install; the build tree. */
int rvhal_kernel_sdk_paths(const char *set, char lib_dir[PATH_MAX], char ld_dir[PATH_MAX], char opencl_dir[PATH_MAX],
                           char sdk_inc[PATH_MAX], char abi_inc[PATH_MAX]) {
  if (!set || strlen(set) > 16) return 0;
  const char *leaf = set;
  const char *env = getenv("RVHAL_KERNEL_SDK_DIR");
  if (env && *env) {
    snprintf(lib_dir, PATH_MAX, "%s/%s", env, leaf);
    snprintf(ld_dir, PATH_MAX, "%s/%s", env, leaf);
    snprintf(opencl_dir, PATH_MAX, "%s/%s", env, leaf);
    snprintf(sdk_inc, PATH_MAX, "%s/include/rvhal/kernel", env);
    snprintf(abi_inc, PATH_MAX, "%s/include", env);
    return 1;
  }
  char dir[PATH_MAX];
  if (from_install(RVHAL_INSTALL_LIB_TO_PLUGIN, RVHAL_INSTALL_BIN_TO_PLUGIN, leaf, is_dir, dir)) {
    char inc[PATH_MAX];
    if (from_install(RVHAL_INSTALL_LIB_TO_INCLUDE, RVHAL_INSTALL_BIN_TO_INCLUDE, "rvhal/kernel", is_dir, inc)) {
      snprintf(lib_dir, PATH_MAX, "%s", dir);
      snprintf(ld_dir, PATH_MAX, "%s", dir);
      snprintf(opencl_dir, PATH_MAX, "%s", dir);
      snprintf(sdk_inc, PATH_MAX, "%s", inc);
      char *slash = strrchr(inc, '/'); /* include/rvhal/kernel -> include */
      if (slash) *slash = '\0';
      slash = strrchr(inc, '/');
      if (slash) *slash = '\0';
      snprintf(abi_inc, PATH_MAX, "%s", inc);
      return 1;
    }
  }
#ifdef RVHAL_BUILD_BINARY_DIR
  char dev[PATH_MAX - 32]; /* + "/sdk/opencl" */
  snprintf(dev, sizeof dev, "%s/device-%s", RVHAL_BUILD_BINARY_DIR, set);
  if (!is_dir(dev)) return 0; /* a set this build did not make */
  snprintf(lib_dir, PATH_MAX, "%s/sdk", dev);
  snprintf(ld_dir, PATH_MAX, "%s/linker", dev);
  snprintf(opencl_dir, PATH_MAX, "%s/sdk/opencl", dev);
  snprintf(sdk_inc, PATH_MAX, "%s/sdk/include", RVHAL_BUILD_SOURCE_DIR);
  snprintf(abi_inc, PATH_MAX, "%s/abi", RVHAL_BUILD_SOURCE_DIR);
  return 1;
#else
  return 0;
#endif
}

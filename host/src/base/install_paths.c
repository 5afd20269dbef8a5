/* Where the library finds the device firmware, its QEMU plugin and the
 * kernel SDK. In order: the environment ($RVHAL_FIRMWARE_DIR,
 * $RVHAL_QEMU_PLUGIN, $RVHAL_KERNEL_SDK_DIR); the install this library
 * belongs to, found from the library's own file (dladdr), so an install
 * tree moved elsewhere still works; the build tree it was built in, but
 * only for a library (or a program linked with it statically) that lies in
 * that build tree: an installed rvhal never quietly uses its builder's
 * tree. The relative paths from the install's lib/ and bin/ come from CMake
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

/* The Debian package of the kernel SDK (cmake/RvhalPackage.cmake;
 * install.deb_root checks that it is the one holding the SDK). */
#define RVHAL_SDK_PACKAGE "rvhal-kernel-sdk"

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

/* This object lies in the build tree it was built in. */
static int in_build_tree(void) {
#ifdef RVHAL_BUILD_BINARY_DIR
  static int in = -1;
  if (in >= 0) return in;
  char tree[PATH_MAX];
  const char *dir = own_dir();
  size_t n = realpath(RVHAL_BUILD_BINARY_DIR, tree) ? strlen(tree) : 0;
  in = n && !strncmp(dir, tree, n) && (dir[n] == '/' || dir[n] == '\0');
  return in;
#else
  return 0;
#endif
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
  if (!in_build_tree()) return NULL;
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
  if (in_build_tree() && is_readable(RVHAL_BUILD_QEMU_PLUGIN)) return RVHAL_BUILD_QEMU_PLUGIN;
#endif
  return NULL;
}

static int is_executable(const char *p) { return access(p, X_OK) == 0; }

/* The OpenCL C compiler's LLVM process (compiler/llvm_server.h) into out:
 * $RVHAL_LLVM_SERVER (a program; "0": none), the install's, or the build
 * tree's for a library in it. 0 when there is none. */
int rvhal_llvm_server_exe(char out[PATH_MAX]) {
  const char *env = getenv("RVHAL_LLVM_SERVER");
  out[0] = '\0';
  if (env && *env) return strcmp(env, "0") && snprintf(out, PATH_MAX, "%s", env) < PATH_MAX;
  if (from_install(RVHAL_INSTALL_LIB_TO_PLUGIN, RVHAL_INSTALL_BIN_TO_PLUGIN, "rvhal-llvm-server", is_executable, out))
    return 1;
#ifdef RVHAL_BUILD_LLVM_SERVER
  if (in_build_tree() && is_executable(RVHAL_BUILD_LLVM_SERVER))
    return snprintf(out, PATH_MAX, "%s", RVHAL_BUILD_LLVM_SERVER) < PATH_MAX;
#endif
  out[0] = '\0';
  return 0;
}

/* A kernel set's SDK (rvhal_kernel_set_name: "rv64", "rv64-lp64"), for the
 * OpenCL C compiler: the directory with librvhal_kernel.a, kernel.ld and
 * librvhal_opencl.a, and the header directories. An install's kernel SDK
 * (lib/rvhal/<set>/ and include/rvhal/kernel/, which holds the ABI headers
 * too: a kernel is never given the install's include/, which at /usr is
 * the system's); $RVHAL_KERNEL_SDK_DIR laid out as an install's lib/rvhal
 * with include/rvhal/kernel/ beside; the build tree. */
int rvhal_kernel_sdk_paths(const char *set, char lib_dir[PATH_MAX], char ld_dir[PATH_MAX], char opencl_dir[PATH_MAX],
                           char sdk_inc[PATH_MAX], char abi_inc[PATH_MAX]) {
  if (!set || strlen(set) > 16)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: kernel set \"%s\" is not one (rv64, rv64-lp64, ...)",
                       set ? set : "(null)");
  const char *env = getenv("RVHAL_KERNEL_SDK_DIR");
  char dir[PATH_MAX], inc[PATH_MAX];
  if (env && *env) {
    snprintf(dir, sizeof dir, "%s/%s", env, set);
    snprintf(inc, sizeof inc, "%s/include/rvhal/kernel", env);
#ifdef RVHAL_BUILD_BINARY_DIR
  } else if (in_build_tree()) {
    char dev[PATH_MAX - 32]; /* + "/sdk/opencl" */
    snprintf(dev, sizeof dev, "%s/device-%s", RVHAL_BUILD_BINARY_DIR, set);
    if (!is_dir(dev))
      return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: this rvhal has no kernel set %s (a soft-float set is "
                         "built when a board of the build needs it, docs/kernels.md)", set);
    snprintf(lib_dir, PATH_MAX, "%s/sdk", dev);
    snprintf(ld_dir, PATH_MAX, "%s/linker", dev);
    snprintf(opencl_dir, PATH_MAX, "%s/sdk/opencl", dev);
    snprintf(sdk_inc, PATH_MAX, "%s/sdk/include", RVHAL_BUILD_SOURCE_DIR);
    snprintf(abi_inc, PATH_MAX, "%s/abi", RVHAL_BUILD_SOURCE_DIR);
    return RVHAL_OK;
#endif
  } else {
    /* beside the library in lib/, or a program linked statically in bin/ */
    const char *own = own_dir();
    const char *rel[2][2] = {{RVHAL_INSTALL_LIB_TO_PLUGIN, RVHAL_INSTALL_LIB_TO_INCLUDE},
                             {RVHAL_INSTALL_BIN_TO_PLUGIN, RVHAL_INSTALL_BIN_TO_INCLUDE}};
    for (int i = 1; i >= 0; i--) { /* the lib/ one last: the one an error names */
      int a = snprintf(dir, sizeof dir, "%s/%s/%s", own, rel[i][0], set);
      int b = snprintf(inc, sizeof inc, "%s/%s/rvhal/kernel", own, rel[i][1]);
      if (a < 0 || b < 0 || (size_t)a >= sizeof dir || (size_t)b >= sizeof inc)
        return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: the install's path is too long: %s", own);
      if (is_dir(inc)) break;
    }
  }
  if (!is_dir(inc))
    return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: the kernel SDK is not installed beside this rvhal: no %s "
                       "(install the Debian package " RVHAL_SDK_PACKAGE ", or `cmake --install` rvhal's build%s)",
                       inc, env && *env ? "; or fix RVHAL_KERNEL_SDK_DIR" : "");
  if (!is_dir(dir))
    return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: the kernel SDK has no kernel set %s: no %s (a soft-float "
                       "set is built when a board of the build needs it, docs/kernels.md)", set, dir);
  if (!realpath(dir, lib_dir)) snprintf(lib_dir, PATH_MAX, "%s", dir);
  if (!realpath(inc, sdk_inc)) snprintf(sdk_inc, PATH_MAX, "%s", inc);
  snprintf(ld_dir, PATH_MAX, "%s", lib_dir);
  snprintf(opencl_dir, PATH_MAX, "%s", lib_dir);
  snprintf(abi_inc, PATH_MAX, "%s", sdk_inc); /* the ABI headers are in its rvhal/ */
  return RVHAL_OK;
}

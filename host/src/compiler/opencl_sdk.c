/* Finding clang, the LLVM tools, the RISC-V GCC and the kernel SDK. The
 * environment may name them: $RVHAL_CLANG (default clang-16), $RVHAL_LLVM_BIN
 * (a directory with llvm-link, opt, llc; default the -16 names on PATH, then
 * /usr/lib/llvm-16/bin), $RVHAL_KERNEL_CC (default riscv64-unknown-elf-gcc). */
#define _GNU_SOURCE
#include "compiler/opencl_sdk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/internal.h"

#define LLVM_VERSION "16"

/* `name` as found on PATH (or as given when it has a '/'), into out. */
static int on_path(const char *name, char out[PATH_MAX]) {
  if (strchr(name, '/')) {
    snprintf(out, PATH_MAX, "%s", name);
    return access(name, X_OK) == 0;
  }
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  for (const char *p = path; *p;) {
    const char *e = strchr(p, ':');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n && snprintf(out, PATH_MAX, "%.*s/%s", (int)n, p, name) < PATH_MAX && access(out, X_OK) == 0) return 1;
    p += n + (e != NULL);
  }
  return 0;
}

static int llvm_tool(const char *tool, char out[PATH_MAX]) {
  const char *bin = getenv("RVHAL_LLVM_BIN");
  char name[64];
  if (bin && *bin) {
    snprintf(out, PATH_MAX, "%s/%s", bin, tool);
    if (access(out, X_OK) == 0) return RVHAL_OK;
    return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: no %s in RVHAL_LLVM_BIN=%s", tool, bin);
  }
  snprintf(name, sizeof name, "%s-" LLVM_VERSION, tool);
  if (on_path(name, out)) return RVHAL_OK;
  snprintf(out, PATH_MAX, "/usr/lib/llvm-" LLVM_VERSION "/bin/%s", tool);
  if (access(out, X_OK) == 0) return RVHAL_OK;
  return rvhal_error(RVHAL_MISSING_TOOL,
                     "opencl_compile: %s not found: install the Debian package llvm-" LLVM_VERSION
                     " (scripts/setup.sh) or set RVHAL_LLVM_BIN",
                     name);
}

static int readable(const char *what, const char *path) {
  if (access(path, R_OK) == 0) return RVHAL_OK;
  return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: the kernel SDK's %s is missing: %s (build rvhal's device "
                     "parts, or set RVHAL_KERNEL_SDK_DIR)", what, path);
}

int rvhal_opencl_sdk_find(const char *set, rvhal_opencl_sdk_t *o) {
  memset(o, 0, sizeof *o);
  const char *clang = getenv("RVHAL_CLANG");
  if (!clang || !*clang) clang = "clang-" LLVM_VERSION;
  if (!on_path(clang, o->clang))
    return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: %s not found: install the Debian package clang-" LLVM_VERSION
                       " (scripts/setup.sh) or set RVHAL_CLANG", clang);
  RVHAL_RETURN_IF_ERROR(llvm_tool("llvm-link", o->llvm_link));
  RVHAL_RETURN_IF_ERROR(llvm_tool("opt", o->opt));
  RVHAL_RETURN_IF_ERROR(llvm_tool("llc", o->llc));
  const char *cc = getenv("RVHAL_KERNEL_CC");
  if (!cc || !*cc) cc = "riscv64-unknown-elf-gcc";
  if (!on_path(cc, o->gcc))
    return rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: %s not found: install the Debian packages "
                       "gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf (scripts/setup.sh)", cc);
  char lib[PATH_MAX], ld[PATH_MAX], ocl[PATH_MAX];
  RVHAL_RETURN_IF_ERROR(rvhal_kernel_sdk_paths(set, lib, ld, ocl, o->sdk_include, o->abi_include));
  snprintf(o->kernel_lib, sizeof o->kernel_lib, "%s/librvhal_kernel.a", lib);
  snprintf(o->linker_script, sizeof o->linker_script, "%s/kernel.ld", ld);
  snprintf(o->opencl_lib, sizeof o->opencl_lib, "%s/librvhal_opencl.a", ocl);
  snprintf(o->opencl_bc, sizeof o->opencl_bc, "%s/librvhal_opencl.bc", ocl);
  char hdr[PATH_MAX + 32];
  snprintf(hdr, sizeof hdr, "%s/rvhal_opencl_entry.h", o->sdk_include);
  RVHAL_RETURN_IF_ERROR(readable("runtime library", o->kernel_lib));
  RVHAL_RETURN_IF_ERROR(readable("linker script", o->linker_script));
  RVHAL_RETURN_IF_ERROR(readable("OpenCL C built-in library", o->opencl_lib));
  RVHAL_RETURN_IF_ERROR(readable("OpenCL C built-in library (bitcode)", o->opencl_bc));
  RVHAL_RETURN_IF_ERROR(readable("OpenCL entry header", hdr));
  rvhal_llvm_server_exe(o->llvm_server); /* optional: the tools above do its work without it */
  return RVHAL_OK;
}

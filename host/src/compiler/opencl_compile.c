/* rvhal_opencl_compile: OpenCL C to a kernel ELF, by clang and the LLVM
 * tools of the same version, then the RISC-V GCC's linker with picolibc:
 *
 *   clang -x cl -emit-llvm   the program, unoptimized IR with kernel metadata
 *   opencl_ir.c              drop SPIR conventions, hidden work-item state,
 *                            __local variables as per-group TLS
 *   opencl_entry.c           item functions (IR) + entries and metadata (C)
 *   clang -x c -emit-llvm    the entries, with the SDK's inline built-ins
 *   llvm-link --only-needed  the built-ins the program calls, from the
 *                            library's bitcode (librvhal_opencl.bc)
 *   llvm-link, opt -O2       one module: built-ins inline into the kernel,
 *                            the kernel into the SDK's loops
 *   llc                      RISC-V object
 *   riscv64-unknown-elf-gcc  link with the OpenCL built-in library (printf),
 *                            the SDK and picolibc at the kernel linker script
 *
 * llvm-link, opt and llc run in the LLVM process (llvm_server.h) when
 * there is one, with the same result. Every step runs in a private
 * temporary directory removed afterwards. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/internal.h"
#include "compiler/ir_text.h"
#include "compiler/llvm_server.h"
#include "compiler/opencl_ir.h"
#include "compiler/opencl_sdk.h"
#include "compiler/text_buf.h"
#include "base/isa_check.h"
#include "rvhal/device.h"
#include "rvhal/compiler.h"

extern char **environ;

#define MAX_ARGV 192

/* As the C SDK's kernels: no fixed frame may jump the 64 KiB guard below a
 * hart's stack, so frames are limited to half of it; the limit is the
 * kernel flag set's (cmake/package/RvhalKernelFlags.cmake, passed by
 * host/CMakeLists.txt). clang marks the functions; llc warns ("stack frame
 * size ... exceeds limit"), and that warning fails the build. OpenCL C has
 * no VLAs. */
#ifndef RVHAL_KERNEL_FRAME_MAX
#error "RVHAL_KERNEL_FRAME_MAX must come from the build (RvhalKernelFlags.cmake)"
#endif
#define FRAME_LIMIT RVHAL_KERNEL_FRAME_MAX
#define FRAME_LIMIT_STR_(x) #x
#define FRAME_LIMIT_STR(x) FRAME_LIMIT_STR_(x)
#define FRAME_LIMIT_FLAG "-Wframe-larger-than=" FRAME_LIMIT_STR(RVHAL_KERNEL_FRAME_MAX)

typedef struct argv_buf {
  const char *v[MAX_ARGV + 1];
  int n;
  char *owned[MAX_ARGV];
  int num_owned;
  int overflow; /* an argument did not fit: the step is not run */
} argv_buf_t;

static int av_add(argv_buf_t *a, const char *s) {
  if (a->n >= MAX_ARGV) return a->overflow = 1, -1;
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
  return 0;
}

static int av_addf(argv_buf_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int av_addf(argv_buf_t *a, const char *fmt, ...) {
  if (a->num_owned >= MAX_ARGV) return a->overflow = 1, -1;
  char *s;
  va_list ap;
  va_start(ap, fmt);
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0) return a->overflow = 1, -1;
  a->owned[a->num_owned++] = s;
  return av_add(a, s);
}

static void av_free(argv_buf_t *a) {
  for (int i = 0; i < a->num_owned; i++) free(a->owned[i]);
  a->num_owned = a->n = a->overflow = 0;
}

/* Runs argv with stdout and stderr appended to `log_path`; its exit status,
 * -1 if the tool could not start, -2 if the log could not be opened (errno).
 * The log is opened here, not in the child: posix_spawnp reports a failed
 * open as it does a missing tool, and a build directory removed under a
 * running build was then blamed on the tool. */
static int run(const argv_buf_t *a, const char *log_path) {
  int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log < 0) return -2;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, log, 1);
  posix_spawn_file_actions_adddup2(&fa, log, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid;
  int rc = posix_spawnp(&pid, a->v[0], &fa, NULL, (char *const *)a->v, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(log);
  if (rc) {
    errno = rc;
    return -1;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static char *read_file(const char *path, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  text_buf_t b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    if (tb_add(&b, chunk, n)) {
      free(b.data);
      fclose(f);
      return NULL;
    }
  fclose(f);
  if (!b.data && tb_add(&b, "", 0)) return NULL;
  if (out_size) *out_size = b.len;
  return b.data;
}

static int write_file(const char *path, const char *a, size_t na, const char *b, size_t nb) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int bad = fwrite(a, 1, na, f) != na || (nb && fwrite(b, 1, nb, f) != nb);
  return fclose(f) || bad ? -1 : 0;
}

/* The files a build writes in its directory, by role. */
enum { SRC, PROG_LL, KERN_LL, ENTRY_C, ENTRY_LL, LINKED, OPT, OBJ, ELF, LOG, TRACE, NUM_FILES };
static const char *const build_files[NUM_FILES] = {"src.cl", "prog.ll", "kern.ll", "entry.c",  "entry.ll", "linked.ll",
                                                   "opt.ll", "prog.o",  "prog.elf", "log",     "trace"};

/* The build's private directory: the files of build_files and a link's objects. */
static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlinkat(dirfd(d), e->d_name, 0);
  if (d) closedir(d);
  rmdir(dir);
}

/* The optimized module at path without its llvm.assume calls. They did
 * their work in opt (the SDK's row loop states that no global id reaches
 * 2^32, rvhal_row_, which removes a uint id's zero-extension); left in,
 * their operands (and the conditions they test) stay live into loop
 * strength reduction, which then keeps one more induction variable: one
 * instruction per work-item of a vector add. *out_needs_dce: a condition
 * ir_text.c could not make dead by itself is left for opt's dce. */
static int drop_assumes(const char *path, int *out_needs_dce) {
  size_t n = 0;
  char *ir = read_file(path, &n);
  if (!ir) return rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot read %s", path);
  text_buf_t out = {0};
  int rc = rvhal_ir_drop_assumes(ir, n, &out, out_needs_dce) ? rvhal_error(RVHAL_HOST_IO, "out of host memory")
           : write_file(path, out.data ? out.data : "", out.len, NULL, 0)
               ? rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write %s", path)
               : RVHAL_OK;
  free(out.data);
  free(ir);
  return rc;
}

/* A kernel's entry is its own name: a function of that name which the
 * built-in library's code linked into the program calls (picolibc's asin,
 * which asinpi calls) is bound to the entry when the modules are linked.
 * Nothing else calls an entry (the firmware does), so any reference to one
 * in the linked module at path is such a call. */
static int clash_error(const char *name, const char *kernel) {
  return rvhal_error(RVHAL_BUILD_FAILED, "opencl_compile: %s: kernel name '%s' is a function the OpenCL C built-in "
                     "library calls: rename the kernel", name, kernel);
}

static int library_name_clash(const char *path, const cl_program_ir_t *prog, const char *name) {
  char *ir = read_file(path, NULL);
  const char **names = calloc(prog->num_kernels, sizeof *names);
  long hit = -2;
  if (ir && names) {
    for (uint32_t i = 0; i < prog->num_kernels; i++) names[i] = prog->kernels[i].name;
    hit = rvhal_ir_first_referenced(ir, names, prog->num_kernels);
  }
  int rc = !ir      ? rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot read %s", path)
           : hit == -2 ? rvhal_error(RVHAL_HOST_IO, "out of host memory")
           : hit >= 0  ? clash_error(name, names[hit])
                       : RVHAL_OK;
  free(names);
  free(ir);
  return rc;
}

/* clBuildProgram options (and rvhal cc's) into clang arguments. */
static const char *const passed_cl_options[] = {
    "-cl-single-precision-constant", "-cl-denorms-are-zero", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-opt-disable", "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-uniform-work-group-size", "-cl-strict-aliasing"};

static int too_many(void) { return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: too many build options"); }

/* -cl-ext=-a,-b (clang's option; the CTS passes it): turning features or
 * extensions off is taken, since the kernel then uses less than the device
 * has; turning one on is refused by name, since the device (and its
 * built-in library) would not have it. */
static int cl_ext_option(const char *t, argv_buf_t *a) {
  char *list = strdup(t + 8);
  if (!list) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  int rc = RVHAL_OK;
  char *save = NULL;
  for (char *e = strtok_r(list, ",", &save); e && !rc; e = strtok_r(NULL, ",", &save))
    if (e[0] != '-' || !e[1])
      rc = rvhal_error(RVHAL_INVALID_ARGUMENT,
                       "opencl_compile: %s: '%s' is not '-name': an extension or feature can be turned off, not on "
                       "(the device reports what it has: CL_DEVICE_EXTENSIONS, CL_DEVICE_OPENCL_C_FEATURES)",
                       t, e);
  free(list);
  if (!t[8] && !rc)
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: -cl-ext= needs a list (-cl-ext=-name,...)");
  if (!rc && (av_add(a, "-Xclang") || av_addf(a, "%s", t))) rc = too_many();
  return rc;
}

/* A kernel's entry is its own name, so a kernel named like a function of
 * picolibc, the SDK or the built-in library (expf, print, ...) would take
 * that function's calls. The link traced each name (ld -y): any file but
 * the program's object referring to one is refused. */
static int shared_name(const char *log_path, const char *obj, const cl_program_ir_t *prog, const char *name) {
  size_t n = 0;
  char *log = read_file(log_path, &n);
  if (!log) return RVHAL_OK;
  int rc = RVHAL_OK;
  size_t w = 0; /* the log without the trace's lines */
  for (size_t r = 0; r < n;) {
    char *l = log + r, *nl = memchr(l, '\n', n - r);
    size_t len = nl ? (size_t)(nl - l) + 1 : n - r;
    r += len;
    if (nl) *nl = '\0';
    char *ref = strstr(l, ": reference to "), *def = strstr(l, ": definition of ");
    if (ref && !strstr(l, obj) && !rc)
      for (uint32_t i = 0; i < prog->num_kernels; i++)
        if (!strcmp(ref + 15, prog->kernels[i].name)) {
          *ref = '\0';
          const char *file = strstr(l, "ld: ") ? strstr(l, "ld: ") + 4 : l;
          rc = rvhal_error(RVHAL_BUILD_FAILED, "opencl_compile: %s: kernel name '%s' is a function %s calls: rename "
                           "the kernel", name, prog->kernels[i].name, file);
          break;
        }
    if (ref || def) continue;
    if (nl) *nl = '\n';
    memmove(log + w, l, len);
    w += len;
  }
  if (write_file(log_path, log, w, NULL, 0) && !rc) rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write %s", log_path);
  free(log);
  return rc;
}

/* clang for the device: the language, the target and its ISA; no linker
 * relaxation (the firmware owns gp). */
static void clang_args(argv_buf_t *a, const char *clang, const char *lang, uint32_t xlen, const char *isa,
                       const char *abi) {
  av_add(a, clang);
  av_add(a, "-x");
  av_add(a, lang);
  av_addf(a, "--target=riscv%u-unknown-elf", xlen);
  av_addf(a, "-march=%s", isa);
  av_addf(a, "-mabi=%s", abi);
  av_add(a, "-mno-relax");
}

/* The next word of an option string at *p, in place: words are separated
 * by blanks; double quotes group (-I "a dir", -DS="a b") and are removed. */
static char *next_word(char **p) {
  char *s = *p;
  while (*s == ' ' || *s == '\t' || *s == '\n') s++;
  if (!*s) return NULL;
  char *w = s, *o = s;
  for (int quoted = 0; *s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
    if (*s == '"') quoted = !quoted;
    else *o++ = *s;
  }
  *p = *s ? s + 1 : s;
  *o = '\0';
  return w;
}

static int options_to_argv(const char *options, argv_buf_t *a, int *have_std) {
  if (!options) return RVHAL_OK;
  char *copy = strdup(options);
  if (!copy) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  int rc = RVHAL_OK;
  char *save = copy;
  for (char *t = next_word(&save); t && !rc; t = next_word(&save)) {
    if (!strcmp(t, "-D") || !strcmp(t, "-I")) {
      char *v = next_word(&save);
      if (!v) rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: option %s needs a value", t);
      else if (av_addf(a, "%s%s", t, v)) rc = too_many();
      continue;
    }
    if (!strncmp(t, "-D", 2) || !strncmp(t, "-I", 2) || !strcmp(t, "-w") || !strcmp(t, "-Werror") ||
        !strcmp(t, "-g") || !strcmp(t, "-cl-kernel-arg-info")) {
      if (av_addf(a, "%s", t)) rc = too_many();
      continue;
    }
    if (!strncmp(t, "-cl-ext=", 8)) {
      rc = cl_ext_option(t, a);
      continue;
    }
    if (!strcmp(t, "-cl-no-subgroup-ifp"))
      continue; /* OpenCL 2.1: about sub-groups, which rvhal's devices do not have */
    if (t[0] == '-' && t[1] == 'O' && (t[2] == '\0' || (strchr("0123s", t[2]) && t[3] == '\0')))
      continue; /* not an OpenCL option, but programs pass it: kernels are always optimized (-cl-opt-disable is not) */
    if (!strncmp(t, "-cl-std=", 8)) {
      const char *v = t + 8;
      if (strcmp(v, "CL1.0") && strcmp(v, "CL1.1") && strcmp(v, "CL1.2") && strcmp(v, "CL2.0") && strcmp(v, "CL3.0"))
        rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: -cl-std=%s: not CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0", v);
      else if (av_addf(a, "%s", t)) rc = too_many();
      *have_std = 1;
      continue;
    }
    int known = 0;
    for (size_t i = 0; i < sizeof passed_cl_options / sizeof *passed_cl_options; i++)
      if (!strcmp(t, passed_cl_options[i])) known = 1;
    if (known) {
      if (av_addf(a, "%s", t)) rc = too_many();
      continue;
    }
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT,
                     "opencl_compile: unknown build option '%s' (rvhal takes -D, -I, -cl-std=, -w, -Werror, -g, "
                     "-cl-ext=-name and the -cl-* options of clBuildProgram)",
                     t);
  }
  free(copy);
  return rc;
}

/* Runs one step (a->v[0]) and empties a. On failure the step's log
 * (clang's diagnostics, the linker's undefined symbols) goes to *out_log,
 * and the error says `failure` about the source `name`. */
static int step(argv_buf_t *a, const char *log_path, char **out_log, const char *failure, const char *name) {
  if (a->overflow) {
    int rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: %s: %s needs more than %d arguments (too many "
                         "build options)", name, a->v[0], MAX_ARGV);
    av_free(a);
    return rc;
  }
  int code = run(a, log_path);
  int err = errno; /* before read_file's fopen */
  const char *tool = a->v[0];
  if (!code) {
    av_free(a);
    return RVHAL_OK;
  }
  char *log = read_file(log_path, NULL);
  if (out_log) *out_log = log;
  else free(log);
  int rc;
  if (code == -2)
    rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: %s: cannot open the build log %s: %s (was the build's "
                     "directory removed while it ran?)", name, log_path, strerror(err));
  else if (code < 0)
    rc = rvhal_error(RVHAL_MISSING_TOOL, "opencl_compile: cannot run %s: %s (install it: scripts/setup.sh)", tool,
                     strerror(err));
  else
    rc = rvhal_error(RVHAL_BUILD_FAILED, "opencl_compile: %s: %s", name, failure);
  av_free(a);
  return rc;
}

/* desc's ISA (checked), its kernel ABI and the kernel SDK built for it. */
static int compile_target(const rvhal_opencl_compile_desc_t *desc, const char **out_isa, const char **out_abi,
                          rvhal_opencl_sdk_t *out_sdk) {
  if (desc->xlen != 32 && desc->xlen != 64)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: xlen %u is not 32 or 64", desc->xlen);
  const char *isa = desc->isa ? desc->isa : desc->xlen == 64 ? "rv64imafdc" : "rv32imafdc";
  for (const char *c = isa; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_')
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: isa '%s' is not an ISA string", isa);
  if (strncmp(isa, desc->xlen == 64 ? "rv64" : "rv32", 4) || strlen(isa) > 64)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: isa '%s' is not an RV%u ISA string", isa, desc->xlen);
  /* The device's kernel ABI (soft-float without F/D: float and double are
   * libgcc's routines) and the SDK built for it. */
  const char *abi = rvhal_isa_kernel_abi(isa);
  const char *set = rvhal_kernel_set_name(abi);
  if (!set)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: isa '%s': kernel ABI %s has no kernel set (harts with "
                       "F but not D are not supported)", isa, abi ? abi : "(none)");
  *out_isa = isa;
  *out_abi = abi;
  return rvhal_opencl_sdk_find(set, out_sdk);
}

static void stamp_bytes(uint64_t *h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) *h = (*h ^ p[i]) * 0x100000001b3ull;
}

/* A file's name, size and modification time into *h (absent: its name). */
static void stamp_file(uint64_t *h, const char *path) {
  struct stat st;
  stamp_bytes(h, path, strlen(path) + 1);
  if (stat(path, &st) != 0) return;
  stamp_bytes(h, &st.st_size, sizeof st.st_size);
  stamp_bytes(h, &st.st_mtim, sizeof st.st_mtim);
}

int rvhal_opencl_compile_stamp(const rvhal_opencl_compile_desc_t *desc, uint64_t *inout_hash) {
  rvhal_clear_error();
  if (!desc || !inout_hash) return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile_stamp: NULL desc or inout_hash");
  const char *isa, *abi;
  rvhal_opencl_sdk_t sdk;
  RVHAL_RETURN_IF_ERROR(compile_target(desc, &isa, &abi, &sdk));
  /* The SDK's headers (at most 256 a directory): readdir's order may
   * differ between calls, so their stamps are combined order-free. */
  uint64_t headers = 0;
  char abi_rvhal[PATH_MAX + 8];
  snprintf(abi_rvhal, sizeof abi_rvhal, "%s/rvhal", sdk.abi_include);
  const char *dirs[3] = {sdk.sdk_include, sdk.abi_include, abi_rvhal};
  for (int i = 0; i < 3; i++) {
    DIR *d = opendir(dirs[i]);
    if (!d) continue;
    char path[PATH_MAX + 256];
    int n = 0;
    for (struct dirent *de; n < 256 && (de = readdir(d)) != NULL; n++) {
      if (de->d_name[0] == '.') continue;
      uint64_t one = 0xcbf29ce484222325ull;
      snprintf(path, sizeof path, "%s/%s", dirs[i], de->d_name);
      stamp_file(&one, path);
      headers += one;
    }
    closedir(d);
  }
  stamp_bytes(inout_hash, &headers, sizeof headers);
  stamp_file(inout_hash, sdk.kernel_lib);
  stamp_file(inout_hash, sdk.opencl_lib);
  stamp_file(inout_hash, sdk.opencl_bc);
  stamp_file(inout_hash, sdk.linker_script);
  stamp_file(inout_hash, sdk.clang);
  stamp_file(inout_hash, sdk.llvm_link);
  stamp_file(inout_hash, sdk.opt);
  stamp_file(inout_hash, sdk.llc);
  if (sdk.llvm_server[0]) stamp_file(inout_hash, sdk.llvm_server);
  stamp_file(inout_hash, sdk.gcc);
  stamp_bytes(inout_hash, isa, strlen(isa) + 1);
  return RVHAL_OK;
}

/* A step in the LLVM process (args[2] its output): 1 when it did it
 * (reply "ok" and the output written, or "clash NAME"). 0 when the tools
 * are to do it instead: no server, or it failed ("error", "ok" with no
 * output, or it died: the tools then give the log its usual diagnostics,
 * what the server wrote there cut off). */
static int server_step(const rvhal_opencl_sdk_t *sdk, const char *const *args, const char *log_path, char *reply,
                       size_t reply_size) {
  if (!sdk->llvm_server[0]) return 0;
  struct stat st;
  off_t before = stat(log_path, &st) == 0 ? st.st_size : 0;
  int answered = rvhal_llvm_server_call(sdk->llvm_server, args, reply, reply_size);
  if (answered && !strncmp(reply, "clash ", 6)) return 1;
  if (answered && !strcmp(reply, "ok") && stat(args[2], &st) == 0 && st.st_size > 0) return 1;
  unlink(args[2]);
  int cut = truncate(log_path, before); /* the tools' diagnostics, not the server's */
  (void)cut;
  return 0;
}

/* Objects (clCompileProgram's LLVM IR) into the one module the rest of a
 * build takes: written as they are (one), or linked (several: a symbol two
 * define is llvm-link's error, in the log). */
typedef struct objects {
  const char *const *ir;
  const size_t *sizes;
  uint32_t n;
} objects_t;

static int link_objects(const objects_t *objs, const rvhal_opencl_sdk_t *sdk, const char *dir, const char *prog_ll,
                        const char *log_path, argv_buf_t *a, char **out_log, const char *name) {
  if (objs->n == 1) {
    size_t n = objs->sizes ? objs->sizes[0] : strlen(objs->ir[0]);
    if (write_file(prog_ll, objs->ir[0], n, NULL, 0))
      return rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write %s: %s", prog_ll, strerror(errno));
    return RVHAL_OK;
  }
  /* The objects' names in a response file: a link may take thousands. */
  text_buf_t rsp = {0};
  int bad = 0;
  for (uint32_t i = 0; i < objs->n && !bad; i++) {
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/object%u.ll", dir, i);
    size_t n = objs->sizes ? objs->sizes[i] : strlen(objs->ir[i]);
    if (write_file(path, objs->ir[i], n, NULL, 0)) {
      free(rsp.data);
      return rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write %s: %s", path, strerror(errno));
    }
    bad = tb_add(&rsp, "\"", 1);
    for (const char *c = path; *c && !bad; c++) { /* quoted, " and \\ escaped */
      if (*c == '"' || *c == '\\') bad = tb_add(&rsp, "\\", 1);
      if (!bad) bad = tb_add(&rsp, c, 1);
    }
    bad = bad || tb_add(&rsp, "\"\n", 2);
  }
  char rsp_path[PATH_MAX + 32];
  snprintf(rsp_path, sizeof rsp_path, "%s/objects.rsp", dir);
  if (bad || write_file(rsp_path, rsp.data, rsp.len, NULL, 0)) {
    free(rsp.data);
    return rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write %s", rsp_path);
  }
  free(rsp.data);
  av_add(a, sdk->llvm_link);
  av_add(a, "-S");
  av_addf(a, "@%s", rsp_path);
  av_add(a, "-o");
  av_add(a, prog_ll);
  return step(a, log_path, out_log, "linking its objects failed (see the log: a symbol defined twice?)", name);
}

/* A build of desc's source, or of objects (objs->n > 0): the kernel ELF,
 * or with `object_only` clang's IR alone (rvhal_opencl_compile_object). */
static int compile_impl(const rvhal_opencl_compile_desc_t *desc, const objects_t *objs, int object_only,
                        void **out_elf, size_t *out_elf_size, char **out_log) {
  rvhal_clear_error();
  if (out_elf) *out_elf = NULL;
  if (out_elf_size) *out_elf_size = 0;
  if (out_log) *out_log = NULL;
  if (!desc || !out_elf || !out_elf_size)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: NULL desc, out_elf or out_elf_size");
  if (objs->n && !objs->ir) return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_link: NULL objects");
  if (!objs->n && !desc->source) return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: NULL source");
  for (uint32_t i = 0; i < objs->n; i++)
    if (!objs->ir[i]) return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_link: objects[%u] is NULL", i);
  const uint32_t word = desc->xlen / 8;
  const char *isa, *abi;
  rvhal_opencl_sdk_t sdk;
  RVHAL_RETURN_IF_ERROR(compile_target(desc, &isa, &abi, &sdk));
  /* llc's subtarget from the ISA's single-letter extensions: rv64imafdc -> +m,+a,+f,+d,+c */
  char mattr[128] = "-relax";
  for (const char *c = isa + 4; *c && *c != '_' && strlen(mattr) + 8 < sizeof mattr; c++) {
    if (*c == 'g') strcat(mattr, ",+m,+a,+f,+d");
    else if (strchr("mafdcv", *c)) sprintf(mattr + strlen(mattr), ",+%c", *c);
  }
  const char *name = desc->source_name ? desc->source_name : objs->n ? "<link>" : "<source>";
  if (strchr(name, '"') || strchr(name, '\n'))
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: source name '%s' has a quote or newline", name);

  /* A private directory (mkdtemp: mode 0700) in $TMPDIR or /tmp. */
  const char *tmp = getenv("TMPDIR");
  char dir[PATH_MAX];
  if (snprintf(dir, sizeof dir, "%s/rvhal-cl-XXXXXX", tmp && *tmp ? tmp : "/tmp") >= (int)sizeof dir - 16)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: TMPDIR=%s is too long", tmp);
  if (!mkdtemp(dir)) return rvhal_error(RVHAL_HOST_IO, "opencl_compile: mkdtemp in %s: %s", dir, strerror(errno));
  char path[NUM_FILES][PATH_MAX + 32];
  for (int i = 0; i < NUM_FILES; i++) snprintf(path[i], sizeof path[i], "%s/%s", dir, build_files[i]);
  const char *elf_path = path[ELF], *log_path = path[LOG];

  argv_buf_t a = {0};
  cl_program_ir_t prog = {0};
  char *ir = NULL, *tail = NULL, *entry = NULL;
  int rc = RVHAL_OK;
  if (objs->n) {
    if ((rc = link_objects(objs, &sdk, dir, path[PROG_LL], log_path, &a, out_log, name))) goto done;
    goto have_ir;
  }
  size_t src_size = desc->source_size ? desc->source_size : strlen(desc->source);
  /* #line: clang's diagnostics name the caller's file, not ours. */
  char line_dir[PATH_MAX + 64];
  int nl = snprintf(line_dir, sizeof line_dir, "#line 1 \"%s\"\n", name);
  if (write_file(path[SRC], line_dir, (size_t)nl, desc->source, src_size)) {
    rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write %s: %s", path[SRC], strerror(errno));
    goto done;
  }

  /* 1. OpenCL C to IR (unoptimized: opt runs once on the whole module). */
  int have_std = 0;
  clang_args(&a, sdk.clang, "cl", desc->xlen, isa, abi);
  av_add(&a, "-Xclang");
  av_add(&a, "-finclude-default-header");
  av_add(&a, "-Xclang");
  av_add(&a, "-ffake-address-space-map"); /* __local variables are told apart as addrspace(3) */
  av_add(&a, "-Xclang");
  av_add(&a, desc->xlen == 64 ? RVHAL_OPENCL_EXTENSIONS_RV64 : RVHAL_OPENCL_EXTENSIONS_RV32);
  static const char *const features[] = {RVHAL_OPENCL_HEADER_FEATURES};
  for (size_t i = 0; i < sizeof features / sizeof *features; i++) av_add(&a, features[i]);
  av_add(&a, "-cl-kernel-arg-info");
  av_add(&a, FRAME_LIMIT_FLAG);
  av_add(&a, "-O2");
  av_add(&a, "-Xclang");
  av_add(&a, "-disable-llvm-passes");
  if ((rc = options_to_argv(desc->options, &a, &have_std))) goto done;
  if (!have_std) av_add(&a, "-cl-std=CL1.2");
  av_add(&a, "-S");
  av_add(&a, "-emit-llvm");
  av_add(&a, path[SRC]);
  av_add(&a, "-o");
  if (av_add(&a, path[PROG_LL])) {
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_compile: too many build options");
    goto done;
  }
  if ((rc = step(&a, log_path, out_log, "failed to compile (clang's diagnostics are in the log)", name))) goto done;
  if (object_only) {
    if (!(ir = read_file(path[PROG_LL], out_elf_size))) {
      rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot read clang's IR");
      goto done;
    }
    *out_elf = ir;
    ir = NULL;
    goto log_out;
  }
have_ir:;

  /* 2. The rewrite and the entries. What the rewrite refuses counts only
   * where a kernel reaches it (opencl_ir.c); should it fail anyway, it is
   * tried once more on the module without the code no kernel reaches
   * (everything but the kernels internal, then unused definitions and
   * declarations removed), so that code no kernel calls fails no build.
   * Only then: an opt run is a tenth of a small program's build. */
  if (!(ir = read_file(path[PROG_LL], NULL))) {
    rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot read clang's IR");
    goto done;
  }
  char err[512] = "";
  rc = rvhal_cl_ir_rewrite(ir, word, &prog, err, sizeof err);
  if (rc == RVHAL_BUILD_FAILED) {
    char *kernels = rvhal_cl_ir_kernel_list(ir);
    if (!kernels) {
      rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
      goto done;
    }
    const int drop = *kernels;
    if (drop) {
      av_add(&a, sdk.opt);
      av_add(&a, "-passes=internalize,globaldce");
      av_addf(&a, "-internalize-public-api-list=%s", kernels);
      av_add(&a, "-S");
      av_add(&a, path[PROG_LL]);
      av_add(&a, "-o");
      av_add(&a, path[PROG_LL]);
    }
    free(kernels);
    if (drop) {
      if ((rc = step(&a, log_path, out_log, "dropping the code no kernel reaches failed (see the log)", name))) goto done;
      free(ir);
      if (!(ir = read_file(path[PROG_LL], NULL))) {
        rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot read the IR opt wrote");
        goto done;
      }
      err[0] = '\0';
      rc = rvhal_cl_ir_rewrite(ir, word, &prog, err, sizeof err);
    }
  }
  if (rc) {
    char *log = NULL;
    if (asprintf(&log, "%s: %s\n", name, err) < 0) log = NULL;
    if (out_log) *out_log = log;
    else free(log);
    rc = rvhal_error(rc, "opencl_compile: %s: %s", name, err);
    goto done;
  }
  if (!prog.num_kernels) {
    if (out_log && asprintf(out_log, "%s: error: the program has no __kernel function\n", name) < 0) *out_log = NULL;
    rc = rvhal_error(RVHAL_BUILD_FAILED, "opencl_compile: %s has no __kernel function", name);
    goto done;
  }
  if ((rc = rvhal_cl_entries(&prog, word, &tail, &entry))) goto done;
  if (write_file(path[KERN_LL], prog.text, prog.text_len, tail, strlen(tail)) ||
      write_file(path[ENTRY_C], entry, strlen(entry), NULL, 0)) {
    rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write in %s: %s", dir, strerror(errno));
    goto done;
  }

  /* 3. The entries to IR, with the SDK headers. */
  clang_args(&a, sdk.clang, "c", desc->xlen, isa, abi);
  av_add(&a, "-std=gnu11");
  av_add(&a, "-mcmodel=medany");
  av_add(&a, "-ftls-model=local-exec");
  av_add(&a, "-fno-common");
  av_add(&a, "-ffreestanding");
  av_add(&a, FRAME_LIMIT_FLAG);
  av_add(&a, "-O2");
  av_add(&a, "-Xclang");
  av_add(&a, "-disable-llvm-passes");
  av_addf(&a, "-I%s", sdk.sdk_include);
  av_addf(&a, "-I%s", sdk.abi_include);
  av_add(&a, "-S");
  av_add(&a, "-emit-llvm");
  av_add(&a, path[ENTRY_C]);
  av_add(&a, "-o");
  av_add(&a, path[ENTRY_LL]);
  if ((rc = step(&a, log_path, out_log, "its generated entries did not compile (see the log)", name))) goto done;

  /* 4. One module: the entries, then what they reach of the program, then
   * the built-ins that calls (from the library's bitcode, as libclc is
   * linked), so that they inline (--only-needed applies to the files after
   * the first); everything but the entries internal, then -O2. In the LLVM
   * process when there is one (llvm_server.h), else by the tools. */
  text_buf_t keep = {0}, kernels = {0};
  for (uint32_t i = 0; i < prog.num_kernels; i++) {
    const char *k = prog.kernels[i].name;
    if (tb_printf(&keep, "%s%s,%s" RVHAL_META_SUFFIX ",%s" RVHAL_META_ARGS_SUFFIX ",%s" RVHAL_OPENCL_META_SUFFIX,
                  i ? "," : "", k, k, k, k) ||
        tb_printf(&kernels, "%s%s", i ? "," : "", k)) {
      free(keep.data);
      free(kernels.data);
      rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
      goto done;
    }
  }
  char mattr_opt[160];
  snprintf(mattr_opt, sizeof mattr_opt, "-mattr=%s", mattr);
  char reply[256];
  const char *const link_opt[] = {"link-opt", log_path,      path[OPT],  mattr,       keep.data,
                                  kernels.data, path[ENTRY_LL], path[KERN_LL], sdk.opencl_bc, NULL};
  int served = server_step(&sdk, link_opt, log_path, reply, sizeof reply);
  free(kernels.data);
  if (served && !strncmp(reply, "clash ", 6)) {
    free(keep.data);
    rc = clash_error(name, reply + 6);
    goto done;
  }
  if (!served) {
    av_add(&a, sdk.llvm_link);
    av_add(&a, "-S");
    av_add(&a, "--only-needed");
    av_add(&a, path[ENTRY_LL]);
    av_add(&a, path[KERN_LL]);
    av_add(&a, sdk.opencl_bc);
    av_add(&a, "-o");
    av_add(&a, path[LINKED]);
    if ((rc = step(&a, log_path, out_log, "linking its IR with the built-in library failed (see the log)", name)) ||
        (rc = library_name_clash(path[LINKED], &prog, name))) {
      free(keep.data);
      goto done;
    }
    av_add(&a, sdk.opt);
    av_add(&a, "-passes=internalize,default<O2>");
    av_add(&a, mattr_opt);
    av_addf(&a, "-internalize-public-api-list=%s", keep.data);
    av_add(&a, "-S");
    av_add(&a, path[LINKED]);
    av_add(&a, "-o");
    av_add(&a, path[OPT]);
    if ((rc = step(&a, log_path, out_log, "optimizing it failed (see the log)", name))) {
      free(keep.data);
      goto done;
    }
  }
  free(keep.data);
  int needs_dce = 0;
  if ((rc = drop_assumes(path[OPT], &needs_dce))) goto done;

  /* 5. Code generation (first opt's dce where drop_assumes left a
   * condition to it). */
  const char *const codegen[] = {"codegen", log_path, path[OBJ], path[OPT], mattr, abi, needs_dce ? "1" : "0", NULL};
  if (!server_step(&sdk, codegen, log_path, reply, sizeof reply)) {
    if (needs_dce) {
      av_add(&a, sdk.opt); /* the conditions the assumes tested, now dead */
      av_add(&a, "-passes=dce");
      av_add(&a, "-S");
      av_add(&a, path[OPT]);
      av_add(&a, "-o");
      av_add(&a, path[OPT]);
      if ((rc = step(&a, log_path, out_log, "optimizing it failed (see the log)", name))) goto done;
    }
    av_add(&a, sdk.llc);
    av_add(&a, "-O2");
    av_add(&a, "-filetype=obj");
    av_add(&a, "-relocation-model=static");
    av_add(&a, "-code-model=medium");
    av_addf(&a, "-target-abi=%s", abi);
    av_add(&a, mattr_opt);
    /* Loop strength reduction rewrites a loop's exit test in terms of an
     * address it steps (LLVM 17's default for RISC-V): matmul's inner loop
     * 7 instructions, as GCC's, instead of 8 with a down-counter. And block
     * placement weighs a loop's rotations by their taken branches: an
     * `if (x) atomic_add(...)` in a loop falls through to the latch instead
     * of jumping back to it, one translation block fewer per iteration in
     * QEMU (the histogram's merge loop). llvm_server.cpp sets both too. */
    av_add(&a, "-lsr-term-fold");
    av_add(&a, "-force-precise-rotation-cost");
    av_add(&a, path[OPT]);
    av_add(&a, "-o");
    av_add(&a, path[OBJ]);
    if ((rc = step(&a, log_path, out_log, "code generation failed (see the log)", name))) goto done;
  }
  {
    char *log = read_file(log_path, NULL);
    int too_big = log && strstr(log, "stack frame size") && strstr(log, "exceeds limit");
    free(log);
    if (too_big) {
      if (out_log) *out_log = read_file(log_path, NULL);
      rc = rvhal_error(RVHAL_BUILD_FAILED, "opencl_compile: %s: a kernel's stack frame exceeds %u bytes (private arrays "
                       "that large belong in local or global memory)", name, FRAME_LIMIT);
      goto done;
    }
  }

  /* 6. Link as the SDK links its kernels (RvhalKernelSdk.cmake). GCC picks
   * picolibc's multilib by -march, and has none with V (rv32imafdcv fell
   * back to the rv64 one): link with the ISA's letters but v, the
   * libraries being scalar anyway. */
  char link_isa[72]; /* isa is at most 64 characters (checked above) */
  size_t li = 0;
  const char *multi = strchr(isa, '_'); /* multi-letter extensions, kept */
  for (const char *c = isa; *c; c++)
    if (c < isa + 4 || (multi && c >= multi) || *c != 'v') link_isa[li++] = *c;
  link_isa[li] = '\0';
  av_add(&a, sdk.gcc);
  av_addf(&a, "-march=%s", link_isa);
  av_addf(&a, "-mabi=%s", abi);
  av_add(&a, "-misa-spec=2.2");
  av_add(&a, "-mcmodel=medany");
  av_add(&a, "--specs=picolibc.specs");
  av_addf(&a, "-T%s", sdk.linker_script);
  av_add(&a, "-Wl,--no-relax");
  av_add(&a, "-nostartfiles");
  av_add(&a, "-Wl,--no-gc-sections");
  { /* ld -y NAME for each kernel (shared_name()), from a file: a program may have thousands of kernels */
    text_buf_t y = {0};
    int bad = 0;
    for (uint32_t i = 0; i < prog.num_kernels && !bad; i++) bad = tb_printf(&y, "-y %s\n", prog.kernels[i].name);
    if (bad || write_file(path[TRACE], y.data ? y.data : "", y.len, NULL, 0)) {
      free(y.data);
      rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot write %s", path[TRACE]);
      goto done;
    }
    free(y.data);
    av_addf(&a, "-Wl,@%s", path[TRACE]);
  }
  av_add(&a, path[OBJ]);
  av_add(&a, sdk.opencl_lib);
  av_add(&a, sdk.kernel_lib);
  av_add(&a, "-lm");
  av_add(&a, "-o");
  av_add(&a, elf_path);
  if ((rc = step(&a, log_path, out_log,
                 "linking failed (see the log: an undefined symbol is a built-in rvhal does not have)", name)))
    goto done;
  if ((rc = shared_name(log_path, path[OBJ], &prog, name))) goto done;
  void *elf = read_file(elf_path, out_elf_size);
  if (!elf) {
    rc = rvhal_error(RVHAL_HOST_IO, "opencl_compile: cannot read %s", elf_path);
    goto done;
  }
  *out_elf = elf;
log_out:
  if (out_log) { /* warnings, if any */
    size_t n = 0;
    char *log = read_file(log_path, &n);
    if (log && !n) {
      free(log);
      log = NULL;
    }
    *out_log = log;
  }
done:
  av_free(&a);
  free(ir);
  free(tail);
  free(entry);
  rvhal_cl_ir_free(&prog);
  if (!getenv("RVHAL_CL_KEEP_TEMPS")) remove_tree(dir);
  else fprintf(stderr, "rvhal: OpenCL C build files kept in %s\n", dir);
  return rc;
}

int rvhal_opencl_compile(const rvhal_opencl_compile_desc_t *desc, void **out_elf, size_t *out_elf_size,
                         char **out_log) {
  const objects_t none = {0};
  return compile_impl(desc, &none, 0, out_elf, out_elf_size, out_log);
}

int rvhal_opencl_compile_object(const rvhal_opencl_compile_desc_t *desc, char **out_ir, size_t *out_ir_size,
                                char **out_log) {
  void *ir = NULL;
  const objects_t none = {0};
  int rc = compile_impl(desc, &none, 1, &ir, out_ir_size, out_log);
  if (out_ir) *out_ir = ir;
  else free(ir);
  return rc;
}

int rvhal_opencl_link(const rvhal_opencl_compile_desc_t *desc, const char *const *objects, const size_t *object_sizes,
                      uint32_t num_objects, void **out_elf, size_t *out_elf_size, char **out_log) {
  if (!num_objects) {
    if (out_log) *out_log = NULL;
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "opencl_link: no objects");
  }
  const objects_t objs = {objects, object_sizes, num_objects};
  return compile_impl(desc, &objs, 0, out_elf, out_elf_size, out_log);
}

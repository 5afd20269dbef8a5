/* The OpenCL C compiler's LLVM process (host/src/compiler/llvm_server.h)
 * gives what llvm-link, opt and llc give: for each program, RV64 and RV32,
 * the same status, the same ELF byte for byte and the same log (llc's
 * frame-size warnings and spill figures too) with the server as with
 * RVHAL_LLVM_SERVER=0; it runs as a child of the process that compiles;
 * and a server that dies at once, echoes its request, says "ok" without
 * doing the work or writes into the build's log and dies changes nothing
 * but the time: the tools take over, and
 * the real server is used again after them.
 * Skipped (77) in a build without the server (no llvm-16-dev). */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "read_text.h"
#include "rvhal/compiler.h"
#include "rvhal/rvhal.h"

/* Children of this process whose command is the server's (comm holds 15 characters). */
static int servers_running(void) {
  DIR *d = opendir("/proc");
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[300], stat[512];
    snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    size_t got = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[got] = '\0';
    char *close = strrchr(stat, ')');
    int ppid = 0;
    if (close && sscanf(close + 1, " %*c %d", &ppid) == 1 && ppid == getpid() && strstr(stat, "(rvhal-llvm-serv"))
      n++;
  }
  if (d) closedir(d);
  return n;
}

typedef struct build {
  int status;
  void *elf;
  size_t size;
  char *log;
} build_t;

static build_t compile(const char *src, const char *name, const char *options, uint32_t xlen, const char *server) {
  if (server) setenv("RVHAL_LLVM_SERVER", server, 1);
  else unsetenv("RVHAL_LLVM_SERVER");
  build_t b = {0};
  rvhal_opencl_compile_desc_t d = {src, 0, name, options, xlen, NULL};
  b.status = rvhal_opencl_compile(&d, &b.elf, &b.size, &b.log);
  return b;
}

static void same(const build_t *a, const build_t *b, const char *what) {
  CHECK_MSG(a->status == b->status, "%s: status %d with the tools, %d here", what, a->status, b->status);
  CHECK_MSG(a->size == b->size && (!a->size || !memcmp(a->elf, b->elf, a->size)),
            "%s: the ELF differs (%zu bytes with the tools, %zu here)", what, a->size, b->size);
  int logs = (!a->log && !b->log) || (a->log && b->log && !strcmp(a->log, b->log));
  CHECK_MSG(logs, "%s: the log differs:\n--- tools\n%s\n--- here\n%s", what, a->log ? a->log : "(none)",
            b->log ? b->log : "(none)");
}

static void drop(build_t *b) {
  free(b->elf);
  free(b->log);
}

int main(void) {
  struct stat st;
  if (stat(RVHAL_TEST_LLVM_SERVER, &st) != 0) {
    printf("SKIP: %s was not built (no llvm-16-dev): builds run the tools\n", RVHAL_TEST_LLVM_SERVER);
    return 77;
  }
  char tmp[] = "/tmp/rvhal-test-llvm-server-XXXXXX";
  CHECK(mkdtemp(tmp) != NULL);
  setenv("TMPDIR", tmp, 1);

  /* Programs that take each path: plain and barrier kernels, the built-in
   * library's math, images, a frame too big (llc's warning fails the
   * build), a kernel named like a library function (the clash check), -g. */
  static const struct {
    const char *file, *options;
  } programs[] = {{"values.cl", NULL},        {"vadd_rows.cl", NULL},        {"execution.cl", "-cl-std=CL3.0"},
                  {"image.cl", NULL},         {"hot_loops.cl", "-cl-std=CL3.0 -cl-fast-relaxed-math"},
                  {"big_frame.cl", NULL},     {"name_clash_libm.cl", NULL}, {"vadd.cl", "-g"}};
  char *srcs[sizeof programs / sizeof programs[0]];
  for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/kernels/%s", RVHAL_TEST_OPENCL_DIR, programs[i].file);
    srcs[i] = read_text(path);
    CHECK_MSG(srcs[i] != NULL, "cannot read %s", path);
    if (!srcs[i]) return check_result("unit.test_llvm_server");
  }
  int ok_builds = 0;
  for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++)
    for (uint32_t xlen = 64; xlen >= 32; xlen -= 32) {
      char what[128];
      snprintf(what, sizeof what, "%s RV%u", programs[i].file, xlen);
      build_t tools = compile(srcs[i], programs[i].file, programs[i].options, xlen, "0");
      build_t served = compile(srcs[i], programs[i].file, programs[i].options, xlen, NULL);
      same(&tools, &served, what);
      ok_builds += served.status == RVHAL_OK;
      drop(&tools);
      drop(&served);
    }
  CHECK_MSG(ok_builds == 12, "%d builds succeeded, not 12", ok_builds);
  CHECK_MSG(servers_running() == 1, "%d servers run as children of this process, not 1", servers_running());
  build_t clash = compile(srcs[6], "name_clash_libm.cl", NULL, 64, NULL);
  CHECK_MSG(clash.status == RVHAL_BUILD_FAILED && strstr(rvhal_last_error(), "kernel name 'asin' is a function"),
            "clash: %d %s", clash.status, rvhal_last_error());
  drop(&clash);

  /* Servers that do not do their work: the tools do it, same result. */
  char liar[600];
  snprintf(liar, sizeof liar, "%s/liar.sh", tmp);
  FILE *f = fopen(liar, "w");
  CHECK(f != NULL);
  if (f) fputs("#!/bin/sh\nwhile :; do printf 'ok\\0'; sleep 1; done\n", f), fclose(f);
  chmod(liar, 0755);
  /* One that writes into the build's log (the request's second string) and dies. */
  char noisy[600];
  snprintf(noisy, sizeof noisy, "%s/noisy.sh", tmp);
  f = fopen(noisy, "w");
  CHECK(f != NULL);
  if (f) fputs("#!/bin/bash\nread -r -d '' cmd; read -r -d '' log; echo 'noise from a dying server' >> \"$log\"\n", f),
      fclose(f);
  chmod(noisy, 0755);
  const char *const bad[] = {"/bin/true", "/bin/cat", liar, noisy};
  build_t tools = compile(srcs[0], "values.cl", NULL, 64, "0");
  CHECK_OK(tools.status);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    for (int twice = 0; twice < 2; twice++) {
      build_t b = compile(srcs[0], "values.cl", NULL, 64, bad[i]);
      char what[700];
      snprintf(what, sizeof what, "with RVHAL_LLVM_SERVER=%s, build %d", bad[i], twice + 1);
      same(&tools, &b, what);
      drop(&b);
    }
  /* And the real one again (the last bad one stopped and waited for). */
  build_t again = compile(srcs[0], "values.cl", NULL, 64, NULL);
  same(&tools, &again, "the server after the bad ones");
  CHECK_MSG(servers_running() == 1, "%d servers run as children of this process, not 1", servers_running());
  drop(&again);
  drop(&tools);
  unlink(liar);
  unlink(noisy);
  for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) free(srcs[i]);
  CHECK_MSG(rmdir(tmp) == 0, "a build left files in %s", tmp);
  return check_result("unit.test_llvm_server");
}

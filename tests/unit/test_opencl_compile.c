/* rvhal_opencl_compile and what rvhal_program_info_read then reports for
 * an OpenCL C kernel (no device): the contract the OpenCL platform builds
 * on. For RV64 and RV32: tests/opencl/kernels/values.cl compiles; its
 * kernel is found by its OpenCL name with language OPENCL and source_name;
 * each argument has clang's type name and name, its address space, its
 * qualifiers, kind, size, offset and value type; a damaged or other-version
 * OpenCL record is refused; a syntax error is RVHAL_BUILD_FAILED with
 * clang's file:line in the log; bad arguments are refused by name; the
 * compile stamp a binary cache keys on follows the SDK's files. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "read_text.h"
#include "rvhal/compiler.h"
#include "rvhal/program_info.h"
#include "rvhal/rvhal.h"

typedef struct want {
  const char *type_name, *name;
  uint32_t kind, space, quals, type, size;
} want_t;

static void check_values(uint32_t xlen, const char *src) {
  const uint32_t w = xlen / 8;
  rvhal_opencl_compile_desc_t d = {src, 0, "values.cl", "-cl-std=CL1.2", xlen, NULL};
  void *elf = NULL;
  size_t size = 0;
  char *log = NULL;
  int rc = rvhal_opencl_compile(&d, &elf, &size, &log);
  CHECK_MSG(rc == RVHAL_OK, "RV%u: opencl_compile: %s: %s\n%s", xlen, rvhal_status_name(rc), rvhal_last_error(),
            log ? log : "");
  free(log);
  if (rc) return;
  rvhal_program_info_t *info = NULL;
  CHECK_OK(rvhal_program_info_read(elf, size, &info));
  if (!info) {
    free(elf);
    return;
  }
  CHECK_EQ_U64(info->word_size, w);
  CHECK_EQ_U64(info->num_kernels, 1);
  const rvhal_kernel_info_t *k = &info->kernels[0];
  CHECK(!strcmp(k->name, "values"));
  CHECK(k->source_name && !strcmp(k->source_name, "values"));
  CHECK_EQ_U64(k->language, RVHAL_KERNEL_LANG_OPENCL);
  CHECK_EQ_U64(k->num_args, 9);
  const uint32_t V = RVHAL_ARG_KIND_VALUE, G = RVHAL_ARG_KIND_GLOBAL, L = RVHAL_ARG_KIND_LOCAL;
  const want_t want[9] = {
      {"float*", "out", G, RVHAL_ADDRESS_GLOBAL, 0, RVHAL_TYPE_UNKNOWN, w},
      {"char", "c", V, RVHAL_ADDRESS_PRIVATE, 0, RVHAL_TYPE_I8, 1},
      {"ushort", "s", V, RVHAL_ADDRESS_PRIVATE, 0, RVHAL_TYPE_U16, 2},
      {"long", "l", V, RVHAL_ADDRESS_PRIVATE, 0, RVHAL_TYPE_I64, 8},
      {"double", "d", V, RVHAL_ADDRESS_PRIVATE, 0, RVHAL_TYPE_F64, 8},
      {"float4", "v", V, RVHAL_ADDRESS_PRIVATE, 0, RVHAL_TYPE_POD, 16},
      {"triple", "t", V, RVHAL_ADDRESS_PRIVATE, 0, RVHAL_TYPE_POD, 12},
      {"int*", "scratch", L, RVHAL_ADDRESS_LOCAL, 0, RVHAL_TYPE_UNKNOWN, w},
      {"int*", "k", G, RVHAL_ADDRESS_CONSTANT, RVHAL_TYPE_QUAL_CONST, RVHAL_TYPE_UNKNOWN, w},
  };
  /* The pack: each argument at the next multiple of the power of two >= its size. */
  uint32_t off = 0;
  for (uint32_t i = 0; i < 9 && i < k->num_args; i++) {
    const rvhal_kernel_arg_info_t *a = &k->args[i];
    uint32_t al = 1;
    while (al < want[i].size) al <<= 1;
    off = (off + al - 1) & ~(al - 1);
    CHECK_MSG(a->type_name && !strcmp(a->type_name, want[i].type_name), "RV%u arg %u type %s, want %s", xlen, i,
              a->type_name ? a->type_name : "(null)", want[i].type_name);
    CHECK_MSG(a->name && !strcmp(a->name, want[i].name), "RV%u arg %u name %s", xlen, i, a->name ? a->name : "(null)");
    CHECK_MSG(a->kind == want[i].kind && a->address_space == want[i].space && a->type_qualifiers == want[i].quals &&
                  a->access_qualifier == RVHAL_ACCESS_NONE && a->type == want[i].type && a->size == want[i].size &&
                  a->offset == off,
              "RV%u arg %u '%s': kind %u space %u quals %u access %u type %u size %u offset %u; want %u %u %u 0 %u %u %u",
              xlen, i, want[i].name, a->kind, a->address_space, a->type_qualifiers, a->access_qualifier, a->type, a->size,
              a->offset, want[i].kind, want[i].space, want[i].quals, want[i].type, want[i].size, off);
    off += want[i].size;
  }
  rvhal_program_info_free(info);

  /* The OpenCL record damaged: an unterminated attribute text, a required
   * work-group size with a 0, another version (1, the record before
   * attributes; 99): each refused, saying what. */
  uint8_t *b = elf;
  size_t rec = 0;
  int found = 0;
  for (size_t i = 0; i + sizeof(rvhal_opencl_meta_t) <= size; i++)
    if (!memcmp(b + i, "OCCL", 4) && b[i + 4] == RVHAL_OPENCL_META_VERSION && !b[i + 5] && !b[i + 6] && !b[i + 7]) {
      rec = i;
      found++;
    }
  CHECK_EQ_U64(found, 1);
  if (found != 1) {
    free(elf);
    return;
  }
  rvhal_opencl_meta_t saved;
  memcpy(&saved, b + rec, sizeof saved);
  memset(b + rec + offsetof(rvhal_opencl_meta_t, attributes), 'x', RVHAL_OPENCL_ATTRIBUTES_MAX);
  info = NULL;
  CHECK_EQ_U64(rvhal_program_info_read(elf, size, &info), (uint64_t)(int64_t)RVHAL_BAD_ELF);
  CHECK_MSG(strstr(rvhal_last_error(), "values__rvhal_opencl: its attribute text is not NUL-terminated") != NULL, "%s",
            rvhal_last_error());
  memcpy(b + rec, &saved, sizeof saved);
  const uint32_t reqd[3] = {4, 0, 1};
  memcpy(b + rec + offsetof(rvhal_opencl_meta_t, reqd_work_group_size), reqd, sizeof reqd);
  CHECK_EQ_U64(rvhal_program_info_read(elf, size, &info), (uint64_t)(int64_t)RVHAL_BAD_ELF);
  CHECK_MSG(strstr(rvhal_last_error(), "values__rvhal_opencl: reqd_work_group_size(4, 0, 1) has a 0") != NULL, "%s",
            rvhal_last_error());
  memcpy(b + rec, &saved, sizeof saved);
  b[rec + 4] = 1;
  CHECK_EQ_U64(rvhal_program_info_read(elf, size, &info), (uint64_t)(int64_t)RVHAL_BAD_ELF);
  CHECK_MSG(strstr(rvhal_last_error(), "OpenCL metadata values__rvhal_opencl is version 1; this rvhal reads version 2") !=
                NULL, "%s", rvhal_last_error());
  b[rec + 4] = 99;
  CHECK_EQ_U64(rvhal_program_info_read(elf, size, &info), (uint64_t)(int64_t)RVHAL_BAD_ELF);
  CHECK_MSG(strstr(rvhal_last_error(), "OpenCL metadata values__rvhal_opencl is version 99") != NULL, "%s",
            rvhal_last_error());
  free(elf);
}

/* Entries of a directory besides . and .. */
static int entries(const char *dir) {
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
  if (d) closedir(d);
  return n;
}

/* rvhal_opencl_compile_stamp over an SDK laid out as an install's
 * (RVHAL_KERNEL_SDK_DIR): the same files give the same stamp; a header or
 * library (the built-ins' bitcode too) with another time or size gives
 * another, so a binary cache does not serve what an older SDK compiled. */
static void check_stamp(void) {
  char sdk[] = "/tmp/rvhal-test-sdk-XXXXXX";
  if (!mkdtemp(sdk)) {
    CHECK_MSG(0, "mkdtemp for the SDK");
    return;
  }
  static const char *const dirs[] = {"rv64", "include", "include/rvhal", "include/rvhal/kernel"};
  static const char *const files[] = {"rv64/librvhal_kernel.a", "rv64/kernel.ld", "rv64/librvhal_opencl.a",
                                      "rv64/librvhal_opencl.bc", "include/rvhal/kernel/rvhal_opencl_entry.h",
                                      "include/rvhal/kernel/kernel_if.h"};
  char path[512];
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", sdk, dirs[i]);
    CHECK(mkdir(path, 0755) == 0);
  }
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", sdk, files[i]);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) fputs("x\n", f), fclose(f);
  }
  const char *old = getenv("RVHAL_KERNEL_SDK_DIR");
  char *saved = old ? strdup(old) : NULL;
  setenv("RVHAL_KERNEL_SDK_DIR", sdk, 1);
  rvhal_opencl_compile_desc_t d = {"__kernel void k() {}\n", 0, NULL, NULL, 64, NULL};
  uint64_t a = 1, b = 1, c = 1, e = 1;
  CHECK_MSG(rvhal_opencl_compile_stamp(&d, &a) == RVHAL_OK, "stamp: %s", rvhal_last_error());
  CHECK_OK(rvhal_opencl_compile_stamp(&d, &b));
  CHECK_EQ_U64(a, b);
  /* A header of the SDK an hour older: another stamp. */
  snprintf(path, sizeof path, "%s/include/rvhal/kernel/kernel_if.h", sdk);
  struct timespec t[2] = {{1700000000, 0}, {1700000000, 0}};
  CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
  CHECK_OK(rvhal_opencl_compile_stamp(&d, &c));
  CHECK_MSG(c != a, "a changed SDK header left the stamp %llx", (unsigned long long)c);
  /* Each file of the SDK (libraries, linker script, headers) grown by a
   * byte: another stamp each time (a rebuilt built-in library must not
   * leave the binary cache serving kernels linked with the old one). */
  uint64_t prev = c;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", sdk, files[i]);
    FILE *f = fopen(path, "a");
    if (f) fputs("y", f), fclose(f);
    e = 1;
    CHECK_OK(rvhal_opencl_compile_stamp(&d, &e));
    CHECK_MSG(e != prev && e != a, "a changed %s left the stamp %llx", files[i], (unsigned long long)e);
    prev = e;
  }
  d.xlen = 16;
  CHECK_EQ_U64(rvhal_opencl_compile_stamp(&d, &e), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  CHECK(strstr(rvhal_last_error(), "xlen 16 is not 32 or 64") != NULL);
  CHECK_EQ_U64(rvhal_opencl_compile_stamp(NULL, &e), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  if (saved) setenv("RVHAL_KERNEL_SDK_DIR", saved, 1);
  else unsetenv("RVHAL_KERNEL_SDK_DIR");
  free(saved);
  for (int i = (int)(sizeof files / sizeof files[0]) - 1; i >= 0; i--) {
    snprintf(path, sizeof path, "%s/%s", sdk, files[i]);
    unlink(path);
  }
  for (int i = (int)(sizeof dirs / sizeof dirs[0]) - 1; i >= 0; i--) {
    snprintf(path, sizeof path, "%s/%s", sdk, dirs[i]);
    rmdir(path);
  }
  rmdir(sdk);
}

/* Objects compiled apart (each with its own -D) and linked into one ELF;
 * a symbol both define, IR that is not IR and no objects are refused. */
static void check_objects(uint32_t xlen) {
  rvhal_opencl_compile_desc_t da = {"int helper(int x) { return x + VAL; }\n", 0, "a.cl", "-DVAL=2", xlen, NULL};
  rvhal_opencl_compile_desc_t db = {"int helper(int x);\n__kernel void k(__global int *p) { p[0] = helper(VAL); }\n", 0,
                                    "b.cl", "-DVAL=5", xlen, NULL};
  char *ir[3] = {NULL, NULL, NULL}, *log = NULL;
  size_t n[3] = {0, 0, 0};
  CHECK_OK(rvhal_opencl_compile_object(&da, &ir[0], &n[0], &log));
  free(log);
  CHECK_OK(rvhal_opencl_compile_object(&db, &ir[1], &n[1], &log));
  free(log);
  CHECK(ir[0] && strstr(ir[0], "define") && strstr(ir[0], "@helper") && n[0] == strlen(ir[0]));
  CHECK(ir[1] && strstr(ir[1], "declare") && strstr(ir[1], "@helper"));
  /* an object needs no kernel, and its -D is its own */
  CHECK(ir[1] && strstr(ir[1], " 5)") != NULL); /* helper(5) */
  void *elf = NULL;
  size_t size = 0;
  rvhal_opencl_compile_desc_t link = {NULL, 0, NULL, NULL, xlen, NULL};
  CHECK_OK(rvhal_opencl_link(&link, (const char *const *)ir, n, 2, &elf, &size, &log));
  free(log);
  log = NULL;
  rvhal_program_info_t *info = NULL;
  if (elf && rvhal_program_info_read(elf, size, &info) == RVHAL_OK) {
    CHECK_EQ_U64(info->num_kernels, 1);
    CHECK_EQ_U64(info->word_size, xlen / 8);
    rvhal_program_info_free(info);
  } else {
    CHECK_MSG(0, "the linked ELF: %s", rvhal_last_error());
  }
  free(elf);
  elf = NULL;
  /* helper twice */
  ir[2] = ir[0];
  n[2] = n[0];
  CHECK_EQ_U64(rvhal_opencl_link(&link, (const char *const *)ir, n, 3, &elf, &size, &log),
               (uint64_t)(int64_t)RVHAL_BUILD_FAILED);
  CHECK_MSG(log && strstr(log, "helper"), "the log names the symbol: %s", log ? log : "(none)");
  CHECK(elf == NULL);
  free(log);
  log = NULL;
  const char *junk = "this is not LLVM IR\n";
  CHECK_EQ_U64(rvhal_opencl_link(&link, &junk, NULL, 1, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_BUILD_FAILED);
  CHECK(log != NULL);
  free(log);
  log = NULL;
  /* More objects than a command line takes (CTS multiple_libraries links 256). */
  enum { MANY = 300 };
  rvhal_opencl_compile_desc_t dm = {"int HNAME(int x) { return x + 1; }\n", 0, "m.cl", NULL, xlen, NULL};
  rvhal_opencl_compile_desc_t dk = {"int h0(int x); int h299(int x);\n"
                                    "__kernel void k(__global int *p) { p[0] = h0(1) + h299(2); }\n", 0, "k.cl", NULL, xlen,
                                    NULL};
  char *one = NULL, *kir = NULL;
  size_t one_n = 0, kir_n = 0;
  CHECK_OK(rvhal_opencl_compile_object(&dm, &one, &one_n, NULL));
  CHECK_OK(rvhal_opencl_compile_object(&dk, &kir, &kir_n, NULL));
  static char *many[MANY + 1];
  static size_t many_n[MANY + 1];
  for (int i = 0; one && kir && i < MANY; i++) { /* HNAME renamed h<i> in the IR text */
    char name[16];
    snprintf(name, sizeof name, "h%d", i);
    many[i] = malloc(one_n + 16);
    size_t at = 0;
    for (const char *c = one; *c;)
      if (!strncmp(c, "HNAME", 5)) at += (size_t)sprintf(many[i] + at, "%s", name), c += 5;
      else many[i][at++] = *c++;
    many[i][at] = 0;
    many_n[i] = at;
  }
  many[MANY] = kir;
  many_n[MANY] = kir_n;
  if (one && kir) {
    CHECK_MSG(rvhal_opencl_link(&link, (const char *const *)many, many_n, MANY + 1, &elf, &size, &log) == RVHAL_OK,
              "%d objects: %s\n%s", MANY + 1, rvhal_last_error(), log ? log : "");
    for (int i = 0; i < MANY; i++) free(many[i]);
  }
  free(one);
  free(kir);
  free(elf);
  elf = NULL;
  free(log);
  log = NULL;
  CHECK_EQ_U64(rvhal_opencl_link(&link, (const char *const *)ir, n, 0, &elf, &size, &log),
               (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  CHECK_EQ_U64(rvhal_opencl_link(&link, NULL, NULL, 2, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  free(ir[0]);
  free(ir[1]);
}

int main(void) {
  /* Every build works in a directory of its own under $TMPDIR and removes it. */
  char tmp[] = "/tmp/rvhal-test-tmpdir-XXXXXX";
  CHECK(mkdtemp(tmp) != NULL);
  setenv("TMPDIR", tmp, 1);
  char *src = read_text(RVHAL_TEST_OPENCL_DIR "/kernels/values.cl");
  CHECK(src != NULL);
  if (!src) return check_result("unit.test_opencl_compile");
  check_values(64, src);
  check_values(32, src);

  void *elf = NULL;
  size_t size = 0;
  char *log = NULL;
  /* clang's diagnostic, with the caller's file name and the line. */
  rvhal_opencl_compile_desc_t bad = {"__kernel void k(__global int *p) {\n  p[0] = nope;\n}\n", 0, "mine.cl", NULL, 64,
                                     NULL};
  CHECK_EQ_U64(rvhal_opencl_compile(&bad, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_BUILD_FAILED);
  CHECK_MSG(log && strstr(log, "mine.cl:2:10: error: use of undeclared identifier 'nope'"), "log: %s", log ? log : "");
  CHECK(elf == NULL && size == 0);
  free(log);
  log = NULL;
  /* Quoted option values: a macro with a space, a directory with one. */
  rvhal_opencl_compile_desc_t quoted = {"__kernel void k(__global int *p) { p[0] = VALUE; }\n", 0, NULL,
                                        "-DVALUE=\"1 + 2\" -I \"/no such dir\"", 64, NULL};
  CHECK_MSG(rvhal_opencl_compile(&quoted, &elf, &size, &log) == RVHAL_OK, "quoted options: %s\n%s",
            rvhal_last_error(), log ? log : "");
  free(elf);
  elf = NULL;
  free(log);
  log = NULL;
  /* The predefined macros the spec lists, and feature macros exactly the
   * ones the device reports (CL_DEVICE_OPENCL_C_FEATURES: int64, fp64, the
   * atomic orders and scopes, images, 3D image writes and read-write
   * images; no generic address space, no program-scope globals), under
   * the build options the CTS passes. */
  static const char macros[] =
      "#if __OPENCL_VERSION__ != 300 || __OPENCL_C_VERSION__ != 300 || CL_VERSION_1_2 != 120 || CL_VERSION_3_0 != 300\n"
      "#error version macros\n#endif\n"
      "#if !defined(__ENDIAN_LITTLE__) || !defined(__IMAGE_SUPPORT__)\n#error endian or image macro\n#endif\n"
      "#if !defined(__opencl_c_int64) || !defined(__opencl_c_fp64) || !defined(__opencl_c_atomic_order_seq_cst) || "
      "!defined(__opencl_c_atomic_order_acq_rel) || !defined(__opencl_c_atomic_scope_device) || "
      "!defined(__opencl_c_atomic_scope_all_devices) || !defined(__opencl_c_images) || "
      "!defined(__opencl_c_3d_image_writes) || !defined(__opencl_c_read_write_images)\n"
      "#error a reported feature is missing\n#endif\n"
      "#if defined(__opencl_c_generic_address_space) || defined(__opencl_c_program_scope_global_variables) || "
      "defined(__opencl_c_pipes) || defined(__opencl_c_device_enqueue)\n"
      "#error an unreported feature is defined\n#endif\n"
      "__kernel void k(__global float *p) { p[0] = vload4(0, p).y; }\n";
  rvhal_opencl_compile_desc_t mac = {macros, 0, "macros.cl", "-cl-std=CL3.0 -cl-no-subgroup-ifp -Werror", 64, NULL};
  CHECK_MSG(rvhal_opencl_compile(&mac, &elf, &size, &log) == RVHAL_OK, "predefined macros: %s\n%s",
            rvhal_last_error(), log ? log : "");
  free(elf);
  elf = NULL;
  free(log);
  log = NULL;
  static const char nofp64[] = "#ifdef __opencl_c_fp64\n#error fp64 still on\n#endif\n__kernel void k() {}\n";
  rvhal_opencl_compile_desc_t ext_off = {nofp64, 0, NULL, "-cl-std=CL3.0 -cl-ext=-__opencl_c_fp64,-cl_khr_fp64", 64,
                                         NULL};
  CHECK_MSG(rvhal_opencl_compile(&ext_off, &elf, &size, &log) == RVHAL_OK, "-cl-ext=-: %s\n%s", rvhal_last_error(),
            log ? log : "");
  free(elf);
  elf = NULL;
  free(log);
  log = NULL;
  rvhal_opencl_compile_desc_t ext_on = {nofp64, 0, NULL, "-cl-ext=+cl_khr_fp16", 64, NULL};
  CHECK_EQ_U64(rvhal_opencl_compile(&ext_on, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  CHECK_MSG(strstr(rvhal_last_error(), "'+cl_khr_fp16' is not '-name'") != NULL, "%s", rvhal_last_error());
  /* More kernels than the linker's command line has room for options
   * (each is traced with ld -y): 300, all found. */
  {
    enum { NK = 300 };
    static char many[NK * 64];
    size_t at = 0;
    for (int i = 0; i < NK; i++)
      at += (size_t)snprintf(many + at, sizeof many - at, "__kernel void k%d(__global int *p) { p[0] = %d; }\n", i, i);
    rvhal_opencl_compile_desc_t mk = {many, 0, "many.cl", NULL, 64, NULL};
    CHECK_MSG(rvhal_opencl_compile(&mk, &elf, &size, &log) == RVHAL_OK, "300 kernels: %s\n%s", rvhal_last_error(),
              log ? log : "");
    rvhal_program_info_t *pi = NULL;
    if (elf) CHECK_OK(rvhal_program_info_read(elf, size, &pi));
    CHECK_EQ_U64(pi ? pi->num_kernels : 0, NK);
    rvhal_program_info_free(pi);
    free(elf);
    elf = NULL;
    free(log);
    log = NULL;
  }
  /* More functions than the rewrite holds (4096), none of them reached:
   * the build drops them and tries again, and succeeds. */
  {
    enum { NF = 4200 };
    static char helpers[NF * 48 + 128];
    size_t at = 0;
    for (int i = 0; i < NF; i++)
      at += (size_t)snprintf(helpers + at, sizeof helpers - at, "int h%d(int x) { return x + %d; }\n", i, i);
    snprintf(helpers + at, sizeof helpers - at, "__kernel void k(__global int *p) { p[0] = 3; }\n");
    rvhal_opencl_compile_desc_t hd = {helpers, 0, "helpers.cl", NULL, 64, NULL};
    CHECK_MSG(rvhal_opencl_compile(&hd, &elf, &size, &log) == RVHAL_OK, "4200 unreached helpers: %s\n%s",
              rvhal_last_error(), log ? log : "");
    free(elf);
    elf = NULL;
    free(log);
    log = NULL;
  }
  /* No __kernel at all. */
  rvhal_opencl_compile_desc_t none = {"int f(int x) { return x; }\n", 0, NULL, NULL, 64, NULL};
  CHECK_EQ_U64(rvhal_opencl_compile(&none, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_BUILD_FAILED);
  CHECK(strstr(rvhal_last_error(), "has no __kernel function") != NULL);
  free(log);
  log = NULL;
  /* Bad arguments, each named. */
  rvhal_opencl_compile_desc_t x16 = {src, 0, NULL, NULL, 16, NULL};
  CHECK_EQ_U64(rvhal_opencl_compile(&x16, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  CHECK(strstr(rvhal_last_error(), "xlen 16 is not 32 or 64") != NULL);
  rvhal_opencl_compile_desc_t opt = {src, 0, NULL, "-O3 -fno-such", 64, NULL}; /* -O3 accepted, ignored */
  CHECK_EQ_U64(rvhal_opencl_compile(&opt, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  CHECK(strstr(rvhal_last_error(), "unknown build option '-fno-such'") != NULL);
  rvhal_opencl_compile_desc_t std = {src, 0, NULL, "-cl-std=CL9.9", 64, NULL};
  CHECK_EQ_U64(rvhal_opencl_compile(&std, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  CHECK(strstr(rvhal_last_error(), "-cl-std=CL9.9") != NULL);
  rvhal_opencl_compile_desc_t isa = {src, 0, NULL, NULL, 64, "rv32imac"};
  CHECK_EQ_U64(rvhal_opencl_compile(&isa, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  CHECK(strstr(rvhal_last_error(), "isa 'rv32imac' is not an RV64 ISA string") != NULL);
  CHECK_EQ_U64(rvhal_opencl_compile(NULL, &elf, &size, &log), (uint64_t)(int64_t)RVHAL_INVALID_ARGUMENT);
  check_stamp();
  check_objects(64);
  check_objects(32);
  free(src);
  CHECK_MSG(entries(tmp) == 0, "%d build directories left in %s", entries(tmp), tmp);
  rmdir(tmp);
  return check_result("unit.test_opencl_compile");
}

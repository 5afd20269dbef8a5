/* Programs: OpenCL C source built by rvhal_opencl_compile (through the
 * binary cache), or a kernel ELF given as the binary. CL_PROGRAM_BINARIES
 * is that ELF, so a binary read back makes the same program again. A
 * compiled object is clang's LLVM IR of its source (its own options and
 * headers), a library its objects' IR; linking builds the IR together. */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "icd.h"

static cl_program program_new_on(cl_context c, cl_device_id d) {
  cl_program p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->dispatch = &rvcl_dispatch;
  p->magic = RVCL_MAGIC_PROGRAM;
  atomic_init(&p->refs, 1);
  p->context = c;
  p->device = d;
  p->status = CL_BUILD_NONE;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  pthread_mutex_init(&p->lock, NULL);
  rvcl_context_hold(c);
  return p;
}

static cl_program program_new(cl_context c) { return program_new_on(c, rvcl_context_device(c)); }

cl_program rvcl_program_on(cl_program p, cl_device_id d) {
  if (d == p->device) return p;
  int slot = p->on_device ? rvcl_context_slot(p->context, d) : -1;
  return slot >= 0 ? p->on_device[slot] : NULL;
}

/* p and its twins, in the order of the context's devices (p's own first
 * when it is the context's first device); returns how many. */
static cl_uint program_parts(cl_program p, cl_program *out) {
  cl_uint n = 0;
  cl_context c = p->context;
  if (!p->on_device) {
    out[0] = p;
    return 1;
  }
  for (cl_uint i = 0; i < c->num_devices; i++) {
    cl_program q = rvcl_program_on(p, c->devices[i]);
    if (q) out[n++] = q;
  }
  return n;
}

/* Whether a build with device list devs[0..n) is for p's device (no list: all). */
static int listed(cl_program p, cl_uint n, const cl_device_id *devs) {
  for (cl_uint k = 0; k < n; k++)
    if (devs[k] == p->device) return 1;
  return n == 0;
}

/* A context of several devices: a twin of program p for each other device
 * (with p's source, if it has one). CL_SUCCESS or CL_OUT_OF_HOST_MEMORY. */
static cl_int add_source_twins(cl_program p) {
  cl_context c = p->context;
  if (c->num_devices < 2) return CL_SUCCESS;
  if (!(p->on_device = calloc(c->num_devices, sizeof *p->on_device))) return CL_OUT_OF_HOST_MEMORY;
  for (cl_uint i = 0; i < c->num_devices; i++) {
    if (c->devices[i] == p->device) continue;
    cl_program t = program_new_on(c, c->devices[i]);
    if (!t || (p->source && !(t->source = strdup(p->source)))) {
      if (t) clReleaseProgram(t);
      return CL_OUT_OF_HOST_MEMORY;
    }
    p->on_device[i] = t;
  }
  return CL_SUCCESS;
}

/* The binary of a compiled object or a library (clCompileProgram,
 * clLinkProgram -create-library): its options and objects' IR, for the
 * word size they were compiled for. */
static const char object_magic[12] = "RVHALCLOBJ2";
#define MAX_OBJECTS 65536u /* objects in one library */

static int is_object_type(cl_program_binary_type t) {
  return t == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || t == CL_PROGRAM_BINARY_TYPE_LIBRARY;
}

static void drop_objects(cl_program p) {
  for (uint32_t i = 0; i < p->num_objects; i++) free(p->objects[i]);
  free(p->objects);
  free(p->object_sizes);
  p->objects = NULL;
  p->object_sizes = NULL;
  p->num_objects = 0;
}

/* Appends a copy of an object's IR; 0, or -1 out of memory. */
static int add_object(cl_program p, const char *ir, size_t n) {
  char **o = realloc(p->objects, (p->num_objects + 1) * sizeof *o);
  if (o) p->objects = o;
  size_t *sz = realloc(p->object_sizes, (p->num_objects + 1) * sizeof *sz);
  if (sz) p->object_sizes = sz;
  char *copy = o && sz ? malloc(n + 1) : NULL;
  if (!copy) return -1;
  memcpy(copy, ir, n);
  copy[n] = 0;
  p->objects[p->num_objects] = copy;
  p->object_sizes[p->num_objects++] = n;
  return 0;
}

/* magic, type ('o' or 'l'), word size in bits, options, 0, count (u32),
 * then each object's size (u64) and IR; returns the size. */
static size_t object_blob(cl_program p, unsigned char *out) {
  const char *o = p->options ? p->options : "";
  size_t no = strlen(o), n = sizeof object_magic + 2 + no + 1 + 4;
  for (uint32_t i = 0; i < p->num_objects; i++) n += 8 + p->object_sizes[i];
  if (out) {
    unsigned char *w = out;
    memcpy(w, object_magic, sizeof object_magic), w += sizeof object_magic;
    *w++ = p->binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY ? 'l' : 'o';
    *w++ = (unsigned char)(p->device->info.word_size * 8);
    memcpy(w, o, no + 1), w += no + 1;
    uint32_t count = p->num_objects;
    memcpy(w, &count, 4), w += 4;
    for (uint32_t i = 0; i < p->num_objects; i++) {
      uint64_t size = p->object_sizes[i];
      memcpy(w, &size, 8), w += 8;
      memcpy(w, p->objects[i], p->object_sizes[i]), w += p->object_sizes[i];
    }
  }
  return n;
}

/* 1 and fills p if bin is an object blob, 0 if not one, -1 (and why) if
 * damaged or not for p's device. */
static int read_object_blob(cl_program p, const unsigned char *bin, size_t size, char *why, size_t why_size) {
  if (size < sizeof object_magic || memcmp(bin, object_magic, sizeof object_magic - 2)) return 0;
  if (memcmp(bin, object_magic, sizeof object_magic)) {
    snprintf(why, why_size, "an rvhal compiled object of another version (compile its source again)");
    return -1;
  }
  const unsigned char *end = bin + size, *t = bin + sizeof object_magic;
  snprintf(why, why_size, "a damaged rvhal compiled object");
  if (end - t < 2 || (t[0] != 'o' && t[0] != 'l')) return -1;
  if (t[1] != p->device->info.word_size * 8) {
    snprintf(why, why_size, "an object compiled for RV%u, the device %s is RV%u", t[1], p->device->info.name,
             p->device->info.word_size * 8);
    return -1;
  }
  const unsigned char *o = t + 2, *oe = o < end ? memchr(o, 0, (size_t)(end - o)) : NULL;
  if (!oe || end - (oe + 1) < 4) return -1;
  const unsigned char *r = oe + 1;
  uint32_t count;
  memcpy(&count, r, 4), r += 4;
  if (count == 0 || count > MAX_OBJECTS) return -1;
  drop_objects(p);
  for (uint32_t i = 0; i < count; i++) {
    uint64_t n;
    if (end - r < 8) return -1;
    memcpy(&n, r, 8), r += 8;
    if (n > (uint64_t)(end - r) || memchr(r, 0, (size_t)n)) return -1; /* IR text has no NUL */
    if (add_object(p, (const char *)r, (size_t)n)) {
      snprintf(why, why_size, "out of host memory");
      return -1;
    }
    r += n;
  }
  if (r != end) return -1;
  free(p->options);
  if (!(p->options = strdup((const char *)o))) return -1;
  p->binary_type = t[0] == 'l' ? CL_PROGRAM_BINARY_TYPE_LIBRARY : CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  p->status = CL_BUILD_SUCCESS;
  return 1;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context c, cl_uint count, const char **strings,
                                                              const size_t *lengths, cl_int *errcode_ret) {
  static const char *fn = "clCreateProgramWithSource";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
    return NULL;
  }
  if (count == 0 || !strings) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "count=%u strings=%p", count, (void *)strings);
    return NULL;
  }
  size_t total = 0;
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) {
      *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "strings[%u] is NULL", i);
      return NULL;
    }
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  cl_program p = program_new(c);
  char *src = malloc(total + 1);
  if (!p || !src) {
    free(src);
    if (p) clReleaseProgram(p);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  size_t at = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t len = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(src + at, strings[i], len);
    at += len;
  }
  src[at] = 0;
  p->source = src;
  if ((*err = add_source_twins(p)) != CL_SUCCESS) {
    clReleaseProgram(p);
    return NULL;
  }
  return p;
}

/* Reads an ELF's kernels and checks it suits the device. */
static int read_binary(cl_program p, const void *elf, size_t size, char *why, size_t why_size) {
  rvhal_program_info_t *info = NULL;
  if (rvhal_program_info_read(elf, size, &info) != RVHAL_OK) {
    snprintf(why, why_size, "%s", rvhal_last_error());
    return -1;
  }
  if (info->word_size != p->device->info.word_size) {
    snprintf(why, why_size, "the binary is for RV%u, the device %s is RV%u", info->word_size * 8,
             p->device->info.name, p->device->info.word_size * 8);
    rvhal_program_info_free(info);
    return -1;
  }
  rvhal_program_info_free(p->info);
  p->info = info;
  return 0;
}

/* The program of binary i for device d (a kernel ELF or a compiled object). */
static cl_program from_binary(cl_context c, cl_device_id d, cl_uint i, size_t length, const unsigned char *binary,
                              cl_int *binary_status, cl_int *err) {
  static const char *fn = "clCreateProgramWithBinary";
  cl_program p = program_new_on(c, d);
  if (!p) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  char why[512];
  int obj = read_object_blob(p, binary, length, why, sizeof why);
  if (obj != 0) {
    if (obj < 0) {
      if (binary_status) binary_status[i] = CL_INVALID_BINARY;
      *err = rvcl_fail(c, fn, CL_INVALID_BINARY, "binary %u: %s", i, why);
      clReleaseProgram(p);
      return NULL;
    }
    if (binary_status) binary_status[i] = CL_SUCCESS;
    *err = CL_SUCCESS;
    return p;
  }
  if (read_binary(p, binary, length, why, sizeof why) != 0) {
    if (binary_status) binary_status[i] = CL_INVALID_BINARY;
    *err = rvcl_fail(c, fn, CL_INVALID_BINARY, "binary %u: %s", i, why);
    clReleaseProgram(p);
    return NULL;
  }
  p->elf = malloc(length);
  if (!p->elf) {
    clReleaseProgram(p);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  memcpy(p->elf, binary, length);
  p->elf_size = length;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  if (binary_status) binary_status[i] = CL_SUCCESS;
  *err = CL_SUCCESS;
  return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context c, cl_uint num_devices,
                                                              const cl_device_id *devices, const size_t *lengths,
                                                              const unsigned char **binaries, cl_int *binary_status,
                                                              cl_int *errcode_ret) {
  static const char *fn = "clCreateProgramWithBinary";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  cl_program *twins = NULL;
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
    return NULL;
  }
  if (num_devices == 0 || !devices || !lengths || !binaries) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "num_devices=%u device_list=%p lengths=%p binaries=%p", num_devices,
                     (void *)devices, (void *)lengths, (void *)binaries);
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!rvcl_context_has_device(c, devices[i])) {
      *err = rvcl_fail(c, fn, CL_INVALID_DEVICE, "device_list[%u]=%p is not the context's device", i, (void *)devices[i]);
      return NULL;
    }
    if (!lengths[i] || !binaries[i]) {
      if (binary_status) binary_status[i] = CL_INVALID_VALUE;
      *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "binary %u: length %zu, pointer %p", i, lengths[i], (void *)binaries[i]);
      return NULL;
    }
  }
  cl_program p = NULL;
  if (c->num_devices > 1 && !(twins = calloc(c->num_devices, sizeof *twins))) {
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  for (cl_uint i = 0; i < num_devices; i++) {
    cl_program t = from_binary(c, devices[i], i, lengths[i], binaries[i], binary_status, err);
    if (!t) break;
    if (!p) {
      p = t;
      p->on_device = twins;
      twins = NULL;
    } else if (!p->on_device || p->on_device[rvcl_context_slot(c, devices[i])] || devices[i] == p->device) {
      clReleaseProgram(t); /* a device listed twice: its first binary counts */
    } else {
      p->on_device[rvcl_context_slot(c, devices[i])] = t;
    }
  }
  free(twins);
  if (*err != CL_SUCCESS && p) {
    clReleaseProgram(p);
    p = NULL;
  }
  return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context c, cl_uint n, const cl_device_id *devs,
                                                                      const char *names, cl_int *errcode_ret) {
  (void)n, (void)devs;
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT))
    *err = rvcl_fail(NULL, "clCreateProgramWithBuiltInKernels", CL_INVALID_CONTEXT, "%p", (void *)c);
  else
    *err = rvcl_fail(c, "clCreateProgramWithBuiltInKernels", CL_INVALID_VALUE,
                     "kernel_names \"%s\": rvhal devices have no built-in kernels", names ? names : "(null)");
  return NULL;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context c, const void *il, size_t len, cl_int *errcode_ret) {
  (void)il, (void)len;
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT))
    *err = rvcl_fail(NULL, "clCreateProgramWithIL", CL_INVALID_CONTEXT, "%p", (void *)c);
  else
    *err = rvcl_fail(c, "clCreateProgramWithIL", CL_INVALID_OPERATION, "no rvhal device takes an IL (CL_DEVICE_IL_VERSION is empty)");
  return NULL;
}

/* a may be p->log itself: the new log is made before the old one goes. */
static void set_log(cl_program p, const char *a, const char *b) {
  size_t n = strlen(a) + (b ? strlen(b) : 0) + 2;
  char *log = malloc(n);
  if (log) snprintf(log, n, "%s%s%s", a, b && *a && *b ? "\n" : "", b ? b : "");
  free(p->log);
  p->log = log;
}

/* Whether a program built with `options` needs uniform work-groups
 * (OpenCL 3.0, clEnqueueNDRangeKernel): built with
 * -cl-uniform-work-group-size, or compiled from source as OpenCL C 1.x,
 * which the compiler does when -cl-std is not given (the highest 1.x
 * version). A binary's language version is not known: only the option. */
static int needs_uniform_wg(const char *options, int from_source) {
  const char *std = NULL;
  int uniform = 0;
  for (const char *t = options ? options : ""; *t;) {
    while (*t == ' ' || *t == '\t') t++;
    size_t n = strcspn(t, " \t");
    if (n == 27 && !strncmp(t, "-cl-uniform-work-group-size", n)) uniform = 1;
    if (n > 8 && !strncmp(t, "-cl-std=", 8)) std = t + 8; /* the last one counts */
    t += n;
  }
  if (uniform) return 1;
  if (!from_source) return 0;
  return !std || !strncmp(std, "CL1.", 4);
}

/* A failed compile or build of p (rvhal status st): the log gets the
 * compiler's output (log, freed here) and rvhal's message; the code is
 * `bad_options` for a bad option, `failed` for an error in the program. */
static cl_int compile_failed(const char *fn, cl_program p, int st, char *log, cl_int bad_options, cl_int failed) {
  char msg[1024];
  snprintf(msg, sizeof msg, "%s (%s)", rvhal_last_error(), rvhal_status_name(st));
  set_log(p, log ? log : "", msg);
  free(log);
  p->status = CL_BUILD_ERROR;
  cl_int code = st == RVHAL_INVALID_ARGUMENT                             ? bad_options
                : st == RVHAL_MISSING_TOOL || st == RVHAL_UNSUPPORTED ? CL_COMPILER_NOT_AVAILABLE
                                                                        : failed;
  return rvcl_fail(p->context, fn, code, "%s", msg);
}

/* Compiles (a source) or links (objects), and loads the ELF on the device. */
static cl_int build(const char *fn, cl_program p, const char *options) {
  cl_context c = p->context;
  cl_device_id d = p->device;
  free(p->options);
  p->options = strdup(options ? options : "");
  const int compiled = p->source || p->num_objects; /* not a given ELF */
  p->uniform_wg = needs_uniform_wg(options, compiled);
  p->status = CL_BUILD_IN_PROGRESS;
  if (compiled) {
    rvhal_opencl_compile_desc_t desc = {0};
    desc.source = p->source;
    desc.source_name = p->source ? "<source>" : "<link>";
    desc.options = options;
    desc.xlen = d->info.word_size * 8;
    desc.isa = d->info.isa;
    void *elf = NULL;
    size_t size = 0;
    char *log = NULL;
    /* no source: clLinkProgram's inputs, or an object given as a binary */
    uint32_t no = p->source ? 0 : p->num_objects;
    int st = rvcl_compile_cached(&desc, (const char *const *)p->objects, p->object_sizes, no, &elf, &size, &log);
    if (st != RVHAL_OK) return compile_failed(fn, p, st, log, CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE);
    set_log(p, log ? log : "", NULL);
    free(log);
    char why[512];
    if (read_binary(p, elf, size, why, sizeof why) != 0) {
      free(elf);
      set_log(p, p->log ? p->log : "", why);
      p->status = CL_BUILD_ERROR;
      return rvcl_fail(c, fn, CL_BUILD_PROGRAM_FAILURE, "the compiled program: %s", why);
    }
    free(p->elf);
    p->elf = elf;
    p->elf_size = size;
    if (!p->source) drop_objects(p); /* the program is the ELF now */
  } else {
    set_log(p, "", NULL); /* each build's log is its own */
  }
  int st;
  rvhal_device_t *rv = rvcl_device_rv(d, &st);
  if (rv && p->hp) rvhal_program_free(rv, p->hp);
  p->hp = 0;
  if (rv) st = rvhal_program_load(rv, p->elf, p->elf_size, &p->hp);
  if (!rv || st != RVHAL_OK) {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s (%s)", rvhal_last_error(), rvhal_status_name(st));
    set_log(p, p->log ? p->log : "", msg);
    p->status = CL_BUILD_ERROR;
    /* A full program store is the device's resources, not a bad program. */
    const cl_int code = rv && st == RVHAL_NO_MEMORY ? CL_OUT_OF_RESOURCES
                        : compiled                  ? CL_BUILD_PROGRAM_FAILURE
                                                    : CL_INVALID_BINARY;
    return rvcl_fail(c, fn, code, "%s", msg);
  }
  p->status = CL_BUILD_SUCCESS;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  return CL_SUCCESS;
}

/* clCompileProgram for p's device: its source to an object (clang's IR),
 * in place of what p held. */
static cl_int compile_object(const char *fn, cl_program p, const char *options) {
  cl_context c = p->context;
  cl_device_id d = p->device;
  rvhal_opencl_compile_desc_t desc = {0};
  desc.source = p->source;
  desc.source_name = "<source>";
  desc.options = options;
  desc.xlen = d->info.word_size * 8;
  desc.isa = d->info.isa;
  char *ir = NULL, *log = NULL;
  size_t size = 0;
  p->status = CL_BUILD_IN_PROGRESS;
  int st = rvhal_opencl_compile_object(&desc, &ir, &size, &log);
  if (st != RVHAL_OK) return compile_failed(fn, p, st, log, CL_INVALID_COMPILER_OPTIONS, CL_COMPILE_PROGRAM_FAILURE);
  set_log(p, log ? log : "", NULL);
  free(log);
  /* No longer an executable: what an earlier build loaded goes. */
  int rs;
  rvhal_device_t *rv = p->hp ? rvcl_device_rv(d, &rs) : NULL;
  if (rv) rvhal_program_free(rv, p->hp);
  p->hp = 0;
  rvhal_program_info_free(p->info);
  p->info = NULL;
  free(p->elf);
  p->elf = NULL;
  p->elf_size = 0;
  drop_objects(p);
  int oom = add_object(p, ir, size);
  free(ir);
  if (oom) {
    p->status = CL_BUILD_ERROR;
    return rvcl_fail(c, fn, CL_OUT_OF_HOST_MEMORY, "out of host memory for the compiled object");
  }
  p->status = CL_BUILD_SUCCESS;
  p->binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  return CL_SUCCESS;
}

static cl_int check_build_args(const char *fn, cl_program p, cl_uint n, const cl_device_id *devs,
                               void(CL_CALLBACK *notify)(cl_program, void *), void *user) {
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) return rvcl_fail(NULL, fn, CL_INVALID_PROGRAM, "%p is not a program", (void *)p);
  if ((n == 0) != (devs == NULL))
    return rvcl_fail(p->context, fn, CL_INVALID_VALUE, "num_devices=%u device_list=%p", n, (void *)devs);
  for (cl_uint i = 0; i < n; i++)
    if (!RVCL_VALID(devs[i], RVCL_MAGIC_DEVICE) || !rvcl_program_on(p, devs[i]))
      return rvcl_fail(p->context, fn, CL_INVALID_DEVICE, "device_list[%u]=%p is not one of the program's devices", i,
                       (void *)devs[i]);
  if (!notify && user) return rvcl_fail(p->context, fn, CL_INVALID_VALUE, "user_data without pfn_notify");
  if (atomic_load(&p->kernels))
    return rvcl_fail(p->context, fn, CL_INVALID_OPERATION, "the program has %u kernel objects attached",
                     atomic_load(&p->kernels));
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint n, const cl_device_id *devs, const char *options,
                                               void(CL_CALLBACK *notify)(cl_program, void *), void *user) {
  static const char *fn = "clBuildProgram";
  cl_int err = check_build_args(fn, p, n, devs, notify, user);
  if (err != CL_SUCCESS) return err;
  cl_program parts[RVCL_MAX_CONTEXT_DEVICES];
  cl_uint np = program_parts(p, parts);
  for (cl_uint i = 0; i < np; i++)
    if (!parts[i]->source && !parts[i]->elf && !parts[i]->num_objects)
      return rvcl_fail(p->context, fn, CL_INVALID_OPERATION, "the program has neither source nor binary for device %s",
                       parts[i]->device->info.name);
  /* Each device the list names (every one of the program's without a list). */
  for (cl_uint i = 0; i < np && err == CL_SUCCESS; i++) {
    if (!listed(parts[i], n, devs)) continue;
    pthread_mutex_lock(&parts[i]->lock);
    err = build(fn, parts[i], options);
    pthread_mutex_unlock(&parts[i]->lock);
  }
  if (notify) notify(p, user); /* the build is over when clBuildProgram returns */
  return err;
}

/* Writes clCompileProgram's embedded headers as files under a new folder
 * (their include names may have folders) for -I; the program keeps it
 * until it is released. NULL and a message on failure. */
static char *write_headers(cl_uint n, const cl_program *headers, const char **names, char *why, size_t why_size) {
  const char *tmp = getenv("TMPDIR");
  char *dir = malloc(4096);
  if (!dir) return NULL;
  snprintf(dir, 4096, "%s/rvhal-cl-headers.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    snprintf(why, why_size, "cannot make a folder for the headers: %s", strerror(errno));
    free(dir);
    return NULL;
  }
  for (cl_uint i = 0; i < n; i++) {
    if (!names[i] || !*names[i] || names[i][0] == '/' || strstr(names[i], "..")) {
      snprintf(why, why_size, "header_include_names[%u] \"%s\" is not a relative name", i, names[i] ? names[i] : "");
      return dir; /* the caller removes it */
    }
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    for (char *p = path + strlen(dir) + 1; *p; p++)
      if (*p == '/') {
        *p = 0;
        mkdir(path, 0700);
        *p = '/';
      }
    FILE *f = fopen(path, "w");
    const char *src = headers[i]->source ? headers[i]->source : "";
    if (!f || fputs(src, f) < 0) {
      snprintf(why, why_size, "cannot write header %.300s: %s", path, strerror(errno));
      if (f) fclose(f);
      return dir;
    }
    fclose(f);
  }
  why[0] = 0;
  return dir;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(path);
  return 0;
}

static void remove_tree(const char *dir) {
  if (dir) nftw(dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/* "options -I<dir>" (freed by the caller). */
static char *with_include(const char *options, const char *dir) {
  size_t n = (options ? strlen(options) : 0) + (dir ? strlen(dir) : 0) + 8;
  char *o = malloc(n);
  if (o) snprintf(o, n, "%s%s%s", options ? options : "", dir ? " -I" : "", dir ? dir : "");
  return o;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint n, const cl_device_id *devs, const char *options,
                                                 cl_uint num_headers, const cl_program *headers,
                                                 const char **header_names,
                                                 void(CL_CALLBACK *notify)(cl_program, void *), void *user) {
  static const char *fn = "clCompileProgram";
  cl_int err = check_build_args(fn, p, n, devs, notify, user);
  if (err != CL_SUCCESS) return err;
  if (!p->source) return rvcl_fail(p->context, fn, CL_INVALID_OPERATION, "the program was not made from source");
  if ((num_headers == 0) != (headers == NULL) || (num_headers && !header_names))
    return rvcl_fail(p->context, fn, CL_INVALID_VALUE, "num_input_headers=%u input_headers=%p header_include_names=%p",
                     num_headers, (void *)headers, (void *)header_names);
  for (cl_uint i = 0; i < num_headers; i++)
    if (!RVCL_VALID(headers[i], RVCL_MAGIC_PROGRAM))
      return rvcl_fail(p->context, fn, CL_INVALID_PROGRAM, "input_headers[%u]=%p is not a program", i, (void *)headers[i]);
  pthread_mutex_lock(&p->lock);
  remove_tree(p->header_dir);
  free(p->header_dir);
  p->header_dir = NULL;
  if (num_headers) {
    char why[512] = "";
    p->header_dir = write_headers(num_headers, headers, header_names, why, sizeof why);
    if (!p->header_dir || why[0]) {
      pthread_mutex_unlock(&p->lock);
      return rvcl_fail(p->context, fn, why[0] ? CL_INVALID_VALUE : CL_OUT_OF_HOST_MEMORY, "%s", why);
    }
  }
  /* Each device listed (or every one of the program's) compiles it to an
   * object of its word size; the headers are read now, not at link. */
  char *opts = with_include(options, p->header_dir);
  pthread_mutex_unlock(&p->lock);
  cl_program parts[RVCL_MAX_CONTEXT_DEVICES];
  cl_uint np = program_parts(p, parts);
  for (cl_uint i = 0; i < np && err == CL_SUCCESS; i++) {
    cl_program q = parts[i];
    if (!listed(q, n, devs)) continue;
    pthread_mutex_lock(&q->lock);
    err = compile_object(fn, q, opts);
    free(q->options);
    q->options = strdup(options ? options : "");
    pthread_mutex_unlock(&q->lock);
  }
  free(opts);
  if (notify) notify(p, user);
  return err;
}

/* Removes every whole-word `word` from options; 1 if there was one. */
static int take_option(char *options, const char *word) {
  if (!options) return 0;
  size_t n = strlen(word);
  int found = 0;
  for (char *p = strstr(options, word); p; p = strstr(p, word)) {
    if ((p == options || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) {
      memmove(p, p + n, strlen(p + n) + 1);
      found = 1;
    } else {
      p += n;
    }
  }
  return found;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context c, cl_uint n, const cl_device_id *devs, const char *options,
                                                  cl_uint num_inputs, const cl_program *inputs,
                                                  void(CL_CALLBACK *notify)(cl_program, void *), void *user,
                                                  cl_int *errcode_ret) {
  static const char *fn = "clLinkProgram";
  cl_int err_, *err = errcode_ret ? errcode_ret : &err_;
  if (!RVCL_VALID(c, RVCL_MAGIC_CONTEXT)) {
    *err = rvcl_fail(NULL, fn, CL_INVALID_CONTEXT, "%p is not a context", (void *)c);
    return NULL;
  }
  if ((n == 0) != (devs == NULL) || num_inputs == 0 || !inputs || (!notify && user)) {
    *err = rvcl_fail(c, fn, CL_INVALID_VALUE, "num_devices=%u device_list=%p num_input_programs=%u input_programs=%p", n,
                     (void *)devs, num_inputs, (void *)inputs);
    return NULL;
  }
  for (cl_uint i = 0; i < n; i++)
    if (!rvcl_context_has_device(c, devs[i])) {
      *err = rvcl_fail(c, fn, CL_INVALID_DEVICE, "device_list[%u] is not the context's device", i);
      return NULL;
    }
  for (cl_uint i = 0; i < num_inputs; i++)
    if (!RVCL_VALID(inputs[i], RVCL_MAGIC_PROGRAM) || inputs[i]->context != c) {
      *err = rvcl_fail(c, fn, CL_INVALID_PROGRAM, "input_programs[%u]=%p", i, (void *)inputs[i]);
      return NULL;
    }
  /* The devices linked for: those listed, each of which every input must
   * have been compiled for; with no list, each device they all were. */
  int link_for[RVCL_MAX_CONTEXT_DEVICES] = {0}, any = 0;
  for (cl_uint k = 0; k < c->num_devices; k++) {
    cl_device_id d = c->devices[k];
    int want = n == 0, have = 1;
    for (cl_uint j = 0; j < n; j++) want |= devs[j] == d;
    if (!want) continue;
    for (cl_uint i = 0; i < num_inputs && have; i++) {
      cl_program q = rvcl_program_on(inputs[i], d);
      have = q && is_object_type(q->binary_type) && q->num_objects;
      if (!have && n) {
        *err = rvcl_fail(c, fn, CL_INVALID_OPERATION,
                         "input_programs[%u] is neither a compiled object nor a library for device %s", i, d->info.name);
        return NULL;
      }
    }
    link_for[k] = have;
    any |= have;
  }
  if (!any) {
    *err = rvcl_fail(c, fn, CL_INVALID_OPERATION,
                     "no device has every input program compiled (clCompileProgram) for it");
    return NULL;
  }
  /* The first object's compile options with the link options: what the
   * program's work-groups must be (-cl-std, -cl-uniform-work-group-size);
   * the code itself is the objects' as compiled. */
  const char *copt = inputs[0]->options ? inputs[0]->options : "";
  size_t olen = strlen(copt) + (options ? strlen(options) : 0) + 2;
  char *opts = malloc(olen);
  cl_program p = opts ? program_new(c) : NULL;
  if (!p || (*err = add_source_twins(p)) != CL_SUCCESS) {
    free(opts);
    if (p) clReleaseProgram(p);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  snprintf(opts, olen, "%s %s", copt, options ? options : "");
  int library = take_option(opts, "-create-library");
  take_option(opts, "-enable-link-options"); /* accepted: the code is the objects' as compiled */
  *err = CL_SUCCESS;
  for (cl_uint k = 0; k < c->num_devices && *err == CL_SUCCESS; k++) {
    if (!link_for[k]) continue;
    cl_program part = rvcl_program_on(p, c->devices[k]);
    pthread_mutex_lock(&part->lock);
    for (cl_uint i = 0; i < num_inputs && *err == CL_SUCCESS; i++) {
      cl_program q = rvcl_program_on(inputs[i], c->devices[k]);
      pthread_mutex_lock(&q->lock);
      for (uint32_t o = 0; o < q->num_objects && *err == CL_SUCCESS; o++)
        if (add_object(part, q->objects[o], q->object_sizes[o])) *err = CL_OUT_OF_HOST_MEMORY;
      pthread_mutex_unlock(&q->lock);
    }
    if (*err == CL_SUCCESS && library) {
      /* A library is its objects, linked with the program that uses it. */
      part->options = strdup(opts);
      part->binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
      part->status = CL_BUILD_SUCCESS;
      set_log(part, "", NULL);
    } else if (*err == CL_SUCCESS) {
      *err = build(fn, part, opts);
    }
    pthread_mutex_unlock(&part->lock);
  }
  free(opts);
  if (notify) notify(p, user);
  if (*err == CL_OUT_OF_HOST_MEMORY) {
    clReleaseProgram(p);
    return NULL;
  }
  if (*err == CL_BUILD_PROGRAM_FAILURE) *err = CL_LINK_PROGRAM_FAILURE;
  if (*err == CL_INVALID_BUILD_OPTIONS) *err = CL_INVALID_LINKER_OPTIONS;
  return p; /* on a failure too: the spec returns the program so its log can be read */
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program p) {
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) return rvcl_fail(NULL, "clRetainProgram", CL_INVALID_PROGRAM, "%p", (void *)p);
  atomic_fetch_add(&p->refs, 1);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program p) {
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) return rvcl_fail(NULL, "clReleaseProgram", CL_INVALID_PROGRAM, "%p", (void *)p);
  if (atomic_fetch_sub(&p->refs, 1) != 1) return CL_SUCCESS;
  cl_context c = p->context;
  for (cl_uint i = 0; p->on_device && i < c->num_devices; i++)
    if (p->on_device[i]) clReleaseProgram(p->on_device[i]);
  free(p->on_device);
  if (p->hp && p->device->rv) {
    /* Launches already enqueued run first: wait for a marker on each queue
     * (not rvhal_queue_finish, which would take a failure the application's
     * clFinish is to report). A held launch holds its kernel, and so this
     * program: none is of it. */
    pthread_mutex_lock(&c->lock);
    for (cl_command_queue q = c->queues; q; q = q->next) {
      rvhal_event_t *m = NULL;
      if (rvhal_enqueue_marker(q->q, NULL, &m) == RVHAL_OK) {
        rvhal_event_wait(m, RVHAL_WAIT_FOREVER);
        rvhal_event_release(m);
      }
    }
    pthread_mutex_unlock(&c->lock);
    rvhal_program_free(p->device->rv, p->hp);
  }
  rvhal_program_info_free(p->info);
  drop_objects(p);
  free(p->source);
  free(p->elf);
  free(p->options);
  free(p->log);
  remove_tree(p->header_dir);
  free(p->header_dir);
  pthread_mutex_destroy(&p->lock);
  p->magic = 0;
  free(p);
  rvcl_context_unhold(c);
  return CL_SUCCESS;
}

char *rvcl_kernel_cl_name(const rvhal_kernel_info_t *ki) {
  if (ki->source_name) return strdup(ki->source_name);
  size_t n = strlen(ki->name);
  if (ki->language == RVHAL_KERNEL_LANG_C && n > 6 && !strcmp(ki->name + n - 6, "_entry")) n -= 6;
  return strndup(ki->name, n);
}

static int built(cl_program p) { return p->status == CL_BUILD_SUCCESS && p->info; }

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info name, size_t size, void *value,
                                                 size_t *size_ret) {
  static const char *fn = "clGetProgramInfo";
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) return rvcl_fail(NULL, fn, CL_INVALID_PROGRAM, "%p", (void *)p);
  switch (name) {
  case CL_PROGRAM_REFERENCE_COUNT: {
    cl_uint r = atomic_load(&p->refs);
    return rvcl_info(&r, sizeof r, size, value, size_ret);
  }
  case CL_PROGRAM_CONTEXT: return rvcl_info(&p->context, sizeof p->context, size, value, size_ret);
  case CL_PROGRAM_NUM_DEVICES: {
    cl_program parts[RVCL_MAX_CONTEXT_DEVICES];
    cl_uint np = program_parts(p, parts);
    return rvcl_info(&np, sizeof np, size, value, size_ret);
  }
  case CL_PROGRAM_DEVICES: {
    cl_program parts[RVCL_MAX_CONTEXT_DEVICES];
    cl_device_id ds[RVCL_MAX_CONTEXT_DEVICES];
    cl_uint np = program_parts(p, parts);
    for (cl_uint i = 0; i < np; i++) ds[i] = parts[i]->device;
    return rvcl_info(ds, np * sizeof ds[0], size, value, size_ret);
  }
  case CL_PROGRAM_SOURCE: return rvcl_info_str(p->source ? p->source : "", size, value, size_ret);
  case CL_PROGRAM_IL: return rvcl_info(NULL, 0, size, value, size_ret);
  case CL_PROGRAM_BINARY_SIZES: {
    cl_program parts[RVCL_MAX_CONTEXT_DEVICES];
    size_t sizes[RVCL_MAX_CONTEXT_DEVICES];
    cl_uint np = program_parts(p, parts);
    for (cl_uint i = 0; i < np; i++) {
      cl_program q = parts[i];
      sizes[i] = is_object_type(q->binary_type) && q->num_objects ? object_blob(q, NULL) : q->elf ? q->elf_size : 0;
    }
    return rvcl_info(sizes, np * sizeof sizes[0], size, value, size_ret);
  }
  case CL_PROGRAM_BINARIES: {
    /* An array of a pointer per device the caller allocated the sizes at. */
    cl_program parts[RVCL_MAX_CONTEXT_DEVICES];
    cl_uint np = program_parts(p, parts);
    if (value) {
      if (size < np * sizeof(unsigned char *))
        return rvcl_fail(p->context, fn, CL_INVALID_VALUE, "param_value_size %zu is less than %u pointers", size, np);
      for (cl_uint i = 0; i < np; i++) {
        cl_program q = parts[i];
        unsigned char *dst = ((unsigned char **)value)[i];
        if (dst && is_object_type(q->binary_type) && q->num_objects)
          object_blob(q, dst);
        else if (dst && q->elf)
          memcpy(dst, q->elf, q->elf_size);
      }
    }
    if (size_ret) *size_ret = np * sizeof(unsigned char *);
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS: {
    if (!built(p)) return rvcl_fail(p->context, fn, CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
    size_t k = p->info->num_kernels;
    return rvcl_info(&k, sizeof k, size, value, size_ret);
  }
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!built(p)) return rvcl_fail(p->context, fn, CL_INVALID_PROGRAM_EXECUTABLE, "the program is not built");
    size_t len = 1;
    for (uint32_t i = 0; i < p->info->num_kernels; i++) len += strlen(p->info->kernels[i].name) + 1;
    char *s = calloc(1, len);
    if (!s) return CL_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < p->info->num_kernels; i++) {
      char *k = rvcl_kernel_cl_name(&p->info->kernels[i]);
      if (i) strcat(s, ";");
      if (k) strcat(s, k);
      free(k);
    }
    cl_int err = rvcl_info_str(s, size, value, size_ret);
    free(s);
    return err;
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT: case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
    cl_bool no = CL_FALSE;
    return rvcl_info(&no, sizeof no, size, value, size_ret);
  }
  }
  return rvcl_fail(p->context, fn, CL_INVALID_VALUE, "param_name 0x%x is not a program query", (unsigned)name);
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info name,
                                                      size_t size, void *value, size_t *size_ret) {
  static const char *fn = "clGetProgramBuildInfo";
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) return rvcl_fail(NULL, fn, CL_INVALID_PROGRAM, "%p", (void *)p);
  cl_program on = RVCL_VALID(d, RVCL_MAGIC_DEVICE) ? rvcl_program_on(p, d) : NULL;
  if (!on) return rvcl_fail(p->context, fn, CL_INVALID_DEVICE, "device %p is not one of the program's", (void *)d);
  p = on;
  switch (name) {
  case CL_PROGRAM_BUILD_STATUS: return rvcl_info(&p->status, sizeof p->status, size, value, size_ret);
  case CL_PROGRAM_BUILD_OPTIONS: return rvcl_info_str(p->options ? p->options : "", size, value, size_ret);
  case CL_PROGRAM_BUILD_LOG: return rvcl_info_str(p->log ? p->log : "", size, value, size_ret);
  case CL_PROGRAM_BINARY_TYPE: return rvcl_info(&p->binary_type, sizeof p->binary_type, size, value, size_ret);
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
    size_t z = 0;
    return rvcl_info(&z, sizeof z, size, value, size_ret);
  }
  }
  return rvcl_fail(p->context, fn, CL_INVALID_VALUE, "param_name 0x%x is not a build query", (unsigned)name);
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program p, void(CL_CALLBACK *fn)(cl_program, void *),
                                                            void *user) {
  (void)fn, (void)user;
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM)) return rvcl_fail(NULL, "clSetProgramReleaseCallback", CL_INVALID_PROGRAM, "%p", (void *)p);
  return rvcl_fail(p->context, "clSetProgramReleaseCallback", CL_INVALID_OPERATION,
                   "no program-scope global constructors or destructors on rvhal devices");
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program p, cl_uint id, size_t size, const void *v) {
  (void)id, (void)size, (void)v;
  if (!RVCL_VALID(p, RVCL_MAGIC_PROGRAM))
    return rvcl_fail(NULL, "clSetProgramSpecializationConstant", CL_INVALID_PROGRAM, "%p", (void *)p);
  return rvcl_fail(p->context, "clSetProgramSpecializationConstant", CL_INVALID_OPERATION,
                   "the program was not made from an IL");
}

/* The compiled-binary cache: $XDG_CACHE_HOME/rvhal/opencl (or
 * ~/.cache/rvhal/opencl; $RVHAL_OPENCL_CACHE_DIR overrides, "off" turns it
 * off). An entry is named by a 128-bit hash of the source, the options, the
 * device's XLEN and ISA, the library that compiled it (its file's size
 * and time) and the kernel SDK and compilers it used
 * (rvhal_opencl_compile_stamp), so a rebuilt compiler or SDK never serves
 * an old binary. Entries are
 * written to a temporary file and renamed into place: concurrent processes
 * see a whole entry or none. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "icd.h"

static void fnv(uint64_t *h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) *h = (*h ^ p[i]) * 0x100000001b3ull;
}

static void hash_str(uint64_t h[2], const char *s) {
  size_t n = s ? strlen(s) + 1 : 0; /* the NUL separates fields */
  fnv(&h[0], s ? s : "", n);
  fnv(&h[1], s ? s : "", n);
  fnv(&h[1], &n, sizeof n);
}

static int cache_dir(char *out, size_t size) {
  const char *e = getenv("RVHAL_OPENCL_CACHE_DIR");
  if (e && !strcmp(e, "off")) return -1;
  if (e && *e)
    snprintf(out, size, "%s", e);
  else if ((e = getenv("XDG_CACHE_HOME")) && *e)
    snprintf(out, size, "%s/rvhal/opencl", e);
  else if ((e = getenv("HOME")) && *e)
    snprintf(out, size, "%s/.cache/rvhal/opencl", e);
  else
    return -1;
  /* mkdir -p */
  for (char *p = out + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(out, 0755) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(out, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static int read_file(const char *path, void **out, size_t *out_size) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || st.st_size <= 0 || st.st_size > (1 << 30)) {
    fclose(f);
    return -1;
  }
  void *buf = malloc((size_t)st.st_size + 1);
  if (!buf || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
    free(buf);
    fclose(f);
    return -1;
  }
  fclose(f);
  ((char *)buf)[st.st_size] = 0;
  *out = buf;
  *out_size = (size_t)st.st_size;
  return 0;
}

static void write_atomically(const char *path, const void *data, size_t size) {
  char tmp[4300];
  snprintf(tmp, sizeof tmp, "%s.%ld.%lx.tmp", path, (long)getpid(), (unsigned long)clock());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return;
  const char *p = data;
  size_t left = size;
  while (left) {
    ssize_t w = write(fd, p, left);
    if (w <= 0) break;
    p += w;
    left -= (size_t)w;
  }
  if (close(fd) != 0 || left || rename(tmp, path) != 0) unlink(tmp);
}

/* rvhal_opencl_compile of desc, or rvhal_opencl_link of the objects. */
static int build_now(const rvhal_opencl_compile_desc_t *desc, const char *const *objects, const size_t *object_sizes,
                     uint32_t num_objects, void **out_elf, size_t *out_size, char **out_log) {
  return num_objects ? rvhal_opencl_link(desc, objects, object_sizes, num_objects, out_elf, out_size, out_log)
                     : rvhal_opencl_compile(desc, out_elf, out_size, out_log);
}

int rvcl_compile_cached(const rvhal_opencl_compile_desc_t *desc, const char *const *objects, const size_t *object_sizes,
                        uint32_t num_objects, void **out_elf, size_t *out_size, char **out_log) {
  char dir[4096], path[4200];
  if (cache_dir(dir, sizeof dir) != 0)
    return build_now(desc, objects, object_sizes, num_objects, out_elf, out_size, out_log);
  uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
  hash_str(h, "rvhal-opencl-cache 1");
  if (!num_objects) {
    size_t len = desc->source_size ? desc->source_size : strlen(desc->source);
    fnv(&h[0], desc->source, len);
    fnv(&h[1], desc->source, len);
    hash_str(h, desc->options);
  }
  if (num_objects) hash_str(h, "objects");
  for (uint32_t i = 0; i < num_objects; i++) { /* a link: its objects, in order */
    size_t len = object_sizes ? object_sizes[i] : strlen(objects[i]);
    fnv(&h[0], &len, sizeof len);
    fnv(&h[0], objects[i], len);
    fnv(&h[1], objects[i], len);
  }
  hash_str(h, desc->isa);
  fnv(&h[0], &desc->xlen, sizeof desc->xlen);
  Dl_info dl;
  struct stat st;
  if (dladdr((void *)rvcl_compile_cached, &dl) && dl.dli_fname && stat(dl.dli_fname, &st) == 0) {
    fnv(&h[1], &st.st_size, sizeof st.st_size);
    fnv(&h[1], &st.st_mtim, sizeof st.st_mtim);
  }
  /* The kernel SDK and compilers: a header of the SDK changes no byte of
   * this library. No stamp (no SDK): compile, which says what is missing. */
  if (rvhal_opencl_compile_stamp(desc, &h[1]) != RVHAL_OK)
    return build_now(desc, objects, object_sizes, num_objects, out_elf, out_size, out_log);
  snprintf(path, sizeof path, "%s/%016llx%016llx.elf", dir, (unsigned long long)h[0], (unsigned long long)h[1]);
  if (read_file(path, out_elf, out_size) == 0) {
    if (out_log) *out_log = NULL;
    return RVHAL_OK;
  }
  int rc = build_now(desc, objects, object_sizes, num_objects, out_elf, out_size, out_log);
  if (rc == RVHAL_OK) write_atomically(path, *out_elf, *out_size);
  return rc;
}

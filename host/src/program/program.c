/* Programs: a kernel ELF is validated, its segments are staged in device
 * memory set aside for programs (not global memory: mem_* and kernel
 * arguments cannot reach it), and its kernels (with their SDK metadata) are
 * listed. The program
 * is placed in the program area by the firmware when a launch needs it
 * (all programs are linked at the same address, so several can be loaded
 * and each takes the area in turn). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/edit_distance.h"
#include "base/isa_check.h"
#include "memory/allocator.h"
#include "program/program.h"
#include "rvhal/rvhal_kernel_abi.h"

/* A kernel ELF links into the program area; its file may hold symbols and
 * debug information besides, but nothing near this. */
#define RVHAL_PROGRAM_FILE_MAX (256ull * 1024 * 1024)

struct rvhal_programs {
  rvhal_program_obj_t *loaded;
  hal_program_t next_program;
  hal_kernel_t next_kernel;
  rvhal_allocator_t *staging; /* programs' copies, out of the user's reach */
  uint64_t staging_size;
  uint64_t staged_bytes;      /* what the loaded programs' copies hold */
  uint32_t staged_programs;
};

static void program_destroy(rvhal_programs_t *ps, rvhal_program_obj_t *p);

int rvhal_programs_create(const rvhal_device_t *d, rvhal_programs_t **out_programs) {
  const rvhal_layout_t *l = rvhal_device_layout(d);
  rvhal_programs_t *ps = calloc(1, sizeof *ps);
  if (!ps) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  ps->next_program = 1;
  ps->next_kernel = 1;
  ps->staging_size = l->staging_size;
  int rc = rvhal_allocator_create(l->staging_base, l->staging_size, &ps->staging);
  if (rc) {
    free(ps);
    return rc;
  }
  *out_programs = ps;
  return RVHAL_OK;
}

void rvhal_programs_destroy(rvhal_programs_t *ps) {
  if (!ps) return;
  while (ps->loaded) {
    rvhal_program_obj_t *p = ps->loaded;
    ps->loaded = p->next;
    program_destroy(ps, p);
  }
  rvhal_allocator_destroy(ps->staging);
  free(ps);
}

static rvhal_programs_t *program_table(const rvhal_device_t *d) { return rvhal_device_modules(d)->programs; }

rvhal_program_obj_t *rvhal_program_get(const rvhal_device_t *d, hal_program_t handle) {
  for (rvhal_program_obj_t *p = program_table(d)->loaded; p; p = p->next)
    if (p->handle == handle) return p;
  return NULL;
}

const rvhal_program_obj_t *rvhal_program_of_kernel(const rvhal_device_t *d, hal_kernel_t kernel) {
  for (const rvhal_program_obj_t *p = program_table(d)->loaded; p; p = p->next)
    if (rvhal_kernel_get(p, kernel)) return p;
  return NULL;
}

/* Kernels are the global functions that have SDK metadata, plus any other
 * global function a caller names in a program without SDK kernels. */
static int collect_kernels(rvhal_program_obj_t *p) {
  /* Room for every symbol: a kernel is one of them. */
  p->kernels = calloc(p->elf->num_symbols + 1, sizeof *p->kernels);
  if (!p->kernels) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  int rc = rvhal_elf_kernels(p->elf, p->kernels, &p->num_kernels);
  p->num_sdk_kernels = p->num_kernels;
  return rc;
}

/* The staged copy is device memory a kernel can overwrite: it is written
 * again from the host's copy of the ELF each time the program is installed
 * (after a restart too), so a stray store cannot break a program for good. */
int rvhal_program_stage(const rvhal_device_t *d, const rvhal_program_obj_t *p) {
  for (uint32_t i = 0; i < p->num_installs; i++) {
    memcpy(rvhal_dev_ptr(d, p->install[i].src), p->elf->data + p->elf->segments[i].offset,
           (size_t)p->install[i].copy_size);
    RVHAL_RETURN_IF_ERROR(rvhal_dev_flush(d, p->install[i].src, p->install[i].copy_size));
  }
  return RVHAL_OK;
}

static void program_destroy(rvhal_programs_t *ps, rvhal_program_obj_t *p) {
  if (!p) return;
  for (uint32_t i = 0; i < p->num_kernels; i++) free(p->kernels[i].name);
  free(p->kernels);
  if (p->staging) {
    rvhal_allocator_free(ps->staging, p->staging);
    ps->staged_bytes -= p->staged_size;
    ps->staged_programs--;
  }
  rvhal_elf_free(p->elf);
  free(p);
}

int rvhal_program_load(rvhal_device_t *d, const void *elf, hal_size_t size, hal_program_t *out_program) {
  RVHAL_DEVICE_GUARD(d);
  rvhal_clear_error();
  if (!d || !out_program) return rvhal_error(RVHAL_INVALID_ARGUMENT, "program_load: NULL device or out_program");
  if (rvhal_device_busy(d))
    return rvhal_error(RVHAL_BUSY, "program_load: the device is running a launch (called from its print callback?)");
  *out_program = hal_invalid_program;
  rvhal_programs_t *ps = program_table(d);
  const rvhal_device_info_t *info = rvhal_device_get_info(d);
  const rvhal_layout_t *layout = rvhal_device_layout(d);
  rvhal_program_obj_t *p = calloc(1, sizeof *p);
  if (!p) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  int rc = rvhal_elf_parse(elf, (size_t)size, info->word_size, layout->program_base, layout->program_size, &p->elf);
  if (rc) goto fail;
  /* The harts must have every extension the kernel was built for, and the
   * kernel must use the device's float ABI (ELF header): one kernel set per
   * device, so a soft-float kernel on FPU harts is the wrong set too. */
  char lacks[40];
  const char *kernel_abi = rvhal_elf_float_abi(p->elf->word_size * 8, p->elf->flags);
  const int isa_bad = p->elf->arch[0] && rvhal_isa_check(p->elf->arch, info->isa, lacks, sizeof lacks);
  if (isa_bad || strcmp(kernel_abi, info->kernel_abi)) {
    rc = rvhal_error(RVHAL_BAD_ELF, "program_load: the kernel was built for %s, ABI %s (its .riscv.attributes and ELF "
                     "header), device %s is %s, ABI %s: %s%s (rebuild the kernel with -march=%s -mabi=%s)",
                     p->elf->arch[0] ? p->elf->arch : "(no Tag_RISCV_arch)", kernel_abi, info->name, info->isa,
                     info->kernel_abi, isa_bad ? "it lacks " : "its kernels use the other float ABI",
                     isa_bad ? lacks : "", info->isa, info->kernel_abi);
    goto fail;
  }
  /* Its SDK must read what this firmware writes. */
  uint32_t kabi = 0;
  if ((rc = rvhal_elf_kernel_abi(p->elf, &kabi)) < 0) goto fail;
  if (rc && kabi != RVHAL_KERNEL_ABI_VERSION) {
    rc = rvhal_error(RVHAL_BAD_ELF, "program_load: the kernel was built for kernel ABI version %u "
                     "(__rvhal_kernel_abi); this rvhal runs version %u: rebuild it with this rvhal's kernel SDK",
                     kabi, RVHAL_KERNEL_ABI_VERSION);
    goto fail;
  }
  if ((rc = collect_kernels(p))) goto fail;
  /* Stage every segment's file bytes in global memory, back to back. */
  uint64_t staged = 0;
  for (uint32_t i = 0; i < p->elf->num_segments; i++) staged += rvhal_align_up(p->elf->segments[i].filesz, 16);
  if (staged) {
    if ((rc = rvhal_allocator_alloc(ps->staging, staged, 64, &p->staging))) {
      const double mib = 1024.0 * 1024.0;
      if (rc == RVHAL_NO_MEMORY) /* else out of host memory, said so */
        rc = rvhal_error(RVHAL_NO_MEMORY, "program_load: no room to keep the program (%llu bytes): %u loaded programs "
                         "hold %.2f of the %.2f MiB program store, device RAM %llu MiB (the store is RAM/%u: "
                         "release programs or give the device more RAM)", (unsigned long long)staged,
                         ps->staged_programs, ps->staged_bytes / mib, ps->staging_size / mib,
                         (unsigned long long)(layout->ram_size >> 20), RVHAL_STAGING_RAM_SHARE);
      p->staging = 0;
      goto fail;
    }
    p->staged_size = rvhal_align_up(staged, 64); /* what the store gives it */
    ps->staged_bytes += p->staged_size;
    ps->staged_programs++;
    /* The installs a launch hands the firmware: from the staged copy to
     * the segment's address, zeroing what the file does not hold. */
    hal_addr_t src = p->staging;
    for (uint32_t i = 0; i < p->elf->num_segments; i++) {
      const rvhal_elf_segment_t *s = &p->elf->segments[i];
      p->install[i] = (rvhal_install_t){s->vaddr, src, s->filesz, s->memsz - s->filesz};
      src += rvhal_align_up(s->filesz, 16);
    }
    p->num_installs = p->elf->num_segments;
    rvhal_program_stage(d, p);
  }
  p->handle = ps->next_program++;
  p->next = ps->loaded;
  ps->loaded = p;
  *out_program = p->handle;
  return RVHAL_OK;
fail:
  program_destroy(ps, p);
  return rc;
}

/* Reads a regular file whole. Opened without blocking (a FIFO would wait
 * for a writer forever) and checked with fstat on the open descriptor:
 * directories, FIFOs, devices and sockets are refused by name. */
static int read_program_file(const char *path, void **out_buf, size_t *out_size) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return rvhal_error(errno == ENOENT ? RVHAL_NOT_FOUND : RVHAL_HOST_IO, "program %s: %s", path,
                                 strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return rvhal_error(RVHAL_HOST_IO, "program %s: %s", path, strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    const char *what = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : S_ISSOCK(st.st_mode) ? "a socket"
                                                                                   : "not a regular file";
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "program %s: is %s; a program is a regular ELF file", path, what);
  }
  if ((uint64_t)st.st_size > RVHAL_PROGRAM_FILE_MAX) {
    close(fd);
    return rvhal_error(RVHAL_BAD_ELF, "program %s: %llu bytes, more than a kernel ELF file may have (%llu)", path,
                       (unsigned long long)st.st_size, (unsigned long long)RVHAL_PROGRAM_FILE_MAX);
  }
  size_t n = (size_t)st.st_size, got = 0;
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf) {
    close(fd);
    return rvhal_error(RVHAL_HOST_IO, "program %s: out of host memory for %zu bytes", path, n);
  }
  while (got < n) { /* a regular file never blocks; a short read means it shrank */
    ssize_t r = read(fd, buf + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      int e = r < 0 ? errno : 0;
      free(buf);
      close(fd);
      return rvhal_error(RVHAL_HOST_IO, "program %s: read %zu of %zu bytes%s%s", path, got, n, e ? ": " : "",
                         e ? strerror(e) : " (the file shrank)");
    }
    got += (size_t)r;
  }
  close(fd);
  *out_buf = buf;
  *out_size = n;
  return RVHAL_OK;
}

int rvhal_program_load_file(rvhal_device_t *d, const char *path, hal_program_t *out_program) {
  RVHAL_DEVICE_GUARD(d);
  rvhal_clear_error();
  if (!path) return rvhal_error(RVHAL_INVALID_ARGUMENT, "program_load_file: NULL path");
  if (out_program) *out_program = hal_invalid_program;
  void *buf = NULL;
  size_t n = 0;
  RVHAL_RETURN_IF_ERROR(read_program_file(path, &buf, &n));
  hal_program_t handle = hal_invalid_program;
  int rc = rvhal_program_load(d, buf, (hal_size_t)n, &handle);
  free(buf);
  if (rc) return rvhal_error_annotate(rc, "%s", path);
  rvhal_program_obj_t *p = rvhal_program_get(d, handle);
  const char *base = strrchr(path, '/');
  if (p) snprintf(p->file, sizeof p->file, "%s", base ? base + 1 : path);
  if (out_program) *out_program = handle;
  return RVHAL_OK;
}

/* The SDK kernel `name` most likely meant: its entry (name_entry), one
 * that starts with it, or one a typo away. NULL if none is close. */
const char *rvhal_closest_kernel(const rvhal_program_obj_t *p, const char *name) {
  size_t len = strlen(name), best = SIZE_MAX;
  const char *pick = NULL;
  for (uint32_t i = 0; i < p->num_sdk_kernels; i++) {
    const char *k = p->kernels[i].name;
    if (!strncmp(k, name, len) && !strcmp(k + len, "_entry")) return k;
    size_t d = strncmp(k, name, len) == 0 ? 1 : rvhal_edit_distance(name, k);
    if (d < best) best = d, pick = k;
  }
  return best <= (len < 6 ? 2 : len / 3) ? pick : NULL;
}

int rvhal_program_find_kernel(rvhal_device_t *d, hal_program_t program, const char *name, hal_kernel_t *out_kernel) {
  RVHAL_DEVICE_GUARD(d);
  rvhal_clear_error();
  if (!d || !name || !out_kernel)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "program_find_kernel: NULL device, name or out_kernel");
  *out_kernel = hal_invalid_kernel;
  rvhal_program_obj_t *p = rvhal_program_get(d, program);
  if (!p) return rvhal_error(RVHAL_NOT_FOUND, "program_find_kernel: no loaded program has handle %llu",
                             (unsigned long long)program);
  uint64_t addr;
  int rc = rvhal_elf_find_function(p->elf, name, &addr);
  int sdk_kernel = 0;
  for (uint32_t i = 0; !rc && i < p->num_sdk_kernels; i++) sdk_kernel |= p->kernels[i].entry == addr;
  if (p->num_sdk_kernels && (rc == RVHAL_NOT_FOUND || (!rc && !sdk_kernel))) {
    /* Name the kernels the SDK declared rather than every function, and
     * the likely one: a plain function (the kernel body) would run with
     * no argument checks and read its arguments from the wrong place. */
    char list[512] = "", hint[160] = "";
    size_t n = 0;
    for (uint32_t i = 0; i < p->num_sdk_kernels && n + 64 < sizeof list; i++)
      n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", p->kernels[i].name);
    const char *near = rvhal_closest_kernel(p, name);
    if (!near && p->num_sdk_kernels == 1) near = p->kernels[0].name; /* the only one there is */
    if (near) snprintf(hint, sizeof hint, "; did you mean %s?", near);
    char which[96]; /* the program by its file, which its handle does not say */
    snprintf(which, sizeof which, "program %llu%s%s", (unsigned long long)program, p->file[0] ? ", " : "", p->file);
    if (rc == RVHAL_NOT_FOUND && !rvhal_elf_symbol_named(p->elf, name))
      return rvhal_error(RVHAL_NOT_FOUND, "kernel \"%s\" not found in %s (its kernels: %s)%s", name, which, list,
                         hint);
    if (!rc)
      return rvhal_error(RVHAL_NOT_FOUND, "\"%s\" in %s is a plain function, not a kernel entry (its "
                         "kernels: %s)%s", name, which, list, hint);
  }
  if (rc) return rc;
  rvhal_kernel_entry_t *k = NULL;
  for (uint32_t i = 0; i < p->num_kernels && !k; i++)
    if (p->kernels[i].entry == addr) k = &p->kernels[i];
  if (!k) { /* a function without SDK metadata: launched unchecked */
    k = &p->kernels[p->num_kernels];
    if (!(k->name = strdup(name))) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
    k->entry = addr;
    p->num_kernels++;
  }
  if (!k->handle) k->handle = program_table(d)->next_kernel++;
  *out_kernel = k->handle;
  return RVHAL_OK;
}

rvhal_kernel_entry_t *rvhal_kernel_get(const rvhal_program_obj_t *p, hal_kernel_t handle) {
  for (uint32_t i = 0; i < p->num_kernels; i++)
    if (handle && p->kernels[i].handle == handle) return &p->kernels[i];
  return NULL;
}

int rvhal_program_free(rvhal_device_t *d, hal_program_t program) {
  RVHAL_DEVICE_GUARD(d);
  rvhal_clear_error();
  if (!d) return rvhal_error(RVHAL_INVALID_ARGUMENT, "program_free: NULL device");
  if (rvhal_device_busy(d))
    return rvhal_error(RVHAL_BUSY, "program_free: the device is running a launch (called from its print callback?)");
  rvhal_programs_t *ps = program_table(d);
  /* Handles are never given twice: the launch module's record of the
   * program in the program area cannot name a later program. */
  for (rvhal_program_obj_t **pp = &ps->loaded; *pp; pp = &(*pp)->next) {
    if ((*pp)->handle != program) continue;
    rvhal_program_obj_t *p = *pp;
    *pp = p->next;
    program_destroy(ps, p);
    return RVHAL_OK;
  }
  return rvhal_error(RVHAL_NOT_FOUND, "program_free: no loaded program has handle %llu", (unsigned long long)program);
}

/* The SDK kernels of an ELF image: each <entry>__rvhal_meta symbol gives a
 * kernel, its metadata and (RVHAL_KERNEL_ENTRY) <entry>__rvhal_args the
 * declared types and names. Used by program_load and by
 * rvhal_program_info_read (no device). */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "program/program.h"
#include "rvhal/rvhal_kernel_abi.h"
#include "rvhal/program_info.h"

/* The file bytes behind [vaddr, vaddr+size), if a segment holds them. */
static const uint8_t *elf_bytes_at(const rvhal_elf_image_t *img, uint64_t vaddr, uint64_t size) {
  for (uint32_t i = 0; i < img->num_segments; i++) {
    const rvhal_elf_segment_t *s = &img->segments[i];
    if (vaddr >= s->vaddr && size <= s->filesz && vaddr - s->vaddr <= s->filesz - size)
      return img->data + s->offset + (vaddr - s->vaddr);
  }
  return NULL;
}

/* Room for an entry's name and a metadata suffix: rvhal's OpenCL C compiler
 * takes kernel names of up to 4095 characters. */
#define SYM_NAME_MAX 4160

/* The "type\0name\0" pairs of <entry>__rvhal_args, if present and whole. */
static const char *arg_text(const rvhal_elf_image_t *img, const char *entry, uint32_t num_args) {
  char sym_name[SYM_NAME_MAX];
  if (snprintf(sym_name, sizeof sym_name, "%s%s", entry, RVHAL_META_ARGS_SUFFIX) >= (int)sizeof sym_name) return NULL;
  const rvhal_elf_symbol_t *sym = rvhal_elf_symbol_named(img, sym_name);
  if (!sym || !sym->size) return NULL;
  const char *text = (const char *)elf_bytes_at(img, sym->value, sym->size);
  if (!text) return NULL;
  uint32_t strings = 0;
  for (uint64_t i = 0; i < sym->size; i++) strings += text[i] == '\0';
  return strings >= 2 * num_args ? text : NULL; /* and the literal's own NUL */
}

int rvhal_elf_kernel_abi(const rvhal_elf_image_t *img, uint32_t *out_version) {
  const rvhal_elf_symbol_t *sym = rvhal_elf_symbol_named(img, "__rvhal_kernel_abi");
  if (!sym) return 0;
  const uint8_t *w = elf_bytes_at(img, sym->value, 8);
  uint32_t magic = 0;
  if (w) memcpy(&magic, w, 4);
  if (magic != RVHAL_KERNEL_ABI_MAGIC)
    return rvhal_error(RVHAL_BAD_ELF, "program: its kernel ABI record (__rvhal_kernel_abi at 0x%llx) is damaged",
                       (unsigned long long)sym->value);
  memcpy(out_version, w + 4, 4);
  return 1;
}

/* <entry>__rvhal_opencl of an OpenCL C kernel, if present, whole and
 * matching the kernel's argument count; a damaged one is an error. */
static int opencl_meta(const rvhal_elf_image_t *img, const char *entry, uint32_t num_args,
                       const rvhal_opencl_meta_t **out) {
  *out = NULL;
  char sym_name[SYM_NAME_MAX];
  if (snprintf(sym_name, sizeof sym_name, "%s%s", entry, RVHAL_OPENCL_META_SUFFIX) >= (int)sizeof sym_name)
    return rvhal_error(RVHAL_BAD_ELF, "program: kernel name of %zu characters is too long (limit %d)", strlen(entry),
                       SYM_NAME_MAX - 64);
  const rvhal_elf_symbol_t *sym = rvhal_elf_symbol_named(img, sym_name);
  if (!sym) return RVHAL_OK;
  const rvhal_opencl_meta_t *m =
      sym->size >= sizeof *m ? (const rvhal_opencl_meta_t *)elf_bytes_at(img, sym->value, sizeof *m) : NULL;
  if (!m || m->magic != RVHAL_OPENCL_META_MAGIC || m->num_args != num_args)
    return rvhal_error(RVHAL_BAD_ELF, "program: OpenCL metadata %s is damaged", sym_name);
  if (m->version != RVHAL_OPENCL_META_VERSION)
    return rvhal_error(RVHAL_BAD_ELF, "program: OpenCL metadata %s is version %u; this rvhal reads version %u: "
                       "rebuild the kernel with this rvhal's rvhal cc", sym_name, m->version, RVHAL_OPENCL_META_VERSION);
  if (!memchr(m->attributes, '\0', sizeof m->attributes))
    return rvhal_error(RVHAL_BAD_ELF, "program: OpenCL metadata %s: its attribute text is not NUL-terminated", sym_name);
  for (int d = 0; d < 3; d++)
    if (m->reqd_work_group_size[d] == 0 && (m->reqd_work_group_size[0] | m->reqd_work_group_size[1] |
                                            m->reqd_work_group_size[2]))
      return rvhal_error(RVHAL_BAD_ELF, "program: OpenCL metadata %s: reqd_work_group_size(%u, %u, %u) has a 0",
                         sym_name, m->reqd_work_group_size[0], m->reqd_work_group_size[1],
                         m->reqd_work_group_size[2]);
  *out = m;
  return RVHAL_OK;
}

int rvhal_elf_kernels(const rvhal_elf_image_t *img, rvhal_kernel_entry_t *out, uint32_t *out_num) {
  size_t suffix = strlen(RVHAL_META_SUFFIX);
  uint32_t n = 0;
  *out_num = 0; /* kept current: on an error the caller frees the names parsed so far */
  for (uint32_t i = 0; i < img->num_symbols; i++) {
    const rvhal_elf_symbol_t *sym = &img->symbols[i];
    size_t len = strlen(sym->name);
    if (len <= suffix || strcmp(sym->name + len - suffix, RVHAL_META_SUFFIX)) continue;
    /* the header, then the descriptors it counts (a record is as long as
     * the RVHAL_META_MAX_ARGS it was built with; only num_args are read) */
    const size_t head = offsetof(rvhal_kernel_meta_t, args);
    const uint8_t *bytes = elf_bytes_at(img, sym->value, head);
    if (!bytes)
      return rvhal_error(RVHAL_BAD_ELF, "program: metadata %s is not inside a loaded segment", sym->name);
    rvhal_kernel_entry_t *k = &out[n];
    memset(k, 0, sizeof *k);
    memcpy(&k->meta, bytes, head);
    if (k->meta.magic != RVHAL_META_MAGIC || k->meta.num_args > RVHAL_META_MAX_ARGS)
      return rvhal_error(RVHAL_BAD_ELF, "program: metadata %s is damaged (%u arguments; at most %u)", sym->name,
                         k->meta.num_args, RVHAL_META_MAX_ARGS);
    const size_t used = head + k->meta.num_args * sizeof k->meta.args[0];
    if (!(bytes = elf_bytes_at(img, sym->value, used)))
      return rvhal_error(RVHAL_BAD_ELF, "program: metadata %s is not inside a loaded segment", sym->name);
    memcpy(&k->meta, bytes, used);
    if (k->meta.version < RVHAL_META_MIN_VERSION || k->meta.version > RVHAL_META_VERSION)
      return rvhal_error(RVHAL_BAD_ELF, "program: kernel metadata %s is version %u; this rvhal reads versions %u to %u: "
                         "rebuild the kernel with this rvhal's SDK", sym->name, k->meta.version,
                         RVHAL_META_MIN_VERSION, RVHAL_META_VERSION);
    k->name = strndup(sym->name, len - suffix);
    if (!k->name) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
    *out_num = ++n;
    if (rvhal_elf_find_function(img, k->name, &k->entry) != RVHAL_OK)
      return rvhal_error_annotate(RVHAL_BAD_ELF, "program: metadata %s has no kernel function", sym->name);
    k->has_meta = 1;
    k->arg_text = arg_text(img, k->name, k->meta.num_args);
    if (opencl_meta(img, k->name, k->meta.num_args, &k->opencl) != RVHAL_OK) {
      *out_num = n;
      return RVHAL_BAD_ELF;
    }
  }
  *out_num = n;
  return RVHAL_OK;
}

/* rvhal_program_info_t and everything it points to, in one block. */
typedef struct info_block {
  rvhal_program_info_t info;
  rvhal_elf_image_t *img;
  rvhal_kernel_entry_t *entries;
  uint32_t num_entries;
} info_block_t;

void rvhal_program_info_free(rvhal_program_info_t *info) {
  if (!info) return;
  info_block_t *b = (info_block_t *)info;
  for (uint32_t i = 0; i < b->num_entries; i++) free(b->entries[i].name);
  free(b->entries);
  if (info->kernels)
    for (uint32_t i = 0; i < info->num_kernels; i++) free((void *)info->kernels[i].args);
  free((void *)info->kernels);
  rvhal_elf_free(b->img);
  free(b);
}

int rvhal_program_info_read(const void *elf, hal_size_t size, rvhal_program_info_t **out_info) {
  rvhal_clear_error();
  if (!elf || !out_info) return rvhal_error(RVHAL_INVALID_ARGUMENT, "program_info_read: NULL elf or out_info");
  *out_info = NULL;
  const uint8_t *e = elf;
  if (size < 5 || memcmp(e, "\177ELF", 4))
    return rvhal_error(RVHAL_BAD_ELF, "program_info_read: not an ELF file");
  info_block_t *b = calloc(1, sizeof *b);
  if (!b) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  uint32_t word = e[4] == 1 ? 4 : 8; /* EI_CLASS; the parser checks the rest */
  int rc = rvhal_elf_parse(elf, (size_t)size, word, 0, UINT64_MAX, &b->img);
  if (!rc && !(b->entries = calloc(b->img->num_symbols + 1, sizeof *b->entries)))
    rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
  if (!rc) rc = rvhal_elf_kernels(b->img, b->entries, &b->num_entries);
  rvhal_kernel_info_t *ks = NULL;
  if (!rc && !(ks = calloc(b->num_entries + 1, sizeof *ks))) rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
  b->info.word_size = word;
  b->info.kernels = ks;
  for (uint32_t i = 0; !rc && i < b->num_entries; i++) {
    const rvhal_kernel_entry_t *k = &b->entries[i];
    rvhal_kernel_arg_info_t *args = calloc(k->meta.num_args + 1, sizeof *args);
    if (!args) {
      rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
      break;
    }
    const char *text = k->arg_text;
    for (uint32_t j = 0; j < k->meta.num_args; j++) {
      uint32_t d = k->meta.args[j].desc;
      args[j] = (rvhal_kernel_arg_info_t){RVHAL_ARG_DESC_KIND(d), RVHAL_ARG_DESC_TYPE(d), RVHAL_ARG_DESC_SIZE(d),
                                          k->meta.args[j].offset, NULL, NULL, RVHAL_ADDRESS_PRIVATE, 0,
                                          RVHAL_ACCESS_NONE};
      if (args[j].kind == RVHAL_ARG_KIND_GLOBAL) args[j].address_space = RVHAL_ADDRESS_GLOBAL;
      if (args[j].kind == RVHAL_ARG_KIND_LOCAL) args[j].address_space = RVHAL_ADDRESS_LOCAL;
      if (text) {
        args[j].type_name = text;
        text += strlen(text) + 1;
        args[j].name = text;
        text += strlen(text) + 1;
      }
      if (k->opencl) { /* what clang recorded; a value's space is private (0) */
        args[j].address_space = k->opencl->address_space[j];
        args[j].type_qualifiers = k->opencl->type_qualifiers[j];
        args[j].access_qualifier = k->opencl->access_qualifier[j];
      }
    }
    ks[i] = (rvhal_kernel_info_t){k->name, k->meta.version, k->meta.args_size, k->meta.num_args, args,
                                  k->opencl ? RVHAL_KERNEL_LANG_OPENCL : RVHAL_KERNEL_LANG_C,
                                  k->opencl ? k->name : NULL, {0, 0, 0}, {0, 0, 0},
                                  b->img->tls_size > UINT32_MAX ? UINT32_MAX : (uint32_t)b->img->tls_size, NULL};
    if (k->opencl) { /* checked by opencl_meta(): the text ends inside the record */
      memcpy(ks[i].reqd_work_group_size, k->opencl->reqd_work_group_size, sizeof ks[i].reqd_work_group_size);
      memcpy(ks[i].work_group_size_hint, k->opencl->work_group_size_hint, sizeof ks[i].work_group_size_hint);
      ks[i].attributes = k->opencl->attributes;
    }
    b->info.num_kernels = i + 1;
  }
  if (rc) {
    rvhal_program_info_free(&b->info);
    return rc;
  }
  *out_info = &b->info;
  return RVHAL_OK;
}

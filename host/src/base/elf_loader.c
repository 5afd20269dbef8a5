/* ELF parsing and validation for kernel programs (see elf_loader.h).
 *
 * The parser works on the image's private copy of the file. Every offset,
 * count and size taken from the file is range-checked against the file's
 * size with overflow-safe arithmetic before anything is read through it, and
 * every field is copied out with memcpy, so a truncated, unaligned or hostile
 * buffer can only produce RVHAL_BAD_ELF. The two ELF classes share one parser:
 * headers, program headers, section headers and symbols are read into
 * class-neutral structs by the read_* helpers below, which are the only code
 * that knows the Elf32_* and Elf64_* layouts. */
#include "base/elf_loader.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"

/* Fields are copied straight out of the file with memcpy; RISC-V ELF files
 * are little-endian (checked below), so the host must be too. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "elf_loader.c reads little-endian ELF fields in place and needs a little-endian host"
#endif

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* How many global functions a "kernel not found" message lists. */
#define KERNEL_LIST_MAX 8

/* ---- class-neutral views of the ELF structures ---- */

typedef struct ehdr {
  uint16_t type, machine;
  uint32_t version, flags;
  uint64_t entry, phoff, shoff;
  uint16_t phentsize, phnum, shentsize, shnum;
} ehdr_t;

typedef struct phdr {
  uint32_t type, flags;
  uint64_t offset, vaddr, filesz, memsz, align;
} phdr_t;

typedef struct shdr {
  uint32_t type, link;
  uint64_t offset, size, entsize;
} shdr_t;

typedef struct sym {
  uint32_t name;
  uint8_t info;
  uint16_t shndx;
  uint64_t value, size;
} sym_t;

typedef struct parser {
  const uint8_t *data; /* the image's copy of the file */
  size_t size;
  int is64;
  ehdr_t eh;
} parser_t;

/* The same field names exist in both classes' structs, so one macro body
 * converts either. */
#define COPY_EHDR_(dst, src)             \
  do {                                   \
    (dst)->type = (src).e_type;          \
    (dst)->machine = (src).e_machine;    \
    (dst)->version = (src).e_version;    \
    (dst)->flags = (src).e_flags;        \
    (dst)->entry = (src).e_entry;        \
    (dst)->phoff = (src).e_phoff;        \
    (dst)->shoff = (src).e_shoff;        \
    (dst)->phentsize = (src).e_phentsize; \
    (dst)->phnum = (src).e_phnum;        \
    (dst)->shentsize = (src).e_shentsize; \
    (dst)->shnum = (src).e_shnum;        \
  } while (0)

#define COPY_PHDR_(dst, src)         \
  do {                               \
    (dst)->type = (src).p_type;      \
    (dst)->flags = (src).p_flags;    \
    (dst)->offset = (src).p_offset;  \
    (dst)->vaddr = (src).p_vaddr;    \
    (dst)->filesz = (src).p_filesz;  \
    (dst)->memsz = (src).p_memsz;    \
    (dst)->align = (src).p_align;    \
  } while (0)

#define COPY_SHDR_(dst, src)           \
  do {                                 \
    (dst)->type = (src).sh_type;       \
    (dst)->link = (src).sh_link;       \
    (dst)->offset = (src).sh_offset;   \
    (dst)->size = (src).sh_size;       \
    (dst)->entsize = (src).sh_entsize; \
  } while (0)

#define COPY_SYM_(dst, src)          \
  do {                               \
    (dst)->name = (src).st_name;     \
    (dst)->info = (src).st_info;     \
    (dst)->shndx = (src).st_shndx;   \
    (dst)->value = (src).st_value;   \
    (dst)->size = (src).st_size;     \
  } while (0)

static size_t ehdr_size(const parser_t *p) { return p->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr); }
static size_t phdr_size(const parser_t *p) { return p->is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr); }
static size_t shdr_size(const parser_t *p) { return p->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr); }
static size_t sym_size(const parser_t *p) { return p->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym); }

/* [off, off+len) inside the file. */
static int in_file(const parser_t *p, uint64_t off, uint64_t len) { return rvhal_range_inside(off, len, 0, p->size); }

/* A table of count entries of entsize bytes at off inside the file. */
static int table_in_file(const parser_t *p, uint64_t off, uint64_t count, uint64_t entsize) {
  if (entsize != 0 && count > UINT64_MAX / entsize) return 0;
  return in_file(p, off, count * entsize);
}

/* The read_* helpers require the caller to have checked that the structure
 * lies inside the file. */
static void read_ehdr(parser_t *p) {
  if (p->is64) {
    Elf64_Ehdr e;
    memcpy(&e, p->data, sizeof e);
    COPY_EHDR_(&p->eh, e);
  } else {
    Elf32_Ehdr e;
    memcpy(&e, p->data, sizeof e);
    COPY_EHDR_(&p->eh, e);
  }
}

static void read_phdr(const parser_t *p, unsigned index, phdr_t *out) {
  const uint8_t *src = p->data + p->eh.phoff + (uint64_t)index * p->eh.phentsize;
  if (p->is64) {
    Elf64_Phdr ph;
    memcpy(&ph, src, sizeof ph);
    COPY_PHDR_(out, ph);
  } else {
    Elf32_Phdr ph;
    memcpy(&ph, src, sizeof ph);
    COPY_PHDR_(out, ph);
  }
}

static void read_shdr(const parser_t *p, uint64_t index, shdr_t *out) {
  const uint8_t *src = p->data + p->eh.shoff + index * p->eh.shentsize;
  if (p->is64) {
    Elf64_Shdr sh;
    memcpy(&sh, src, sizeof sh);
    COPY_SHDR_(out, sh);
  } else {
    Elf32_Shdr sh;
    memcpy(&sh, src, sizeof sh);
    COPY_SHDR_(out, sh);
  }
}

static void read_sym(const parser_t *p, const uint8_t *src, sym_t *out) {
  if (p->is64) {
    Elf64_Sym s;
    memcpy(&s, src, sizeof s);
    COPY_SYM_(out, s);
  } else {
    Elf32_Sym s;
    memcpy(&s, src, sizeof s);
    COPY_SYM_(out, s);
  }
}

/* ---- names for messages ---- */

static const char *machine_name(unsigned m) {
  switch (m) {
    case EM_NONE: return "none";
    case EM_386: return "x86";
    case EM_MIPS: return "MIPS";
    case EM_PPC: return "PowerPC";
    case EM_PPC64: return "PowerPC64";
    case EM_ARM: return "ARM";
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_RISCV: return "RISC-V";
    default: return "unknown machine";
  }
}

static const char *type_name(unsigned t) {
  switch (t) {
    case ET_NONE: return "ET_NONE";
    case ET_REL: return "ET_REL, a relocatable object: link it into an executable";
    case ET_EXEC: return "ET_EXEC";
    case ET_DYN: return "ET_DYN, a shared object or PIE: link with -static -no-pie";
    case ET_CORE: return "ET_CORE, a core dump";
    default: return "unknown type";
  }
}

static const char *symbol_type_name(unsigned t) {
  switch (t) {
    case STT_NOTYPE: return "STT_NOTYPE";
    case STT_OBJECT: return "STT_OBJECT";
    case STT_FUNC: return "STT_FUNC";
    default: return "other";
  }
}

/* ---- validation ---- */

static int parse_header(parser_t *p, uint32_t word_size) {
  const uint8_t *d = p->data;
  if (p->size < sizeof(Elf32_Ehdr))
    return rvhal_error(RVHAL_BAD_ELF, "ELF: file is %zu bytes, too short for an ELF header (%zu/%zu bytes)", p->size,
                       sizeof(Elf32_Ehdr), sizeof(Elf64_Ehdr));
  if (memcmp(d, ELFMAG, SELFMAG) != 0)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: bad magic %02x %02x %02x %02x, expected 7f 45 4c 46 (\"\\x7fELF\"): not an ELF file",
                       d[0], d[1], d[2], d[3]);

  unsigned cls = d[EI_CLASS];
  if (cls != ELFCLASS32 && cls != ELFCLASS64)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: class is %u, expected %d (ELFCLASS32) or %d (ELFCLASS64)", cls, ELFCLASS32,
                       ELFCLASS64);
  p->is64 = cls == ELFCLASS64;

  if (d[EI_DATA] != ELFDATA2LSB)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: data encoding is %u (%s), expected %d (ELFDATA2LSB, little-endian)", d[EI_DATA],
                       d[EI_DATA] == ELFDATA2MSB ? "ELFDATA2MSB, big-endian" : "invalid", ELFDATA2LSB);
  if (d[EI_VERSION] != EV_CURRENT)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: EI_VERSION is %u, expected %d (EV_CURRENT)", d[EI_VERSION], EV_CURRENT);
  if (p->size < ehdr_size(p))
    return rvhal_error(RVHAL_BAD_ELF, "ELF: file is %zu bytes, too short for an ELF%d header (%zu bytes)", p->size,
                       p->is64 ? 64 : 32, ehdr_size(p));

  read_ehdr(p);
  const ehdr_t *h = &p->eh;
  if (h->version != EV_CURRENT)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: e_version is %" PRIu32 ", expected %d (EV_CURRENT)", h->version, EV_CURRENT);
  if (h->machine != EM_RISCV)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: e_machine is %u (%s), expected %d (RISC-V)", h->machine, machine_name(h->machine),
                       EM_RISCV);
  /* After the machine check, so that a foreign file is named as such. */
  if ((p->is64 ? 8u : 4u) != word_size)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: class is %s (%s) but the device is RV%u", p->is64 ? "ELFCLASS64" : "ELFCLASS32",
                       p->is64 ? "RV64" : "RV32", word_size * 8);
  if (h->type != ET_EXEC)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: e_type is %u (%s), expected %d (ET_EXEC)", h->type, type_name(h->type), ET_EXEC);
  return RVHAL_OK;
}

/* Checks shared by PT_LOAD and PT_TLS: the file part lies in the file and is
 * no larger than the memory part. */
static int check_segment_bytes(const parser_t *p, const char *label, const phdr_t *ph) {
  if (ph->filesz > ph->memsz)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: %s has p_filesz 0x%" PRIx64 " larger than p_memsz 0x%" PRIx64, label, ph->filesz,
                       ph->memsz);
  if (!in_file(p, ph->offset, ph->filesz))
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: %s (p_offset 0x%" PRIx64 ", p_filesz 0x%" PRIx64 ") extends past the end of the file (%zu bytes)",
                       label, ph->offset, ph->filesz, p->size);
  return RVHAL_OK;
}

static int parse_segments(const parser_t *p, rvhal_elf_image_t *img, uint64_t area_base, uint64_t area_size) {
  const ehdr_t *h = &p->eh;
  if (h->phnum == PN_XNUM)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: e_phnum is 0x%x (PN_XNUM, extended numbering), which is not supported", PN_XNUM);
  if (h->phnum == 0)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: the file has no program headers (e_phnum is 0), expected 1 to %d PT_LOAD segments",
                       RVHAL_ELF_MAX_SEGMENTS);
  if (h->phentsize != phdr_size(p))
    return rvhal_error(RVHAL_BAD_ELF, "ELF: e_phentsize is %u, expected %zu (sizeof(Elf%d_Phdr))", h->phentsize, phdr_size(p),
                       p->is64 ? 64 : 32);
  if (h->phoff == 0)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: e_phoff is 0 but e_phnum is %u", h->phnum);
  if (!table_in_file(p, h->phoff, h->phnum, h->phentsize))
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: program header table (e_phoff 0x%" PRIx64 ", %u entries of %u bytes) lies outside the file (%zu bytes)",
                       h->phoff, h->phnum, h->phentsize, p->size);

  uint64_t area_end = area_base + area_size;
  unsigned ordinal[RVHAL_ELF_MAX_SEGMENTS]; /* PT_LOAD number of each recorded segment, for messages */
  unsigned num_load = 0;                    /* PT_LOAD headers seen so far */
  int tls_index = -1;
  char label[64];

  for (unsigned i = 0; i < h->phnum; i++) {
    phdr_t ph;
    read_phdr(p, i, &ph);
    if (ph.type == PT_TLS) {
      snprintf(label, sizeof label, "PT_TLS segment (program header %u)", i);
      RVHAL_RETURN_IF_ERROR(check_segment_bytes(p, label, &ph));
      if (tls_index >= 0)
        return rvhal_error(RVHAL_BAD_ELF, "ELF: more than one PT_TLS segment (program headers %d and %u)", tls_index, i);
      uint64_t align = ph.align ? ph.align : 1;
      if (!rvhal_is_pow2(align))
        return rvhal_error(RVHAL_BAD_ELF, "ELF: PT_TLS segment (program header %u) has p_align 0x%" PRIx64 ", not a power of two",
                           i, ph.align);
      tls_index = (int)i;
      img->tls_size = ph.memsz;
      img->tls_align = align;
      continue;
    }
    if (ph.type != PT_LOAD) continue;

    unsigned seg = num_load++;
    snprintf(label, sizeof label, "segment %u", seg);
    RVHAL_RETURN_IF_ERROR(check_segment_bytes(p, label, &ph));
    if (ph.memsz == 0) continue; /* occupies nothing: nothing to place or to overlap */

    if (img->num_segments == RVHAL_ELF_MAX_SEGMENTS) {
      unsigned total = 0;
      for (unsigned j = 0; j < h->phnum; j++) {
        phdr_t other;
        read_phdr(p, j, &other);
        total += other.type == PT_LOAD && other.memsz != 0;
      }
      return rvhal_error(RVHAL_BAD_ELF, "ELF: the file has %u non-empty PT_LOAD segments, at most %d are supported", total,
                         RVHAL_ELF_MAX_SEGMENTS);
    }
    if (!rvhal_range_inside(ph.vaddr, ph.memsz, area_base, area_size))
      return rvhal_error(RVHAL_BAD_ELF,
                         "ELF: segment %u at 0x%" PRIx64 " (size 0x%" PRIx64 ") lies outside the program area [0x%" PRIx64
                         ", 0x%" PRIx64 ")",
                         seg, ph.vaddr, ph.memsz, area_base, area_end);
    /* Both ranges lie inside the area, so their ends do not overflow. */
    for (uint32_t j = 0; j < img->num_segments; j++) {
      const rvhal_elf_segment_t *o = &img->segments[j];
      if (ph.vaddr < o->vaddr + o->memsz && o->vaddr < ph.vaddr + ph.memsz)
        return rvhal_error(RVHAL_BAD_ELF,
                           "ELF: segment %u [0x%" PRIx64 ", 0x%" PRIx64 ") overlaps segment %u [0x%" PRIx64 ", 0x%" PRIx64 ")",
                           seg, ph.vaddr, ph.vaddr + ph.memsz, ordinal[j], o->vaddr, o->vaddr + o->memsz);
    }
    ordinal[img->num_segments] = seg;
    img->segments[img->num_segments++] = (rvhal_elf_segment_t){
        .vaddr = ph.vaddr, .memsz = ph.memsz, .filesz = ph.filesz, .offset = ph.offset, .flags = ph.flags};
  }

  if (img->num_segments == 0)
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: no non-empty PT_LOAD segment (%u program headers, %u of them PT_LOAD): nothing to load", h->phnum,
                       num_load);
  return RVHAL_OK;
}

/* The number of section headers, checked to lie in the file (0: none). */
static int section_count(const parser_t *p, uint64_t *out_shnum) {
  const ehdr_t *h = &p->eh;
  *out_shnum = 0;
  if (h->shoff == 0) return RVHAL_OK; /* no section headers */
  if (h->shentsize != shdr_size(p))
    return rvhal_error(RVHAL_BAD_ELF, "ELF: e_shentsize is %u, expected %zu (sizeof(Elf%d_Shdr))", h->shentsize, shdr_size(p),
                       p->is64 ? 64 : 32);

  uint64_t shnum = h->shnum;
  if (shnum == 0) {
    /* Extended numbering: the count is in section 0's sh_size. */
    if (!in_file(p, h->shoff, h->shentsize))
      return rvhal_error(RVHAL_BAD_ELF, "ELF: section header table (e_shoff 0x%" PRIx64 ") lies outside the file (%zu bytes)",
                         h->shoff, p->size);
    shdr_t first;
    read_shdr(p, 0, &first);
    shnum = first.size;
  }
  if (!table_in_file(p, h->shoff, shnum, h->shentsize))
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: section header table (e_shoff 0x%" PRIx64 ", %" PRIu64
                       " entries of %u bytes) lies outside the file (%zu bytes)",
                       h->shoff, shnum, h->shentsize, p->size);
  *out_shnum = shnum;
  return RVHAL_OK;
}

/* ULEB128 at *at (bounded by end); -1 if it runs off the end or past 64 bits. */
static int uleb(const uint8_t **at, const uint8_t *end, uint64_t *out) {
  uint64_t v = 0;
  for (unsigned shift = 0; *at < end && shift < 64; shift += 7) {
    uint8_t b = *(*at)++;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return 0;
    }
  }
  return -1;
}

#define SHT_RISCV_ATTRIBUTES_ 0x70000003u
#define TAG_RISCV_ARCH 5

/* Tag_RISCV_arch of the "riscv" attributes (the psABI's format: 'A', then
 * subsections of length, vendor, and tagged attributes: an even tag takes
 * a ULEB128, an odd one a NUL-terminated string) into img->arch; left
 * empty when the file has none. Every length is checked against the
 * section. */
static int parse_attributes(const parser_t *p, rvhal_elf_image_t *img) {
  uint64_t shnum;
  RVHAL_RETURN_IF_ERROR(section_count(p, &shnum));
  shdr_t sh = {0};
  uint64_t i = 1;
  for (; i < shnum; i++) {
    read_shdr(p, i, &sh);
    if (sh.type == SHT_RISCV_ATTRIBUTES_) break;
  }
  if (i >= shnum) return RVHAL_OK;
  if (!in_file(p, sh.offset, sh.size))
    return rvhal_error(RVHAL_BAD_ELF, "ELF: .riscv.attributes (section %" PRIu64 ", sh_offset 0x%" PRIx64 ", sh_size 0x%"
                       PRIx64 ") lies outside the file (%zu bytes)", i, sh.offset, sh.size, p->size);
  const uint8_t *at = p->data + sh.offset, *end = at + sh.size;
#define BAD_ATTR(what) rvhal_error(RVHAL_BAD_ELF, "ELF: .riscv.attributes: %s at byte %td", what, at - (p->data + sh.offset))
  if (at == end || *at++ != 'A') return BAD_ATTR("not format version 'A'");
  while (at < end) {
    const uint8_t *sub = at;
    if (end - at < 4) return BAD_ATTR("a subsection length cut short");
    uint32_t len = (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
    if (len < 4 || len > (uint64_t)(end - sub)) return BAD_ATTR("a subsection longer than the section");
    const uint8_t *sub_end = sub + len;
    at += 4;
    const uint8_t *nul = memchr(at, 0, (size_t)(sub_end - at));
    if (!nul) return BAD_ATTR("a vendor name without its NUL");
    int riscv = !strcmp((const char *)at, "riscv");
    at = nul + 1;
    while (riscv && at < sub_end) { /* sub-subsections: tag, length, attributes */
      const uint8_t *ss = at;
      uint8_t kind = *at++;
      if (sub_end - at < 4) return BAD_ATTR("a sub-subsection length cut short");
      uint32_t sl = (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
      if (sl < 5 || sl > (uint64_t)(sub_end - ss)) return BAD_ATTR("a sub-subsection longer than its subsection");
      const uint8_t *ss_end = ss + sl;
      at += 4;
      while (kind == 1 && at < ss_end) { /* Tag_File: the whole file's attributes */
        uint64_t tag, v;
        if (uleb(&at, ss_end, &tag)) return BAD_ATTR("a bad tag");
        if (tag % 2 == 0) {
          if (uleb(&at, ss_end, &v)) return BAD_ATTR("a bad number");
          continue;
        }
        const uint8_t *z = memchr(at, 0, (size_t)(ss_end - at));
        if (!z) return BAD_ATTR("a string without its NUL");
        if (tag == TAG_RISCV_ARCH) {
          if ((size_t)(z - at) >= sizeof img->arch) return BAD_ATTR("Tag_RISCV_arch longer than rvhal takes");
          memcpy(img->arch, at, (size_t)(z - at) + 1);
        }
        at = z + 1;
      }
      at = ss_end;
    }
    at = sub_end;
  }
#undef BAD_ATTR
  return RVHAL_OK;
}

static int parse_symbols(const parser_t *p, rvhal_elf_image_t *img) {
  uint64_t shnum;
  RVHAL_RETURN_IF_ERROR(section_count(p, &shnum));
  uint64_t symtab_index = 0;
  shdr_t symtab = {0};
  for (uint64_t i = 0; i < shnum && symtab_index == 0; i++) {
    read_shdr(p, i, &symtab);
    if (symtab.type == SHT_SYMTAB) symtab_index = i;
  }
  if (symtab_index == 0) return RVHAL_OK; /* stripped: no symbols (section 0 is never the symbol table) */

  if (symtab.entsize != sym_size(p))
    return rvhal_error(RVHAL_BAD_ELF, "ELF: symbol table (section %" PRIu64 ") has sh_entsize %" PRIu64 ", expected %zu",
                       symtab_index, symtab.entsize, sym_size(p));
  if (symtab.size % sym_size(p) != 0)
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: symbol table (section %" PRIu64 ") has sh_size 0x%" PRIx64 ", not a multiple of its entry size %zu",
                       symtab_index, symtab.size, sym_size(p));
  if (!in_file(p, symtab.offset, symtab.size))
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: symbol table (section %" PRIu64 ", sh_offset 0x%" PRIx64 ", sh_size 0x%" PRIx64
                       ") lies outside the file (%zu bytes)",
                       symtab_index, symtab.offset, symtab.size, p->size);
  if (symtab.link == 0 || symtab.link >= shnum)
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: symbol table (section %" PRIu64 ") has sh_link %" PRIu32 ", not a valid section index (1 to %" PRIu64
                       ")",
                       symtab_index, symtab.link, shnum - 1);
  shdr_t strtab;
  read_shdr(p, symtab.link, &strtab);
  if (strtab.type != SHT_STRTAB)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: symbol table's string table (section %" PRIu32 ") has sh_type %" PRIu32
                       ", expected %d (SHT_STRTAB)",
                       symtab.link, strtab.type, SHT_STRTAB);
  if (!in_file(p, strtab.offset, strtab.size))
    return rvhal_error(RVHAL_BAD_ELF,
                       "ELF: string table (section %" PRIu32 ", sh_offset 0x%" PRIx64 ", sh_size 0x%" PRIx64
                       ") lies outside the file (%zu bytes)",
                       symtab.link, strtab.offset, strtab.size, p->size);

  uint64_t count = symtab.size / sym_size(p);
  if (count > UINT32_MAX)
    return rvhal_error(RVHAL_BAD_ELF, "ELF: symbol table has %" PRIu64 " entries, too many", count);
  if (count == 0) return RVHAL_OK;
  img->symbols = calloc((size_t)count, sizeof *img->symbols);
  if (!img->symbols)
    return rvhal_error(RVHAL_NO_MEMORY, "ELF: cannot allocate %" PRIu64 " symbols", count);

  const uint8_t *syms = p->data + symtab.offset;
  const char *strings = (const char *)p->data + strtab.offset;
  for (uint64_t k = 0; k < count; k++) {
    sym_t s;
    read_sym(p, syms + k * sym_size(p), &s);
    unsigned type = ELF64_ST_TYPE(s.info); /* same encoding in both classes */
    if (s.shndx == SHN_UNDEF) continue;
    if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) continue;
    if (s.name >= strtab.size)
      return rvhal_error(RVHAL_BAD_ELF,
                         "ELF: symbol %" PRIu64 " has st_name 0x%" PRIx32 ", outside its string table (0x%" PRIx64 " bytes)", k,
                         s.name, strtab.size);
    const char *name = strings + s.name;
    if (!memchr(name, '\0', (size_t)(strtab.size - s.name)))
      return rvhal_error(RVHAL_BAD_ELF,
                         "ELF: symbol %" PRIu64 "'s name (string table offset 0x%" PRIx32
                         ") is not NUL-terminated within the string table (0x%" PRIx64 " bytes)",
                         k, s.name, strtab.size);
    if (name[0] == '\0') continue;
    img->symbols[img->num_symbols++] = (rvhal_elf_symbol_t){
        .name = name, .value = s.value, .size = s.size, .type = (uint8_t)type, .bind = (uint8_t)ELF64_ST_BIND(s.info)};
  }
  return RVHAL_OK;
}

int rvhal_elf_parse(const void *data, size_t size, uint32_t word_size, hal_addr_t area_base, hal_size_t area_size,
                    rvhal_elf_image_t **out_image) {
  if (!out_image) return rvhal_error(RVHAL_INVALID_ARGUMENT, "elf_parse: out_image is NULL");
  *out_image = NULL;
  if (!data) return rvhal_error(RVHAL_INVALID_ARGUMENT, "elf_parse: data is NULL");
  if (word_size != 4 && word_size != 8)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "elf_parse: word_size %" PRIu32 " is not 4 or 8", word_size);
  if (area_size != 0 && area_size - 1 > UINT64_MAX - area_base)
    return rvhal_error(RVHAL_INVALID_ARGUMENT,
                       "elf_parse: program area at 0x%" PRIx64 " (size 0x%" PRIx64 ") wraps around the address space", area_base,
                       area_size);

  rvhal_elf_image_t *img = calloc(1, sizeof *img);
  if (!img) return rvhal_error(RVHAL_NO_MEMORY, "elf_parse: cannot allocate the image");
  img->data = malloc(size ? size : 1);
  if (!img->data) {
    free(img);
    return rvhal_error(RVHAL_NO_MEMORY, "elf_parse: cannot allocate %zu bytes for a copy of the file", size);
  }
  memcpy(img->data, data, size);
  img->size = size;
  img->word_size = word_size;
  img->tls_align = 1;

  parser_t p = {.data = img->data, .size = size};
  int rc = parse_header(&p, word_size);
  if (rc == RVHAL_OK) rc = parse_segments(&p, img, area_base, area_size);
  if (rc == RVHAL_OK) rc = parse_symbols(&p, img);
  if (rc == RVHAL_OK) rc = parse_attributes(&p, img);
  if (rc != RVHAL_OK) {
    rvhal_elf_free(img);
    return rc;
  }
  img->flags = p.eh.flags;
  img->entry = p.eh.entry;
  *out_image = img;
  return RVHAL_OK;
}

void rvhal_elf_free(rvhal_elf_image_t *image) {
  if (!image) return;
  free(image->symbols);
  free(image->data);
  free(image);
}

/* ---- lookups ---- */

static int in_executable_segment(const rvhal_elf_image_t *image, uint64_t addr) {
  for (uint32_t i = 0; i < image->num_segments; i++) {
    const rvhal_elf_segment_t *s = &image->segments[i];
    if ((s->flags & PF_X) && addr >= s->vaddr && addr - s->vaddr < s->memsz) return 1;
  }
  return 0;
}

static int is_kernel(const rvhal_elf_image_t *image, const rvhal_elf_symbol_t *s) {
  return s->type == STT_FUNC && (s->bind == STB_GLOBAL || s->bind == STB_WEAK) && in_executable_segment(image, s->value);
}

int rvhal_elf_find_function(const rvhal_elf_image_t *image, const char *name, uint64_t *out_addr) {
  if (!image || !name || !out_addr)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "elf_find_function: %s is NULL",
                       !image ? "image" : !name ? "name" : "out_addr");

  const rvhal_elf_symbol_t *same_name = NULL;
  for (uint32_t i = 0; i < image->num_symbols; i++) {
    const rvhal_elf_symbol_t *s = &image->symbols[i];
    if (strcmp(s->name, name) != 0) continue;
    if (is_kernel(image, s)) {
      *out_addr = s->value;
      return RVHAL_OK;
    }
    if (!same_name) same_name = s;
  }

  if (same_name) {
    if (same_name->type != STT_FUNC)
      return rvhal_error(RVHAL_NOT_FOUND, "kernel \"%s\" not found: the program's \"%s\" is a %s symbol, not a function", name,
                         name, symbol_type_name(same_name->type));
    if (same_name->bind != STB_GLOBAL && same_name->bind != STB_WEAK)
      return rvhal_error(RVHAL_NOT_FOUND,
                         "kernel \"%s\" not found: the program's function \"%s\" is local (static); a kernel must be global",
                         name, name);
    return rvhal_error(RVHAL_NOT_FOUND,
                       "kernel \"%s\" not found: the program's function \"%s\" at 0x%" PRIx64
                       " does not lie in an executable segment",
                       name, name, same_name->value);
  }

  char list[512];
  size_t len = 0;
  unsigned shown = 0, total = 0;
  int full = 0;
  list[0] = '\0';
  for (uint32_t i = 0; i < image->num_symbols; i++) {
    const rvhal_elf_symbol_t *s = &image->symbols[i];
    if (!is_kernel(image, s)) continue;
    total++;
    if (full) continue;
    size_t need = strlen(s->name) + (shown ? 2 : 0);
    /* Keep room for the ", and N more" suffix. */
    if (shown == KERNEL_LIST_MAX || len + need + 1 > sizeof list - 32) {
      full = 1;
      continue;
    }
    len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", shown ? ", " : "", s->name);
    shown++;
  }
  if (total == 0)
    return rvhal_error(RVHAL_NOT_FOUND, "kernel \"%s\" not found in program (it has no global functions)", name);
  if (shown < total) snprintf(list + len, sizeof list - len, "%sand %u more", shown ? ", " : "", total - shown);
  return rvhal_error(RVHAL_NOT_FOUND, "kernel \"%s\" not found in program (it has: %s)", name, list);
}

const rvhal_elf_symbol_t *rvhal_elf_symbol_at(const rvhal_elf_image_t *image, uint64_t addr) {
  if (!image) return NULL;
  const rvhal_elf_symbol_t *best = NULL;
  int best_score = -1;
  for (uint32_t i = 0; i < image->num_symbols; i++) {
    const rvhal_elf_symbol_t *s = &image->symbols[i];
    int contains = s->size ? addr >= s->value && addr - s->value < s->size : addr == s->value;
    if (!contains) continue;
    /* Prefer functions, then symbols with a size, then non-local ones. */
    int score = (s->type == STT_FUNC) * 4 + (s->size != 0) * 2 + (s->bind != STB_LOCAL);
    if (score > best_score) {
      best = s;
      best_score = score;
    }
  }
  return best;
}

const rvhal_elf_symbol_t *rvhal_elf_symbol_named(const rvhal_elf_image_t *image, const char *name) {
  if (!image || !name) return NULL;
  for (uint32_t i = 0; i < image->num_symbols; i++)
    if (!strcmp(image->symbols[i].name, name)) return &image->symbols[i];
  return NULL;
}

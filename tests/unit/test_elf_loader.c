/* Unit test of host/src/base/elf_loader.c. ELF files are built in memory (ELF64
 * and ELF32 variants of the same small kernel program) and then mutated, so
 * the test needs no cross toolchain. Every parse gets an exact-size heap copy
 * of the bytes so AddressSanitizer/valgrind catch any read past the end. */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/elf_loader.h"
#include "rvhal/status.h"
#include "test_rng.h"

#define AREA_BASE 0x80200000ull
#define AREA_SIZE 0x800000ull
#define AREA_END (AREA_BASE + AREA_SIZE)

#define TEXT_VADDR 0x80200000ull
#define TEXT_SIZE 0x20u
#define DATA_VADDR 0x80201000ull
#define DATA_FILESZ 0x10u
#define DATA_MEMSZ 0x40u
#define TLS_VADDR 0x80202000ull
#define TLS_MEMSZ 0x20u
#define TLS_ALIGN 16u
#define EXTRA_VADDR 0x80203000ull /* extra PT_LOAD segments, 0x1000 apart */
#define EXTRA_MEMSZ 0x10u
#define E_FLAGS 0x5u

/* Program header and section indices of the built file. */
enum { PH_TEXT = 0, PH_DATA = 1, PH_TLS = 2, PH_EXTRA = 3 };
enum { SEC_TEXT = 1, SEC_DATA, SEC_TBSS, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB, NUM_SECTIONS };

typedef struct opts {
  int is64;
  unsigned extra_loads; /* PT_LOAD segments beyond text and data */
  unsigned extra_funcs; /* global functions "kernel_NN" beyond the three base kernels */
} opts_t;

typedef struct elf_file {
  int is64;
  uint8_t *buf;
  size_t size;
  size_t phoff, shoff;
  unsigned phnum;
  size_t text_off, data_off, symtab_off, strtab_off, shstrtab_off;
  size_t strtab_size, num_syms;
  size_t last_name; /* strtab offset of the last symbol's name ("label_end") */
} elf_file_t;

typedef struct test_sym {
  const char *name;
  uint64_t value, size;
  unsigned type, bind, shndx;
} test_sym_t;

/* ---- little-endian field access through the <elf.h> layouts ---- */

static void put_le(uint8_t *p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

#define FIELD_OFF_(f, T, field) ((f)->is64 ? offsetof(Elf64_##T, field) : offsetof(Elf32_##T, field))
#define FIELD_SIZE_(f, T, field) ((f)->is64 ? sizeof(((Elf64_##T *)0)->field) : sizeof(((Elf32_##T *)0)->field))
#define STRUCT_SIZE_(f, T) ((f)->is64 ? sizeof(Elf64_##T) : sizeof(Elf32_##T))

#define SET_EH(f, field, v) put_le((f)->buf + FIELD_OFF_(f, Ehdr, field), (v), FIELD_SIZE_(f, Ehdr, field))
#define SET_PH(f, i, field, v) \
  put_le((f)->buf + (f)->phoff + (i) * STRUCT_SIZE_(f, Phdr) + FIELD_OFF_(f, Phdr, field), (v), FIELD_SIZE_(f, Phdr, field))
#define SET_SH(f, i, field, v) \
  put_le((f)->buf + (f)->shoff + (i) * STRUCT_SIZE_(f, Shdr) + FIELD_OFF_(f, Shdr, field), (v), FIELD_SIZE_(f, Shdr, field))
#define SET_SYM(f, i, field, v) \
  put_le((f)->buf + (f)->symtab_off + (i) * STRUCT_SIZE_(f, Sym) + FIELD_OFF_(f, Sym, field), (v), FIELD_SIZE_(f, Sym, field))

static uint32_t word_size(const elf_file_t *f) { return f->is64 ? 8 : 4; }

static void set_phdr(elf_file_t *f, unsigned i, uint32_t type, uint32_t flags, uint64_t off, uint64_t vaddr, uint64_t filesz,
                     uint64_t memsz, uint64_t align) {
  SET_PH(f, i, p_type, type);
  SET_PH(f, i, p_flags, flags);
  SET_PH(f, i, p_offset, off);
  SET_PH(f, i, p_vaddr, vaddr);
  SET_PH(f, i, p_paddr, vaddr);
  SET_PH(f, i, p_filesz, filesz);
  SET_PH(f, i, p_memsz, memsz);
  SET_PH(f, i, p_align, align);
}

static void set_shdr(elf_file_t *f, unsigned i, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr, uint64_t off,
                     uint64_t size, uint32_t link, uint32_t info, uint64_t align, uint64_t entsize) {
  SET_SH(f, i, sh_name, name);
  SET_SH(f, i, sh_type, type);
  SET_SH(f, i, sh_flags, flags);
  SET_SH(f, i, sh_addr, addr);
  SET_SH(f, i, sh_offset, off);
  SET_SH(f, i, sh_size, size);
  SET_SH(f, i, sh_link, link);
  SET_SH(f, i, sh_info, info);
  SET_SH(f, i, sh_addralign, align);
  SET_SH(f, i, sh_entsize, entsize);
}

static size_t align_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static size_t add_string(char *table, size_t *len, const char *s) {
  size_t off = *len;
  memcpy(table + off, s, strlen(s) + 1);
  *len += strlen(s) + 1;
  return off;
}

/* The symbols of the built program; "label_end" stays last (its name is the
 * last string of .strtab). */
static size_t build_symbols(test_sym_t *syms, unsigned extra_funcs, char names[][16]) {
  size_t n = 0;
  syms[n++] = (test_sym_t){"", 0, 0, STT_NOTYPE, STB_LOCAL, SHN_UNDEF};
  syms[n++] = (test_sym_t){"", TEXT_VADDR, 0, STT_SECTION, STB_LOCAL, SEC_TEXT};
  syms[n++] = (test_sym_t){"local_helper", TEXT_VADDR + 0x18, 4, STT_FUNC, STB_LOCAL, SEC_TEXT};
  syms[n++] = (test_sym_t){"vector_add_entry", TEXT_VADDR, 0x10, STT_FUNC, STB_GLOBAL, SEC_TEXT};
  syms[n++] = (test_sym_t){"other_entry", TEXT_VADDR + 0x10, 8, STT_FUNC, STB_GLOBAL, SEC_TEXT};
  syms[n++] = (test_sym_t){"weak_entry", TEXT_VADDR + 0x1c, 4, STT_FUNC, STB_WEAK, SEC_TEXT};
  syms[n++] = (test_sym_t){"table", DATA_VADDR, 0x10, STT_OBJECT, STB_GLOBAL, SEC_DATA};
  syms[n++] = (test_sym_t){"data_fn", DATA_VADDR + 0x10, 8, STT_FUNC, STB_GLOBAL, SEC_DATA};
  syms[n++] = (test_sym_t){"missing_fn", 0, 0, STT_FUNC, STB_GLOBAL, SHN_UNDEF};
  syms[n++] = (test_sym_t){"_start", TEXT_VADDR, 0, STT_NOTYPE, STB_GLOBAL, SEC_TEXT};
  syms[n++] = (test_sym_t){"tls_var", 0, 4, STT_TLS, STB_GLOBAL, SEC_TBSS};
  for (unsigned i = 0; i < extra_funcs && i < 32; i++) {
    snprintf(names[i], 16, "kernel_%02u", i % 100u);
    syms[n++] = (test_sym_t){names[i], TEXT_VADDR + 4 * (i % 8), 0, STT_FUNC, STB_GLOBAL, SEC_TEXT};
  }
  syms[n++] = (test_sym_t){"label_end", TEXT_VADDR + TEXT_SIZE, 0, STT_NOTYPE, STB_LOCAL, SEC_TEXT};
  return n;
}

static elf_file_t build(opts_t o) {
  elf_file_t f = {.is64 = o.is64};
  test_sym_t syms[64];
  char names[32][16];
  f.num_syms = build_symbols(syms, o.extra_funcs, names);

  char strtab[1024], shstrtab[256];
  size_t strtab_len = 0, shstrtab_len = 0;
  uint32_t sym_name[64];
  strtab[strtab_len++] = '\0';
  for (size_t i = 0; i < f.num_syms; i++) sym_name[i] = syms[i].name[0] ? (uint32_t)add_string(strtab, &strtab_len, syms[i].name) : 0;
  f.last_name = sym_name[f.num_syms - 1];
  f.strtab_size = strtab_len;
  shstrtab[shstrtab_len++] = '\0';
  uint32_t sec_name[NUM_SECTIONS] = {0};
  static const char *const sec_names[NUM_SECTIONS] = {"", ".text", ".data", ".tbss", ".symtab", ".strtab", ".shstrtab"};
  for (int i = 1; i < NUM_SECTIONS; i++) sec_name[i] = (uint32_t)add_string(shstrtab, &shstrtab_len, sec_names[i]);

  /* Layout: header, program headers, .text, .data, .symtab, .strtab,
   * .shstrtab, section headers (last, so any truncation cuts them). */
  f.phnum = 3 + o.extra_loads;
  f.phoff = STRUCT_SIZE_(&f, Ehdr);
  size_t off = align_up(f.phoff + f.phnum * STRUCT_SIZE_(&f, Phdr), 16);
  f.text_off = off;
  off += TEXT_SIZE;
  f.data_off = off;
  off += DATA_FILESZ;
  f.symtab_off = off = align_up(off, 8);
  off += f.num_syms * STRUCT_SIZE_(&f, Sym);
  f.strtab_off = off;
  off += strtab_len;
  f.shstrtab_off = off;
  off += shstrtab_len;
  f.shoff = off = align_up(off, 8);
  off += NUM_SECTIONS * STRUCT_SIZE_(&f, Shdr);
  f.size = off;
  f.buf = calloc(1, f.size);
  if (!f.buf) abort();

  /* ELF header */
  memcpy(f.buf, ELFMAG, SELFMAG);
  f.buf[EI_CLASS] = o.is64 ? ELFCLASS64 : ELFCLASS32;
  f.buf[EI_DATA] = ELFDATA2LSB;
  f.buf[EI_VERSION] = EV_CURRENT;
  f.buf[EI_OSABI] = ELFOSABI_SYSV;
  SET_EH(&f, e_type, ET_EXEC);
  SET_EH(&f, e_machine, EM_RISCV);
  SET_EH(&f, e_version, EV_CURRENT);
  SET_EH(&f, e_entry, TEXT_VADDR);
  SET_EH(&f, e_phoff, f.phoff);
  SET_EH(&f, e_shoff, f.shoff);
  SET_EH(&f, e_flags, E_FLAGS);
  SET_EH(&f, e_ehsize, STRUCT_SIZE_(&f, Ehdr));
  SET_EH(&f, e_phentsize, STRUCT_SIZE_(&f, Phdr));
  SET_EH(&f, e_phnum, f.phnum);
  SET_EH(&f, e_shentsize, STRUCT_SIZE_(&f, Shdr));
  SET_EH(&f, e_shnum, NUM_SECTIONS);
  SET_EH(&f, e_shstrndx, SEC_SHSTRTAB);

  /* program headers */
  set_phdr(&f, PH_TEXT, PT_LOAD, PF_R | PF_X, f.text_off, TEXT_VADDR, TEXT_SIZE, TEXT_SIZE, 0x1000);
  set_phdr(&f, PH_DATA, PT_LOAD, PF_R | PF_W, f.data_off, DATA_VADDR, DATA_FILESZ, DATA_MEMSZ, 0x1000);
  set_phdr(&f, PH_TLS, PT_TLS, PF_R, f.data_off + DATA_FILESZ, TLS_VADDR, 0, TLS_MEMSZ, TLS_ALIGN);
  for (unsigned i = 0; i < o.extra_loads; i++)
    set_phdr(&f, PH_EXTRA + i, PT_LOAD, PF_R | PF_W, f.data_off, EXTRA_VADDR + 0x1000 * i, 0, EXTRA_MEMSZ, 0x1000);

  /* contents: nops and a data pattern */
  for (unsigned i = 0; i < TEXT_SIZE; i += 4) put_le(f.buf + f.text_off + i, 0x00000013, 4);
  memset(f.buf + f.data_off, 0xab, DATA_FILESZ);

  /* symbols */
  for (size_t i = 0; i < f.num_syms; i++) {
    SET_SYM(&f, i, st_name, sym_name[i]);
    SET_SYM(&f, i, st_value, syms[i].value);
    SET_SYM(&f, i, st_size, syms[i].size);
    SET_SYM(&f, i, st_info, (syms[i].bind << 4) | syms[i].type);
    SET_SYM(&f, i, st_shndx, syms[i].shndx);
  }
  memcpy(f.buf + f.strtab_off, strtab, strtab_len);
  memcpy(f.buf + f.shstrtab_off, shstrtab, shstrtab_len);

  /* section headers */
  set_shdr(&f, SEC_TEXT, sec_name[SEC_TEXT], SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT_VADDR, f.text_off, TEXT_SIZE, 0, 0,
           4, 0);
  set_shdr(&f, SEC_DATA, sec_name[SEC_DATA], SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, DATA_VADDR, f.data_off, DATA_FILESZ, 0, 0, 8,
           0);
  set_shdr(&f, SEC_TBSS, sec_name[SEC_TBSS], SHT_NOBITS, SHF_ALLOC | SHF_WRITE | SHF_TLS, TLS_VADDR, f.data_off + DATA_FILESZ,
           TLS_MEMSZ, 0, 0, TLS_ALIGN, 0);
  set_shdr(&f, SEC_SYMTAB, sec_name[SEC_SYMTAB], SHT_SYMTAB, 0, 0, f.symtab_off, f.num_syms * STRUCT_SIZE_(&f, Sym), SEC_STRTAB,
           3, 8, STRUCT_SIZE_(&f, Sym));
  set_shdr(&f, SEC_STRTAB, sec_name[SEC_STRTAB], SHT_STRTAB, 0, 0, f.strtab_off, strtab_len, 0, 0, 1, 0);
  set_shdr(&f, SEC_SHSTRTAB, sec_name[SEC_SHSTRTAB], SHT_STRTAB, 0, 0, f.shstrtab_off, shstrtab_len, 0, 0, 1, 0);
  return f;
}

static elf_file_t build_basic(int is64) { return build((opts_t){.is64 = is64}); }

static void destroy(elf_file_t *f) {
  free(f->buf);
  f->buf = NULL;
}

/* Parse the first len bytes of f from an exact-size heap copy, which is freed
 * before returning (so the image must not point into it). */
static int parse_bytes(const uint8_t *bytes, size_t len, uint32_t ws, hal_addr_t base, hal_size_t size,
                       rvhal_elf_image_t **out) {
  uint8_t *copy = malloc(len ? len : 1);
  if (!copy) abort();
  memcpy(copy, bytes, len);
  int rc = rvhal_elf_parse(copy, len, ws, base, size, out);
  memset(copy, 0x5a, len); /* a stale pointer into the caller's buffer would now read garbage */
  free(copy);
  return rc;
}

static int parse_file(const elf_file_t *f, rvhal_elf_image_t **out) {
  return parse_bytes(f->buf, f->size, word_size(f), AREA_BASE, AREA_SIZE, out);
}

static int parse_len(const elf_file_t *f, size_t len, rvhal_elf_image_t **out) {
  return parse_bytes(f->buf, len, word_size(f), AREA_BASE, AREA_SIZE, out);
}

#define SENTINEL_IMAGE ((rvhal_elf_image_t *)(uintptr_t)1)

/* expr (a parse into img_) must fail with BAD_ELF and a message containing
 * needle, and leave *out_image NULL. */
#define EXPECT_BAD_CALL(call, needle)                                 \
  do {                                                                \
    rvhal_elf_image_t *img_ = SENTINEL_IMAGE;                         \
    CHECK_FAILS(call, RVHAL_BAD_ELF, needle);                         \
    CHECK(img_ == NULL);                                              \
    if (img_ != SENTINEL_IMAGE) rvhal_elf_free(img_);                 \
  } while (0)
#define EXPECT_BAD(f, needle) EXPECT_BAD_CALL(parse_file((f), &img_), needle)

/* Parse f, which must succeed; returns the image (NULL on failure). */
#define EXPECT_PARSES(f, img)        \
  do {                               \
    (img) = NULL;                    \
    CHECK_OK(parse_file((f), &(img))); \
    CHECK((img) != NULL);            \
  } while (0)

/* One case each: the file build_expr returns, changed by the statements
 * `change` / the variadic ones (they see it as f), must be refused with a
 * message containing needle, or must parse; then the statements after
 * `change` check the image (img, not NULL). Both free what they made. */
#define BAD_AFTER(build_expr, needle, ...) \
  do {                                     \
    elf_file_t f = (build_expr);           \
    __VA_ARGS__;                           \
    EXPECT_BAD(&f, needle);                \
    destroy(&f);                           \
  } while (0)
#define PARSES_AFTER(build_expr, change, ...) \
  do {                                        \
    elf_file_t f = (build_expr);              \
    change;                                   \
    rvhal_elf_image_t *img;                   \
    EXPECT_PARSES(&f, img);                   \
    if (img) {                                \
      __VA_ARGS__;                            \
    }                                         \
    rvhal_elf_free(img);                      \
    destroy(&f);                              \
  } while (0)

static const char *name_at(const rvhal_elf_image_t *img, uint64_t addr) {
  const rvhal_elf_symbol_t *s = rvhal_elf_symbol_at(img, addr);
  return s ? s->name : "(none)";
}

static const rvhal_elf_symbol_t *find_symbol(const rvhal_elf_image_t *img, const char *name) {
  for (uint32_t i = 0; i < img->num_symbols; i++)
    if (strcmp(img->symbols[i].name, name) == 0) return &img->symbols[i];
  return NULL;
}

#define CHECK_STR(a, b)                                                        \
  do {                                                                         \
    const char *check_sa_ = (a), *check_sb_ = (b);                             \
    CHECK_MSG(strcmp(check_sa_, check_sb_) == 0, "\"%s\", expected \"%s\"", check_sa_, check_sb_); \
  } while (0)

/* ---- valid files ---- */

static void test_valid(int is64) {
  elf_file_t f = build_basic(is64);
  rvhal_elf_image_t *img;
  EXPECT_PARSES(&f, img);
  if (!img) {
    destroy(&f);
    return;
  }
  CHECK_EQ_U64(img->word_size, is64 ? 8 : 4);
  CHECK_EQ_U64(img->flags, E_FLAGS);
  CHECK_EQ_U64(img->entry, TEXT_VADDR);
  CHECK_EQ_U64(img->size, f.size);
  CHECK(img->data != NULL && memcmp(img->data, f.buf, f.size) == 0);

  CHECK_EQ_U64(img->num_segments, 2);
  CHECK_EQ_U64(img->segments[0].vaddr, TEXT_VADDR);
  CHECK_EQ_U64(img->segments[0].memsz, TEXT_SIZE);
  CHECK_EQ_U64(img->segments[0].filesz, TEXT_SIZE);
  CHECK_EQ_U64(img->segments[0].offset, f.text_off);
  CHECK_EQ_U64(img->segments[0].flags, PF_R | PF_X);
  CHECK_EQ_U64(img->segments[1].vaddr, DATA_VADDR);
  CHECK_EQ_U64(img->segments[1].memsz, DATA_MEMSZ);
  CHECK_EQ_U64(img->segments[1].filesz, DATA_FILESZ);
  CHECK_EQ_U64(img->segments[1].offset, f.data_off);
  CHECK_EQ_U64(img->segments[1].flags, PF_R | PF_W);
  CHECK_EQ_U64(img->tls_size, TLS_MEMSZ);
  CHECK_EQ_U64(img->tls_align, TLS_ALIGN);

  /* Defined FUNC/OBJECT/NOTYPE symbols with names, in file order: not the
   * null, section, undefined or TLS symbols. */
  static const char *const expected[] = {"local_helper", "vector_add_entry", "other_entry", "weak_entry",
                                         "table",        "data_fn",          "_start",      "label_end"};
  CHECK_EQ_U64(img->num_symbols, sizeof expected / sizeof expected[0]);
  for (uint32_t i = 0; i < img->num_symbols && i < sizeof expected / sizeof expected[0]; i++) {
    CHECK_STR(img->symbols[i].name, expected[i]);
    /* names point into the image's own copy */
    CHECK((const uint8_t *)img->symbols[i].name >= img->data &&
          (const uint8_t *)img->symbols[i].name < img->data + img->size);
  }
  const rvhal_elf_symbol_t *s = find_symbol(img, "other_entry");
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ_U64(s->value, TEXT_VADDR + 0x10);
    CHECK_EQ_U64(s->size, 8);
    CHECK_EQ_U64(s->type, STT_FUNC);
    CHECK_EQ_U64(s->bind, STB_GLOBAL);
  }
  s = find_symbol(img, "table");
  CHECK(s != NULL);
  if (s) {
    CHECK_EQ_U64(s->value, DATA_VADDR);
    CHECK_EQ_U64(s->type, STT_OBJECT);
  }
  s = find_symbol(img, "weak_entry");
  CHECK(s != NULL && s->bind == STB_WEAK);
  s = find_symbol(img, "local_helper");
  CHECK(s != NULL && s->bind == STB_LOCAL);

  /* find_function */
  uint64_t addr = 0;
  CHECK_OK(rvhal_elf_find_function(img, "vector_add_entry", &addr));
  CHECK_EQ_U64(addr, TEXT_VADDR);
  CHECK_OK(rvhal_elf_find_function(img, "other_entry", &addr));
  CHECK_EQ_U64(addr, TEXT_VADDR + 0x10);
  CHECK_OK(rvhal_elf_find_function(img, "weak_entry", &addr));
  CHECK_EQ_U64(addr, TEXT_VADDR + 0x1c);

  /* symbol_at */
  CHECK_STR(name_at(img, TEXT_VADDR), "vector_add_entry"); /* FUNC preferred over _start (NOTYPE, same address) */
  CHECK_STR(name_at(img, TEXT_VADDR + 0xf), "vector_add_entry");
  CHECK_STR(name_at(img, TEXT_VADDR + 0x10), "other_entry");
  CHECK_STR(name_at(img, TEXT_VADDR + 0x17), "other_entry");
  CHECK_STR(name_at(img, TEXT_VADDR + 0x18), "local_helper");
  CHECK_STR(name_at(img, TEXT_VADDR + 0x1f), "weak_entry");
  CHECK_STR(name_at(img, TEXT_VADDR + TEXT_SIZE), "label_end"); /* size 0: exact address */
  CHECK_STR(name_at(img, TEXT_VADDR + TEXT_SIZE + 1), "(none)");
  CHECK_STR(name_at(img, DATA_VADDR + 4), "table");
  CHECK_STR(name_at(img, DATA_VADDR + 0x10), "data_fn");
  CHECK_STR(name_at(img, DATA_VADDR + 0x18), "(none)");
  CHECK_STR(name_at(img, TEXT_VADDR - 1), "(none)");
  CHECK_STR(name_at(img, 0), "(none)");
  CHECK(rvhal_elf_symbol_at(NULL, TEXT_VADDR) == NULL);

  rvhal_elf_free(img);
  destroy(&f);
}

static void test_find_function_errors(int is64) {
  elf_file_t f = build_basic(is64);
  rvhal_elf_image_t *img;
  EXPECT_PARSES(&f, img);
  if (!img) {
    destroy(&f);
    return;
  }
  uint64_t addr = 0x1234;
  CHECK_FAILS(rvhal_elf_find_function(img, "missing_fn", &addr), RVHAL_NOT_FOUND,
              "kernel \"missing_fn\" not found in program (it has: vector_add_entry, other_entry, weak_entry)");
  CHECK_FAILS(rvhal_elf_find_function(img, "vector_add", &addr), RVHAL_NOT_FOUND,
              "kernel \"vector_add\" not found in program (it has: vector_add_entry, other_entry, weak_entry)");
  CHECK_FAILS(rvhal_elf_find_function(img, "vector_add_entry_", &addr), RVHAL_NOT_FOUND, "not found");
  CHECK_FAILS(rvhal_elf_find_function(img, "tls_var", &addr), RVHAL_NOT_FOUND, "(it has: vector_add_entry");
  CHECK_FAILS(rvhal_elf_find_function(img, "", &addr), RVHAL_NOT_FOUND, "(it has: vector_add_entry");
  CHECK_FAILS(rvhal_elf_find_function(img, "table", &addr), RVHAL_NOT_FOUND, "\"table\" is a STT_OBJECT symbol, not a function");
  CHECK_FAILS(rvhal_elf_find_function(img, "_start", &addr), RVHAL_NOT_FOUND, "\"_start\" is a STT_NOTYPE symbol");
  CHECK_FAILS(rvhal_elf_find_function(img, "local_helper", &addr), RVHAL_NOT_FOUND, "is local (static)");
  CHECK_FAILS(rvhal_elf_find_function(img, "data_fn", &addr), RVHAL_NOT_FOUND,
              "\"data_fn\" at 0x80201010 does not lie in an executable segment");
  CHECK_EQ_U64(addr, 0x1234); /* untouched by failures */

  CHECK_FAILS(rvhal_elf_find_function(NULL, "vector_add_entry", &addr), RVHAL_INVALID_ARGUMENT, "image");
  CHECK_FAILS(rvhal_elf_find_function(img, NULL, &addr), RVHAL_INVALID_ARGUMENT, "name");
  CHECK_FAILS(rvhal_elf_find_function(img, "vector_add_entry", NULL), RVHAL_INVALID_ARGUMENT, "out_addr");
  rvhal_elf_free(img);
  destroy(&f);

  /* Text segment no longer executable: none of the functions is a kernel. */
  PARSES_AFTER(build_basic(is64), SET_PH(&f, PH_TEXT, p_flags, PF_R),
               CHECK_FAILS(rvhal_elf_find_function(img, "vector_add_entry", &addr), RVHAL_NOT_FOUND,
                           "\"vector_add_entry\" at 0x80200000 does not lie in an executable segment");
               CHECK_FAILS(rvhal_elf_find_function(img, "x", &addr), RVHAL_NOT_FOUND, "it has no global functions"));

  /* Many kernels: the list stops after 8 names. */
  PARSES_AFTER(build((opts_t){.is64 = is64, .extra_funcs = 10}), /* as built */,
               CHECK_EQ_U64(img->num_symbols, 18);
               CHECK_OK(rvhal_elf_find_function(img, "kernel_09", &addr));
               CHECK_EQ_U64(addr, TEXT_VADDR + 4);
               CHECK_FAILS(rvhal_elf_find_function(img, "nope", &addr), RVHAL_NOT_FOUND,
                           "(it has: vector_add_entry, other_entry, weak_entry, kernel_00, kernel_01, kernel_02, kernel_03, kernel_04, "
                           "and 5 more)"));
}

/* ---- bad arguments ---- */

static void test_bad_arguments(void) {
  elf_file_t f = build_basic(1);
  rvhal_elf_image_t *img = SENTINEL_IMAGE;
  CHECK_FAILS(rvhal_elf_parse(NULL, f.size, 8, AREA_BASE, AREA_SIZE, &img), RVHAL_INVALID_ARGUMENT, "data is NULL");
  CHECK(img == NULL);
  CHECK_FAILS(rvhal_elf_parse(NULL, 0, 8, AREA_BASE, AREA_SIZE, &img), RVHAL_INVALID_ARGUMENT, "data is NULL");
  static const uint32_t bad_sizes[] = {0, 1, 2, 3, 5, 16, 32, 64};
  for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
    img = SENTINEL_IMAGE;
    CHECK_FAILS(rvhal_elf_parse(f.buf, f.size, bad_sizes[i], AREA_BASE, AREA_SIZE, &img), RVHAL_INVALID_ARGUMENT,
                "is not 4 or 8");
    CHECK(img == NULL);
  }
  CHECK_FAILS(rvhal_elf_parse(f.buf, f.size, 8, AREA_BASE, AREA_SIZE, NULL), RVHAL_INVALID_ARGUMENT, "out_image");
  CHECK_FAILS(rvhal_elf_parse(f.buf, f.size, 8, UINT64_MAX - 0xfff, 0x2000, &img), RVHAL_INVALID_ARGUMENT,
              "wraps around");
  rvhal_elf_free(NULL); /* no-op */
  destroy(&f);
}

/* ---- header ---- */

static void test_header(int is64) {
  elf_file_t f;
  const char *cls = is64 ? "ELFCLASS64 (RV64) but the device is RV32" : "ELFCLASS32 (RV32) but the device is RV64";

  f = build_basic(is64);
  EXPECT_BAD_CALL(parse_len(&f, 0, &img_), "ELF: file is 0 bytes, too short for an ELF header (52/64 bytes)");
  EXPECT_BAD_CALL(parse_len(&f, 12, &img_), "ELF: file is 12 bytes, too short for an ELF header (52/64 bytes)");
  EXPECT_BAD_CALL(parse_len(&f, 51, &img_), "file is 51 bytes, too short");
  if (is64) EXPECT_BAD_CALL(parse_len(&f, 60, &img_), "ELF: file is 60 bytes, too short for an ELF64 header (64 bytes)");
  /* class vs device */
  EXPECT_BAD_CALL(parse_bytes(f.buf, f.size, is64 ? 4 : 8, AREA_BASE, AREA_SIZE, &img_), cls);
  destroy(&f);

  static const struct {
    size_t index;
    uint8_t value;
    const char *needle;
  } ident[] = {
      {0, 0x7e, "bad magic 7e 45 4c 46"},
      {1, 'e', "bad magic"},
      {3, 'G', "bad magic"},
      {EI_CLASS, ELFCLASSNONE, "class is 0, expected 1 (ELFCLASS32) or 2 (ELFCLASS64)"},
      {EI_CLASS, 3, "class is 3"},
      {EI_DATA, ELFDATA2MSB, "data encoding is 2 (ELFDATA2MSB, big-endian), expected 1 (ELFDATA2LSB, little-endian)"},
      {EI_DATA, ELFDATANONE, "data encoding is 0 (invalid)"},
      {EI_VERSION, 0, "EI_VERSION is 0, expected 1"},
      {EI_VERSION, 2, "EI_VERSION is 2"},
  };
  for (size_t i = 0; i < sizeof ident / sizeof ident[0]; i++)
    BAD_AFTER(build_basic(is64), ident[i].needle, f.buf[ident[i].index] = ident[i].value);
  /* the other class's value, in a file that is otherwise valid for it */
  BAD_AFTER(build_basic(is64),
            is64 ? "class is ELFCLASS32 (RV32) but the device is RV64" : "class is ELFCLASS64 (RV64) but the device is RV32",
            f.buf[EI_CLASS] = is64 ? ELFCLASS32 : ELFCLASS64);
  BAD_AFTER(build_basic(is64), "ELF: e_version is 2, expected 1 (EV_CURRENT)", SET_EH(&f, e_version, 2));
  BAD_AFTER(build_basic(is64), "ELF: e_machine is 62 (x86-64), expected 243 (RISC-V)",
            SET_EH(&f, e_machine, EM_X86_64));
  BAD_AFTER(build_basic(is64), "e_machine is 183 (AArch64)", SET_EH(&f, e_machine, EM_AARCH64));
  BAD_AFTER(build_basic(is64), "ELF: e_type is 3 (ET_DYN", SET_EH(&f, e_type, ET_DYN));
  BAD_AFTER(build_basic(is64), "ELF: e_type is 1 (ET_REL", SET_EH(&f, e_type, ET_REL));
  BAD_AFTER(build_basic(is64), "e_type is 4", SET_EH(&f, e_type, ET_CORE));
}

/* ---- program headers ---- */

static void test_program_headers(int is64) {
  const uint64_t max_off = is64 ? UINT64_MAX : UINT32_MAX;
  const size_t phsz = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);

  BAD_AFTER(build_basic(is64), "no program headers (e_phnum is 0)", SET_EH(&f, e_phnum, 0));
  BAD_AFTER(build_basic(is64), "PN_XNUM", SET_EH(&f, e_phnum, PN_XNUM));
  BAD_AFTER(build_basic(is64), "e_phentsize is", SET_EH(&f, e_phentsize, phsz - 1));
  BAD_AFTER(build_basic(is64), "e_phentsize is 0", SET_EH(&f, e_phentsize, 0));
  BAD_AFTER(build_basic(is64), "e_phoff is 0", SET_EH(&f, e_phoff, 0));

  static const uint64_t phoffs_rel_end[] = {0, 1, 2}; /* size, size-1, size-2*phsz (partially inside) */
  for (size_t i = 0; i < 3; i++)
    BAD_AFTER(build_basic(is64), "program header table",
              SET_EH(&f, e_phoff,
                     phoffs_rel_end[i] == 0 ? f.size : phoffs_rel_end[i] == 1 ? f.size - 1 : f.size - 2 * phsz));
  /* offset + table size overflows */
  BAD_AFTER(build_basic(is64), "program header table", SET_EH(&f, e_phoff, max_off - 7));
  BAD_AFTER(build_basic(is64), "program header table", SET_EH(&f, e_phnum, 0xfff0));

  /* p_offset + p_filesz beyond the file */
  BAD_AFTER(build_basic(is64), "segment 0 (p_offset", SET_PH(&f, PH_TEXT, p_offset, f.size - 4));
  BAD_AFTER(build_basic(is64), "segment 1 (p_offset", SET_PH(&f, PH_DATA, p_offset, max_off));
  BAD_AFTER(build_basic(is64), "extends past the end of the file",
            SET_PH(&f, PH_DATA, p_offset, 1);
            SET_PH(&f, PH_DATA, p_filesz, max_off);
            SET_PH(&f, PH_DATA, p_memsz, max_off));
  PARSES_AFTER(build_basic(is64), SET_PH(&f, PH_TEXT, p_offset, f.size - TEXT_SIZE)); /* exactly at the end: fine */

  /* p_filesz > p_memsz */
  BAD_AFTER(build_basic(is64), "segment 1 has p_filesz 0x41 larger than p_memsz 0x40",
            SET_PH(&f, PH_DATA, p_filesz, DATA_MEMSZ + 1));

  /* outside the program area */
  BAD_AFTER(build_basic(is64), "ELF: segment 0 at 0x10000 (size 0x200) lies outside the program area [0x80200000, 0x80a00000)",
            SET_PH(&f, PH_TEXT, p_vaddr, 0x10000); SET_PH(&f, PH_TEXT, p_memsz, 0x200));
  BAD_AFTER(build_basic(is64), "segment 0 at 0x801fffff", SET_PH(&f, PH_TEXT, p_vaddr, AREA_BASE - 1));
  BAD_AFTER(build_basic(is64), "segment 1 at 0x809fffe0 (size 0x40) lies outside",
            SET_PH(&f, PH_DATA, p_vaddr, AREA_END - 0x20)); /* straddles the end */

  /* ends exactly at the end: fine */
  PARSES_AFTER(build_basic(is64), SET_PH(&f, PH_DATA, p_vaddr, AREA_END - DATA_MEMSZ),
               CHECK_EQ_U64(img->segments[1].vaddr, AREA_END - DATA_MEMSZ));
  BAD_AFTER(build_basic(is64), "segment 1 at 0x80201000", SET_PH(&f, PH_DATA, p_memsz, max_off)); /* huge */

  /* overlapping segments */
  BAD_AFTER(build_basic(is64), "ELF: segment 1 [0x80200010, 0x80200050) overlaps segment 0 [0x80200000, 0x80200020)",
            SET_PH(&f, PH_DATA, p_vaddr, TEXT_VADDR + 0x10));
  BAD_AFTER(build_basic(is64), "overlaps segment 0", SET_PH(&f, PH_DATA, p_vaddr, TEXT_VADDR)); /* same start */
  BAD_AFTER(build_basic(is64), "segment 1 [0x80200000, 0x80201000) overlaps segment 0",
            SET_PH(&f, PH_TEXT, p_vaddr, AREA_BASE + 0x100);
            SET_PH(&f, PH_DATA, p_vaddr, AREA_BASE);
            SET_PH(&f, PH_DATA, p_memsz, 0x1000)); /* data contains text entirely */
  BAD_AFTER(build((opts_t){.is64 = is64, .extra_loads = 2}), "segment 3 [0x8020103f, 0x8020104f) overlaps segment 1",
            SET_PH(&f, PH_EXTRA + 1, p_vaddr, DATA_VADDR + DATA_MEMSZ - 1)); /* last byte of data */
  PARSES_AFTER(build_basic(is64), SET_PH(&f, PH_DATA, p_vaddr, TEXT_VADDR + TEXT_SIZE)); /* adjacent: fine */

  /* segment count */
  PARSES_AFTER(build((opts_t){.is64 = is64, .extra_loads = RVHAL_ELF_MAX_SEGMENTS - 2}), /* as built */,
               CHECK_EQ_U64(img->num_segments, RVHAL_ELF_MAX_SEGMENTS);
               CHECK_EQ_U64(img->segments[RVHAL_ELF_MAX_SEGMENTS - 1].vaddr, EXTRA_VADDR + 0x1000 * (RVHAL_ELF_MAX_SEGMENTS - 3));
               CHECK_EQ_U64(img->segments[RVHAL_ELF_MAX_SEGMENTS - 1].filesz, 0);
               CHECK_EQ_U64(img->segments[RVHAL_ELF_MAX_SEGMENTS - 1].memsz, EXTRA_MEMSZ));
  BAD_AFTER(build((opts_t){.is64 = is64, .extra_loads = RVHAL_ELF_MAX_SEGMENTS - 1}),
            "ELF: the file has 5 non-empty PT_LOAD segments, at most 4 are supported");
  BAD_AFTER(build((opts_t){.is64 = is64, .extra_loads = RVHAL_ELF_MAX_SEGMENTS + 3}),
            "has 9 non-empty PT_LOAD segments");

  /* an empty PT_LOAD (like ld's empty RW segment) is ignored: neither counted
   * nor checked against the area */
  PARSES_AFTER(build((opts_t){.is64 = is64, .extra_loads = RVHAL_ELF_MAX_SEGMENTS - 1}),
               SET_PH(&f, PH_EXTRA, p_vaddr, 0); SET_PH(&f, PH_EXTRA, p_memsz, 0),
               CHECK_EQ_U64(img->num_segments, RVHAL_ELF_MAX_SEGMENTS);
               for (uint32_t i = 0; i < img->num_segments; i++) CHECK(img->segments[i].memsz != 0));

  /* no PT_LOAD with contents */
  BAD_AFTER(build_basic(is64), "no non-empty PT_LOAD segment (3 program headers, 0 of them PT_LOAD)",
            SET_PH(&f, PH_TEXT, p_type, PT_NOTE); SET_PH(&f, PH_DATA, p_type, PT_NULL));
  BAD_AFTER(build_basic(is64), "no non-empty PT_LOAD segment (3 program headers, 2 of them PT_LOAD)",
            SET_PH(&f, PH_TEXT, p_filesz, 0);
            SET_PH(&f, PH_TEXT, p_memsz, 0);
            SET_PH(&f, PH_DATA, p_filesz, 0);
            SET_PH(&f, PH_DATA, p_memsz, 0));
}

static void test_wraparound(void) {
  /* 64-bit segment addresses that wrap around 2^64 */
  BAD_AFTER(build_basic(1), "segment 1 at 0xfffffffffffff000 (size 0x2000) lies outside the program area",
            SET_PH(&f, PH_DATA, p_vaddr, 0xfffffffffffff000ull); SET_PH(&f, PH_DATA, p_memsz, 0x2000));

  /* An area that ends exactly at 2^64 (area_base + area_size wraps to 0):
   * a segment crossing 2^64 is still outside, one ending at 2^64 is inside. */
  const uint64_t top_base = 0xffffffff00000000ull, top_size = 0x100000000ull;
  elf_file_t f = build_basic(1);
  SET_PH(&f, PH_TEXT, p_vaddr, top_base);
  SET_PH(&f, PH_DATA, p_vaddr, 0xfffffffffffff000ull);
  SET_PH(&f, PH_DATA, p_memsz, 0x2000);
  EXPECT_BAD_CALL(parse_bytes(f.buf, f.size, 8, top_base, top_size, &img_), "segment 1 at 0xfffffffffffff000");
  SET_PH(&f, PH_DATA, p_memsz, 0x1000);
  {
    rvhal_elf_image_t *img = NULL;
    CHECK_OK(parse_bytes(f.buf, f.size, 8, top_base, top_size, &img));
    if (img) CHECK_EQ_U64(img->segments[1].vaddr + img->segments[1].memsz, 0);
    rvhal_elf_free(img);
  }
  SET_PH(&f, PH_DATA, p_vaddr, 0xffffffffffffffffull);
  SET_PH(&f, PH_DATA, p_memsz, 2);
  SET_PH(&f, PH_DATA, p_filesz, 2);
  EXPECT_BAD_CALL(parse_bytes(f.buf, f.size, 8, top_base, top_size, &img_), "lies outside the program area");
  destroy(&f);

  /* 32-bit: a segment past 4 GiB-1 cannot be in a 32-bit program area */
  BAD_AFTER(build_basic(0), "segment 1 at 0xfffff000 (size 0x2000)",
            SET_PH(&f, PH_DATA, p_vaddr, 0xfffff000u); SET_PH(&f, PH_DATA, p_memsz, 0x2000));
}

static void test_tls(int is64) {
  PARSES_AFTER(build_basic(is64), SET_PH(&f, PH_TLS, p_type, PT_NULL),
               CHECK_EQ_U64(img->tls_size, 0);
               CHECK_EQ_U64(img->tls_align, 1));
  PARSES_AFTER(build_basic(is64), SET_PH(&f, PH_TLS, p_memsz, 0x1234); SET_PH(&f, PH_TLS, p_align, 64),
               CHECK_EQ_U64(img->tls_size, 0x1234);
               CHECK_EQ_U64(img->tls_align, 64));
  PARSES_AFTER(build_basic(is64), SET_PH(&f, PH_TLS, p_align, 0),
               CHECK_EQ_U64(img->tls_size, TLS_MEMSZ);
               CHECK_EQ_U64(img->tls_align, 1));
  BAD_AFTER(build_basic(is64), "PT_TLS segment (program header 2) has p_align 0x18, not a power of two",
            SET_PH(&f, PH_TLS, p_align, 24));
  BAD_AFTER(build_basic(is64), "PT_TLS segment (program header 2) has p_filesz",
            SET_PH(&f, PH_TLS, p_filesz, TLS_MEMSZ + 1));
  BAD_AFTER(build_basic(is64), "PT_TLS segment (program header 2) (p_offset",
            SET_PH(&f, PH_TLS, p_filesz, 8); SET_PH(&f, PH_TLS, p_offset, f.size - 4));
  BAD_AFTER(build((opts_t){.is64 = is64, .extra_loads = 1}), "more than one PT_TLS segment (program headers 2 and 3)",
            SET_PH(&f, PH_EXTRA, p_type, PT_TLS));
}

/* ---- sections and symbols ---- */

static void test_sections(int is64) {
  const uint64_t max_off = is64 ? UINT64_MAX : UINT32_MAX;
  const size_t shsz = is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
  const size_t symsz = is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);

  /* no section headers: fine, no symbols */
  PARSES_AFTER(build_basic(is64), SET_EH(&f, e_shoff, 0); SET_EH(&f, e_shnum, 0),
               CHECK_EQ_U64(img->num_symbols, 0);
               CHECK_EQ_U64(img->num_segments, 2);
               uint64_t addr;
               CHECK_FAILS(rvhal_elf_find_function(img, "vector_add_entry", &addr), RVHAL_NOT_FOUND,
                           "kernel \"vector_add_entry\" not found in program (it has no global functions)");
               CHECK(rvhal_elf_symbol_at(img, TEXT_VADDR) == NULL));

  /* section headers but no symbol table (stripped) */
  PARSES_AFTER(build_basic(is64), SET_SH(&f, SEC_SYMTAB, sh_type, SHT_PROGBITS), CHECK_EQ_U64(img->num_symbols, 0));

  /* extended section numbering: e_shnum 0, count in section 0's sh_size */
  PARSES_AFTER(build_basic(is64), SET_EH(&f, e_shnum, 0); SET_SH(&f, 0, sh_size, NUM_SECTIONS),
               CHECK_EQ_U64(img->num_symbols, 8));
  BAD_AFTER(build_basic(is64), "section header table", SET_EH(&f, e_shnum, 0); SET_SH(&f, 0, sh_size, max_off));

  if (is64) {
    /* count * 64 wraps around 2^64 to the real table size */
    BAD_AFTER(build_basic(is64), "section header table (e_shoff",
              SET_EH(&f, e_shnum, 0); SET_SH(&f, 0, sh_size, (1ull << 58) + NUM_SECTIONS));
  }

  /* section header table */
  BAD_AFTER(build_basic(is64), "section header table", SET_EH(&f, e_shoff, f.size));
  BAD_AFTER(build_basic(is64), "section header table", SET_EH(&f, e_shoff, f.shoff + 1));
  BAD_AFTER(build_basic(is64), "section header table", SET_EH(&f, e_shoff, max_off - 3));
  BAD_AFTER(build_basic(is64), "section header table", SET_EH(&f, e_shnum, 0xffff));
  BAD_AFTER(build_basic(is64), "e_shentsize is 0", SET_EH(&f, e_shentsize, 0));
  BAD_AFTER(build_basic(is64), "e_shentsize is", SET_EH(&f, e_shentsize, shsz + 8));

  /* symbol table */
  BAD_AFTER(build_basic(is64), "symbol table (section 4, sh_offset", SET_SH(&f, SEC_SYMTAB, sh_offset, f.size));
  BAD_AFTER(build_basic(is64), "symbol table (section 4, sh_offset",
            SET_SH(&f, SEC_SYMTAB, sh_offset, max_off - symsz + 1));
  BAD_AFTER(build_basic(is64), "lies outside the file", SET_SH(&f, SEC_SYMTAB, sh_size, (max_off / symsz) * symsz));
  BAD_AFTER(build_basic(is64), "not a multiple of its entry size",
            SET_SH(&f, SEC_SYMTAB, sh_size, f.num_syms * symsz + 1));
  BAD_AFTER(build_basic(is64), "symbol table (section 4) has sh_entsize",
            SET_SH(&f, SEC_SYMTAB, sh_entsize, symsz + 1));
  BAD_AFTER(build_basic(is64), "has sh_link 0, not a valid section index", SET_SH(&f, SEC_SYMTAB, sh_link, 0));
  BAD_AFTER(build_basic(is64), "has sh_link 7, not a valid section index",
            SET_SH(&f, SEC_SYMTAB, sh_link, NUM_SECTIONS));
  BAD_AFTER(build_basic(is64), "not a valid section index", SET_SH(&f, SEC_SYMTAB, sh_link, 0xffffffffu));
  BAD_AFTER(build_basic(is64), "string table (section 1) has sh_type 1, expected 3 (SHT_STRTAB)",
            SET_SH(&f, SEC_SYMTAB, sh_link, SEC_TEXT));

  /* string table */
  BAD_AFTER(build_basic(is64), "string table (section 5", SET_SH(&f, SEC_STRTAB, sh_offset, f.size - 2));
  BAD_AFTER(build_basic(is64), "string table (section 5", SET_SH(&f, SEC_STRTAB, sh_size, max_off));

  /* a name running off the end of the string table */
  BAD_AFTER(build_basic(is64), "is not NUL-terminated within the string table",
            SET_SH(&f, SEC_STRTAB, sh_size, f.last_name + 3)); /* "lab", no NUL */

  /* exact: fine */
  PARSES_AFTER(build_basic(is64), SET_SH(&f, SEC_STRTAB, sh_size, f.last_name + strlen("label_end") + 1),
               CHECK_STR(img->symbols[img->num_symbols - 1].name, "label_end"));

  /* name offset == size */
  BAD_AFTER(build_basic(is64), "outside its string table", SET_SH(&f, SEC_STRTAB, sh_size, f.last_name));
  BAD_AFTER(build_basic(is64), "symbol 3 has st_name 0xfffffff0, outside its string table",
            SET_SYM(&f, 3, st_name, 0xfffffff0u)); /* vector_add_entry */

  /* empty string table: any named symbol is out of it */
  BAD_AFTER(build_basic(is64), "outside its string table (0x0 bytes)", SET_SH(&f, SEC_STRTAB, sh_size, 0));

  /* symbol kinds: an OBJECT is not a function; UNDEF symbols are skipped */
  PARSES_AFTER(build_basic(is64), SET_SYM(&f, 3, st_info, (STB_GLOBAL << 4) | STT_OBJECT),
               uint64_t addr;
               CHECK_FAILS(rvhal_elf_find_function(img, "vector_add_entry", &addr), RVHAL_NOT_FOUND,
                           "STT_OBJECT symbol, not a function"));
  PARSES_AFTER(build_basic(is64), SET_SYM(&f, 3, st_shndx, SHN_UNDEF),
               uint64_t addr;
               CHECK_EQ_U64(img->num_symbols, 7);
               CHECK(find_symbol(img, "vector_add_entry") == NULL);
               CHECK_FAILS(rvhal_elf_find_function(img, "vector_add_entry", &addr), RVHAL_NOT_FOUND,
                           "(it has: other_entry, weak_entry)"));

  /* a global function outside every executable segment */
  /* other_entry, into data (RW) */
  PARSES_AFTER(build_basic(is64), SET_SYM(&f, 4, st_value, DATA_VADDR + 0x20),
               uint64_t addr;
               CHECK_FAILS(rvhal_elf_find_function(img, "other_entry", &addr), RVHAL_NOT_FOUND,
                           "\"other_entry\" at 0x80201020 does not lie in an executable segment");
               CHECK_FAILS(rvhal_elf_find_function(img, "x", &addr), RVHAL_NOT_FOUND,
                           "(it has: vector_add_entry, weak_entry)"));

  /* one past the end of text */
  PARSES_AFTER(build_basic(is64), SET_SYM(&f, 4, st_value, TEXT_VADDR + TEXT_SIZE),
               uint64_t addr;
               CHECK_FAILS(rvhal_elf_find_function(img, "other_entry", &addr), RVHAL_NOT_FOUND,
                           "does not lie in an executable segment"));
}

/* ---- truncation and fuzzing ---- */

static void test_truncated(int is64) {
  elf_file_t f = build_basic(is64);
  size_t wrong = 0, first_wrong = 0;
  int first_rc = 0;
  for (size_t len = 0; len < f.size; len++) {
    rvhal_elf_image_t *img = SENTINEL_IMAGE;
    int rc = parse_len(&f, len, &img);
    if (rc != RVHAL_BAD_ELF || img != NULL || strncmp(rvhal_last_error(), "ELF: ", 5) != 0) {
      if (!wrong++) {
        first_wrong = len;
        first_rc = rc;
      }
    }
    if (rc == RVHAL_OK) rvhal_elf_free(img);
  }
  CHECK_MSG(wrong == 0, "ELF%d: %zu of %zu truncated lengths not rejected with BAD_ELF, first at %zu bytes (%s)", is64 ? 64 : 32,
            wrong, f.size, first_wrong, rvhal_status_name(first_rc));
  destroy(&f);
}

/* Properties every successfully parsed image must have. Returns 0 if fine. */
static int image_broken(const rvhal_elf_image_t *img, size_t file_size) {
  if (img->size != file_size || !img->data) return 1;
  if (img->num_segments < 1 || img->num_segments > RVHAL_ELF_MAX_SEGMENTS) return 2;
  for (uint32_t i = 0; i < img->num_segments; i++) {
    const rvhal_elf_segment_t *s = &img->segments[i];
    if (s->memsz == 0 || s->filesz > s->memsz) return 3;
    if (s->vaddr < AREA_BASE || s->memsz > AREA_SIZE || s->vaddr - AREA_BASE > AREA_SIZE - s->memsz) return 4;
    if (s->offset > file_size || s->filesz > file_size - s->offset) return 5;
    for (uint32_t j = 0; j < i; j++) {
      const rvhal_elf_segment_t *o = &img->segments[j];
      if (s->vaddr < o->vaddr + o->memsz && o->vaddr < s->vaddr + s->memsz) return 6;
    }
  }
  if (img->tls_align == 0 || (img->tls_align & (img->tls_align - 1))) return 7;
  for (uint32_t i = 0; i < img->num_symbols; i++) {
    const rvhal_elf_symbol_t *s = &img->symbols[i];
    const uint8_t *n = (const uint8_t *)s->name;
    if (n < img->data || n >= img->data + img->size) return 8;
    if (!memchr(n, '\0', (size_t)(img->data + img->size - n)) || !n[0]) return 9;
    if (s->type != STT_FUNC && s->type != STT_OBJECT && s->type != STT_NOTYPE) return 10;
    uint64_t addr;
    int rc = rvhal_elf_find_function(img, s->name, &addr);
    if (rc != RVHAL_OK && rc != RVHAL_NOT_FOUND) return 11;
    if (!rvhal_elf_symbol_at(img, s->value) && s->size != 0) return 12;
  }
  return 0;
}

static void fuzz_one(const elf_file_t *f, uint8_t *work, int *ok, int *bad, int *wrong, int *broken) {
  rvhal_elf_image_t *img = SENTINEL_IMAGE;
  int rc = parse_bytes(work, f->size, word_size(f), AREA_BASE, AREA_SIZE, &img);
  if (rc == RVHAL_OK) {
    (*ok)++;
    int why = img ? image_broken(img, f->size) : -1;
    if (why && !(*broken)++) fprintf(stderr, "fuzz: accepted image violates property %d\n", why);
    rvhal_elf_free(img);
  } else if (rc == RVHAL_BAD_ELF && img == NULL && strncmp(rvhal_last_error(), "ELF: ", 5) == 0) {
    (*bad)++;
  } else if (!(*wrong)++) {
    fprintf(stderr, "fuzz: unexpected result %s \"%s\"\n", rvhal_status_name(rc), rvhal_last_error());
  }
}

static void test_fuzz(void) {
  elf_file_t files[2] = {build_basic(1), build_basic(0)};
  int ok = 0, bad = 0, wrong = 0, broken = 0;
  static const uint8_t interesting[] = {0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff};

  /* single-byte mutations */
  for (int iter = 0; iter < 6000; iter++) {
    const elf_file_t *f = &files[iter & 1];
    uint8_t *work = malloc(f->size);
    if (!work) abort();
    memcpy(work, f->buf, f->size);
    size_t pos = (size_t)(rng() % f->size);
    /* bias toward the headers, where most of the structure lives */
    if (iter % 3 == 0) pos = (size_t)(rng() % (f->phoff + f->phnum * (f->is64 ? 56 : 32)));
    if (iter % 3 == 1) pos = f->shoff + (size_t)(rng() % (f->size - f->shoff));
    work[pos] = (iter % 4 == 0) ? interesting[rng() % sizeof interesting] : (uint8_t)rng();
    fuzz_one(f, work, &ok, &bad, &wrong, &broken);
    free(work);
  }
  /* a few multi-byte mutations (word-sized boundary values) */
  for (int iter = 0; iter < 2000; iter++) {
    const elf_file_t *f = &files[iter & 1];
    uint8_t *work = malloc(f->size);
    if (!work) abort();
    memcpy(work, f->buf, f->size);
    int n = 1 + (int)(rng() % 3);
    for (int k = 0; k < n; k++) {
      size_t width = (rng() & 1) ? 4 : 2;
      size_t pos = (size_t)(rng() % (f->size - width + 1));
      uint64_t values[] = {0, UINT64_MAX, f->size, f->size - 1, f->size + 1, 0x80000000u, 0x7fffffffu, rng()};
      put_le(work + pos, values[rng() % (sizeof values / sizeof values[0])], width);
    }
    fuzz_one(f, work, &ok, &bad, &wrong, &broken);
    free(work);
  }
  CHECK_MSG(wrong == 0, "%d mutated files gave something other than OK or BAD_ELF", wrong);
  CHECK_MSG(broken == 0, "%d accepted mutated files broke an image property", broken);
  CHECK_MSG(ok > 100 && bad > 100, "mutations: %d accepted, %d rejected: expected plenty of both", ok, bad);
  destroy(&files[0]);
  destroy(&files[1]);
}

int main(void) {
  for (int is64 = 1; is64 >= 0; is64--) {
    test_valid(is64);
    test_find_function_errors(is64);
    test_header(is64);
    test_program_headers(is64);
    test_tls(is64);
    test_sections(is64);
    test_truncated(is64);
  }
  test_bad_arguments();
  test_wraparound();
  test_fuzz();
  return check_result("elf_loader");
}

/* ELF parsing and validation for kernel programs. Everything is checked
 * before it is used: a truncated, foreign or inconsistent file gets
 * RVHAL_BAD_ELF with a message naming the field and its value. */
#ifndef RVHAL_HOST_ELF_LOADER_H
#define RVHAL_HOST_ELF_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "rvhal/hal_types.h"
#include "rvhal/rvhal_protocol.h"

/* A launch installs each loadable segment as one of its installs. */
#define RVHAL_ELF_MAX_SEGMENTS RVHAL_MAX_INSTALLS

typedef struct rvhal_elf_segment {
  uint64_t vaddr;  /* where it must be placed */
  uint64_t memsz;  /* bytes it occupies */
  uint64_t filesz; /* bytes taken from the file (the rest is zeroed) */
  uint64_t offset; /* in the file */
  uint32_t flags;  /* PF_R | PF_W | PF_X */
} rvhal_elf_segment_t;

typedef struct rvhal_elf_symbol {
  const char *name;   /* points into the image's copy of the file */
  uint64_t value;
  uint64_t size;
  uint8_t type;       /* STT_* */
  uint8_t bind;       /* STB_* */
} rvhal_elf_symbol_t;

typedef struct rvhal_elf_image {
  uint8_t *data;      /* private copy of the file */
  size_t size;
  uint32_t word_size; /* 4 (ELFCLASS32) or 8 (ELFCLASS64) */
  uint32_t flags;     /* e_flags */
  uint64_t entry;
  uint32_t num_segments;                          /* non-empty PT_LOAD segments (empty ones,
                                                     which GNU ld emits, are skipped) */
  rvhal_elf_segment_t segments[RVHAL_ELF_MAX_SEGMENTS];
  uint64_t tls_size;  /* PT_TLS memsz (0 if none): __local_variable storage per group;
                         the kernel SDK copies its initial data (.tdata) itself */
  uint64_t tls_align;
  char arch[160];     /* .riscv.attributes' Tag_RISCV_arch ("rv64i2p1_m2p0_..."), "" if it has none */
  uint32_t num_symbols;                           /* defined FUNC/OBJECT/NOTYPE symbols */
  rvhal_elf_symbol_t *symbols;
} rvhal_elf_image_t;

/* RVHAL_INVALID_ARGUMENT for bad call arguments, RVHAL_NO_MEMORY or
 * RVHAL_HOST_IO when the host runs out of memory.
 * Parse and validate an ELF file for a device of `word_size` bytes (4 or
 * 8): RISC-V, little-endian, executable (ET_EXEC), 1 to
 * RVHAL_ELF_MAX_SEGMENTS PT_LOAD segments that lie in the file, do not
 * overlap each other and lie inside [area_base, area_base+area_size).
 * The file is copied; the caller may free its buffer. */
int rvhal_elf_parse(const void *data, size_t size, uint32_t word_size, hal_addr_t area_base, hal_size_t area_size,
                    rvhal_elf_image_t **out_image);
void rvhal_elf_free(rvhal_elf_image_t *image);

/* Address of a defined, global function symbol called `name` that lies in
 * an executable segment: RVHAL_NOT_FOUND if there is none. */
int rvhal_elf_find_function(const rvhal_elf_image_t *image, const char *name, uint64_t *out_addr);

/* The symbol called `name`, whatever its kind: NULL if none. */
const rvhal_elf_symbol_t *rvhal_elf_symbol_named(const rvhal_elf_image_t *image, const char *name);

/* The symbol containing addr ("vector_add+0x1c" style): NULL if none. */
const rvhal_elf_symbol_t *rvhal_elf_symbol_at(const rvhal_elf_image_t *image, uint64_t addr);

#endif /* RVHAL_HOST_ELF_LOADER_H */

/* Kernel ISA against device ISA (isa_check.h). */
#include "base/isa_check.h"

#include <stdio.h>
#include <string.h>

#include "rvhal/device.h"

static const char order[] = "iemafdqlcbkjtpvnhsux"; /* the ISA manual's canonical order, enough of it */

static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Adds extension c (g: imafd) to the set. */
static void add(int set[26], char c) {
  if (c == 'g') {
    for (const char *g = "imafd"; *g; g++) set[*g - 'a'] = 1;
    return;
  }
  set[c - 'a'] = 1;
}

/* The letters of `isa` into set; multi-letter extensions add the letter
 * they build on. */
static int parse(const char *isa, unsigned *xlen, int set[26]) {
  memset(set, 0, 26 * sizeof set[0]);
  if (strncmp(isa, "rv32", 4) && strncmp(isa, "rv64", 4)) return -1;
  *xlen = isa[2] == '3' ? 32 : 64;
  const char *p = isa + 4;
  if (!is_lower(*p)) return -1;
  while (*p) {
    if (*p == '_') {
      p++;
      continue;
    }
    if (*p == 'z' || *p == 's' || *p == 'x') { /* a multi-letter extension and its version, up to '_' */
      if (!strncmp(p, "zve", 3)) add(set, 'v');
      else if (!strncmp(p, "zfh", 3)) add(set, 'f');
      while (*p && *p != '_') p++;
      continue;
    }
    if (!is_lower(*p)) return -1;
    add(set, *p++);
    while (is_digit(*p) || (*p == 'p' && is_digit(p[-1]) && is_digit(p[1]))) p++; /* "2p1" */
  }
  return 0;
}

static void letters(const int set[26], char *out, size_t cap) {
  size_t o = 0;
  for (const char *c = order; *c && o + 1 < cap; c++)
    if (set[*c - 'a']) out[o++] = *c;
  for (int c = 0; c < 26 && o + 1 < cap; c++) /* letters outside the table, alphabetically */
    if (set[c] && !strchr(order, 'a' + c)) out[o++] = (char)('a' + c);
  if (cap) out[o < cap ? o : cap - 1] = '\0';
}

int rvhal_isa_letters(const char *isa, unsigned *out_xlen, char *out, size_t cap) {
  int set[26];
  if (parse(isa, out_xlen, set)) return -1;
  letters(set, out, cap);
  return 0;
}

int rvhal_isa_check(const char *kernel_arch, const char *device_isa, char *missing, size_t cap) {
  int k[26], d[26];
  unsigned kx, dx;
  if (cap) missing[0] = '\0';
  if (parse(kernel_arch, &kx, k) || parse(device_isa, &dx, d)) {
    if (cap) snprintf(missing, cap, "(not an ISA string)");
    return -1;
  }
  int lacks[26] = {0}, any = 0;
  for (int c = 0; c < 26; c++)
    if (k[c] && !d[c]) lacks[c] = any = 1;
  if (kx != dx) {
    if (cap) snprintf(missing, cap, "rv%u", kx);
    return -1;
  }
  if (!any) return 0;
  letters(lacks, missing, cap);
  return -1;
}

const char *rvhal_isa_kernel_abi(const char *isa) {
  int set[26];
  unsigned xlen;
  if (parse(isa, &xlen, set)) return NULL;
  const int fp = set['d' - 'a'] ? 2 : set['f' - 'a'] ? 1 : 0;
  static const char *const abi[2][3] = {{"ilp32", "ilp32f", "ilp32d"}, {"lp64", "lp64f", "lp64d"}};
  return abi[xlen == 64][fp];
}

const char *rvhal_elf_float_abi(unsigned xlen, unsigned e_flags) {
  static const char *const abi[2][4] = {{"ilp32", "ilp32f", "ilp32d", "ilp32q"}, {"lp64", "lp64f", "lp64d", "lp64q"}};
  return abi[xlen == 64][(e_flags >> 1) & 3]; /* EF_RISCV_FLOAT_ABI, psABI "ELF Object Files" */
}

const char *rvhal_kernel_set_name(const char *kernel_abi) {
  static const char *const sets[][2] = {{"lp64d", "rv64"}, {"ilp32d", "rv32"}, {"lp64", "rv64-lp64"}, {"ilp32", "rv32-ilp32"}};
  for (size_t i = 0; kernel_abi && i < sizeof sets / sizeof sets[0]; i++)
    if (!strcmp(kernel_abi, sets[i][0])) return sets[i][1];
  return NULL;
}

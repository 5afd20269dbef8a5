/* Board descriptors: "key value" lines, one per key, each key exactly once.
 * A value is an unsigned integer (C syntax, no sign) or a double-quoted
 * string of printable characters without quotes or backslashes; one key,
 * debug_doorbell, takes a word and its arguments ("none", "msip <address>",
 * "ssip"). */
#include "backend/board_desc.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/internal.h"
#include "rvhal/rvhal_protocol.h"

#define MAX_FILE 8192

typedef enum { K_U64, K_U32, K_STR } kind_t;

typedef struct field {
  const char *key;
  kind_t kind;
  size_t offset, size; /* size: string capacity */
} field_t;

#define U64(k, f) {k, K_U64, offsetof(rvhal_board_desc_t, f), 0}
#define U32(k, f) {k, K_U32, offsetof(rvhal_board_desc_t, f), 0}
#define STR(k, f) {k, K_STR, offsetof(rvhal_board_desc_t, f), sizeof(((rvhal_board_desc_t *)0)->f)}

/* Keys that land in the struct directly; the rest are handled below. */
static const field_t fields[] = {
    STR("name", name),
    U32("xlen", xlen),
    U32("vlen", vlen),
    U64("ram_base", ram_base),
    U64("fw_offset", fw_offset),
    U64("ram_top_reserved", ram_top_reserved),
    U64("ram_default", default_ram_size),
    U64("ram_max", max_ram_size),
    U32("first_hart", first_hart),
    U32("max_harts", max_harts),
    U64("timebase_hz", timebase_hz),
    U64("fault_addr", fault_addr),
    STR("debug_reset", debug_reset),
    STR("qemu_machine", qemu_machine),
    STR("qemu_bios", qemu_bios),
    U64("qemu_min_ram", qemu_min_ram),
    STR("qemu_args", qemu_args),
};
/* The other keys: "isa_ext", "priv", "doorbell_polled", "qemu_boot", "debug_doorbell", "qemu_dtb",
 * "debug_start". */
enum { F_ISA_EXT = 0, F_PRIV, F_DOORBELL, F_BOOT, F_DEBUG_DOORBELL, F_DTB, F_DEBUG_START, NUM_EXTRA };
static const char *const extra_keys[NUM_EXTRA] = {"isa_ext",        "priv",     "doorbell_polled", "qemu_boot",
                                                  "debug_doorbell", "qemu_dtb", "debug_start"};
#define NUM_FIELDS (sizeof fields / sizeof fields[0])

static int parse_u64(const char *v, uint64_t *out) {
  if (*v < '0' || *v > '9') return -1;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(v, &end, 0);
  if (errno || *end) return -1;
  *out = x;
  return 0;
}

/* A quoted string into buf (cap bytes with the NUL). */
static int parse_str(const char *v, char *buf, size_t cap) {
  size_t n = strlen(v);
  if (n < 2 || v[0] != '"' || v[n - 1] != '"' || n - 2 >= cap) return -1;
  for (size_t i = 1; i < n - 1; i++)
    if (v[i] < 0x20 || v[i] > 0x7e || v[i] == '"' || v[i] == '\\') return -1;
  memcpy(buf, v + 1, n - 2);
  buf[n - 2] = '\0';
  return 0;
}

#define BAD(...) rvhal_error(RVHAL_INVALID_ARGUMENT, __VA_ARGS__)

static int check(const rvhal_board_desc_t *d, const char *what) {
  if (!d->name[0]) return BAD("%s: empty board name", what);
  for (const char *p = d->name; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
      return BAD("%s: board name \"%s\": use a-z, 0-9, - and _", what, d->name);
  if (d->xlen != 32 && d->xlen != 64) return BAD("%s: xlen %u is not 32 or 64", what, d->xlen);
  const int has_v = strchr(d->isa + 4, 'v') != NULL;
  if (d->vlen && (d->vlen < 128 || d->vlen > 1024 || (d->vlen & (d->vlen - 1))))
    return BAD("%s: vlen %u: 128, 256, 512 or 1024 bits (0: no vector unit)", what, d->vlen);
  if (!d->vlen != !has_v)
    return BAD("%s: vlen %u with ISA %s: a board with \"v\" in isa_ext says its VLEN, one without says 0", what,
               d->vlen, d->isa);
  if (d->ram_base % 0x1000) return BAD("%s: ram_base 0x%llx is not page-aligned", what, (unsigned long long)d->ram_base);
  if (d->fw_offset != 0 && d->fw_offset != RVHAL_FW_REGION_SIZE)
    return BAD("%s: fw_offset 0x%llx: the firmware region starts at 0 or 0x%x", what,
               (unsigned long long)d->fw_offset, RVHAL_FW_REGION_SIZE);
  if (d->max_ram_size < 32ull << 20 || d->default_ram_size < 32ull << 20 || d->default_ram_size > d->max_ram_size ||
      d->max_ram_size % (1 << 20) || d->default_ram_size % (1 << 20))
    return BAD("%s: ram_default 0x%llx / ram_max 0x%llx: whole MiB, at least 32 MiB, default <= max", what,
               (unsigned long long)d->default_ram_size, (unsigned long long)d->max_ram_size);
  if (d->ram_top_reserved >= d->default_ram_size / 2)
    return BAD("%s: ram_top_reserved 0x%llx is too large", what, (unsigned long long)d->ram_top_reserved);
  if (d->ram_base + d->max_ram_size < d->ram_base || (d->xlen == 32 && d->ram_base + d->max_ram_size > (1ull << 32)))
    return BAD("%s: RAM 0x%llx + 0x%llx does not fit the address space", what, (unsigned long long)d->ram_base,
               (unsigned long long)d->max_ram_size);
  if (d->max_harts == 0 || d->max_harts > RVHAL_MAX_HARTS)
    return BAD("%s: max_harts %u: 1 to %u", what, d->max_harts, RVHAL_MAX_HARTS);
  if (d->first_hart > 1024) return BAD("%s: first_hart %u is implausible", what, d->first_hart);
  if (d->timebase_hz < 1000 || d->timebase_hz > 10000000000ull)
    return BAD("%s: timebase_hz %llu: 1 kHz to 10 GHz", what, (unsigned long long)d->timebase_hz);
  if (!d->qemu_machine[0]) return BAD("%s: empty qemu_machine", what);
  for (const char *p = d->qemu_machine; *p; p++)
    if (*p == ',' || *p == ' ') return BAD("%s: qemu_machine \"%s\" has a comma or blank", what, d->qemu_machine);
  if (!d->qemu_bios[0]) return BAD("%s: empty qemu_bios (use \"none\", or \"default\" for no -bios)", what);
  if (d->qemu_min_ram > (64ull << 30)) return BAD("%s: qemu_min_ram 0x%llx is implausible", what,
                                                  (unsigned long long)d->qemu_min_ram);
  return RVHAL_OK;
}

int rvhal_board_desc_parse(const char *text, const char *what, rvhal_board_desc_t *out) {
  rvhal_board_desc_t d;
  memset(&d, 0, sizeof d);
  uint8_t seen[NUM_FIELDS] = {0}, seen_extra[NUM_EXTRA] = {0};
  char isa_ext[64] = "";
  int have_version = 0;
  unsigned line_no = 0, debug_doorbell_line = 0;
  const char *p = text;
  while (*p) {
    line_no++;
    size_t len = strcspn(p, "\n");
    char line[512];
    if (len >= sizeof line) return BAD("%s:%u: line too long", what, line_no);
    memcpy(line, p, len);
    line[len] = '\0';
    p += len + (p[len] == '\n');
    if (len && line[len - 1] == '\r') line[--len] = '\0';
    if (!len) continue;
    char *sp = strchr(line, ' ');
    if (!sp || sp == line || sp[1] == '\0' || sp[1] == ' ')
      return BAD("%s:%u: expected \"key value\", found \"%s\"", what, line_no, line);
    *sp = '\0';
    const char *key = line, *val = sp + 1;
    if (!have_version) {
      uint64_t v;
      if (strcmp(key, "rvhal-board") || parse_u64(val, &v))
        return BAD("%s:%u: not a board descriptor (first line must be \"rvhal-board %d\")", what, line_no,
                   RVHAL_BOARD_DESC_VERSION);
      if (v != RVHAL_BOARD_DESC_VERSION)
        return BAD("%s: descriptor version %llu; this rvhal reads version %d", what, (unsigned long long)v,
                   RVHAL_BOARD_DESC_VERSION);
      have_version = 1;
      continue;
    }
    size_t i;
    for (i = 0; i < NUM_FIELDS && strcmp(fields[i].key, key); i++) {
    }
    if (i < NUM_FIELDS) {
      const field_t *f = &fields[i];
      if (seen[i]++) return BAD("%s:%u: %s given twice", what, line_no, key);
      uint64_t v;
      char *dst = (char *)&d + f->offset;
      if (f->kind == K_STR) {
        if (parse_str(val, dst, f->size))
          return BAD("%s:%u: %s: expected a quoted string of at most %zu printable characters, found %s", what,
                     line_no, key, f->size - 1, val);
      } else if (parse_u64(val, &v) || (f->kind == K_U32 && v > UINT32_MAX)) {
        return BAD("%s:%u: %s: expected an unsigned number, found %s", what, line_no, key, val);
      } else if (f->kind == K_U32) {
        *(uint32_t *)dst = (uint32_t)v;
      } else {
        *(uint64_t *)dst = v;
      }
      continue;
    }
    for (i = 0; i < NUM_EXTRA && strcmp(extra_keys[i], key); i++) {
    }
    if (i == NUM_EXTRA) return BAD("%s:%u: unknown key \"%s\"", what, line_no, key);
    if (seen_extra[i]++) return BAD("%s:%u: %s given twice", what, line_no, key);
    char s[64];
    uint64_t v;
    switch (i) {
      case F_ISA_EXT:
        if (parse_str(val, isa_ext, sizeof isa_ext) || !isa_ext[0] || strspn(isa_ext, "abcdefghijklmnopqrstuvwxyz_") != strlen(isa_ext))
          return BAD("%s:%u: isa_ext: expected lower-case extension letters such as \"imafdc\", found %s", what,
                     line_no, val);
        break;
      case F_PRIV:
        if (parse_str(val, s, sizeof s) || (strcmp(s, "M") && strcmp(s, "S")))
          return BAD("%s:%u: priv: expected \"M\" or \"S\", found %s", what, line_no, val);
        d.priv = s[0];
        break;
      case F_DOORBELL:
        if (parse_u64(val, &v) || v > 1) return BAD("%s:%u: doorbell_polled: expected 0 or 1, found %s", what, line_no, val);
        d.doorbell_polled = (int)v;
        break;
      case F_BOOT:
        if (parse_str(val, s, sizeof s) || (strcmp(s, "kernel") && strcmp(s, "loader")))
          return BAD("%s:%u: qemu_boot: expected \"kernel\" or \"loader\", found %s", what, line_no, val);
        d.qemu_boot = s[0] == 'k' ? RVHAL_BOARD_BOOT_KERNEL : RVHAL_BOARD_BOOT_LOADER;
        break;
      case F_DTB:
        if (parse_str(val, s, sizeof s) || (strcmp(s, "machine") && strcmp(s, "empty")))
          return BAD("%s:%u: qemu_dtb: expected \"machine\" or \"empty\", found %s", what, line_no, val);
        d.qemu_dtb_empty = s[0] == 'e';
        break;
      case F_DEBUG_START:
        if (parse_str(val, s, sizeof s) || (strcmp(s, "entry") && strcmp(s, "reset")))
          return BAD("%s:%u: debug_start: expected \"entry\" or \"reset\", found %s", what, line_no, val);
        d.debug_start_entry = s[0] == 'e';
        break;
      case F_DEBUG_DOORBELL:
        debug_doorbell_line = line_no;
        if (!strcmp(val, "none")) {
          d.debug_doorbell = RVHAL_BOARD_DEBUG_DOORBELL_NONE;
        } else if (!strncmp(val, "msip ", 5) && !parse_u64(val + 5, &v)) {
          d.debug_doorbell = RVHAL_BOARD_DEBUG_DOORBELL_MSIP;
          d.debug_doorbell_addr = v;
        } else if (!strcmp(val, "ssip")) {
          d.debug_doorbell = RVHAL_BOARD_DEBUG_DOORBELL_SSIP;
        } else {
          return BAD("%s:%u: debug_doorbell: expected none, msip <address> or ssip, found %s", what, line_no, val);
        }
        break;
    }
  }
  if (!have_version) return BAD("%s: empty board descriptor", what);
  for (size_t i = 0; i < NUM_FIELDS; i++)
    if (!seen[i]) return BAD("%s: no %s", what, fields[i].key);
  for (size_t i = 0; i < NUM_EXTRA; i++)
    if (!seen_extra[i]) return BAD("%s: no %s", what, extra_keys[i]);
  snprintf(d.isa, sizeof d.isa, "rv%u%s", d.xlen, isa_ext);
  RVHAL_RETURN_IF_ERROR(check(&d, what));
  /* A register the debugger writes: never RAM (it would corrupt the device
   * silently), within the harts' address space. */
  const uint64_t a = d.debug_doorbell_addr;
  if (d.debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_MSIP &&
      (!a || a % 4 || a > UINT64_MAX - 4 || (d.xlen == 32 && a + 4 > (1ull << 32)) ||
       (a + 4 > d.ram_base && a < d.ram_base + d.max_ram_size)))
    return BAD("%s:%u: debug_doorbell: msip 0x%llx is not the address of a 32-bit register outside RAM", what,
               debug_doorbell_line, (unsigned long long)a);
  if (d.debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_SSIP && d.priv != 'S') /* M-mode firmware leaves SSIE off */
    return BAD("%s:%u: debug_doorbell: ssip wakes S-mode firmware only; this board's is %c-mode (use msip)", what,
               debug_doorbell_line, d.priv);
  *out = d;
  return RVHAL_OK;
}

int rvhal_board_desc_load(const char *path, rvhal_board_desc_t *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return rvhal_error(RVHAL_NOT_FOUND, "board descriptor %s: %s", path, strerror(errno));
  char *buf = malloc(MAX_FILE + 1);
  if (!buf) {
    fclose(f);
    return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  }
  size_t n = fread(buf, 1, MAX_FILE + 1, f);
  int err = ferror(f);
  fclose(f);
  int rc;
  if (err) rc = rvhal_error(RVHAL_HOST_IO, "reading board descriptor %s", path);
  else if (n > MAX_FILE) rc = BAD("%s: larger than %d bytes", path, MAX_FILE);
  else if (memchr(buf, '\0', n)) rc = BAD("%s: contains a NUL byte", path);
  else {
    buf[n] = '\0';
    rc = rvhal_board_desc_parse(buf, path, out);
  }
  free(buf);
  return rc;
}

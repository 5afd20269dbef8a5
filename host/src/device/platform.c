/* The platform: the devices this installation can create, one per board
 * descriptor found beside the firmware images (board x XLEN), with their
 * default information. Where: $RVHAL_FIRMWARE_DIR (directories separated
 * by ':'), else rvhal_firmware_dir(64) and (32): the install this library
 * belongs to, or the build tree (install_paths.c).
 * Device 0 is qemu-virt RV64 and device 1 qemu-virt RV32 when present, the
 * others follow by board name, RV64 before RV32. A descriptor that does
 * not parse is left out; its error is kept for `rvhal info`. */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/device_internal.h"
#include "base/isa_check.h"

#define MAX_KINDS 32

static rvhal_device_kind_t kinds[MAX_KINDS];
static uint32_t num_kinds;
static char skipped[1024]; /* why descriptors were left out */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void note_skipped(const char *msg) {
  size_t n = strlen(skipped);
  if (n + 3 < sizeof skipped) snprintf(skipped + n, sizeof skipped - n, "%s%s", n ? "; " : "", msg);
}

static void add_kind(const char *dir, const char *file) {
  if (num_kinds == MAX_KINDS) {
    note_skipped("too many board descriptors");
    return;
  }
  rvhal_device_kind_t *k = &kinds[num_kinds];
  memset(k, 0, sizeof *k);
  char path[sizeof k->desc_path];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  memcpy(k->desc_path, path, sizeof path);
  if (rvhal_board_desc_load(k->desc_path, &k->board)) {
    note_skipped(rvhal_last_error());
    rvhal_clear_error();
    return;
  }
  /* The image is the descriptor's name with .elf. */
  memcpy(k->firmware_path, path, sizeof path);
  strcpy(k->firmware_path + strlen(path) - strlen(".board"), ".elf");
  for (uint32_t i = 0; i < num_kinds; i++)
    if (!strcmp(kinds[i].board.name, k->board.name) && kinds[i].board.xlen == k->board.xlen) return; /* first dir wins */
  const rvhal_board_desc_t *b = &k->board;
  char name[sizeof k->name];
  snprintf(name, sizeof name, "%s-rv%u", b->name, b->xlen);
  memcpy(k->name, name, sizeof name);
  k->xlen = b->xlen;
  k->qemu_program = b->xlen == 64 ? "qemu-system-riscv64" : "qemu-system-riscv32";
  rvhal_device_info_t *i = &k->info;
  i->name = k->name;
  i->board = b->name;
  i->isa = b->isa;
  i->vlen = b->vlen;
  i->kernel_abi = rvhal_isa_kernel_abi(b->isa);
  if (!i->kernel_abi) {
    char msg[512];
    snprintf(msg, sizeof msg, "%.300s: isa %.96s: no kernel ABI (expected rv32/rv64 and extension letters)", path,
             b->isa);
    note_skipped(msg);
    return;
  }
  i->word_size = b->xlen / 8;
  i->num_harts = RVHAL_DEFAULT_HARTS < b->max_harts ? RVHAL_DEFAULT_HARTS : b->max_harts;
  rvhal_layout_request_t req = {i->num_harts, b->default_ram_size, RVHAL_DEFAULT_LOCAL_MEM, RVHAL_DEFAULT_MAX_WG,
                                RVHAL_DEFAULT_ITEM_STACK};
  rvhal_layout_t l;
  if (rvhal_layout_compute(b, &req, &l) != RVHAL_OK) {
    note_skipped(rvhal_last_error());
    rvhal_clear_error();
    return;
  }
  rvhal_layout_describe(&l, i);
  i->max_args_size = RVHAL_ARGS_MAX;
  i->timebase_hz = b->timebase_hz;
  i->timing = RVHAL_TIMING_DEFAULT;
  i->max_harts = b->max_harts;
  i->fault_addr = b->fault_addr;
  i->firmware_mode = b->priv == 'S' ? "S" : "M";
  num_kinds++;
}

static void scan_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n > 6 && !strcmp(e->d_name + n - 6, ".board") && !strncmp(e->d_name, "rvhal-fw-", 9)) add_kind(dir, e->d_name);
  }
  closedir(d);
}

static int rank(const rvhal_device_kind_t *k) {
  if (!strcmp(k->board.name, "qemu-virt")) return k->xlen == 64 ? 0 : 1;
  return 2;
}

static int compare(const void *pa, const void *pb) {
  const rvhal_device_kind_t *a = pa, *b = pb;
  if (rank(a) != rank(b)) return rank(a) - rank(b);
  int c = strcmp(a->board.name, b->board.name);
  if (c) return c;
  return (int)b->xlen - (int)a->xlen;
}

static void init_kinds(void) {
  const char *env = getenv("RVHAL_FIRMWARE_DIR");
  if (env && *env) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", env);
    for (char *save, *t = strtok_r(buf, ":", &save); t; t = strtok_r(NULL, ":", &save)) scan_dir(t);
  } else {
    const char *dir64 = rvhal_firmware_dir(64), *dir32 = rvhal_firmware_dir(32);
    if (dir64) scan_dir(dir64);
    if (dir32) scan_dir(dir32); /* a missing directory adds nothing */
  }
  qsort(kinds, num_kinds, sizeof kinds[0], compare);
  /* qsort moved the entries: point the info strings at their new homes. */
  for (uint32_t i = 0; i < num_kinds; i++) {
    kinds[i].info.name = kinds[i].name;
    kinds[i].info.board = kinds[i].board.name;
    kinds[i].info.isa = kinds[i].board.isa;
  }
}

const rvhal_device_kind_t *rvhal_device_kind(uint32_t index) {
  pthread_once(&once, init_kinds);
  return index < num_kinds ? &kinds[index] : NULL;
}

const char *rvhal_platform_skipped(void) {
  pthread_once(&once, init_kinds);
  return skipped;
}

const rvhal_platform_info_t *rvhal_platform_info(void) {
  static rvhal_platform_info_t info;
  pthread_once(&once, init_kinds);
  info.name = "rvhal";
  info.version = RVHAL_VERSION_STRING;
  info.api_version = RVHAL_API_VERSION;
  info.num_devices = num_kinds;
  return &info;
}

int rvhal_platform_device_info(uint32_t index, const rvhal_device_info_t **out_info) {
  const rvhal_device_kind_t *k = rvhal_device_kind(index);
  if (!k) return rvhal_error(RVHAL_NOT_FOUND, "device index %u: the platform has %u devices", index, num_kinds);
  *out_info = &k->info;
  return RVHAL_OK;
}

int rvhal_platform_find_device(const char *name, uint32_t *out_index) {
  pthread_once(&once, init_kinds);
  if (!name || !out_index) return rvhal_error(RVHAL_INVALID_ARGUMENT, "platform_find_device: NULL argument");
  if (*name >= '0' && *name <= '9') {
    char *end;
    unsigned long i = strtoul(name, &end, 10);
    if (*end || i >= num_kinds)
      return rvhal_error(RVHAL_NOT_FOUND, "device '%s': the platform has %u devices (0 to %u)", name, num_kinds,
                         num_kinds ? num_kinds - 1 : 0);
    *out_index = (uint32_t)i;
    return RVHAL_OK;
  }
  uint32_t board_matches = 0, board_index = 0;
  for (uint32_t i = 0; i < num_kinds; i++) {
    if (!strcmp(kinds[i].name, name)) {
      *out_index = i;
      return RVHAL_OK;
    }
    if (!strcmp(kinds[i].board.name, name)) board_matches++, board_index = i;
  }
  if (board_matches == 1) {
    *out_index = board_index;
    return RVHAL_OK;
  }
  char names[1024] = "";
  size_t o = 0;
  for (uint32_t i = 0; i < num_kinds && o < sizeof names - 1; i++)
    o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "", kinds[i].name);
  if (board_matches > 1)
    return rvhal_error(RVHAL_NOT_FOUND, "device '%s': board %s has %u devices (one per XLEN); name one: %s", name, name,
                       board_matches, names);
  return rvhal_error(RVHAL_NOT_FOUND, "device '%s': no such device; the platform has: %s", name,
                     num_kinds ? names : "none");
}

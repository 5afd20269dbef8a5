/* A QEMU TCG plugin that counts the instructions each hart executes and
 * keeps the counts in the device's shared RAM (rvhal_insn_counts_t in the
 * control block), where the firmware reads them at the start and end of a
 * launch. QEMU's own minstret cannot give per-hart counts: under -icount it
 * is the virtual clock, advanced by every hart's instructions.
 *
 * Counts are added when a translation block starts executing, so a count
 * read in the middle of a block already includes the rest of that block: a
 * fixed offset of a few instructions, the same on every run.
 *
 * Loaded by the host library (qemu_backend.c) as
 *   -plugin insn_counter.so,fd=<guest RAM memfd>,offset=<byte offset>,first=<first hart id>
 *
 * Declares the few QEMU plugin API entry points it uses (the stable C ABI of
 * QEMU_PLUGIN_VERSION 1, QEMU 4.2 to 8.x) rather than needing QEMU's
 * development headers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rvhal/rvhal_protocol.h"

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

static rvhal_insn_count_t *counts; /* rvhal_insn_counts_t.hart in shared RAM */
static unsigned first_hart;

static void on_tb_exec(unsigned int vcpu, void *n_insns) {
  unsigned hart = vcpu - first_hart;
  /* Each vCPU thread updates only its own count, alone on its cache line
   * (in fast timing the vCPUs run on different host cores). */
  if (hart < RVHAL_MAX_HARTS) {
    volatile uint64_t *n = &counts[hart].count;
    *n += (uintptr_t)n_insns;
  }
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb_exec, QEMU_PLUGIN_CB_NO_REGS,
                                       (void *)(uintptr_t)qemu_plugin_tb_n_insns(tb));
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
  (void)info;
  long fd = -1;
  unsigned long long offset = 0;
  int have_offset = 0;
  for (int i = 0; i < argc; i++) {
    if (!strncmp(argv[i], "fd=", 3)) fd = strtol(argv[i] + 3, NULL, 0);
    else if (!strncmp(argv[i], "offset=", 7)) offset = strtoull(argv[i] + 7, NULL, 0), have_offset = 1;
    else if (!strncmp(argv[i], "first=", 6)) first_hart = (unsigned)strtoul(argv[i] + 6, NULL, 0);
    else {
      fprintf(stderr, "rvhal insn_counter plugin: unknown argument '%s'\n", argv[i]);
      return -1;
    }
  }
  if (fd < 0 || !have_offset) {
    fprintf(stderr, "rvhal insn_counter plugin: needs fd=<memfd> and offset=<bytes>\n");
    return -1;
  }
  long page = sysconf(_SC_PAGESIZE);
  unsigned long long base = offset & ~(unsigned long long)(page - 1);
  size_t len = (size_t)(offset - base) + sizeof(rvhal_insn_counts_t);
  uint8_t *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, (off_t)base);
  if (map == MAP_FAILED) {
    perror("rvhal insn_counter plugin: mmap");
    return -1;
  }
  rvhal_insn_counts_t *c = (rvhal_insn_counts_t *)(map + (offset - base));
  memset(c->hart, 0, sizeof c->hart);
  counts = c->hart;
  __atomic_store_n(&c->active, 1, __ATOMIC_RELEASE);
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
  return 0;
}

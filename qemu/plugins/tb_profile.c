/* A QEMU TCG plugin for finding where a kernel's guest instructions go:
 * per translation block, its start address, its instruction count and how
 * often it ran, written as text lines "vaddr insns execs" to
 * out=<path>.<QEMU's pid>, every 50 ms and at exit (rvhal stops QEMU with
 * SIGKILL: the last 50 ms may be missing, so normalise by a block that runs
 * a known number of times). bench/peers/tb_profile.py sums it by symbol.
 * Counting is inline (no callback per block), so QEMU slows little.
 *
 *   RVHAL_QEMU_ARGS="-plugin build/qemu/rvhal-qemu-tb-profile.so,out=/tmp/prof"
 *
 * Like insn_counter.c, declares the few plugin API entry points it uses
 * (QEMU_PLUGIN_VERSION 1) instead of needing QEMU's development headers. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                              uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

/* One translated block; a block translated again gets another record. */
typedef struct tb_record {
  uint64_t vaddr, insns;
  uint64_t execs; /* added to by the vCPUs' translated code */
  struct tb_record *next;
} tb_record_t;

static tb_record_t *records; /* pushed and read with __atomic builtins (clang refuses them on _Atomic) */
static char out_path[512] = "/tmp/rvhal-tb-profile";

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  tb_record_t *r = calloc(1, sizeof *r);
  if (!r) return;
  r->vaddr = qemu_plugin_tb_vaddr(tb);
  r->insns = qemu_plugin_tb_n_insns(tb);
  r->next = __atomic_load_n(&records, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&records, &r->next, r, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
  }
  qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &r->execs, 1);
}

/* Written whole to a temporary name, then renamed: a reader never sees half. */
static void dump(qemu_plugin_id_t id, void *unused) {
  (void)id;
  (void)unused;
  char path[600], tmp[620];
  snprintf(path, sizeof path, "%s.%d", out_path, (int)getpid());
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  for (tb_record_t *r = __atomic_load_n(&records, __ATOMIC_ACQUIRE); r; r = r->next)
    if (r->execs)
      fprintf(f, "%llx %llu %llu\n", (unsigned long long)r->vaddr, (unsigned long long)r->insns,
              (unsigned long long)r->execs);
  fclose(f);
  rename(tmp, path);
}

static void *dumper(void *unused) {
  for (;;) {
    usleep(50000);
    dump(0, unused);
  }
  return NULL;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
  (void)info;
  for (int i = 0; i < argc; i++) {
    if (!strncmp(argv[i], "out=", 4)) {
      snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
    } else {
      fprintf(stderr, "rvhal tb_profile plugin: unknown argument '%s' (out=<path> only)\n", argv[i]);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
  qemu_plugin_register_atexit_cb(id, dump, NULL);
  pthread_t t;
  if (pthread_create(&t, NULL, dumper, NULL) != 0) return -1;
  pthread_detach(t);
  return 0;
}

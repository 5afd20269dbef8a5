/* rvhal-bench gdb: what reaching the device through the GDB remote protocol
 * costs (host/src/backend/gdb_backend.c, RVHAL_BACKEND=gdb), next to the QEMU
 * backend's shared memory: the round trip of an empty launch, and the time
 * per MiB written and read. With $RVHAL_GDB_REMOTE set (a stub rvhal did
 * not start: tests/device/external_stub.c starts one, "external_stub tcp
 * rvhal-bench gdb"), the same rows through it follow. With RVHAL_GDB_STATS=1 the gdb device also
 * prints its packet counts when deleted (divide by the launches run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_util.h"

/* ring: hart 0 never lingers, so every launch rings the doorbell (the
 * figure is the doorbell's; the MiB transfers are left out). */
static void one_backend(const char *kernel_dir, int runs, const char *backend, const char *label, int ring) {
  setenv("RVHAL_BACKEND", backend, 1);
  int n = runs < 1000 ? runs : 1000;
  rvhal_device_options_t o = {.num_harts = 4, .linger_us = ring ? RVHAL_LINGER_OFF : 0};
  bench_dev_t b = bench_open(kernel_dir, "empty", &o);
  hal_kernel_t k = bench_kernel(&b, "empty");
  double *t = bench_time_launches(&b, k, n);
  bench_stats_t s = bench_stats(t, (size_t)n);
  printf("gdb     %-24s empty launch round trip  p50 %8.1f us  p99 %8.1f  max %8.1f  (%d launches%s)\n", label,
         s.median, s.p99, s.max, n, ring ? ", each rings" : "");
  free(t);
  if (ring) {
    bench_close(&b);
    return;
  }

  const size_t size = 1 << 20;
  int m = runs < 20 ? runs : 20;
  uint8_t *src = malloc(size), *dst = malloc(size);
  for (size_t i = 0; i < size; i++) src[i] = (uint8_t)(i * 131 + 7);
  hal_addr_t dev;
  BENCH_CHECK(rvhal_mem_alloc(b.d, size, 0, &dev));
  double *tw = malloc(sizeof *tw * (size_t)m), *tr = malloc(sizeof *tr * (size_t)m);
  for (int i = 0; i < m; i++) {
    double a = bench_now_us();
    BENCH_CHECK(rvhal_mem_write(b.d, dev, src, size));
    double c = bench_now_us();
    BENCH_CHECK(rvhal_mem_read(b.d, dst, dev, size));
    tw[i] = c - a;
    tr[i] = bench_now_us() - c;
  }
  if (memcmp(src, dst, size)) {
    fprintf(stderr, "rvhal-bench: gdb: the MiB read back differs from the one written (%s backend)\n", backend);
    exit(1);
  }
  double w = bench_stats(tw, (size_t)m).median, r = bench_stats(tr, (size_t)m).median;
  printf("gdb     %-24s 1 MiB mem_write %9.3f ms (%7.0f MiB/s)  mem_read %9.3f ms (%7.0f MiB/s)  (medians of %d)\n",
         label, w / 1e3, 1e6 / w, r / 1e3, 1e6 / r, m);
  BENCH_CHECK(rvhal_mem_free(b.d, dev));
  free(src);
  free(dst);
  free(tw);
  free(tr);
  bench_close(&b);
}

void bench_gdb(const char *kernel_dir, int runs) {
  const char *env = getenv("RVHAL_BACKEND");
  char *saved = env ? strdup(env) : NULL;
  const char *remote_env = getenv("RVHAL_GDB_REMOTE");
  char *remote = remote_env && *remote_env ? strdup(remote_env) : NULL;
  unsetenv("RVHAL_GDB_REMOTE"); /* the rows of the QEMU rvhal starts first */
  one_backend(kernel_dir, runs, "qemu", "qemu backend:", 0);
  /* The doorbell the board gives a debugger (its descriptor's
   * debug_doorbell: hart 0's MSIP written through the protocol; the UART
   * where it has none), or $RVHAL_GDB_DOORBELL; then the UART's. Back to
   * back, hart 0's linger takes most launches without a bell; the "each
   * rings" rows turn it off. */
  one_backend(kernel_dir, runs, "gdb", "gdb backend, board bell:", 0);
  one_backend(kernel_dir, runs, "gdb", "gdb backend, board bell:", 1);
  const char *db = getenv("RVHAL_GDB_DOORBELL");
  char *saved_db = db ? strdup(db) : NULL;
  setenv("RVHAL_GDB_DOORBELL", "uart", 1);
  one_backend(kernel_dir, runs, "gdb", "gdb backend, UART bell:", 0);
  one_backend(kernel_dir, runs, "gdb", "gdb backend, UART bell:", 1);
  if (saved_db) setenv("RVHAL_GDB_DOORBELL", saved_db, 1);
  else unsetenv("RVHAL_GDB_DOORBELL");
  free(saved_db);
  if (remote) { /* the external stub: its board bell (MSIP), and its UART if RVHAL_UART names one */
    setenv("RVHAL_GDB_REMOTE", remote, 1);
    one_backend(kernel_dir, runs, "gdb", "gdb, external stub:", 0);
    one_backend(kernel_dir, runs, "gdb", "gdb, external stub:", 1);
    free(remote);
  }
  if (saved) setenv("RVHAL_BACKEND", saved, 1);
  else unsetenv("RVHAL_BACKEND");
  free(saved);
}

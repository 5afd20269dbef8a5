/* Helpers shared by the device tests (tests/device/): buffers and messages. */
#ifndef RVHAL_TEST_DEV_UTIL_H
#define RVHAL_TEST_DEV_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "device_fixture.h"

/* Deterministic bytes (xorshift64*). */
static inline uint64_t dt_rand(uint64_t *state) {
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

static inline void dt_fill_random(void *buf, size_t n, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  uint8_t *p = buf;
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(dt_rand(&s) >> 56);
}

static inline double dt_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A device buffer of n bytes holding `init` (NULL: zeros); exits on failure. */
static inline hal_addr_t dt_buffer(rvhal_device_t *d, size_t n, const void *init) {
  hal_addr_t a;
  int rc = rvhal_mem_alloc(d, n, 0, &a);
  if (rc) {
    fprintf(stderr, "mem_alloc(%zu): %s: %s\n", n, rvhal_status_name(rc), rvhal_last_error());
    exit(1);
  }
  if (init) {
    CHECK_OK(rvhal_mem_write(d, a, init, n));
  } else {
    uint8_t z = 0;
    CHECK_OK(rvhal_mem_fill(d, a, &z, 1, n));
  }
  return a;
}

/* The whole file at `path` in a malloc'ed buffer with a NUL after its *len
 * bytes; NULL if it cannot be opened. */
static inline char *dt_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  if (!buf) abort();
  for (size_t got; (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap && !(buf = realloc(buf, (cap *= 2) + 1))) abort();
  }
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* The first index where two byte arrays differ, or -1. */
static inline long dt_first_diff(const void *a, const void *b, size_t n) {
  const uint8_t *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return (long)i;
  return -1;
}

/* CHECK that n bytes equal the expected ones, naming the first difference. */
#define CHECK_BYTES(got, want, n, ...)                                                                  \
  do {                                                                                                \
    long dt_at_ = dt_first_diff((got), (want), (n));                                                  \
    char dt_what_[256];                                                                               \
    snprintf(dt_what_, sizeof dt_what_, __VA_ARGS__);                                                 \
    CHECK_MSG(dt_at_ < 0, "%s: byte %ld of %zu is 0x%02x, expected 0x%02x", dt_what_, dt_at_, (size_t)(n), \
              dt_at_ < 0 ? 0 : ((const uint8_t *)(got))[dt_at_], dt_at_ < 0 ? 0 : ((const uint8_t *)(want))[dt_at_]); \
  } while (0)

/* CHECK that the last error message contains `needle`. */
#define CHECK_LAST_ERROR_HAS(needle)                                                              \
  do {                                                                                            \
    const char *dt_msg_ = rvhal_last_error();                                                     \
    CHECK_MSG(strstr(dt_msg_, (needle)) != NULL, "message \"%s\" lacks \"%s\"", dt_msg_, (needle)); \
  } while (0)

/* Live QEMU processes (comm qemu-system-riscv*) that are children of `ppid`
 * (0: any parent) and, if `env` is not NULL, have the NUL-terminated string
 * `env` (e.g. "RVHAL_TEST_TAG=12-a") in their environment. Up to `cap` pids
 * go to `pids`. Zombies have no environment and are not counted when `env`
 * is given. */
static inline int dt_read_proc(pid_t pid, const char *what, char *buf, size_t cap, size_t *len) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, what);
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  *len = fread(buf, 1, cap - 1, f);
  buf[*len] = '\0';
  fclose(f);
  return 0;
}

static inline int dt_find_qemu(pid_t ppid, const char *env, pid_t *pids, int cap) {
  DIR *dir = opendir("/proc");
  if (!dir) return -1;
  int n = 0;
  static char buf[1 << 16];
  for (struct dirent *de; (de = readdir(dir));) {
    char *end;
    long pid = strtol(de->d_name, &end, 10);
    if (*end || pid <= 0) continue;
    size_t len;
    if (dt_read_proc((pid_t)pid, "comm", buf, sizeof buf, &len)) continue;
    if (strncmp(buf, "qemu-system-ris", 15)) continue; /* comm is cut at 15 characters */
    if (ppid) {
      if (dt_read_proc((pid_t)pid, "stat", buf, sizeof buf, &len)) continue;
      const char *rp = strrchr(buf, ')');
      int pp = 0;
      if (!rp || sscanf(rp + 1, " %*c %d", &pp) != 1 || pp != ppid) continue;
    }
    if (env) {
      if (dt_read_proc((pid_t)pid, "environ", buf, sizeof buf, &len)) continue;
      int found = 0;
      for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
        if (!strcmp(buf + i, env)) found = 1;
      if (!found) continue;
    }
    if (n < cap) pids[n] = (pid_t)pid;
    n++;
  }
  closedir(dir);
  return n;
}

/* After a failed or hostile launch, the device still works: trap_good (of
 * dt_trap, in `prog`) writes out[i] = i * 7 + k for n items, the buffer
 * `keep` still holds what the host wrote into it, and this process has
 * exactly one QEMU. `line` names the check's caller. */
static inline void dt_check_healthy(rvhal_device_t *d, hal_program_t prog, hal_addr_t out, uint32_t n, uint32_t k,
                                    hal_addr_t keep, const void *keep_host, size_t keep_size, int line) {
  hal_arg_t args[2] = {rvhal_arg_global(out), rvhal_arg_value(&k, 4)};
  hal_ndrange_t nd = {.global = {n}, .local = {4}};
  int rc = rvhal_kernel_exec(d, prog, fixture_kernel(d, prog, "trap_good"), &nd, args, 2, 1);
  CHECK_MSG(rc == RVHAL_OK, "trap_good after line %d: %s: %s", line, rvhal_status_name(rc), rvhal_last_error());
  uint32_t *got = calloc(n, sizeof *got);
  uint8_t *back = malloc(keep_size);
  if (!got || !back) abort();
  CHECK_OK(rvhal_mem_read(d, got, out, n * sizeof *got));
  unsigned bad = 0;
  for (uint32_t i = 0; i < n; i++) bad += got[i] != i * 7u + k;
  CHECK_MSG(bad == 0, "trap_good after line %d: %u wrong results", line, bad);
  CHECK_OK(rvhal_mem_read(d, back, keep, keep_size));
  CHECK_BYTES(back, keep_host, keep_size, "host-written buffer after line %d", line);
  free(got);
  free(back);
  pid_t pids[8];
  int q = dt_find_qemu(getpid(), NULL, pids, 8);
  const int mine = getenv("RVHAL_GDB_REMOTE") ? 0 : 1; /* an external stub's QEMU is not this process's */
  CHECK_MSG(q == mine, "after line %d this process has %d QEMU children, expected %d", line, q, mine);
}

#endif /* RVHAL_TEST_DEV_UTIL_H */

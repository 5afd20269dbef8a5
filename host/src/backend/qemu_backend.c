/* The QEMU backend: one qemu-system-riscv* process per device.
 *
 * Guest RAM is a memfd that this process maps and QEMU uses as its memory
 * backend (share=on), so device memory access is a plain copy. The UART is
 * a socketpair: a byte from us is the doorbell (UART RX interrupt on hart
 * 0); a byte from the firmware wakes us. No files, no TCP. QEMU dies with
 * us (PR_SET_PDEATHSIG) and is killed by stop/destroy; its output goes to a
 * memfd we quote in error messages.
 *
 * Warm start: most of a device's creation is QEMU's start (dynamic
 * linking of its libraries, QOM, page faults), not the firmware's
 * (docs/performance.md, "Device create"). A program that
 * creates a second device with the same configuration gets one QEMU kept
 * ready for the next: started paused (-S) with its own RAM, it uses no CPU
 * until a device adopts it, writes its boot configuration and resumes it
 * over QMP. One spare per process at most; it dies with the process.
 * RVHAL_NO_WARM_QEMU=1 turns it off.
 *
 * With cfg.gdbstub (gdb_backend.c runs its QEMU through this file) guest
 * RAM is QEMU's own, the gdbstub is on another socketpair, QEMU starts
 * halted (-S) and there is no spare. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend.h"
#include "base/internal.h"
#include "rvhal/rvhal_protocol.h"

typedef struct qemu_backend {
  rvhal_backend_t base;
  rvhal_qemu_config_t cfg;
  rvhal_board_desc_t board;
  char *qemu_path, *firmware_path, *plugin_path;
  uint64_t qemu_ram;  /* -m: the mapped window, or the board's minimum if larger */
  int ram_fd;
  int dtb_fd;   /* -dtb /dev/fd/N: the empty device tree (make_empty_dtb), or -1 */
  int log_fd;   /* QEMU's stdout+stderr */
  int sock;     /* our end of the UART */
  pid_t pid;
  int paused;    /* a warm spare: QEMU started with -S, waiting for "cont" */
  int qmp;       /* our end of its QMP socket while paused, else -1 */
  int qmp_child; /* QEMU's end, during the spawn */
  int gdb_sock, gdb_child; /* cfg.gdbstub: our end of its gdbstub, and QEMU's during the spawn */
  int make_spare; /* once booted, start a spare like this device (warm start) */
  char *key;      /* its configuration (config_key), for warm starts */
  pid_t hart0_tid; /* QEMU's thread running hart 0 (all harts in exact timing), 0: unknown */
  char diag[2048];
} qemu_backend_t;

static void qemu_stop(rvhal_backend_t *base) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  if (q->paused) return; /* a fresh spare: nothing ran yet, qemu_start resumes it */
  if (q->pid > 0) {
    kill(q->pid, SIGKILL);
    while (waitpid(q->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    q->pid = 0;
  }
  if (q->sock >= 0) {
    close(q->sock);
    q->sock = -1;
  }
  if (q->qmp >= 0) {
    close(q->qmp);
    q->qmp = -1;
  }
  if (q->gdb_sock >= 0) {
    close(q->gdb_sock);
    q->gdb_sock = -1;
  }
}

static void qemu_destroy(rvhal_backend_t *base) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  q->paused = 0;
  qemu_stop(base);
  if (q->base.ram) munmap(q->base.ram, q->base.ram_size);
  if (q->ram_fd >= 0) close(q->ram_fd);
  if (q->log_fd >= 0) close(q->log_fd);
  free(q->qemu_path);
  free(q->firmware_path);
  free(q->plugin_path);
  free(q->key);
  free(q);
}

/* An empty device tree (a root with #address-cells, #size-cells and
 * /chosen, what QEMU's loaders expect) for boards whose firmware reads none
 * (board qemu_dtb "empty"): with -dtb QEMU does not build its own, a
 * part of every start on virt (docs/performance.md, "Figures behind the
 * code's choices"). One memfd per process, shared by every QEMU it starts (each opens
 * /dev/fd/N for itself). */
static pthread_once_t empty_dtb_once = PTHREAD_ONCE_INIT;
static int empty_dtb_fd = -1;

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static void make_empty_dtb(void) {
  enum { BEGIN_NODE = 1, END_NODE = 2, PROP = 3, END = 9, HDR = 40, RSV = 16 };
  static const char strings[] = "#address-cells\0#size-cells"; /* and its NUL */
  uint32_t st[32];
  size_t n = 0;
  st[n++] = BEGIN_NODE, st[n++] = 0; /* "" */
  st[n++] = PROP, st[n++] = 4, st[n++] = 0, st[n++] = 2;  /* #address-cells = <2> */
  st[n++] = PROP, st[n++] = 4, st[n++] = 15, st[n++] = 2; /* #size-cells = <2> */
  st[n++] = BEGIN_NODE, st[n++] = 0, st[n++] = 0;         /* "chosen", below */
  st[n++] = END_NODE, st[n++] = END_NODE, st[n++] = END;
  uint8_t blob[HDR + RSV + sizeof st + sizeof strings];
  memset(blob, 0, sizeof blob);
  for (size_t i = 0; i < n; i++) put_be32(blob + HDR + RSV + 4 * i, st[i]);
  memcpy(blob + HDR + RSV + 4 * 11, "chosen", 6);
  const uint32_t off_struct = HDR + RSV, size_struct = (uint32_t)(4 * n), off_strings = off_struct + size_struct;
  memcpy(blob + off_strings, strings, sizeof strings);
  const uint32_t total = off_strings + (uint32_t)sizeof strings;
  const uint32_t hdr[10] = {0xd00dfeed, total, off_struct, off_strings, HDR, 17, 16, 0, sizeof strings, size_struct};
  for (int i = 0; i < 10; i++) put_be32(blob + 4 * i, hdr[i]);
  int fd = memfd_create("rvhal-empty-dtb", MFD_CLOEXEC);
  if (fd < 0) return;
  if (write(fd, blob, total) != (ssize_t)total) {
    close(fd);
    return;
  }
  empty_dtb_fd = fd;
}

/* QEMU's command line, built before fork so the child only execs. */
#define MAX_LOADERS (RVHAL_MAX_HARTS + 8)
typedef struct qemu_argv {
  char cpu[64], smp[16], mem[32], backend[160], chardev[64], machine[96], qmp[64], gdb[64], dtb[32], bios[RVHAL_BOARD_STR_MAX];
  char loader[MAX_LOADERS][64];
  char loader_fw[2 * 4096 + 32]; /* hart 0's, with the firmware's path (commas doubled) */
  char plugin[4200];
  char board_extra[RVHAL_BOARD_STR_MAX]; /* the board's qemu_args, split in place */
  char extra[1024];                      /* $RVHAL_QEMU_ARGS, split in place */
  const char *argv[128];
} qemu_argv_t;

/* snprintf into an argument that must not be cut: a path cut short loads
 * another file, or none ("Cannot load specified image"). */
#define ARG_FMT(buf, what, ...)                                                                               \
  do {                                                                                                        \
    int n_ = snprintf((buf), sizeof(buf), __VA_ARGS__);                                                       \
    if (n_ < 0 || (size_t)n_ >= sizeof(buf))                                                                 \
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "QEMU's %s argument would be %d characters, at most %zu fit: %s", \
                         (what), n_, sizeof(buf) - 1, (buf));                                                 \
  } while (0)

/* QEMU's option syntax: a ',' inside a value is written ",,". */
static int put_option_value(char *out, size_t cap, const char *prefix, const char *value, const char *suffix) {
  size_t n = 0;
  for (const char *c = prefix; *c && n < cap; c++) out[n++] = *c;
  for (const char *c = value; *c && n + 1 < cap; c++) {
    if (*c == ',') out[n++] = ',';
    out[n++] = *c;
  }
  for (const char *c = suffix; *c && n < cap; c++) out[n++] = *c;
  if (n >= cap) return rvhal_error(RVHAL_INVALID_ARGUMENT, "QEMU's argument for %s is longer than %zu characters",
                                   value, cap - 1);
  out[n] = '\0';
  return RVHAL_OK;
}

static int build_argv(const qemu_backend_t *q, int child_sock, qemu_argv_t *a) {
  const rvhal_board_desc_t *b = &q->board;
  /* -smp counts every hart from id 0, also those before first_hart. */
  const uint32_t cpus = b->first_hart + q->cfg.num_harts;
  ARG_FMT(a->smp, "-smp", "%u", cpus);
  ARG_FMT(a->mem, "-m", "%lluM", (unsigned long long)(q->qemu_ram >> 20));
  ARG_FMT(a->backend, "-object", "memory-backend-file,id=ram,size=%s,mem-path=/dev/fd/%d,share=on", a->mem,
          q->ram_fd);
  ARG_FMT(a->chardev, "-chardev", "socket,id=uart,fd=%d", child_sock);
  if (q->ram_fd >= 0) ARG_FMT(a->machine, "-machine", "%s,memory-backend=ram", b->qemu_machine);
  else ARG_FMT(a->machine, "-machine", "%s", b->qemu_machine);
  ARG_FMT(a->bios, "-bios", "%s", b->qemu_bios);
  const char **v = a->argv;
  *v++ = q->qemu_path;
  *v++ = "-nodefaults";
  *v++ = "-no-user-config";
  *v++ = "-nographic";
  *v++ = "-monitor";
  *v++ = "none";
  *v++ = "-machine";
  *v++ = a->machine;
  *v++ = "-smp";
  *v++ = a->smp;
  if (q->cfg.vlen) { /* vector harts: QEMU's generic CPU with V */
    ARG_FMT(a->cpu, "-cpu", "rv%u,v=true,vlen=%u,elen=64", b->xlen, q->cfg.vlen);
    *v++ = "-cpu";
    *v++ = a->cpu;
  }
  *v++ = "-m";
  *v++ = a->mem;
  if (q->ram_fd >= 0) {
    *v++ = "-object";
    *v++ = a->backend;
  }
  *v++ = "-chardev";
  *v++ = a->chardev;
  *v++ = "-serial";
  *v++ = "chardev:uart";
  if (strcmp(a->bios, "default")) { /* "default": the machine's own (shakti_c refuses "none") */
    *v++ = "-bios";
    *v++ = a->bios;
  }
  if (q->dtb_fd >= 0) {
    ARG_FMT(a->dtb, "-dtb", "/dev/fd/%d", q->dtb_fd);
    *v++ = "-dtb";
    *v++ = a->dtb;
  }
  if (q->gdb_child >= 0) { /* gdb_backend.c: halted until the client has written the firmware and memory */
    ARG_FMT(a->gdb, "-chardev", "socket,id=gdb,fd=%d", q->gdb_child);
    *v++ = "-chardev";
    *v++ = a->gdb;
    *v++ = "-gdb";
    *v++ = "chardev:gdb";
    *v++ = "-S";
  }
  if (b->qemu_boot == RVHAL_BOARD_BOOT_LOADER) {
    /* The image through hart 0's loader (which also sets its pc to the
     * entry), every other hart's pc through its own. */
    uint64_t entry = b->ram_base + b->fw_offset;
    if (cpus > MAX_LOADERS)
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "QEMU: %u harts to start through loader devices, at most %u",
                         cpus, MAX_LOADERS);
    for (uint32_t c = 0; c < cpus; c++) {
      if (c == 0) RVHAL_RETURN_IF_ERROR(put_option_value(a->loader_fw, sizeof a->loader_fw, "loader,file=",
                                                         q->firmware_path, ",cpu-num=0"));
      else ARG_FMT(a->loader[c], "-device", "loader,addr=0x%llx,cpu-num=%u", (unsigned long long)entry, c);
      *v++ = "-device";
      *v++ = c == 0 ? a->loader_fw : a->loader[c];
    }
  } else {
    *v++ = "-kernel";
    *v++ = q->firmware_path;
  }
  *v++ = "-no-reboot";
  *v++ = "-name";
  *v++ = "rvhal,debug-threads=on"; /* thread names: qemu_booted finds hart 0's */
  if (q->paused) {
    ARG_FMT(a->qmp, "-chardev", "socket,id=qmp,fd=%d", q->qmp_child);
    *v++ = "-S";
    *v++ = "-chardev";
    *v++ = a->qmp;
    *v++ = "-mon";
    *v++ = "chardev=qmp,mode=control";
  }
  if (q->cfg.exact_timing) {
    *v++ = "-icount";
    *v++ = "shift=0";
  }
  if (q->plugin_path) {
    ARG_FMT(a->plugin, "-plugin", "%s,fd=%d,offset=%llu,first=%u", q->plugin_path, q->ram_fd,
            (unsigned long long)q->cfg.plugin_offset, b->first_hart);
    *v++ = "-plugin";
    *v++ = a->plugin;
  }
  /* The board's extra arguments, then extra options for debugging, e.g.
   * RVHAL_QEMU_ARGS="-s" for a gdb stub (qemu/README.md). Split on blanks;
   * no quoting. */
  ARG_FMT(a->board_extra, "board's extra", "%s", b->qemu_args);
  char *save;
  const char **const end = a->argv + sizeof a->argv / sizeof *a->argv - 1; /* room for the NULL */
  for (char *t = strtok_r(a->board_extra, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (v == end) return rvhal_error(RVHAL_INVALID_ARGUMENT, "QEMU: more than %zu arguments (the board's qemu_args)",
                                     sizeof a->argv / sizeof *a->argv - 1);
    *v++ = t;
  }
  const char *env = getenv("RVHAL_QEMU_ARGS");
  if (env) {
    ARG_FMT(a->extra, "$RVHAL_QEMU_ARGS", "%s", env);
    for (char *t = strtok_r(a->extra, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
      if (v == end) return rvhal_error(RVHAL_INVALID_ARGUMENT, "QEMU: more than %zu arguments ($RVHAL_QEMU_ARGS)",
                                       sizeof a->argv / sizeof *a->argv - 1);
      *v++ = t;
    }
  }
  *v = NULL;
  return RVHAL_OK;
}

/* Child side of fork: become QEMU. Only async-signal-safe calls. */
static void exec_qemu(const qemu_backend_t *q, const qemu_argv_t *a, int child_sock, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127); /* the parent died before prctl */
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, 0);
  dup2(q->log_fd, 1);
  dup2(q->log_fd, 2);
  fcntl(q->ram_fd, F_SETFD, 0);
  fcntl(child_sock, F_SETFD, 0);
  if (q->qmp_child >= 0) fcntl(q->qmp_child, F_SETFD, 0);
  if (q->gdb_child >= 0) fcntl(q->gdb_child, F_SETFD, 0);
  if (q->dtb_fd >= 0) fcntl(q->dtb_fd, F_SETFD, 0);
  execv(q->qemu_path, (char *const *)a->argv);
  static const char msg[] = "rvhal: cannot execute QEMU\n";
  if (write(2, msg, sizeof msg - 1) < 0) {
  }
  _exit(127);
}

static const char *qemu_diagnostics(rvhal_backend_t *base) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  off_t end = lseek(q->log_fd, 0, SEEK_END);
  off_t start = end > (off_t)sizeof q->diag - 1 ? end - (off_t)sizeof q->diag + 1 : 0;
  ssize_t n = pread(q->log_fd, q->diag, sizeof q->diag - 1, start);
  q->diag[n > 0 ? n : 0] = '\0';
  /* one line is enough for a message */
  for (char *p = q->diag; *p; p++)
    if (*p == '\n') *p = (p[1] ? ' ' : '\0');
  return q->diag;
}

/* QEMU is started with PR_SET_PDEATHSIG, which fires when the *thread*
 * that forked it exits, not the process: a device created on a short-lived
 * thread would lose its QEMU. So every QEMU is forked by one library thread
 * that lives as long as the process (and dies with it). */
typedef struct spawn_request {
  const qemu_backend_t *q;
  const qemu_argv_t *argv;
  int child_sock;
  pid_t pid;
  int err;
  int done;
  struct spawn_request *next;
} spawn_request_t;

static pthread_mutex_t spawn_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t spawn_cv = PTHREAD_COND_INITIALIZER;
static spawn_request_t *spawn_queue;
static pthread_once_t spawner_once = PTHREAD_ONCE_INIT;
static int spawner_error;

static void *spawner_main(void *unused) {
  (void)unused;
  pthread_mutex_lock(&spawn_mu);
  for (;;) {
    while (!spawn_queue) pthread_cond_wait(&spawn_cv, &spawn_mu);
    spawn_request_t *r = spawn_queue;
    spawn_queue = r->next;
    pthread_mutex_unlock(&spawn_mu);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) exec_qemu(r->q, r->argv, r->child_sock, parent);
    pthread_mutex_lock(&spawn_mu);
    r->pid = pid;
    r->err = pid < 0 ? errno : 0;
    r->done = 1;
    pthread_cond_broadcast(&spawn_cv);
  }
  return NULL;
}

static void start_spawner(void) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old); /* the spawner takes no signals */
  pthread_t t;
  spawner_error = pthread_create(&t, NULL, spawner_main, NULL);
  if (!spawner_error) pthread_detach(t);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static pid_t spawn_qemu(const qemu_backend_t *q, const qemu_argv_t *a, int child_sock, int *out_err) {
  pthread_once(&spawner_once, start_spawner);
  if (spawner_error) {
    *out_err = spawner_error;
    return -1;
  }
  spawn_request_t r = {.q = q, .argv = a, .child_sock = child_sock};
  pthread_mutex_lock(&spawn_mu);
  spawn_request_t **tail = &spawn_queue;
  while (*tail) tail = &(*tail)->next;
  *tail = &r;
  pthread_cond_broadcast(&spawn_cv);
  while (!r.done) pthread_cond_wait(&spawn_cv, &spawn_mu);
  pthread_mutex_unlock(&spawn_mu);
  *out_err = r.err;
  return r.pid;
}

/* A paused spare: "cont" over QMP (commands run in order; the few replies
 * are never read). The socket stays open while QEMU runs: QEMU drops the
 * commands it has not run yet when it closes. The firmware then boots with
 * the configuration just written. */
static int resume_spare(qemu_backend_t *q) {
  static const char cmds[] = "{\"execute\":\"qmp_capabilities\"}\n{\"execute\":\"cont\"}\n";
  q->paused = 0;
  ssize_t n = send(q->qmp, cmds, sizeof cmds - 1, MSG_NOSIGNAL);
  if (n != (ssize_t)sizeof cmds - 1)
    return rvhal_error(RVHAL_DEVICE_LOST, "resuming the warm QEMU: %s; it said: %s", n < 0 ? strerror(errno) : "short write",
                       qemu_diagnostics(&q->base));
  return RVHAL_OK;
}

static int qemu_start(rvhal_backend_t *base) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  if (q->paused && q->pid > 0) return resume_spare(q);
  int sv[2], qv[2] = {-1, -1};
  if (q->paused && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, qv) < 0)
    return rvhal_error(RVHAL_HOST_IO, "socketpair: %s", strerror(errno));
  q->qmp_child = qv[1];
  int gv[2] = {-1, -1};
  if (q->cfg.gdbstub && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, gv) < 0) {
    int e = errno;
    if (qv[0] >= 0) close(qv[0]), close(qv[1]);
    q->qmp_child = -1;
    return rvhal_error(RVHAL_HOST_IO, "socketpair: %s", strerror(e));
  }
  q->gdb_child = gv[1];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
    int e = errno;
    if (qv[0] >= 0) close(qv[0]), close(qv[1]);
    if (gv[0] >= 0) close(gv[0]), close(gv[1]);
    q->gdb_child = -1;
    q->qmp_child = -1;
    return rvhal_error(RVHAL_HOST_IO, "socketpair: %s", strerror(e));
  }
  if (ftruncate(q->log_fd, 0) < 0) {
  }
  qemu_argv_t argv;
  int rc = build_argv(q, sv[1], &argv);
  if (rc) {
    close(sv[0]);
    close(sv[1]);
    if (qv[0] >= 0) close(qv[0]), close(qv[1]);
    if (gv[0] >= 0) close(gv[0]), close(gv[1]);
    q->gdb_child = q->qmp_child = -1;
    return rc;
  }
  int e;
  pid_t pid = spawn_qemu(q, &argv, sv[1], &e);
  q->qmp_child = q->gdb_child = -1;
  if (qv[1] >= 0) close(qv[1]);
  if (gv[1] >= 0) close(gv[1]);
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    if (qv[0] >= 0) close(qv[0]);
    if (gv[0] >= 0) close(gv[0]);
    return rvhal_error(RVHAL_HOST_IO, "starting QEMU: %s", strerror(e));
  }
  close(sv[1]);
  q->qmp = qv[0];
  q->gdb_sock = gv[0];
  q->sock = sv[0];
  q->pid = pid;
  return RVHAL_OK;
}

static int qemu_doorbell(rvhal_backend_t *base) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  if (q->board.doorbell_polled) return RVHAL_OK; /* the firmware looks at the ring on its own */
  for (;;) {
    ssize_t n = send(q->sock, "d", 1, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n == 1) return RVHAL_OK;
    if (n < 0 && errno == EINTR) continue;
    /* A full socket already holds doorbells the device has not read. */
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return RVHAL_OK;
    return rvhal_error(RVHAL_DEVICE_LOST, "device doorbell: %s; QEMU said: %s", strerror(errno),
                       qemu_diagnostics(base));
  }
}

static int qemu_wait(rvhal_backend_t *base, int timeout_ms) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  struct pollfd p = {.fd = q->sock, .events = POLLIN};
  int rc;
  do rc = poll(&p, 1, timeout_ms);
  while (rc < 0 && errno == EINTR);
  if (rc < 0) return rvhal_error(RVHAL_HOST_IO, "poll: %s", strerror(errno));
  if (rc == 0) {
    /* quiet: make sure QEMU is still there */
    int status;
    if (waitpid(q->pid, &status, WNOHANG) == q->pid) {
      q->pid = 0;
      return rvhal_error(RVHAL_DEVICE_LOST, "QEMU exited (%s %d); it said: %s",
                         WIFSIGNALED(status) ? "signal" : "status",
                         WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), qemu_diagnostics(base));
    }
    return RVHAL_OK;
  }
  char buf[256];
  for (;;) {
    ssize_t n = recv(q->sock, buf, sizeof buf, MSG_DONTWAIT);
    if (n > 0 && (size_t)n < sizeof buf) return RVHAL_OK; /* all there was: no second call to hear EAGAIN */
    if (n > 0) continue;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return RVHAL_OK;
    break; /* 0: QEMU closed the UART, i.e. exited */
  }
  int status = 0;
  if (q->pid > 0 && waitpid(q->pid, &status, 0) == q->pid) q->pid = 0;
  return rvhal_error(RVHAL_DEVICE_LOST, "QEMU exited (%s %d); it said: %s", WIFSIGNALED(status) ? "signal" : "status",
                     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), qemu_diagnostics(base));
}

static long qemu_process_id(rvhal_backend_t *base) { return ((qemu_backend_t *)base)->pid; }

int rvhal_qemu_backend_gdb_socket(rvhal_backend_t *base) { return ((qemu_backend_t *)base)->gdb_sock; }

/* Placement. Hart 0 takes launches from the ring while the host spins on
 * the completion (launch.c): on different CPUs a launch is a round trip
 * through shared memory; on one CPU the spin only delays the hart, and a
 * hart lingering after a launch keeps the host from submitting the next
 * until the linger ends (500 us). So hart 0's host thread (or the one
 * thread running every hart, in exact timing) may run anywhere but on the
 * CPU of the thread waiting for launches: launch.c calls qemu_place when
 * that thread is on another CPU than last time: on 2 cores an empty launch
 * took an order of magnitude longer with the two together
 * (docs/performance.md, "Figures behind the code's choices"). The host's
 * own threads are never pinned. RVHAL_NO_PLACEMENT=1 turns it off. */
static void qemu_place(rvhal_backend_t *base, int cpu) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  const char *off = getenv("RVHAL_NO_PLACEMENT");
  cpu_set_t cpus;
  if ((off && *off && strcmp(off, "0")) || cpu < 0 || q->pid <= 0 || sched_getaffinity(q->pid, sizeof cpus, &cpus))
    return;
  CPU_CLR(cpu, &cpus);
  if (CPU_COUNT(&cpus) == 0) return;
  if (q->hart0_tid <= 0) {
    char name[32], path[96], comm[32];
    snprintf(name, sizeof name, q->cfg.exact_timing ? "ALL CPUs/TCG" : "CPU %u/TCG", q->board.first_hart);
    snprintf(path, sizeof path, "/proc/%d/task", (int)q->pid);
    DIR *dir = opendir(path);
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
      snprintf(path, sizeof path, "/proc/%d/task/%.20s/comm", (int)q->pid, e->d_name);
      FILE *f = fopen(path, "r");
      if (!f) continue;
      if (fgets(comm, sizeof comm, f) && !strncmp(comm, name, strlen(name)) && comm[strlen(name)] == '\n')
        q->hart0_tid = (pid_t)atoi(e->d_name);
      fclose(f);
    }
    if (dir) closedir(dir);
  }
  if (q->hart0_tid > 0) sched_setaffinity(q->hart0_tid, sizeof cpus, &cpus); /* best effort */
}

static void make_spare(const qemu_backend_t *like);

static void qemu_booted(rvhal_backend_t *base) {
  qemu_backend_t *q = (qemu_backend_t *)base;
  q->hart0_tid = 0; /* a new QEMU process */
  if (q->make_spare) {
    q->make_spare = 0;
    make_spare(q);
  }
}

static const rvhal_backend_vtable_t qemu_vtable = {
    .destroy = qemu_destroy,
    .start = qemu_start,
    .stop = qemu_stop,
    .doorbell = qemu_doorbell,
    .wait = qemu_wait,
    .diagnostics = qemu_diagnostics,
    .process_id = qemu_process_id,
    .booted = qemu_booted,
    .place = qemu_place,
};

/* The full path of a program: itself if it contains a slash, else the first
 * executable match on PATH. NULL if there is none (caller frees). */
static char *resolve_program(const char *name) {
  if (strchr(name, '/')) return access(name, X_OK) == 0 ? strdup(name) : NULL;
  const char *path = getenv("PATH");
  char buf[4096];
  while (path && *path) {
    size_t len = strcspn(path, ":");
    if (len && len + strlen(name) + 2 < sizeof buf) {
      memcpy(buf, path, len);
      buf[len] = '/';
      strcpy(buf + len + 1, name);
      if (access(buf, X_OK) == 0) return strdup(buf);
    }
    path += len + (path[len] == ':');
  }
  return NULL;
}

static int backend_new(const rvhal_qemu_config_t *cfg, rvhal_backend_t **out_backend) {
  char *qemu = resolve_program(cfg->qemu_path);
  if (!qemu)
    return rvhal_error(RVHAL_MISSING_TOOL, "%s not found: install the Debian package qemu-system-misc "
                       "(scripts/setup.sh does), or set RVHAL_QEMU", cfg->qemu_path);
  if (access(cfg->firmware_path, R_OK) != 0) {
    int e = errno;
    free(qemu);
    return rvhal_error(RVHAL_NOT_FOUND, "firmware %s: %s (build the project, or set RVHAL_FIRMWARE_DIR)",
                       cfg->firmware_path, strerror(e));
  }
  qemu_backend_t *q = calloc(1, sizeof *q);
  if (!q) {
    free(qemu);
    return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  }
  q->base.vtable = &qemu_vtable;
  q->cfg = *cfg;
  q->ram_fd = q->log_fd = q->sock = q->qmp = q->qmp_child = q->gdb_sock = q->gdb_child = q->dtb_fd = -1;
  q->qemu_path = qemu;
  q->firmware_path = strdup(cfg->firmware_path);
  q->board = *cfg->board;
  q->qemu_ram = cfg->ram_size > cfg->board->qemu_min_ram ? cfg->ram_size : cfg->board->qemu_min_ram;
  if (q->board.qemu_dtb_empty) { /* without it (no memfd) QEMU builds its own: slower, no different */
    pthread_once(&empty_dtb_once, make_empty_dtb);
    q->dtb_fd = empty_dtb_fd;
  }
  if (cfg->plugin_path) q->plugin_path = strdup(cfg->plugin_path);
  int rc = RVHAL_OK;
  if (!q->qemu_path || !q->firmware_path || (cfg->plugin_path && !q->plugin_path)) {
    rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
    goto fail;
  }
  /* The configuration's strings are the caller's: keep pointers to ours. */
  q->cfg.qemu_path = q->qemu_path;
  q->cfg.firmware_path = q->firmware_path;
  q->cfg.board = &q->board;
  q->cfg.plugin_path = q->plugin_path;
  q->log_fd = memfd_create("rvhal-qemu-log", MFD_CLOEXEC);
  if (cfg->gdbstub && q->log_fd >= 0) { /* RAM private to QEMU: the caller keeps a mirror */
    q->base.ram_base = cfg->ram_base;
    q->base.ram_size = cfg->ram_size;
    *out_backend = &q->base;
    return RVHAL_OK;
  }
  q->ram_fd = memfd_create("rvhal-ram", MFD_CLOEXEC);
  if (q->ram_fd < 0 || q->log_fd < 0) {
    rc = rvhal_error(RVHAL_HOST_IO, "memfd_create: %s", strerror(errno));
    goto fail;
  }
  /* All of QEMU's RAM (sparse: untouched pages cost nothing), of which the
   * host maps the device's window. */
  if (ftruncate(q->ram_fd, (off_t)q->qemu_ram) < 0) {
    rc = rvhal_error(RVHAL_HOST_IO, "sizing guest RAM to %llu bytes: %s", (unsigned long long)q->qemu_ram,
                     strerror(errno));
    goto fail;
  }
  void *ram = mmap(NULL, cfg->ram_size, PROT_READ | PROT_WRITE, MAP_SHARED, q->ram_fd, 0);
  if (ram == MAP_FAILED) {
    rc = rvhal_error(RVHAL_HOST_IO, "mapping guest RAM: %s", strerror(errno));
    goto fail;
  }
  q->base.ram = ram;
  q->base.ram_zero = 1;
  q->base.ram_base = cfg->ram_base;
  q->base.ram_size = cfg->ram_size;
  *out_backend = &q->base;
  return RVHAL_OK;
fail:
  qemu_destroy(&q->base);
  return rc;
}

/* ---- warm start (see the top) ---- */

static pthread_mutex_t spare_mu = PTHREAD_MUTEX_INITIALIZER;
static qemu_backend_t *spare;           /* paused, ready for a device with its configuration */
static char last_key[4400];            /* configuration of the last device created */

/* The configuration as one string: devices with equal keys can share a spare. */
static void config_key(const rvhal_qemu_config_t *c, char *buf, size_t cap) {
  snprintf(buf, cap, "%s|%s|%s|%s|%u|%llx|%llx|%d|%llx|%u", c->qemu_path, c->firmware_path, c->board->name,
           c->plugin_path ? c->plugin_path : "", c->num_harts, (unsigned long long)c->ram_base,
           (unsigned long long)c->ram_size, c->exact_timing, (unsigned long long)c->plugin_offset, c->vlen);
}

static int spare_alive(qemu_backend_t *s) {
  if (s->pid > 0 && waitpid(s->pid, NULL, WNOHANG) == s->pid) s->pid = 0; /* reaped: never signal it again */
  return s->pid > 0;
}

int rvhal_qemu_backend_create(const rvhal_qemu_config_t *cfg, rvhal_backend_t **out_backend) {
  const char *off = getenv("RVHAL_NO_WARM_QEMU");
  if ((off && *off && strcmp(off, "0")) || cfg->gdbstub) return backend_new(cfg, out_backend);
  char key[sizeof last_key];
  config_key(cfg, key, sizeof key);
  pthread_mutex_lock(&spare_mu);
  qemu_backend_t *mine = NULL;
  int again = !strcmp(key, last_key);
  if (spare && !strcmp(spare->key, key) && spare_alive(spare)) {
    mine = spare; /* RAM fresh, firmware loaded, nothing ran */
  } else if (spare) {
    qemu_destroy(&spare->base);
  }
  spare = NULL;
  snprintf(last_key, sizeof last_key, "%s", key);
  pthread_mutex_unlock(&spare_mu);
  int rc = RVHAL_OK;
  if (mine) *out_backend = &mine->base;
  else rc = backend_new(cfg, out_backend);
  if (rc != RVHAL_OK) return rc;
  qemu_backend_t *q = (qemu_backend_t *)*out_backend;
  if (!q->key && !(q->key = strdup(key))) return RVHAL_OK; /* no warm start then */
  /* A second device like the last: keep one ready for the next, started
   * once this one is up (qemu_booted), so the two do not compete for CPU. */
  q->make_spare = again;
  return RVHAL_OK;
}

static void make_spare(const qemu_backend_t *like) {
  rvhal_backend_t *b;
  if (backend_new(&like->cfg, &b) != RVHAL_OK) {
    rvhal_clear_error(); /* a spare that failed only costs the next device its warm start */
    return;
  }
  qemu_backend_t *s = (qemu_backend_t *)b;
  s->paused = 1;
  if (!(s->key = strdup(like->key)) || qemu_start(b) != RVHAL_OK) {
    qemu_destroy(b);
    rvhal_clear_error();
    return;
  }
  pthread_mutex_lock(&spare_mu);
  qemu_backend_t *old = spare;
  spare = s;
  pthread_mutex_unlock(&spare_mu);
  if (old) qemu_destroy(&old->base);
}

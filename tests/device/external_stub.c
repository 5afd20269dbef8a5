/* external_stub MODE TEST [ARGS...]: the GDB-remote backend attached to a
 * stub rvhal did not start. This program starts a QEMU of its own, as a
 * separate process, halted (-S) with a gdbstub on a loopback listener:
 *   tcp    -gdb tcp:127.0.0.1:PORT              RVHAL_GDB_REMOTE=127.0.0.1:PORT
 *   unix   a unix socket in a private directory  RVHAL_GDB_REMOTE=unix:PATH
 *   proxy  tcp, through a proxy here that holds every chunk DELAY_US (2 ms)
 *          in each direction (a slow link: a JTAG host across a network);
 *          with RVHAL_TEST_PROXY_TURN_AWAY=N it first accepts and at once
 *          closes N connections, as OpenOCD turns a debugger away before
 *          it has seen the last one end
 *   pty    tcp, and the UART as a pty (-serial pty): RVHAL_UART=/dev/pts/N
 *          wakes the host (a board's serial port beside its probe)
 *   pair   tcp, two QEMUs: RVHAL_GDB_REMOTE=ADDR1,ADDR2 (a stub each for a
 *          test that holds two devices at once)
 *   sbi    tcp, board qemu-virt-sbi: S-mode firmware under OpenSBI. QEMU
 *          gets the board's boot arguments (-bios its OpenSBI, -kernel the
 *          image), as a board's own boot flow; rvhal resets it, writes the
 *          image again and lets OpenSBI start it (debug_start "reset")
 *   sifive-u, icicle-kit, spike   tcp, that board's machine (-bios none, no
 *          -kernel: the image comes through the protocol only)
 *   spike-pmp  tcp, qemu-virt whose harts' PMP entry 0 this program first
 *          sets as Spike resets it (NAPOT RWX over all memory), which QEMU's
 *          reset keeps: firmware assuming PMP entries reset to off is caught
 *   misfit-rv32, misfit-ram, misfit-nosbi   targets the device does not fit
 *          (a 32-bit QEMU, 64 MiB of RAM, no OpenSBI): TEST is
 *          attach_refused, which expects creation refused with the cause
 * then runs TEST with that environment (every device it creates attaches
 * to this one QEMU, resets it and loads the firmware through the protocol),
 * and passes only if TEST passes and QEMU is still running after TEST's
 * devices detached. Then it kills its QEMU. Each mode has its device
 * (targets[] below), which it sets as RVHAL_TEST_DEVICE; -smp counts
 * first_hart + max_harts (first_hart + RVHAL_TEST_HARTS where that is set)
 * so that any team a test asks for exists. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rvhal/rvhal.h"

static int free_port(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || getsockname(fd, (struct sockaddr *)&a, &len)) {
    perror("external_stub: finding a free port");
    exit(2);
  }
  close(fd);
  return ntohs(a.sin_port);
}

static int listen_loopback(int *out_port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) || listen(fd, 4) ||
      getsockname(fd, (struct sockaddr *)&a, &len)) {
    perror("external_stub: proxy listener");
    exit(2);
  }
  *out_port = ntohs(a.sin_port);
  return fd;
}

/* ---- the delaying proxy: one connection at a time, in order ---- */

static int qemu_port, proxy_delay_us = 2000, proxy_turn_away;

static int connect_qemu(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)qemu_port),
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) {
    perror("external_stub proxy: connecting to QEMU");
    if (fd >= 0) close(fd);
    return -1;
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

static void *proxy_main(void *arg) {
  int lfd = *(int *)arg;
  for (;;) {
    int c = accept(lfd, NULL, NULL);
    if (c < 0) continue;
    if (proxy_turn_away > 0) {
      proxy_turn_away--;
      close(c);
      continue;
    }
    int one = 1;
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int q = connect_qemu();
    struct pollfd p[2] = {{.fd = c, .events = POLLIN}, {.fd = q, .events = POLLIN}};
    char buf[8192];
    while (q >= 0 && poll(p, 2, -1) > 0) {
      int from = (p[0].revents & (POLLIN | POLLHUP)) ? 0 : 1;
      ssize_t n = read(p[from].fd, buf, sizeof buf);
      if (n <= 0) break;
      struct timespec d = {0, proxy_delay_us * 1000L};
      nanosleep(&d, NULL);
      if (write(p[1 - from].fd, buf, (size_t)n) != n) break;
    }
    close(c);
    if (q >= 0) close(q);
  }
  return NULL;
}

/* ---- QEMU ---- */

static pid_t start_qemu(char **argv, int *out_err_fd) {
  int pipefd[2];
  if (pipe(pipefd)) exit(2);
  pid_t parent = getpid(), pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(pipefd[1], 2);
    dup2(pipefd[1], 1);
    close(pipefd[0]);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(pipefd[1]);
  *out_err_fd = pipefd[0];
  return pid;
}

/* Reads QEMU's output until "char device redirected to /dev/pts/N". */
static int find_pty(int fd, char *path, size_t cap) {
  char buf[4096];
  size_t len = 0;
  for (int tries = 0; tries < 100 && len < sizeof buf - 1; tries++) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, 100) <= 0) continue;
    ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
    if (n <= 0) break;
    len += (size_t)n;
    buf[len] = '\0';
    const char *at = strstr(buf, "redirected to ");
    if (at && strchr(at, ' ' ) && strstr(at, " (label")) {
      at += strlen("redirected to ");
      size_t l = strcspn(at, " ");
      if (l >= cap) return -1;
      memcpy(path, at, l);
      path[l] = '\0';
      return 0;
    }
  }
  fprintf(stderr, "external_stub: QEMU named no pty; it said: %.*s\n", (int)len, buf);
  return -1;
}

/* ---- a few GDB packets of our own (spike-pmp) ---- */

static void rsp_send(int fd, const char *payload) {
  char buf[512];
  unsigned sum = 0;
  for (const char *p = payload; *p; p++) sum += (unsigned char)*p;
  int n = snprintf(buf, sizeof buf, "$%s#%02x", payload, sum & 0xff);
  if (write(fd, buf, (size_t)n) != n) exit(2);
}

/* The next packet's payload (acknowledged), NUL-terminated; a stop reply
 * QEMU sends on connect comes first and is skipped by the caller. */
static void rsp_recv(int fd, char *out, size_t cap) {
  size_t o = 0;
  int in = 0;
  for (;;) {
    char c;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    if (poll(&p, 1, 10000) <= 0 || read(fd, &c, 1) != 1) {
      fprintf(stderr, "external_stub: no reply from QEMU's gdbstub\n");
      exit(2);
    }
    if (!in) {
      in = c == '$';
      continue;
    }
    if (c == '#') {
      char cs[2];
      if (read(fd, cs, 2) != 2 || write(fd, "+", 1) != 1) exit(2);
      out[o] = '\0';
      return;
    }
    if (o + 1 < cap) out[o++] = c;
  }
}

static void rsp_request(int fd, const char *payload, char *out, size_t cap) {
  rsp_send(fd, payload);
  do rsp_recv(fd, out, cap);
  while (out[0] == 'T' && strncmp(payload, "?", 1)); /* stray stop replies */
}

/* The regnum QEMU's description gives CSR `name` (riscv-csr.xml). */
static unsigned csr_regnum(int fd, const char *name) {
  static char xml[1 << 18];
  size_t len = 0;
  static char part[8192];
  for (;;) {
    char req[96];
    snprintf(req, sizeof req, "qXfer:features:read:riscv-csr.xml:%zx,%x", len, 4000);
    rsp_request(fd, req, part, sizeof part);
    size_t n = strlen(part + 1);
    if ((part[0] != 'm' && part[0] != 'l') || len + n >= sizeof xml) exit(2);
    memcpy(xml + len, part + 1, n);
    len += n;
    xml[len] = '\0';
    if (part[0] == 'l') break;
  }
  char key[64];
  snprintf(key, sizeof key, "name=\"%s\"", name);
  const char *at = strstr(xml, key), *rn = at ? strstr(at, "regnum=\"") : NULL;
  if (!rn) {
    fprintf(stderr, "external_stub: QEMU describes no %s\n", name);
    exit(2);
  }
  return (unsigned)atoi(rn + 8);
}

/* Every hart's PMP entry 0 as Spike resets it: NAPOT over all memory, RWX
 * (pmpcfg0 0x1f, pmpaddr0 all ones). */
static void seed_spike_pmp(int port, unsigned harts) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                          .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a)) exit(2);
  char reply[8192];
  rsp_request(fd, "qSupported:multiprocess-", reply, sizeof reply);
  unsigned cfg = csr_regnum(fd, "pmpcfg0"), addr = csr_regnum(fd, "pmpaddr0");
  for (unsigned t = 1; t <= harts; t++) {
    char req[64];
    snprintf(req, sizeof req, "Hg%x", t);
    rsp_request(fd, req, reply, sizeof reply);
    snprintf(req, sizeof req, "P%x=ffffffffffffff3f", addr); /* little-endian: 0x3fffffffffffffff */
    rsp_request(fd, req, reply, sizeof reply);
    snprintf(req, sizeof req, "P%x=1f00000000000000", cfg);
    rsp_request(fd, req, reply, sizeof reply);
    snprintf(req, sizeof req, "p%x", cfg);
    rsp_request(fd, req, reply, sizeof reply);
    if (strncmp(reply, "1f00", 4)) {
      fprintf(stderr, "external_stub: spike-pmp: hart %u's pmpcfg0 reads '%s' after writing 0x1f\n", t - 1, reply);
      exit(2);
    }
  }
  rsp_request(fd, "D", reply, sizeof reply);
  close(fd);
}

/* A string value of the device's board descriptor ("key \"value\"" or
 * "key value"), "" if absent. */
static void board_value(const char *device, const char *key, char *out, size_t cap) {
  char path[700], line[700], k[64], v[500];
  const char *fwdir = rvhal_firmware_dir(strstr(device, "-rv32") ? 32 : 64);
  snprintf(path, sizeof path, "%s/rvhal-fw-%s.board", fwdir ? fwdir : ".", device);
  out[0] = '\0';
  FILE *f = fopen(path, "r");
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "%63s \"%499[^\"]\"", k, v) == 2 || sscanf(line, "%63s %499s", k, v) == 2)
      if (!strcmp(k, key)) {
        snprintf(out, cap, "%s", v);
        break;
      }
  if (f) fclose(f);
}

/* What each mode starts: the device under test, and how its QEMU differs
 * from the board's machine with -bios none, -smp first_hart + max_harts,
 * -m its RAM + 64 MiB. The misfits are targets a device must be refused
 * on, at once and with the cause (run with attach_refused). */
typedef struct {
  const char *mode, *device;
  const char *qemu;      /* NULL: qemu-system-riscv64 ($RVHAL_QEMU) */
  int sbi;               /* -bios the board's OpenSBI, -kernel its image */
  const char *mem;       /* -m, NULL: the device's RAM + 64 MiB (at least the board's qemu_min_ram) */
} stub_target_t;

static const stub_target_t targets[] = {
    {"tcp", "qemu-virt-rv64", NULL, 0, NULL},
    {"unix", "qemu-virt-rv64", NULL, 0, NULL},
    {"proxy", "qemu-virt-rv64", NULL, 0, NULL},
    {"pty", "qemu-virt-rv64", NULL, 0, NULL},
    {"pair", "qemu-virt-rv64", NULL, 0, NULL},
    {"sbi", "qemu-virt-sbi-rv64", NULL, 1, NULL},
    /* the other machines: CPU clusters (sifive_u, icicle: the E51, then
     * the U54s), a machine without a UART and, without -kernel, without
     * HTIF (spike) */
    {"sifive-u", "sifive-u-rv64", NULL, 0, NULL},
    {"icicle-kit", "icicle-kit-rv64", NULL, 0, NULL},
    {"spike", "spike-rv64", NULL, 0, NULL},
    /* qemu-virt with PMP as Spike resets it (entry 0 NAPOT RWX over all
     * memory, not off): QEMU 7.2's system_reset keeps PMP, so what this
     * program writes before the test is what rvhal's reset leaves */
    {"spike-pmp", "qemu-virt-rv64", NULL, 0, NULL},
    /* misfits: a 32-bit QEMU for a 64-bit device, too little RAM, an
     * S-mode board's target without its OpenSBI */
    {"misfit-rv32", "qemu-virt-rv64", "qemu-system-riscv32", 0, NULL},
    {"misfit-ram", "qemu-virt-rv64", NULL, 0, "64M"},
    {"misfit-nosbi", "qemu-virt-sbi-rv64", NULL, 0, NULL},
};

int main(int argc, char **argv) {
  const stub_target_t *tg = NULL;
  for (size_t i = 0; argc >= 3 && i < sizeof targets / sizeof *targets; i++)
    if (!strcmp(argv[1], targets[i].mode)) tg = &targets[i];
  if (!tg) {
    fprintf(stderr, "usage: external_stub MODE TEST [ARGS...]; MODE:");
    for (size_t i = 0; i < sizeof targets / sizeof *targets; i++) fprintf(stderr, " %s", targets[i].mode);
    fprintf(stderr, "\n");
    return 2;
  }
  const char *mode = tg->mode;
  const rvhal_device_info_t *di;
  uint32_t index = 0;
  if (rvhal_platform_find_device(tg->device, &index) || rvhal_platform_device_info(index, &di)) {
    fprintf(stderr, "external_stub: %s: no device %s: %s\n", mode, tg->device, rvhal_last_error());
    return 2;
  }
  const char *dev = getenv("RVHAL_TEST_DEVICE");
  if (dev && *dev && strcmp(dev, "0") && strcmp(dev, tg->device)) {
    fprintf(stderr, "external_stub: %s: the device under test is %s (RVHAL_TEST_DEVICE=%s)\n", mode, tg->device, dev);
    return 2;
  }
  char idx[16];
  snprintf(idx, sizeof idx, "%u", index);
  setenv("RVHAL_TEST_DEVICE", idx, 1);
  static char machine[64], bios[512], image[600], min_ram[32], first_hart[16];
  board_value(tg->device, "qemu_machine", machine, sizeof machine);
  board_value(tg->device, "first_hart", first_hart, sizeof first_hart);
  board_value(tg->device, "qemu_min_ram", min_ram, sizeof min_ram);
  const char *fwdir = rvhal_firmware_dir(di->word_size * 8);
  snprintf(image, sizeof image, "%s/rvhal-fw-%s.elf", fwdir ? fwdir : ".", tg->device);
  if (tg->sbi) {
    board_value(tg->device, "qemu_bios", bios, sizeof bios);
    if (!bios[0]) {
      fprintf(stderr, "external_stub: %s: no qemu_bios in %s's descriptor\n", mode, tg->device);
      return 2;
    }
  }
  const char *delay = getenv("RVHAL_TEST_PROXY_DELAY_US");
  if (delay && *delay) proxy_delay_us = atoi(delay);
  const char *away = getenv("RVHAL_TEST_PROXY_TURN_AWAY");
  if (away && *away) proxy_turn_away = atoi(away);
  char smp[16], mem[32], gdb[300], remote[300], dir[] = "/tmp/rvhal-stub-XXXXXX";
  /* RVHAL_TEST_HARTS: a target of that many harts (Spike's -p) */
  const char *test_harts = getenv("RVHAL_TEST_HARTS");
  unsigned harts = test_harts && *test_harts ? (unsigned)atoi(test_harts) : di->max_harts;
  snprintf(smp, sizeof smp, "%u", (unsigned)atoi(first_hart) + harts);
  unsigned long long mib = (unsigned long long)(di->ram_size >> 20) + 64, min_mib = strtoull(min_ram, NULL, 0) >> 20;
  snprintf(mem, sizeof mem, "%lluM", tg->mem ? 0 : mib > min_mib ? mib : min_mib);
  if (tg->mem) snprintf(mem, sizeof mem, "%s", tg->mem);
  const char *qemu = tg->qemu ? tg->qemu
                              : getenv("RVHAL_QEMU") && *getenv("RVHAL_QEMU") ? getenv("RVHAL_QEMU") : "qemu-system-riscv64";
  char *qargv[40];
  int n = 0;
  qargv[n++] = (char *)qemu;
  char *fixed[] = {"-nodefaults", "-no-user-config", "-nographic", "-monitor", "none", "-machine", machine, "-S"};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) qargv[n++] = fixed[i];
  qargv[n++] = "-bios";
  qargv[n++] = tg->sbi ? bios : "none";
  if (tg->sbi) {
    qargv[n++] = "-kernel";
    qargv[n++] = image;
  }
  qargv[n++] = "-smp";
  qargv[n++] = smp;
  qargv[n++] = "-m";
  qargv[n++] = mem;
  qargv[n++] = "-serial";
  qargv[n++] = !strcmp(mode, "pty") ? "pty" : "none";
  if (!strcmp(mode, "unix")) {
    if (!mkdtemp(dir)) return 2;
    static char chardev[300];
    snprintf(chardev, sizeof chardev, "socket,id=g,path=%s/gdb.sock,server=on,wait=off", dir);
    snprintf(remote, sizeof remote, "unix:%s/gdb.sock", dir);
    qargv[n++] = "-chardev";
    qargv[n++] = chardev;
    qargv[n++] = "-gdb";
    qargv[n++] = "chardev:g";
  } else {
    qemu_port = free_port();
    snprintf(gdb, sizeof gdb, "tcp:127.0.0.1:%d", qemu_port);
    snprintf(remote, sizeof remote, "127.0.0.1:%d", qemu_port);
    qargv[n++] = "-gdb";
    qargv[n++] = gdb;
  }
  qargv[n] = NULL;
  int qout;
  pid_t qpid = start_qemu(qargv, &qout), qpid2 = 0;
  int port2 = 0;
  if (!strcmp(mode, "pair")) { /* the same machine on a second port */
    static char gdb2[300];
    port2 = free_port();
    snprintf(gdb2, sizeof gdb2, "tcp:127.0.0.1:%d", port2);
    qargv[n - 1] = gdb2;
    int qout2;
    qpid2 = start_qemu(qargv, &qout2);
    size_t l = strlen(remote);
    snprintf(remote + l, sizeof remote - l, ",127.0.0.1:%d", port2);
  }
  char pty[128] = "";
  if (!strcmp(mode, "pty") && find_pty(qout, pty, sizeof pty)) {
    kill(qpid, SIGKILL);
    return 1;
  }
  if (!strcmp(mode, "proxy")) {
    int port, lfd = listen_loopback(&port);
    static int proxy_fd;
    proxy_fd = lfd;
    pthread_t t;
    pthread_create(&t, NULL, proxy_main, &proxy_fd);
    snprintf(remote, sizeof remote, "127.0.0.1:%d", port);
  }
  /* QEMU listens once it has started: wait for that (up to 10 s) */
  for (int i = 0; port2 && i < 200; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port2),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    if (ok) break;
    struct timespec d = {0, 50000000};
    nanosleep(&d, NULL);
  }
  for (int i = 0; i < 200; i++) {
    struct stat st;
    if (!strcmp(mode, "unix") ? stat(remote + 5, &st) == 0 : 1) {
      if (strcmp(mode, "unix")) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)qemu_port),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
        close(fd);
        if (ok) break;
      } else {
        break;
      }
    }
    struct timespec d = {0, 50000000};
    nanosleep(&d, NULL);
  }
  if (!strcmp(mode, "spike-pmp")) seed_spike_pmp(qemu_port, (unsigned)atoi(smp));
  setenv("RVHAL_GDB_REMOTE", remote, 1);
  setenv("RVHAL_BACKEND", "gdb", 1); /* what the tests look at to expect a device they cannot map */
  if (pty[0]) setenv("RVHAL_UART", pty, 1);
  fprintf(stderr, "external_stub: %s (%s -machine %s -smp %s -m %s), pid %d, RVHAL_GDB_REMOTE=%s%s%s\n", tg->device, qemu,
          machine, smp, mem, (int)qpid, remote, pty[0] ? " RVHAL_UART=" : "", pty);
  pid_t tpid = fork();
  if (tpid == 0) {
    execv(argv[2], argv + 2);
    perror("external_stub: running the test");
    _exit(127);
  }
  int status = 0;
  while (waitpid(tpid, &status, 0) < 0 && errno == EINTR) {
  }
  int test_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  int alive = waitpid(qpid, NULL, WNOHANG) == 0 && (!qpid2 || waitpid(qpid2, NULL, WNOHANG) == 0);
  /* a QEMU left running must also still answer its gdbstub */
  printf("external_stub: %s %s; QEMU %s after the test detached\n", argv[2], test_ok ? "passed" : "FAILED",
         alive ? "still running" : "NOT running");
  kill(qpid, SIGKILL);
  while (waitpid(qpid, NULL, 0) < 0 && errno == EINTR) {
  }
  if (qpid2) {
    kill(qpid2, SIGKILL);
    while (waitpid(qpid2, NULL, 0) < 0 && errno == EINTR) {
    }
  }
  if (!strcmp(mode, "unix")) {
    char sock[320];
    snprintf(sock, sizeof sock, "%s/gdb.sock", dir);
    unlink(sock);
    rmdir(dir);
  }
  return test_ok && alive ? 0 : 1;
}

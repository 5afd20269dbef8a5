/* The GDB-remote backend: the device reached the way a JTAG probe reaches a
 * board, through the GDB remote serial protocol (gdb_rsp.c). Here the stub
 * is QEMU's gdbstub on a socketpair (no TCP, no file); on a board it would
 * be OpenOCD's (docs/porting.md).
 *
 * Nothing relies on shared memory: guest RAM is private to QEMU, and `ram`
 * is a mirror the core keeps in step (backend.h: flush after it writes,
 * invalidate before it reads). The protocol is all-stop: memory access
 * needs the target halted, so an access halts it (\x03, stop reply) and
 * leaves it halted; the next wait or doorbell resumes it (c). A burst of
 * accesses (a launch's submission) costs one halt. A thread in wait lets
 * the others' accesses resume at once.
 *
 * The doorbell goes through the protocol too, where the board says how
 * (descriptor's debug_doorbell: hart 0's MSIP written in the halt of the
 * submission, or its sip.SSIP through p/P). What the protocol does not give, a board gives beside the
 * probe: the UART. The device's wake-up is a byte from it, and so is the
 * doorbell on a board without a debug doorbell (the firmware's RX
 * interrupt), both through qemu_backend.c, which also
 * runs the QEMU process (with cfg->gdbstub: RAM private, -S, -gdb on a
 * socketpair). The firmware is written through the protocol (M packets of
 * its ELF's segments, as gdb's `load` does) while QEMU waits at -S. QEMU is
 * still given the board's boot arguments (-kernel, loader devices, -bios):
 * they wire the machine as the board says (spike's HTIF finds tohost by
 * the image's symbols, OpenSBI jumps to the image's address), so the
 * protocol's write is redundant here; on a board it is the load. Reset is
 * a new QEMU, into which the host's view of memory (every non-zero page of
 * the mirror) is written before the firmware.
 *
 * A stub rvhal did not start (cfg->gdb_remote: "host:port" or "unix:PATH";
 * cfg->gdb_spawn: a command such as OpenOCD with "gdb_port pipe";
 * gdb_link.c) has no QEMU process here (qemu is NULL). There the target is
 * brought to a known state as the board's descriptor says: its debug_reset
 * monitor commands (qRcmd; "system_reset" on QEMU, "reset halt" on
 * OpenOCD), the firmware region written whole (RAM after a reset is not
 * zero), and with debug_start "entry" every hart the stub lists set to the
 * image's entry. The host is woken by the board's UART as a tty (cfg->uart)
 * or finds completions at its polls; the doorbell is the debug doorbell, or
 * a byte to that tty. Deleting the device detaches (D): the target keeps
 * running. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "base/elf_loader.h"
#include "backend/gdb_link.h"
#include "backend/gdb_rsp.h"
#include "backend/gdb_stub_pool.h"
#include "backend/gdb_target_check.h"
#include "backend/uart_tty.h"
#include "base/internal.h"
#include "rvhal/rvhal_protocol.h"

#define RSP_TIMEOUT_MS 10000 /* a small packet's reply; larger ones get more (gdb_rsp.h), $RVHAL_GDB_TIMEOUT_MS */
#define PAGE 4096u
#define POLL_FIRST_US 50u /* the first look after a submission: an empty launch is done by then on QEMU */

typedef struct gdb_backend {
  rvhal_backend_t base;
  rvhal_backend_t *qemu; /* the process, its UART and log */
  rvhal_elf_image_t *fw;
  rvhal_rsp_t *rsp;
  pthread_mutex_t mu; /* one user of the connection at a time */
  int connected;
  int halted;  /* the target is stopped: resume before it must run */
  int waiters; /* threads in gdb_wait: resume right after an access */
  uint64_t flushes, invalidates, resumes;
  uint64_t halt_ns, access_ns; /* time in \x03 until the stop reply, and in m/M (RVHAL_GDB_STATS) */
  uint64_t msip; /* ring by writing 1 there (the board's debug_doorbell, $RVHAL_GDB_DOORBELL); 0: the UART */
  int ssip;      /* ring by setting sip.SSIP of hart 0 (its thread: first_hart + 1) */
  unsigned sip_regnum, hart0_thread; /* from the stub's target description, at each start */
  /* A stub rvhal did not start (qemu NULL): how to reach it, what it runs */
  rvhal_board_desc_t board;
  uint32_t num_harts;
  char *remote, *spawn, *uart_spec, *reset;
  int link_fd, log_fd, uart_fd;
  pid_t stub_pid;
  unsigned threads[RVHAL_MAX_HARTS + 64], num_threads; /* the stub's, in its order: hart id i is threads[i] */
  unsigned pc_regnum, cycle_regnum, instret_regnum;
  int counters_known; /* cycle_regnum and instret_regnum found in this connection */
  /* A stub without a UART wakes no one: the host polls, soon after a
   * submission and then less and less often (each look halts the target). */
  unsigned poll_us;
  uint64_t look_ns; /* the last halted access, halt to resume: polls leave the target 4x that to run */
  int timeout_ms;   /* for a small packet's reply: RSP_TIMEOUT_MS or $RVHAL_GDB_TIMEOUT_MS */
  char diag[1200];
} gdb_backend_t;

static int external(const gdb_backend_t *g) { return g->qemu == NULL; }

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static int resume_locked(gdb_backend_t *g) {
  if (!g->connected || !g->halted) return RVHAL_OK;
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_send(g->rsp, "c"));
  g->halted = 0;
  g->resumes++;
  return RVHAL_OK;
}

static int halt_locked(gdb_backend_t *g) {
  if (!g->connected) return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: the device is not running");
  if (g->halted) return RVHAL_OK;
  uint64_t t0 = now_ns();
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_interrupt(g->rsp));
  g->halt_ns += now_ns() - t0;
  g->halted = 1;
  return RVHAL_OK;
}

/* A stub that serves one debugger at a time (OpenOCD: gdb_max_connections
 * 1) refuses a connection that comes before it has seen the last one end:
 * it accepts and closes it, and a restart's new connection was reset. So
 * the end is ours first (shutdown), then the stub's (EOF): what it still
 * sends is dropped, for at most timeout_ms. */
static void await_close(int fd, int timeout_ms) {
  if (shutdown(fd, SHUT_WR)) return;
  const uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000u;
  char junk[512];
  for (uint64_t t = now_ns(); t < end; t = now_ns()) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int rc = poll(&p, 1, (int)((end - t) / 1000000u) + 1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc <= 0) return;
    ssize_t n = recv(fd, junk, sizeof junk, 0);
    if (n == 0 || (n < 0 && errno != EINTR)) return; /* the stub closed its end */
  }
}

static void stop_external(gdb_backend_t *g) {
  if (g->link_fd >= 0) {
    /* D resumes the target and leaves it running; all-stop stubs (OpenOCD)
     * read packets only while it is halted, so halt it first. A stub that
     * will not answer is left as it is. */
    if (g->connected && (halt_locked(g) || rvhal_rsp_detach(g->rsp))) rvhal_clear_error();
    if (g->remote) await_close(g->link_fd, g->timeout_ms < 2000 ? g->timeout_ms : 2000);
    close(g->link_fd);
    g->link_fd = -1;
  }
  if (g->stub_pid > 0) rvhal_gdb_link_reap(g->stub_pid, 2000);
  g->stub_pid = 0;
  if (g->uart_fd >= 0) close(g->uart_fd);
  g->uart_fd = -1;
}

static void gdb_stop(rvhal_backend_t *base) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  pthread_mutex_lock(&g->mu);
  if (external(g)) stop_external(g);
  g->connected = 0;
  g->halted = 0;
  g->counters_known = 0;
  if (!external(g)) g->qemu->vtable->stop(g->qemu); /* closes the gdbstub's socket too */
  pthread_mutex_unlock(&g->mu);
}

static void gdb_destroy(rvhal_backend_t *base) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  const char *stats = getenv("RVHAL_GDB_STATS");
  if (stats && *stats && strcmp(stats, "0") && g->rsp)
    fprintf(stderr, "rvhal gdb backend: %llu packets, %llu halts, %llu resumes, %llu flushes, %llu invalidates, "
            "%llu bytes written, %llu read; %.1f ms halting, %.1f ms reading and writing\n",
            (unsigned long long)g->rsp->packets, (unsigned long long)g->rsp->halts, (unsigned long long)g->resumes,
            (unsigned long long)g->flushes, (unsigned long long)g->invalidates,
            (unsigned long long)g->rsp->bytes_written, (unsigned long long)g->rsp->bytes_read, g->halt_ns / 1e6,
            g->access_ns / 1e6);
  if (g->qemu) g->qemu->vtable->destroy(g->qemu);
  else if (g->rsp) stop_external(g);
  if (g->log_fd >= 0) close(g->log_fd);
  if (g->remote) rvhal_gdb_stub_release(g->remote);
  free(g->remote);
  free(g->spawn);
  free(g->uart_spec);
  free(g->reset);
  if (g->base.ram) munmap(g->base.ram, g->base.ram_size);
  rvhal_elf_free(g->fw);
  free(g->rsp);
  pthread_mutex_destroy(&g->mu);
  free(g);
}

/* The host's view of memory into a fresh device: the runs of non-zero
 * pages (pages never touched are not even looked at). */
static int upload_mirror(gdb_backend_t *g) {
  const size_t pages = g->base.ram_size / PAGE;
  unsigned char vec[4096];
  static const uint8_t zero[PAGE];
  size_t run = 0, run_len = 0;
  for (size_t at = 0; at < pages; at += sizeof vec) {
    size_t n = pages - at < sizeof vec ? pages - at : sizeof vec;
    int resident = mincore(g->base.ram + at * PAGE, n * PAGE, vec) == 0;
    for (size_t i = 0; i <= n; i++) {
      int dirty = i < n && (!resident || (vec[i] & 1)) && memcmp(g->base.ram + (at + i) * PAGE, zero, PAGE);
      if (dirty) {
        if (!run_len) run = at + i;
        run_len++;
      } else if (run_len && (i < n || at + n == pages)) {
        RVHAL_RETURN_IF_ERROR(rvhal_rsp_write_mem(g->rsp, g->base.ram_base + run * PAGE, g->base.ram + run * PAGE,
                                                  run_len * PAGE));
        run_len = 0;
      }
    }
  }
  return RVHAL_OK;
}

/* How long a stub that turns a new debugger away is asked again: OpenOCD
 * accepts and at once closes a connection that comes before it has seen
 * the last one end (the previous program killed a moment ago, as a
 * timed-out test is); it sees that within a poll of its own. */
#define GDB_TURNED_AWAY_RETRY_MS 3000
#define GDB_TURNED_AWAY_PAUSE_MS 100

/* Connect (or spawn) and shake hands; *out_turned_away: a remote stub
 * took the connection and closed it before answering. */
static int open_stub(gdb_backend_t *g, int *out_turned_away) {
  *out_turned_away = 0;
  int rc = g->spawn ? rvhal_gdb_link_spawn(g->spawn, g->log_fd, &g->link_fd, &g->stub_pid)
                    : rvhal_gdb_link_connect(g->remote, g->timeout_ms, &g->link_fd);
  if (rc) return rc;
  g->rsp->want_multiprocess = 1; /* QEMU lists the harts of its first CPU cluster only without it */
  rc = rvhal_rsp_open(g->rsp, g->link_fd, g->timeout_ms);
  *out_turned_away = rc == RVHAL_DEVICE_LOST && g->remote && !g->spawn;
  return rc;
}

/* A stub rvhal did not start: connect (or spawn it), stop the target, and
 * reset it as the board says; then the harts it lists. */
static int attach_external(gdb_backend_t *g) {
  int turned_away, waited = 0;
  int rc = open_stub(g, &turned_away);
  for (; turned_away && waited < GDB_TURNED_AWAY_RETRY_MS; waited += GDB_TURNED_AWAY_PAUSE_MS) {
    close(g->link_fd);
    g->link_fd = -1;
    struct timespec pause = {0, GDB_TURNED_AWAY_PAUSE_MS * 1000000L};
    nanosleep(&pause, NULL);
    rc = open_stub(g, &turned_away);
  }
  if (turned_away) {
    char why[600];
    snprintf(why, sizeof why, "%s", rvhal_last_error());
    return rvhal_error(rc, "%s (for %d ms of tries the stub at %s closed each connection before answering: does it "
                           "serve another debugger?)", why, waited, g->remote);
  }
  if (rc == RVHAL_TIMEOUT && g->remote) {
    char why[600];
    snprintf(why, sizeof why, "%s", rvhal_last_error());
    return rvhal_error(rc, "%s (a stub serves one debugger at a time: is another device or a gdb attached to %s?)",
                       why, g->remote);
  }
  if (!rc && g->uart_spec) rc = rvhal_uart_tty_open(g->uart_spec, &g->uart_fd);
  if (!rc) rc = rvhal_rsp_request(g->rsp, "?"); /* all-stop: a new connection finds the target stopped */
  if (!rc && g->rsp->reply[0] != 'T' && g->rsp->reply[0] != 'S')
    rc = rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '?' replied '%.40s', not a stop reply (is the target halted?)",
                     g->rsp->reply);
  if (rc) return rc;
  g->connected = 1;
  g->halted = 1;
  /* The board's reset: ';'-separated monitor commands. */
  char cmds[RVHAL_BOARD_STR_MAX], out[512], *save = NULL;
  snprintf(cmds, sizeof cmds, "%s", g->reset ? g->reset : g->board.debug_reset);
  for (char *c = strtok_r(cmds, ";", &save); !rc && c; c = strtok_r(NULL, ";", &save)) {
    while (*c == ' ') c++;
    if (*c) rc = rvhal_rsp_monitor(g->rsp, c, out, sizeof out);
  }
  if (!rc) rc = rvhal_rsp_attach_processes(g->rsp);
  if (!rc) rc = rvhal_rsp_threads(g->rsp, g->threads, sizeof g->threads / sizeof g->threads[0], &g->num_threads);
  if (!rc && g->num_threads < g->board.first_hart + g->num_harts)
    rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "gdbstub: the target has %u harts (threads); board %s needs %u (first_hart "
                     "%u + %u harts of the device)", g->num_threads, g->board.name, g->board.first_hart + g->num_harts,
                     g->board.first_hart, g->num_harts);
  if (!rc) g->hart0_thread = g->threads[g->board.first_hart];
  return rc;
}

/* What the target must be for this device (gdb_target_check.h), with the
 * layout the host wrote into the mirror's boot configuration. */
static int check_target(gdb_backend_t *g) {
  const uint64_t ctrl = g->board.ram_base + g->board.fw_offset + RVHAL_CTRL_OFFSET;
  const rvhal_boot_config_t *boot = (const rvhal_boot_config_t *)(g->base.ram + (ctrl - g->base.ram_base));
  const rvhal_gdb_target_t t = {
      .board = &g->board,
      .num_harts = g->num_harts,
      .threads = g->threads,
      .num_threads = g->num_threads,
      .ram_base = g->base.ram_base,
      .ram_size = g->base.ram_size,
      .boot = boot,
      .msip = g->msip,
      .reset = g->reset ? g->reset : g->board.debug_reset,
  };
  return rvhal_gdb_check_target(g->rsp, &t);
}

/* Every hart the stub lists at the image's entry (debug_start "entry"). */
static int start_harts_at_entry(gdb_backend_t *g) {
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_find_register(g->rsp, "pc", &g->pc_regnum));
  for (unsigned i = 0; i < g->num_threads; i++) {
    RVHAL_RETURN_IF_ERROR(rvhal_rsp_select_thread(g->rsp, g->threads[i]));
    RVHAL_RETURN_IF_ERROR(rvhal_rsp_write_register(g->rsp, g->pc_regnum, g->fw->entry, g->board.xlen / 8));
  }
  return RVHAL_OK;
}

static int gdb_start(rvhal_backend_t *base) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  if (!external(g)) RVHAL_RETURN_IF_ERROR(g->qemu->vtable->start(g->qemu));
  pthread_mutex_lock(&g->mu);
  int rc;
  if (external(g)) {
    rc = attach_external(g);
  } else {
    rc = rvhal_rsp_open(g->rsp, rvhal_qemu_backend_gdb_socket(g->qemu), g->timeout_ms);
    if (!rc) {
      g->connected = 1;
      g->halted = 1; /* QEMU waits at -S */
    }
  }
  /* Before physical-memory mode: QEMU's physical accesses read zeros from
   * and write nothing to addresses without memory, and say nothing (the
   * check looks for RAM; the harts are just reset, satp off). */
  if (!rc && external(g)) rc = check_target(g);
  /* Physical addresses whatever the halted hart's satp (QEMU's extension;
   * OpenOCD accesses physical memory when the hart runs in M-mode, and
   * answers '' to what it does not know). */
  if (!rc) rc = rvhal_rsp_request(g->rsp, "Qqemu.PhyMemMode:1");
  if (!rc && g->ssip) rc = rvhal_rsp_find_register(g->rsp, "sip", &g->sip_regnum);
  if (!rc) rc = upload_mirror(g);
  if (!rc && external(g)) { /* the control block, zeros too: RAM may hold an earlier run's */
    /* Not the launch slots (72 KiB): a submission writes its slot whole,
     * and the firmware reads no slot past ring.submitted. Not the print
     * rings' data (1.5 MiB): their heads and tails here say what is in
     * them. Over a JTAG link every KiB counts (docs/porting.md). */
    const uint64_t ctrl = g->board.ram_base + g->board.fw_offset + RVHAL_CTRL_OFFSET;
    const uint8_t *c = g->base.ram + (ctrl - g->base.ram_base);
    const size_t slots = offsetof(rvhal_ctrl_t, ring.slots), harts = offsetof(rvhal_ctrl_t, harts);
    rc = rvhal_rsp_write_mem(g->rsp, ctrl, c, slots);
    if (!rc) rc = rvhal_rsp_write_mem(g->rsp, ctrl + harts, c + harts, sizeof(rvhal_ctrl_t) - harts);
  }
  for (uint32_t i = 0; !rc && i < g->fw->num_segments; i++) {
    const rvhal_elf_segment_t *s = &g->fw->segments[i];
    rc = rvhal_rsp_write_mem(g->rsp, s->vaddr, g->fw->data + s->offset, (size_t)s->filesz); /* RAM starts zeroed */
  }
  if (!rc && external(g)) rc = rvhal_gdb_check_image(g->rsp, g->fw);
  if (!rc && external(g) && g->board.debug_start_entry) rc = start_harts_at_entry(g);
  base->link_bps = g->rsp->link_bps; /* learned from the image and mirror just written */
  pthread_mutex_unlock(&g->mu);
  if (rc) {
    rvhal_error_annotate(rc, "starting the device through its gdbstub: {}; %s said: %s",
                         external(g) ? "the stub" : "QEMU", base->vtable->diagnostics(base));
    char *why = strdup(rvhal_last_error()); /* gdb_stop may set errors of its own */
    gdb_stop(base);
    if (why) rvhal_error(rc, "%s", why);
    free(why);
    return rc;
  }
  return RVHAL_OK; /* halted: the core's first wait runs it */
}

static int gdb_doorbell(rvhal_backend_t *base) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  pthread_mutex_lock(&g->mu);
  g->poll_us = POLL_FIRST_US; /* a launch: look soon */
  int rc = RVHAL_OK;
  if (g->msip) { /* through the debugger: hart 0's software interrupt */
    static const uint8_t one[4] = {1, 0, 0, 0};
    rc = halt_locked(g);
    if (!rc) rc = rvhal_rsp_write_mem(g->rsp, g->msip, one, sizeof one);
  } else if (g->ssip) { /* hart 0's supervisor software interrupt, read-modify-write */
    uint64_t sip;
    unsigned bytes;
    rc = halt_locked(g);
    if (!rc) rc = rvhal_rsp_select_thread(g->rsp, g->hart0_thread);
    if (!rc) rc = rvhal_rsp_read_register(g->rsp, g->sip_regnum, &sip, &bytes);
    if (!rc) rc = rvhal_rsp_write_register(g->rsp, g->sip_regnum, sip | 2, bytes);
  }
  if (!rc) rc = resume_locked(g);
  pthread_mutex_unlock(&g->mu);
  if (rc || g->msip || g->ssip) return rc;
  if (!external(g)) return g->qemu->vtable->doorbell(g->qemu);
  if (g->board.doorbell_polled) return RVHAL_OK; /* the firmware looks at the ring on its timer */
  if (g->uart_fd < 0)
    return rvhal_error(RVHAL_UNSUPPORTED, "gdb backend: board %s has no debug doorbell and no UART to ring: set "
                       "RVHAL_UART=/dev/ttyX[,baud] (its serial port) or RVHAL_GDB_DOORBELL=<MSIP address>",
                       g->board.name);
  for (;;) { /* the firmware's RX interrupt; a full tty already holds unread doorbells */
    ssize_t n = write(g->uart_fd, "d", 1);
    if (n == 1 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))) return RVHAL_OK;
    if (n < 0 && errno == EINTR) continue;
    return rvhal_error(RVHAL_DEVICE_LOST, "gdb backend: ringing through the UART %s: %s", g->uart_spec,
                       n < 0 ? strerror(errno) : "nothing written");
  }
}

/* A stub rvhal did not start: the UART's wake-up byte, else the host's own
 * polls: the core looks after each wait, every 5 ms at most (timeout_ms);
 * without a UART the waits after a submission are 50 us, then twice as
 * long each time up to that. */
static int wait_external(gdb_backend_t *g, int timeout_ms) {
  struct pollfd p[2] = {{.fd = g->uart_fd, .events = POLLIN}, {.fd = g->link_fd, .events = POLLRDHUP}};
  uint64_t wait_us = (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000u;
  if (g->uart_fd < 0) {
    pthread_mutex_lock(&g->mu);
    const int first = g->poll_us == POLL_FIRST_US; /* just after a submission: an empty launch is done */
    if (g->poll_us < wait_us) wait_us = g->poll_us;
    g->poll_us = g->poll_us < 2500000u ? 2 * g->poll_us : g->poll_us;
    /* Each look halts the target: over a slow link (a 2 ms proxy: ~12 ms a
     * look) looks at 50 us, 100 us, ... kept it halted nearly all the time
     * and a boot did not finish in 20 s. After the first look, let it run
     * 4x the last look. */
    const uint64_t run_us = 4 * g->look_ns / 1000u, most = (uint64_t)(timeout_ms > 0 ? timeout_ms : 0) * 1000u;
    if (!first && wait_us < run_us) wait_us = run_us < most ? run_us : most;
    pthread_mutex_unlock(&g->mu);
  }
  struct timespec ts = {(time_t)(wait_us / 1000000u), (long)(wait_us % 1000000u) * 1000};
  int rc;
  do rc = ppoll(p, 2, &ts, NULL);
  while (rc < 0 && errno == EINTR);
  if (rc < 0) return rvhal_error(RVHAL_HOST_IO, "poll: %s", strerror(errno));
  if (p[1].revents & (POLLRDHUP | POLLHUP | POLLERR))
    return rvhal_error(RVHAL_DEVICE_LOST, "gdb backend: the stub closed the connection; it said: %s",
                       g->base.vtable->diagnostics(&g->base));
  if (p[0].revents & POLLIN) {
    char buf[256];
    while (read(g->uart_fd, buf, sizeof buf) > 0) {
    }
  }
  if (g->stub_pid > 0 && waitpid(g->stub_pid, NULL, WNOHANG) == g->stub_pid) {
    g->stub_pid = 0;
    return rvhal_error(RVHAL_DEVICE_LOST, "gdb backend: the stub '%s' exited; it said: %s", g->spawn,
                       g->base.vtable->diagnostics(&g->base));
  }
  return RVHAL_OK;
}

static int gdb_wait(rvhal_backend_t *base, int timeout_ms) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  pthread_mutex_lock(&g->mu);
  int rc = resume_locked(g);
  if (!rc) g->waiters++;
  pthread_mutex_unlock(&g->mu);
  if (rc) return rc;
  rc = external(g) ? wait_external(g, timeout_ms) : g->qemu->vtable->wait(g->qemu, timeout_ms);
  pthread_mutex_lock(&g->mu);
  g->waiters--;
  pthread_mutex_unlock(&g->mu);
  return rc;
}

/* [addr, addr+len) inside the mirror, or an error (the core's ranges are
 * checked already: this is a guard, not a feature). */
static int in_window(gdb_backend_t *g, uint64_t addr, uint64_t len, const char *op) {
  if (addr < g->base.ram_base || len > g->base.ram_size || addr - g->base.ram_base > g->base.ram_size - len)
    return rvhal_error(RVHAL_OUT_OF_RANGE, "gdb backend: %s of [0x%llx, +%llu) outside device RAM", op,
                       (unsigned long long)addr, (unsigned long long)len);
  return RVHAL_OK;
}

static int access_mem(gdb_backend_t *g, uint64_t addr, uint64_t len, int write) {
  if (!len) return RVHAL_OK;
  RVHAL_RETURN_IF_ERROR(in_window(g, addr, len, write ? "flush" : "invalidate"));
  uint8_t *p = g->base.ram + (addr - g->base.ram_base);
  pthread_mutex_lock(&g->mu);
  const uint64_t look0 = now_ns();
  int rc = halt_locked(g);
  uint64_t t0 = now_ns();
  if (!rc) rc = write ? rvhal_rsp_write_mem(g->rsp, addr, p, len) : rvhal_rsp_read_mem(g->rsp, addr, p, len);
  g->access_ns += now_ns() - t0;
  if (write) {
    g->flushes++;
    g->poll_us = POLL_FIRST_US; /* a submission (hart 0 may take it without a doorbell) */
  }
  else g->invalidates++;
  if (!rc && g->waiters) rc = resume_locked(g);
  g->look_ns = now_ns() - look0;
  pthread_mutex_unlock(&g->mu);
  return rc;
}

static int gdb_flush(rvhal_backend_t *base, uint64_t addr, uint64_t len) {
  return access_mem((gdb_backend_t *)base, addr, len, 1);
}

static int gdb_invalidate(rvhal_backend_t *base, uint64_t addr, uint64_t len) {
  return access_mem((gdb_backend_t *)base, addr, len, 0);
}

static const char *gdb_diagnostics(rvhal_backend_t *base) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  if (!external(g)) return g->qemu->vtable->diagnostics(g->qemu);
  /* the spawned stub's last output (one line), or where the stub is */
  char log[1024] = "";
  off_t end = g->log_fd >= 0 ? lseek(g->log_fd, 0, SEEK_END) : 0;
  off_t start = end > (off_t)sizeof log - 1 ? end - (off_t)sizeof log + 1 : 0;
  ssize_t n = end > 0 ? pread(g->log_fd, log, sizeof log - 1, start) : 0;
  log[n > 0 ? n : 0] = '\0';
  for (char *p = log; *p; p++)
    if (*p == '\n') *p = p[1] ? ' ' : '\0';
  snprintf(g->diag, sizeof g->diag, "%s%s%s", g->spawn ? "" : "(the stub at ", g->spawn ? log : g->remote,
           g->spawn ? "" : ")");
  return g->diag;
}

static long gdb_process_id(rvhal_backend_t *base) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  return external(g) ? (long)g->stub_pid : g->qemu->vtable->process_id(g->qemu);
}

static void gdb_booted(rvhal_backend_t *base) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  if (!external(g) && g->qemu->vtable->booted) g->qemu->vtable->booted(g->qemu);
}

static void gdb_place(rvhal_backend_t *base, int cpu) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  if (!external(g) && g->qemu->vtable->place) g->qemu->vtable->place(g->qemu, cpu);
}

/* mcycle and minstret of one hart through the debugger: its thread (QEMU's
 * cpu index + 1 for the QEMU rvhal starts; the stub's list otherwise), the
 * CSRs by name from the target description (once a connection). */
static int gdb_hart_counters(rvhal_backend_t *base, uint32_t hart, uint64_t *out_cycle, uint64_t *out_instret) {
  gdb_backend_t *g = (gdb_backend_t *)base;
  pthread_mutex_lock(&g->mu);
  int rc = halt_locked(g);
  if (!rc && !g->counters_known) {
    rc = rvhal_rsp_find_register(g->rsp, "mcycle", &g->cycle_regnum);
    if (!rc) rc = rvhal_rsp_find_register(g->rsp, "minstret", &g->instret_regnum);
    g->counters_known = !rc;
  }
  unsigned id = g->board.first_hart + hart, bytes;
  unsigned thread = external(g) ? (id < g->num_threads ? g->threads[id] : 0) : id + 1;
  if (!rc && !thread)
    rc = rvhal_error(RVHAL_OUT_OF_RANGE, "gdb backend: hart %u: the stub lists %u harts", hart, g->num_threads);
  if (!rc) rc = rvhal_rsp_select_thread(g->rsp, thread);
  if (!rc) rc = rvhal_rsp_read_register(g->rsp, g->cycle_regnum, out_cycle, &bytes);
  if (!rc) rc = rvhal_rsp_read_register(g->rsp, g->instret_regnum, out_instret, &bytes);
  if (!rc && g->waiters) rc = resume_locked(g);
  pthread_mutex_unlock(&g->mu);
  return rc;
}

static const rvhal_backend_vtable_t gdb_vtable = {
    .destroy = gdb_destroy,
    .start = gdb_start,
    .stop = gdb_stop,
    .doorbell = gdb_doorbell,
    .wait = gdb_wait,
    .diagnostics = gdb_diagnostics,
    .process_id = gdb_process_id,
    .booted = gdb_booted,
    .place = gdb_place,
    .flush = gdb_flush,
    .invalidate = gdb_invalidate,
    .hart_counters = gdb_hart_counters,
};

static int load_firmware(gdb_backend_t *g, const rvhal_qemu_config_t *cfg) {
  FILE *f = fopen(cfg->firmware_path, "rb");
  if (!f) return rvhal_error(RVHAL_NOT_FOUND, "firmware %s: %s", cfg->firmware_path, strerror(errno));
  size_t cap = 1 << 20, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) {
      uint8_t *more = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
      if (!more) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = more;
      cap *= 2;
    }
  }
  fclose(f);
  if (!buf) return rvhal_error(RVHAL_HOST_IO, "firmware %s: out of host memory or over 64 MiB", cfg->firmware_path);
  /* anywhere in RAM up to the top of the window: under an SBI firmware, the
   * image sits below the window */
  const uint64_t ram = cfg->board->ram_base;
  int rc = rvhal_elf_parse(buf, n, cfg->board->xlen / 8, ram, cfg->ram_base + cfg->ram_size - ram, &g->fw);
  free(buf);
  if (rc) return rvhal_error_annotate(rc, "firmware %s", cfg->firmware_path);
  return RVHAL_OK;
}

/* The board's doorbell for a debugger (its descriptor's debug_doorbell),
 * unless $RVHAL_GDB_DOORBELL says otherwise: "uart", or an MSIP address. */
static int choose_doorbell(gdb_backend_t *g, const rvhal_board_desc_t *board) {
  g->msip = board->debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_MSIP ? board->debug_doorbell_addr : 0;
  g->ssip = board->debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_SSIP;
  g->hart0_thread = board->first_hart + 1; /* QEMU: cpu index + 1; OpenOCD: hart order from 1 */
  const char *db = getenv("RVHAL_GDB_DOORBELL");
  if (!db || !*db) return RVHAL_OK;
  if (!strcmp(db, "uart") || !strcmp(db, "ssip")) {
    g->msip = 0;
    g->ssip = db[0] == 's';
    if (g->ssip && board->priv != 'S')
      return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_GDB_DOORBELL=ssip: board %s's firmware runs in %c-mode; "
                         "ssip wakes S-mode firmware only", board->name, board->priv);
    return RVHAL_OK;
  }
  char *end;
  errno = 0;
  unsigned long long a = strtoull(db, &end, 0);
  if (*db < '0' || *db > '9' || errno || *end || !a || a % 4 || a > UINT64_MAX - 4 ||
      (a + 4 > board->ram_base && a < board->ram_base + board->max_ram_size)) {
    char own[40] = "none";
    if (board->debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_SSIP) snprintf(own, sizeof own, "ssip");
    if (board->debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_MSIP)
      snprintf(own, sizeof own, "msip 0x%llx", (unsigned long long)board->debug_doorbell_addr);
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_GDB_DOORBELL=%s: use \"uart\", \"ssip\" or the address of a 32-bit "
                       "register outside RAM, hart 0's MSIP (board %s's debug_doorbell: %s)", db, board->name, own);
  }
  g->msip = a;
  g->ssip = 0;
  return RVHAL_OK;
}

/* $RVHAL_GDB_TIMEOUT_MS: the wait for a small packet's reply (a slow or
 * loaded link; larger packets get more as the link's rate says). */
static int choose_timeout(gdb_backend_t *g) {
  g->timeout_ms = RSP_TIMEOUT_MS;
  const char *t = getenv("RVHAL_GDB_TIMEOUT_MS");
  if (!t || !*t) return RVHAL_OK;
  char *end;
  errno = 0;
  long v = strtol(t, &end, 10);
  if (*t < '0' || *t > '9' || errno || *end || v < 100 || v > 3600000)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "RVHAL_GDB_TIMEOUT_MS=%s: give milliseconds from 100 to 3600000 "
                       "(default %d)", t, RSP_TIMEOUT_MS);
  g->timeout_ms = (int)v;
  return RVHAL_OK;
}

int rvhal_gdb_backend_create(const rvhal_qemu_config_t *config, rvhal_backend_t **out_backend) {
  gdb_backend_t *g = calloc(1, sizeof *g);
  if (!g) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  pthread_mutex_init(&g->mu, NULL);
  g->base.vtable = &gdb_vtable;
  g->link_fd = g->log_fd = g->uart_fd = -1;
  g->board = *config->board;
  g->num_harts = config->num_harts;
  g->base.ram_base = config->ram_base;
  g->base.ram_size = config->ram_size;
  int rc = RVHAL_OK;
  if (!(g->rsp = calloc(1, sizeof *g->rsp))) {
    rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
    goto fail;
  }
  void *mirror = mmap(NULL, config->ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mirror == MAP_FAILED) {
    rc = rvhal_error(RVHAL_HOST_IO, "mapping the host's mirror of device RAM (%llu bytes): %s",
                     (unsigned long long)config->ram_size, strerror(errno));
    goto fail;
  }
  g->base.ram = mirror;
  if ((rc = load_firmware(g, config))) goto fail;
  if ((rc = choose_doorbell(g, config->board))) goto fail;
  if ((rc = choose_timeout(g))) goto fail;
  if (config->gdb_remote || config->gdb_spawn) { /* a stub rvhal does not start as QEMU */
    if (config->gdb_remote && config->gdb_spawn) {
      rc = rvhal_error(RVHAL_INVALID_ARGUMENT, "gdb backend: both a remote stub ('%s') and a command to start one "
                       "('%s'): give one", config->gdb_remote, config->gdb_spawn);
      goto fail;
    }
    if (config->board->priv != 'M' && config->board->debug_start_entry) {
      /* S-mode firmware needs its SBI firmware (M-mode) set up first: the
       * harts must run the board's own boot (debug_start "reset") */
      rc = rvhal_error(RVHAL_UNSUPPORTED, "gdb backend: board %s runs its firmware under an SBI firmware (%c-mode), "
                       "but its descriptor says debug_start \"entry\": an attached %c-mode image must be started by "
                       "the SBI firmware (debug_start \"reset\" in the board's board.h)", config->board->name,
                       config->board->priv, config->board->priv);
      goto fail;
    }
    char address[300], uart[300] = "";
    if (config->gdb_remote) { /* one stub a device: the list's first that no other device holds */
      if ((rc = rvhal_gdb_stub_claim(config->gdb_remote, config->uart, address, sizeof address, uart, sizeof uart)))
        goto fail;
      if (!(g->remote = strdup(address))) rvhal_gdb_stub_release(address);
    }
    g->spawn = config->gdb_spawn ? strdup(config->gdb_spawn) : NULL;
    const char *uart_spec = config->gdb_remote ? (uart[0] ? uart : NULL) : config->uart;
    g->uart_spec = uart_spec ? strdup(uart_spec) : NULL;
    g->reset = config->gdb_reset ? strdup(config->gdb_reset) : NULL;
    g->log_fd = memfd_create("rvhal-gdb-stub-log", MFD_CLOEXEC);
    if ((config->gdb_remote && !g->remote) || (config->gdb_spawn && !g->spawn) || (uart_spec && !g->uart_spec) ||
        (config->gdb_reset && !g->reset) || g->log_fd < 0) {
      rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
      goto fail;
    }
    *out_backend = &g->base;
    return RVHAL_OK;
  }
  rvhal_qemu_config_t qc = *config;
  qc.gdbstub = 1;
  qc.plugin_path = NULL; /* it counts into shared memory */
  if ((rc = rvhal_qemu_backend_create(&qc, &g->qemu))) goto fail;
  *out_backend = &g->base;
  return RVHAL_OK;
fail:
  gdb_destroy(&g->base);
  return rc;
}

/* The GDB remote serial protocol, client side: packet framing, checksums,
 * acknowledgements (until QStartNoAckMode), run-length decoding, memory
 * reads (m) and writes (binary X where the stub takes it, as OpenOCD does;
 * else hex M, as QEMU 7.2's gdbstub needs), interrupt (\x03) and stop
 * replies. What the stub
 * sends is untrusted: every length is bounded, and an unexpected reply is
 * an error naming the packet sent and the reply received.
 *
 * The codec (rvhal_rsp_frame, rvhal_rsp_parse) is pure, for unit tests;
 * the rest talks over a connected stream socket. */
#ifndef RVHAL_HOST_GDB_RSP_H
#define RVHAL_HOST_GDB_RSP_H

#include <stddef.h>
#include <stdint.h>

#define RVHAL_RSP_MAX_PACKET 65536 /* the largest reply taken (PacketSize is capped to it) */

/* "$payload#cs" into out (payload's $ # } * escaped): its length, or 0 if
 * it does not fit in cap. */
size_t rvhal_rsp_frame(const char *payload, size_t len, char *out, size_t cap);

/* One packet from in[0, n): leading acks ('+', '-') are skipped. Returns 1
 * with the decoded payload (run-length expanded, NUL-terminated) in
 * out[0, *out_len) and *consumed bytes used; 0 if in holds no whole packet
 * yet; -1 on a malformed packet (bad checksum, bad run length, payload
 * over cap - 1 bytes), with a reason in why. */
int rvhal_rsp_parse(const char *in, size_t n, char *out, size_t cap, size_t *out_len, size_t *consumed,
                    const char **why);

typedef struct rvhal_rsp {
  int fd;
  int no_ack;          /* QStartNoAckMode accepted */
  int binary;          /* X (binary memory writes) accepted */
  int want_multiprocess; /* set before open: ask for the multiprocess extension */
  int multiprocess;    /* the stub took it: threads are pPID.TID, one process per CPU cluster (QEMU) */
  unsigned attached;   /* with multiprocess: bit p set when process p (1..31) is attached */
  size_t packet_size;  /* the stub's PacketSize: the longest packet it takes */
  int timeout_ms;      /* for each reply: the floor (a small packet's wait) */
  double link_bps;     /* bytes/s the link has moved (learned from large memory reads and writes; 0: not yet;
                          kept by rvhal_rsp_open: the same link) */
  size_t expect;       /* bytes the request being answered moves (its payload and its reply) */
  uint64_t packets;    /* requests answered (round trips) */
  uint64_t halts;      /* \x03 sent */
  uint64_t bytes_read, bytes_written;
  char what[64];       /* the request being answered, for messages */
  char lost[64];       /* set: the request whose reply failed; the stream is out of step */
  char in[RVHAL_RSP_MAX_PACKET + 16]; /* received, not yet parsed */
  size_t in_len;
  char reply[RVHAL_RSP_MAX_PACKET + 1];
  size_t reply_len;
  char payload[RVHAL_RSP_MAX_PACKET];
  char out[2 * RVHAL_RSP_MAX_PACKET + 8];
} rvhal_rsp_t;

/* How long to wait for the reply to a request moving `bytes` (payload and
 * reply) over a link of link_bps bytes/s (0: not measured yet, assume
 * RVHAL_RSP_ASSUMED_BPS): floor_ms (enough for a packet of up to
 * RVHAL_RSP_RATE_MIN_BYTES), plus RVHAL_RSP_TIMEOUT_MARGIN times the rest's
 * transfer time, at most RVHAL_RSP_TIMEOUT_CAP_MS (unless floor_ms is more). A 16 KiB write
 * over JTAG is seconds; the same over QEMU's socket, microseconds. */
#define RVHAL_RSP_ASSUMED_BPS 1000.0  /* the slowest link seen: Spike through OpenOCD, loaded */
#define RVHAL_RSP_TIMEOUT_MARGIN 8    /* a loaded machine slows a link that much between samples */
#define RVHAL_RSP_TIMEOUT_CAP_MS 600000
int rvhal_rsp_reply_timeout_ms(int floor_ms, size_t bytes, double link_bps);
/* The link's rate after a request moved `bytes` in `seconds`: a request
 * smaller than RVHAL_RSP_RATE_MIN_BYTES says nothing (round trips dominate);
 * a slower sample is taken at once, a faster one a quarter at a time. */
#define RVHAL_RSP_RATE_MIN_BYTES 1024
double rvhal_rsp_learn_rate(double link_bps, size_t bytes, double seconds);

/* Takes fd (not owned) and negotiates: qSupported (PacketSize, and the
 * multiprocess extension if r->want_multiprocess), QStartNoAckMode, X (an
 * empty write, as gdb probes it). */
int rvhal_rsp_open(rvhal_rsp_t *r, int fd, int timeout_ms);
/* Sends a packet and reads its reply into r->reply. */
int rvhal_rsp_request(rvhal_rsp_t *r, const char *payload);
/* Sends a packet whose reply comes later (c: at the next stop). */
int rvhal_rsp_send(rvhal_rsp_t *r, const char *payload);
/* \x03, then the stop reply (T/S); W or X (the target exited) is an error. */
int rvhal_rsp_interrupt(rvhal_rsp_t *r);
/* Device memory, split into packets the stub takes. */
int rvhal_rsp_read_mem(rvhal_rsp_t *r, uint64_t addr, void *buf, size_t len);
int rvhal_rsp_write_mem(rvhal_rsp_t *r, uint64_t addr, const void *buf, size_t len);

/* The number of register `name` ("sip") in the stub's target description
 * (qXfer:features:read of target.xml and the files it includes, as gdb
 * numbers them: in document order, a regnum attribute resetting the count).
 * QEMU's gdbstub also answers p/P only after the client has read it.
 * RVHAL_UNSUPPORTED if the description has no such register. */
int rvhal_rsp_find_register(rvhal_rsp_t *r, const char *name, unsigned *out_regnum);
/* Several at once (one read of the description): RVHAL_RSP_NO_REGISTER
 * for each the description lacks. */
#define RVHAL_RSP_NO_REGISTER (~0u)
int rvhal_rsp_find_registers(rvhal_rsp_t *r, const char *const *names, unsigned count, unsigned *out_regnums);
/* With the multiprocess extension: attaches every process the stub has
 * beyond the first (vAttach;2, ;3, ... until one is refused). QEMU makes a
 * process of each CPU cluster (sifive_u, microchip-icicle-kit: the E51,
 * then the U54s) and attaches only the first when a debugger connects, so
 * without this its thread list holds one hart there. */
int rvhal_rsp_attach_processes(rvhal_rsp_t *r);
/* A thread id as rvhal_rsp_threads gives it: (pid << 24) | tid with the
 * multiprocess extension, the plain tid without. */
#define RVHAL_RSP_THREAD(pid, tid) (((unsigned)(pid) << 24) | (unsigned)(tid))
/* Hg: the thread (a hart; QEMU: cpu index + 1) p and P apply to. */
int rvhal_rsp_select_thread(rvhal_rsp_t *r, unsigned thread);
/* p / P of a register of 8 to 64 bits (little-endian hex; *out_bytes its
 * width: 4 or 8 for XLEN registers, 1 for OpenOCD's priv). */
int rvhal_rsp_read_register(rvhal_rsp_t *r, unsigned regnum, uint64_t *out_value, unsigned *out_bytes);
int rvhal_rsp_write_register(rvhal_rsp_t *r, unsigned regnum, uint64_t value, unsigned bytes);

/* qRcmd: a `monitor` command of the stub (QEMU: an HMP command such as
 * "system_reset"; OpenOCD: "reset halt"). Its console output (O packets)
 * goes to out (NUL-terminated, cut at cap - 1); the final reply must be OK
 * (or empty output followed by OK). An E reply is an error naming cmd. */
int rvhal_rsp_monitor(rvhal_rsp_t *r, const char *cmd, char *out, size_t cap);
/* qfThreadInfo / qsThreadInfo: the stub's thread ids (harts), at most max
 * of them (more is an error: the list is untrusted). */
int rvhal_rsp_threads(rvhal_rsp_t *r, unsigned *ids, unsigned max, unsigned *out_count);
/* D: detach, leaving the target running (every attached process, with
 * the multiprocess extension). */
int rvhal_rsp_detach(rvhal_rsp_t *r);

#endif /* RVHAL_HOST_GDB_RSP_H */

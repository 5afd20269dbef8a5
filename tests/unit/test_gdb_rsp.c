/* Unit test of the GDB remote protocol client (host/src/backend/gdb_rsp.c): the
 * codec (framing, escapes, checksums, run lengths, bounds), then the client
 * against a small stub on a socketpair that speaks the protocol the way
 * QEMU's gdbstub does (acks until QStartNoAckMode, PacketSize, m, M, \x03)
 * or OpenOCD's (binary X writes too), with a small PacketSize so that
 * transfers are split, and a stub that lies (wrong lengths, bad checksums,
 * errors) for the client's messages. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "backend/gdb_rsp.h"
#include "rvhal/status.h"

static void test_codec(void) {
  char out[64], dec[64];
  size_t n = rvhal_rsp_frame("OK", 2, out, sizeof out);
  CHECK(n == 6 && !memcmp(out, "$OK#9a", 6));
  /* $ # } * are escaped: } then the byte xor 0x20 */
  n = rvhal_rsp_frame("a$b", 3, out, sizeof out);
  /* every byte: the checksum covers the escape: 'a' + '}' + 0x04 + 'b' = 0x144 */
  CHECK(n == 8 && !memcmp(out, "$a}\x04" "b#44", 8));
  CHECK(rvhal_rsp_frame("0123456789", 10, out, 12) == 0); /* does not fit */

  size_t len = 0, used = 0;
  const char *why = NULL;
  /* acks before a packet, a packet, bytes after it left alone */
  const char in1[] = "++$OK#9a$";
  CHECK(rvhal_rsp_parse(in1, sizeof in1 - 1, dec, sizeof dec, &len, &used, &why) == 1);
  CHECK(len == 2 && !strcmp(dec, "OK") && used == 8);
  /* not all there yet */
  CHECK(rvhal_rsp_parse("$OK#9", 5, dec, sizeof dec, &len, &used, &why) == 0);
  CHECK(rvhal_rsp_parse("+", 1, dec, sizeof dec, &len, &used, &why) == 0 && used == 1);
  /* bad checksum, junk */
  CHECK(rvhal_rsp_parse("$OK#00", 6, dec, sizeof dec, &len, &used, &why) == -1 && strstr(why, "checksum"));
  CHECK(rvhal_rsp_parse("x$OK#9a", 7, dec, sizeof dec, &len, &used, &why) == -1);
  /* run length: "0* " is '0' and ' ' - 29 = 3 more: "0000" (by hand: the framer escapes '*') */
  char rle[32];
  uint8_t sum = (uint8_t)('0' + '*' + ' ');
  snprintf(rle, sizeof rle, "$0* #%02x", sum);
  CHECK(rvhal_rsp_parse(rle, strlen(rle), dec, sizeof dec, &len, &used, &why) == 1);
  CHECK(len == 4 && !strcmp(dec, "0000"));
  /* a run with nothing before it, a run past the client's buffer */
  sum = (uint8_t)('*' + ' ');
  snprintf(rle, sizeof rle, "$* #%02x", sum);
  CHECK(rvhal_rsp_parse(rle, strlen(rle), dec, sizeof dec, &len, &used, &why) == -1 && strstr(why, "run-length"));
  sum = (uint8_t)('0' + '*' + '~');
  snprintf(rle, sizeof rle, "$0*~#%02x", sum); /* 97 more */
  CHECK(rvhal_rsp_parse(rle, strlen(rle), dec, sizeof dec, &len, &used, &why) == -1 && strstr(why, "longer"));
}

/* ---- a stub ---- */

typedef struct stub {
  int fd;
  int lie; /* 0: honest; 1: short m replies; 2: bad checksums in m replies; 3: E14 to M and X */
  int binary; /* takes X */
  uint64_t x_packets;
  uint8_t mem[8192];
  uint64_t base;
  const char *target_xml;    /* its target description (NULL: STUB_TARGET) */
  unsigned thread;           /* Hg */
  uint64_t sip;              /* register 0x186 of thread 2 */
  uint64_t bad_sums;         /* packets refused for their checksum */
  unsigned packet_size;      /* its PacketSize (0: 0x100) */
  unsigned x_ms_per_kib;     /* a slow link: an X's reply after this many ms per KiB written */
} stub_t;

/* QEMU 7.2's layout, shortened: GPRs numbered in order, CSRs by regnum. */
#define STUB_TARGET                                                                                       \
  "<?xml version=\"1.0\"?><target><architecture>riscv:rv64</architecture>"                               \
  "<xi:include href=\"cpu.xml\"/><xi:include href=\"csr.xml\"/></target>"
static const char stub_cpu_xml[] =
    "<feature name=\"org.gnu.gdb.riscv.cpu\"><reg name=\"zero\" bitsize=\"64\"/><reg name=\"ra\" bitsize=\"64\"/>"
    "<reg name=\"pc\" bitsize=\"64\"/></feature>";
/* long enough to come in several parts at PacketSize 0x100 */
static const char stub_csr_xml[] =
    "<feature name=\"org.gnu.gdb.riscv.csr\">"
    "<reg name=\"sstatus\" bitsize=\"64\" regnum=\"322\"/><reg name=\"sie\" bitsize=\"64\" regnum=\"326\"/>"
    "<reg name=\"stvec\" bitsize=\"64\" regnum=\"327\"/><reg name=\"scounteren\" bitsize=\"64\" regnum=\"328\"/>"
    "<reg name=\"sscratch\" bitsize=\"64\" regnum=\"386\"/><reg name=\"sepc\" bitsize=\"64\"/>"
    "<reg name=\"scause\" bitsize=\"64\"/><reg name=\"stval\" bitsize=\"64\"/>"
    "<reg name=\"sip\" bitsize=\"64\"/><reg name=\"mip\" bitsize=\"64\" regnum=\"902\"/></feature>";

/* A packet, its checksum verified as a real stub does (QEMU's gdbstub
 * answers '-' and drops the packet): the sum of the bytes between '$' and
 * '#' as sent, escapes included. */
static int stub_get(stub_t *s, char *pkt, size_t cap, size_t *len, int *interrupt) {
  char c;
  size_t n = 0;
  int in = 0;
  uint8_t sum = 0;
  for (;;) {
    if (read(s->fd, &c, 1) != 1) return -1;
    if (!in) {
      if (c == 0x03) {
        *interrupt = 1;
        return 0;
      }
      if (c == '$') in = 1, n = 0, sum = 0;
      continue;
    }
    if (c == '#') {
      char cs[3] = {0};
      if (read(s->fd, cs, 2) != 2) return -1;
      if (strtoul(cs, NULL, 16) != sum) {
        s->bad_sums++;
        fprintf(stderr, "stub: packet with checksum %s, its bytes sum to %02x: refused\n", cs, sum);
        if (write(s->fd, "-", 1) != 1) return -1;
        in = 0;
        continue;
      }
      pkt[n] = '\0';
      *len = n;
      return 0;
    }
    sum += (uint8_t)c;
    if (n < cap - 1) pkt[n++] = c;
  }
}

static void stub_put(stub_t *s, int no_ack, const char *payload) {
  static char out[20000];
  size_t n = rvhal_rsp_frame(payload, strlen(payload), out, sizeof out);
  if (!no_ack && write(s->fd, "+", 1) != 1) return;
  if (s->lie == 2 && payload[0] >= '0' && payload[0] <= '9') out[n - 1] ^= 1; /* m's hex */
  if (write(s->fd, out, n) != (ssize_t)n) return;
}

static void *stub_main(void *arg) {
  stub_t *s = arg;
  static char pkt[20000], rep[20000];
  int no_ack = 0;
  for (;;) {
    int intr = 0;
    size_t plen = 0;
    if (stub_get(s, pkt, sizeof pkt, &plen, &intr)) return NULL;
    if (intr) {
      stub_put(s, no_ack, "T02thread:01;");
      continue;
    }
    unsigned long long addr, len;
    if (!strncmp(pkt, "qSupported", 10)) {
      snprintf(rep, sizeof rep, "PacketSize=%x;qXfer:features:read+", s->packet_size ? s->packet_size : 0x100);
      stub_put(s, no_ack, rep);
    } else if (!strcmp(pkt, "QStartNoAckMode")) {
      stub_put(s, no_ack, "OK");
      no_ack = 1;
    } else if (pkt[0] == 'm' && sscanf(pkt, "m%llx,%llx", &addr, &len) == 2) {
      if (addr < s->base || addr + len > s->base + sizeof s->mem || 2 * len >= sizeof rep) {
        stub_put(s, no_ack, "E14");
        continue;
      }
      for (unsigned long long i = 0; i < len; i++) sprintf(rep + 2 * i, "%02x", s->mem[addr - s->base + i]);
      if (s->lie == 1) rep[2 * len - 2] = '\0';
      stub_put(s, no_ack, rep);
    } else if (pkt[0] == 'M' && sscanf(pkt, "M%llx,%llx:", &addr, &len) == 2) {
      const char *hex = strchr(pkt, ':') + 1;
      if (s->lie == 3 || addr < s->base || addr + len > s->base + sizeof s->mem || strlen(hex) != 2 * len) {
        stub_put(s, no_ack, "E14");
        continue;
      }
      for (unsigned long long i = 0; i < len; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        s->mem[addr - s->base + i] = (uint8_t)v;
      }
      stub_put(s, no_ack, "OK");
    } else if (!strncmp(pkt, "qXfer:features:read:", 20)) {
      char annex[64];
      unsigned long long off, n;
      if (sscanf(pkt + 20, "%63[^:]:%llx,%llx", annex, &off, &n) != 3) {
        stub_put(s, no_ack, "E00");
        continue;
      }
      const char *doc = !strcmp(annex, "target.xml") ? (s->target_xml ? s->target_xml : STUB_TARGET)
                        : !strcmp(annex, "cpu.xml")  ? stub_cpu_xml
                        : !strcmp(annex, "csr.xml")  ? stub_csr_xml
                                                     : NULL;
      if (!doc || off > strlen(doc)) {
        stub_put(s, no_ack, "E00");
        continue;
      }
      size_t left = strlen(doc) - off, take = left < n ? left : n;
      snprintf(rep, sizeof rep, "%c%.*s", take < left ? 'm' : 'l', (int)take, doc + off);
      stub_put(s, no_ack, rep);
    } else if (!strncmp(pkt, "Hg", 2)) {
      s->thread = (unsigned)strtoul(pkt + 2, NULL, 16);
      stub_put(s, no_ack, s->thread >= 1 && s->thread <= 4 ? "OK" : "E22");
    } else if (!strcmp(pkt, "p186") && s->thread == 2) {
      for (int i = 0; i < 8; i++) sprintf(rep + 2 * i, "%02x", (unsigned)(s->sip >> (8 * i)) & 0xff);
      stub_put(s, no_ack, rep);
    } else if (!strncmp(pkt, "qRcmd,", 6)) { /* console output, an empty one as OpenOCD sends, then OK */
      stub_put(s, no_ack, "O");
      stub_put(s, 1, "O6869");
      stub_put(s, 1, "OK");
    } else if (!strcmp(pkt, "qRvhalSlow")) { /* a reply later than the client waits */
      usleep(300 * 1000);
      stub_put(s, no_ack, "OK");
    } else if (!strcmp(pkt, "p1041")) { /* priv as OpenOCD describes it: 8 bits */
      stub_put(s, no_ack, s->thread == 2 ? "03" : "030");
    } else if (!strncmp(pkt, "P186=", 5) && s->thread == 2 && strlen(pkt) == 21) {
      uint64_t v = 0;
      for (int i = 7; i >= 0; i--) {
        unsigned b;
        sscanf(pkt + 5 + 2 * i, "%2x", &b);
        v = v << 8 | b;
      }
      s->sip = v;
      stub_put(s, no_ack, "OK");
    } else if (pkt[0] == 'X' && s->binary && sscanf(pkt, "X%llx,%llx:", &addr, &len) == 2) {
      const char *at = memchr(pkt, ':', plen) + 1, *end = pkt + plen;
      unsigned long long i = 0;
      if (len && (s->lie == 3 || addr < s->base || addr + len > s->base + sizeof s->mem)) {
        stub_put(s, no_ack, "E14");
        continue;
      }
      for (; at < end && i < len; i++) {
        uint8_t c = (uint8_t)*at++;
        if (c == '}' && at < end) c = (uint8_t)(*at++ ^ 0x20);
        s->mem[addr - s->base + i] = c;
      }
      s->x_packets++;
      if (s->x_ms_per_kib) usleep((useconds_t)(len * s->x_ms_per_kib * 1000 / 1024));
      stub_put(s, no_ack, i == len && at == end ? "OK" : "E01");
    } else {
      stub_put(s, no_ack, ""); /* not supported */
    }
  }
}

static rvhal_rsp_t *connect_stub(stub_t *s, pthread_t *t) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) abort();
  s->fd = sv[1];
  s->base = 0x80000000u;
  pthread_create(t, NULL, stub_main, s);
  rvhal_rsp_t *r = calloc(1, sizeof *r);
  CHECK_OK(rvhal_rsp_open(r, sv[0], 2000));
  return r;
}

static void disconnect(stub_t *s, rvhal_rsp_t *r, pthread_t t) {
  shutdown(r->fd, SHUT_RDWR);
  pthread_join(t, NULL);
  CHECK_MSG(s->bad_sums == 0, "the stub refused %llu packets for their checksum", (unsigned long long)s->bad_sums);
  close(r->fd);
  close(s->fd);
  free(r);
}

static void test_honest(void) {
  static stub_t s;
  pthread_t t;
  rvhal_rsp_t *r = connect_stub(&s, &t);
  CHECK(r->no_ack && r->packet_size == 0x100 && !r->binary); /* QEMU 7.2: X is not supported */
  uint8_t w[3000], back[3000];
  for (size_t i = 0; i < sizeof w; i++) w[i] = (uint8_t)(i * 7 + 3);
  uint64_t before = r->packets;
  CHECK_OK(rvhal_rsp_write_mem(r, s.base + 5, w, sizeof w));
  CHECK(!memcmp(s.mem + 5, w, sizeof w));
  CHECK(r->packets - before > sizeof w / 256); /* split to fit PacketSize */
  CHECK_OK(rvhal_rsp_read_mem(r, s.base + 5, back, sizeof back));
  CHECK(!memcmp(back, w, sizeof w));
  CHECK_OK(rvhal_rsp_interrupt(r));
  CHECK(r->reply[0] == 'T' && r->halts == 1);
  CHECK_FAILS(rvhal_rsp_read_mem(r, 0x1000, back, 4), RVHAL_DEVICE_LOST, "'m1000,4' replied 'E14'");
  CHECK_FAILS(rvhal_rsp_write_mem(r, 0x1000, w, 4), RVHAL_DEVICE_LOST, "'M1000,4' replied 'E14', expected 'OK'");
  disconnect(&s, r, t);
}

/* OpenOCD's way: binary writes, escapes included. */
static void test_binary(void) {
  static stub_t s;
  s.binary = 1;
  pthread_t t;
  rvhal_rsp_t *r = connect_stub(&s, &t);
  CHECK(r->binary);
  uint8_t w[5000], back[5000];
  for (size_t i = 0; i < sizeof w; i++) w[i] = (uint8_t)(i % 3 ? '#' + i % 5 : i); /* $ # } * and zeros */
  uint64_t before = s.x_packets;
  CHECK_OK(rvhal_rsp_write_mem(r, s.base + 3, w, sizeof w));
  CHECK(!memcmp(s.mem + 3, w, sizeof w));
  CHECK(s.x_packets - before > sizeof w / 256);
  CHECK_OK(rvhal_rsp_read_mem(r, s.base + 3, back, sizeof back));
  CHECK(!memcmp(back, w, sizeof w));
  CHECK_FAILS(rvhal_rsp_write_mem(r, 0x1000, w, 4), RVHAL_DEVICE_LOST, "'X1000,4' replied 'E14', expected 'OK'");
  disconnect(&s, r, t);
}

/* A register by name from the target description (in parts, across an
 * include, numbered in order after a regnum), read and written on a thread;
 * descriptions that lie. */
static void test_registers(void) {
  static stub_t s;
  pthread_t t;
  rvhal_rsp_t *r = connect_stub(&s, &t);
  unsigned n = 0;
  CHECK_OK(rvhal_rsp_find_register(r, "sip", &n));
  CHECK_EQ_U64(n, 0x186); /* sscratch 386, then sepc, scause, stval, sip */
  CHECK_OK(rvhal_rsp_find_register(r, "pc", &n));
  CHECK_EQ_U64(n, 2);
  CHECK_FAILS(rvhal_rsp_find_register(r, "vl", &n), RVHAL_UNSUPPORTED, "the target description has no register vl");
  s.sip = 0x20;
  CHECK_OK(rvhal_rsp_select_thread(r, 2));
  uint64_t v = 0;
  unsigned bytes = 0;
  CHECK_OK(rvhal_rsp_read_register(r, 0x186, &v, &bytes));
  CHECK(v == 0x20 && bytes == 8);
  CHECK_OK(rvhal_rsp_write_register(r, 0x186, v | 2, bytes));
  CHECK_EQ_U64(s.sip, 0x22);
  CHECK_OK(rvhal_rsp_read_register(r, 0x1041, &v, &bytes)); /* OpenOCD's priv: one byte */
  CHECK(v == 3 && bytes == 1);
  char said[16];
  CHECK_OK(rvhal_rsp_monitor(r, "reset halt", said, sizeof said)); /* 'O', then 'O6869', then 'OK' */
  CHECK(!strcmp(said, "hi"));
  CHECK_FAILS(rvhal_rsp_select_thread(r, 9), RVHAL_DEVICE_LOST, "'Hg9' replied 'E22'");
  CHECK_OK(rvhal_rsp_select_thread(r, 1));
  CHECK_FAILS(rvhal_rsp_read_register(r, 0x186, &v, &bytes), RVHAL_DEVICE_LOST, "'p186' replied '', not a register of 8 to 64 bits");
  CHECK_FAILS(rvhal_rsp_read_register(r, 0x1041, &v, &bytes), RVHAL_DEVICE_LOST, "'p1041' replied '030', not a register");
  CHECK_FAILS(rvhal_rsp_write_register(r, 0x186, 2, 8), RVHAL_DEVICE_LOST, "'P186=0200000000000000' replied ''");
  s.target_xml = "<target><xi:include href=\"../etc/passwd\"/></target>";
  CHECK_FAILS(rvhal_rsp_find_register(r, "sip", &n), RVHAL_DEVICE_LOST, "xi:include without a plain href");
  s.target_xml = "<target><xi:include href=\"nothere.xml\"/></target>";
  CHECK_FAILS(rvhal_rsp_find_register(r, "sip", &n), RVHAL_DEVICE_LOST, "replied 'E00', not a part of the target");
  s.target_xml = "<target><xi:include href=\"target.xml\"/></target>"; /* includes itself */
  CHECK_FAILS(rvhal_rsp_find_register(r, "sip", &n), RVHAL_DEVICE_LOST, "nested too deep");
  s.target_xml = "<target><reg name=\"sip\" regnum=\"-1\"/></target>";
  CHECK_FAILS(rvhal_rsp_find_register(r, "sip", &n), RVHAL_DEVICE_LOST, "regnum \"-1\" is not a register number");
  disconnect(&s, r, t);
}

static void test_liars(void) {
  static stub_t s;
  pthread_t t;
  uint8_t buf[64];
  s.lie = 1;
  rvhal_rsp_t *r = connect_stub(&s, &t);
  CHECK_FAILS(rvhal_rsp_read_mem(r, s.base, buf, sizeof buf), RVHAL_DEVICE_LOST, "expected 128 hex digits");
  disconnect(&s, r, t);
  s.lie = 2;
  r = connect_stub(&s, &t);
  CHECK_FAILS(rvhal_rsp_read_mem(r, s.base, buf, 8), RVHAL_DEVICE_LOST, "the reply to 'm80000000,8' has a bad checksum");
  disconnect(&s, r, t);
  s.lie = 3;
  r = connect_stub(&s, &t);
  CHECK_FAILS(rvhal_rsp_write_mem(r, s.base, buf, 8), RVHAL_DEVICE_LOST, "replied 'E14'");
  disconnect(&s, r, t);
  /* a reply that comes after the client stopped waiting: the connection
   * is out of step, and the late "OK" must not answer the next request */
  r = connect_stub(&s, &t);
  r->timeout_ms = 50;
  CHECK_FAILS(rvhal_rsp_request(r, "qRvhalSlow"), RVHAL_TIMEOUT, "no reply to 'qRvhalSlow' (10 bytes) within 50 ms");
  usleep(400 * 1000); /* the late reply is in the socket now */
  r->timeout_ms = 2000;
  CHECK_FAILS(rvhal_rsp_write_mem(r, s.base, buf, 8), RVHAL_DEVICE_LOST,
              "the reply to 'qRvhalSlow' failed, so the connection is out of step");
  CHECK_FAILS(rvhal_rsp_interrupt(r), RVHAL_DEVICE_LOST, "not sending '\\x03'");
  disconnect(&s, r, t);
  /* a stub that closes the connection */
  s.lie = 0;
  r = connect_stub(&s, &t);
  shutdown(s.fd, SHUT_RDWR);
  pthread_join(t, NULL);
  CHECK_FAILS(rvhal_rsp_read_mem(r, s.base, buf, 8), RVHAL_DEVICE_LOST, "m80000000,8"); /* broken pipe, or closed */
  close(r->fd);
  close(s.fd);
  free(r);
}

/* The wait for a reply grows with the packet and the link's rate: a large
 * write on a slow link is not declared lost (a 16 KiB X over JTAG took
 * longer than a small packet's wait), a small packet keeps the floor. */
static void test_timeout_rule(void) {
  /* small packets: the floor, whatever the rate */
  CHECK_EQ_U64(rvhal_rsp_reply_timeout_ms(10000, 0, 0), 10000);
  CHECK_EQ_U64(rvhal_rsp_reply_timeout_ms(10000, RVHAL_RSP_RATE_MIN_BYTES, 100), 10000);
  /* 16 KiB at 5 KB/s: 3.3 s beyond the first KiB, with the margin */
  CHECK_EQ_U64(rvhal_rsp_reply_timeout_ms(10000, 16384 + 1024, 5000),
               10000 + RVHAL_RSP_TIMEOUT_MARGIN * 16384 * 1000 / 5000);
  /* not measured yet: the slowest link's rate is assumed */
  CHECK_EQ_U64(rvhal_rsp_reply_timeout_ms(50, 1024 + 500, 0),
               50 + RVHAL_RSP_TIMEOUT_MARGIN * 500 * 1000 / (int)RVHAL_RSP_ASSUMED_BPS);
  /* QEMU's socket (tens of MB/s): the floor still */
  CHECK(rvhal_rsp_reply_timeout_ms(10000, 65536, 15e6) <= 10050);
  /* the cap, unless the floor asked for is more */
  CHECK_EQ_U64(rvhal_rsp_reply_timeout_ms(10000, (size_t)1 << 30, 1000), RVHAL_RSP_TIMEOUT_CAP_MS);
  CHECK_EQ_U64(rvhal_rsp_reply_timeout_ms(RVHAL_RSP_TIMEOUT_CAP_MS + 5, (size_t)1 << 30, 1000),
               RVHAL_RSP_TIMEOUT_CAP_MS + 5);
  /* learning: small requests say nothing, slower samples count at once, faster a quarter */
  CHECK(rvhal_rsp_learn_rate(0, 100, 1.0) == 0);
  CHECK(rvhal_rsp_learn_rate(0, 4096, 0) == 0);
  CHECK(rvhal_rsp_learn_rate(0, 4096, 1.0) == 4096);
  CHECK(rvhal_rsp_learn_rate(8000, 4096, 1.0) == 4096);
  CHECK(rvhal_rsp_learn_rate(4000, 8000, 1.0) == 5000);

  /* live: writes of 4 KiB packets to a stub that answers each after
   * 600 ms (a 6.8 KB/s link); the floor is 400 ms */
  static stub_t s;
  s.binary = 1;
  s.packet_size = 0x1000 + 64;
  s.x_ms_per_kib = 150;
  pthread_t t;
  rvhal_rsp_t *r = connect_stub(&s, &t);
  r->timeout_ms = 400;
  uint8_t w[2 * 4096]; /* the stub's memory */
  for (size_t i = 0; i < sizeof w; i++) w[i] = (uint8_t)(i * 5 + 1);
  CHECK_OK(rvhal_rsp_write_mem(r, s.base, w, sizeof w)); /* the first at the assumed rate, then the learned */
  CHECK(!memcmp(s.mem, w, sizeof w));
  CHECK_MSG(r->link_bps > 2000 && r->link_bps < 7500, "learned %.0f bytes/s", r->link_bps);
  /* the stub's own answers say nothing of the link: a target description
   * of 3 KiB, answered at once (as OpenOCD does), leaves the rate learned
   * from memory as it was (it had taught Spike's link tens of MB/s) */
  static char xml[4096];
  int at = snprintf(xml, sizeof xml, "<?xml version=\"1.0\"?><target><feature name=\"org.gnu.gdb.riscv.csr\">");
  for (int i = 0; i < 70; i++)
    at += snprintf(xml + at, sizeof xml - (size_t)at, "<reg name=\"csr%d\" bitsize=\"64\" regnum=\"%d\"/>", i, 100 + i);
  snprintf(xml + at, sizeof xml - (size_t)at, "</feature></target>");
  CHECK(strlen(xml) > 3 * RVHAL_RSP_RATE_MIN_BYTES && strlen(xml) < s.packet_size - 8);
  s.target_xml = xml;
  const double learned = r->link_bps;
  unsigned regnum = 0;
  CHECK_OK(rvhal_rsp_find_register(r, "csr69", &regnum));
  CHECK_EQ_U64(regnum, 169);
  CHECK_MSG(r->link_bps == learned, "learned %.0f bytes/s, then %.0f after the target description", learned,
            r->link_bps);
  /* a link slower than learned and than the margin: the reply is late,
   * the message says how long it waited and the rate */
  s.x_ms_per_kib = 300;
  r->link_bps = 80000; /* a wait of ~0.7 s for a reply coming after 1.2 s */
  CHECK_FAILS(rvhal_rsp_write_mem(r, s.base, w, 4096), RVHAL_TIMEOUT, " ms (link 80000 bytes/s)");
  usleep(1000 * 1000); /* the stub's late reply sent before the socket closes (else SIGPIPE) */
  disconnect(&s, r, t);
}

int main(void) {
  test_codec();
  test_timeout_rule();
  test_honest();
  test_binary();
  test_registers();
  test_liars();
  return check_result("gdb_rsp");
}

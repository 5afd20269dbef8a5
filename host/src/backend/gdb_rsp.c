/* GDB remote serial protocol client (see gdb_rsp.h). */
#define _GNU_SOURCE /* memmem */
#include "backend/gdb_rsp.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/internal.h"

static const char hexdig[] = "0123456789abcdef";

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t rvhal_rsp_frame(const char *payload, size_t len, char *out, size_t cap) {
  size_t o = 0;
  uint8_t sum = 0;
  if (cap < 4) return 0;
  out[o++] = '$';
  for (size_t i = 0; i < len; i++) {
    char c = payload[i];
    if (c == '$' || c == '#' || c == '}' || c == '*') {
      if (o + 2 > cap - 3) return 0;
      out[o++] = '}';
      sum += '}';
      c ^= 0x20;
    }
    if (o + 1 > cap - 3) return 0;
    out[o++] = c;
    sum += (uint8_t)c;
  }
  out[o++] = '#';
  out[o++] = hexdig[sum >> 4];
  out[o++] = hexdig[sum & 15];
  return o;
}

int rvhal_rsp_parse(const char *in, size_t n, char *out, size_t cap, size_t *out_len, size_t *consumed,
                    const char **why) {
  size_t i = 0;
  while (i < n && (in[i] == '+' || in[i] == '-')) i++;
  if (i == n) {
    *consumed = i; /* acks only */
    return 0;
  }
  if (in[i] != '$') {
    *why = "a byte outside a packet (expected '$')";
    return -1;
  }
  size_t start = i + 1, end = start;
  while (end < n && in[end] != '#') end++;
  if (end + 2 >= n) {
    *consumed = 0;
    return 0; /* not all there yet */
  }
  uint8_t sum = 0;
  for (size_t k = start; k < end; k++) sum += (uint8_t)in[k];
  int h = hexval(in[end + 1]), l = hexval(in[end + 2]);
  if (h < 0 || l < 0 || (uint8_t)(h << 4 | l) != sum) {
    *why = "a bad checksum";
    return -1;
  }
  size_t o = 0;
  for (size_t k = start; k < end; k++) {
    char c = in[k];
    if (c == '*') { /* run length: the previous character, count - 29 more times */
      if (!o || k + 1 >= end || in[k + 1] < 29 + 3 || in[k + 1] > 126) {
        *why = "a bad run-length encoding";
        return -1;
      }
      size_t rep = (size_t)(in[++k] - 29);
      if (rep > cap - 1 - o) {
        *why = "a reply longer than the client takes";
        return -1;
      }
      memset(out + o, out[o - 1], rep);
      o += rep;
      continue;
    }
    if (o >= cap - 1) {
      *why = "a reply longer than the client takes";
      return -1;
    }
    out[o++] = c;
  }
  out[o] = '\0';
  *out_len = o;
  *consumed = end + 3;
  return 1;
}

static int send_all(rvhal_rsp_t *r, const char *p, size_t n) {
  while (n) {
    ssize_t w = send(r->fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: sending '%s': %s", r->what, strerror(errno));
    p += w;
    n -= (size_t)w;
  }
  return RVHAL_OK;
}

int rvhal_rsp_reply_timeout_ms(int floor_ms, size_t bytes, double link_bps) {
  const double bps = link_bps > 0 ? link_bps : RVHAL_RSP_ASSUMED_BPS;
  const size_t beyond = bytes > RVHAL_RSP_RATE_MIN_BYTES ? bytes - RVHAL_RSP_RATE_MIN_BYTES : 0;
  const double ms = (double)floor_ms + RVHAL_RSP_TIMEOUT_MARGIN * 1000.0 * (double)beyond / bps;
  if (floor_ms >= RVHAL_RSP_TIMEOUT_CAP_MS) return floor_ms; /* asked for: not cut */
  return ms < RVHAL_RSP_TIMEOUT_CAP_MS ? (int)ms : RVHAL_RSP_TIMEOUT_CAP_MS;
}

double rvhal_rsp_learn_rate(double link_bps, size_t bytes, double seconds) {
  if (bytes < RVHAL_RSP_RATE_MIN_BYTES || !(seconds > 0)) return link_bps;
  const double sample = (double)bytes / seconds;
  if (!(link_bps > 0) || sample < link_bps) return sample;
  return link_bps + (sample - link_bps) / 4;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int recv_packet_once(rvhal_rsp_t *r) {
  const int timeout_ms = rvhal_rsp_reply_timeout_ms(r->timeout_ms, r->expect, r->link_bps);
  for (;;) {
    size_t used = 0;
    const char *why = "";
    int got = rvhal_rsp_parse(r->in, r->in_len, r->reply, sizeof r->reply, &r->reply_len, &used, &why);
    if (got < 0)
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: the reply to '%s' has %s", r->what, why);
    if (used) {
      memmove(r->in, r->in + used, r->in_len - used);
      r->in_len -= used;
    }
    if (got) return r->no_ack ? RVHAL_OK : send_all(r, "+", 1);
    if (r->in_len == sizeof r->in)
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: the reply to '%s' is longer than %zu bytes", r->what,
                         sizeof r->in);
    struct pollfd p = {.fd = r->fd, .events = POLLIN};
    int rc;
    do rc = poll(&p, 1, timeout_ms);
    while (rc < 0 && errno == EINTR);
    if (rc == 0)
      return rvhal_error(RVHAL_TIMEOUT, "gdbstub: no reply to '%s' (%zu bytes) within %d ms (link %.0f bytes/s%s)",
                         r->what, r->expect, timeout_ms, r->link_bps > 0 ? r->link_bps : RVHAL_RSP_ASSUMED_BPS,
                         r->link_bps > 0 ? "" : ", assumed");
    ssize_t n;
    do n = recv(r->fd, r->in + r->in_len, sizeof r->in - r->in_len, 0);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: waiting for the reply to '%s': %s", r->what,
                         n < 0 ? strerror(errno) : "the stub closed the connection");
    r->in_len += (size_t)n;
  }
}

/* A reply that did not come in time, or came garbled, leaves the stream
 * out of step: a late reply would be read as the answer to the next
 * request (a memory read would return a write's "OK"). The connection is
 * not used again after that. */
static int recv_packet(rvhal_rsp_t *r) {
  int rc = recv_packet_once(r);
  if (rc && !r->lost[0]) snprintf(r->lost, sizeof r->lost, "%s", r->what[0] ? r->what : "?");
  return rc;
}

static int refuse_if_lost(rvhal_rsp_t *r, const char *next) {
  if (!r->lost[0]) return RVHAL_OK;
  return rvhal_error(RVHAL_DEVICE_LOST,
                     "gdbstub: not sending '%s': the reply to '%s' failed, so the connection is out of step "
                     "(a late reply would answer the next request) and is not used again",
                     next, r->lost);
}

static int send_n(rvhal_rsp_t *r, const char *payload, size_t len) {
  size_t shown = strcspn(payload, ":"); /* X's binary data is not for messages */
  if (shown > len) shown = len;
  snprintf(r->what, sizeof r->what, "%.*s%s", (int)(shown < 40 ? shown : 40), payload, shown < len ? "..." : "");
  RVHAL_RETURN_IF_ERROR(refuse_if_lost(r, r->what));
  size_t n = rvhal_rsp_frame(payload, len, r->out, sizeof r->out);
  if (!n || n > r->packet_size + 4)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "gdbstub: packet '%s' is longer than the stub's %zu bytes", r->what,
                       r->packet_size);
  return send_all(r, r->out, n);
}

int rvhal_rsp_send(rvhal_rsp_t *r, const char *payload) { return send_n(r, payload, strlen(payload)); }

/* A request moving len bytes and a reply of reply_len (as expected). Only
 * memory reads and writes teach the link's rate: they cross it to the
 * target, while a stub answers its target description from its own memory
 * (OpenOCD's, KiB at once: it taught Spike's 17 KiB/s link tens of MB/s). */
static int request_sized(rvhal_rsp_t *r, const char *payload, size_t len, size_t reply_len, int crosses_link) {
  r->expect = len + reply_len;
  const double t0 = now_s();
  int rc = send_n(r, payload, len);
  if (!rc) rc = recv_packet(r);
  if (!rc && crosses_link) r->link_bps = rvhal_rsp_learn_rate(r->link_bps, len + r->reply_len, now_s() - t0);
  r->expect = 0;
  if (!rc) r->packets++;
  return rc;
}

int rvhal_rsp_request(rvhal_rsp_t *r, const char *payload) {
  return request_sized(r, payload, strlen(payload), 0, 0);
}

/* Replies quoted in messages: short, printable. */
static const char *quote(rvhal_rsp_t *r) {
  static __thread char q[48];
  size_t i = 0;
  for (; i < r->reply_len && i < sizeof q - 4; i++) q[i] = r->reply[i] >= 32 && r->reply[i] < 127 ? r->reply[i] : '?';
  if (r->reply_len > i) q[i++] = '.', q[i++] = '.', q[i++] = '.';
  q[i] = '\0';
  return q;
}

int rvhal_rsp_open(rvhal_rsp_t *r, int fd, int timeout_ms) {
  r->fd = fd;
  r->no_ack = 0;
  r->packet_size = 256; /* until the stub says */
  r->timeout_ms = timeout_ms;
  r->in_len = 0;
  r->lost[0] = '\0';
  r->multiprocess = 0;
  r->attached = 0;
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, r->want_multiprocess ? "qSupported:multiprocess+;swbreak+;hwbreak+"
                                                                  : "qSupported:multiprocess-;swbreak+;hwbreak+"));
  /* A stub that stops the target when a client connects may say so first
   * (QEMU on a TCP or unix listener sends "T02thread:01;"): a stop reply is
   * never the answer to qSupported. */
  for (int stray = 0; (r->reply[0] == 'T' || r->reply[0] == 'S') && r->reply_len <= 64; stray++) {
    if (stray == 4) return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: qSupported answered by stop replies only");
    RVHAL_RETURN_IF_ERROR(recv_packet(r));
  }
  const char *ps = strstr(r->reply, "PacketSize=");
  if (ps) {
    char *end;
    unsigned long long v = strtoull(ps + 11, &end, 16);
    if (end == ps + 11 || v < 64)
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: qSupported replied PacketSize '%.16s', not a size", ps + 11);
    r->packet_size = v < RVHAL_RSP_MAX_PACKET ? (size_t)v : RVHAL_RSP_MAX_PACKET;
  }
  if (r->want_multiprocess && strstr(r->reply, "multiprocess+")) {
    r->multiprocess = 1;
    r->attached = 1u << 1; /* a new connection attaches the first process */
  }
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, "QStartNoAckMode"));
  if (!strcmp(r->reply, "OK")) r->no_ack = 1; /* else keep acknowledging: slower, still correct */
  r->binary = 0;
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, "X0,0:"));
  r->binary = !strcmp(r->reply, "OK"); /* "": not supported (QEMU 7.2) */
  return RVHAL_OK;
}

int rvhal_rsp_interrupt(rvhal_rsp_t *r) {
  RVHAL_RETURN_IF_ERROR(refuse_if_lost(r, "\\x03"));
  snprintf(r->what, sizeof r->what, "\\x03 (interrupt)");
  RVHAL_RETURN_IF_ERROR(send_all(r, "\x03", 1));
  r->halts++;
  for (int others = 0;; others++) {
    if (others == 1000)
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: 1000 packets after \\x03 and no stop reply (the last: '%s')",
                         quote(r));
    RVHAL_RETURN_IF_ERROR(recv_packet(r));
    char k = r->reply[0];
    if (k == 'T' || k == 'S') break;
    if (k == 'W' || k == 'X')
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: the target exited ('%s') instead of stopping", quote(r));
    if (k != 'O') /* console output: not an answer */
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' is not a stop reply to \\x03", quote(r));
  }
  r->packets++;
  return RVHAL_OK;
}

int rvhal_rsp_read_mem(rvhal_rsp_t *r, uint64_t addr, void *buf, size_t len) {
  uint8_t *p = buf;
  size_t chunk = (r->packet_size - 8) / 2; /* hex: two characters a byte */
  if (chunk > (sizeof r->reply - 1) / 2) chunk = (sizeof r->reply - 1) / 2;
  while (len) {
    size_t n = len < chunk ? len : chunk;
    char req[48];
    snprintf(req, sizeof req, "m%llx,%zx", (unsigned long long)addr, n);
    RVHAL_RETURN_IF_ERROR(request_sized(r, req, strlen(req), 2 * n, 1));
    if (r->reply_len != 2 * n)
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s' (%zu characters, expected %zu hex digits)",
                         req, quote(r), r->reply_len, 2 * n);
    for (size_t i = 0; i < n; i++) {
      int h = hexval(r->reply[2 * i]), l = hexval(r->reply[2 * i + 1]);
      if (h < 0 || l < 0)
        return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s': not hex at character %zu", req, quote(r),
                           2 * i);
      p[i] = (uint8_t)(h << 4 | l);
    }
    p += n;
    addr += n;
    len -= n;
    r->bytes_read += n;
  }
  return RVHAL_OK;
}

/* The reply to a memory write (X or M) of n bytes at addr. */
static int written(rvhal_rsp_t *r, char packet, uint64_t addr, size_t n) {
  if (strcmp(r->reply, "OK"))
    return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%c%llx,%zx' replied '%s', expected 'OK'", packet,
                       (unsigned long long)addr, n, quote(r));
  r->bytes_written += n;
  return RVHAL_OK;
}

/* X: as many bytes as fit the packet once escaped. */
static int write_binary(rvhal_rsp_t *r, uint64_t addr, const uint8_t *p, size_t len) {
  const size_t room = r->packet_size - 48; /* "Xaddr,len:" and the frame */
  while (len) {
    size_t n = 0, esc = 0;
    while (n < len) {
      uint8_t c = p[n];
      size_t k = c == '$' || c == '#' || c == '}' || c == '*' ? 2 : 1;
      if (esc + k > room) break;
      esc += k;
      n++;
    }
    int h = snprintf(r->payload, sizeof r->payload, "X%llx,%zx:", (unsigned long long)addr, n);
    memcpy(r->payload + h, p, n);
    RVHAL_RETURN_IF_ERROR(request_sized(r, r->payload, (size_t)h + n, 0, 1));
    RVHAL_RETURN_IF_ERROR(written(r, 'X', addr, n));
    p += n;
    addr += n;
    len -= n;
  }
  return RVHAL_OK;
}

int rvhal_rsp_write_mem(rvhal_rsp_t *r, uint64_t addr, const void *buf, size_t len) {
  const uint8_t *p = buf;
  if (r->binary) return write_binary(r, addr, p, len);
  size_t chunk = (r->packet_size - 48) / 2; /* "Maddr,len:" and hex */
  while (len) {
    size_t n = len < chunk ? len : chunk;
    int h = snprintf(r->payload, sizeof r->payload, "M%llx,%zx:", (unsigned long long)addr, n);
    char *o = r->payload + h;
    for (size_t i = 0; i < n; i++) {
      *o++ = hexdig[p[i] >> 4];
      *o++ = hexdig[p[i] & 15];
    }
    *o = '\0';
    RVHAL_RETURN_IF_ERROR(request_sized(r, r->payload, strlen(r->payload), 0, 1));
    RVHAL_RETURN_IF_ERROR(written(r, 'M', addr, n));
    p += n;
    addr += n;
    len -= n;
  }
  return RVHAL_OK;
}

/* ---- registers by name (the target description) ---- */

#define XML_MAX (256u << 10) /* one description file */
#define XML_DEPTH 2          /* target.xml and the files it includes */

/* The file `annex` of the stub's target description, NUL-terminated, in a
 * malloc'd *out (qXfer:features:read: 'm' more follows, 'l' the last part). */
static int read_xml(rvhal_rsp_t *r, const char *annex, char **out) {
  size_t len = 0, cap = 4096;
  char *doc = malloc(cap);
  if (!doc) return rvhal_error(RVHAL_HOST_IO, "out of host memory");
  for (;;) {
    char req[160];
    snprintf(req, sizeof req, "qXfer:features:read:%s:%zx,%zx", annex, len, r->packet_size - 8);
    int rc = rvhal_rsp_request(r, req);
    if (!rc && (r->reply_len < 1 || (r->reply[0] != 'm' && r->reply[0] != 'l')))
      rc = rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s', not a part of the target description", req,
                       quote(r));
    if (!rc && len + r->reply_len > XML_MAX)
      rc = rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: target description %s is larger than %u bytes", annex, XML_MAX);
    if (!rc && len + r->reply_len >= cap) {
      char *more = realloc(doc, cap = len + r->reply_len + 4096);
      if (!more) rc = rvhal_error(RVHAL_HOST_IO, "out of host memory");
      else doc = more;
    }
    if (rc) {
      free(doc);
      return rc;
    }
    memcpy(doc + len, r->reply + 1, r->reply_len - 1);
    len += r->reply_len - 1;
    if (r->reply[0] == 'l' || r->reply_len == 1) break;
  }
  if (memchr(doc, '\0', len)) {
    free(doc);
    return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: target description %s contains a NUL byte", annex);
  }
  doc[len] = '\0';
  *out = doc;
  return RVHAL_OK;
}

/* The value of attribute `attr` in the tag [tag, end) into buf: 0, or -1 if
 * absent or too long. */
static int xml_attr(const char *tag, const char *end, const char *attr, char *buf, size_t cap) {
  char key[24];
  snprintf(key, sizeof key, " %s=\"", attr);
  const char *a = memmem(tag, (size_t)(end - tag), key, strlen(key)); /* this tag only: linear in the document */
  if (!a) return -1;
  const char *v = a + strlen(key);
  if (v >= end) return -1;
  const char *q = memchr(v, '"', (size_t)(end - v));
  if (!q || (size_t)(q - v) >= cap) return -1;
  memcpy(buf, v, (size_t)(q - v));
  buf[q - v] = '\0';
  return 0;
}

/* Walks `doc` in order: <reg> numbers the registers (next, or its regnum),
 * <xi:include> walks the included file at that point. */
static int scan_regs(rvhal_rsp_t *r, const char *doc, int depth, const char *const *names, unsigned count,
                     unsigned *next, unsigned *regnums) {
  for (const char *p = doc; (p = strchr(p, '<'));) {
    const char *end = strchr(p, '>');
    if (!end) break;
    char v[128];
    if (!strncmp(p, "<reg ", 5) || !strncmp(p, "<reg\t", 5)) {
      if (!xml_attr(p, end, "regnum", v, sizeof v)) {
        char *e;
        unsigned long n = strtoul(v, &e, 10);
        if (*v < '0' || *v > '9' || *e || n > 1000000)
          return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: target description: regnum \"%s\" is not a register number",
                             v);
        *next = (unsigned)n;
      }
      if (!xml_attr(p, end, "name", v, sizeof v))
        for (unsigned i = 0; i < count; i++)
          if (regnums[i] == RVHAL_RSP_NO_REGISTER && !strcmp(v, names[i])) regnums[i] = *next;
      (*next)++;
    } else if (!strncmp(p, "<xi:include ", 12)) {
      if (depth >= XML_DEPTH) return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: target description nested too deep");
      static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";
      if (xml_attr(p, end, "href", v, sizeof v) || !v[0] || v[0] == '.' || strspn(v, plain) != strlen(v))
        return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: target description: an xi:include without a plain href");
      char *sub;
      RVHAL_RETURN_IF_ERROR(read_xml(r, v, &sub));
      int rc = scan_regs(r, sub, depth + 1, names, count, next, regnums);
      free(sub);
      RVHAL_RETURN_IF_ERROR(rc);
    }
    p = end + 1;
  }
  return RVHAL_OK;
}

int rvhal_rsp_find_registers(rvhal_rsp_t *r, const char *const *names, unsigned count, unsigned *out_regnums) {
  for (unsigned i = 0; i < count; i++) out_regnums[i] = RVHAL_RSP_NO_REGISTER;
  char *doc;
  RVHAL_RETURN_IF_ERROR(read_xml(r, "target.xml", &doc));
  unsigned next = 0;
  int rc = scan_regs(r, doc, 1, names, count, &next, out_regnums);
  free(doc);
  return rc;
}

int rvhal_rsp_find_register(rvhal_rsp_t *r, const char *name, unsigned *out_regnum) {
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_find_registers(r, &name, 1, out_regnum));
  if (*out_regnum == RVHAL_RSP_NO_REGISTER)
    return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: the target description has no register %s", name);
  return RVHAL_OK;
}

int rvhal_rsp_attach_processes(rvhal_rsp_t *r) {
  if (!r->multiprocess) return RVHAL_OK;
  for (unsigned pid = 2; pid < 32; pid++) {
    char req[32];
    snprintf(req, sizeof req, "vAttach;%x", pid);
    RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, req));
    if (r->reply[0] == 'E' || r->reply_len == 0) break; /* no such process: the list ends */
    if (r->reply[0] != 'T' && r->reply[0] != 'S')
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s', not a stop reply", req, quote(r));
    r->attached |= 1u << pid;
  }
  return RVHAL_OK;
}

int rvhal_rsp_select_thread(rvhal_rsp_t *r, unsigned thread) {
  char req[40];
  if (r->multiprocess) snprintf(req, sizeof req, "Hgp%x.%x", thread >> 24, thread & 0xffffff);
  else snprintf(req, sizeof req, "Hg%x", thread);
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, req));
  if (strcmp(r->reply, "OK"))
    return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s' (no such thread?)", req, quote(r));
  return RVHAL_OK;
}

int rvhal_rsp_read_register(rvhal_rsp_t *r, unsigned regnum, uint64_t *out_value, unsigned *out_bytes) {
  char req[32];
  snprintf(req, sizeof req, "p%x", regnum);
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, req));
  if (r->reply_len < 2 || r->reply_len > 16 || r->reply_len % 2) /* OpenOCD's priv has 8 bits */
    return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s', not a register of 8 to 64 bits", req, quote(r));
  uint64_t v = 0;
  for (size_t i = r->reply_len / 2; i-- > 0;) { /* target byte order: little-endian */
    int h = hexval(r->reply[2 * i]), l = hexval(r->reply[2 * i + 1]);
    if (h < 0 || l < 0) return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s': not hex", req, quote(r));
    v = v << 8 | (uint64_t)(h << 4 | l);
  }
  *out_value = v;
  *out_bytes = (unsigned)(r->reply_len / 2);
  return RVHAL_OK;
}

int rvhal_rsp_write_register(rvhal_rsp_t *r, unsigned regnum, uint64_t value, unsigned bytes) {
  char req[64];
  int n = snprintf(req, sizeof req, "P%x=", regnum);
  for (unsigned i = 0; i < bytes && i < 8; i++) {
    req[n++] = hexdig[(value >> (8 * i + 4)) & 0xf];
    req[n++] = hexdig[(value >> (8 * i)) & 0xf];
  }
  req[n] = '\0';
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, req));
  if (strcmp(r->reply, "OK")) return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s'", req, quote(r));
  return RVHAL_OK;
}

/* ---- monitor commands, threads, detach ---- */

int rvhal_rsp_monitor(rvhal_rsp_t *r, const char *cmd, char *out, size_t cap) {
  size_t len = strlen(cmd), o = 0;
  if (cap) out[0] = '\0';
  if (len > (r->packet_size - 16) / 2 || len > 200)
    return rvhal_error(RVHAL_INVALID_ARGUMENT, "gdbstub: monitor command '%.40s...' is too long (%zu bytes)", cmd, len);
  char req[16 + 2 * 200];
  int n = snprintf(req, sizeof req, "qRcmd,");
  for (size_t i = 0; i < len; i++) {
    req[n++] = hexdig[(uint8_t)cmd[i] >> 4];
    req[n++] = hexdig[(uint8_t)cmd[i] & 15];
  }
  req[n] = '\0';
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_send(r, req));
  snprintf(r->what, sizeof r->what, "monitor %.40s", cmd);
  for (int parts = 0;; parts++) {
    if (parts == 10000)
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: 'monitor %s' sent 10000 output packets and no reply", cmd);
    RVHAL_RETURN_IF_ERROR(recv_packet(r));
    /* Console output, hex; OpenOCD also sends an empty one ('O') */
    if (r->reply[0] == 'O' && r->reply_len % 2 == 1) {
      for (size_t i = 1; i + 1 < r->reply_len; i += 2) {
        int h = hexval(r->reply[i]), l = hexval(r->reply[i + 1]);
        if (h < 0 || l < 0) break;
        if (o + 1 < cap) out[o++] = (char)(h << 4 | l), out[o] = '\0';
      }
      continue;
    }
    r->packets++;
    if (!strcmp(r->reply, "OK")) return RVHAL_OK;
    if (r->reply_len == 0)
      return rvhal_error(RVHAL_UNSUPPORTED, "gdbstub: the stub has no monitor commands ('monitor %s' replied '')", cmd);
    if (r->reply_len % 2 == 0 && r->reply[0] != 'E') { /* output as the reply itself (older stubs), then OK */
      for (size_t i = 0; i + 1 < r->reply_len; i += 2) {
        int h = hexval(r->reply[i]), l = hexval(r->reply[i + 1]);
        if (h < 0 || l < 0) break;
        if (o + 1 < cap) out[o++] = (char)(h << 4 | l), out[o] = '\0';
      }
      continue;
    }
    return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: 'monitor %s' replied '%s'%s%.200s", cmd, quote(r),
                       o ? "; it printed: " : "", o ? out : "");
  }
}

int rvhal_rsp_threads(rvhal_rsp_t *r, unsigned *ids, unsigned max, unsigned *out_count) {
  unsigned n = 0;
  for (const char *req = "qfThreadInfo";; req = "qsThreadInfo") {
    RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, req));
    if (!strcmp(r->reply, "l")) break;
    if (r->reply[0] != 'm')
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s', not a thread list", req, quote(r));
    for (const char *p = r->reply + 1; *p;) {
      char *end;
      unsigned long pid = 0;
      if (r->multiprocess && *p == 'p') { /* pPID.TID */
        pid = strtoul(p + 1, &end, 16);
        if (end == p + 1 || *end != '.' || pid == 0 || pid > 31)
          return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s': not a list of thread ids", req, quote(r));
        p = end + 1;
      }
      unsigned long t = strtoul(p, &end, 16);
      if (end == p || (*end && *end != ',') || t == 0 || t > 0xffffff)
        return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' replied '%s': not a list of thread ids", req, quote(r));
      if (n == max)
        return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: the stub lists more than %u threads (harts)", max);
      ids[n++] = r->multiprocess ? RVHAL_RSP_THREAD(pid ? pid : 1, t) : (unsigned)t;
      p = *end ? end + 1 : end;
    }
  }
  *out_count = n;
  return RVHAL_OK;
}

int rvhal_rsp_detach(rvhal_rsp_t *r) {
  /* With several processes, the others first: detaching the last one
   * resumes the target (QEMU). */
  for (unsigned pid = 32; r->multiprocess && pid-- > 1;) {
    if (!(r->attached & (1u << pid))) continue;
    char req[32];
    snprintf(req, sizeof req, "D;%x", pid);
    RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, req));
    if (strcmp(r->reply, "OK"))
      return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: '%s' (detach) replied '%s'", req, quote(r));
    r->attached &= ~(1u << pid);
  }
  if (r->multiprocess) return RVHAL_OK;
  RVHAL_RETURN_IF_ERROR(rvhal_rsp_request(r, "D"));
  if (strcmp(r->reply, "OK")) return rvhal_error(RVHAL_DEVICE_LOST, "gdbstub: 'D' (detach) replied '%s'", quote(r));
  return RVHAL_OK;
}

/* libFuzzer target: the GDB remote protocol client (host/src/backend/gdb_rsp.c)
 * against a stub that sends anything. The input is everything the stub
 * says, in order; the client opens a session and then reads and writes
 * memory, looks up a register in the target description, reads it, and
 * halts the target. Nothing the stub sends may make the client read or
 * write out of bounds, loop, or wait: the stub's side is closed after the
 * input, so a client that wants more gets an error at once. */
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "backend/gdb_rsp.h"

#define MAX_INPUT 65536 /* below a socket's buffer: the write below never blocks */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static rvhal_rsp_t r; /* 260 KiB: not on the stack */
  if (size > MAX_INPUT) return 0;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0) return 0;
  int sz = 4 * MAX_INPUT;
  setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
  setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
  setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz); /* what the client sends: never read */
  for (size_t done = 0; done < size;) {
    ssize_t w = write(sv[1], data + done, size - done);
    if (w <= 0) break;
    done += (size_t)w;
  }
  shutdown(sv[1], SHUT_WR);
  if (rvhal_rsp_open(&r, sv[0], 1000) == 0) {
    uint8_t buf[96];
    memset(buf, 0x24, sizeof buf); /* '$': escaped in X packets */
    (void)rvhal_rsp_read_mem(&r, 0x80000000u, buf, sizeof buf);
    (void)rvhal_rsp_write_mem(&r, 0x80000000u, buf, sizeof buf);
    unsigned regnum = 0, bytes = 0;
    uint64_t value = 0;
    (void)rvhal_rsp_find_register(&r, "sip", &regnum);
    (void)rvhal_rsp_select_thread(&r, 1);
    (void)rvhal_rsp_read_register(&r, regnum, &value, &bytes);
    (void)rvhal_rsp_write_register(&r, regnum, value | 2, bytes ? bytes : 8);
    (void)rvhal_rsp_interrupt(&r);
  }
  close(sv[0]);
  close(sv[1]);
  return 0;
}

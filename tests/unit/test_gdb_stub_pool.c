/* Unit test of the stub list (host/src/backend/gdb_stub_pool.c): devices
 * take a listed stub each, in order, with the UART at the same position;
 * a held stub is skipped, a released one is taken again; with every stub
 * held the claim fails naming the list; empty and over-long entries are
 * errors. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "backend/gdb_stub_pool.h"
#include "rvhal/status.h"

int main(void) {
  char a[64], u[64], b[64], ub[64], c[64], uc[64];
  const char *list = "127.0.0.1:3333,unix:/tmp/s,[::1]:3335", *uarts = "/dev/ttyUSB0,/dev/ttyUSB1,115200";
  CHECK(rvhal_gdb_stub_claim(list, uarts, a, sizeof a, u, sizeof u) == RVHAL_OK);
  CHECK(!strcmp(a, "127.0.0.1:3333") && !strcmp(u, "/dev/ttyUSB0"));
  CHECK(rvhal_gdb_stub_claim(list, uarts, b, sizeof b, ub, sizeof ub) == RVHAL_OK);
  CHECK(!strcmp(b, "unix:/tmp/s") && !strcmp(ub, "/dev/ttyUSB1"));
  CHECK(rvhal_gdb_stub_claim(list, NULL, c, sizeof c, uc, sizeof uc) == RVHAL_OK);
  CHECK(!strcmp(c, "[::1]:3335") && uc[0] == '\0'); /* no UART list */
  char d[64];
  int rc = rvhal_gdb_stub_claim(list, NULL, d, sizeof d, NULL, 0);
  CHECK(rc == RVHAL_BUSY && strstr(rvhal_last_error(), "all 3 stubs are held") && strstr(rvhal_last_error(), list));
  rvhal_gdb_stub_release(b);
  CHECK(rvhal_gdb_stub_claim(list, uarts, d, sizeof d, ub, sizeof ub) == RVHAL_OK && !strcmp(d, "unix:/tmp/s"));
  rvhal_gdb_stub_release(a);
  rvhal_gdb_stub_release(c);
  rvhal_gdb_stub_release(d);
  rvhal_gdb_stub_release("not held"); /* ignored */
  /* one stub: a second device gets RVHAL_BUSY at once */
  CHECK(rvhal_gdb_stub_claim("localhost:1", NULL, a, sizeof a, NULL, 0) == RVHAL_OK && !strcmp(a, "localhost:1"));
  CHECK(rvhal_gdb_stub_claim("localhost:1", NULL, b, sizeof b, NULL, 0) == RVHAL_BUSY);
  rvhal_gdb_stub_release(a);
  /* bad lists */
  rc = rvhal_gdb_stub_claim("a:1,,b:2", NULL, a, sizeof a, NULL, 0);
  CHECK(rc == RVHAL_OK && !strcmp(a, "a:1"));
  rc = rvhal_gdb_stub_claim("a:1,,b:2", NULL, b, sizeof b, NULL, 0);
  CHECK(rc == RVHAL_INVALID_ARGUMENT && strstr(rvhal_last_error(), "entry 2 is empty"));
  rvhal_gdb_stub_release(a);
  rc = rvhal_gdb_stub_claim("a-very-long-host-name:1234", NULL, a, 8, NULL, 0);
  CHECK(rc == RVHAL_INVALID_ARGUMENT && strstr(rvhal_last_error(), "entry 1 is too long"));
  return check_result("gdb_stub_pool");
}

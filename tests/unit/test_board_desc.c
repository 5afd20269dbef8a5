/* Unit test of the board descriptor parser (host/src/backend/board_desc.c): the
 * qemu-virt descriptor parses to its values; every malformed variant is
 * refused with a message naming what was wrong. */
#include <stdio.h>
#include <string.h>

#include "backend/board_desc.h"
#include "board_fixture.h"
#include "check.h"

/* The qemu-virt text with the line starting `key ` replaced by `line`
 * (NULL: removed), or `line` appended when no line has that key. */
static void edited(const char *key, const char *line, char *out, size_t cap) {
  const char *src = QEMU_VIRT_DESC;
  size_t klen = strlen(key);
  int replaced = 0;
  out[0] = '\0';
  while (*src) {
    size_t len = strcspn(src, "\n");
    if (!strncmp(src, key, klen) && src[klen] == ' ' && !replaced) {
      if (line) snprintf(out + strlen(out), cap - strlen(out), "%s\n", line);
      replaced = 1;
    } else {
      snprintf(out + strlen(out), cap - strlen(out), "%.*s\n", (int)len, src);
    }
    src += len + (src[len] == '\n');
  }
  if (!replaced && line) snprintf(out + strlen(out), cap - strlen(out), "%s\n", line);
}

static void refused(const char *key, const char *line, const char *needle) {
  char text[2048];
  edited(key, line, text, sizeof text);
  rvhal_board_desc_t d;
  int rc = rvhal_board_desc_parse(text, "t.board", &d);
  CHECK_MSG(rc == RVHAL_INVALID_ARGUMENT, "%s -> %s: accepted", key, line ? line : "(removed)");
  if (rc) CHECK_MSG(strstr(rvhal_last_error(), needle), "%s: message \"%s\" lacks \"%s\"", key, rvhal_last_error(), needle);
}

int main(void) {
  rvhal_board_desc_t b = qemu_virt_board();
  CHECK(!strcmp(b.name, "qemu-virt") && !strcmp(b.isa, "rv64imafdc") && b.priv == 'M');
  CHECK_EQ_U64(b.ram_base, 0x80000000ull);
  CHECK_EQ_U64(b.max_harts, 8);
  CHECK_EQ_U64(b.timebase_hz, 10000000ull);
  CHECK_EQ_U64(b.fault_addr, 0x10);
  CHECK(b.qemu_boot == RVHAL_BOARD_BOOT_KERNEL && !b.doorbell_polled && !strcmp(b.qemu_bios, "none"));
  CHECK(b.qemu_dtb_empty == 1);
  CHECK(b.debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_MSIP);
  CHECK_EQ_U64(b.debug_doorbell_addr, 0x2000000);
  CHECK(!strcmp(b.debug_reset, "system_reset") && b.debug_start_entry == 1);
  /* debug_doorbell none, and another hart's MSIP */
  char text[2048];
  rvhal_board_desc_t d;
  edited("debug_doorbell", "debug_doorbell none", text, sizeof text);
  CHECK(!rvhal_board_desc_parse(text, "t.board", &d) && d.debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_NONE);
  edited("debug_doorbell", "debug_doorbell msip 0x2000004", text, sizeof text);
  CHECK(!rvhal_board_desc_parse(text, "t.board", &d) && d.debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_MSIP &&
        d.debug_doorbell_addr == 0x2000004);

  refused("rvhal-board", "rvhal-board 1", "descriptor version 1; this rvhal reads version 5");
  refused("rvhal-board", "board 1", "not a board descriptor");
  refused("name", NULL, "no name");
  refused("name", "name qemu-virt", "quoted string");
  refused("name", "name \"Qemu virt\"", "use a-z");
  refused("name", "name \"a\\\"b\"", "quoted string");
  refused("xlen", "xlen 128", "xlen 128");
  refused("xlen", "xlen -64", "unsigned number");
  refused("xlen", "xlen 64x", "unsigned number");
  refused("max_harts", "max_harts 0", "max_harts 0");
  refused("max_harts", "max_harts 99", "max_harts 99");
  refused("fw_offset", "fw_offset 0x1000", "fw_offset 0x1000");
  refused("ram_default", "ram_default 0x100000", "ram_default");
  refused("priv", "priv \"U\"", "\"M\" or \"S\"");
  refused("qemu_boot", "qemu_boot \"pxe\"", "qemu_boot");
  refused("qemu_dtb", "qemu_dtb \"none\"", "qemu_dtb: expected \"machine\" or \"empty\", found \"none\"");
  refused("qemu_dtb", "qemu_dtb empty", "qemu_dtb: expected");
  refused("qemu_dtb", NULL, "no qemu_dtb");
  refused("doorbell_polled", "doorbell_polled 2", "0 or 1");
  refused("debug_start", "debug_start \"pc\"", "debug_start: expected \"entry\" or \"reset\", found \"pc\"");
  refused("debug_start", NULL, "no debug_start");
  refused("debug_reset", NULL, "no debug_reset");
  refused("isa_ext", "isa_ext \"IMA\"", "isa_ext");
  /* vector harts: a VLEN QEMU gives, and "v" in the ISA exactly when there is one */
  refused("vlen", NULL, "no vlen");
  refused("vlen", "vlen 96", "vlen 96: 128, 256, 512 or 1024 bits");
  refused("vlen", "vlen 256", "vlen 256 with ISA rv64imafdc");
  refused("isa_ext", "isa_ext \"imafdcv\"", "vlen 0 with ISA rv64imafdcv");
  refused("qemu_machine", "qemu_machine \"virt,accel=kvm\"", "comma");
  refused("timebase_hz", "timebase_hz 0", "timebase_hz 0");
  refused("extra", "extra 1", "unknown key \"extra\"");
  /* debug_doorbell: a kind the host knows, a register's address outside RAM;
   * the message names the file, the line and the field */
  refused("debug_doorbell", NULL, "no debug_doorbell");
  refused("debug_doorbell", "debug_doorbell uart", "t.board:16: debug_doorbell: expected none, msip <address> or ssip, found uart");
  refused("debug_doorbell", "debug_doorbell \"none\"", "t.board:16: debug_doorbell: expected none, msip <address> or ssip, found \"none\"");
  refused("debug_doorbell", "debug_doorbell msip", "debug_doorbell: expected none, msip <address> or ssip, found msip");
  refused("debug_doorbell", "debug_doorbell msip -4", "found msip -4");
  refused("debug_doorbell", "debug_doorbell msip 0x2000000 1", "found msip 0x2000000 1");
  refused("debug_doorbell", "debug_doorbell none 0x2000000", "found none 0x2000000");
  refused("debug_doorbell", "debug_doorbell ssip", "t.board:16: debug_doorbell: ssip wakes S-mode firmware only; this board's is M-mode");
  refused("debug_doorbell", "debug_doorbell ssip 1", "found ssip 1");
  refused("debug_doorbell", "debug_doorbell msip 0", "t.board:16: debug_doorbell: msip 0x0 is not the address");
  refused("debug_doorbell", "debug_doorbell msip 0x2000002", "t.board:16: debug_doorbell: msip 0x2000002 is not the address");
  refused("debug_doorbell", "debug_doorbell msip 0x80001000", "msip 0x80001000 is not the address of a 32-bit register outside RAM");
  refused("debug_doorbell", "debug_doorbell msip 0x80000000", "msip 0x80000000 is not");
  refused("debug_doorbell", "debug_doorbell msip 0xfffffffc", "msip 0xfffffffc is not");
  refused("debug_doorbell", "debug_doorbell msip 0xfffffffffffffffc", "msip 0xfffffffffffffffc");
  refused("debug_doorbell", "debug_doorbell msip 0x99999999999999999999", "found msip 0x99999999999999999999");
  refused("xlen", "xlen  64", "expected \"key value\"");
  char twice[2048];
  snprintf(twice, sizeof twice, "%sxlen 64\n", QEMU_VIRT_DESC);
  CHECK_FAILS(rvhal_board_desc_parse(twice, "t.board", &d), RVHAL_INVALID_ARGUMENT, "xlen given twice");
  snprintf(twice, sizeof twice, "%sdebug_doorbell none\n", QEMU_VIRT_DESC);
  CHECK_FAILS(rvhal_board_desc_parse(twice, "t.board", &d), RVHAL_INVALID_ARGUMENT, "t.board:26: debug_doorbell given twice");
  /* ssip: an S-mode board */
  edited("priv", "priv \"S\"", text, sizeof text);
  char smode[2048];
  const char *at = strstr(text, "debug_doorbell ");
  snprintf(smode, sizeof smode, "%.*sdebug_doorbell ssip%s", (int)(at - text), text, strchr(at, '\n'));
  CHECK(!rvhal_board_desc_parse(smode, "t.board", &d) && d.debug_doorbell == RVHAL_BOARD_DEBUG_DOORBELL_SSIP);
  /* RV32: the register must lie below 4 GiB */
  edited("xlen", "xlen 32", text, sizeof text);
  char rv32[2048];
  const char *dbl = strstr(text, "debug_doorbell ");
  snprintf(rv32, sizeof rv32, "%.*sdebug_doorbell msip 0x100000000%s", (int)(dbl - text), text, strchr(dbl, '\n'));
  CHECK_FAILS(rvhal_board_desc_parse(rv32, "t.board", &d), RVHAL_INVALID_ARGUMENT, "msip 0x100000000 is not the address");
  CHECK_FAILS(rvhal_board_desc_parse("", "t.board", &d), RVHAL_INVALID_ARGUMENT, "empty board descriptor");
  CHECK_FAILS(rvhal_board_desc_load("/nonexistent/x.board", &d), RVHAL_NOT_FOUND, "/nonexistent/x.board");
  return check_result("board_desc");
}

#!/bin/sh
# boards/template, the folder a porter copies, says what the build and its
# own machine want: the board is added with RVHAL_EXTRA_BOARDS (RVHAL_BOARDS
# replaces the default list), and each fact it states for QEMU's machine
# (its RVHAL_BOARD_QEMU_MACHINE) is that machine's, as boards/qemu-virt has
# them for virt: the time CSR, the UART, the CLINT and the timebase.
#   template_board.sh SOURCE_DIR
set -eu
SRC=$1
T=$SRC/boards/template/board.h
failed=0
fact() { sed -n "s/^#define $1 \\([^ ]*\\).*/\\1/p" "$2" | head -1; }
grep -q "RVHAL_EXTRA_BOARDS" "$T" || { echo "FAIL: $T does not say to add the board with RVHAL_EXTRA_BOARDS"; failed=1; }
if grep -qi "add <name> to RVHAL_BOARDS" "$T"; then echo "FAIL: $T says to add the board to RVHAL_BOARDS"; failed=1; fi
machine=$(fact RVHAL_BOARD_QEMU_MACHINE "$T")
[ "$machine" = '"virt"' ] || { echo "FAIL: the template's machine is $machine; this check knows virt's facts"; exit 1; }
for m in RVHAL_BOARD_TIME_CSR RVHAL_BOARD_UART_BASE RVHAL_BOARD_CLINT_BASE RVHAL_BOARD_TIMEBASE_HZ; do
  want=$(fact "$m" "$SRC/boards/qemu-virt/board.h")
  got=$(fact "$m" "$T")
  if [ "$got" != "$want" ]; then
    echo "FAIL: $m is $got in the template, $want in qemu-virt (the same QEMU machine)"
    failed=1
  else
    echo "$m $got: as virt's"
  fi
done
exit $failed

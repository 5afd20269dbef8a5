#!/bin/sh
# board_descriptors.sh RVHAL FIRMWARE_DIR: the platform's devices come from
# the board descriptors in $RVHAL_FIRMWARE_DIR. A directory with qemu-virt's
# image and descriptor, a descriptor that does not parse and one whose board
# name is bad lists exactly one device, says why the others were left out,
# and that device still boots.
set -u
EXPECT=$(dirname "$0")/expect.sh
RVHAL=$1
FW=$2
failed=0
ok() { "$EXPECT" "$@" >/dev/null || { "$EXPECT" "$@"; failed=1; }; }
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
cp "$FW/rvhal-fw-qemu-virt-rv64.elf" "$FW/rvhal-fw-qemu-virt-rv64.board" "$dir/"
printf 'rvhal-board 5\nname "broken"\nxlen 64 64\n' >"$dir/rvhal-fw-broken-rv64.board"
sed 's/^name .*/name "Bad Name"/' "$FW/rvhal-fw-qemu-virt-rv64.board" >"$dir/rvhal-fw-badname-rv64.board"
RVHAL_FIRMWARE_DIR=$dir
export RVHAL_FIRMWARE_DIR
ok 0 'out:^platform: rvhal .*, 1 device$' 'out:^device 0: qemu-virt-rv64$' \
  'err:left out: .*rvhal-fw-broken-rv64.board:3: xlen: expected an unsigned number, found 64 64' \
  'err:rvhal-fw-badname-rv64.board: board name "Bad Name": use a-z' -- "$RVHAL" info
ok 0 'out:^  status +booted in [0-9]+ ms$' -- "$RVHAL" info --boot --device 0 --harts 1
# No descriptor at all: no devices, and creating one says so.
RVHAL_FIRMWARE_DIR=$dir/none
ok 0 'out:^platform: rvhal .*, 0 devices$' -- "$RVHAL" info
exit $failed

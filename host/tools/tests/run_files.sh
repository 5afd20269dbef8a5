#!/bin/sh
# rvhal run with buffers from and to files: buf:u32=@FILE, buf:u32>FILE,
# --out-dir, and a file of the wrong size refused.
#   run_files.sh RVHAL VECTOR_ADD_ELF
set -u
EXPECT=$(dirname "$0")/expect.sh
RVHAL=$1
ELF=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
failed=0
# 1 2 3 4 and 2 4 6 8 as little-endian u32
printf '\001\000\000\000\002\000\000\000\003\000\000\000\004\000\000\000' >"$T/in.bin"
printf '\002\000\000\000\004\000\000\000\006\000\000\000\010\000\000\000' >"$T/want.bin"
mkdir "$T/dir"
"$EXPECT" 0 "out:^  \[0\] 2 4 6 8$" "err:argument 2: 16 bytes written to $T/out.bin" -- \
  "$RVHAL" run "$ELF" vector_add_entry --global 4 --out-dir "$T/dir" \
  "buf:u32=@$T/in.bin" "buf:u32=@$T/in.bin" "buf:u32>$T/out.bin" || failed=1
cmp "$T/out.bin" "$T/want.bin" || { echo "FAIL: out.bin differs"; failed=1; }
cmp "$T/dir/arg2.bin" "$T/want.bin" || { echo "FAIL: --out-dir arg2.bin differs"; failed=1; }
cmp "$T/dir/arg0.bin" "$T/in.bin" || { echo "FAIL: --out-dir arg0.bin differs"; failed=1; }
"$EXPECT" 2 "err:'$T/in.bin' holds 16 bytes; 3 x u32 need 12 \(leave COUNT out to take the file's\)" -- \
  "$RVHAL" run "$ELF" vector_add_entry --global 4 "buf:u32:3=@$T/in.bin" buf:u32 buf:u32 || failed=1
"$EXPECT" 2 "err:cannot open '$T/none.bin'" -- \
  "$RVHAL" run "$ELF" vector_add_entry --global 4 "buf:u32=@$T/none.bin" buf:u32 buf:u32 || failed=1
exit $failed

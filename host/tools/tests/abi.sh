#!/bin/sh
# rvhal abi against layouts worked out by hand from the packing rule (each
# argument at the smallest power of two >= its packed size; pointers and
# local sizes one device word).
set -u
EXPECT=$(dirname "$0")/expect.sh
RVHAL=$1
failed=0
ok() { "$EXPECT" 0 "$@" >/dev/null || { "$EXPECT" 0 "$@"; failed=1; }; }
row() { printf '^ +%s +%s +%s +%s +%s$' "$@"; } # index kind offset size align
total() { printf '^  packed size %s bytes \\(a C struct with this layout: %s bytes\\)$' "$@"; }

L=ptr,i32,f64,local:256,bytes:24
ok '^RV64 \(8-byte words\)$' "$(row 0 ptr 0 8 8)" "$(row 1 i32 8 4 4)" "$(row 2 f64 16 8 8)" \
  "$(row 3 local:256 24 8 8)" "$(row 4 bytes:24 32 24 32)" "$(total 56 64)" -- "$RVHAL" abi --word 8 $L
ok '^RV32 \(4-byte words\)$' "$(row 0 ptr 0 4 4)" "$(row 1 i32 4 4 4)" "$(row 2 f64 8 8 8)" \
  "$(row 3 local:256 16 4 4)" "$(row 4 bytes:24 32 24 32)" "$(total 56 64)" -- "$RVHAL" abi --word 4 $L
# Without --word: both, and several LIST words are one list.
ok '^RV64 ' '^RV32 ' "$(row 4 bytes:24 32 24 32)" -- "$RVHAL" abi ptr,i32 f64,local:256 bytes:24

# C names, synonyms and odd sizes.
L2=char,short,long,buf,u8,bytes:3,global,i64
ok "$(row 0 char 0 1 1)" "$(row 1 short 2 2 2)" "$(row 2 long 8 8 8)" "$(row 3 buf 16 8 8)" \
  "$(row 4 u8 24 1 1)" "$(row 5 bytes:3 28 3 4)" "$(row 6 global 32 8 8)" "$(row 7 i64 40 8 8)" \
  "$(total 48 48)" -- "$RVHAL" abi --word 8 $L2
ok "$(row 0 char 0 1 1)" "$(row 1 short 2 2 2)" "$(row 2 long 8 8 8)" "$(row 3 buf 16 4 4)" \
  "$(row 4 u8 20 1 1)" "$(row 5 bytes:3 24 3 4)" "$(row 6 global 28 4 4)" "$(row 7 i64 32 8 8)" \
  "$(total 40 40)" -- "$RVHAL" abi --word 4 $L2

# The C struct and descriptor line.
ok '^  __global void \*arg0; +/\* ptr: offset 0 \*/$' \
  '^  int32_t arg1; +/\* i32: offset 8 \(RV32: 4\) \*/$' \
  '^  uintptr_t arg3; +/\* local:256: offset 24 \(RV32: 16\), rvhal_local_arg\(e, 0\) \*/$' \
  '^typedef struct \{ uint8_t b\[24\]; \} k_bytes24;$' \
  '^  RVHAL_PACKED_ARG\(k_bytes24\) arg4; +/\* bytes:24: offset 32 \*/$' \
  '^\} k_args;$' \
  '^RVHAL_KERNEL\(k, k_args, k_item, RVHAL_GLOBAL\(arg0\), RVHAL_VALUE\(arg1\), RVHAL_VALUE\(arg2\), RVHAL_LOCAL\(arg3\), RVHAL_VALUE\(arg4\)\)$' \
  -- "$RVHAL" abi --c-struct k $L
[ $failed = 0 ] && echo "all abi checks passed"
exit $failed

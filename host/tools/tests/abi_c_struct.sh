#!/bin/sh
# The kernel source `rvhal abi --c-struct` prints compiles for RV64 and RV32
# with the SDK, with every member at the offset and the struct of the size
# that the library's layout gives (-Werror is left out: warnings from SDK
# headers are not what this checks).
#   abi_c_struct.sh RVHAL CROSS_GCC SOURCE_DIR
set -u
RVHAL=$1
CC=$2
SRC=$3
LIST=ptr,i32,f64,local:256,bytes:24,u8,bytes:8,long,bytes:3,short,buf,bytes:16,char,local:4,f32,i64
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
for word in 8 4; do
  xlen=$((word * 8))
  abi=$([ $word = 8 ] && echo lp64d || echo ilp32d)
  {
    echo '#include <stddef.h>'
    "$RVHAL" abi --word $word --c-struct k $LIST | sed -n '/^\/\* Arguments of kernel/,$p'
    # The table's rows and total become assertions.
    "$RVHAL" abi --word $word $LIST | awk '
      $1 ~ /^[0-9]+$/ { printf "_Static_assert(offsetof(k_args, arg%s) == %s, \"arg%s offset\");\n", $1, $3, $1 }
      /C struct with this layout/ { split($0, f, "layout: "); printf "_Static_assert(sizeof(k_args) == %d, \"size\");\n", f[2] + 0 }'
  } >"$tmp/k$xlen.c"
  n=$(grep -c _Static_assert "$tmp/k$xlen.c")
  if [ "$n" -lt 17 ]; then
    echo "FAIL: RV$xlen: only $n assertions generated"
    cat "$tmp/k$xlen.c"
    failed=1
  elif "$CC" -march=rv${xlen}imafdc -mabi=$abi --specs=picolibc.specs -Wall -Wextra -c \
    -I"$SRC/sdk/include" -I"$SRC/abi" "$tmp/k$xlen.c" -o "$tmp/k$xlen.o"; then
    echo "RV$xlen: compiled, $n layout assertions hold"
  else
    echo "FAIL: RV$xlen: the printed struct does not compile or does not match the layout:"
    cat -n "$tmp/k$xlen.c"
    failed=1
  fi
done
exit $failed

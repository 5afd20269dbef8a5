#!/bin/sh
# rvhal kernels and rvhal abi on every example's ELF, RV64 and RV32: each
# lists at least one kernel with its arguments, and every layout checks.
#   kernels_all.sh RVHAL EXAMPLES_SRC KERNEL_DIR...
set -u
RVHAL=$1
EXAMPLES=$2
shift 2
failed=0
checked=0
for dir in "$@"; do
  [ -d "$dir" ] || continue
  for ex in "$EXAMPLES"/*/kernel.c; do
    name=$(basename "$(dirname "$ex")")
    elf=$dir/$name.elf
    if [ ! -f "$elf" ]; then echo "FAIL: $elf missing"; failed=1; continue; fi
    out=$("$RVHAL" kernels "$elf") || { echo "FAIL: rvhal kernels $elf"; failed=1; continue; }
    # a kernel line "name_entry(...)" with at least one argument row
    echo "$out" | grep -Eq '^[a-z_0-9]+_entry\(' || { echo "FAIL: no kernel in: $out"; failed=1; }
    if ! echo "$out" | grep -q '_entry()$'; then
      echo "$out" | grep -Eq '^ +0  (global|local|value) ' || { echo "FAIL: no argument rows in: $out"; failed=1; }
    fi
    out=$("$RVHAL" abi "$elf") || { echo "FAIL: rvhal abi $elf:"; echo "$out"; failed=1; continue; }
    echo "$out" | grep -q ': ok$' || { echo "FAIL: no checked layout in: $out"; failed=1; }
    if echo "$out" | grep -q MISMATCH; then echo "FAIL: $out"; failed=1; fi
    checked=$((checked + 1))
  done
done
[ "$checked" -ge 2 ] || { echo "FAIL: only $checked ELF files checked"; failed=1; }
echo "$checked example ELF files checked"
exit $failed

#!/bin/sh
# An OpenCL C kernel built by rvhal_add_kernel(NAME FILE.cl) is rebuilt
# when a header of the kernel SDK changes: the entries `rvhal cc` generates
# include them, and its depfile names only the .cl file's own includes.
# Ninja's view of each kernel ELF's inputs must hold every header of the
# SDK's include directories (the build tree's here; check_install.sh looks
# at an install's).
#   opencl_kernel_deps.sh BUILD_DIR SOURCE_DIR ELF...
set -eu
BUILD=$1
SRC=$2
shift 2
failed=0
for elf in "$@"; do
  elf=${elf#"$BUILD"/} # as build.ninja names it
  inputs=$(ninja -C "$BUILD" -t query "$elf")
  n=0
  for h in "$SRC"/sdk/include/*.h "$SRC"/abi/rvhal/*.h; do
    n=$((n + 1))
    printf '%s\n' "$inputs" | grep -qx " *$h" || { echo "FAIL: $elf is not rebuilt when $h changes"; failed=1; }
  done
  echo "$elf: depends on the $n headers of the kernel SDK"
done
exit $failed

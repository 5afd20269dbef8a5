#!/bin/sh
# PolyBench/GPU's OpenCL kernels, unchanged, on rvhal against the host.
#
#   scripts/polybench.sh FETCHED [BUILD_DIR] [WORK_DIR]
#
# FETCHED: a PolyBench/GPU checkout or its git directory (for example the
# mirror of github:sgrauerg/polybenchGpu); its OpenCL/<BENCH>/*.cl files are
# copied byte for byte into WORK_DIR (default: a new directory under
# $TMPDIR, never inside this repository) and checked with cmp. Each is
# compiled by the build's `rvhal cc` (ADI's size with -DN=64, as a
# clBuildProgram option) and run by scripts/polybench/runner.c, which runs
# the same file compiled as C on the host as the reference (see there).
# Prints a Markdown table: benchmark, kernel, compiled, ran, matched.
# PB_DEVICE=N runs on device N of `rvhal info` (default 0, qemu-virt RV64;
# the kernels are compiled for that device's XLEN).
# Exit status: 0 if every kernel compiled, ran and matched.
set -eu
FETCHED=${1:?usage: polybench.sh FETCHED [BUILD_DIR] [WORK_DIR]}
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${2:-$HERE/../build}
BUILD=$(cd "$BUILD" && pwd)
WORK=${3:-$(mktemp -d "${TMPDIR:-/tmp}/rvhal-polybench.XXXXXX")}
mkdir -p "$WORK"
RVHAL=$BUILD/host/tools/rvhal
[ -x "$RVHAL" ] || { echo "polybench: no rvhal tool in $BUILD (build first)" >&2; exit 1; }
case "$(cd "$WORK" && pwd)/" in
  "$(cd "$HERE/.." && pwd)"/*) echo "polybench: WORK_DIR must be outside the repository" >&2; exit 1 ;;
esac

# The .cl files, from a work tree or straight from git objects.
if [ -d "$FETCHED/OpenCL" ]; then
  LIST=$(cd "$FETCHED" && ls OpenCL/*/*.cl)
  get() { cat "$FETCHED/$1"; }
else
  LIST=$(git --git-dir="$FETCHED" ls-tree -r --name-only HEAD OpenCL | grep '\.cl$')
  get() { git --git-dir="$FETCHED" show "HEAD:$1"; }
fi
for f in $LIST; do
  mkdir -p "$WORK/$(dirname "$f")"
  get "$f" > "$WORK/$f"
  get "$f" | cmp -s - "$WORK/$f" || { echo "polybench: $f changed in the copy" >&2; exit 1; }
done

DEVICE=${PB_DEVICE:-0}
XLEN=$("$RVHAL" info | sed -n "s/^device $DEVICE: .*-rv\([0-9]*\)\$/\1/p")
[ -n "$XLEN" ] || { echo "polybench: no device $DEVICE (rvhal info)" >&2; exit 1; }
echo "| benchmark | kernel | compiled | ran | matched |"
echo "|---|---|---|---|---|"
status=0
for f in $LIST; do
  bench=$(basename "$(dirname "$f")")
  cl=$WORK/$f
  elf=$WORK/${f%.cl}.elf
  opts=""
  [ "$bench" = ADI ] && opts="-DN=64"
  if ! "$RVHAL" cc --xlen "$XLEN" $opts "$cl" -o "$elf" 2> "$WORK/${f%.cl}.log"; then
    why=$(grep -m1 -E "error|undefined" "$WORK/${f%.cl}.log" | sed 's/.*: \(undefined reference to\)/\1/' | tr '|' '/')
    for k in $(sed -n 's/^__kernel void \([A-Za-z0-9_]*\).*/\1/p' "$cl"); do
      echo "| $bench | $k | no: $why | no | no |"
    done
    status=1
    continue
  fi
  runner=$WORK/${f%.cl}.runner
  cc -O1 -std=gnu11 -Wno-unknown-pragmas -I"$HERE/polybench" -I"$BUILD/host/include" -I"$HERE/../host/include" \
     -I"$HERE/../abi" -DPB_BENCH_$(echo "$bench" | tr '-' '_') -DPB_CL_FILE="\"$cl\"" $opts \
     "$HERE/polybench/runner.c" -o "$runner" -L"$BUILD/host" -Wl,-rpath,"$BUILD/host" -lrvhal -lm
  "$runner" "$bench" "$elf" "$DEVICE" 2>> "$WORK/${f%.cl}.log" || status=1
done
echo
echo "(files and logs in $WORK)"
exit $status

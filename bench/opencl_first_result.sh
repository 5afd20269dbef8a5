#!/bin/sh
# Time to an OpenCL program's first result, rvhal against POCL on the same
# machine: examples/opencl/saxpy.c (platform, context, program built from
# source, one launch, a mapped read, a host check) as a fresh process each
# run, with the compiled-binary cache cold (an empty cache folder) and warm
# (the same folder again). Wall clock: noisy on a shared machine; medians.
#
#   bench/opencl_first_result.sh BUILD_DIR [RUNS]
set -eu
B=$1
RUNS=${2:-5}
SAXPY=$B/examples/rvhal-opencl-saxpy
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-first.XXXXXX")
trap 'rm -rf "$T"' EXIT
RVHAL_ICD=$B/opencl/rvhal.icd
POCL_ICD=/etc/OpenCL/vendors/pocl.icd

ms() { # median wall ms of RUNS runs of: env... cmd
  i=0
  : >"$T/times"
  while [ $i -lt "$RUNS" ]; do
    [ -n "${FRESH:-}" ] && rm -rf "$T/cache" && mkdir -p "$T/cache"
    a=$(date +%s%N)
    "$@" >"$T/out" 2>&1 || { cat "$T/out" >&2; echo "FAILED: $*" >&2; exit 1; }
    b=$(date +%s%N)
    echo $(((b - a) / 1000000)) >>"$T/times"
    i=$((i + 1))
  done
  sort -n "$T/times" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}

mkdir -p "$T/cache"
echo "time to first result: saxpy over 65536 floats from OpenCL C source, a fresh process per run (median of $RUNS, wall ms)"
cold=$(FRESH=1 ms env OCL_ICD_VENDORS="$RVHAL_ICD" RVHAL_OPENCL_CACHE_DIR="$T/cache" "$SAXPY" 65536 rvhal)
warm=$(ms env OCL_ICD_VENDORS="$RVHAL_ICD" RVHAL_OPENCL_CACHE_DIR="$T/cache" "$SAXPY" 65536 rvhal)
echo "rvhal  cache cold  $cold ms"
echo "rvhal  cache warm  $warm ms"
if [ -f "$POCL_ICD" ]; then
  cold=$(FRESH=1 ms env OCL_ICD_VENDORS="$POCL_ICD" POCL_CACHE_DIR="$T/cache" "$SAXPY" 65536 "Portable Computing Language")
  warm=$(ms env OCL_ICD_VENDORS="$POCL_ICD" POCL_CACHE_DIR="$T/cache" "$SAXPY" 65536 "Portable Computing Language")
  echo "pocl   cache cold  $cold ms"
  echo "pocl   cache warm  $warm ms"
else
  echo "pocl   not installed (Debian pocl-opencl-icd)"
fi

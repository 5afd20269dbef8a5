#!/bin/sh
# PolyBench/GPU's OpenCL programs (host programs and kernels as published)
# on rvhal and on POCL, same machine, against the suite's own CPU check.
# Not part of the test suite (minutes per program on emulated harts).
#
#   scripts/polybench_opencl.sh POLYBENCH_GPU_DIR [BUILD_DIR] [PROGRAM...]
#
# POLYBENCH_GPU_DIR: a checkout of https://github.com/sgrauerg/polybenchGpu
# (its OpenCL/ and common/ folders). Each program is built against the
# system's libOpenCL with one word changed: OPENCL_DEVICE_SELECTION
# CL_DEVICE_TYPE_GPU becomes CL_DEVICE_TYPE_DEFAULT, since neither rvhal
# (accelerators) nor POCL (a CPU) has a GPU device. Each runs in its folder
# (it reads its .cl file from there) with OCL_ICD_VENDORS set to one
# platform, and the line the suite prints ("Non-Matching CPU-GPU Outputs
# Beyond Error Threshold of 0.05 Percent: N") is the result: 0 matches.
#
# Problem sizes: the suite's own are hours of emulated-hart time (2MM is
# four 2048^3 products), so by default each program is built with smaller
# sizes through the suite's mechanism for it (defining N and the size macros
# on the command line, below); POLYBENCH_SIZES=suite keeps the suite's.
set -eu
SRC=$1
BUILD=$(cd "${2:-build}" && pwd)
shift
[ $# -gt 0 ] && shift
RVHAL_ICD=$BUILD/opencl/rvhal.icd
POCL_ICD=/etc/OpenCL/vendors/pocl.icd
TIMEOUT=${POLYBENCH_TIMEOUT:-1800}
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-polybench.XXXXXX")
trap 'rm -rf "$T"' EXIT
cp -r "$SRC/OpenCL" "$SRC/common" "$T/"
programs=${*:-$(cd "$T/OpenCL" && ls -d */ | tr -d /)}

sizes() { # PROGRAM -> -D flags
  [ "${POLYBENCH_SIZES:-small}" = suite ] && return
  case $1 in
    2DCONV) echo "-DN -DNI=512 -DNJ=512" ;;
    2MM) echo "-DN -DNI=256 -DNJ=256 -DNK=256 -DNL=256" ;;
    3DCONV) echo "-DN -DNI=64 -DNJ=64 -DNK=64" ;;
    3MM) echo "-DN -DNI=256 -DNJ=256 -DNK=256 -DNL=256 -DNM=256" ;;
    ADI) echo "-DTSTEPS=1 -DN=256" ;;
    ATAX | BICG) echo "-DN -DNX=1024 -DNY=1024" ;;
    CORR | COVAR | GRAMSCHM) echo "-DM=256 -DN=256" ;;
    FDTD-2D) echo "-DN -DTMAX=20 -DNX=256 -DNY=256" ;;
    GEMM) echo "-DN -DNI=256 -DNJ=256 -DNK=256" ;;
    GEMVER | GESUMMV | MVT) echo "-DN=1024" ;;
    JACOBI1D) echo "-DTSTEPS=100 -DN=1024" ;;
    JACOBI2D) echo "-DTSTEPS=10 -DN=256" ;;
    LU) echo "-DN=256" ;;
    SYR2K | SYRK) echo "-DN -DNI=256 -DNJ=256" ;;
  esac
}

run() { # ICD DIR EXE -> "N mismatches, S s" or the failure
  out=$(cd "$2" && OCL_ICD_VENDORS=$1 timeout "$TIMEOUT" "./$3" 2>&1) || {
    echo "failed (exit $?): $(echo "$out" | tail -1)"
    return
  }
  n=$(echo "$out" | sed -n 's/.*Non-Matching CPU-GPU Outputs Beyond Error Threshold of [0-9.]* Percent: \([0-9]*\).*/\1/p' | paste -sd+ | bc)
  t=$(echo "$out" | sed -n '/GPU Time in seconds/{n;p}' | head -1)
  e=$(echo "$out" | grep -m1 '^Error in' || true)
  if [ -n "$e" ]; then
    echo "OpenCL error: $e"
  elif [ -z "$n" ]; then
    echo "ran ${t:-?} s, no CPU check (the suite's RUN_ON_CPU is off)"
  else
    echo "$n mismatches, ${t:-?} s"
  fi
}

printf '%-10s | %-34s | %-34s | %s\n' program "rvhal (${RVHAL_OPENCL_DEFAULT_DEVICE:-qemu-virt-rv64}, ${RVHAL_HARTS:-4} harts)" "POCL (pthread)" sizes
for p in $programs; do
  d=$T/OpenCL/$p
  src=$(ls "$d"/*.c | head -1)
  sed -i 's/CL_DEVICE_TYPE_GPU/CL_DEVICE_TYPE_DEFAULT/' "$src"
  exe=$(basename "$src" .c).exe
  # shellcheck disable=SC2046
  if ! gcc -O2 $(sizes "$p") -I"$T/common" -o "$d/$exe" "$src" -lOpenCL -lm 2>"$d/build.log"; then
    printf '%-10s | %-34s | %-34s | %s\n' "$p" "build failed: $(grep -m1 error "$d/build.log")" "" "$(sizes "$p")"
    continue
  fi
  r=$(run "$RVHAL_ICD" "$d" "$exe")
  q=$(run "$POCL_ICD" "$d" "$exe")
  printf '%-10s | %-34s | %-34s | %s\n' "$p" "$r" "$q" "$(sizes "$p")"
done

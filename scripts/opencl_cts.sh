#!/bin/sh
# The Khronos OpenCL conformance tests (OpenCL-CTS) test_basic, test_api,
# test_compiler, test_atomics and test_commonfns on rvhal (1 and 4 harts)
# and on POCL, same machine: pass/fail counts per test binary. Not part of
# the test suite (hours of kernels on emulated harts for the whole set).
#
#   scripts/opencl_cts.sh CTS_DIR OPENCL_HEADERS_DIR SPIRV_HEADERS_DIR [BUILD_DIR] [WORK_DIR]
#
# Checkouts of github.com/KhronosGroup/OpenCL-CTS, OpenCL-Headers and
# SPIRV-Headers (Debian 12's opencl-c-headers are too old for the CTS;
# docs/opencl.md). test_compiler needs spirv-as (Debian spirv-tools).
# CTS_TESTS / CTS_ARGS narrow what runs (say CTS_TESTS=test_basic
# CTS_ARGS="hostptr fpmath"), CTS_PLATFORMS which of rvhal1 rvhal4 pocl;
# CTS_TIMEOUT bounds one binary's run. Each platform gets its own program
# cache under WORK_DIR (rvhal's and POCL's), so a run starts cold.
set -eu
CTS=$(cd "$1" && pwd)
CLH=$(cd "$2" && pwd)
SPVH=$(cd "$3" && pwd)
BUILD=$(cd "${4:-build}" && pwd)
WORK=${5:-${TMPDIR:-/tmp}/rvhal-cts}
TESTS=${CTS_TESTS:-test_basic test_api test_compiler test_atomics test_commonfns}
PLATFORMS=${CTS_PLATFORMS:-rvhal1 rvhal4 pocl}
TIMEOUT=${CTS_TIMEOUT:-14400}
mkdir -p "$WORK"

# Only the wanted folders: the other add_subdirectory lines are dropped.
if [ ! -f "$WORK/build/build.ninja" ]; then
  rm -rf "$WORK/src"
  mkdir -p "$WORK/src/test_conformance"
  cp -r "$CTS/CMakeLists.txt" "$CTS/test_common" "$WORK/src/"
  for f in CMakeCommon.txt CMakeLists.txt generate_spirv_offline.py run_conformance.py common basic api compiler \
           atomics commonfns; do
    cp -r "$CTS/test_conformance/$f" "$WORK/src/test_conformance/"
  done
  # test_compiler assembles its SPIR-V with spirv_new's script
  mkdir -p "$WORK/src/test_conformance/spirv_new/spirv_asm"
  cp "$CTS/test_conformance/spirv_new/spirv_asm/assemble_spirv.py" "$WORK/src/test_conformance/spirv_new/spirv_asm/"
  sed -i -E '/add_subdirectory\( *(api|atomics|basic|commonfns|compiler) *\)/!s/^( *add_subdirectory\()/# \1/' \
    "$WORK/src/test_conformance/CMakeLists.txt"
  cmake -S "$WORK/src" -B "$WORK/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCL_INCLUDE_DIR="$CLH" \
    -DCL_LIB_DIR=/usr/lib/$(uname -m)-linux-gnu -DOPENCL_LIBRARIES=OpenCL -DSPIRV_INCLUDE_DIR="$SPVH" >/dev/null
fi
cmake --build "$WORK/build" --target $TESTS -- -j2 >"$WORK/build.log" 2>&1 || {
  tail -20 "$WORK/build.log"
  exit 1
}

counts() { # log -> "passed/total" from the harness's last summary line
  sed -n 's/.*\(PASSED\|FAILED\) \([0-9]*\) of \([0-9]*\) tests.*/\1 \2 \3/p' "$1" | tail -1 |
    awk '{ if ($1 == "PASSED") print $2 "/" $3; else print ($3 - $2) "/" $3 }'
}

header=$(printf '%-16s' test)
for platform in $PLATFORMS; do header="$header | $(printf '%-14s' "$platform")"; done
echo "$header"
for t in $TESTS; do
  exe=$(find "$WORK/build/test_conformance" -name "$t" -type f | head -1)
  row=$(printf '%-16s' "$t")
  for platform in $PLATFORMS; do
    log=$WORK/$t.$platform.log
    case $platform in
      rvhal1) env="OCL_ICD_VENDORS=$BUILD/opencl/rvhal.icd RVHAL_HARTS=1 RVHAL_OPENCL_CACHE_DIR=$WORK/cache.$t.$platform" ;;
      rvhal4) env="OCL_ICD_VENDORS=$BUILD/opencl/rvhal.icd RVHAL_HARTS=4 RVHAL_OPENCL_CACHE_DIR=$WORK/cache.$t.$platform" ;;
      pocl) env="OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd POCL_CACHE_DIR=$WORK/cache.$t.$platform" ;;
      *) echo "CTS_PLATFORMS: unknown platform '$platform' (rvhal1, rvhal4 or pocl)" >&2; exit 2 ;;
    esac
    (cd "$(dirname "$exe")" && env $env timeout "$TIMEOUT" "$exe" ${CTS_ARGS:-}) >"$log" 2>&1 || true
    c=$(counts "$log")
    row="$row | $(printf '%-14s' "${c:-no summary}")"
  done
  echo "$row"
done
echo "logs: $WORK/<test>.<rvhal1|rvhal4|pocl>.log (passed/total subtests)"

#!/bin/sh
# The Khronos OpenCL conformance tests (OpenCL-CTS) on rvhal (1 and 4 harts)
# and on POCL, same machine: pass/fail counts per test binary. Not part of
# the test suite (hours of kernels on emulated harts for the whole set).
#
#   scripts/opencl_cts.sh CTS_DIR OPENCL_HEADERS_DIR SPIRV_HEADERS_DIR [BUILD_DIR] [WORK_DIR]
#
# Checkouts of github.com/KhronosGroup/OpenCL-CTS, OpenCL-Headers and
# SPIRV-Headers (Debian 12's opencl-c-headers are too old for the CTS;
# docs/opencl.md). test_compiler needs spirv-as (Debian spirv-tools).
# CTS_TESTS picks the binaries (default: the first five below; `all` for
# every one this script knows), CTS_ARGS narrows a binary to sub-tests (say
# CTS_TESTS=test_basic CTS_ARGS="hostptr fpmath"), CTS_PLATFORMS which of
# rvhal1 rvhal4 pocl; CTS_TIMEOUT (seconds) bounds one binary's run on one
# platform. Only the binaries asked for are built. Each platform gets its
# own program cache under WORK_DIR (rvhal's and POCL's), so a run starts
# cold.
set -eu
CTS=$(cd "$1" && pwd)
CLH=$(cd "$2" && pwd)
SPVH=$(cd "$3" && pwd)
BUILD=$(cd "${4:-build}" && pwd)
WORK=${5:-${TMPDIR:-/tmp}/rvhal-cts}
DEFAULT_TESTS="test_basic test_api test_compiler test_atomics test_commonfns"
PLATFORMS=${CTS_PLATFORMS:-rvhal1 rvhal4 pocl}
TIMEOUT=${CTS_TIMEOUT:-14400}
mkdir -p "$WORK"

# binary:folder of test_conformance for every binary the script runs
KNOWN="test_basic:basic test_api:api test_compiler:compiler test_atomics:atomics
  test_commonfns:commonfns test_printf:printf test_events:events test_buffers:buffers
  test_integer_ops:integer_ops test_profiling:profiling test_geometrics:geometrics
  test_mem_host_flags:mem_host_flags test_multiples:multiple_device_context
  test_conversions:conversions test_bruteforce:math_brute_force
  test_relationals:relationals test_vectors:vectors
  test_image_streams:images test_cl_read_write_images:images
  test_cl_copy_images:images test_cl_fill_images:images test_cl_get_info:images
  test_kernel_image_methods:images test_samplerless_reads:images"
if [ "${CTS_TESTS:-}" = all ]; then
  TESTS=$(for k in $KNOWN; do printf '%s ' "${k%%:*}"; done)
else
  TESTS=${CTS_TESTS:-$DEFAULT_TESTS}
fi
folder_of() {
  for k in $KNOWN; do
    if [ "${k%%:*}" = "$1" ]; then echo "${k#*:}"; return; fi
  done
  echo "CTS_TESTS: unknown CTS binary '$1' (known: $(for k in $KNOWN; do printf '%s ' "${k%%:*}"; done))" >&2
  exit 2
}
FOLDERS=$(for t in $TESTS; do folder_of "$t"; done | sort -u | tr '\n' ' ')
[ -n "$FOLDERS" ] || { echo "CTS_TESTS: no binary named" >&2; exit 2; }

# Only the wanted folders (the ones built before and the new ones): the other
# add_subdirectory lines are dropped, and the build is configured again when
# a folder is added.
have=$(cat "$WORK/folders" 2>/dev/null || true)
want=$(printf '%s\n' $have $FOLDERS | sort -u | tr '\n' ' ')
if [ ! -f "$WORK/build/build.ninja" ] || [ "$have" != "$want" ]; then
  rm -rf "$WORK/src"
  mkdir -p "$WORK/src/test_conformance"
  cp -r "$CTS/CMakeLists.txt" "$CTS/test_common" "$WORK/src/"
  for f in CMakeCommon.txt CMakeLists.txt generate_spirv_offline.py run_conformance.py common $want; do
    cp -r "$CTS/test_conformance/$f" "$WORK/src/test_conformance/"
  done
  # test_compiler assembles its SPIR-V with spirv_new's script
  mkdir -p "$WORK/src/test_conformance/spirv_new/spirv_asm"
  cp "$CTS/test_conformance/spirv_new/spirv_asm/assemble_spirv.py" "$WORK/src/test_conformance/spirv_new/spirv_asm/"
  keep=$(echo $want | tr ' ' '|')
  sed -i -E "/add_subdirectory\( *($keep) *\)/!s/^( *add_subdirectory\()/# \1/" \
    "$WORK/src/test_conformance/CMakeLists.txt"
  cmake -S "$WORK/src" -B "$WORK/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCL_INCLUDE_DIR="$CLH" \
    -DCL_LIB_DIR=/usr/lib/$(uname -m)-linux-gnu -DOPENCL_LIBRARIES=OpenCL -DSPIRV_INCLUDE_DIR="$SPVH" >/dev/null
  echo "$want" >"$WORK/folders"
fi
cmake --build "$WORK/build" --target $TESTS -- -j2 >"$WORK/build.log" 2>&1 || {
  tail -20 "$WORK/build.log"
  exit 1
}

counts() { # log -> "passed/total" from the harness's last summary line
  sed -n 's/.*\(PASSED\|FAILED\) \([0-9]*\) of \([0-9]*\) tests.*/\1 \2 \3/p' "$1" | tail -1 |
    awk '{ if ($1 == "PASSED") print $2 "/" $3; else print ($3 - $2) "/" $3 }'
}

header=$(printf '%-26s' test)
for platform in $PLATFORMS; do header="$header | $(printf '%-16s' "$platform")"; done
echo "$header"
for t in $TESTS; do
  exe=$(find "$WORK/build/test_conformance" -name "$t" -type f | head -1)
  row=$(printf '%-26s' "$t")
  for platform in $PLATFORMS; do
    log=$WORK/$t.$platform.log
    case $platform in
      rvhal1) env="OCL_ICD_VENDORS=$BUILD/opencl/rvhal.icd RVHAL_HARTS=1 RVHAL_OPENCL_CACHE_DIR=$WORK/cache.$t.$platform" ;;
      rvhal4) env="OCL_ICD_VENDORS=$BUILD/opencl/rvhal.icd RVHAL_HARTS=4 RVHAL_OPENCL_CACHE_DIR=$WORK/cache.$t.$platform" ;;
      pocl) env="OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd POCL_CACHE_DIR=$WORK/cache.$t.$platform" ;;
      *) echo "CTS_PLATFORMS: unknown platform '$platform' (rvhal1, rvhal4 or pocl)" >&2; exit 2 ;;
    esac
    # timeout signals the binary's whole process group; rvhal's QEMUs die
    # with the process that started them
    rc=0
    (cd "$(dirname "$exe")" && env $env timeout -k 30 "$TIMEOUT" "$exe" ${CTS_ARGS:-}) >"$log" 2>&1 || rc=$?
    c=$(counts "$log")
    case $rc in
      124 | 137) c="timeout ${TIMEOUT}s${c:+ ($c)}" ;;
      *) [ -n "$c" ] || c="no summary, rc $rc" ;;
    esac
    row="$row | $(printf '%-16s' "$c")"
  done
  echo "$row"
done
echo "logs: $WORK/<test>.<rvhal1|rvhal4|pocl>.log (passed/total subtests)"

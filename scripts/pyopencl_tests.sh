#!/bin/sh
# pyopencl's own test files, run whole on rvhal and on POCL, same machine:
# passed / failed / skipped per file and platform. Not part of the test suite
# (tens of minutes of kernels on emulated harts).
#
#   scripts/pyopencl_tests.sh PYOPENCL_SRC [BUILD_DIR] [WORK_DIR]
#
# PYOPENCL_SRC: a checkout (or bare clone) of github.com/inducer/pyopencl.
# The tests are taken from the tag of the installed python3-pyopencl
# (Debian 12: v2022.3.1), since a newer suite tests a newer module.
# PYOPENCL_FILES narrows the files (default: test_wrapper test_array
# test_algorithm test_enqueue_copy), PYOPENCL_PLATFORMS the platforms
# (rvhal pocl), RVHAL_DEVICE the rvhal device (qemu-virt-rv64; names as
# `rvhal info` and clinfo print them), PYOPENCL_TIMEOUT one file's limit
# in seconds. Needs python3-pyopencl and python3-pytest.
set -eu
SRC=$1
BUILD=$(cd "${2:-build}" && pwd)
WORK=${3:-${TMPDIR:-/tmp}/rvhal-pyopencl}
FILES=${PYOPENCL_FILES:-test_wrapper test_array test_algorithm test_enqueue_copy}
PLATFORMS=${PYOPENCL_PLATFORMS:-rvhal pocl}
DEVICE=${RVHAL_DEVICE:-qemu-virt-rv64}
TIMEOUT=${PYOPENCL_TIMEOUT:-7200}
# Debian's interpreter: the one python3-pyopencl is installed for
PY=${PYTHON:-/usr/bin/python3}

version=$($PY -c "import pyopencl.version as v; print(v.VERSION_TEXT)" 2>/dev/null) || {
  echo "pyopencl_tests.sh: python3-pyopencl is not installed (apt-get install python3-pyopencl)" >&2
  exit 2
}
$PY -c "import pytest" 2>/dev/null || {
  echo "pyopencl_tests.sh: pytest is not installed (apt-get install python3-pytest)" >&2
  exit 2
}
if [ -d "$SRC/.git" ]; then gitdir=$SRC/.git; else gitdir=$SRC; fi
mkdir -p "$WORK"
rm -rf "$WORK/test"
git --git-dir="$gitdir" archive "v$version" test | tar -x -C "$WORK" || {
  echo "pyopencl_tests.sh: $SRC has no tag v$version (the installed pyopencl's version)" >&2
  exit 2
}

summary() { # pytest's last line -> "P passed, F failed, S skipped"
  line=$(grep -E '^(=+ )?[0-9]+ (passed|failed|errors?|skipped).* in [0-9.]+s' "$1" | tail -1)
  [ -n "$line" ] || { echo "no summary"; return; }
  n() { echo "$line" | grep -oE "[0-9]+ $1" | grep -oE '^[0-9]+' || echo 0; }
  echo "$(n passed) passed, $(( $(n failed) + $(n 'errors?') )) failed, $(n skipped) skipped"
}

header=$(printf '%-18s' file)
for platform in $PLATFORMS; do header="$header | $(printf '%-32s' "$platform")"; done
echo "pyopencl v$version"
echo "$header"
for f in $FILES; do
  row=$(printf '%-18s' "$f")
  for platform in $PLATFORMS; do
    log=$WORK/$f.$platform.log
    case $platform in
      rvhal) env="OCL_ICD_VENDORS=$BUILD/opencl/rvhal.icd PYOPENCL_TEST=rvhal:$DEVICE RVHAL_OPENCL_QUIET=1" ;;
      pocl) env="OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd PYOPENCL_TEST=portable" ;;
      *) echo "PYOPENCL_PLATFORMS: unknown platform '$platform' (rvhal or pocl)" >&2; exit 2 ;;
    esac
    # each platform its own kernel caches, so a run starts cold
    (cd "$WORK/test" && env $env PYOPENCL_CACHE_DIR="$WORK/cache.$platform" XDG_CACHE_HOME="$WORK/cache.$platform" \
      RVHAL_OPENCL_CACHE_DIR="$WORK/cache.$platform/rvhal" POCL_CACHE_DIR="$WORK/cache.$platform/pocl" \
      timeout "$TIMEOUT" $PY -m pytest -q -rfEs "$f.py") >"$log" 2>&1 || true
    row="$row | $(printf '%-32s' "$(summary "$log")")"
  done
  echo "$row"
done
echo "logs: $WORK/<file>.<platform>.log (failures and skips listed at their end)"

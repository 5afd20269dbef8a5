#!/usr/bin/env bash
# Set everything up (scripts/setup.sh), then run the demo: every example
# kernel on a 4-hart RISC-V device, each result checked on the host; then
# one ordinary OpenCL program through rvhal's OpenCL platform.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
BUILD=${RVHAL_BUILD_DIR:-build}
"$BUILD/examples/rvhal-demo" --harts 4 "$@"
if [ -x "$BUILD/examples/rvhal-opencl-saxpy" ]; then
  echo
  OCL_ICD_VENDORS="$BUILD/opencl/rvhal.icd" RVHAL_HARTS=4 "$BUILD/examples/rvhal-opencl-saxpy"
fi

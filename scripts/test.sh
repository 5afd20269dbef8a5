#!/usr/bin/env bash
# Set everything up (scripts/setup.sh), then run the whole test suite: unit
# tests, CLI tests and device tests on real QEMU harts.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cd "${RVHAL_BUILD_DIR:-build}"
exec ctest --output-on-failure -j2 "$@"

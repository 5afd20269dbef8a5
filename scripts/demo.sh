#!/usr/bin/env bash
# Set everything up (scripts/setup.sh), then run the demo: every example
# kernel on a 4-hart RISC-V device, each result checked on the host.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
exec "${RVHAL_BUILD_DIR:-build}/examples/rvhal-demo" --harts 4 "$@"

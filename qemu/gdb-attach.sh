#!/usr/bin/env bash
# Attach gdb to a device started with RVHAL_QEMU_ARGS="-s" (gdb stub on
# port 1234). Loads the firmware's symbols and, if given, a kernel ELF's.
#   qemu/gdb-attach.sh [kernel.elf] [port]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${RVHAL_BUILD_DIR:-build}
fw=$(ls "$build"/device-rv64/firmware/rvhal-fw-*-rv64.elf 2>/dev/null | head -n1)
[ -n "$fw" ] || { echo "gdb-attach: no firmware in $build/device-rv64/firmware (build first)" >&2; exit 1; }
gdb=$(command -v gdb-multiarch || command -v riscv64-unknown-elf-gdb || true)
[ -n "$gdb" ] || { echo "gdb-attach: install gdb-multiarch (apt-get install gdb-multiarch)" >&2; exit 1; }
args=(-q "$fw" -ex "target remote :${2:-1234}")
[ -n "${1:-}" ] && args+=(-ex "add-symbol-file $1")
exec "$gdb" "${args[@]}"

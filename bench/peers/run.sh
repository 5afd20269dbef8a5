#!/usr/bin/env bash
# rvhal against its peers: the four kernels of bench/peers/peer_kernels.h on
# rvhal (1, 2 and 4 harts), natively, under QEMU user mode and as a
# bare-metal floor on rvhal's QEMU machine, with the ratios
# (bench/bench_peers.c). Installs the Debian packages the QEMU user-mode
# column needs (qemu-user, gcc-riscv64-linux-gnu, libc6-dev-riscv64-cross)
# when run as root or with passwordless sudo; otherwise says what to
# install and runs without that column. Extra arguments go to rvhal-bench
# (e.g. -r 5).
#
#   bench/peers/run.sh [-r N]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${RVHAL_BUILD_DIR:-build}

missing=()
command -v qemu-riscv64 >/dev/null 2>&1 || missing+=(qemu-user)
command -v riscv64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-riscv64-linux-gnu)
# the cross compiler's C library (a Recommends, which --no-install-recommends skips)
[ -e /usr/riscv64-linux-gnu/include/bits/wordsize.h ] || missing+=(libc6-dev-riscv64-cross)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=(sudo)
  else SUDO=(false)
  fi
  if [ "${SUDO[0]:-}" = false ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "peers: the qemu-user column needs: apt-get install ${missing[*]} (as root); running without it" >&2
  else
    echo "peers: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
      { "${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
  fi
fi

# A fresh configure finds riscv64-linux-gnu-gcc if it was installed since.
[ -f "$BUILD_DIR/CMakeCache.txt" ] || ./scripts/setup.sh
cmake -S . -B "$BUILD_DIR" >/dev/null
cmake --build "$BUILD_DIR" --target rvhal-bench
cmake --build "$BUILD_DIR" --target rvhal-peer-rv64 2>/dev/null || true
exec "$BUILD_DIR/bench/rvhal-bench" "$@" peers

#!/usr/bin/env bash
# Sets up everything rvhal needs on a Debian/Ubuntu machine, then configures
# and builds it in ./build. Installs missing packages with apt-get when run as
# root (or through sudo); otherwise says exactly what to install.
#
#   scripts/setup.sh            install what is missing, configure, build
#   scripts/setup.sh --no-build only check/install the packages
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD_DIR=${RVHAL_BUILD_DIR:-build}

# package -> a file it provides, to tell whether it is there
PACKAGES=(
  "gcc-riscv64-unknown-elf:riscv64-unknown-elf-gcc"
  "picolibc-riscv64-unknown-elf:/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs"
  "qemu-system-misc:qemu-system-riscv64"
  "opensbi:/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_dynamic.bin"
  "device-tree-compiler:dtc" # docs/porting.md reads QEMU's and real boards' device trees with it
  "cmake:cmake"
  "ninja-build:ninja"
  "gcc:gcc"
  "g++:g++"
  "make:make"
  "pkg-config:pkg-config"
  "clang:clang"
  "clang-16:clang-16" # RVV kernels: riscv_vector.h with the __riscv_ intrinsic names (cmake/RvhalDevice.cmake)
  "libc6-dev:/usr/include/stdio.h"
)

have() {
  case "$1" in
    /*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

missing=()
for entry in "${PACKAGES[@]}"; do
  pkg=${entry%%:*}
  probe=${entry#*:}
  have "$probe" || missing+=("$pkg")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "rvhal setup: installing ${missing[*]}"
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "rvhal setup: no apt-get here. Install the equivalents of: ${missing[*]}" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO=(sudo)
  else
    echo "rvhal setup: these packages are missing and installing them needs root:" >&2
    echo "  apt-get install ${missing[*]}" >&2
    echo "Run that as root (or this script with sudo), then run this script again." >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  for entry in "${PACKAGES[@]}"; do
    probe=${entry#*:}
    have "$probe" || { echo "rvhal setup: ${entry%%:*} did not install ${probe}" >&2; exit 1; }
  done
fi

[ "${1:-}" = "--no-build" ] && exit 0

echo "rvhal setup: building in ${BUILD_DIR}/"
cmake -S . -B "${BUILD_DIR}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "${BUILD_DIR}"

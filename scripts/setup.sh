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

MULTIARCH=$(uname -m)-linux-gnu # where Debian puts libraries (x86_64-linux-gnu)

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
  "clang-16:clang-16"   # OpenCL C kernels (rvhal cc) and RVV kernels (riscv_vector.h, __riscv_ names): clang 16
  "llvm-16:llvm-link-16"
  "llvm-16-dev:/usr/lib/llvm-16/include/llvm/Linker/Linker.h" # the OpenCL C compiler's LLVM process (host/src/compiler/llvm_server.cpp)
  "python3-clang-16:/usr/lib/python3/dist-packages/clang/cindex.py" # scripts/opencl_builtin_coverage.py lists opencl-c.h overloads with libclang
  "libc6-dev:/usr/include/stdio.h"
  # The OpenCL platform (host/opencl): the ICD loader and headers, and what tests and compares against it
  "ocl-icd-libopencl1:/usr/lib/${MULTIARCH}/libOpenCL.so.1"
  "opencl-c-headers:/usr/include/CL/cl_icd.h"
  "ocl-icd-opencl-dev:/usr/lib/${MULTIARCH}/libOpenCL.so"
  "clinfo:clinfo"
  "python3-pyopencl:/usr/lib/python3/dist-packages/pyopencl/__init__.py"
  "python3-numpy:/usr/lib/python3/dist-packages/numpy/__init__.py"
  "pocl-opencl-icd:/etc/OpenCL/vendors/pocl.icd"
  "spirv-tools:spirv-as" # scripts/opencl_cts.sh: the CTS's test_compiler
  "lintian:lintian" # checks the Debian packages cpack makes (test install.deb_lintian)
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

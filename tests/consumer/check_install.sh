#!/bin/sh
# What a user of an installed rvhal does, checked against an install at
# PREFIX (libraries in LIBDIR): the CMake consumer project (find_package
# only: kernels in C and OpenCL C through rvhal_add_kernel, the static
# library, soft-float kernels), the Makefile one (pkg-config only, the
# README's recipe) and the `rvhal` tool; each must take the firmware and
# plugin from PREFIX. Shared by install.consumer (run.sh: a moved
# `cmake --install`) and install.deb_root (deb_root.sh: the Debian packages).
#   check_install.sh PREFIX LIBDIR SOURCE_DIR WORK_DIR [BUILD_DIR]
set -eu
P=$1
LIB=$2
SRC=$3
T=$4
BUILD=${5:-}
unset RVHAL_FIRMWARE_DIR RVHAL_QEMU_PLUGIN RVHAL_KERNEL_SDK_DIR
step() { printf '\n== %s\n' "$*"; }

# The library must have found the install, not the build tree.
check_firmware() {
  grep -q "^firmware: $P/share/rvhal/firmware/rv64\$" "$1" ||
    { echo "FAIL: firmware not taken from the install at $P:"; cat "$1"; exit 1; }
}

step "CMake consumer: find_package(rvhal) with CMAKE_PREFIX_PATH=$P"
cmake -S "$SRC/tests/consumer" -B "$T/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$T/cmake"
# the OpenCL C kernel is rebuilt when a header of the installed SDK changes
ninja -C "$T/cmake" -t query vadd_cl.elf | grep -q "$P/include/rvhal/kernel/rvhal_opencl_entry.h" ||
  { echo "FAIL: vadd_cl.elf does not depend on the installed SDK's headers"; exit 1; }
cd "$T" # the embedded kernel needs no file: run from elsewhere
"$T/cmake/consumer" | tee "$T/out1" # saxpy.elf's path compiled in from RVHAL_KERNEL_FILE
check_firmware "$T/out1"
grep -q "^stencil (embedded kernel" "$T/out1"
"$T/cmake/consumer_headers_cxx"
"$T/cmake/consumer_opencl"
step "the static library: \$RVHAL_FIRMWARE_DIR names the firmware"
RVHAL_FIRMWARE_DIR=$P/share/rvhal/firmware/rv64 "$T/cmake/consumer_static" "$T/cmake/saxpy.elf" | tee "$T/out2"
check_firmware "$T/out2"

if [ -x "$T/cmake/consumer_softfp" ]; then
  step "soft-float kernels (rvhal_add_kernel ... ABI lp64) on qemu-virt-imac-rv64"
  CONSUMER_DEVICE=qemu-virt-imac-rv64 "$T/cmake/consumer_softfp" "$T/cmake/saxpy_lp64.elf" "$T/cmake/stencil_lp64.elf" |
    tee "$T/out5"
  grep -q "^stencil (file kernel" "$T/out5"
  riscv64-unknown-elf-readelf -h "$T/cmake/vadd_cl_lp64.elf" | grep -q "soft-float ABI" ||
    { echo "FAIL: vadd_cl_lp64.elf is not soft-float"; exit 1; }
fi

step "Makefile consumer: pkg-config with PKG_CONFIG_PATH=$LIB/pkgconfig"
PKG_CONFIG_PATH="$LIB/pkgconfig" make -s -C "$SRC/tests/consumer/pkgconfig" O="$T/make"
"$T/make/consumer" "$T/make/saxpy.elf" "$T/make/stencil.elf" | tee "$T/out3"
check_firmware "$T/out3"
grep -q "^stencil (file kernel" "$T/out3"

step "the installed rvhal tool"
"$P/bin/rvhal" info --boot --harts 1 --device 0 | tee "$T/out4"
grep -q "firmware from  *$P/share/rvhal/firmware/rv64\$" "$T/out4"
grep -q "^QEMU plugin: $P/" "$T/out4"
"$P/bin/rvhal" kernels "$T/cmake/saxpy.elf"
if [ -n "$BUILD" ] && [ -x "$BUILD/ock/test_ock_hal" ]; then
  step "the installed libhal_rvhal.so, loaded as an OCK host loads a HAL"
  "$BUILD/ock/test_ock_hal" "$LIB/libhal_rvhal.so" "$BUILD/device-rv64/kernels/vector_add.elf" \
    "$BUILD/device-rv64/kernels/ock_adapter.elf" 2>/dev/null
fi
echo "check_install: all passed for $P"

#!/bin/sh
# cpack makes a .deb and a .tar.gz holding the install: library, tool,
# headers, firmware, kernel SDK, the OpenCL ICD and the package files.
#   cpack.sh BUILD_DIR
set -eu
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-cpack.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
cpack --config "$1/CPackConfig.cmake" >/dev/null
deb=$(ls ./*.deb)
tgz=$(ls ./*.tar.gz)
dpkg-deb -c "$deb" >"$T/deb.txt"
tar -tzf "$tgz" >"$T/tgz.txt"
for want in bin/rvhal lib/librvhal.so lib/librvhal.a include/rvhal/rvhal.h include/rvhal/kernel/rvhal_kernel.h \
  share/rvhal/firmware/rv64/ lib/rvhal/rv64/librvhal_kernel.a lib/rvhal/rv64/kernel.ld \
  lib/cmake/rvhal/rvhalConfig.cmake lib/pkgconfig/rvhal.pc lib/libhal_rvhal.so lib/libRvhalOpenCL.so.1 \
  etc/OpenCL/vendors/rvhal.icd; do
  grep -q "$want" "$T/deb.txt" || { echo "FAIL: $deb has no $want"; exit 1; }
  grep -q "$want" "$T/tgz.txt" || { echo "FAIL: $tgz has no $want"; exit 1; }
done
dpkg-deb -e "$deb" "$T/control"
grep -q "/etc/OpenCL/vendors/rvhal.icd" "$T/control/postinst" || { echo "FAIL: $deb does not register its OpenCL ICD"; exit 1; }
dpkg-deb -f "$deb" Package Version Depends
echo "cpack: $deb and $tgz ok"

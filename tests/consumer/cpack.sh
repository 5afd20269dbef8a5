#!/bin/sh
# cpack makes Debian packages (library, -dev, tool) and a .tar.gz which
# between them hold the install: library, tool, headers, firmware, kernel
# SDK, the package files and the license.
#   cpack.sh BUILD_DIR
set -eu
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-cpack.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
cpack --config "$1/CPackConfig.cmake" >/dev/null
deb=$(ls ./*.deb | tr '\n' ' ')
tgz=$(ls ./*.tar.gz)
for d in ./*.deb; do dpkg-deb -c "$d"; done >"$T/deb.txt"
tar -tzf "$tgz" >"$T/tgz.txt"
for want in bin/rvhal lib/librvhal.so lib/librvhal.a include/rvhal/rvhal.h include/rvhal/kernel/rvhal_kernel.h \
  share/rvhal/firmware/rv64/ lib/rvhal/rv64/librvhal_kernel.a lib/rvhal/rv64/kernel.ld \
  lib/cmake/rvhal/rvhalConfig.cmake lib/pkgconfig/rvhal.pc lib/libhal_rvhal.so include/rvhal/version.h \
  share/doc/rvhal/LICENSE share/doc/rvhal/copyright; do
  grep -q "$want" "$T/deb.txt" || { echo "FAIL: $deb has no $want"; exit 1; }
  grep -q "$want" "$T/tgz.txt" || { echo "FAIL: $tgz has no $want"; exit 1; }
done
for d in ./*.deb; do dpkg-deb -f "$d" Package Version Depends; done
echo "cpack: $deb and $tgz ok"

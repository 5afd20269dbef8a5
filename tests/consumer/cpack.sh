#!/bin/sh
# cpack makes Debian packages (library, kernel SDK, -dev, tool) and a .tar.gz which
# between them hold the install: library, tool, headers, firmware, kernel
# SDK, the OpenCL ICD, the package files and the license.
#   cpack.sh PACKAGES_DIR   (what tests/consumer/packages.sh made)
set -eu
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-cpack.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$1"
deb=$(ls ./*.deb | tr '\n' ' ')
tgz=$(ls ./*.tar.gz)
for d in ./*.deb; do dpkg-deb -c "$d"; done >"$T/deb.txt"
tar -tzf "$tgz" >"$T/tgz.txt"
for want in bin/rvhal lib/librvhal.so lib/librvhal.a include/rvhal/rvhal.h include/rvhal/kernel/rvhal_kernel.h \
  include/rvhal/kernel/rvhal/hal_sched_info.h \
  share/rvhal/firmware/rv64/ lib/rvhal/rv64/librvhal_kernel.a lib/rvhal/rv64/kernel.ld lib/rvhal/rv64/librvhal_opencl.a \
  lib/rvhal/rv64/librvhal_opencl.bc \
  lib/cmake/rvhal/rvhalConfig.cmake lib/pkgconfig/rvhal.pc lib/libhal_rvhal.so lib/libRvhalOpenCL.so.1 \
  include/rvhal/version.h share/doc/rvhal/LICENSE share/doc/rvhal/copyright; do
  grep -q "$want" "$T/deb.txt" || { echo "FAIL: $deb has no $want"; exit 1; }
  grep -q "$want" "$T/tgz.txt" || { echo "FAIL: $tgz has no $want"; exit 1; }
done
grep -q etc/OpenCL/vendors/rvhal.icd "$T/tgz.txt" || { echo "FAIL: $tgz has no etc/OpenCL/vendors/rvhal.icd"; exit 1; }
! grep -q etc/OpenCL/vendors/rvhal.icd "$T/deb.txt" || { echo "FAIL: a .deb ships <prefix>/etc (its postinst registers the ICD)"; exit 1; }
# The package holding the OpenCL ICD registers it in /etc/OpenCL/vendors.
icd=$(for d in ./*.deb; do dpkg-deb -c "$d" | grep -q libRvhalOpenCL.so.1 && echo "$d"; done)
dpkg-deb -e "$icd" "$T/control"
grep -q "/etc/OpenCL/vendors/rvhal.icd" "$T/control/postinst" || { echo "FAIL: $icd does not register its OpenCL ICD"; exit 1; }
for d in ./*.deb; do dpkg-deb -f "$d" Package Version Depends; done
echo "cpack: $deb and $tgz ok"

#!/bin/sh
# The packages cpack makes (cmake/RvhalPackage.cmake: the .debs and the
# .tar.gz), made once for the tests that check them (install.cpack,
# install.deb_lintian, install.deb_root: the fixture `packages`), so a
# loaded host compresses the install once per suite run, not three times.
#   packages.sh BUILD_DIR OUT_DIR
set -eu
BUILD=$1
OUT=$2
[ -f "$BUILD/CPackConfig.cmake" ] || { echo "FAIL: $BUILD has no CPackConfig.cmake"; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
cd "$OUT"
cpack --config "$BUILD/CPackConfig.cmake" >cpack.log 2>&1 || { cat cpack.log; echo "FAIL: cpack"; exit 1; }
rm -rf _CPack_Packages # the staging trees: only the packages are used
ls ./*.deb ./*.tar.gz

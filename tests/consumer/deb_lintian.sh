#!/bin/sh
# The Debian packages cpack makes (cmake/RvhalPackage.cmake) are what a
# Debian user expects: lintian reports no error, each package has its
# copyright and changelog, Depends were computed from the binaries (libc6,
# libstdc++6 for the OCK adapter) beside qemu-system-misc, opensbi is
# recommended, and the changelog's version is the package's.
#   deb_lintian.sh PACKAGES_DIR   (what tests/consumer/packages.sh made)
set -eu
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-deb.XXXXXX")
trap 'rm -rf "$T"' EXIT
command -v lintian >/dev/null || { echo "FAIL: lintian is not installed (scripts/setup.sh installs it)"; exit 1; }
cd "$1"
failed=0
fail() { echo "FAIL: $*"; failed=1; }
for deb in ./*.deb; do
  pkg=$(dpkg-deb -f "$deb" Package)
  ver=$(dpkg-deb -f "$deb" Version)
  echo "== $pkg $ver: Depends: $(dpkg-deb -f "$deb" Depends); Recommends: $(dpkg-deb -f "$deb" Recommends)"
  dpkg-deb -c "$deb" | awk '{print $6}' >"$T/files"
  for f in copyright changelog.gz; do
    grep -qx "./usr/share/doc/$pkg/$f" "$T/files" || fail "$pkg has no /usr/share/doc/$pkg/$f"
  done
  dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/share/doc/$pkg/changelog.gz" | gzip -dc | head -1 >"$T/top"
  grep -q "^rvhal ($ver) " "$T/top" || fail "$pkg: changelog's first entry is not version $ver: $(cat "$T/top")"
  case "$(dpkg-deb -f "$deb" Maintainer)" in *@localhost* | "") fail "$pkg: no real Maintainer" ;; esac
  [ -n "$(dpkg-deb -f "$deb" Description | sed -n 2p)" ] || fail "$pkg: no extended description"
done
lib=$(ls ./librvhal[0-9]*.deb)
dpkg-deb -f "$lib" Depends | grep -q 'libc6 (>=' || fail "$lib: Depends lacks libc6 (dpkg-shlibdeps)"
dpkg-deb -f "$lib" Depends | grep -q 'qemu-system-misc' || fail "$lib: Depends lacks qemu-system-misc"
dpkg-deb -f "$lib" Recommends | grep -q 'opensbi' || fail "$lib: Recommends lacks opensbi"
dpkg-deb --ctrl-tarfile "$lib" | tar -xOf - ./triggers | grep -qx 'activate-noawait ldconfig' || fail "$lib: no ldconfig trigger"
dpkg-deb -f ./rvhal_*.deb Depends | grep -q 'libstdc++6' || fail "rvhal: Depends lacks libstdc++6 (libhal_rvhal.so)"

# lintian: errors fail; warnings are shown.
lintian --tag-display-limit 0 ./*.deb >"$T/lintian" 2>&1 || true
cat "$T/lintian"
errors=$(grep -c '^E: ' "$T/lintian" || true)
[ "$errors" = 0 ] || fail "lintian reports $errors error(s)"
[ $failed = 0 ] && echo "deb_lintian: $(ls ./*.deb | wc -l) packages, 0 lintian errors, $(grep -c '^W: ' "$T/lintian" || true) warnings"
exit $failed

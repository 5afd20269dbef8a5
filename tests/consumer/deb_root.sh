#!/bin/sh
# The Debian packages (cpack) installed as a user installs them, and used
# from there: an OpenCL C kernel compiled and run through clBuildProgram,
# `rvhal cc` + `rvhal run`, the CMake package (rvhal_add_kernel, C and
# OpenCL C) and pkg-config (check_install.sh), with the install at /usr,
# where the system's own headers live. Then the OpenCL driver alone
# (librvhal + rvhal, no kernel SDK): clBuildProgram must fail naming the
# missing package, never fall back to the build tree it was built from.
# Each package's Depends must name what it needs, and be real packages.
#
# The packages are unpacked (dpkg -x) into throwaway roots; nothing on the
# machine changes. Where mount namespaces are allowed (root, or an
# unprivileged user namespace), each check runs in a private one in which
# /usr is the root's usr/ laid over the system's (overlayfs, read-only): the
# install really is at /usr. Elsewhere the root's usr/include/ gets a link to
# every entry of the system's /usr/include beside rvhal's headers, which
# puts glibc's headers where a kernel compile given <prefix>/include would
# find them, as at /usr.
#   deb_root.sh BUILD_DIR SOURCE_DIR CL_BUILD_PROGRAM [overlay|merged]
# The packages: BUILD_DIR/test-packages (tests/consumer/packages.sh).
set -eu
BUILD=$1
PACKAGES=$BUILD/test-packages
SRC=$2
CL_BUILD=$3
MODE=${4:-}
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-debroot.XXXXXX")
trap 'rm -rf "$T"' EXIT
step() { printf '\n== %s\n' "$*"; }
fail() { echo "FAIL: $*"; exit 1; }
unset RVHAL_FIRMWARE_DIR RVHAL_QEMU_PLUGIN RVHAL_KERNEL_SDK_DIR OCL_ICD_FILENAMES
export RVHAL_OPENCL_CACHE_DIR=$T/cache # never a binary an earlier compile left

step "the packages (tests/consumer/packages.sh made them in $PACKAGES)"
mkdir "$T/debs"
cp "$PACKAGES"/*.deb "$T/debs/"
deb_of() { # the package holding a file (a path pattern)
  for d in "$T"/debs/*.deb; do
    dpkg-deb -c "$d" | grep -q -- "$1" && { echo "$d"; return; }
  done
  fail "no package holds $1"
}
LIBDEB=$(deb_of '/librvhal\.so\.[0-9.]*$')
SDKDEB=$(deb_of '/rvhal/kernel/rvhal_kernel\.h$')
DEVDEB=$(deb_of '/rvhal/rvhal\.h$')
TOOLDEB=$(deb_of '/bin/rvhal$')
SDKPKG=$(dpkg-deb -f "$SDKDEB" Package)
TOOLPKG=$(dpkg-deb -f "$TOOLDEB" Package)
[ "$SDKDEB" != "$DEVDEB" ] || fail "the kernel SDK is in the -dev package, which the OpenCL driver does not need"

step "Depends: each package names what it needs"
for d in "$T"/debs/*.deb; do echo "$(dpkg-deb -f "$d" Package): $(dpkg-deb -f "$d" Depends)"; done
depends_on() { # deb, package name
  dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/^ *//; s/[ (].*//' | grep -qx -- "$2" ||
    fail "$(dpkg-deb -f "$1" Package) does not depend on $2"
}
for need in "$SDKPKG" clang-16 llvm-16; do depends_on "$TOOLDEB" "$need"; done
for need in gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf; do depends_on "$SDKDEB" "$need"; done
depends_on "$DEVDEB" "$SDKPKG"
# every other name a package depends on is a package this machine has
# installed (scripts/setup.sh installs what rvhal needs), not a typo
for d in "$T"/debs/*.deb; do
  for name in $(dpkg-deb -f "$d" Depends | tr ',' '\n' | sed 's/^ *//; s/[ (].*//'); do
    ls "$T/debs/${name}_"*.deb >/dev/null 2>&1 && continue # one of rvhal's own
    dpkg-query -W -f='${Status}\n' "$name" 2>/dev/null | grep -q "install ok installed" ||
      fail "$(dpkg-deb -f "$d" Package) depends on $name, which is not an installed package here"
  done
done

step "unpack: $T/full (every package), $T/driver (librvhal and $TOOLPKG only)"
for d in "$T"/debs/*.deb; do dpkg -x "$d" "$T/full"; done
dpkg -x "$LIBDEB" "$T/driver"
dpkg -x "$TOOLDEB" "$T/driver"
# the library directory as installed (GNUInstallDirs: lib, lib64, a multiarch one)
LIBREL=$(dpkg-deb -c "$LIBDEB" | awk '{print $6}' | grep '/librvhal\.so\.[0-9.]*$' | head -1 | sed 's|^\./usr/||; s|/[^/]*$||')
ICD_LINE=$(dpkg-deb --ctrl-tarfile "$TOOLDEB" | tar -xOf - ./postinst | sed -n 's/^ *echo \([^ ]*\) > \/etc\/OpenCL\/vendors\/rvhal.icd$/\1/p')
[ -n "$ICD_LINE" ] || fail "$TOOLPKG's postinst registers no ICD in /etc/OpenCL/vendors/rvhal.icd"

# Which way this machine lets the install sit at /usr.
if [ "$(id -u)" = 0 ]; then ns="unshare -m"; else ns="unshare -rm"; fi
if [ -z "$MODE" ]; then
  MODE=merged
  if $ns sh -c "mount -t overlay overlay -o lowerdir=$T/full/usr:/usr /usr && test -f /usr/include/rvhal/kernel/rvhal_kernel.h" \
    2>/dev/null; then
    MODE=overlay
  fi
fi
step "mode: $MODE"

# in_root ROOT CMD...: CMD with the root's install as PREFIX ($P) and its
# ICD registered for the loader.
cat >"$T/inner.sh" <<'INNER'
set -eu
ROOT=$1 MODE=$2 T=$3 LIBREL=$4 ICD_LINE=$5
shift 5
if [ "$MODE" = overlay ]; then
  mount -t overlay overlay -o "lowerdir=$ROOT/usr:/usr" /usr
  if [ -d /etc/OpenCL ]; then # what the postinst does, in this namespace's /etc/OpenCL only
    mount -t tmpfs tmpfs /etc/OpenCL
    mkdir /etc/OpenCL/vendors
    echo "$ICD_LINE" >/etc/OpenCL/vendors/rvhal.icd
    unset OCL_ICD_VENDORS
  else # (no /etc/OpenCL to lay a tmpfs on: the same line, named to the loader)
    echo "$ICD_LINE" >"$T/rvhal-$(basename "$ROOT").icd"
    export OCL_ICD_VENDORS=$T/rvhal-$(basename "$ROOT").icd
  fi
  export P=/usr
else
  export P=$ROOT/usr
  echo "$P/$LIBREL/$ICD_LINE" >"$T/rvhal-$(basename "$ROOT").icd"
  export OCL_ICD_VENDORS=$T/rvhal-$(basename "$ROOT").icd
fi
export LIB=$P/$LIBREL
"$@"
INNER
in_root() {
  root=$1
  shift
  if [ "$MODE" = overlay ]; then
    $ns sh "$T/inner.sh" "$root" "$MODE" "$T" "$LIBREL" "$ICD_LINE" "$@"
  else
    sh "$T/inner.sh" "$root" "$MODE" "$T" "$LIBREL" "$ICD_LINE" "$@"
  fi
}
if [ "$MODE" = merged ]; then
  for r in full driver; do
    mkdir -p "$T/$r/usr/include"
    for e in /usr/include/*; do
      [ -e "$T/$r/usr/include/$(basename "$e")" ] || ln -s "$e" "$T/$r/usr/include/"
    done
  done
fi

cat >"$T/vadd.cl" <<'CL'
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i];
}
CL

step "every package: clBuildProgram"
in_root "$T/full" "$CL_BUILD" ok

step "every package: rvhal cc, then rvhal run"
# shellcheck disable=SC2016 # $P is the inner shell's
in_root "$T/full" sh -c '"$P/bin/rvhal" cc "$1/vadd.cl" -o "$1/vadd.elf" &&
  "$P/bin/rvhal" run "$1/vadd.elf" vadd --global 8 buf:f32=iota buf:f32=10 buf:f32' sh "$T" | tee "$T/run.txt"
grep -q '^  \[0\] 10 11 12 13 14 15 16 17$' "$T/run.txt" || fail "rvhal run of the rvhal cc kernel: wrong sums"

step "every package: the CMake and pkg-config consumers (check_install.sh)"
mkdir "$T/work"
# shellcheck disable=SC2016
in_root "$T/full" sh -c 'sh "$1" "$P" "$LIB" "$2" "$3" "$4"' sh "$SRC/tests/consumer/check_install.sh" "$SRC" \
  "$T/work" "$BUILD"

step "the OpenCL driver without $SDKPKG: the build fails naming it"
in_root "$T/driver" "$CL_BUILD" missing "$SDKPKG"
# shellcheck disable=SC2016
if in_root "$T/driver" sh -c '"$P/bin/rvhal" cc "$1/vadd.cl" -o "$1/none.elf"' sh "$T" >"$T/cc.txt" 2>&1; then
  fail "rvhal cc compiled without the kernel SDK (from the build tree?)"
fi
cat "$T/cc.txt"
grep -q "$SDKPKG" "$T/cc.txt" || fail "rvhal cc's error does not name $SDKPKG"
echo "deb_root: all passed ($MODE)"

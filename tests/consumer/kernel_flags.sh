#!/bin/sh
# One kernel flag set (cmake/package/RvhalKernelFlags.cmake): the flags the
# build tree compiles its kernels with, those of the installed CMake
# package's rvhal_add_kernel and those of the installed rvhal.pc are the
# same set, at each XLEN; and through the package and through pkg-config a
# kernel with a 40 KiB fixed frame is refused.
#   kernel_flags.sh BUILD_DIR SOURCE_DIR
set -eu
BUILD=$1
SRC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-kflags.XXXXXX")
trap 'rm -rf "$T"' EXIT
cmake --install "$BUILD" --prefix "$T/p" >/dev/null
export PKG_CONFIG_PATH="$T/p/lib/pkgconfig"
cmake -S "$SRC/tests/consumer/kernel_flags" -B "$T/b" -G Ninja -DCMAKE_PREFIX_PATH="$T/p" -DRVHAL_TREE="$SRC" >/dev/null
cmake --build "$T/b" >/dev/null

# A compile command as its flags, one a line, sorted: without the compiler,
# files (-c, -o, sources), include paths, definitions and dependency output;
# of several -O the last (the build type's comes first in the build tree).
norm() {
  tr ' ' '\n' | awk '
    skip { skip = 0; next }
    $0 == "-o" || $0 == "-c" || $0 == "-MT" || $0 == "-MF" || $0 == "-MQ" { skip = 1; next }
    /^-(I|D)/ || $0 == "-MD" || $0 == "-MMD" || !/^-/ { next }
    /^-O/ { opt = $0; next }
    { print }
    END { if (opt != "") print opt }' | sort -u
}
failed=0
for x in 64 32; do
  # (a command line may chain several commands with &&: one a line)
  ninja -C "$BUILD/device-rv$x" -t commands kernels/vector_add.elf | sed 's/ && /\n/g' | grep -- "-c [^ ]*/examples/vector_add/kernel.c" |
    norm >"$T/tree$x"
  ninja -C "$T/b" -t commands saxpy$x | sed 's/ && /\n/g' | grep -- "-c [^ ]*/saxpy.c" | norm >"$T/cmake$x"
  pkg-config --variable=kernel_cflags_rv$x rvhal | norm >"$T/pc$x"
  for f in tree cmake pc; do
    [ -s "$T/$f$x" ] || { echo "FAIL: RV$x: no flags found for the $f"; failed=1; }
  done
  for f in cmake pc; do
    if ! diff -u "$T/tree$x" "$T/$f$x" >"$T/diff"; then
      echo "FAIL: RV$x: the kernel flags of the build tree (-) and the installed $f (+) differ:"
      cat "$T/diff"
      failed=1
    fi
  done
  for want in -fstack-clash-protection -Werror=frame-larger-than=32768 -Wall -Wextra; do
    grep -qx -- "$want" "$T/tree$x" || { echo "FAIL: RV$x: the kernel flags lack $want"; failed=1; }
  done
  echo "RV$x kernel flags (build tree = CMake package = rvhal.pc): $(tr '\n' ' ' <"$T/tree$x")"
done

# The frame limit holds for installed users too.
if cmake --build "$T/b" --target big_frame >"$T/big" 2>&1; then
  echo "FAIL: a 40 KiB fixed frame compiled through rvhal_add_kernel"; failed=1
elif ! grep -q "frame size" "$T/big"; then
  echo "FAIL: big_frame failed for another reason:"; cat "$T/big"; failed=1
fi
# shellcheck disable=SC2046 # the flags are words
if $(pkg-config --variable=kernel_cc rvhal) $(pkg-config --variable=kernel_cflags_rv64 rvhal) \
  -c "$SRC/tests/kernels/big_frame.c" -o "$T/big.o" >"$T/big" 2>&1; then
  echo "FAIL: a 40 KiB fixed frame compiled with rvhal.pc's kernel_cflags_rv64"; failed=1
elif ! grep -q "frame size" "$T/big"; then
  echo "FAIL: big_frame failed for another reason:"; cat "$T/big"; failed=1
fi
[ $failed = 0 ] && echo "kernel_flags: all passed"
exit $failed

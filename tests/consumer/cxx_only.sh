#!/bin/sh
# rvhal_add_kernel(... EMBED) in a project that enables only C++
# (tests/consumer/cxx_only), against an install in a temporary prefix.
#   cxx_only.sh BUILD_DIR SOURCE_DIR
set -eu
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-cxx.XXXXXX")
trap 'rm -rf "$T"' EXIT
cmake --install "$1" --prefix "$T/p" >/dev/null
cmake -S "$2/tests/consumer/cxx_only" -B "$T/b" -G Ninja -DCMAKE_PREFIX_PATH="$T/p" >/dev/null
cmake --build "$T/b"
"$T/b/cxx_only"

#!/bin/sh
# Installs rvhal into a temporary prefix, MOVES the prefix, then checks it
# as a user would (check_install.sh: the CMake and the Makefile consumer
# projects, the moved `rvhal` tool).
#   run.sh BUILD_DIR SOURCE_DIR
set -eu
BUILD=$1
SRC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-consumer.XXXXXX")
trap 'rm -rf "$T"' EXIT

printf '== install into %s/installed, then move it to %s/moved\n' "$T" "$T"
cmake --install "$BUILD" --prefix "$T/installed" >/dev/null
mv "$T/installed" "$T/moved"
P=$T/moved
LIB=$(dirname "$(dirname "$(find "$P" -name rvhal.pc)")")
mkdir "$T/work"
sh "$SRC/tests/consumer/check_install.sh" "$P" "$LIB" "$SRC" "$T/work" "$BUILD"
echo "consumer: all passed"

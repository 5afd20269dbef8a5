#!/bin/sh
# The example of `rvhal run --help` and the README's `rvhal run` sample
# show what the tool prints for their command: both are compared with a
# real run, times and the hart split (which follow the host's load and
# cores) masked.
#   run_help_example.sh RVHAL BUILD_DIR README
set -u
RVHAL=$1
BUILD=$2
README=$3
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
failed=0
mask() {
  sed -E 's/device [0-9.]+ ms, host [0-9.]+ ms/device T ms, host T ms/; s/[0-9]+ harts? \([0-9]+ per group\)/H harts (P per group)/'
}

# The help's example: the lines after "example:" up to "prints", then the
# indented output up to the first blank line.
"$RVHAL" run --help >"$T/help"
sed -n '/^example:$/,/^prints/p' "$T/help" | sed '1d;$d' | tr -d '\\\n' | sed 's/^ *rvhal //' >"$T/help_cmd"
sed -n '/^prints/,/^$/p' "$T/help" | sed '1d;$d' | sed 's/^  //' >"$T/help_out"
# The README's: the block starting "$ build/host/tools/rvhal run" up to its
# closing fence.
sed -n '/^\$ build\/host\/tools\/rvhal run build\/device-rv64\/kernels\/vector_add.elf /,/^```$/p' "$README" | sed '$d' >"$T/readme_block"
sed -n '1,/[^\\]$/p' "$T/readme_block" | tr -d '\\\n' | sed 's/^\$ build\/host\/tools\/rvhal //' >"$T/readme_cmd"
sed -n '/[^\\]$/,$p' "$T/readme_block" | sed 1d >"$T/readme_out"

for which in help readme; do
  cmd=$(sed "s|build/device-rv64/|$BUILD/device-rv64/|" "$T/${which}_cmd")
  [ -s "$T/${which}_out" ] || { echo "FAIL: no $which sample found"; failed=1; continue; }
  echo "\$ rvhal $cmd"
  # shellcheck disable=SC2086 # the example's words
  "$RVHAL" $cmd >"$T/actual" 2>&1 || { echo "FAIL: the $which example exits $?"; cat "$T/actual"; failed=1; }
  mask <"$T/${which}_out" >"$T/want"
  mask <"$T/actual" >"$T/got"
  if diff -u "$T/want" "$T/got"; then
    echo "the $which sample matches ($(wc -l <"$T/got") lines)"
  else
    echo "FAIL: the $which sample (-) differs from what the tool prints (+)"
    failed=1
  fi
done
[ $failed = 0 ] && echo "run_help_example: all passed"
exit $failed

#!/bin/sh
# Help and version: every way of asking for help shows it on stdout with an
# example; a wrong command or option prints one line naming it and a hint
# (not the whole usage) on stderr, with exit status 2.
set -u
EXPECT=$(dirname "$0")/expect.sh
RVHAL=$1
failed=0
ok() { "$EXPECT" "$@" >/dev/null || { "$EXPECT" "$@"; failed=1; }; }

ok 0 'out:^usage: rvhal ' 'out:^  info ' 'out:^  run ' 'out:^  abi ' 'out:^example:' -- "$RVHAL" --help
ok 0 'out:^rvhal [0-9]+\.[0-9]+\.[0-9]+ \(API version [0-9]+\)$' -- "$RVHAL" --version
for cmd in info run abi kernels cc; do
  ok 0 "out:^usage: rvhal $cmd " 'out:^example:' -- "$RVHAL" help "$cmd"
  ok 0 "out:^usage: rvhal $cmd " 'out:^example:' -- "$RVHAL" "$cmd" --help
done
# abi's example shows its output, which must be what the tool prints.
ok 0 'out:^    packed size 56 bytes \(a C struct with this layout: 64 bytes\)$' \
  'out:^  RVHAL_KERNEL\(scale, scale_args, scale_item, RVHAL_GLOBAL\(arg0\), ' -- "$RVHAL" abi --help
example=$("$RVHAL" abi --help | sed -n 's/^  \$ rvhal //p')
# shellcheck disable=SC2086 # the example's words
actual=$("$RVHAL" $example | sed 's/^/  /; s/^  $//')
shown=$("$RVHAL" abi --help | sed -n '/^  \$ rvhal /,$p' | sed 1d)
if [ "$actual" != "$shown" ]; then
  echo "FAIL: rvhal abi --help's example differs from what 'rvhal $example' prints:"
  printf '%s\n' "$actual" >"${TMPDIR:-/tmp}/rvhal-abi-actual.$$"
  printf '%s\n' "$shown" | diff - "${TMPDIR:-/tmp}/rvhal-abi-actual.$$"
  rm -f "${TMPDIR:-/tmp}/rvhal-abi-actual.$$"
  failed=1
fi

# one_line_and_hint HINT EXPECT-ARGS...: as ok, and stderr is exactly the
# message and "Try 'HINT'."
one_line_and_hint() {
  hint=$1
  shift
  ok "$@"
  while [ "$1" != "--" ]; do shift; done
  shift
  err=$("$@" 2>&1 >/dev/null)
  if [ "$(printf '%s\n' "$err" | wc -l)" != 2 ] || [ "$(printf '%s\n' "$err" | sed -n 2p)" != "Try '$hint'." ]; then
    echo "FAIL: '$*' should print one line and \"Try '$hint'.\"; it printed:"
    printf '%s\n' "$err"
    failed=1
  fi
}
one_line_and_hint "rvhal --help" 2 "err:^rvhal: unknown command 'frobnicate'$" -- "$RVHAL" frobnicate
one_line_and_hint "rvhal --help" 2 "err:^rvhal: unknown command 'frobnicate'$" -- "$RVHAL" help frobnicate
ok 2 'err:^rvhal: no command given$' 'err:^usage: rvhal ' -- "$RVHAL"
one_line_and_hint "rvhal --help" 2 "err:^rvhal: unknown option '--frob' \\(before the command\\)$" -- "$RVHAL" --frob
for cmd in info run abi kernels cc; do
  one_line_and_hint "rvhal $cmd --help" 2 "err:^rvhal $cmd: unknown option '--frob'$" -- "$RVHAL" "$cmd" --frob
done
for cmd in info run abi kernels; do # (rvhal cc passes single-dash options to the OpenCL compiler)
  one_line_and_hint "rvhal $cmd --help" 2 "err:^rvhal $cmd: unknown option '-Z'$" -- "$RVHAL" "$cmd" -Z
done
one_line_and_hint "rvhal run --help" 2 "err:^rvhal run: option '--global' needs a value$" -- "$RVHAL" run x.elf k --global
[ $failed = 0 ] && echo "all help checks passed"
exit $failed

#!/bin/sh
# expect.sh CODE [PATTERN...] -- COMMAND [ARG...]
# Runs COMMAND and fails unless it exits with CODE, each PATTERN (an
# extended regex; "out:RE" only on stdout, "err:RE" only on stderr) matches
# a line of its output, and no QEMU process it started is still alive.
set -u
code=$1
shift
pats=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  pats="$pats$1
"
  shift
done
if [ $# -lt 2 ]; then
  echo "usage: expect.sh CODE [PATTERN...] -- COMMAND [ARG...]" >&2
  exit 2
fi
shift
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# QEMU inherits the environment: this tags the processes this run starts.
RVHAL_CLI_TEST_ID="cli-$$-$(date +%s%N)"
export RVHAL_CLI_TEST_ID
"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
echo "\$ $*"
cat "$tmp/out"
cat "$tmp/err"
fail=0
if [ "$rc" != "$code" ]; then
  echo "FAIL: exit status $rc, expected $code"
  fail=1
fi
cat "$tmp/out" "$tmp/err" >"$tmp/both"
printf '%s' "$pats" | while IFS= read -r p; do
  case $p in
  out:*) f=out re=${p#out:} ;;
  err:*) f=err re=${p#err:} ;;
  *) f=both re=$p ;;
  esac
  if ! grep -Eq -- "$re" "$tmp/$f"; then
    echo "FAIL: no line of $f matches: $re"
    echo x >>"$tmp/failed"
  fi
done
[ -e "$tmp/failed" ] && fail=1
# The device is deleted on every path; allow the kill a moment to land.
left=""
for try in 1 2 3 4 5 6 7 8 9 10; do
  left=""
  for pid in $(pgrep qemu-system); do
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "RVHAL_CLI_TEST_ID=$RVHAL_CLI_TEST_ID"; then
      left="$left $pid"
    fi
  done
  [ -z "$left" ] && break
  sleep 0.2
done
if [ -n "$left" ]; then
  echo "FAIL: QEMU left running, pid(s)$left"
  fail=1
fi
exit $fail

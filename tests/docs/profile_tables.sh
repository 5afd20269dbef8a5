#!/bin/sh
# The profile tables the README and docs/counters.md show (exact timing:
# the same on every run of one build) are what this build prints: their
# hart rows, digit for digit, and their heading. A change to the firmware
# or the SDK that moves the counts fails this until the docs follow.
#   profile_tables.sh RVHAL_CLI KERNEL_DIR SOURCE_DIR
set -eu
CLI=$1
KDIR=$2
SRC=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-docs-profile.XXXXXX")
trap 'rm -rf "$T"' EXIT
failed=0
# check DOC COMMAND_PREFIX ARGS...: the rows after the doc's line starting
# with COMMAND_PREFIX (a "$ ..." line and its continuation), up to the
# first line that is neither the heading nor a row, against the output.
check() {
  doc=$1
  prefix=$2
  shift 2
  awk -v p="$prefix" 'found && /^ *(hart|total|[0-9]+) / { print; next }
                      found && /^rvhal profile: launch/ { next }
                      found && seen++ > 0 { exit }
                      index($0, p) == 1 { found = 1 }' "$doc" | grep -E '^ *(hart|total|[0-9]+) ' >"$T/want"
  "$CLI" run --profile "$@" 2>&1 | grep -E '^ *(hart|total|[0-9]+) ' >"$T/got"
  if [ ! -s "$T/want" ]; then
    echo "FAIL: $doc: no table after \"$prefix\""
    failed=1
  elif ! grep -vxFf "$T/got" "$T/want" >"$T/stale"; then
    echo "$doc: $(wc -l <"$T/want") lines of its table are this build's"
  else
    echo "FAIL: $doc: these lines of its table are not what this build prints:"
    cat "$T/stale"
    echo "this build:"
    cat "$T/got"
    failed=1
  fi
}
check "$SRC/README.md" '$ build/host/tools/rvhal run --profile --harts 4' \
  --harts 4 "$KDIR/barrier_check.elf" barrier_check --global 16,8 --local 4,4 -q buf:u32 local:64 u32:2
check "$SRC/docs/counters.md" '$ rvhal run --timing exact --profile --harts 2' \
  --timing exact --harts 2 "$KDIR/barrier_check.elf" barrier_check --global 16,4 --local 4,4 -q buf:u32 local:64 u32:2
exit $failed

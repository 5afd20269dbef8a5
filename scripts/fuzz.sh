#!/usr/bin/env bash
# Runs each libFuzzer target of tests/fuzz for SECONDS (default 25) from its
# seed corpus (copied: the tree's corpus is not changed), and prints the
# executions each made. Needs the sanitize build (cmake --preset sanitize).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Each run explores new inputs (libFuzzer's seed is random), so a run can
# find a fault no earlier run met: fuzz a changed target for minutes before
# landing, not only CI's 25 s. A fault is written as an artifact and dumped
# here; add the input to the target's corpus with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
  ''|[0-9]*) ;;
  *) echo "fuzz: '$1' is not a number of seconds (--help)" >&2; exit 2 ;;
esac
secs=${1:-25}
shift || true
build=${RVHAL_SANITIZE_BUILD_DIR:-build-sanitize}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_elf_loader fuzz_arg_pack fuzz_cli_args fuzz_print_drain fuzz_gdb_rsp fuzz_board_desc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in "${targets[@]}"; do
  exe="$build/tests/$t"
  [ -x "$exe" ] || { echo "fuzz: $exe missing: cmake --preset sanitize && cmake --build --preset sanitize" >&2; exit 1; }
  mkdir -p "$work/$t"
  cp tests/fuzz/corpus/"$t"/* "$work/$t/"
  # -rss_limit_mb: a target that lets the input decide an allocation size fails here
  if ! "$exe" -max_total_time="$secs" -rss_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$work/$t-" \
      "$work/$t" >"$work/$t.log" 2>&1; then
    tail -40 "$work/$t.log" >&2
    echo "fuzz: $t FAILED; the input:" >&2
    for f in "$work/$t"-*; do [ -e "$f" ] && od -A x -t x1z "$f" | head -20 >&2; done
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$work/$t.log")
  echo "fuzz: $t: $runs executions in ${secs} s, peak RSS ${rss} MB, no failure"
done

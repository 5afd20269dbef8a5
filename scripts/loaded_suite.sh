#!/bin/sh
# The whole test suite several times in a row beside busy loops: what the
# suite does on a loaded host (a CI machine shared with other jobs). Each
# run's ctest summary and the load average it ran at (sampled every 10 s:
# min / mean / max of the 1-minute figure); exits non-zero if any run had a
# failure. Not part of the suite (it takes RUNS times the suite's time).
#
#   scripts/loaded_suite.sh [BUILD_DIR] [RUNS] [BUSY_LOOPS]
#
# BUILD_DIR (default build) must be built already: nothing is rebuilt.
# RUNS defaults to 3, BUSY_LOOPS to 2 (each a shell spinning on one CPU).
# JOBS (default 2) is ctest's -j: more tests at once load the host more
# (two busy loops and -j2 keep a 2-core host near load 5; -j6 near 10).
# CTEST_ARGS adds to `ctest --output-on-failure -j$JOBS` (say -R device).
# Logs: LOG_DIR (default BUILD_DIR/loaded_suite), run-N.log per run.
set -eu
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }
case "${1:-}" in -h|--help) usage; exit 0 ;; esac
BUILD=${1:-build}
RUNS=${2:-3}
BUSY=${3:-2}
[ -f "$BUILD/CTestTestfile.cmake" ] || { echo "loaded_suite: $BUILD is not a configured build (no CTestTestfile.cmake)" >&2; exit 2; }
JOBS=${JOBS:-2}
case "$RUNS$BUSY$JOBS" in *[!0-9]*) echo "loaded_suite: RUNS, BUSY_LOOPS and JOBS are counts, got '$RUNS' '$BUSY' '$JOBS'" >&2; exit 2 ;; esac
BUILD=$(cd "$BUILD" && pwd)
LOG=${LOG_DIR:-$BUILD/loaded_suite}
mkdir -p "$LOG"

pids="" # the busy loops, the load sampler, the running ctest
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
trap 'echo "loaded_suite: stopped" >&2; exit 130' INT TERM
i=0
while [ "$i" -lt "$BUSY" ]; do
  sh -c 'while :; do :; done' &
  pids="$pids $!"
  i=$((i + 1))
done

failed=0
run=1
while [ "$run" -le "$RUNS" ]; do
  # the load average, every 10 s, while this run lasts
  (while :; do cut -d' ' -f1 /proc/loadavg; sleep 10; done) >"$LOG/load-$run.txt" &
  sampler=$!
  start=$(date +%s)
  rc=0
  # in the background, so that a signal stops it too (ctest ends its tests)
  (cd "$BUILD" && exec ctest --output-on-failure -j"$JOBS" ${CTEST_ARGS:-}) >"$LOG/run-$run.log" 2>&1 &
  ctest_pid=$!
  pids="$pids $sampler $ctest_pid"
  wait "$ctest_pid" || rc=$?
  kill "$sampler" 2>/dev/null || true
  load=$(awk 'NR==1{min=$1;max=$1} {s+=$1; if($1<min)min=$1; if($1>max)max=$1} END{if(NR) printf "%.1f / %.1f / %.1f", min, s/NR, max}' "$LOG/load-$run.txt")
  echo "run $run: $(grep -E 'tests passed' "$LOG/run-$run.log" | tail -1) in $(( $(date +%s) - start )) s, load average min / mean / max $load"
  if [ "$rc" -ne 0 ]; then
    failed=$((failed + 1))
    sed -n '/The following tests FAILED/,$p' "$LOG/run-$run.log" | grep -E '^\s+[0-9]+ - ' || true
  fi
  run=$((run + 1))
done
echo "loaded_suite: $RUNS runs (ctest -j$JOBS) beside $BUSY busy loops, $failed with failures (logs: $LOG)"
[ "$failed" -eq 0 ]

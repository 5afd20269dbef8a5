#!/usr/bin/env bash
# rvhal's firmware on Spike, the RISC-V ISA simulator, reached the way a
# board is: Spike's debug module over JTAG (--rbb-port), driven by
# OpenOCD's remote_bitbang adapter, OpenOCD serving GDB, rvhal attached to it
# (RVHAL_GDB_REMOTE; board boards/spike-openocd). Runs the device tests that
# attach to a stub and the examples there, for each hart count, and prints
# `N passed, M failed` and a table of what did not pass and why.
#
#   scripts/spike.sh RISCV_ISA_SIM_DIR [BUILD_DIR]
#
# RISCV_ISA_SIM_DIR: a checkout of github.com/riscv-software-src/riscv-isa-sim
# (fetched by you, outside this repository; rvhal does not ship it). Spike is
# built from it once, into BUILD_DIR/riscv-isa-sim, and again only when the
# checkout's files change. BUILD_DIR: rvhal configured with the board
# (default build-spike; configured and built here). Its Debian build
# dependencies and OpenOCD are installed when missing (as root).
#
#   SPIKE_HARTS="1 4"   hart counts (one Spike and one OpenOCD each)
#   SPIKE_XLEN=64       64 (rv64gc) or 32 (rv32gc)
#   SPIKE_TESTS="..."   device tests to run (default: every attach-capable one)
#   SPIKE_EXAMPLES=0    leave the examples out
#   SPIKE_BUILD=0       run what BUILD_DIR holds, without building it
#   SPIKE_MEM_ACCESS=progbuf  how OpenOCD reaches memory: progbuf, sysbus or
#                       abstract (OpenOCD's `riscv set_mem_access`)
#   SPIKE_BENCH=1       also measure launch and transfers (rvhal-bench launch transfer)
#   SPIKE_TIMEOUT=1800  seconds one test may take
# Logs: BUILD_DIR/spike-logs/. Exit status 0 when everything passed.
set -euo pipefail

HERE=$(cd "$(dirname "$0")/.." && pwd)
SRC=${1:-}
if [ -z "$SRC" ] || [ ! -f "$SRC/configure" ] || [ ! -f "$SRC/riscv/remote_bitbang.cc" ]; then
  cat >&2 <<EOF
spike.sh: no Spike sources${SRC:+ in '$SRC'}.
  Fetch riscv-isa-sim (it is not part of rvhal), then run this again:
    git clone https://github.com/riscv-software-src/riscv-isa-sim /path/to/riscv-isa-sim
    scripts/spike.sh /path/to/riscv-isa-sim [BUILD_DIR]
EOF
  exit 2
fi
SRC=$(cd "$SRC" && pwd)
BUILD=${2:-$HERE/build-spike}
mkdir -p "$BUILD"
BUILD=$(cd "$BUILD" && pwd)
case "$SRC/" in "$HERE"/*) echo "spike.sh: keep the Spike checkout outside this repository" >&2; exit 2 ;; esac
HARTS=${SPIKE_HARTS:-1 4}
XLEN=${SPIKE_XLEN:-64}
TIMEOUT=${SPIKE_TIMEOUT:-1800}
LOGS=$BUILD/spike-logs
mkdir -p "$LOGS"

# ---- packages: Spike's build (autotools, C++20, dtc) and OpenOCD ----
need=()
for entry in g++:g++ make:make device-tree-compiler:dtc openocd:openocd python3:python3 cmake:cmake ninja-build:ninja; do
  command -v "${entry#*:}" >/dev/null 2>&1 || need+=("${entry%%:*}")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "spike.sh: installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" >"$LOGS/apt.log" 2>&1 ||
      { tail -5 "$LOGS/apt.log"; exit 1; }
  else
    echo "spike.sh: install ${need[*]} (apt-get install ${need[*]}), then run this again" >&2
    exit 1
  fi
fi

# ---- Spike, built once per checkout state ----
SPIKE_BUILD=$BUILD/riscv-isa-sim
SPIKE=$SPIKE_BUILD/install/bin/spike
key=$(cd "$SRC" && find . -path ./.git -prune -o -type f -printf '%P %s %T@\n' | sort | md5sum | cut -d' ' -f1)
# Only the instructions rvhal's harts run (RV64GC/RV32GC and the privileged
# ones), and those processor.cc names as opcode overlaps: ~290 of Spike's
# ~1540 instruction files, which it compiles one each. SPIKE_FULL=1, or a
# checkout where that does not build, builds them all.
insns='$(riscv_insn_ext_i) $(riscv_insn_ext_c) $(riscv_insn_ext_f) $(riscv_insn_ext_d) $(riscv_insn_ext_m)'
insns="$insns"' $(riscv_insn_ext_a) $(riscv_insn_priv) $(riscv_insn_smrnmi) $(riscv_insn_svinval) '
insns="$insns$(grep -o 'DECLARE_OVERLAP_INSN([a-zA-Z0-9_]*' "$SRC/riscv/overlap_list.h" 2>/dev/null | sed 's/.*(//' | tr '\n' ' ')"
[ "${SPIKE_FULL:-0}" = 1 ] && key=$key.full
build_spike() { # [make arguments]: configure, make, install
  rm -rf "$SPIKE_BUILD/obj" "$SPIKE_BUILD/install"
  mkdir -p "$SPIKE_BUILD/obj"
  # Without Boost: the remote bitbang port and the ISA need none of it.
  (cd "$SPIKE_BUILD/obj" && "$SRC/configure" --prefix="$SPIKE_BUILD/install" --without-boost --without-boost-asio \
     --without-boost-regex >"$LOGS/spike-configure.log" 2>&1 &&
   nice -n 10 make -j2 "$@" >"$LOGS/spike-make.log" 2>&1 && make "$@" install >"$LOGS/spike-install.log" 2>&1)
}
if [ ! -x "$SPIKE" ] || [ "$(cat "$SPIKE_BUILD/source.key" 2>/dev/null)" != "$key" ]; then
  echo "spike.sh: building Spike from $SRC into $SPIKE_BUILD (a long C++ build; -j2, niced)"
  if [ "${SPIKE_FULL:-0}" = 1 ] || ! build_spike "riscv_insn_list=\$(sort $insns)"; then
    [ "${SPIKE_FULL:-0}" = 1 ] || echo "spike.sh: the RV64GC-only build failed ($LOGS/spike-make.log); building all of Spike"
    build_spike ||
      { echo "spike.sh: building Spike failed; see $LOGS/spike-*.log" >&2; tail -5 "$LOGS/spike-make.log" >&2 || true; exit 1; }
  fi
  echo "$key" >"$SPIKE_BUILD/source.key"
fi

# ---- rvhal with the board ----
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$HERE" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRVHAL_EXTRA_BOARDS=spike-openocd \
    >"$LOGS/cmake.log" 2>&1 || { tail -5 "$LOGS/cmake.log"; exit 1; }
fi
# The device tests that run against a stub rvhal did not start
# (tests/device/device.cmake's gdb.remote set), trap's stack overflows, and
# the isolation tests: the hostile kernels' traps, wild and isolated
# stores (U-mode stores into the firmware, the control block, other harts'
# stacks, read-only code) and stack frames; not the parts that kill or
# count QEMU processes, or want 8 harts and 1 GiB (teams).
TESTS=${SPIKE_TESTS:-ndrange args memory trap trap_stack_overflow doorbell debug_counters shapes hostile_isolation hostile_stack}
# Only what runs here: the device tree of this XLEN (firmware, kernels),
# the tests' programs, the examples and the bench.
targets="rvhal-device-rv$XLEN examples/test_examples bench/rvhal-bench"
for t in $TESTS; do
  case $t in trap_*) t=trap ;; hostile_*) t=hostile ;; esac
  case " $targets " in *" tests/device_test_$t "*) ;; *) targets="$targets tests/device_test_$t" ;; esac
done
if [ "${SPIKE_BUILD:-1}" != 0 ]; then
  cmake --build "$BUILD" -j2 --target $targets >"$LOGS/build.log" 2>&1 || { tail -20 "$LOGS/build.log"; exit 1; }
fi
DEVICE=spike-openocd-rv$XLEN
FW=$BUILD/device-rv$XLEN/firmware/rvhal-fw-$DEVICE.elf
[ -f "$FW" ] || { echo "spike.sh: no $FW: is spike-openocd in RVHAL_EXTRA_BOARDS of $BUILD?" >&2; exit 1; }
CFG=$HERE/boards/spike-openocd/openocd.cfg

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
SPIKE_PID=; OCD_PID=
stop_target() {
  [ -n "$OCD_PID" ] && kill "$OCD_PID" 2>/dev/null && wait "$OCD_PID" 2>/dev/null || true
  [ -n "$SPIKE_PID" ] && kill "$SPIKE_PID" 2>/dev/null && wait "$SPIKE_PID" 2>/dev/null || true
  SPIKE_PID=; OCD_PID=
}
trap stop_target EXIT

# Spike with H harts, halted, its debug module on a remote bitbang port,
# system bus access for the debugger; OpenOCD attached, GDB on GDB_PORT.
start_target() {
  local h=$1 log=$LOGS/spike-$XLEN-$1
  : >"$log.spike"
  # Zicntr: Spike's rv64gc has no cycle/time/instret CSRs (QEMU's harts
  # always do; the firmware and kernels read them).
  "$SPIKE" --isa=rv${XLEN}gc_zicntr -p"$h" -m0x80000000:0x10000000 --halted --rbb-port=0 --dm-sba=64 "$FW" \
    </dev/null >"$log.spike" 2>&1 &
  SPIKE_PID=$!
  local rbb=
  for _ in $(seq 100); do
    rbb=$(sed -n 's/^Listening for remote bitbang connection on port \([0-9]*\)\..*/\1/p' "$log.spike")
    [ -n "$rbb" ] && break
    sleep 0.1
  done
  [ -n "$rbb" ] || { echo "spike.sh: Spike did not listen; it said: $(tail -3 "$log.spike")" >&2; return 1; }
  GDB_PORT=$(free_port)
  openocd -c "set HARTS $h; set RBB_PORT $rbb; set GDB_PORT $GDB_PORT; set MEM_ACCESS ${SPIKE_MEM_ACCESS:-progbuf}" \
    -f "$CFG" >"$log.openocd" 2>&1 &
  OCD_PID=$!
  for _ in $(seq 300); do
    grep -q "Listening on port $GDB_PORT for gdb" "$log.openocd" && return 0
    kill -0 "$OCD_PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "spike.sh: OpenOCD did not serve GDB; it said: $(grep -E 'Error|error' "$log.openocd" | tail -3)" >&2
  return 1
}

test_cmd() {
  case $1 in
    trap_stack_overflow) echo "$BUILD/tests/device_test_trap stack" ;;
    hostile_isolation) echo "$BUILD/tests/device_test_hostile traps wild isolated" ;;
    hostile_stack) echo "$BUILD/tests/device_test_hostile stack" ;;
    examples) echo "$BUILD/examples/test_examples $2 $DEVICE once" ;; # each once, with its own sizes: JTAG is slow
    *) echo "$BUILD/tests/device_test_$1" ;;
  esac
}

passed=0; failed=0; report=()
for h in $HARTS; do
  echo "== Spike rv${XLEN}gc, $h hart(s), through OpenOCD"
  if ! start_target "$h"; then
    failed=$((failed + 1)); report+=("$h | (all) | Spike/OpenOCD did not start: see $LOGS")
    stop_target; continue
  fi
  examples=examples; [ "${SPIKE_EXAMPLES:-1}" = 0 ] && examples=
  for t in $TESTS $examples; do
    log=$LOGS/$t.rv$XLEN.$h.log
    start=$(date +%s)
    set +e
    # Fewer than 4 harts: every device of a test gets them all (tests ask
    # for up to 4: refused by a smaller target).
    few=; [ "$h" -lt 4 ] && few="RVHAL_TEST_HARTS=$h"
    # RVHAL_TEST_VERBOSE: tests say each step as they go, so a log cut by
    # the timeout shows where it stood
    env $few RVHAL_GDB_REMOTE=127.0.0.1:$GDB_PORT RVHAL_BACKEND=gdb RVHAL_TEST_DEVICE=$DEVICE RVHAL_TEST_VERBOSE=1 \
      RVHAL_LAUNCH_TIMEOUT_MS=120000 timeout "$TIMEOUT" $(test_cmd "$t" "$h") >"$log" 2>&1
    rc=$?
    set -e
    secs=$(( $(date +%s) - start ))
    if [ $rc = 0 ]; then
      passed=$((passed + 1)); printf '  %-22s passed (%ss)\n' "$t" "$secs"
    else
      failed=$((failed + 1))
      why=$(grep -E 'CHECK failed|FAIL|error|refused|timed out|: RVHAL_' "$log" | head -1 | cut -c1-220 || true)
      [ $rc = 124 ] && why="no end within ${TIMEOUT} s${why:+; $why}; its last line: $(tail -n 1 "$log" | cut -c1-160 || true)"
      [ -n "$why" ] || why="exit status $rc: $(tail -n 1 "$log" | cut -c1-200 || true)"
      printf '  %-22s FAILED (%ss): %s\n' "$t" "$secs" "$why"
      report+=("$h | $t | $why")
    fi
    if ! kill -0 "$SPIKE_PID" 2>/dev/null || ! kill -0 "$OCD_PID" 2>/dev/null; then
      report+=("$h | (after $t) | Spike or OpenOCD exited: see $LOGS/spike-$XLEN-$h.*"); failed=$((failed + 1))
      break
    fi
  done
  if [ "${SPIKE_BENCH:-0}" = 1 ]; then
    # launch and transfer on the Spike device (the gdb section compares
    # backends on QEMU and would not touch Spike)
    RVHAL_GDB_REMOTE=127.0.0.1:$GDB_PORT "$BUILD/bench/rvhal-bench" -d "$DEVICE" -n "$h" -l 20 -r 5 launch transfer \
      2>&1 | tee "$LOGS/bench.rv$XLEN.$h.log" | grep -E "^(host|launch|transfer)" || true
  fi
  stop_target
done

echo
echo "$passed passed, $failed failed"
if [ $failed -gt 0 ]; then
  echo
  echo "| harts | test | why |"
  echo "| --- | --- | --- |"
  for r in "${report[@]}"; do echo "| $r |"; done
  echo "(logs: $LOGS)"
  exit 1
fi

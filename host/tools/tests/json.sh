#!/bin/sh
# The --json output of rvhal info, kernels and abi is valid JSON (parsed
# strictly by json_check) holding what the text output says.
#   json.sh RVHAL JSON_CHECK ELF64 ELF32 NUM_DEVICES VERSION
set -u
RVHAL=$1
CHECK=$2
ELF64=$3
ELF32=$4
NDEV=$5
VERSION=$6
T=$(mktemp -d) || exit 2
trap 'rm -rf "$T"' EXIT
failed=0
# check CODE "CMD ARGS" JSON_CHECK_ARGS...: the command exits with CODE and
# its stdout passes json_check.
check() {
  code=$1
  cmd=$2
  shift 2
  # shellcheck disable=SC2086 # cmd is words
  $RVHAL $cmd >"$T/out" 2>"$T/err"
  rc=$?
  echo "\$ rvhal $cmd  (exit $rc)"
  if [ $rc != "$code" ]; then
    echo "FAIL: exit status $rc, expected $code"; cat "$T/err"; failed=1
  fi
  "$CHECK" "$@" <"$T/out" || { cat "$T/out"; failed=1; }
}

check 0 "info --json" "platform.name=rvhal" "platform.version=$VERSION" "platform.num_devices=$NDEV" \
  "devices#=$NDEV" "devices.0.index=0" "devices.0.status=not started" "devices.0.word_size=8" devices.0.ram_size \
  devices.0.local_mem_size devices.0.program_area_base devices.0.timebase_hz qemu_plugin
check 0 "info --json --boot --device 0 --harts 1" "devices#=1" "devices.0.status=booted" "devices.0.harts=1" \
  devices.0.boot_ms
check 0 "kernels --json $ELF64 $ELF32" "files#=2" "files.0.word_size=8" "files.1.word_size=4" \
  "files.0.kernels.0.name=vector_add_entry" "files.0.kernels.0.args#=3" "files.0.kernels.0.args.0.kind=global" \
  "files.0.kernels.0.args.0.size=8" "files.1.kernels.0.args.0.size=4" "files.0.kernels.0.language=c"
check 1 "kernels --json $T/missing.elf" "files#=1" files.0.error
check 0 "abi --json ptr,i32,f64,local:256,bytes:24" "list#=5" "layouts#=2" "layouts.0.word_size=8" \
  "layouts.0.args.4.offset=32" "layouts.0.args.4.align=32" "layouts.0.packed_size=56" "layouts.0.struct_size=64" \
  "layouts.1.word_size=4" "layouts.1.args.1.offset=4"
check 0 "abi --json --word 4 ptr,i32" "layouts#=1" "layouts.0.word_size=4" "layouts.0.packed_size=8"
check 0 "abi --json $ELF64" "files.0.kernels.0.ok=true" "files.0.kernels.0.packed_size=24" \
  "files.0.kernels.0.args.2.packed_offset=16"
[ $failed = 0 ] && echo "all --json checks passed"
exit $failed

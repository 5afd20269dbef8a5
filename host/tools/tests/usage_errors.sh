#!/bin/sh
# Wrong command lines: each exits with status 2 and a message on stderr that
# names the offending token or option and says what is wrong.
#   usage_errors.sh RVHAL ELF   (ELF: vector_add.elf, which takes 3 buffers)
set -u
EXPECT=$(dirname "$0")/expect.sh
RVHAL=$1
ELF=$2
failed=0
bad() { "$EXPECT" 2 "$@" >/dev/null || { "$EXPECT" 2 "$@"; failed=1; }; }
# One bad token as argument 1 of vector_add_entry.
arg() { bad "err:^rvhal run: argument 1 '$1': $2" -- "$RVHAL" run "$ELF" vector_add_entry --global 8 buf:u32 "$1" buf:u32; }

arg 'buf:u33' "unknown type 'u33' \(types: u8 i8 u16 i16 u32 i32 u64 i64 f32 f64\)"
arg 'buf:' "missing element type"
arg 'buf:u32:0' 'COUNT must be at least 1'
arg 'buf:u32:x' "COUNT 'x' is not a number"
arg 'buf:u32:2=1,2,3' '3 values for a buffer of 2 elements'
arg 'buf:u8=1,300' 'value 1 of the list: 300 is out of range for u8'
arg 'buf:f64=1,,2' 'value 1 of the list is empty'
arg 'buf:u32=' 'empty INIT'
arg 'buf:i16=x' "'x' is not an integer"
arg 'u8:300' '300 is out of range for u8 \(0\.\.255\)'
arg 'u8:-1' '-1 is out of range for u8'
arg 'i8:-129' '-129 is out of range for i8 \(-128\.\.127\)'
arg 'i64:9223372036854775808' '9223372036854775808 is out of range for i64'
arg 'u32:1.5' "'1.5' is not an integer"
arg 'f32:1e39' '1e39 is out of range for f32'
arg 'f64:one' "'one' is not a number"
arg 'u33:1' "unknown type 'u33'"
arg 'bytes:123' 'odd number of hex digits'
arg 'bytes:0g' "'g' at position 1 is not a hex digit"
arg 'bytes:' 'no hex digits'
arg 'local:0' 'a local buffer needs at least 1 byte'
arg 'local:1k' "SIZE '1k' is not a number"
arg 'nonsense' 'expected buf:TYPE'

bad 'err:^rvhal run: --global X\[,Y\[,Z\]\] is required' -- "$RVHAL" run "$ELF" vector_add_entry buf:u32
bad "err:^rvhal run: --global '0': dimension 0 is 0" -- "$RVHAL" run "$ELF" vector_add_entry --global 0
bad "err:^rvhal run: --global '8,1,1,1': more than 3 dimensions" -- "$RVHAL" run "$ELF" vector_add_entry --global 8,1,1,1
bad 'err:^rvhal run: --local 3: 3 does not divide the global size 8' -- "$RVHAL" run "$ELF" vector_add_entry --global 8 --local 3
bad 'err:^rvhal run: --local 4 has 1 dimension, --global 8,2 has 2' -- "$RVHAL" run "$ELF" vector_add_entry --global 8,2 --local 4
bad "err:^rvhal run: --timing 'slow': expected fast or exact" -- "$RVHAL" run "$ELF" vector_add_entry --global 8 --timing slow
bad 'err:^rvhal run: --harts 9: must be 1\.\.8' -- "$RVHAL" run "$ELF" vector_add_entry --global 8 --harts 9
bad 'err:^rvhal run: --device 99: must be 0\.\.' -- "$RVHAL" run "$ELF" vector_add_entry --global 8 --device 99
bad 'err:^rvhal run: --profile=: empty SPEC' -- "$RVHAL" run "$ELF" vector_add_entry --global 8 --profile=
bad "err:^rvhal run: option '--global' needs a value" -- "$RVHAL" run "$ELF" vector_add_entry --global
bad 'err:^rvhal run: missing KERNEL' -- "$RVHAL" run "$ELF"
bad "err:^rvhal abi: 'ptr,i33': unknown kind 'i33'" -- "$RVHAL" abi ptr,i33
bad "err:^rvhal abi: 'ptr,,int': empty kind" -- "$RVHAL" abi ptr,,int
bad "err:^rvhal abi: 'bytes:0': N must be" -- "$RVHAL" abi bytes:0
bad 'err:^rvhal abi: RV64: argument 1: POD value of 5000 bytes' -- "$RVHAL" abi ptr,bytes:5000
bad "err:^rvhal abi: --word '5': expected 4 \(RV32\) or 8 \(RV64\)" -- "$RVHAL" abi --word 5 ptr
bad "err:^rvhal abi: --c-struct '9x': not a C identifier" -- "$RVHAL" abi --c-struct 9x ptr
bad "err:^rvhal abi: --json and --c-struct: choose one" -- "$RVHAL" abi --json --c-struct k ptr
bad "err:^rvhal run: cannot start device 0: profile: 'sheet'" -- "$RVHAL" run --profile=table,sheet "$ELF" vector_add_entry --global 8 buf:u32 buf:u32 buf:u32
bad 'err:^rvhal info: --device 99: must be 0\.\.' -- "$RVHAL" info --device 99
bad 'err:^rvhal info: --harts applies to a booted device' -- "$RVHAL" info --harts 2
[ $failed = 0 ] && echo "all usage error checks passed"
exit $failed

#!/bin/sh
# The build step of a device project (an ExternalProject of the host
# build, Ninja generator): builds BINARY_DIR with the job limit the host
# build was given. Ninja has no job server to share: this finds the ninja
# that runs it (up the parent processes, /proc) and passes its -j on, so
# `cmake --build build -j2` runs the device parts with 2 jobs too, not
# ninja's default of the host's CPUs + 2 each. The device projects build
# one at a time (their steps are in Ninja's console pool, CMakeLists.txt).
# Without a -j there (or no ninja found), ninja's default, as before.
#   rvhal_sub_build.sh BINARY_DIR
set -eu
dir=$1
jobs=
pid=$PPID
depth=0
while [ -n "$pid" ] && [ "$pid" -gt 1 ] && [ $depth -lt 32 ] && [ -r "/proc/$pid/cmdline" ]; do
  prog=$(tr '\0' '\n' <"/proc/$pid/cmdline" | head -1)
  case "${prog##*/}" in
  ninja | ninja-build)
    jobs=$(tr '\0' '\n' <"/proc/$pid/cmdline" |
      awk 'take { print; exit } $0 == "-j" { take = 1 } /^-j[0-9]+$/ { print substr($0, 3); exit }')
    break
    ;;
  esac
  # the parent: the field after the ")" that closes the command name
  pid=$(sed 's/.*) [A-Za-z] \([0-9]*\) .*/\1/' "/proc/$pid/stat")
  depth=$((depth + 1))
done
if [ -n "$jobs" ]; then
  exec cmake --build "$dir" -j "$jobs"
fi
exec cmake --build "$dir"

#!/bin/sh
# The device projects keep to the host build's job limit (Ninja): their
# configure and build steps are in Ninja's console pool (one at a time),
# each build runs cmake/rvhal_sub_build.sh, and that passes the -j of the
# ninja above it on (here a stand-in ninja: a process named ninja with
# "-j 3", then "-j7", then none, over a stand-in cmake that prints its
# arguments).
#   device_jobs.sh BUILD_DIR SOURCE_DIR
set -eu
BUILD=$1
SRC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/rvhal-jobs.XXXXXX")
trap 'rm -rf "$T"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
# every device project's build and configure steps: console pool, the script
n=0
for step in $(sed -n 's/^build \([^ :]*rvhal-device-[^ :/]*-\(build\|configure\)\)[ :].*/\1/p' "$BUILD/build.ninja" | sort -u); do
  n=$((n + 1))
  block=$(awk -v s="build $step" 'index($0, s) == 1 { on = 1; print; next } on && /^build / { exit } on { print }' \
    "$BUILD/build.ninja")
  printf '%s\n' "$block" | grep -q "pool = console" || fail "$step is not in the console pool"
  case $step in *-build) printf '%s\n' "$block" | grep -q "rvhal_sub_build.sh" || fail "$step does not run rvhal_sub_build.sh" ;; esac
done
[ $n -ge 2 ] || fail "no device project steps found in $BUILD/build.ninja"
echo "$n device project steps in the console pool"
# the script under a stand-in ninja
mkdir "$T/bin"
printf '#!/bin/sh\necho "cmake $*"\n' >"$T/bin/cmake"
chmod +x "$T/bin/cmake"
for j in "-j 3:-j 3" "-j7:-j 7" ":"; do
  given=${j%%:*}
  want=${j#*:}
  # shellcheck disable=SC2086 # the -j words
  got=$(PATH="$T/bin:$PATH" bash -c 'exec -a ninja sh -c "sh \"\$0\" /some/dir; :" "$@"' bash \
    "$SRC/cmake/rvhal_sub_build.sh" $given)
  [ "$got" = "cmake --build /some/dir${want:+ $want}" ] || fail "under ninja ${given:-without -j}: ran '$got'"
  echo "under ninja ${given:-without -j}: $got"
done
exit $failed

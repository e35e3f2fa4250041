#!/usr/bin/env bash
# fuzz.sh: runs fuzz targets, several at a time (make test's count budgets,
# make fuzz's time budgets). Each target is PKG:NAME[:COUNT[:MINIMIZE]],
# as the Makefile's FUZZ_TARGETS lists them: go test -run '^$' -fuzz
# '^NAME$' -fuzztime COUNT -fuzzminimizetime MINIMIZE PKG.
#
#	fuzz.sh [-j JOBS] [-time T] TARGET...
#
#	-j JOBS   run JOBS targets at once (default 1), each with its share of
#	          the CPUs as fuzzing workers (-parallel), at least one
#	-time T   fuzz each target for T (5m) instead of its count
#
# FUZZ_COUNT and FUZZ_MINIMIZE are the defaults of COUNT and MINIMIZE. A
# target's output is printed whole when it ends, with its time; the script
# fails if any target failed, naming them, after all have run.
set -uo pipefail

GO=${GO:-go}
jobs=1 time=
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    -time) time=$2; shift 2 ;;
    *) break ;;
  esac
done
count=${FUZZ_COUNT:-200000x} minimize=${FUZZ_MINIMIZE:-1000x}
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
workers=$(( cpus / jobs )); [ "$workers" -ge 1 ] || workers=1

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
lock=; ! command -v flock >/dev/null || lock="flock $out" # one log printed at a time

# one TARGET INDEX runs a target into its own log and prints the log when
# done: whole, so the outputs of targets running at once do not mix.
one() {
  local pkg name n m log start rc
  IFS=: read -r pkg name n m <<<"$1"
  n=${n:-$count} m=${m:-$minimize}
  [ -z "$time" ] || n=$time
  log=$out/$2.log start=$(date +%s)
  "$GO" test -count=1 -run '^$' -fuzz "^$name\$" -fuzztime "$n" -fuzzminimizetime "$m" -parallel "$workers" "$pkg" >"$log" 2>&1
  rc=$?
  { echo "fuzz: $name ($pkg, -fuzztime $n): $(( $(date +%s) - start )) s"; cat "$log"; } | $lock cat
  [ $rc = 0 ] || echo "$name ($pkg)" >>"$out/failed"
}

i=0
for t in "$@"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  one "$t" $i &
  i=$(( i + 1 ))
done
wait
if [ -s "$out/failed" ]; then
  echo "fuzz: FAILED:" $(cat "$out/failed") >&2
  exit 1
fi

#!/usr/bin/env bash
# run.sh: Box2D v3's large_pyramid (100 rows, 5,050 boxes, sleeping off)
# on fixstep and on Box2D v3 itself, worker count by worker count, rounds
# interleaved, every program under timeout; prints one table, ms a step.
#
#	run.sh FIXSTEP_TEST BOX2D_SSE2 [BOX2D_SCALAR]
#
# FIXSTEP_TEST is fixstep's physics test binary, static
# (CGO_ENABLED=0 go test -c -o physics.test ./physics), whose
# BenchmarkLargePyramid/workers=N steps the scene from its first step on;
# BOX2D_SSE2 and BOX2D_SCALAR are Box2D v3's own `benchmark` programs (its
# SIMD build and one without SIMD), built beforehand, elsewhere, as Box2D's
# repository says: this script only runs them. Both engines time steps 2
# to 500 (fixstep: -test.benchtime 499x after an untimed first step).
#
#	WORKERS  the worker counts (default "1 2 4 8 16")
#	ROUNDS   the rounds, each running every program once (default 3)
#	LIMIT    seconds any one program may run (default 300)
set -euo pipefail

fix=${1:?usage: run.sh FIXSTEP_TEST BOX2D_SSE2 [BOX2D_SCALAR]}
sse=${2:?usage: run.sh FIXSTEP_TEST BOX2D_SSE2 [BOX2D_SCALAR]}
scalar=${3:-}
workers=${WORKERS:-1 2 4 8 16}
rounds=${ROUNDS:-3}
limit=${LIMIT:-300}
for b in "$fix" "$sse" ${scalar:+"$scalar"}; do
  [ -x "$b" ] || { echo "run.sh: $b is not an executable" >&2; exit 1; }
done
fix=$(realpath "$fix") sse=$(realpath "$sse")
[ -n "$scalar" ] && scalar=$(realpath "$scalar")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" # Box2D's benchmark writes a .csv where it runs

# fixstep W: ms a step, from the benchmark's ns/op.
fixstep() {
  timeout "$limit" "$fix" -test.run '^$' -test.bench "^BenchmarkLargePyramid/workers=$1\$" \
    -test.benchtime 499x -test.count 1 | awk '/^BenchmarkLargePyramid/ {printf "%.3f\n", $3 / 1e6}'
}
# box2d BIN W: ms a step, from its 499 steps' total.
box2d() {
  timeout "$limit" "$1" -b=large_pyramid -w="$2" -t="$2" -r=1 | awk '/^run 0 :/ {printf "%.3f\n", $4 / 499}'
}

echo "# $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for r in $(seq "$rounds"); do
  for w in $workers; do
    echo "fixstep $w $(fixstep "$w")" >>results
    echo "sse2 $w $(box2d "$sse" "$w")" >>results
    [ -n "$scalar" ] && echo "scalar $w $(box2d "$scalar" "$w")" >>results
  done
  echo "# round $r of $rounds done" >&2
done

# The medians of the rounds, and the ratios of the medians.
med() { awk -v e="$1" -v w="$2" '$1 == e && $2 == w {print $3}' results | sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}'; }
f1=$(med fixstep 1) s1=$(med sse2 1)
printf '%-8s %-12s %-10s %-12s %-10s %-14s %-16s %s\n' workers fixstep_ms speedup box2d_sse2_ms speedup box2d_scalar_ms fixstep/sse2 fixstep/scalar
for w in $workers; do
  f=$(med fixstep "$w") s=$(med sse2 "$w") c=""
  [ -n "$scalar" ] && c=$(med scalar "$w")
  awk -v w="$w" -v f="$f" -v s="$s" -v c="$c" -v f1="$f1" -v s1="$s1" 'BEGIN {
    printf "%-8s %-12s %-10.2f %-12s %-10.2f %-14s %-16.2f %s\n", w, f, f1 / f, s, s1 / s, (c == "" ? "-" : c), f / s, (c == "" ? "-" : sprintf("%.2f", f / c)) }'
done
echo "# every round, in order, ms a step:"
sort -s -k1,1 -k2,2n results | awk '{a[$1 " " $2] = a[$1 " " $2] " " $3} END {for (k in a) print k ":" a[k]}' | sort -k1,1 -k2,2n

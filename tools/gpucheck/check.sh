#!/usr/bin/env bash
# check.sh: the GPU check of issue 40, run from the bundle (.gpu/, made by
# make gpu-bundle) on a machine with an NVIDIA driver and nothing else:
#
#	bash .gpu/check.sh
#
# It says which machine and driver it runs on and whether the bundle is
# complete (every library the programs load comes from it, glibc and the
# driver aside); runs fixstep's sprites benchmark (demo -bench sprites)
# and the plain instanced OpenGL program (bunnymark-gl) side by side,
# ROUNDS rounds interleaved, for SIZES moving sprites of 1 texture and
# TEX8_SIZE of 8; names the GL renderer each program got, and stops when
# it is a software one (llvmpipe) unless GPUCHECK_ALLOW_SOFTWARE=1; then
# measures the CPU's feeding cost (demo -bench sprites -nodraw: the main
# thread's CPU a frame, its draws left out, at FEED_SIZES sprites), runs
# the demo's own scene for 600 frames, unpaced (its stats line: fps, p99, close
# time, gl_objects), and prints the table: medians of the rounds and
# their ratios. Every program runs under timeout (RUN_TIMEOUT seconds).
#
# Here, on llvmpipe, make gpu-check runs it with fewer sprites: the
# packing and the script are tested where a GPU is not at hand.
set -u
here=$(cd "$(dirname "$0")" && pwd)
SIZES=${SIZES:-10000 100000 1000000}
TEX8_SIZE=${TEX8_SIZE:-100000}
FEED_SIZES=${FEED_SIZES:-0 100000 1000000}
ROUNDS=${ROUNDS:-3}
RUN_TIMEOUT=${RUN_TIMEOUT:-60}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

echo "## GPU check, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
if command -v nvidia-smi >/dev/null; then
	echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
else
	echo "GPU: no nvidia-smi on this machine"
fi
echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

# The bundle is complete when every library the programs load resolves
# into .gpu/lib, but glibc's and the driver's.
missing=$(for b in "$here"/bin/*; do
	LD_LIBRARY_PATH="$here/lib" ldd "$b" 2>&1 | awk -v lib="$here/lib/" '
		/not found/ {print $1 " (not found)"; next}
		$3 ~ /^\// && index($3, lib) != 1 && $1 !~ /^(libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libresolv\.so|ld-linux)/ {print $1 " (" $3 ")"}'
done | sort -u)
if [ -z "$missing" ]; then
	echo "bundle: every library the programs load comes from .gpu/lib (glibc aside)"
else
	echo "bundle: libraries from outside it: $(echo $missing)"
fi
echo

# run NAME ROUND ARGS...: one program's run, its output kept as
# $log/NAME.ROUND.
run() {
	local name=$1 round=$2
	shift 2
	timeout "$RUN_TIMEOUT" bash "$here/run.sh" "$@" >"$log/$name.$round" 2>"$log/$name.$round.err"
	local rc=$?
	[ $rc = 0 ] || echo "RUNFAIL rc=$rc" >>"$log/$name.$round"
}
# field NAME ROUND KEY: KEY's value in the run's RESULT or EXIT line.
field() {
	grep -hE '^(RESULT|EXIT) ' "$log/$1.$2" 2>/dev/null | tr ' ' '\n' | awk -F= -v k="$3" '$1 == k {print $2; exit}'
}
# renderer NAME ROUND: the GL_RENDERER the run printed.
renderer() { grep -ho 'GL_RENDERER="[^"]*"' "$log/$1.$2" 2>/dev/null | head -1 | cut -d'"' -f2; }
# median VALUES...: the median of the numbers given (NaN if none).
median() { printf '%s\n' "$@" | grep -E '^[0-9.]+$' | sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "NaN"; else if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2] + v[NR/2+1]) / 2}'; }
# rounds NAME KEY: "r1, r2, r3" of KEY over the rounds.
rounds() {
	local out="" r
	for r in $(seq "$ROUNDS"); do out+="${out:+, }$(field "$1" "$r" "$2")"; done
	echo "$out"
}
med() {
	local vals=() r
	for r in $(seq "$ROUNDS"); do vals+=("$(field "$1" "$r" "$2")"); done
	median "${vals[@]}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0 && a == a + 0) printf "%.2f", a / b; else print "n/a"}'; }

# The rounds: each size, each program, interleaved.
cases=()
for n in $SIZES; do cases+=("$n:1"); done
cases+=("$TEX8_SIZE:8")
for r in $(seq "$ROUNDS"); do
	for c in "${cases[@]}"; do
		n=${c%:*} k=${c#*:}
		run "fixstep-$n-$k" "$r" demo -bench sprites -n "$n" -textures "$k"
		run "plain-$n-$k" "$r" bunnymark-gl -n "$n" -textures "$k"
	done
	if [ "$r" = 1 ]; then
		c=${cases[0]}
		for p in fixstep plain; do
			g=$(renderer "$p-${c%:*}-${c#*:}" 1)
			echo "$p: GL_RENDERER \"${g:-none: the program did not start, see below}\""
			case "$g" in
			*llvmpipe* | *softpipe* | *[Ss]oftware* | "")
				if [ "${GPUCHECK_ALLOW_SOFTWARE:-0}" != 1 ]; then
					echo "check.sh: $p ran on \"$g\", not on a GPU: stopping (GPUCHECK_ALLOW_SOFTWARE=1 goes on)"
					cat "$log/$p-${c%:*}-${c#*:}.1" "$log/$p-${c%:*}-${c#*:}.1.err" | tail -20
					exit 1
				fi
				;;
			esac
		done
		echo
	fi
done

echo "| moving sprites | textures | fixstep ms/frame | plain GL ms/frame | fixstep ÷ plain | fixstep main thread's CPU ms/frame | GPU waits a frame |"
echo "|---|---|---|---|---|---|---|"
for c in "${cases[@]}"; do
	n=${c%:*} k=${c#*:}
	f=$(med "fixstep-$n-$k" ms_per_frame_median) p=$(med "plain-$n-$k" ms_per_frame_median)
	eval "fix_${n}_$k=$f"
	printf '| %s | %s | %s → **%s** | %s → %s | %s | %s | %s |\n' "$n" "$k" \
		"$(rounds "fixstep-$n-$k" ms_per_frame_median)" "$f" "$(rounds "plain-$n-$k" ms_per_frame_median)" "$p" \
		"$(ratio "$f" "$p")" "$(med "fixstep-$n-$k" main_cpu_ms_per_frame)" "$(med "fixstep-$n-$k" gpu_waits_per_frame)"
done
v1=fix_${TEX8_SIZE}_1 v8=fix_${TEX8_SIZE}_8
if [ -n "${!v1:-}" ] && [ -n "${!v8:-}" ]; then
	echo
	echo "fixstep, 8 textures ÷ 1 texture at $TEX8_SIZE sprites: $(ratio "${!v8}" "${!v1}")"
fi
echo
echo "exit of the largest run (fixstep, round 1): $(grep -h '^EXIT' "$log/fixstep-${SIZES##* }-1.1" 2>/dev/null || echo none)"

# The feeding cost: the main thread's CPU a frame, draws left out.
echo
for r in $(seq "$ROUNDS"); do
	for n in $FEED_SIZES; do run "feed-$n" "$r" demo -bench sprites -nodraw -n "$n"; done
done
base=$(med feed-0 main_cpu_ms_per_frame)
echo "| sprites, -nodraw | main thread's CPU ms/frame | ns a sprite over 0 sprites |"
echo "|---|---|---|"
for n in $FEED_SIZES; do
	m=$(med "feed-$n" main_cpu_ms_per_frame)
	per=$(awk -v m="$m" -v b="$base" -v n="$n" 'BEGIN {if (n > 0 && m == m + 0 && b == b + 0) printf "%.1f", (m - b) * 1e6 / n; else print "-"}')
	echo "| $n | $(rounds "feed-$n" main_cpu_ms_per_frame) → $m | $per |"
done

# The demo's own scene, and with 2,000 bodies: the stats line.
echo
for args in "" "-n 2000"; do
	# shellcheck disable=SC2086
	timeout "$RUN_TIMEOUT" bash "$here/run.sh" demo -frames 600 -quality 4 -vsync off -fps-cap 10000 $args >/dev/null 2>"$log/scene.err"
	echo "demo -frames 600 -quality 4 -vsync off -fps-cap 10000 $args (rc $?): $(grep -h '^stats ' "$log/scene.err" | tail -1)"
done

# Runs that failed, with what they said.
failed=$(grep -l RUNFAIL "$log"/* 2>/dev/null)
if [ -n "$failed" ]; then
	echo
	for f in $failed; do
		echo "failed: $(basename "$f"): $(tail -3 "$f.err" 2>/dev/null | tr '\n' ' ')"
	done
fi

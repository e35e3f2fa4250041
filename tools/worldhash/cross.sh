#!/usr/bin/env bash
# cross.sh: the cross-build determinism check (make cross). It builds
# tools/worldhash for every CPU and build fixstep promises one world on, runs
# each against the golden hashes (natively where this machine can execute
# it, else under its qemu-user emulator), and disassembles the arm64 build
# to list any fused multiply-add left in the simulating packages: a fused
# x*y+z gives another world on arm64, ppc64le, s390x, riscv64 and amd64 v3,
# so none may remain.
#
#	cross.sh                     the check on the quick builds: amd64 v1 and
#	                             v3, 386, arm64, s390x (make cross, in make test),
#	                             each scene stepped alone and on pools of 2, 3,
#	                             4, 8, 16 and 32 workers (WORKERS) where the
#	                             build runs natively; under an emulator, the
#	                             drag scene on all of them and the others
#	                             alone (EMULATED_WORKERS)
#	cross.sh --more              the same on the slow ones: the debugger builds
#	                             of amd64 v3 and arm64, ppc64le, riscv64 (make
#	                             cross-more, which CI runs after make test)
#	cross.sh --runner BIN ARCH   print how BIN (built for GOARCH ARCH) runs
#	                             here: nothing for natively, else its
#	                             emulator's command; fail naming what to
#	                             install (the detection's own test uses it)
set -uo pipefail

# Every build runs with asynchronous preemption off: qemu-user delivers the
# preemption signal where Go's 386 runtime cannot take it ("fatal: bad g in
# signal handler"), native and under a binfmt_misc emulator alike. It
# changes when goroutines are preempted, never what the simulation computes.
export GODEBUG=asyncpreemptoff=1

# qemu_for ARCH names the qemu-user emulator of a GOARCH.
qemu_for() {
  case $1 in
    386) echo qemu-i386 ;;
    amd64) echo qemu-x86_64 ;;
    arm64) echo qemu-aarch64 ;;
    arm) echo qemu-arm ;;
    *) echo "qemu-$1" ;;
  esac
}

# runner_for BIN ARCH prints the command prefix that runs BIN here: nothing
# when it runs natively, its emulator when the kernel cannot execute it.
# Which one is decided by what running it says, never by the machine's
# name: BIN -probe must exit 0, and a failure is recognised by its error.
runner_for() {
  local bin=$1 arch=$2 out emu
  out=$("$bin" -probe 2>&1) && return 0
  case $out in
    *"Exec format error"* | *"cannot execute binary file"*)
      emu=$(qemu_for "$arch") ;; # ENOEXEC: another CPU, or 32-bit support left out of the kernel
    *"microarchitecture"*)
      emu="qemu-x86_64 -cpu max" ;; # a GOAMD64=v3 build on a CPU without AVX2/FMA
    *)
      echo "cross: $bin does not run here: $out" >&2
      return 1 ;;
  esac
  if ! command -v "${emu%% *}" >/dev/null; then
    echo "cross: $(basename "$bin") ($arch) cannot execute natively here ($out), and its emulator ${emu%% *} is not installed: install Debian's qemu-user (make deps does)" >&2
    return 1
  fi
  if ! out=$($emu "$bin" -probe 2>&1); then
    echo "cross: $(basename "$bin") ($arch) does not run under $emu either: $out" >&2
    return 1
  fi
  echo "$emu"
}

if [ "${1-}" = --runner ]; then
  runner_for "$2" "$3"
  exit
fi

set -e
cd "$(dirname "$0")/../.."
GO=${GO:-go}
# The pool sizes each scene is stepped on: every one must give the golden
# hash (physics.Workers: blocks fixed by the world, never by the workers).
# Under qemu-user every pool size costs the scene's whole emulated run
# again (game: 9 s of CPU a size on arm64), so an emulated build steps one
# scene (drag: 120 turning and upright bodies, damped, a snapshot
# restored; under a second a size) on every size and the others alone.
WORKERS=${WORKERS:-1,2,3,4,8,16,32}
EMULATED_WORKERS=${EMULATED_WORKERS:-1}
# SKIP names BUILD/SCENE jobs left out (make test leaves out s390x/demo:
# the demo's world under a sync test, 72 s of CPU under qemu-s390x, more
# than the rest of the check together; make cross-more runs it).
SKIP=${SKIP:-}
FULL_SCENE=drag
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# name GOARCH GOAMD64 debug. Under qemu-user on 2 cores the quick five
# took about 70 s of CPU alone (386 23 s more where it is emulated), and
# 320 s with the native builds on every pool size (5 m 46 s on a machine
# loaded by other work); the other four about 170 s alone (ppc64le 110 s,
# arm64's debugger build 36 s).
builds=(
  "amd64-v1        amd64 v1 no"
  "amd64-v3        amd64 v3 no"
  "386             386   v1 no"
  "arm64           arm64 v1 no"
  "s390x           s390x v1 no"
)
if [ "${1-}" = --more ]; then
  builds=(
    "amd64-v3-debug  amd64   v3 yes"
    "arm64-debug     arm64   v1 yes"
    "ppc64le         ppc64le v1 no"
    "riscv64         riscv64 v1 no"
  )
fi

for b in "${builds[@]}"; do
  read -r name arch amd64 debug <<<"$b"
  flags=()
  [ "$debug" = yes ] && flags=("-gcflags=all=-N -l")
  CGO_ENABLED=0 GOARCH=$arch GOAMD64=$amd64 $GO build "${flags[@]}" -o "$dir/$name" ./tools/worldhash &
done
for job in $(jobs -p); do wait "$job"; done

# The simulating packages: a fused multiply-add in any of them is a bug.
[ "${1-}" = --more ] || {
sim='fixstep/fixstep/(physics|detmath|engine|input|cmd/demo/arena|tools/worldhash)\.'
fused=$($GO tool objdump -s "$sim" "$dir/arm64" | grep -E '\bF(N)?M(ADD|SUB)D\b' || true)
if [ -n "$fused" ]; then
  echo "cross: fused multiply-adds in the simulation's arm64 code (round the product: float64(x*y) + z):" >&2
  echo "$fused" | awk '{print "  " $1 "  " $3 " " $4 " " $5 " " $6 " " $7}' | head -20 >&2
  exit 1
fi
echo "cross: no fused multiply-add in the simulating packages (arm64 disassembly)"
}

# Each scene of each build is a process of its own, as many at once as
# there are cores: the slowest build under emulation (s390x, 46 s of CPU)
# no longer runs alone at the end.
scenes=$(sed 's/ .*//' tools/worldhash/golden.txt)
: >"$dir/jobs"
for b in "${builds[@]}"; do
  read -r name arch amd64 debug <<<"$b"
  runner=$(runner_for "$dir/$name" "$arch") # fails, naming what to install, when nothing here runs it
  [ -n "$runner" ] && echo "cross: $name: runs under $runner here"
  for s in $scenes; do
    case " $SKIP " in *" $name/$s "*) echo "$s" >"$dir/$name.$s.skip"; continue ;; esac
    w=$WORKERS
    [ -n "$runner" ] && [ "$s" != "$FULL_SCENE" ] && w=$EMULATED_WORKERS
    # The demo's scene first, emulated before native: the longest jobs
    # start first, so none runs alone at the end.
    rank=2
    [ "$s" = demo ] && rank=1 && [ -n "$runner" ] && rank=0
    echo "$rank $dir/$name $s $w${runner:+ $runner}" >>"$dir/jobs" # no trailing blank: xargs -L would join the next line
  done
done
sort -s -n -k1,1 "$dir/jobs" | cut -d' ' -f2- >"$dir/jobs.sorted"
# A job: BIN SCENE WORKERS [RUNNER...]; its output and status beside BIN.
job() {
  local bin=$1 scene=$2 workers=$3
  shift 3
  "$@" "$bin" -scene "$scene" -workers "$workers" >"$bin.$scene.out" 2>&1
  echo $? >"$bin.$scene.rc"
}
export -f job
xargs -P "$(nproc)" -L 1 bash -c 'job "$@"' job <"$dir/jobs.sorted"

fail=0
for b in "${builds[@]}"; do
  read -r name arch amd64 debug <<<"$b"
  ok=0 bad=""
  skipped=""
  for s in $scenes; do
    if [ -e "$dir/$name.$s.skip" ]; then skipped="$skipped $s"; continue; fi
    if [ "$(cat "$dir/$name.$s.rc")" = 0 ]; then ok=$((ok + 1)); else bad="$bad $s"; fi
  done
  if [ -z "$bad" ]; then
    echo "cross: $name: $ok scenes match the golden hashes${skipped:+ (left out:$skipped)}"
  else
    echo "cross: $name: FAILED:$bad" >&2
    for s in $bad; do sed 's/^/  /' "$dir/$name.$s.out" >&2; done
    fail=1
  fi
done
[ $fail = 0 ] && echo "cross: one world on ${#builds[@]} builds, on workers $WORKERS (emulated: $FULL_SCENE on all, the rest on $EMULATED_WORKERS)"
exit $fail

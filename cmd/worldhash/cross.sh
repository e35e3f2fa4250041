#!/usr/bin/env bash
# cross.sh: the cross-build determinism check (make cross). It builds
# cmd/worldhash for every CPU and build fixstep promises one world on, runs
# each (the foreign ones under qemu-user) against the golden hashes, and
# disassembles the arm64 build to list any fused multiply-add left in the
# simulating packages: a fused x*y+z gives another world on arm64, ppc64le,
# s390x, riscv64 and amd64 v3, so none may remain.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO=${GO:-go}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# name GOARCH GOAMD64 debug runner
builds=(
  "amd64-v1        amd64 v1 no  -"
  "amd64-v3        amd64 v3 no  -"
  "amd64-v3-debug  amd64 v3 yes -"
  "386             386   v1 no  -"
  "arm64           arm64 v1 no  qemu-aarch64"
  "arm64-debug     arm64 v1 yes qemu-aarch64"
  "s390x           s390x v1 no  qemu-s390x"
)
v3=$(grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && echo yes || echo no)

for b in "${builds[@]}"; do
  read -r name arch amd64 debug runner <<<"$b"
  flags=()
  [ "$debug" = yes ] && flags=("-gcflags=all=-N -l")
  CGO_ENABLED=0 GOARCH=$arch GOAMD64=$amd64 $GO build "${flags[@]}" -o "$dir/$name" ./cmd/worldhash &
done
wait

# The simulating packages: a fused multiply-add in any of them is a bug.
sim='fixstep/fixstep/(physics|detmath|engine|input|cmd/demo/arena|cmd/worldhash)\.'
fused=$($GO tool objdump -s "$sim" "$dir/arm64" | grep -E '\bF(N)?M(ADD|SUB)D\b' || true)
if [ -n "$fused" ]; then
  echo "cross: fused multiply-adds in the simulation's arm64 code (round the product: float64(x*y) + z):" >&2
  echo "$fused" | awk '{print "  " $1 "  " $3 " " $4 " " $5 " " $6 " " $7}' | head -20 >&2
  exit 1
fi
echo "cross: no fused multiply-add in the simulating packages (arm64 disassembly)"

pids=() names=()
for b in "${builds[@]}"; do
  read -r name arch amd64 debug runner <<<"$b"
  if [ "$amd64" = v3 ] && [ "$v3" = no ]; then
    echo "cross: $name: this CPU lacks AVX2/FMA; running it under qemu-x86_64 -cpu max"
    runner="qemu-x86_64 -cpu max"
  fi
  cmd=("$dir/$name")
  [ "$runner" != - ] && cmd=($runner "$dir/$name")
  ( "${cmd[@]}" >"$dir/$name.out" 2>&1 ) &
  pids+=($!) names+=("$name")
done
fail=0
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then
    echo "cross: ${names[$i]}: $(grep -c ' ok ' "$dir/${names[$i]}.out") scenes match the golden hashes"
  else
    echo "cross: ${names[$i]}: FAILED" >&2
    sed 's/^/  /' "$dir/${names[$i]}.out" >&2
    fail=1
  fi
done
[ $fail = 0 ] && echo "cross: one world on ${#builds[@]} builds"
exit $fail

#!/usr/bin/env bash
# bundle.sh packs bin/demo and bin/bunnymark-gl (the plain instanced peer)
# with every shared library they load, but glibc's own, into .gpu/ at the
# repository's root, with run.sh (runs one program from the bundle) and
# check.sh (the GPU check, tools/gpucheck/check.sh): what a machine with
# an NVIDIA driver and nothing else (no SDL2, no Mesa, no package
# registry) needs to run them through EGL. make gpu-bundle builds the
# programs and runs it; then, on such a machine, with .gpu carried there:
#
#	bash .gpu/check.sh
#
# SDL opens EGL at run time (dlopen), so ldd does not list it: the GL
# vendor-neutral dispatch libraries (glvnd: libEGL, libOpenGL, libGLESv2)
# and what they load are added by name. The driver's own libraries (EGL
# and GL of the vendor, found through glvnd's vendor file) stay the
# machine's. The programs are stripped: the carried tree is limited to
# 64 MiB, and Go keeps its own symbol table, so stacks and profiles still
# name functions.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
progs=(demo bunnymark-gl)
for p in "${progs[@]}"; do
	[ -x "bin/$p" ] || { echo "bundle.sh: no bin/$p: run make gpu-bundle" >&2; exit 1; }
done
rm -rf .gpu
mkdir -p .gpu/bin .gpu/lib
for p in "${progs[@]}"; do
	strip -o ".gpu/bin/$p" "bin/$p"
done
# glibc and the loader stay the machine's own.
skip='^(linux-vdso|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|ld-linux|libresolv\.so)'
{
	for b in .gpu/bin/*; do (ldd "$b" 2>/dev/null || true) | awk '$3 ~ /^\// {print $1, $3}'; done
	for l in libEGL.so.1 libOpenGL.so.0 libGLESv2.so.2; do
		p=$(ldconfig -p | awk -v l="$l" '$1 == l && /x86-64/ {print $NF; exit}')
		[ -n "$p" ] || { echo "bundle.sh: $l not found: install libegl1, libopengl0 and libgles2 (glvnd)" >&2; exit 1; }
		echo "$l $p"
		ldd "$p" | awk '$3 ~ /^\// {print $1, $3}'
	done
} | sort -u | while read -r name path; do
	[[ $name =~ $skip ]] && continue
	cp -L "$path" ".gpu/lib/$name"
done
cp tools/gpucheck/run.sh tools/gpucheck/check.sh .gpu/
chmod +x .gpu/run.sh .gpu/check.sh
size=$(du -sm .gpu | cut -f1)
echo "bundle.sh: .gpu/ holds ${progs[*]}, $(ls .gpu/lib | wc -l) libraries, $size MiB (a carried tree may hold 64)"
[ "$size" -lt 64 ] || { echo "bundle.sh: .gpu/ is over 64 MiB" >&2; exit 1; }

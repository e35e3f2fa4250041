#!/usr/bin/env bash
# run.sh PROGRAM ARGS...: runs a program of the bundle (.gpu/bin) on the
# bundle's libraries, through EGL with SDL's offscreen video driver (no
# window system) and a silent audio driver. glvnd is pointed at the NVIDIA
# driver's EGL vendor file where the machine has one; elsewhere it finds
# the machine's own (Mesa's, here: llvmpipe).
here=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH="$here/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for j in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json /usr/share/glvnd/egl_vendor.d/10_nvidia.json; do
	if [ -f "$j" ]; then
		export __EGL_VENDOR_LIBRARY_FILENAMES="$j"
		break
	fi
done
export SDL_VIDEODRIVER=${SDL_VIDEODRIVER:-offscreen} SDL_AUDIODRIVER=${SDL_AUDIODRIVER:-dummy}
prog=$1
shift
exec "$here/bin/$prog" "$@"

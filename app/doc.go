// Package app is the application around a fixstep game: the flags every
// game shares (Flags: -frames, -screenshot, -quality, -vsync, -fps-cap,
// -synctest, -record, -replay, the netplay flags and the profiling flags),
// the netplay session they start (Netplay) and the build fingerprint its
// handshake checks. It imports gfx, netplay, replay and engine/profile, so
// that gfx, the platform and the renderer, imports none of them.
package app

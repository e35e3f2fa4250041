// Package nocgo holds the check that keeps a game's code one source in
// both builds of fixstep: with cgo (SDL2, OpenGL, SDL2_mixer) and without
// (CGO_ENABLED=0, a static binary that runs headless only). Packages gfx
// and audio give the build without cgo files of their own (gfx/nocgo.go,
// audio/device_none.go) in place of the ones that call C; TestOneAPI
// checks that each package exports the same names, with the same
// signatures, fields and methods, in both builds, so whatever compiles
// against one compiles against the other. The games themselves are built
// both ways and run by their own tests (cmd/demo, cmd/skeleton,
// cmd/newgame: TestStaticBuild, TestNewGame).
package nocgo

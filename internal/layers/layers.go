// Package layers is the engine's layering, in one table: each package of
// the module, what it owns, which of the module's packages it may import
// and which outside the standard library, whether it is pure (no cgo),
// and what it must never reach, with why. Whatever a package's row does
// not name it must not import.
//
// Everything that keeps the layering comes from this table: the tests
// here (every package's imports against its row, no cgo under a pure
// package, nothing it must never reach), the Makefile's list of pure
// packages (go run ./tools/layers pure), and the README's table of
// packages (go test ./internal/layers -update writes it; the test fails
// when it differs). A package added to the module goes in the table, or
// the tests fail naming it.
package layers

import (
	"slices"
	"strings"
)

// Module is the module's path.
const Module = "github.com/fixstep/fixstep"

// Package is a row of the table.
type Package struct {
	// Path is the package's path in the module: "engine", "cmd/demo/arena".
	Path string
	// Owns says what the package owns, for the README's table.
	Owns string
	// Imports are the module's packages it may import (by Path).
	Imports []string
	// Outside are the packages outside the module and the standard
	// library it may import, by prefix ("github.com/veandco/go-sdl2").
	Outside []string
	// Pure is true for a package that builds and tests without cgo, and
	// reaches nothing that needs it: it runs headless anywhere (make
	// test-pure tests it with CGO_ENABLED=0).
	Pure bool
	// Never are what the package must never reach, even through another,
	// each with why: packages of the module (by Path), or outside ones
	// (by prefix).
	Never []Rule
	// Readme is false for a package the README's table leaves out (a test
	// helper, a tool of the repository's own).
	Readme bool
}

// Rule is a package a package must never reach, and why.
type Rule struct {
	Path, Why string
}

// noCgo is what a pure package must never reach.
var noCgo = []Rule{
	{"github.com/veandco/go-sdl2", "SDL needs a display and cgo"},
	{"github.com/go-gl/gl", "OpenGL needs a context and cgo"},
	{"runtime/cgo", "a pure package builds with CGO_ENABLED=0"},
	{"C", "a pure package builds with CGO_ENABLED=0"},
}

// sim is what the packages that simulate must never reach, besides cgo:
// a simulation knows nothing of drawing, the network or the runner.
var sim = append(slices.Clip(noCgo),
	Rule{"gfx", "drawing is the game's, never the simulation's"},
	Rule{"netplay", "a simulation runs the same alone, in a replay and in a match"},
	Rule{"app", "the runner runs games: games never run it"},
)

// Table is the layering: every package of the module (the benchmark
// peers of bench/ that have a go.mod are modules of their own).
var Table = []Package{
	{Path: "internal/fnv", Readme: true, Pure: true, Never: noCgo,
		Owns: "FNV-1a (64 bits), written once: `Bytes`, `String`, `Uint64` continue a hash from `Offset`, allocating nothing"},
	{Path: "internal/layers", Readme: true, Pure: true, Never: noCgo,
		Owns: "this table: each package, what it may import and what it must never reach; the tests that keep it, the Makefile's pure list and this README table come from it"},
	{Path: "detmath", Readme: true, Pure: true, Imports: []string{"internal/fnv"}, Never: sim,
		Owns: "`Sin`, `Cos`, `SinCos`, `Atan`, `Atan2`, `Hypot`, `Dot`: the same bits on every build and CPU"},
	{Path: "engine", Readme: true, Pure: true, Imports: []string{"internal/fnv"}, Never: sim,
		Owns: "the fixed-step core `Timestep`, the loop shell `Loop`, `Monitor` (FPS, work time, percentiles), `Snapper`, the quality `Governor`, the headless and simulated platforms, the sync test (`Loop.SyncTest`, `CheckSync`, `Saver`), the state hash (`StateHash`)"},
	{Path: "engine/profile", Readme: true, Pure: true, Never: sim,
		Owns: "the `-cpuprofile`, `-memprofile`, `-trace` and `-pprof` flags for any game"},
	{Path: "input", Readme: true, Pure: true, Never: sim,
		Owns: "`State` (keys, mouse, text, gamepads with per-tick edges), `Actions` and bindings files"},
	{Path: "physics", Readme: true, Pure: true, Imports: []string{"detmath", "internal/fnv"},
		Never: append(slices.Clip(sim), Rule{"engine", "a world steps on its own: any loop, or none, may drive it"}),
		Owns:  "`World`: circles, boxes and convex polygons that turn (or stay upright), gravity, restitution, friction, angular and linear damping, a spatial hash, sub-stepping against tunnelling, a soft-step solver (sequential impulses when nothing turns) with warm starting and sleeping islands, `Workers` that step one world on many cores to the same bits, `Remove` with generation-checked IDs, layers, ray, box and sweep queries, contact events with normal, points, depth and impulse, `Hash`, `Snapshot`/`Restore`/`Diff`"},
	{Path: "save", Readme: true, Pure: true, Imports: []string{"internal/fnv", "physics"}, Never: sim,
		Owns: "a game's state saved, loaded and diffed from its struct (`save.MustFor[T]()`: `Append`, `Load`, `Diff`), bit-exact and bounded like a snapshot: `BodyID`s, random generators, the world inside"},
	{Path: "replay", Readme: true, Pure: true, Imports: []string{"engine", "internal/fnv"},
		Never: append(slices.Clip(noCgo), Rule{"netplay", "a match's recorder is a netplay.TickListener it hands the match, not a package it imports"}),
		Owns:  "the recording file format, recording a game's own per-tick input (alone or a netplay match's) and playing it back with state-hash checks, comparing two recordings (`Record`, `RecordSession`, `Play`, `Compare`, `Start`; `app`'s `-record`/`-replay`)"},
	{Path: "netplay", Readme: true, Pure: true, Imports: []string{"engine", "internal/fnv"},
		Never: append(slices.Clip(noCgo), Rule{"replay", "a recorder is a TickListener the runner gives the match"}, Rule{"app", "the runner holds a Match: netplay never runs a game"}),
		Owns:  "rollback netplay: one rollback core (the state ring, the input rows, the rerun, the tick time, the state's transfer) under every role, each a `Match`: peer to peer (GGPO's way: `Session`, `Lobby`, `Accept`) or with a server that owns the match (`Server`, `Client`: join in progress, catch-up, the snap back), all driven by numbers; the UDP transport, a simulated bad link (`NetSim`), the handshake's fingerprint checks"},
	{Path: "netplay/agones", Readme: true, Pure: true, Never: noCgo,
		Owns: "a `-server`'s link to Agones' SDK sidecar (REST on the pod's 127.0.0.1): Ready, Health while the loop ticks, the player count, Shutdown"},
	{Path: "shaders", Readme: true, Pure: true, Never: noCgo,
		Owns: "the GLSL files, embedded"},
	{Path: "audio/soundfile", Readme: true, Pure: true, Never: noCgo,
		Owns: "the checks of a sound or music file before SDL2_mixer sees it: `Read`, `Parse` (WAV, Ogg pages, Vorbis headers), `Info.CheckSound` (length and decoding memory), `Info.CheckMusic`"},
	{Path: "audio/internal/soundtest", Pure: true, Never: noCgo,
		Owns: "the sound files audio's tests make"},
	{Path: "audio", Readme: true, Imports: []string{"audio/soundfile"}, Outside: []string{"github.com/veandco/go-sdl2/mix", "github.com/veandco/go-sdl2/sdl"},
		Owns: "`Mixer` (SDL2_mixer: sounds and music from an `fs.FS`, voices, fades, suspend), a silent mixer for headless runs"},
	{Path: "gfx/view", Readme: true, Pure: true, Imports: []string{"engine"}, Outside: []string{"github.com/go-gl/mathgl"}, Never: noCgo,
		Owns: "`Camera2D` (`Follow`, `Clamp`), `Camera3D`, `Shake`, `Transform`, `Transform2D`, `Interpolated`, the letterbox `Layout`; gfx has them under the same names"},
	{Path: "gfx/imagefile", Readme: true, Pure: true, Never: noCgo,
		Owns: "`Cost`: what decoding a PNG or JPEG costs, from its header, before `LoadTexture` decodes it"},
	{Path: "gfx/internal/pack", Pure: true, Never: noCgo,
		Owns: "the atlas pages' rectangle packer"},
	{Path: "gfx/internal/imagetest", Pure: true, Never: noCgo,
		Owns: "the images gfx's tests make"},
	{Path: "gfx", Readme: true, Imports: []string{"engine", "gfx/imagefile", "gfx/internal/pack", "gfx/view", "input", "shaders"},
		Outside: []string{"github.com/go-gl/gl", "github.com/go-gl/mathgl", "github.com/veandco/go-sdl2/sdl", "golang.org/x/image"},
		Never: []Rule{
			{"netplay", "networked play is a mode of the application (package app), not of the window"},
			{"replay", "recording and replay are modes of the application (package app)"},
			{"engine/profile", "the profiling flags are the application's (package app)"},
			{"app", "app runs games on gfx: gfx must not depend on it"},
		},
		Owns: "`Window` (SDL2 + GL context, verified vsync, window states, gamepads), `Renderer` (instanced sprites of 32 bytes written straight into mapped GPU memory, batched across textures through atlas pages, texture loading, rects, circles, meshes, bitmap and TrueType/OpenType text, GPU timer), `Scaler` (dynamic resolution, MSAA), `Overlay`, typed GL handles, screenshots"},
	{Path: "app", Readme: true, Imports: []string{"engine", "engine/profile", "gfx", "netplay", "netplay/agones", "physics", "replay"},
		Owns: "the runner: `Run`/`Main` own a game's flags, modes (window, `-headless`, `-ticks`, `-bot`, netplay in any role through one `netplay.Match`, `-record`/`-replay`, `-synctest`), profiles, signals, stats line and exit statuses (`ExitCode`)"},
	{Path: "app/apptest", Readme: true, Pure: true, Never: noCgo,
		Owns: "what a game's tests share: `RunMain`, `Start`, `Run` (the game's main in a child process of its test), `SkipWithoutGL` and `Missing` (skip, or fail under `CI=true`)"},
	{Path: "cmd/demo/arena", Readme: true, Pure: true, Imports: []string{"detmath", "engine", "input", "physics", "save"}, Never: sim,
		Owns: "the demo's world and game state, without a window: what `-headless`, `-replay`, `-synctest` and the cross-build check run"},
	{Path: "cmd/demo", Readme: true, Imports: []string{"app", "audio", "cmd/demo/arena", "engine", "engine/profile", "gfx", "input", "netplay", "physics"},
		Outside: []string{"github.com/go-gl/mathgl"},
		Owns:    "the demo: the arena in a window, its overlay, sounds and hotkeys, every mode of `app`"},
	{Path: "cmd/skeleton", Readme: true, Imports: []string{"app", "audio", "engine", "gfx", "input", "physics"},
		Owns: "the game `make new` copies: a box you push, in every mode"},
	{Path: "cmd/newgame", Readme: true,
		Owns: "`make new`: writes a new game's module from the skeleton (files only)"},
	{Path: "cmd/fixvet", Readme: true, Imports: []string{"cmd/fixvet/determinism"}, Outside: []string{"golang.org/x/tools/go/analysis"},
		Owns: "`go tool fixvet`: go vet for a game's simulation (`go/analysis`)"},
	{Path: "cmd/fixvet/determinism", Readme: true, Outside: []string{"golang.org/x/tools/go/analysis", "golang.org/x/tools/go/types/typeutil"},
		Owns: "fixvet's analyzer: each line of a simulation that is not the same on every build, with its fix"},
	{Path: "tools/worldhash", Pure: true, Imports: []string{"cmd/demo/arena", "detmath", "engine", "input", "internal/fnv", "physics"}, Never: noCgo,
		Owns: "the determinism check's scenes and their golden hashes (`make cross`)"},
	{Path: "tools/looptrace", Pure: true, Imports: []string{"engine"}, Never: noCgo,
		Owns: "a loop's frame trace, for the timestep's tests"},
	{Path: "tools/govtrace", Pure: true, Imports: []string{"engine"}, Never: noCgo,
		Owns: "the quality governor's trace"},
	{Path: "tools/udpflood", Pure: true, Never: noCgo,
		Owns: "a flood of garbage datagrams, for the soaks"},
	{Path: "tools/nocgo", Pure: true, Never: noCgo,
		Owns: "the check that gfx and audio export one API with cgo and without"},
	{Path: "bench/bunnymark-gl", Outside: []string{"github.com/go-gl/gl", "github.com/veandco/go-sdl2/sdl"},
		Owns: "the sprites benchmark's plain OpenGL baseline: one file, no engine"},
	{Path: "tools/layers", Pure: true, Imports: []string{"internal/layers"}, Never: noCgo,
		Owns: "prints this table's lists for the Makefile (`go run ./tools/layers pure`)"},
	{Path: "tools/lint", Pure: true, Never: noCgo,
		Owns: "the tests of make lint's checks that are not Go programs (conflict markers, repeated paragraphs)"},
}

// Find returns the row of path, or false.
func Find(path string) (Package, bool) {
	for _, p := range Table {
		if p.Path == path {
			return p, true
		}
	}
	return Package{}, false
}

// PurePatterns returns the pure packages as go command patterns, one
// each ("./engine"), in the table's order.
func PurePatterns() []string {
	var s []string
	for _, p := range Table {
		if p.Pure {
			s = append(s, "./"+p.Path)
		}
	}
	return s
}

// MayImport reports whether package from's row lets it import imp, an
// import path: a package of the module in its Imports, one outside it
// under a prefix of its Outside, or the standard library (a path whose
// first element has no dot).
func (p Package) MayImport(imp string) bool {
	if rest, ok := strings.CutPrefix(imp, Module+"/"); ok {
		return slices.Contains(p.Imports, rest)
	}
	for _, o := range p.Outside {
		if imp == o || strings.HasPrefix(imp, o+"/") {
			return true
		}
	}
	first, _, _ := strings.Cut(imp, "/")
	return !strings.Contains(first, ".")
}

// Markdown returns the README's table of packages: every row with
// Readme, what it owns, what it may import and whether it is pure.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| package | owns | may import | pure |\n| --- | --- | --- | --- |\n")
	for _, p := range Table {
		if !p.Readme {
			continue
		}
		may := []string{}
		for _, i := range p.Imports {
			may = append(may, "`"+i+"`")
		}
		for _, o := range p.Outside {
			may = append(may, short(o))
		}
		imports := "the standard library"
		if len(may) > 0 {
			imports = strings.Join(may, ", ")
		}
		pure := ""
		if p.Pure {
			pure = "yes"
		}
		b.WriteString("| `" + p.Path + "` | " + p.Owns + " | " + imports + " | " + pure + " |\n")
	}
	return b.String()
}

// short names an outside package as the README does.
func short(path string) string {
	for _, n := range []struct{ prefix, name string }{
		{"github.com/veandco/go-sdl2/", "go-sdl2's `"},
		{"github.com/go-gl/gl", "go-gl"},
		{"github.com/go-gl/mathgl", "mathgl"},
		{"golang.org/x/image", "x/image"},
		{"golang.org/x/tools/", "x/tools' `"},
	} {
		if rest, ok := strings.CutPrefix(path, n.prefix); ok {
			if strings.HasSuffix(n.name, "`") {
				return n.name + rest + "`"
			}
			return n.name
		}
	}
	return path
}

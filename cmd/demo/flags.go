package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/input"
)

// flags are the demo's own flags, beside the runner's (app.Configurer).
type flags struct {
	tps      int
	n        int
	seed     uint64
	glDebug  bool
	width    int
	height   int
	seconds  float64
	bindings string
	load     time.Duration
	panicAt  int64
	bench    string // main runs -bench before the runner: listed here for -h
	textures int
}

// Limits of the flags a recording also carries (simFlags), checked for
// the command line, a replay file's header and a server's alike. They are what the demo can run: a
// replay of any file costs at most its ticks (a byte each at least) times
// a tick of maxBodies.
const (
	maxBodies  = 2000        // -n: what the arena holds at 60 TPS with room to spare (see the flag's help)
	maxSprites = 1000000     // -n with -bench sprites: 32 MB of sprites
	maxTPS     = 1000        // -tps: 1 ms ticks
	maxLoad    = time.Second // -load
	maxWidth   = 7680        // -width, -height: 8K; the 4x MSAA target of 16384² is 4 GiB
	maxSeconds = 1e6         // -seconds: 11 days
)

// Flags adds the demo's flags to the runner's.
func (g *game) Flags(fs *flag.FlagSet) {
	f := &g.flags
	fs.IntVar(&f.tps, "tps", 60, "fixed ticks per second")
	fs.IntVar(&f.n, "n", 300, fmt.Sprintf("number of bouncing bodies, 0 to %d: what the arena holds at 60 TPS with room to spare (a tick of 2,000 bodies took 4 ms on 2 shared cores, 3,000 5.7 ms, 5,000 17 ms, 10,000 82 ms)", maxBodies))
	fs.Uint64Var(&f.seed, "seed", 1, "random seed of the scene")
	fs.BoolVar(&f.glDebug, "gldebug", false, "debug GL context; driver messages go to the log")
	fs.IntVar(&f.width, "width", 1280, "window width")
	fs.IntVar(&f.height, "height", 720, "window height")
	fs.Float64Var(&f.seconds, "seconds", 4, fmt.Sprintf("headless, real clock, without -ticks, -server or -connect: run this many seconds (up to %v)", maxSeconds))
	fs.StringVar(&f.bindings, "bindings", "", "input bindings file (default: built in)")
	fs.DurationVar(&f.load, "load", 0, "artificial work per frame, toggled with L, to watch the quality governor (e.g. 12ms)")
	fs.Int64Var(&f.panicAt, "panic-at", 0, "panic in Update at this tick, to try crash reproduction with -record and -replay (0: never)")
	fs.StringVar(&f.bench, "bench", "", "run a benchmark scene instead of the demo: sprites (800x600, vsync off, -n sprites)")
	fs.IntVar(&f.textures, "textures", 1, "-bench sprites: sprite i uses texture i%K of K textures")
}

// simFlags are the flags the scene depends on besides the input
// (app.Options.SimFlags): a recording carries them, netplay peers and a
// server's clients agree on them, and the runner sets them from a
// recording (-replay) or a server (-connect) before Configure.
var simFlags = []string{"n", "seed", "panic-at", "tps"}

// Configure checks the demo's flags (the command line's, a recording's
// or a server's: flags.check's limits hold for each), and sets the tick
// rate and the window they decide.
func (g *game) Configure(c *app.Config) error {
	f := &g.flags
	switch {
	case f.bench != "":
		return fmt.Errorf("-bench %s: the benchmark runs alone, without the runner's flags", f.bench)
	case f.width < 1 || f.width > maxWidth || f.height < 1 || f.height > maxWidth:
		return fmt.Errorf("-width %d -height %d: want 1 to %d each", f.width, f.height, maxWidth)
	case !(f.seconds > 0 && f.seconds <= maxSeconds):
		return fmt.Errorf("-seconds %v: want more than 0, up to %v", f.seconds, maxSeconds)
	}
	if err := f.check(); err != nil {
		if c.Replay != nil {
			return fmt.Errorf("-replay: %w", err)
		}
		return err
	}
	level := slog.LevelInfo
	if f.glDebug {
		level = slog.LevelDebug
	}
	c.TPS = f.tps
	c.Window = gfx.WindowConfig{Title: "fixstep demo", Width: f.width, Height: f.height, Debug: f.glDebug,
		Logger: slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: level})), Input: &g.keys}
	c.Inputs = map[string]string{"-bindings": f.bindings}
	g.headless, g.quiet = c.Headless, c.Ticks > 0 || c.Replay != nil
	if c.Headless && !c.Simulated && c.Ticks == 0 && !c.Served {
		g.until = time.Duration(f.seconds * float64(time.Second))
	}
	return nil
}

// check validates the flags that a recording also carries.
func (f *flags) check() error {
	switch {
	case f.n < 0 || f.n > maxBodies:
		return fmt.Errorf("-n %d: want 0 to %d bodies", f.n, maxBodies)
	case f.tps < 1 || f.tps > maxTPS:
		return fmt.Errorf("-tps %d: want 1 to %d ticks per second", f.tps, maxTPS)
	case f.load < 0 || f.load > maxLoad:
		return fmt.Errorf("-load %v: want 0 to %v", f.load, maxLoad)
	case f.panicAt < 0:
		return fmt.Errorf("-panic-at %d: must not be negative", f.panicAt)
	}
	return nil
}

// loadBindings reads -bindings, or the built-in bindings without it.
func loadBindings(path string) (*input.Bindings, error) {
	if path == "" {
		return arena.ParseBindings(strings.NewReader(arena.DefaultBindings), "built-in bindings")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return arena.ParseBindings(f, path)
}

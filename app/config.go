package app

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/physics"
	"github.com/fixstep/fixstep/replay"
)

// Configurer is an optional Game hook for a game with flags of its own
// (the size of its world, a level, a window size): Flags adds them to the
// runner's flag set before Run parses the command line, so -h lists them
// beside the runner's; Configure runs once the command line is parsed,
// after the runner has checked its own flags and before Start and before
// anything opens. Configure checks the game's flags (an error names the
// flag, the value and the range, as the runner's do) and sets in c what
// they decide: the tick rate, the Params, the window.
//
// A game whose simulation depends on its flags names them in
// Options.SimFlags: the runner puts their values in the Params, so a
// recording carries them and netplay peers and a server's clients agree
// on them, and gives them back to the game parsed, in every mode: with
// -replay it sets them from the recording (whatever the command line
// says), with -connect or -spectate of a server from the server (a
// client started with another value set on its command line is refused,
// naming the flag and both values), before Configure. So Configure
// checks them as it checks any flag (a recording or a server is
// untrusted), and a run made with -n 100 replays, and is joined, with
// -n 100; the game never reads its Params back.
type Configurer interface {
	Flags(fs *flag.FlagSet)
	Configure(c *Config) error
}

// Config is what a Configurer's Configure learns of the run (the runner's
// modes, read only) and the options its flags decide.
type Config struct {
	// Headless is -headless: no window, no Open, no Draw. Ticks is -ticks
	// (0: none). Simulated says the frames run on a simulated clock
	// (-sim-frame, -sim-jitter, a headless -replay), as fast as the CPU
	// goes, rather than in real time.
	Headless  bool
	Ticks     uint64
	Simulated bool
	// Served is -server or -connect (or -spectate of a server): the
	// run is a server's match, which ends when the server's -ticks end it
	// or the program is stopped; a game's own time limit should not
	// apply.
	Served bool
	// Replay is the header of the recording -replay plays (untrusted:
	// check it as the flags are), nil without -replay. Its simulation
	// flags are set already.
	Replay *replay.Header

	// TPS, Params and Window start as Options has them (defaults filled
	// in); Configure sets those its flags decide (the runner adds the
	// simulation flags to Params after it). Run checks TPS again.
	TPS    int
	Params string
	Window gfx.WindowConfig
	// Inputs are the files the game's flags read, by flag ("-bindings":
	// path): Run refuses a run whose outputs (-record, -screenshot, the
	// profiles) would write one of them.
	Inputs map[string]string
}

// configure runs the game's Configure, if it has one, and applies what it
// set to o.
func configure(g Game, o *Options, m *modes, f *flags, hdr *replay.Header) (inputs map[string]string, err error) {
	c, ok := g.(Configurer)
	if !ok {
		return nil, nil
	}
	cfg := Config{Headless: m.headless, Ticks: m.ticks, Simulated: m.simulated(f.Replay != ""), Served: f.Net.Server != "" || f.Net.Connect != "",
		TPS: o.TPS, Params: o.Params, Window: o.Window, Replay: hdr}
	if err := c.Configure(&cfg); err != nil {
		return nil, err
	}
	if cfg.TPS < 1 || cfg.TPS > maxTPS {
		return nil, fmt.Errorf("app: Config.TPS %d: want 1 to %d", cfg.TPS, maxTPS)
	}
	o.TPS, o.Params, o.Window = cfg.TPS, cfg.Params, cfg.Window
	return cfg.Inputs, nil
}

// maxTPS is the highest tick rate: 1 ms ticks.
const maxTPS = 1000

// Employer is an optional Game hook for a game that steps physics worlds:
// Employ runs once, before Start, with the pool of workers -workers asks
// for (nil for 1), for the game to set on its worlds (physics.World.Workers)
// as it builds them. The pool is the runner's: it closes it once the run
// is over. A world steps to the same bits on any pool, so a recording,
// a replay and each peer of a match may have their own.
type Employer interface {
	Employ(w *physics.Workers)
}

// Reporter is an optional Game hook: Report returns the game's own fields
// for the stats line (" sounds=12 audio=true", each with a leading
// space), which Run prints after the window's, once the game has closed.
type Reporter interface {
	Report() string
}

// Attacher is an optional Game hook for a game that shows or steers the
// loop that runs it (an overlay of its stats, a frame it leaves out of the
// steady state): Attach runs once the loop exists, before the first frame,
// with the networked match the loop runs, whatever this machine's role in
// it (nil alone). Which player this machine plays is engine.Frame.Local.
type Attacher interface {
	Attach(l *engine.Loop, m netplay.Match)
}

// checkFiles refuses a run that would write one file twice, or write a
// file it reads: each output against every other output and every input,
// by path and, for files that exist, by identity (links).
func checkFiles(f *flags, gameInputs map[string]string) error {
	type file struct{ flag, path string }
	var outs, ins []file
	for _, x := range []file{{"-record", f.Record}, {"-screenshot", f.Screenshot}} {
		if x.path != "" {
			outs = append(outs, x)
		}
	}
	for flag, p := range f.Profile.Outputs() {
		outs = append(outs, file{flag, p})
	}
	if f.Replay != "" {
		ins = append(ins, file{"-replay", f.Replay})
	}
	for flag, p := range gameInputs {
		if p != "" {
			ins = append(ins, file{flag, p})
		}
	}
	byFlag := func(a, b file) int { return strings.Compare(a.flag, b.flag) }
	slices.SortFunc(outs, byFlag)
	slices.SortFunc(ins, byFlag)
	same := func(a, b string) bool {
		pa, ea := filepath.Abs(a)
		pb, eb := filepath.Abs(b)
		if ea == nil && eb == nil && pa == pb {
			return true
		}
		fa, ea := os.Stat(a)
		fb, eb := os.Stat(b)
		return ea == nil && eb == nil && os.SameFile(fa, fb)
	}
	for i, a := range outs {
		for _, b := range append(outs[i+1:len(outs):len(outs)], ins...) {
			if same(a.path, b.path) {
				return fmt.Errorf("%s %s and %s %s are the same file", a.flag, a.path, b.flag, b.path)
			}
		}
	}
	return nil
}

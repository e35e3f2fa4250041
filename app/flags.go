package app

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/engine/profile"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/physics"
	"github.com/fixstep/fixstep/replay"
)

// flags are the command-line flags every fixstep game has, in one place:
// -frames, -screenshot, -quality, -vsync, -fps-cap, -synctest, -record,
// -replay, -compare, -workers, the netplay flags (-host, -join, ...) and
// the profiling flags. Run adds the modes only it runs (-headless, -ticks,
// -bot, -sim-frame, -sim-jitter), and a Configurer's own flags.
// The zero value, registered and parsed, runs until quit, alone, with
// automatic quality and adaptive vsync.
type flags struct {
	// Frames stops the run after this many frames (0: until quit).
	Frames uint64
	// Screenshot saves the last of Frames frames to this PNG file; a
	// windowed run that ends before it (a replay's or a match's end, the
	// window closed, a signal) saves the state it ended on, drawn once
	// more as its last frame was, and says so; one that panicked saves
	// nothing, and says why.
	Screenshot string
	// Quality is "auto" or a level to pin (0 lowest).
	Quality string
	// Vsync is on, off or adaptive; FPSCap the frame rate when vsync is off
	// or not honoured (0: the display's).
	Vsync  string
	FPSCap float64
	// SyncTest is the depth of the sync test (engine.Loop.SyncTest) to run
	// the game under, 1 to engine.MaxSyncDepth; 0 runs none.
	SyncTest int
	// Record records the run's input and state hashes to this file;
	// Replay plays such a file back and stops at the first tick whose
	// state differs. startReplay does both for a game with an input value
	// of its own (engine.Inputter).
	Record, Replay string
	// Compare compares the two recordings given as arguments and names
	// the first tick whose input or state hash differs (replay.Compare);
	// Run does nothing else.
	Compare bool
	// Profile holds -cpuprofile, -memprofile, -trace and -pprof.
	Profile profile.Flags
	// Net holds -host, -join, -spectate, -server, -connect and the
	// settings of a match; startMatch starts the match they ask for.
	Net netFlags
	// Workers is how many workers step the game's physics worlds, the
	// caller included (physics.Workers; an Employer gets them): 1 steps
	// on the loop's goroutine alone, 0 means the machine's cores. A world
	// is the same bit for bit on any number, so recordings, replays and
	// the peers of a match may each have their own.
	Workers int
}

// maxWorkers bounds -workers.
const maxWorkers = 256

// register adds the flags to fs.
func (f *flags) register(fs *flag.FlagSet) {
	fs.Uint64Var(&f.Frames, "frames", 0, "run this many frames, then exit (0: until quit)")
	fs.StringVar(&f.Screenshot, "screenshot", "", "save the last frame of -frames to this PNG file (the state it ended on, if the run ends first)")
	fs.StringVar(&f.Quality, "quality", "auto", "quality level: auto, or a level from 0 (lowest) to pin")
	fs.StringVar(&f.Vsync, "vsync", "adaptive", "vsync: on, off or adaptive")
	fs.Float64Var(&f.FPSCap, "fps-cap", 0, "frame rate when vsync is off or not honoured (0: the display's)")
	fs.IntVar(&f.SyncTest, "synctest", 0, fmt.Sprintf("run every tick again after a rollback of this many ticks (1 to %d) and stop at the first that differs: finds nondeterminism (0: off)", engine.MaxSyncDepth))
	fs.StringVar(&f.Record, "record", "", "record the run's input and state hashes to this file, to replay it with -replay")
	fs.StringVar(&f.Replay, "replay", "", "play a recording made with -record back, and stop at the first tick whose state differs")
	fs.BoolVar(&f.Compare, "compare", false, "compare two recordings given as arguments (-compare a.fxr b.fxr): name the first tick whose input or state hash differs")
	fs.IntVar(&f.Workers, "workers", 0, "workers that step the game's physics, the loop's goroutine included: 1 alone (0: the machine's cores); any number gives the same world")
	f.Profile.Register(fs)
	f.Net.register(fs)
}

// newWorkers returns the pool -workers asks for (see flags.Workers), nil
// for 1: close it when the run ends.
func (f *flags) newWorkers() *physics.Workers {
	n := f.Workers
	if n == 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if n < 2 {
		return nil
	}
	return physics.NewWorkers(n)
}

// startReplay starts -record or -replay on loop l (see replay.Start),
// or returns nil with neither flag. In a match (n), -record records it as
// the match makes its ticks final (replay.RecordSession): every player's
// input, so the file replays on a loop of the match's players.
func (f *flags) startReplay(l *engine.Loop, n *network, h replay.Header) (*replay.Run, error) {
	if n == nil || f.Record == "" {
		return replay.Start(l, f.Record, f.Replay, h)
	}
	set := n.match.Settings()
	r, err := replay.RecordSession(f.Record, set.TPS, set.Players, set.InputSize, h)
	if err != nil {
		return nil, err
	}
	n.match.SetTickListener(r)
	return &replay.Run{Recorder: r}, nil
}

// check validates the flags for a game whose top quality level is levels,
// and checks that -screenshot can be written, before the first frame.
func (f *flags) check(levels int) error {
	if f.Screenshot != "" && f.Frames == 0 {
		return errors.New("-screenshot needs -frames N: it saves the last frame")
	}
	if _, err := f.pinnedQuality(levels); err != nil {
		return err
	}
	if _, err := gfx.ParseVsync(f.vsync()); err != nil {
		return err
	}
	if !(f.FPSCap == 0 || f.FPSCap >= 1 && f.FPSCap <= 10000) {
		return fmt.Errorf("-fps-cap %v: want 0 (the display's rate) or 1 to 10000", f.FPSCap)
	}
	if f.Workers < 0 || f.Workers > maxWorkers {
		return fmt.Errorf("-workers %d: want 1 to %d (0: the machine's cores)", f.Workers, maxWorkers)
	}
	if f.SyncTest < 0 || f.SyncTest > engine.MaxSyncDepth {
		return fmt.Errorf("-synctest %d: want 0 (off) to %d ticks", f.SyncTest, engine.MaxSyncDepth)
	}
	if f.Screenshot != "" {
		if err := checkWritable(f.Screenshot); err != nil {
			return fmt.Errorf("-screenshot: %w", err)
		}
	}
	if f.Record != "" && f.Replay != "" {
		return errors.New("-record and -replay together: a replay is not recorded again")
	}
	if f.Record != "" && (f.Record == f.Screenshot || f.Record == f.Replay) {
		return fmt.Errorf("-record %s is also another flag's file", f.Record)
	}
	return f.checkNet()
}

func (f *flags) vsync() string {
	if f.Vsync == "" {
		return "adaptive"
	}
	return f.Vsync
}

// pinnedQuality returns the -quality level, or -1 for auto.
func (f *flags) pinnedQuality(levels int) (int, error) {
	if f.Quality == "" || f.Quality == "auto" {
		return -1, nil
	}
	q, err := strconv.Atoi(f.Quality)
	if err != nil || q < 0 || q > levels {
		return 0, fmt.Errorf("-quality %q: want auto or a level from 0 to %d", f.Quality, levels)
	}
	return q, nil
}

// window returns cfg with the flags' vsync and frame-rate cap (check has
// validated them).
func (f *flags) window(cfg gfx.WindowConfig) gfx.WindowConfig {
	cfg.Vsync, _ = gfx.ParseVsync(f.vsync())
	cfg.FPSCap = f.FPSCap
	return cfg
}

// pin pins the loop's quality when -quality names a level.
func (f *flags) pin(l *engine.Loop) {
	q, _ := f.pinnedQuality(l.Governor().Levels())
	l.Governor().Pin(q)
}

// startSyncTest turns on the loop's sync test when -synctest asks for one:
// the game must implement engine.Saver and read only Tick.Input in Update
// (engine.Loop.SyncTest). Call it before Run.
func (f *flags) startSyncTest(l *engine.Loop) error {
	if f.SyncTest == 0 {
		return nil
	}
	if err := l.SyncTest(f.SyncTest); err != nil {
		return fmt.Errorf("-synctest: %w", err)
	}
	return nil
}

// syncReport returns the stats line's sync test fields, " synctest=N
// synctest_checked=M" (the ticks run again and found the same), or ""
// without -synctest.
func (f *flags) syncReport(l *engine.Loop) string {
	if f.SyncTest == 0 {
		return ""
	}
	return fmt.Sprintf(" synctest=%d synctest_checked=%d", f.SyncTest, l.SyncChecked())
}

// last reports whether frame index (Frame.Index) is the last one -frames
// asks for: draw it, save the screenshot, then stop in End.
func (f *flags) last(index uint64) bool { return f.Frames > 0 && index == f.Frames }

// done reports whether the run has had its -frames: return
// engine.ErrStopped from End.
func (f *flags) done(s *engine.Stats) bool { return f.Frames > 0 && s.Frames >= f.Frames }

// checkWritable checks that path can be created, without leaving a file.
func checkWritable(path string) error {
	if _, err := os.Stat(path); err == nil {
		fh, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return fh.Close()
	}
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	fh.Close()
	return os.Remove(path)
}

// Command demo is fixstep's showcase: bouncing boxes and balls in a fixed
// step physics world, a player box on the arrow keys (or WASD, or a
// gamepad) that jumps with Space (or A), the seed's oscillating box, a
// rotating cube that shows interpolated rotation, and the debug overlay
// (F3). F11 or Alt+Enter toggles fullscreen, F12 saves a screenshot, Escape
// quits.
//
// With -headless it runs the same simulation without a window: paced in
// real time, or on a simulated clock as fast as the CPU allows
// (-sim-frame, -sim-jitter), where -ticks N prints the state hash so runs
// at different frame rates can be compared:
//
//	go run ./cmd/demo -headless -ticks 3600 -sim-frame 6.94ms
//	go run ./cmd/demo -headless -ticks 3600 -sim-frame 33.3ms
//
// On exit it prints one line of key=value pairs starting with "stats".
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/fixstep/fixstep/audio"
	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/input"
)

// signals catches the stop signals from the program's first moments: a
// package variable is set before main runs, as early as Go code can. main
// releases them when everything is written, so a signal at any moment
// ends the run cleanly.
var signals = engine.CatchSignals(exitOnSecondSignal)

// main runs the demo and exits with engine.ExitCode's status: 0 for a clean
// end, 128+n after signal n (the run still ended cleanly: the recording,
// the profiles and the stats line are written), 2 after a panic (printed
// with its stack), 1 for any other error.
func main() {
	err := run(os.Args[1:], os.Stdout, signals)
	if err == nil {
		err = signals.Err() // a signal during the shutdown: report it
	}
	signals.Release() // everything is written
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return
	}
	var se *engine.SignalError
	var pe *engine.PanicError
	switch {
	case errors.As(err, &se):
		fmt.Fprintln(os.Stderr, "demo:", err)
	case errors.As(err, &pe):
		fmt.Fprintf(os.Stderr, "demo: %v\n%s", err, pe.Stack)
	default:
		fmt.Fprintln(os.Stderr, "demo:", err)
	}
	os.Exit(engine.ExitCode(err))
}

type options struct {
	gfx.Flags // -frames, -screenshot, -quality, -vsync, -fps-cap, profiling
	tps       int
	n         int
	seed      uint64
	headless  bool
	glDebug   bool
	width     int
	height    int
	simFrame  time.Duration
	simJitter uint64
	ticks     uint64
	seconds   float64
	bindings  string
	load      time.Duration
	bench     string
	textures  int
	panicAt   int64
}

func parse(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.IntVar(&o.tps, "tps", 60, "fixed ticks per second")
	fs.IntVar(&o.n, "n", 300, fmt.Sprintf("number of bouncing bodies, 0 to %d: what the arena holds at 60 TPS with room to spare (a tick of 2,000 bodies took 4 ms on 2 shared cores, 3,000 5.7 ms, 5,000 17 ms, 10,000 82 ms)", maxBodies))
	fs.Uint64Var(&o.seed, "seed", 1, "random seed of the scene")
	fs.BoolVar(&o.headless, "headless", false, "no window: the server mode")
	fs.BoolVar(&o.glDebug, "gldebug", false, "debug GL context; driver messages go to the log")
	fs.IntVar(&o.width, "width", 1280, "window width")
	fs.IntVar(&o.height, "height", 720, "window height")
	fs.DurationVar(&o.simFrame, "sim-frame", 0, "headless: simulated clock with this constant frame interval")
	fs.Uint64Var(&o.simJitter, "sim-jitter", 0, "headless: simulated clock with random 4-40 ms frames from this seed")
	fs.Uint64Var(&o.ticks, "ticks", 0, "headless: stop after exactly this many ticks and print state-hash=<hex>")
	fs.Float64Var(&o.seconds, "seconds", 4, fmt.Sprintf("headless, real clock: run this many seconds (up to %v)", maxSeconds))
	fs.StringVar(&o.bindings, "bindings", "", "input bindings file (default: built in)")
	fs.DurationVar(&o.load, "load", 0, "artificial work per frame, toggled with L, to watch the quality governor (e.g. 12ms)")
	fs.StringVar(&o.bench, "bench", "", "run a benchmark scene instead of the demo: sprites (800x600, vsync off, -n sprites)")
	fs.IntVar(&o.textures, "textures", 1, "-bench sprites: sprite i uses texture i%K of K textures")
	o.Flags.Register(fs)
	fs.Int64Var(&o.panicAt, "panic-at", 0, "panic in Update at this tick, to try crash reproduction with -record and -replay (0: never)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if (o.simFrame != 0 || o.simJitter != 0 || o.ticks != 0) && !o.headless {
		return o, errors.New("-sim-frame, -sim-jitter and -ticks need -headless")
	}
	if o.simFrame != 0 && (o.simFrame < minSimFrame || o.simFrame > time.Second) {
		return o, fmt.Errorf("-sim-frame %v: want %v to 1s", o.simFrame, minSimFrame)
	}
	if o.width < 1 || o.width > maxWidth || o.height < 1 || o.height > maxWidth {
		return o, fmt.Errorf("-width %d -height %d: want 1 to %d each", o.width, o.height, maxWidth)
	}
	if !(o.seconds > 0 && o.seconds <= maxSeconds) {
		return o, fmt.Errorf("-seconds %v: want more than 0, up to %v", o.seconds, maxSeconds)
	}
	if err := o.conflicts(); err != nil {
		return o, err
	}
	if o.textures < 1 || o.textures > 256 {
		return o, fmt.Errorf("-textures %d: want 1 to 256", o.textures)
	}
	return o, o.check()
}

// conflicts refuses flags that do not go together, rather than ignoring
// one of them.
func (o options) conflicts() error {
	set := func(name string, on bool) string {
		if on {
			return name
		}
		return ""
	}
	for _, c := range []struct {
		mode   string
		others []string
	}{
		{set("-replay", o.Replay != ""), []string{set("-record", o.Record != ""), set("-bench", o.bench != ""),
			set("-synctest", o.SyncTest != 0), set("-screenshot", o.Screenshot != ""), set("-ticks", o.ticks != 0), set("-headless", o.headless)}},
		{set("-bench", o.bench != ""), []string{set("-record", o.Record != ""), set("-synctest", o.SyncTest != 0),
			set("-headless", o.headless), set("-panic-at", o.panicAt != 0)}},
		{set("-headless", o.headless), []string{set("-screenshot", o.Screenshot != ""), set("-frames", o.Frames != 0)}},
	} {
		if c.mode == "" {
			continue
		}
		for _, other := range c.others {
			if other != "" {
				return fmt.Errorf("%s and %s do not go together", c.mode, other)
			}
		}
	}
	return nil
}

// Limits of the flags a recording also carries, checked for the flags and
// for a replay file's header alike. They are what the demo can run: a
// replay of any file costs at most its ticks (a byte each at least) times
// a tick of maxBodies.
const (
	maxBodies   = 2000        // -n: what the arena holds at 60 TPS with room to spare (see the flag's help)
	maxSprites  = 1000000     // -n with -bench sprites: 32 MB of sprites
	maxTPS      = 1000        // -tps: 1 ms ticks
	maxLoad     = time.Second // -load
	maxWidth    = 7680        // -width, -height: 8K; the 4x MSAA target of 16384² is 4 GiB
	maxSeconds  = 1e6         // -seconds: 11 days
	minSimFrame = 100 * time.Microsecond
)

// check validates the options that a recording also carries.
func (o options) check() error {
	switch {
	case o.bench == "sprites" && (o.n < 0 || o.n > maxSprites):
		return fmt.Errorf("-n %d: want 0 to %d sprites", o.n, maxSprites)
	case o.bench == "" && (o.n < 0 || o.n > maxBodies):
		return fmt.Errorf("-n %d: want 0 to %d bodies", o.n, maxBodies)
	case o.tps < 1 || o.tps > maxTPS:
		return fmt.Errorf("-tps %d: want 1 to %d ticks per second", o.tps, maxTPS)
	case o.load < 0 || o.load > maxLoad:
		return fmt.Errorf("-load %v: want 0 to %v", o.load, maxLoad)
	case o.panicAt < 0:
		return fmt.Errorf("-panic-at %d: must not be negative", o.panicAt)
	}
	return nil
}

// run runs the demo; sig, when not nil, stops its loop on a signal.
func run(args []string, stdout io.Writer, sig *engine.Signals) (err error) {
	o, err := parse(args)
	if err != nil {
		return err
	}
	// Every output is checked against the others and the inputs, then
	// opened, before the first frame: a run that could not write its
	// results never starts, and each output is closed on its own, so one
	// failing never discards another.
	if err := o.Flags.Check(len(levels) - 1); err != nil {
		return err
	}
	if err := o.checkFiles(); err != nil {
		return err
	}
	prof, err := o.Profile.Start()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, prof.Stop()) }()
	if prof.Addr() != "" {
		fmt.Fprintf(os.Stderr, "demo: pprof at http://%s/debug/pprof/\n", prof.Addr())
	}
	if o.Replay != "" {
		return replayWith(o.Replay, stdout, sig, nil)
	}
	switch o.bench {
	case "":
	case "sprites":
		return runBunnymark(o, stdout, sig)
	default:
		return fmt.Errorf("-bench %q: the only benchmark is sprites", o.bench)
	}
	bindings, err := loadBindings(o.bindings)
	if err != nil {
		return err
	}
	keys := &input.State{}
	sc, err := arena.New(o.n, o.seed, input.NewActions(keys, bindings))
	if err != nil {
		return err
	}
	sc.PanicAt = o.panicAt
	if o.Record != "" {
		var rec *recording
		if rec, err = createRecording(o.Record, o); err != nil {
			return err
		}
		sc.Keys, sc.Recorder = keys, rec.w
		// err is run's result here: the end record says how the run ended.
		defer func() { err = errors.Join(err, rec.close(err)) }()
	}
	// Sound: counted from the start, played once the window has shown its
	// first frame (opening a device can take 100 ms or more; start-up does
	// not wait for it), counted only, headless.
	snd := newSounds(sc)
	defer snd.close()
	cfg := engine.Config{TPS: o.tps, ProfilePhases: prof.Active()}
	if o.headless {
		return runHeadless(o, cfg, sc, keys, stdout, sig)
	}
	return runWindow(o, cfg, sc, snd, keys, stdout, sig)
}

// sounds are the demo's mixer and its bounce: a silent mixer that counts
// until the window opens the device.
type sounds struct {
	mixer  *audio.Mixer
	bounce audio.Sound
}

// newSounds starts silent and plays the scene's bounces.
func newSounds(sc *arena.Scene) *sounds {
	s := &sounds{mixer: audio.Silent()}
	sc.Bounce = s.play
	return s
}

func (s *sounds) play(volume, pan float32) { s.mixer.Play(s.bounce, volume, pan) }

// open opens the audio device and loads the demo's sounds; without a
// device it says so and the demo plays on silently.
func (s *sounds) open() error {
	m, err := audio.Open(audio.Config{})
	if err != nil && !errors.Is(err, audio.ErrNoDevice) {
		return err
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
	}
	m.Played, m.Dropped = s.mixer.Played, s.mixer.Dropped // the counts so far
	s.mixer = m
	s.bounce, err = m.LoadSound(assets, "assets/bounce.wav")
	return err
}

func (s *sounds) close() {
	s.mixer.Close()
	s.bounce.Free()
}

// assets are the demo's sounds, in the binary.
//
//go:embed assets
var assets embed.FS

// watch makes a signal stop l, when signals are caught.
func watch(sig *engine.Signals, l *engine.Loop) {
	if sig != nil {
		sig.Watch(l)
	}
}

// exitOnSecondSignal is what a second signal does while the run stops:
// exit at once, with the conventional status.
func exitOnSecondSignal(s os.Signal) {
	fmt.Fprintf(os.Stderr, "demo: %v again: exiting at once\n", s)
	os.Exit(engine.ExitCode(&engine.SignalError{Signal: s}))
}

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

func runWindow(o options, cfg engine.Config, sc *arena.Scene, snd *sounds, keys *input.State, stdout io.Writer, sig *engine.Signals) error {
	level := slog.LevelInfo
	if o.glDebug {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	win, err := gfx.NewWindow(o.Window(gfx.WindowConfig{
		Title: "fixstep demo", Width: o.width, Height: o.height,
		Debug: o.glDebug, Logger: logger, Input: keys,
	}))
	if err != nil {
		return err
	}
	defer win.Close()
	r, err := gfx.NewRenderer()
	if err != nil {
		return err
	}
	defer r.Close()
	g := &game{Scene: sc, sound: snd, win: win, r: r, keys: keys, flags: o.Flags,
		load: o.load, loadOn: o.load > 0}
	g.cube.Teleport(gfx.Identity())
	defer g.scaler.Delete()
	g.overlay.Visible = true
	cfg.Quality.Levels = len(levels) - 1
	cfg.RuntimeStats = true
	if g.loop, err = engine.NewLoop(cfg, win, g); err != nil {
		return err
	}
	o.Pin(g.loop) // Run calls QualityChanged with the level before the first frame
	if err := o.StartSyncTest(g.loop, keys); err != nil {
		return err
	}
	watch(sig, g.loop)
	// However the run ends (a stop, a signal, an error, a panic the loop
	// recovered), close what the demo made and report before returning it:
	// the deferred calls find everything closed.
	runErr := g.loop.Run(context.Background())
	if errors.Is(runErr, engine.ErrStopped) {
		runErr = nil
	}
	g.scaler.Delete()
	if err := r.Close(); err != nil {
		return errors.Join(runErr, err)
	}
	fmt.Fprintf(stdout, "stats %s %s sounds=%d sounds_dropped=%d audio=%v%s\n",
		g.loop.Report(), gfx.Report(win, r), snd.mixer.Played, snd.mixer.Dropped, snd.mixer.Live(), o.SyncReport(g.loop))
	return errors.Join(runErr, g.err)
}

// headless runs the scene without a window and prints its progress.
type headless struct {
	*arena.Scene
	out       io.Writer
	ticks     uint64
	until     time.Duration
	lastPrint time.Duration
	quiet     bool
}

func (h *headless) Draw(engine.Frame) {}

func (h *headless) Update(t engine.Tick) error {
	if err := h.Scene.Update(t); err != nil {
		return err
	}
	if h.ticks > 0 && t.N+1 >= h.ticks && !t.Rerun {
		return engine.ErrStopped
	}
	return nil
}

func (h *headless) End(s *engine.Stats) error {
	if !h.quiet && s.Sim-h.lastPrint >= time.Second {
		h.lastPrint = s.Sim
		p := h.World.Body(h.Osc).Pos
		fmt.Fprintf(h.out, "t=%-4v box=(%.3f, %.3f) ticks=%d fps=%.1f p99=%v dropped=%v\n",
			s.Sim, p.X, p.Y, s.Ticks, s.FPS, s.FrameP99, s.Dropped)
	}
	if h.until > 0 && s.Sim >= h.until {
		return engine.ErrStopped
	}
	return nil
}

func runHeadless(o options, cfg engine.Config, sc *arena.Scene, keys *input.State, stdout io.Writer, sig *engine.Signals) error {
	h := &headless{Scene: sc, out: stdout, ticks: o.ticks}
	var p engine.Platform
	switch {
	case o.simFrame > 0:
		p = engine.NewSim(engine.ConstantFrames(o.simFrame))
	case o.simJitter != 0:
		p = engine.NewSim(engine.NewJitterFrames(o.simJitter, 4*time.Millisecond, 40*time.Millisecond))
	default:
		p = engine.NewHeadless(60)
		if o.ticks == 0 {
			h.until = time.Duration(o.seconds * float64(time.Second))
		}
	}
	h.quiet = o.ticks > 0
	loop, err := engine.NewLoop(cfg, p, h)
	if err != nil {
		return err
	}
	if err := o.StartSyncTest(loop, keys); err != nil {
		return err
	}
	watch(sig, loop)
	err = loop.Run(context.Background())
	var stopped *engine.SignalError
	if !errors.Is(err, engine.ErrStopped) && !errors.As(err, &stopped) {
		return err
	}
	s := loop.Stats()
	// The world's own tick count: -ticks stops inside a frame, before the
	// loop has counted that frame.
	fmt.Fprintf(stdout, "stats frames=%d ticks=%d fps=%.1f fps_last=%.1f vsync=none dropped_ms=%.3f overruns=%d%s\n",
		s.Frames, sc.World.Ticks(), s.RunFPS, s.FPS, float64(s.Dropped)/1e6, s.Overruns, o.SyncReport(loop))
	if o.ticks > 0 {
		fmt.Fprintf(stdout, "state-hash=%016x\n", sc.Hash())
	}
	if stopped != nil {
		return stopped
	}
	return nil
}

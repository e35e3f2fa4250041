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
// Two demos play together over UDP, rollback style (package netplay):
// -host ADDR on one machine, -join ADDR on the other, each moving its own
// player box; -spectate ADDR watches. -bot SEED plays this machine's
// player from a seeded generator; -netsim simulates a bad link. With
// -headless the match runs in real time without a window, and -ticks N
// ends it on both peers at tick N with the same state-hash=:
//
//	demo -headless -ticks 3600 -host :7000 -bot 1 -record host.fxr
//	demo -headless -ticks 3600 -join 127.0.0.1:7000 -bot 2 -netsim latency=50ms,jitter=10ms,loss=0.05,dup=0.01 -record join.fxr
//	demo -replay host.fxr
//	demo -compare host.fxr join.fxr
//
// On exit it prints one line of key=value pairs starting with "stats"
// (with netplay, the session's rtt_ms, rollbacks, rollback_ticks_max,
// predicted, desyncs, hashes_checked and packets_bad among them; a -ticks
// match that compared no state hash with its peer fails, "nothing
// verified", with status 1). The exit status is 0
// for a clean end (a quit, -frames, -ticks, a match that ended, a peer
// that quit), 128+n after signal n, 2 after a panic, 3 when a netplay
// peer vanished (silent for the disconnect timeout: "player 2
// disconnected") or never answered (10 s), and 1 for any other error.
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

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/audio"
	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/netplay"
	fxreplay "github.com/fixstep/fixstep/replay"
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
	var de *netplay.DisconnectError
	switch {
	case errors.As(err, &se):
		fmt.Fprintln(os.Stderr, "demo:", err)
	case errors.As(err, &pe):
		fmt.Fprintf(os.Stderr, "demo: %v\n%s", err, pe.Stack)
	case errors.As(err, &de) && de.Handshake:
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(exitPeerVanished)
	case errors.As(err, &de):
		fmt.Fprintf(os.Stderr, "demo: player %d disconnected: nothing from %v for %v\n", de.Player+1, de.Addr, de.Silence.Round(time.Millisecond))
		os.Exit(exitPeerVanished)
	default:
		fmt.Fprintln(os.Stderr, "demo:", err)
	}
	os.Exit(engine.ExitCode(err))
}

// exitPeerVanished is the exit status of a netplay run whose peer went
// silent for the disconnect timeout, or never answered the handshake.
const exitPeerVanished = 3

type options struct {
	app.Flags   // -frames, -screenshot, -quality, -vsync, -fps-cap, profiling
	tps         int
	n           int
	seed        uint64
	headless    bool
	glDebug     bool
	width       int
	height      int
	simFrame    time.Duration
	simJitter   uint64
	ticks       uint64
	seconds     float64
	bindings    string
	load        time.Duration
	bench       string
	textures    int
	panicAt     int64
	bot         uint64
	compare     bool
	compareWith string
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
	fs.Uint64Var(&o.bot, "bot", 0, "this machine's player is a bot whose input comes from this seed (0: the devices)")
	fs.BoolVar(&o.compare, "compare", false, "compare two recordings given as arguments: name the first tick whose input or state hash differs")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.compare {
		if fs.NArg() != 2 {
			return o, errors.New("-compare takes two recordings: demo -compare a.fxr b.fxr")
		}
		o.Replay, o.compareWith = fs.Arg(0), fs.Arg(1)
		return o, nil
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if o.Net.On() {
		o.Net.EndTick = o.ticks // -ticks ends the match on every peer
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
		{set("-host, -join or -spectate", o.Net.On()), []string{set("-sim-frame", o.simFrame != 0), set("-sim-jitter", o.simJitter != 0),
			set("-bench", o.bench != "")}},
		{set("-spectate", o.Net.Spectate != ""), []string{set("-bot", o.bot != 0)}},
		{set("-replay", o.Replay != ""), []string{set("-bot", o.bot != 0)}},
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
	w := &watcher{sig: sig}
	defer func() {
		if err != nil && !w.started {
			prof.Discard() // a failed start keeps an earlier run's profiles
			return
		}
		err = errors.Join(err, prof.Stop())
	}()
	if prof.Addr() != "" {
		fmt.Fprintf(os.Stderr, "demo: pprof at http://%s/debug/pprof/\n", prof.Addr())
	}
	if o.compare {
		return compare(o.Replay, o.compareWith, stdout)
	}
	if o.Replay != "" {
		return replayWith(o.Replay, stdout, w, nil)
	}
	switch o.bench {
	case "":
	case "sprites":
		return runBunnymark(o, stdout, w)
	default:
		return fmt.Errorf("-bench %q: the only benchmark is sprites", o.bench)
	}
	bindings, err := loadBindings(o.bindings)
	if err != nil {
		return err
	}
	keys := &input.State{}
	sc, err := arena.NewMatch(o.n, o.seed, o.Net.Players(), input.NewActions(keys, bindings))
	if err != nil {
		return err
	}
	sc.PanicAt, sc.Bot = o.panicAt, o.bot
	// Sound: counted from the start, played once the window has shown its
	// first frame (opening a device can take 100 ms or more; start-up does
	// not wait for it), counted only, headless.
	snd := newSounds(sc)
	defer snd.close()
	// The game's own input in every mode: the scene's Input turns the
	// devices (or the bot) into a value each tick, which Update reads,
	// netplay sends and a recording holds.
	cfg := engine.Config{TPS: o.tps, ProfilePhases: prof.Active(), InputSize: arena.InputSize}
	if o.headless {
		return runHeadless(o, cfg, sc, stdout, w)
	}
	return runWindow(o, cfg, sc, snd, keys, stdout, w)
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
// watcher hands each loop to the signal handler just before it runs, and
// so knows whether the run got that far: a run that failed before then
// (a bad bindings file, no display) discards its profiles instead of
// replacing an earlier run's.
type watcher struct {
	sig     *engine.Signals // nil in tests
	started bool
}

// watch is called just before l runs.
func (w *watcher) watch(l *engine.Loop) {
	if w == nil {
		return
	}
	w.started = true
	if w.sig != nil {
		w.sig.Watch(l)
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

func runWindow(o options, cfg engine.Config, sc *arena.Scene, snd *sounds, keys *input.State, stdout io.Writer, w *watcher) error {
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
	m, err := startMatch(o, cfg, win, g)
	if err != nil {
		return err
	}
	defer m.close()
	g.loop, g.net, g.local = m.loop, m.np, o.Net.Local()
	o.Pin(g.loop) // Run calls QualityChanged with the level before the first frame
	// Update reads only Tick.Input: the sync test saves no device state.
	if err := o.StartSyncTest(g.loop); err != nil {
		return err
	}
	w.watch(g.loop)
	// However the run ends (a stop, a signal, an error, a panic the loop
	// recovered), close what the demo made and report before returning it:
	// the deferred calls find everything closed.
	runErr := m.end(g.loop.Run(context.Background()))
	if errors.Is(runErr, engine.ErrStopped) {
		runErr = nil
	}
	g.scaler.Delete()
	if err := r.Close(); err != nil {
		return errors.Join(runErr, err)
	}
	fmt.Fprintf(stdout, "stats %s %s sounds=%d sounds_dropped=%d audio=%v%s%s\n",
		g.loop.Report(), gfx.Report(win, r), snd.mixer.Played, snd.mixer.Dropped, snd.mixer.Live(), o.SyncReport(g.loop), m.np.Report())
	m.report(stdout)
	return errors.Join(runErr, g.err)
}

// match is a run's netplay session (nil without -host, -join or
// -spectate), its loop, and its recording (-record; nil without).
type match struct {
	np   *app.Netplay
	loop *engine.Loop
	rec  *fxreplay.Run
}

// startMatch makes the loop that runs game on p, through a netplay
// session with -host, -join or -spectate, alone without, and starts
// -record's recording of it (package replay: a match's as the session
// confirms it, a run alone as the loop's tape).
func startMatch(o options, cfg engine.Config, p engine.Platform, game engine.Game) (*match, error) {
	np, err := o.StartNetplay(cfg, game, o.netParams())
	if err != nil {
		return nil, err
	}
	m := &match{np: np}
	if m.loop, err = np.NewLoop(cfg, p, game); err != nil {
		np.Close()
		return nil, err
	}
	if o.Record != "" {
		if m.rec, err = o.StartReplay(m.loop, fxreplay.Header{Params: o.params(), Seed: o.seed}); err != nil {
			np.Close()
			return nil, fmt.Errorf("-record: %w", err)
		}
	}
	return m, nil
}

// end says how the run ended, given what Run returned, and closes the
// match's recording. The match reaching -ticks, or a peer that quit, is a
// clean end; a peer that vanished ends the recording cleanly (its ticks
// are all final) and the run with exit status 3.
func (m *match) end(err error) error {
	var de *netplay.DisconnectError
	switch {
	case m.np == nil:
	case errors.As(err, &de) && de.Left:
		fmt.Fprintf(os.Stderr, "demo: player %d left: the match is over\n", de.Player+1)
		err = nil
	case errors.As(err, &de): // main says so, and exits 3
		return errors.Join(err, m.rec.Close(nil))
	}
	return m.rec.Close(err)
}

// report prints what the match's recording holds.
func (m *match) report(w io.Writer) {
	if m.rec != nil {
		fmt.Fprintln(w, m.rec.Report())
	}
}

// close says goodbye to the peers and closes the socket.
func (m *match) close() { m.np.Close() }

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

func runHeadless(o options, cfg engine.Config, sc *arena.Scene, stdout io.Writer, w *watcher) error {
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
	if o.Net.On() {
		h.ticks = 0 // the session ends the match at -ticks, on every peer (netplay.Config.EndTick)
	}
	m, err := startMatch(o, cfg, p, h)
	if err != nil {
		return err
	}
	defer m.close()
	loop := m.loop
	// Update reads only Tick.Input: the sync test saves no device state.
	if err := o.StartSyncTest(loop); err != nil {
		return err
	}
	w.watch(loop)
	err = m.end(loop.Run(context.Background()))
	var stopped *engine.SignalError
	var vanished *netplay.DisconnectError
	unverified := errors.Is(err, netplay.ErrUnverified) // the stats line shows hashes_checked=0, then the run fails
	if err != nil && !errors.Is(err, engine.ErrStopped) && !errors.As(err, &stopped) && !errors.As(err, &vanished) && !unverified {
		return err
	}
	s := loop.Stats()
	// The world's own tick count: -ticks stops inside a frame, before the
	// loop has counted that frame.
	fmt.Fprintf(stdout, "stats frames=%d ticks=%d fps=%.1f fps_last=%.1f vsync=none dropped_ms=%.3f overruns=%d%s%s\n",
		s.Frames, sc.World.Ticks(), s.RunFPS, s.FPS, float64(s.Dropped)/1e6, s.Overruns, o.SyncReport(loop), m.np.Report())
	m.report(stdout)
	if o.ticks > 0 && sc.World.Ticks() == o.ticks {
		fmt.Fprintf(stdout, "state-hash=%016x\n", sc.Hash())
	}
	switch {
	case stopped != nil:
		return stopped
	case vanished != nil, unverified:
		return err
	}
	return nil
}

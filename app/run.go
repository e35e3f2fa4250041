package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/replay"
)

// Game is what Run runs: a fixed-step Update that reads only Tick.Input
// (see engine.Game for the fixed-step guarantee), an Input that turns the
// devices into that value at each tick (engine.Inputter), Save and Load
// (engine.Saver) for -synctest, rollback and the state hashes, and Draw,
// which a headless run never calls. engine's optional hooks (Begin, End,
// Diff, QualityChanged, SuspendChanged, GPUTime) and this package's
// (Starter, Opener, Configurer, Employer, Reporter, Attacher) are
// discovered by type assertion.
type Game interface {
	engine.Game
	engine.Inputter
	engine.Saver
}

// Starter is an optional Game hook: Start runs once, after the flags are
// parsed and before anything opens, with how many players the run has
// (1 alone; -players with -host or -spectate, 2 by default; with -join,
// the host's, asked before Start; a recording's count with -replay).
// Build the world for them here.
type Starter interface {
	Start(players int) error
}

// Opener is an optional Game hook for a game that draws: Open runs once a
// windowed run has made its window and renderer, after Start and before
// the first frame, to keep them for Draw and load textures, fonts and
// sounds; Close runs after the last frame, before the renderer closes, to
// free what Open loaded. A headless run calls neither, nor Draw.
type Opener interface {
	Open(w *gfx.Window, r *gfx.Renderer) error
	Close() error
}

// Options is what the runner needs to know of a game. Only InputSize must
// be set; every other zero field means its default.
type Options struct {
	// Name is the game's name: its window's title (unless Window.Title is
	// set), its usage line's and its messages' prefix. Empty means the
	// program's file name.
	Name string
	// TPS is the tick rate. Zero means engine.DefaultTPS (60).
	TPS int
	// InputSize is the size in bytes of one player's per-tick input, 1 to
	// engine.MaxInputSize: what Input fills, -record saves and netplay
	// sends.
	InputSize int
	// MaxPlayers is the most players the game's world holds, 1 to
	// engine.MaxPlayers: 1 refuses -host, -join and -spectate, and a
	// recording of more players is refused. Zero means engine.MaxPlayers.
	MaxPlayers int
	// Params names what the simulation depends on besides the input (the
	// rules, a level: "mygame v1"): netplay peers whose Params differ are
	// refused, and a recording replays only with the Params it was made
	// with.
	Params string
	// SimFlags names the game's own flags (a Configurer's, without the
	// dash: "n", "seed") that its simulation depends on: the runner adds
	// their values to Params, a line each, and sets them back from a
	// recording (-replay) or a server (-connect, -spectate) before the
	// game's Configure, so the game reads them parsed in every mode (see
	// Configurer).
	SimFlags []string
	// Bot fills dst with a bot's input for tick t, from seed: -bot SEED
	// plays this machine's player with it instead of Input. It runs at the
	// tick, as Input does, and must depend on seed, t and the game's state
	// only. Nil refuses -bot.
	Bot func(seed uint64, t engine.Tick, dst []byte)
	// Window sets up a windowed run's window. Title defaults to Name;
	// -vsync and -fps-cap set Vsync and FPSCap. Set Input to the
	// input.State your Input reads: the window fills it.
	Window gfx.WindowConfig
	// Args are the command-line arguments, without the program's name.
	// Nil means os.Args[1:].
	Args []string
	// Stdout receives state-hash=, Stderr the stats line, reports and
	// messages. Nil means os.Stdout and os.Stderr.
	Stdout, Stderr io.Writer
	// Signals are the stop signals a program caught before Run (in a
	// package variable, as early as Go code can): Run watches and releases
	// them as it would its own. Nil means Run catches them at its first
	// line.
	Signals *engine.Signals
}

// defaults returns o with its zero fields filled in, or an error naming
// the field that is out of range.
func (o Options) defaults() (Options, error) {
	if o.Name == "" {
		o.Name = filepath.Base(os.Args[0])
	}
	if o.TPS == 0 {
		o.TPS = engine.DefaultTPS
	}
	if o.MaxPlayers == 0 {
		o.MaxPlayers = engine.MaxPlayers
	}
	if o.Args == nil {
		o.Args = os.Args[1:]
	}
	if o.Stdout == nil {
		o.Stdout = os.Stdout
	}
	if o.Stderr == nil {
		o.Stderr = os.Stderr
	}
	if o.Window.Title == "" {
		o.Window.Title = o.Name
	}
	switch {
	case o.InputSize < 1 || o.InputSize > engine.MaxInputSize:
		return o, fmt.Errorf("app: Options.InputSize %d: want 1 to %d bytes", o.InputSize, engine.MaxInputSize)
	case o.MaxPlayers < 1 || o.MaxPlayers > engine.MaxPlayers:
		return o, fmt.Errorf("app: Options.MaxPlayers %d: want 1 to %d (0: %d)", o.MaxPlayers, engine.MaxPlayers, engine.MaxPlayers)
	}
	return o, nil
}

// Main runs g as Run does, prints the error that ended it, if any (a
// panic's with its stack), on Options.Stderr, and returns the exit status
// for os.Exit (see ExitCode):
//
//	func main() { os.Exit(app.Main(&game{}, app.Options{InputSize: 2})) }
func Main(g Game, o Options) int {
	err := Run(g, o)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	name, w := o.Name, o.Stderr
	if name == "" {
		name = filepath.Base(os.Args[0])
	}
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, "%s: %s\n", name, describe(err))
	return ExitCode(err)
}

// Run runs g with the flags in o.Args and returns how the run ended: nil
// for a clean end (see the package doc's table of endings, and ExitCode).
// It catches the stop signals from its first line to its last, so a signal
// at any moment ends the run cleanly; a second one exits at once. Call it
// from the main goroutine.
func Run(g Game, o Options) (err error) {
	o, err = o.defaults()
	if err != nil {
		return err
	}
	sig := o.Signals
	if sig == nil {
		sig = engine.CatchSignals(func(s os.Signal) { ExitOnSecondSignal(o.Name, o.Stderr, s) })
	}
	defer sig.Release() // last: everything is written
	defer func() {
		if err == nil {
			err = sig.Err() // a signal during the shutdown
		}
	}()
	return run(g, o, sig)
}

// ExitOnSecondSignal is what a second stop signal does while a run stops,
// for engine.CatchSignals: it says so on w and exits at once, with the
// status of the signal (the runner is the program: it exits as main
// would).
func ExitOnSecondSignal(name string, w io.Writer, s os.Signal) {
	fmt.Fprintf(w, "%s: %v again: exiting at once\n", name, s)
	os.Exit(ExitCode(&engine.SignalError{Signal: s}))
}

// modes are the flags only Run runs.
type modes struct {
	headless  bool
	ticks     uint64
	bot       uint64
	simFrame  time.Duration
	simJitter uint64
}

func (m *modes) register(fs *flag.FlagSet) {
	fs.BoolVar(&m.headless, "headless", false, "no window: paced in real time, or on a simulated clock with -sim-frame")
	fs.Uint64Var(&m.ticks, "ticks", 0, "with -headless: stop after exactly this many ticks (on every peer, with netplay) and print state-hash=<hex>")
	fs.Uint64Var(&m.bot, "bot", 0, "this machine's player is the game's bot, playing from this seed (0: the devices)")
	fs.DurationVar(&m.simFrame, "sim-frame", 0, "with -headless: a simulated clock with this constant frame interval, as fast as the CPU goes")
	fs.Uint64Var(&m.simJitter, "sim-jitter", 0, "with -headless: a simulated clock with random 4-40 ms frames from this seed, as fast as the CPU goes")
}

// minSimFrame is the shortest -sim-frame: 10,000 frames a second.
const minSimFrame = 100 * time.Microsecond

// errNoWindow refuses a windowed run in a build without cgo
// (CGO_ENABLED=0), whose gfx has no window (gfx.Available): such a static
// build runs every headless mode.
var errNoWindow = errors.New("this build has no window (built with CGO_ENABLED=0): run it with -headless or -server")

// check refuses modes that do not go together, rather than ignoring one.
func (m *modes) check(f *flags, o Options) error {
	switch {
	case !m.headless && !gfx.Available && f.Net.Server == "":
		return errNoWindow
	case !m.headless && f.Net.Server == "" && (m.ticks != 0 || m.simFrame != 0 || m.simJitter != 0):
		return errors.New("-ticks, -sim-frame and -sim-jitter need -headless")
	case m.simFrame != 0 && m.simJitter != 0:
		return errors.New("-sim-frame and -sim-jitter do not go together: a run has one clock")
	case m.headless && (f.Frames != 0 || f.Screenshot != ""):
		return errors.New("-headless and -frames or -screenshot do not go together: -ticks N stops a headless run")
	case m.simFrame != 0 && (m.simFrame < minSimFrame || m.simFrame > time.Second):
		return fmt.Errorf("-sim-frame %v: want %v to 1s", m.simFrame, minSimFrame)
	case (m.simFrame != 0 || m.simJitter != 0) && f.Net.on():
		return errors.New("-sim-frame, -sim-jitter and -host, -join or -spectate do not go together: a match runs in real time")
	case f.Replay != "" && m.ticks != 0:
		return errors.New("-replay and -ticks do not go together: a replay ends where its recording does")
	case m.bot != 0 && o.Bot == nil:
		return fmt.Errorf("-bot %d: %s has no bot", m.bot, o.Name)
	case m.bot != 0 && (f.Replay != "" || f.Net.Spectate != ""):
		return errors.New("-bot and -replay or -spectate do not go together: neither plays")
	case f.Net.on() && o.MaxPlayers < 2 && f.Net.Server == "":
		return fmt.Errorf("-host, -join, -spectate and -connect: %s is a one-player game", o.Name)
	case m.bot != 0 && f.Net.Server != "":
		return errors.New("-bot and -server do not go together: a server has no player (run the bots with -connect)")
	case m.ticks != 0 && f.Net.Connect != "":
		return errors.New("-ticks with -connect: the server's -ticks ends the match for everyone")
	case f.Net.Server != "" && (f.Frames != 0 || f.Screenshot != ""):
		return errors.New("-server and -frames or -screenshot do not go together: a server is headless")
	}
	return nil
}

// simulated reports whether a headless run's frames run on a simulated
// clock, as fast as the CPU goes.
func (m *modes) simulated(replaying bool) bool {
	return m.headless && (m.simFrame != 0 || m.simJitter != 0 || replaying)
}

// platform returns the headless platform the modes ask for: -sim-frame's
// or -sim-jitter's simulated clock, a replay's as fast as the CPU goes (a
// tick a frame), or frames paced in real time.
func (m *modes) platform(tps int, replaying bool) engine.Platform {
	switch {
	case m.simFrame != 0:
		return engine.NewSim(engine.ConstantFrames(m.simFrame))
	case m.simJitter != 0:
		return engine.NewSim(engine.NewJitterFrames(m.simJitter, 4*time.Millisecond, 40*time.Millisecond))
	case replaying:
		return engine.NewSim(engine.ConstantFrames(time.Second / time.Duration(tps)))
	}
	return engine.NewHeadless(60)
}

// run is Run's sequence, in its one order.
func run(g Game, o Options, sig *engine.Signals) (err error) {
	var f flags
	var m modes
	fs := flag.NewFlagSet(o.Name, flag.ContinueOnError) // a bad flag is an error (exit 1), not flag's exit 2
	fs.SetOutput(o.Stderr)
	f.register(fs)
	m.register(fs)
	runnerFlags := map[string]bool{}
	fs.VisitAll(func(fl *flag.Flag) { runnerFlags[fl.Name] = true })
	if c, ok := g.(Configurer); ok {
		c.Flags(fs)
	}
	if err := fs.Parse(o.Args); err != nil {
		return err // flag printed it with the usage; -h is flag.ErrHelp, exit 0
	}
	if f.Compare {
		return compare(fs.Args(), o.Stdout)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := f.check(engine.DefaultQualityLevels); err != nil {
		return err
	}
	if err := m.check(&f, o); err != nil {
		return err
	}
	if f.Net.Server != "" {
		m.headless = true // a server draws nothing
	}
	if err := checkFiles(&f, nil); err != nil { // before a file is read
		return err
	}
	sf, err := newSimFlags(fs, o.SimFlags, runnerFlags)
	if err != nil {
		return err
	}
	defer f.Net.release() // the socket -join or -connect opened, if startMatch did not take it
	hdr, err := settings(&f, sf, o, sig.Err)
	if err != nil {
		return err
	}
	inputs, err := configure(g, &o, &m, &f, hdr) // the game's own flags
	if err != nil {
		return err
	}
	if o.Params, err = sf.params(o.Params); err != nil {
		return err
	}
	if err := f.Net.agree(o); err != nil {
		return err
	}
	if err := checkFiles(&f, inputs); err != nil { // and against the game's inputs
		return err
	}
	players, err := f.players(o, hdr, sig.Err) // -players, the -join host's, the server's or a recording's
	if err != nil {
		return err
	}
	if players > o.MaxPlayers {
		return fmt.Errorf("%d players: %s seats at most %d", players, o.Name, o.MaxPlayers)
	}
	if f.Net.on() {
		f.Net.EndTick = m.ticks // -ticks ends the match on every peer
	}

	prof, err := f.Profile.Start()
	if err != nil {
		return err
	}
	started := false // the loop ran: a failed start keeps an earlier run's profiles
	defer func() {
		if err != nil && !started {
			prof.Discard()
			return
		}
		err = errors.Join(err, prof.Stop())
	}()
	if a := prof.Addr(); a != "" {
		fmt.Fprintf(o.Stderr, "%s: pprof at http://%s/debug/pprof/\n", o.Name, a)
	}
	if e, ok := g.(Employer); ok {
		w := f.newWorkers()
		defer w.Close() // after the loop's last tick
		e.Employ(w)
	}
	if s, ok := g.(Starter); ok {
		if err := s.Start(players); err != nil {
			return err
		}
	}

	p := newPlay(g, &f)
	if m.bot != 0 {
		p.bot, p.seed = o.Bot, m.bot
	}
	if !f.Net.on() {
		p.stopAt = m.ticks // netplay ends the match itself, on every peer
	}
	cfg := engine.Config{TPS: o.TPS, InputSize: o.InputSize, Players: players, ProfilePhases: prof.Active(), RuntimeStats: true}
	var platform engine.Platform
	if m.headless {
		platform = m.platform(o.TPS, f.Replay != "")
	} else {
		defer p.closeWindow() // last of all: after the session says goodbye
		if platform, err = p.openWindow(f.window(o.Window)); err != nil {
			return err
		}
	}
	np, err := f.startMatch(cfg, p, o.Params) // nil alone
	if err != nil {
		return err
	}
	defer np.close() // says goodbye to the others
	if p.loop, err = np.newLoop(cfg, platform, p); err != nil {
		return err
	}
	f.pin(p.loop)
	if err := f.startSyncTest(p.loop); err != nil {
		return err
	}
	rp, err := f.startReplay(p.loop, np, replay.Header{Params: o.Params})
	if err != nil {
		return fmt.Errorf("%s: %w", recordFlag(&f), err)
	}
	if a, ok := g.(Attacher); ok {
		var m netplay.Match // nil alone
		if np != nil {
			m = np.match
		}
		a.Attach(p.loop, m)
	}
	var host *hosting // Agones', for a -server in a game-server pod
	if np != nil && np.server != nil {
		if host, err = startHosting(np.server, o.Stderr, o.Name); err != nil {
			return err
		}
		p.onTick = host.tick
		fmt.Fprintf(o.Stderr, "%s: serving %d seats on %v\n", o.Name, np.match.Settings().Players, np.localAddr())
	}
	sig.Watch(p.loop) // a signal caught before now stops it after one frame
	started = true

	runErr := p.loop.Run(context.Background())
	err = end(rp, runErr)
	if left := leftErr(err); left != nil {
		fmt.Fprintf(o.Stderr, "%s: %s: the match is over\n", o.Name, describe(left))
		err = nil
	}
	if msg := p.finalShot(err); msg != "" { // before the game's Close: it draws
		fmt.Fprintf(o.Stderr, "%s: %s\n", o.Name, msg)
	}
	err = errors.Join(err, p.close())
	stats := "stats " + p.report()
	winStats, winErr := p.windowReport() // "" headless
	stats += winStats
	err = errors.Join(err, winErr)
	if r, ok := g.(Reporter); ok {
		stats += r.Report()
	}
	fmt.Fprintf(o.Stderr, "%s%s%s\n", stats, f.syncReport(p.loop), np.report())
	if s := rp.Report(); s != "" {
		fmt.Fprintln(o.Stderr, s)
	}
	var pe *engine.PanicError
	if rp.Replaying() && errors.As(err, &pe) && pe.Error() == rp.Player.EndMessage() {
		fmt.Fprintf(o.Stderr, "%s: replay reproduced the recorded crash: the same panic at the same tick\n", o.Name)
	}
	if err == nil && (m.ticks != 0 && p.ticks == m.ticks || rp.Replaying() || np.ended()) {
		fmt.Fprintf(o.Stdout, "state-hash=%016x\n", engine.StateHash(g.Save(nil)))
	}
	err = errors.Join(err, host.shutdown()) // the recording is written
	return errors.Join(err, p.shotErr)
}

// settings sets the game's simulation flags from the recording -replay
// plays (and returns its header), or from the server -connect or
// -spectate asks for its settings, before the game's Configure; a flag
// the server's settings change is said on Options.Stderr.
func settings(f *flags, sf *simFlags, o Options, stop func() error) (*replay.Header, error) {
	if f.Replay != "" {
		h, err := replay.ReadHeader(f.Replay)
		if err != nil {
			return nil, err
		}
		if _, err := sf.set(h.Params, "-replay "+f.Replay, false); err != nil {
			return nil, err
		}
		return &h, nil
	}
	if err := f.Net.probe(stop); err != nil {
		return nil, err
	}
	if f.Net.server == 0 {
		return nil, nil // no server: alone, a peer, or a host's spectator
	}
	changed, err := sf.set(f.Net.set.Params, "the server "+f.Net.Connect+f.Net.Spectate, true)
	if err != nil {
		return nil, err
	}
	for _, c := range changed {
		fmt.Fprintf(o.Stderr, "%s: the server's match has %s\n", o.Name, c)
	}
	return nil, nil
}

// report is the loop's part of the stats line, with ticks= the ticks the
// game's state ran: a -ticks run stops in the middle of its last frame,
// which the loop's figures do not count, and the loop of a netplay match
// counts the ticks its session stalled.
func (p *play) report() string {
	r := p.loop.Report()
	if n := p.loop.Stats().Ticks; p.ticks != n {
		r = strings.Replace(r, fmt.Sprintf(" ticks=%d ", n), fmt.Sprintf(" ticks=%d ", p.ticks), 1)
	}
	return r
}

// recordFlag names the flag of a recording that failed to start.
func recordFlag(f *flags) string {
	if f.Replay != "" {
		return "-replay"
	}
	return "-record"
}

// compare is -compare A B: the first tick whose input or state hash
// differs between two recordings of one run (replay.Compare).
func compare(args []string, stdout io.Writer) error {
	if len(args) != 2 {
		return errors.New("-compare takes two recordings: -compare a.fxr b.fxr")
	}
	same, err := replay.Compare(args[0], args[1])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "compare: %s\n", same)
	return nil
}

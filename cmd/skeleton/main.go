// Command skeleton is the smallest complete fixstep game: a window, a player
// box moved by the keys or a gamepad, a physics world, an interpolated draw,
// and every hook. With -host ADDR and -join ADDR two of them play over
// the network, a box each.
// Copy it to start your own: make new NAME=mygame.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/audio"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/netplay"
	"github.com/fixstep/fixstep/physics"
	"github.com/fixstep/fixstep/replay"
)

// Actions are what the game asks of the input; bindings map keys to them.
const (
	left input.Action = iota
	right
	jump
)

const bindings = `
left  = key:Left key:A axis:LeftX-/0.2 pad:DpadLeft
right = key:Right key:D axis:LeftX+/0.2 pad:DpadRight
jump  = key:Space key:Up pad:A
`

type game struct {
	win     *gfx.Window
	r       *gfx.Renderer
	keys    *input.State
	in      input.Actions
	world   physics.World
	players []physics.BodyID // one box per player: 2 with -host or -join
	loop    *engine.Loop
	flags   app.Flags // -frames, -screenshot, -quality, -vsync, -synctest, -record, -replay, -host, -join, profiling
	err     error     // a screenshot that failed, reported at exit
	sound   *audio.Mixer
	jump    audio.Sound
}

// sounds are the game's sound files, in the binary.
//
//go:embed jump.wav
var sounds embed.FS

// Begin runs once per frame, before the updates: frame-level logic.
func (g *game) Begin(f engine.Frame) error { return nil }

// Input turns the devices into the game's own input for one tick: two
// bytes, the run direction (-100 to 100) and a jump press. Update reads
// only this value, so -record and -replay (and netplay) run the same
// world whatever the devices or the window. Put derived values here too,
// such as the aim in world units, never window pixels.
func (g *game) Input(t engine.Tick, dst []byte) {
	dst[0] = byte(int8(100 * (g.in.Value(right) - g.in.Value(left))))
	if g.in.Pressed(jump) { // each press is seen by exactly one tick
		dst[1] = 1
	}
}

// Update runs at the fixed tick, the same dt every time: all simulation
// here, in portable arithmetic (see the README's Determinism section).
func (g *game) Update(t engine.Tick) error {
	if g.keys.Pressed(input.KeyEscape) {
		return engine.ErrStopped // a clean stop
	}
	for i, id := range g.players {
		in := t.Input.Player(i) // what Input made, what -replay read, or what the peer sent
		p := g.world.Body(id)
		p.Vel.X = float64(6*int8(in[0])) / 100
		if in[1] == 1 && p.Pos.Y < 0.51 {
			p.Vel.Y = 9
			if !t.Rerun { // a rerun after a rollback (-synctest, netplay) played it already
				g.sound.Play(g.jump, 0.8, 0) // sounds start here, at the tick, so replays hear them too
			}
		}
	}
	g.world.Step(t.DtSeconds())
	return nil
}

// Save appends the game's state to dst, for -synctest and rollback: the
// world is all of it here. Save what your Update changes.
func (g *game) Save(dst []byte) []byte { return g.world.Snapshot(dst) }

// Load puts back what Save wrote.
func (g *game) Load(src []byte) error { return g.world.Restore(src) }

// Diff names what differs between two saves, for -synctest's report.
func (g *game) Diff(a, b []byte) string { return physics.Diff(a, b) }

// Draw runs once per frame: draw between the last two ticks at f.Alpha.
func (g *game) Draw(f engine.Frame) {
	w, h := g.win.DrawableSize()
	g.r.BeginFrame(w, h, gfx.RGBA(0.1, 0.1, 0.15, 1))
	aspect := float32(w) / float32(max(h, 1))
	g.r.SetCamera(gfx.Camera2D{X: 8 * aspect, Y: 7, Width: 16 * aspect, Height: 16}.Matrix()) // 16 units tall, the floor at the bottom
	g.r.Rect(8*aspect, -0.5, 16*aspect, 1, 0, gfx.RGBA(0.4, 0.4, 0.45, 1))                    // the floor
	// The body between its last two ticks, at its angle (0 for an upright
	// player; any other body turns); float64 simulation, float32 drawing.
	for i, id := range g.players {
		b := g.world.Body(id)
		x, y := b.Lerp(f.Alpha).F32()
		g.r.Rect(x, y, 1, 1, float32(b.LerpAngle(f.Alpha)), colors[i])
	}
	g.r.EndFrame()
	if g.flags.Last(f.Index) && g.flags.Screenshot != "" {
		g.err = g.r.Screenshot(g.flags.Screenshot, w, h)
		g.loop.ExcludeFrame() // a screenshot allocates: not the steady state
	}
}

// colors are the players' boxes'.
var colors = []gfx.Color{gfx.RGBA(0.3, 0.9, 0.4, 1), gfx.RGBA(0.9, 0.5, 0.3, 1)}

// End runs after the frame is presented, with its stats (FPS, overruns).
func (g *game) End(s *engine.Stats) error {
	if g.flags.Done(s) {
		return engine.ErrStopped
	}
	return nil
}

// SuspendChanged runs when the window is minimized and restored.
func (g *game) SuspendChanged(on bool) { g.sound.Suspend(on) }

// QualityChanged runs once before the first frame with the starting quality
// level, then whenever the governor moves it (0 lowest).
func (g *game) QualityChanged(level int) {}

// signals makes Ctrl+C, SIGTERM and SIGHUP end the run like the close
// button, from the program's first moments (a package variable is set
// before main runs) to the last byte written; a second one exits at once.
var signals = engine.CatchSignals(func(s os.Signal) { os.Exit(engine.ExitCode(&engine.SignalError{Signal: s})) })

// main exits with engine.ExitCode's status: 0, 128+n after signal n (the
// run still ends cleanly), 2 after a panic (printed with its stack), 1.
func main() {
	log.SetFlags(0)
	log.SetPrefix(name + ": ")
	err := run(signals)
	if err == nil {
		err = signals.Err() // a signal during the shutdown
	}
	signals.Release() // everything is written
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return
	}
	var pe *engine.PanicError
	if errors.As(err, &pe) {
		log.Printf("%v\n%s", err, pe.Stack)
	} else {
		log.Print(err)
	}
	os.Exit(engine.ExitCode(err))
}

// name is the game's name: its window title and its messages' prefix.
const name = "skeleton"

func run(sig *engine.Signals) (err error) {
	g := &game{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError) // a bad flag is an error (exit 1), not flag's exit 2
	g.flags.Register(fs)
	if err := fs.Parse(os.Args[1:]); err != nil {
		return err // flag printed it with the usage; -h is flag.ErrHelp, exit 0
	}
	if err := g.flags.Check(engine.DefaultQualityLevels); err != nil {
		return err
	}
	session, err := g.flags.Profile.Start()
	if err != nil {
		return err
	}
	started := false // the loop ran: a failed start keeps an earlier run's profiles
	defer func() {
		if err != nil && !started {
			session.Discard()
			return
		}
		err = errors.Join(err, session.Stop())
	}()

	keys := &input.State{}
	win, err := gfx.NewWindow(g.flags.Window(gfx.WindowConfig{Title: name, Input: keys}))
	if err != nil {
		return err
	}
	defer win.Close()
	r, err := gfx.NewRenderer()
	if err != nil {
		return err
	}
	defer r.Close() // before the window: GL objects need the context
	if g.sound, err = audio.Open(audio.Config{}); err != nil {
		log.Print(err) // no audio device: the game plays on, silent
	}
	defer g.sound.Close()
	if g.jump, err = g.sound.LoadSound(sounds, "jump.wav"); err != nil {
		return err
	}
	defer g.jump.Free()

	names := map[string]input.Action{"left": left, "right": right, "jump": jump}
	b, err := input.ParseBindings(strings.NewReader(bindings), "bindings", names)
	if err != nil {
		return err
	}
	g.win, g.r, g.keys, g.in = win, r, keys, input.NewActions(keys, b)
	g.world.Gravity = physics.Vec2{Y: -20}
	if _, err := g.world.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{Y: -0.5}, HalfW: 1000, HalfH: 0.5}); err != nil {
		return err
	}
	players, err := g.flags.Players() // 2 with -host or -join, or a match's recording
	if err != nil {
		return err
	}
	for i := range players {
		id, err := g.world.Add(physics.Body{Shape: physics.Box, HalfW: 0.5, HalfH: 0.5, Pos: physics.Vec2{X: 4 + 3*float64(i), Y: 3},
			FixedRotation: true}) // a player stays upright; other bodies turn
		if err != nil {
			return err
		}
		g.players = append(g.players, id)
	}

	cfg := engine.Config{TPS: 60, InputSize: 2, Players: players, ProfilePhases: session.Active(), RuntimeStats: true}
	// -host ADDR, -join ADDR: nil without them, and the game runs alone.
	// The string names what the simulation depends on: peers must agree.
	np, err := g.flags.StartNetplay(cfg, g, name+" v1")
	if err != nil {
		return err
	}
	defer np.Close() // says goodbye to the peer
	if g.loop, err = np.NewLoop(cfg, win, g); err != nil {
		return err
	}
	g.flags.Pin(g.loop)
	if err := g.flags.StartSyncTest(g.loop, keys); err != nil { // -synctest N
		return err
	}
	// -record FILE, -replay FILE. The header holds what the simulation
	// depends on besides the input (a level, a seed): nothing here.
	rp, err := g.flags.StartReplay(g.loop, replay.Header{})
	if err != nil {
		return err
	}
	sig.Watch(g.loop) // a signal caught before now stops it after one frame
	started = true
	// However the run ends (a stop, a signal, a panic the loop recovered),
	// close and report; main turns the error into the exit status.
	err = g.loop.Run(context.Background())
	if left := (*netplay.DisconnectError)(nil); errors.As(err, &left) && left.Left {
		log.Print(err) // the other player quit: the game is over, not failed
		err = nil
	}
	if err = rp.Close(err); errors.Is(err, engine.ErrStopped) {
		err = nil
	}
	r.Close() // report the GL objects left: none
	fmt.Fprintf(os.Stdout, "stats %s %s%s%s\n", g.loop.Report(), gfx.Report(win, r), g.flags.SyncReport(g.loop), np.Report())
	if rp != nil {
		fmt.Fprintln(os.Stdout, rp.Report())
	}
	return errors.Join(err, g.err)
}

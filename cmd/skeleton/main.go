// Command skeleton is the smallest complete fixstep game: a player box moved by
// the keys or a gamepad in a physics world, drawn interpolated, and every hook;
// package app runs it in every mode (-headless, -ticks, -bot, -record, -host...).
// Copy it to start your own: make new NAME=mygame.
package main

import (
	"embed"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/audio"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/physics"
)

const name = "skeleton" // the game's name: its window title and its messages' prefix

// main hands the game to the runner; the exit status says how the run ended.
func main() {
	g := &game{sound: audio.Silent()} // silent until a window opens the device
	os.Exit(app.Main(g, app.Options{Name: name, InputSize: 2, MaxPlayers: len(colors), Bot: g.bot,
		Params: name + " v1", SimFlags: []string{"gravity"}, // what peers, a server's clients and replays agree on
		Window: gfx.WindowConfig{Input: &g.keys}}))
}

// Actions are what the game asks of the input; bindings map keys to them.
const left, right, jump input.Action = 0, 1, 2

const bindings = `
left  = key:Left key:A axis:LeftX-/0.2 pad:DpadLeft
right = key:Right key:D axis:LeftX+/0.2 pad:DpadRight
jump  = key:Space key:Up pad:A
`

type game struct {
	gravity float64     // -gravity: the simulation depends on it (SimFlags)
	keys    input.State // the devices: the window fills it
	in      input.Actions
	world   physics.World
	players []physics.BodyID // one box per player
	win     *gfx.Window      // nil headless
	r       *gfx.Renderer
	sound   *audio.Mixer
	jump    audio.Sound
}

//go:embed jump.wav
var sounds embed.FS // the game's sound files, in the binary

// Flags adds the game's own flags beside the runner's.
func (g *game) Flags(fs *flag.FlagSet) {
	fs.Float64Var(&g.gravity, "gravity", 20, "how fast the boxes fall, in m/s², 1 to 100")
}

// Configure checks them: the command line's, a recording's (-replay) or a server's
// (-connect): the runner sets a simulation flag from those, parsed, before this runs.
func (g *game) Configure(c *app.Config) error {
	if !(g.gravity >= 1 && g.gravity <= 100) {
		return fmt.Errorf("-gravity %v: want 1 to 100", g.gravity)
	}
	return nil
}

// Start builds the world for the run's players, before anything opens.
func (g *game) Start(players int) error {
	b, err := input.ParseBindings(strings.NewReader(bindings), "bindings", map[string]input.Action{"left": left, "right": right, "jump": jump})
	if err != nil {
		return err
	}
	g.in = input.NewActions(&g.keys, b)
	g.world.Gravity = physics.Vec2{Y: -g.gravity}
	if _, err := g.world.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{Y: -0.5}, HalfW: 1000, HalfH: 0.5}); err != nil {
		return err
	}
	for i := range players {
		id, err := g.world.Add(physics.Body{Shape: physics.Box, HalfW: 0.5, HalfH: 0.5, Pos: physics.Vec2{X: float64(4 + 3*i), Y: 3}, FixedRotation: true})
		if err != nil {
			return err
		}
		g.players = append(g.players, id)
	}
	g.world.Reserve(g.world.Len()) // from here on a step allocates nothing
	return nil
}

// Employ steps the world on the runner's workers (-workers): the same
// world on any number of them.
func (g *game) Employ(w *physics.Workers) { g.world.Workers = w }

// Open keeps the window and renderer and loads sounds; Close frees them (not headless).
func (g *game) Open(w *gfx.Window, r *gfx.Renderer) (err error) {
	g.win, g.r = w, r
	if g.sound, err = audio.Open(audio.Config{}); err != nil && !errors.Is(err, audio.ErrNoDevice) {
		return err // no device: the game plays on, silent
	}
	g.jump, err = g.sound.LoadSound(sounds, "jump.wav")
	return err
}

func (g *game) Close() error { g.jump.Free(); return g.sound.Close() }

// Begin runs once per frame, before the updates: device reads such as Escape.
func (g *game) Begin(f engine.Frame) error {
	if g.keys.Pressed(input.KeyEscape) {
		return engine.ErrStopped // a clean stop
	}
	return nil
}

// Input turns the devices into the tick's input, the run direction (-100 to 100)
// and a jump: what -record saves, -replay and -bot replace and netplay sends.
func (g *game) Input(t engine.Tick, dst []byte) {
	dst[0] = byte(int8(100 * (g.in.Value(right) - g.in.Value(left))))
	if g.in.Pressed(jump) { // each press is seen by exactly one tick
		dst[1] = 1
	}
}

// bot is -bot SEED's player: a new direction and maybe a jump every 30 ticks.
func (g *game) bot(seed uint64, t engine.Tick, dst []byte) {
	x := (seed + t.N/30) * 0x9e3779b97f4a7c15
	x ^= x >> 29
	dst[0], dst[1] = byte(int8(int(x%201)-100)), byte(x>>32&1)
}

// Update runs at the fixed tick: all simulation, portable arithmetic, t.Input only.
func (g *game) Update(t engine.Tick) error {
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

// Save, Load and Diff: what Update changes (the world), for -synctest, rollback, hashes.
func (g *game) Save(dst []byte) []byte  { return g.world.Snapshot(dst) }
func (g *game) Load(src []byte) error   { return g.world.Restore(src) }
func (g *game) Diff(a, b []byte) string { return physics.Diff(a, b) }

// Draw runs once per frame: draw between the last two ticks at f.Alpha. f.Local is the
// player this machine plays (-1 a spectator): drawing only, never the simulation's.
func (g *game) Draw(f engine.Frame) {
	w, h := g.win.DrawableSize()
	g.r.BeginFrame(w, h, gfx.RGBA(0.1, 0.1, 0.15, 1))
	aspect := float32(w) / float32(max(h, 1))
	g.r.SetCamera(gfx.Camera2D{X: 8 * aspect, Y: 7, Width: 16 * aspect, Height: 16}.Matrix()) // 16 units tall, the floor at the bottom
	g.r.Rect(8*aspect, -0.5, 16*aspect, 1, 0, gfx.RGBA(0.4, 0.4, 0.45, 1))                    // the floor
	for i, id := range g.players {
		b := g.world.Body(id)
		x, y := b.Lerp(f.Alpha).F32() // between the last two ticks; float64 simulation, float32 drawing
		g.r.Rect(x, y, 1, 1, float32(b.LerpAngle(f.Alpha)), colors[i])
		if i == f.Local && len(g.players) > 1 {
			g.r.Rect(x, y+1, 0.3, 0.3, 0.785398, colors[i]) // "you": a diamond above your box
		}
	}
	g.r.EndFrame()
}

var colors = []gfx.Color{gfx.RGBA(0.3, 0.9, 0.4, 1), gfx.RGBA(0.9, 0.5, 0.3, 1), gfx.RGBA(0.4, 0.6, 1, 1), gfx.RGBA(0.9, 0.8, 0.3, 1)} // the players' boxes': up to 4 (-host ADDR -players 4)

func (g *game) SuspendChanged(on bool) { g.sound.Suspend(on) } // the window was minimized or restored

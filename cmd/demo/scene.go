package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/fixstep/fixstep/audio"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/gfx"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/physics"
)

// The demo's actions: game code asks for these, never for keys.
const (
	actLeft input.Action = iota
	actRight
	actJump
	numActions
)

var actionNames = [numActions]string{"left", "right", "jump"}

// defaultBindings is the demo's bindings file, in input.ParseBindings form.
const defaultBindings = `
left  = key:Left key:A axis:LeftX-/0.25 pad:DpadLeft
right = key:Right key:D axis:LeftX+/0.25 pad:DpadRight
jump  = key:Space key:W key:Up pad:A
`

// Arena size in world units (metres); the camera shows all of it.
const (
	arenaW = 32.0
	arenaH = 18.0
)

// scene is the demo's simulation: a physics world of bouncing boxes and
// balls, a player box driven by input, the seed's oscillating box and a
// rotating cube. It holds no GL object, so it runs headless too.
type scene struct {
	world    physics.World
	in       input.Actions
	player   physics.BodyID
	osc      physics.BodyID
	first    int // Bodies index of the first bouncing body
	cube     gfx.Interpolated[gfx.Transform]
	grounded bool
	rng      *rand.Rand // kicks; seeded, so runs repeat exactly
	fx       *rand.Rand // debris: its own stream, so the quality level never changes the simulation

	// For the overlay: the last action edges the player made.
	lastEdge string

	// Recording and replaying (both optional): the state the actions read,
	// and the recording it goes to (with a hash every hashEvery ticks) or
	// the player it comes from.
	keys     *input.State
	recorder *input.ReplayWriter
	replayer *input.Player

	// panicAt makes Update panic at that tick (-panic-at, to try crash
	// reproduction); 0 never.
	panicAt int64

	// Sound: bounces played from the contact events inside Update, so a
	// replay or a headless run triggers the same ones (a silent mixer
	// counts them). At most maxSoundsPerTick a tick.
	sound     *audio.Mixer
	bounce    audio.Sound
	tickSound int

	debris debris // visual only: not in the world or its hash
}

// hashEvery is how often a recording stores the state hash, in ticks.
const hashEvery = 60

func newScene(n int, seed uint64, in input.Actions) (*scene, error) {
	s := &scene{in: in}
	w := &s.world
	w.Gravity = physics.Vec2{Y: -20}
	walls := []physics.Body{
		{Pos: physics.Vec2{X: arenaW / 2, Y: -0.5}, HalfW: arenaW/2 + 1, HalfH: 0.5},
		{Pos: physics.Vec2{X: arenaW / 2, Y: arenaH + 0.5}, HalfW: arenaW/2 + 1, HalfH: 0.5},
		{Pos: physics.Vec2{X: -0.5, Y: arenaH / 2}, HalfW: 0.5, HalfH: arenaH / 2},
		{Pos: physics.Vec2{X: arenaW + 0.5, Y: arenaH / 2}, HalfW: 0.5, HalfH: arenaH / 2},
		{Pos: physics.Vec2{X: arenaW * 0.3, Y: arenaH * 0.35}, HalfW: 3, HalfH: 0.2}, // a ledge
	}
	for _, b := range walls {
		b.Kind, b.Shape, b.Friction = physics.Static, physics.Box, 0.6
		if _, err := w.Add(b); err != nil {
			return nil, err
		}
	}
	var err error
	if s.player, err = w.Add(physics.Body{Shape: physics.Box, HalfW: 0.6, HalfH: 0.6,
		Pos: physics.Vec2{X: arenaW * 0.3, Y: arenaH*0.35 + 1}, Mass: 4, Friction: 0.8, Tag: tagPlayer}); err != nil {
		return nil, err
	}
	if s.osc, err = w.Add(physics.Body{Kind: physics.Kinematic, Shape: physics.Box, HalfW: 1.2, HalfH: 0.3,
		Pos: physics.Vec2{X: arenaW * 0.7, Y: arenaH * 0.5}, Friction: 0.5, Tag: tagOscillator}); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, seed+1))
	s.rng = rand.New(rand.NewPCG(seed, seed+2))
	s.fx = rand.New(rand.NewPCG(seed, seed+3))
	s.first = w.Len()
	for i := range n {
		b := physics.Body{
			Shape:       physics.Shape(i % 2),
			Pos:         physics.Vec2{X: 1 + r.Float64()*(arenaW-2), Y: arenaH*0.4 + r.Float64()*arenaH*0.55},
			Vel:         physics.Vec2{X: r.Float64()*10 - 5, Y: r.Float64() * 5},
			Restitution: 0.5 + 0.45*r.Float64(),
			Friction:    0.2,
			Tag:         int32(i),
		}
		size := 0.15 + 0.2*r.Float64()
		b.Radius, b.HalfW, b.HalfH = size, size, size
		if _, err := w.Add(b); err != nil {
			return nil, err
		}
	}
	s.cube.Teleport(gfx.Identity())
	s.debris.limit = maxDebris
	w.Listener = s
	return s, nil
}

// Tags for the bodies that are not bouncers.
const (
	tagPlayer     = -1
	tagOscillator = -2
)

// Update runs one fixed tick: input, the oscillator, physics, the cube.
func (s *scene) Update(t engine.Tick) error {
	switch {
	case s.recorder != nil:
		s.recorder.Tick(s.keys)
	case s.replayer != nil:
		if err := s.replayer.Tick(s.keys); err != nil {
			return err
		}
	}
	if s.panicAt > 0 && t.N == uint64(s.panicAt) {
		panic(fmt.Sprintf("demo: -panic-at %d", t.N))
	}
	dt := t.DtSeconds()
	s.tickSound = 0
	p := s.world.Body(s.player)
	move := float64(s.in.Value(actRight)) - float64(s.in.Value(actLeft))
	p.Vel.X = 8 * move
	if s.in.Pressed(actJump) {
		s.lastEdge = "jump pressed"
		if s.grounded {
			p.Vel.Y = 11
		}
	}
	if s.in.Released(actJump) {
		s.lastEdge = "jump released"
	}

	// The seed's oscillating box: 0.5 Hz, 3 m amplitude, moved by velocity
	// so that it pushes what it touches.
	o := s.world.Body(s.osc)
	game := float64(t.Time+t.Dt) / 1e9
	target := arenaW*0.7 + 3*math.Sin(math.Pi*game)
	o.Vel = physics.Vec2{X: (target - o.Pos.X) / dt}

	// Every three seconds a random half of the bouncers get kicked up, so
	// the scene never settles.
	if t.N > 0 && t.EveryN(uint64(math.Round(3/dt))) {
		bodies := s.world.Bodies()
		for i := s.first; i < len(bodies); i++ {
			if s.rng.IntN(2) == 0 {
				bodies[i].Vel.Y += 6 + 8*s.rng.Float64()
				bodies[i].Vel.X += 4*s.rng.Float64() - 2
			}
		}
	}

	s.world.Step(dt)
	s.grounded = s.onGround()
	s.stepDebris(dt)

	// The cube turns a quarter turn per second about a tilted axis.
	c := s.cube.Current()
	c.Rot = mgl32.QuatRotate(float32(math.Pi/2*dt), mgl32.Vec3{0.3, 1, 0.2}.Normalize()).Mul(c.Rot).Normalize()
	s.cube.Set(c)

	if s.recorder != nil && s.world.Ticks()%hashEvery == 0 {
		s.recorder.Hash(s.world.Ticks(), s.Hash())
	}
	return nil
}

// onGround reports whether the player rests on something below it: a
// touching contact whose normal points up from it to the player.
func (s *scene) onGround() bool {
	for _, c := range s.world.Contacts() {
		switch {
		case !c.Touching:
		case c.B == s.player && c.Normal.Y > 0.7, c.A == s.player && c.Normal.Y < -0.7:
			return true
		}
	}
	return false
}

// Hash is the simulation's state hash, for determinism checks.
func (s *scene) Hash() uint64 { return s.world.Hash() }

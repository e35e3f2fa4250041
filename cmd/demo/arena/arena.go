// Package arena is the demo's simulation: a physics world of bouncing
// boxes and balls, a player box driven by input, the oscillating box and
// the debris of hard impacts. It imports no cgo package, so it runs
// headless, in a replay, under a sync test, and cross-compiled to every
// CPU the determinism check runs on (tools/worldhash): the demo's window
// (cmd/demo) only draws it and plays its sounds.
//
// Everything in Update is portable arithmetic (see the detmath package):
// the same input gives the same world, bit for bit, on every build.
//
//fixvet:sim
package arena

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/fixstep/fixstep/detmath"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/physics"
	"github.com/fixstep/fixstep/save"
)

// The demo's actions: game code asks for these, never for keys.
const (
	Left input.Action = iota
	Right
	Jump
	NumActions
)

// ActionNames are the actions' names in a bindings file.
var ActionNames = [NumActions]string{"left", "right", "jump"}

// DefaultBindings is the demo's bindings file, in input.ParseBindings form.
const DefaultBindings = `
left  = key:Left key:A axis:LeftX-/0.25 pad:DpadLeft
right = key:Right key:D axis:LeftX+/0.25 pad:DpadRight
jump  = key:Space key:W key:Up pad:A
`

// ParseBindings reads a bindings file of the demo's actions (the built-in
// ones: strings.NewReader(DefaultBindings)); name is the file's name in
// errors.
func ParseBindings(r io.Reader, name string) (*input.Bindings, error) {
	names := make(map[string]input.Action, NumActions)
	for a, n := range ActionNames {
		names[n] = input.Action(a)
	}
	return input.ParseBindings(r, name, names)
}

// Arena size in world units (metres); the camera shows all of it.
const (
	Width  = 32.0
	Height = 18.0
)

// Tags of the bodies that are not bouncers (bouncers are tagged 0..n-1):
// player 1's box is TagPlayer, player i's PlayerTag(i).
const (
	TagPlayer     = -1
	TagOscillator = -2
)

// MaxPlayers is the most players a scene holds (netplay's limit).
const MaxPlayers = 4

// PlayerTag returns the tag of player i's box (0-based): TagPlayer, -11,
// -21, -31.
func PlayerTag(i int) int32 { return TagPlayer - 10*int32(i) }

// PlayerOf returns the player (0-based) whose box has tag, or -1.
func PlayerOf(tag int32) int {
	if tag > TagPlayer || (TagPlayer-tag)%10 != 0 || (TagPlayer-tag)/10 >= MaxPlayers {
		return -1
	}
	return int((TagPlayer - tag) / 10)
}

// InputSize is the size of a player's per-tick input value, the demo's
// own (engine.Inputter): byte 0 the move, -100 (left) to 100 (right), as
// an int8; byte 1 bit 0 set while jump is held. A jump starts on the tick
// that sets the bit, so a press is a change of the value, which netplay
// sends and a replay stores, and a predicted input (the last one
// repeated) never presses again.
const InputSize = 2

// Jump bit in byte 1 of the input value.
const inJump = 1

// MaxSoundsPerTick bounds the bounces heard in one tick: a heap that lands
// at once is one clatter, not a hundred voices.
const MaxSoundsPerTick = 3

// State is what the scene's Update changes, all of it, and so all that
// Save saves (with package save: the world first, whose snapshot Load
// checks before anything else).
type State struct {
	// World holds every body: the walls, the players' boxes, the
	// oscillator and the bouncers.
	World physics.World
	// Player and Osc are the first player's box and the oscillating box;
	// Players holds every player's box, Player first.
	Player, Osc physics.BodyID
	Players     []physics.BodyID `save:"max=4"`
	// Grounded says whether each player stood on something after the last
	// tick: it may jump.
	Grounded [MaxPlayers]bool
	held     [MaxPlayers]bool // each player's jump bit at the last tick
	kicks    *rand.PCG        // the kicks' generator: seeded, so runs repeat exactly
}

// state is the scene's codec: Save, Load and Diff.
var state = save.MustFor[State]()

// Scene is the demo's world and the state of its game. Its zero value is
// not usable: make one with New.
type Scene struct {
	State
	// In is the input the scene reads: the demo's actions.
	In input.Actions
	// First is the Bodies index of the first bouncer.
	First int
	// LastEdge is the last action edge the local player made, for the
	// overlay.
	LastEdge string
	// Bot, when not zero, makes this machine's input come from a seeded
	// generator (BotInput) instead of the devices: -bot SEED, for tests and
	// soak runs.
	Bot uint64

	// PanicAt makes Update panic at that tick (-panic-at, to try crash
	// reproduction); 0 never.
	PanicAt int64

	// Bounce, when set, plays a bounce at volume (0 to 1) and pan (-1 left
	// to 1 right). The scene calls it from the contact events inside
	// Update, at most MaxSoundsPerTick a tick, never on a rerun, so a
	// replay or a headless run triggers the same ones.
	Bounce func(volume, pan float32)

	// Debris is visual only: not in the world, its hash or Save.
	Debris Debris

	rng       *rand.Rand // over State's kicks
	fx        *rand.Rand // debris: its own stream, so quality never changes the world
	tickSound int
	rerun     bool // the tick being run is a rerun (engine.Tick.Rerun)
}

// New makes a scene of one player: NewMatch(n, seed, 1, in).
func New(n int, seed uint64, in input.Actions) (*Scene, error) { return NewMatch(n, seed, 1, in) }

// NewMatch makes the scene: the walls and a ledge, a box per player (1 to
// MaxPlayers), the oscillator and n bouncers placed by seed. in is this
// machine's actions: its player's input (Input).
func NewMatch(n int, seed uint64, players int, in input.Actions) (*Scene, error) {
	if players < 1 || players > MaxPlayers {
		return nil, fmt.Errorf("arena: %d players, want 1 to %d", players, MaxPlayers)
	}
	s := &Scene{In: in}
	w := &s.World
	w.Reserve(n + 7 + players) // the walls, the ledge, the ramp, the players, the oscillator and n: steps allocate nothing, pile-ups included
	w.Gravity = physics.Vec2{Y: -20}
	walls := []physics.Body{
		{Pos: physics.Vec2{X: Width / 2, Y: -0.5}, HalfW: Width/2 + 1, HalfH: 0.5},
		{Pos: physics.Vec2{X: Width / 2, Y: Height + 0.5}, HalfW: Width/2 + 1, HalfH: 0.5},
		{Pos: physics.Vec2{X: -0.5, Y: Height / 2}, HalfW: 0.5, HalfH: Height / 2},
		{Pos: physics.Vec2{X: Width + 0.5, Y: Height / 2}, HalfW: 0.5, HalfH: Height / 2},
		{Pos: physics.Vec2{X: Width * 0.3, Y: Height * 0.35}, HalfW: 3, HalfH: 0.2}, // a ledge
		// A ramp down to the right wall, 0.35 rad (20°): the balls roll
		// down it, the boxes tumble.
		{Pos: physics.Vec2{X: Width * 0.82, Y: Height * 0.28}, HalfW: 3.5, HalfH: 0.2, Angle: -0.35},
	}
	for _, b := range walls {
		b.Kind, b.Shape, b.Friction = physics.Static, physics.Box, 0.6
		if _, err := w.Add(b); err != nil {
			return nil, err
		}
	}
	for i := range players {
		id, err := w.Add(physics.Body{Shape: physics.Box, HalfW: 0.6, HalfH: 0.6,
			Pos: physics.Vec2{X: Width*0.3 + float64(2*i), Y: Height*0.35 + 1}, Mass: 4, Friction: 0.8, Tag: PlayerTag(i),
			FixedRotation: true}) // a platformer's player stays upright
		if err != nil {
			return nil, err
		}
		s.Players = append(s.Players, id)
	}
	s.Player = s.Players[0]
	var err error
	if s.Osc, err = w.Add(physics.Body{Kind: physics.Kinematic, Shape: physics.Box, HalfW: 1.2, HalfH: 0.3,
		Pos: physics.Vec2{X: Width * 0.7, Y: Height * 0.5}, Friction: 0.5, Tag: TagOscillator}); err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, seed+1))
	s.kicks = rand.NewPCG(seed, seed+2)
	s.rng = rand.New(s.kicks)
	s.fx = rand.New(rand.NewPCG(seed, seed+3))
	s.First = w.Len()
	// Every product that is added to is rounded: float64(a*b) + c cannot
	// be fused into a multiply-add on any build (see package detmath).
	for i := range n {
		b := physics.Body{
			Shape: physics.Shape(i % 3), // circles, boxes and hexagons
			Pos: physics.Vec2{X: 1 + float64(r.Float64()*(Width-2)),
				Y: Height*0.4 + float64(float64(r.Float64()*Height)*0.55)},
			Vel:         physics.Vec2{X: float64(r.Float64()*10) - 5, Y: r.Float64() * 5},
			Restitution: 0.5 + float64(0.45*r.Float64()),
			Friction:    0.2,
			Tag:         int32(i),
		}
		size := 0.15 + float64(0.2*r.Float64())
		b.Radius, b.HalfW, b.HalfH = size, size, size
		if b.Shape == physics.Polygon {
			h, err := hexagon(size)
			if err != nil {
				return nil, err
			}
			b.Hull = h
		}
		if _, err := w.Add(b); err != nil {
			return nil, err
		}
	}
	s.Debris.Limit = MaxDebris
	w.Listener = s
	return s, nil
}

// hexagon returns a regular hexagon of circumradius r, a corner on +x.
// Its corners are exact functions of r (√3 is a square root), so it is
// the same hull on every build.
func hexagon(r float64) (*physics.Hull, error) {
	x, y := r/2, float64(r*math.Sqrt(3))/2
	return physics.NewHull(physics.Vec2{X: r}, physics.Vec2{X: x, Y: y}, physics.Vec2{X: -x, Y: y},
		physics.Vec2{X: -r}, physics.Vec2{X: -x, Y: -y}, physics.Vec2{X: x, Y: -y})
}

// Input makes this machine's player's input value for tick t (see
// InputSize) from its actions, or from the bot (Bot): the scene is an
// engine.Inputter, and its loop must have Config.InputSize = InputSize.
// It is the only place the scene reads a device.
func (s *Scene) Input(t engine.Tick, dst []byte) {
	if s.Bot != 0 {
		BotInput(s.Bot, t.N, dst)
		return
	}
	move := float32(s.In.Value(Right)) - float32(s.In.Value(Left))
	dst[0] = byte(int8(move * 100))
	if s.In.Down(Jump) || s.In.Pressed(Jump) { // a tap within one tick still jumps
		dst[1] |= inJump
	}
	switch {
	case t.Rerun:
	case s.In.Pressed(Jump):
		s.LastEdge = "jump pressed"
	case s.In.Released(Jump):
		s.LastEdge = "jump released"
	}
}

// BotInput writes the bot's input of tick n, from seed: a move held for a
// quarter to one second, a jump now and then. It depends on the tick
// alone, like a player's hands, not on the world.
func BotInput(seed, n uint64, dst []byte) {
	span := n / 15 // a decision every quarter second at 60 TPS
	h := (seed ^ span*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	h ^= h >> 31
	if h>>8&3 != 0 { // three decisions in four keep the last move, so moves last longer
		prev := (seed ^ (span-min(span, h>>8&3))*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
		h = prev ^ prev>>31
	}
	dst[0] = byte(int8(int(h%201) - 100))
	if h>>16%4 == 0 && n%15 < 6 {
		dst[1] |= inJump
	}
}

// Update runs one fixed tick: every player's input, the oscillator, the
// kicks, physics. It reads only the tick's input (t.Input, InputSize bytes
// per player), never a device, so a replay, a sync test's rerun and a
// netplay rollback run it the same.
func (s *Scene) Update(t engine.Tick) error {
	s.rerun = t.Rerun
	in := t.Input
	if s.PanicAt > 0 && t.N == uint64(s.PanicAt) {
		panic(fmt.Sprintf("demo: -panic-at %d", t.N)) // after the input: the recording holds this tick
	}
	dt := t.DtSeconds()
	s.tickSound = 0
	if in.Players() != len(s.Players) || in.Size() != InputSize {
		return fmt.Errorf("arena: tick %d has %d inputs of %d bytes, the scene %d players of %d", t.N, in.Players(), in.Size(), len(s.Players), InputSize)
	}
	for i, id := range s.Players {
		v := in.Player(i)
		p := s.World.Body(id)
		p.Vel.X = float64(8*float64(int8(v[0]))) / 100
		held := v[1]&inJump != 0
		if held && !s.held[i] && s.Grounded[i] {
			p.Vel.Y = 11
		}
		s.held[i] = held
	}

	// The oscillating box: 0.5 Hz, 3 m amplitude, moved by velocity so
	// that it pushes what it touches.
	o := s.World.Body(s.Osc)
	game := float64(t.Time+t.Dt) / 1e9
	target := Width*0.7 + float64(3*detmath.Sin(float64(math.Pi*game)))
	o.Vel = physics.Vec2{X: (target - o.Pos.X) / dt}

	// Every three seconds a random half of the bouncers get kicked up, so
	// the scene never settles.
	if t.N > 0 && t.EveryN(uint64(math.Round(3/dt))) {
		bodies := s.World.Bodies()
		for i := s.First; i < len(bodies); i++ {
			if s.rng.IntN(2) == 0 {
				bodies[i].Vel.Y += 6 + float64(8*s.rng.Float64())
				bodies[i].Vel.X += float64(4*s.rng.Float64()) - 2
			}
		}
	}

	s.World.Step(dt)
	s.onGround()
	s.Debris.step(dt)
	return nil
}

// onGround sets Grounded: whether each player rests on something below
// it, a touching contact whose normal points up from it to the player.
func (s *Scene) onGround() {
	s.Grounded = [MaxPlayers]bool{}
	for _, c := range s.World.Contacts() {
		if !c.Touching {
			continue
		}
		for i, id := range s.Players {
			if c.B == id && c.Normal.Y > 0.7 || c.A == id && c.Normal.Y < -0.7 {
				s.Grounded[i] = true
			}
		}
	}
}

// BeginContact plays a bounce and throws debris where a fast bouncer hits
// something: the scene is the world's ContactListener.
func (s *Scene) BeginContact(c *physics.Contact) {
	if s.rerun {
		return // it did all this the first time
	}
	s.bounceSound(c)
	if s.Debris.Limit == 0 {
		return
	}
	for _, id := range [2]physics.BodyID{c.A, c.B} {
		body := s.World.Body(id)
		if body.Kind != physics.Dynamic || body.Tag < 0 || body.Vel.Len() < 6 {
			continue
		}
		for range 4 {
			s.Debris.add(Particle{Pos: body.Pos, Prev: body.Pos, Life: 40, Tag: body.Tag,
				Vel: physics.Vec2{X: float64(s.fx.Float64()*8) - 4, Y: s.fx.Float64() * 6}})
		}
	}
}

// bounceSound plays a bounce for a contact that begins hard enough: louder
// for a larger impulse (mass times the speed change), panned to where it
// happened.
func (s *Scene) bounceSound(c *physics.Contact) {
	if s.Bounce == nil || s.tickSound >= MaxSoundsPerTick || c.Impulse < 1 {
		return
	}
	s.tickSound++
	s.Bounce(float32(min(c.Impulse/8, 1)), float32(float64(2*c.Point.X/Width)-1))
}

// EndContact does nothing.
func (s *Scene) EndContact(a, b physics.BodyID) {}

// Save appends the scene's state (State, with package save) to dst. With
// room in dst it allocates nothing. The debris, the overlay's text and
// the cube are left out: they never feed the next tick.
func (s *Scene) Save(dst []byte) []byte { return state.Append(dst, &s.State) }

// Load puts back a state Save wrote, or returns an error and changes
// nothing: a state of another layout, a damaged one, a world its
// snapshot refuses.
func (s *Scene) Load(src []byte) error { return state.Load(src, &s.State) }

// Diff describes the first difference between two saved scenes, by field
// ("World: body 17 (tag 5) Vel.X: ...", "Grounded[1]: false != true"),
// for a sync test's report.
func (s *Scene) Diff(a, b []byte) string { return state.Diff(a, b) }

// Package scope checks what fixvet counts as simulation code.
package scope

import (
	"math"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/physics"
)

type game struct {
	world   physics.World
	players []physics.BodyID
	x, v, k float64
	cam     float64
}

// The game's hooks all simulate.

func (g *game) Update(t engine.Tick) error {
	g.step(t.DtSeconds())
	f := g.byValue
	f()
	var s stepper = &ball{}
	s.step(1)
	g.both()
	return nil
}

func (g *game) Input(t engine.Tick, dst []byte) {
	dst[0] = byte(g.x*g.k + 1) // want `float product added`
}

func (g *game) Start(players int) error {
	g.x = g.v*g.k + 1 // want `float product added`
	return nil
}

func (g *game) Save(dst []byte) []byte {
	g.x = g.v*g.k + 2 // want `float product added`
	return dst
}

func (g *game) Load(src []byte) error {
	g.x = g.v*g.k + 3 // want `float product added`
	return nil
}

func (g *game) BeginContact(c *physics.Contact) {
	g.x = g.v*g.k + 4 // want `float product added`
}

func (g *game) EndContact(a, b physics.BodyID) {
	g.x = g.v*g.k + 5 // want `float product added`
}

// What they reach: a static call, a method value, an interface's methods.

func (g *game) step(dt float64) { g.x += g.v * dt } // want `float product added`

func (g *game) byValue() { g.x = g.v*g.k - 1 } // want `float product added`

type stepper interface{ step(dt float64) }

type ball struct{ y, vy float64 }

func (b *ball) step(dt float64) { b.y += b.vy * dt } // want `float product added`

// both is reached from Update and from Draw: it simulates.
func (g *game) both() { g.x = g.x*g.x + g.k } // want `float product added`

// Set-up and code that changes a physics world, wherever it is called
// from: the scene.

func newWorld(r float64) *physics.World {
	w := new(physics.World)
	w.Add(physics.Body{Pos: physics.Vec2{X: 1 + 30*r}}) // want `float product added`
	return w
}

func push(w *physics.World, id physics.BodyID, r float64) {
	w.ApplyImpulse(id, physics.Vec2{X: 6*r - 3, Y: 0.1 + 0.2*r}) // want `float product added` `float product added`
}

func body(r float64) physics.Body {
	return physics.Body{Radius: 0.5 + r*r} // want `float product added`
}

func kick(b *physics.Body, r float64) {
	b.Vel.X = b.Vel.X*r + 1 // want `float product added`
}

// sim is marked.
//
//fixvet:sim
func sim(a, b float64) float64 { return a*b + 1 } // want `float product added`

// Not simulating: drawing, what only Draw reaches, reading a world, an
// Input on a type that is no game, code nothing simulating reaches.

func (g *game) Draw(f engine.Frame) { // want Draw:`findings\(5\)`
	g.cam = g.cam*0.9 + g.x*0.1
	g.drawHelper(f.Alpha)
	g.shadow()
	g.both()
	_ = math.Sin(g.cam)
}

func (g *game) drawHelper(alpha float64) float64 {
	b := g.world.Body(g.players[0])
	return b.Pos.X + b.Vel.X*alpha
}

// shadow changes a copy of a body, for drawing: not the world.
func (g *game) shadow() physics.Vec2 {
	b := *g.world.Body(g.players[0])
	b.Pos.X += b.Radius*0.5 + 0.1
	b.Pos.Y = b.Pos.Y*0.5 - 1
	return b.Pos
}

// employ sets the pool that steps a world: no part of the world, so this
// is no set-up that simulates.
func employ(w *physics.World, p *physics.Workers, k float64) float64 {
	w.Workers = p
	w.Workers.MinBodies = 1
	return k*k + 1
}

func camera(w *physics.World, id physics.BodyID) float64 {
	hits := w.QueryPoint(w.Body(id).Pos, nil)
	return float64(len(hits))*2.5 + w.Body(id).Pos.X
}

type recorder struct{ gain float64 }

func (r *recorder) Input(t engine.Tick, dst []byte) { // want Input:`findings\(1\)`
	dst[0] = byte(r.gain*100 + 0.5)
}

func unused(a, b float64) float64 { return a*b + 1 }

// A bot decides the input of a -bot run, which a cross-build check
// compares: a function of app.Options.Bot's signature simulates, a method
// or a literal.

func (g *game) bot(seed uint64, t engine.Tick, dst []byte) {
	dst[0] = byte(float64(seed)*0.5 + g.k) // want `float product added`
}

type options struct {
	Bot   func(seed uint64, t engine.Tick, dst []byte)
	Scale float64
}

func newOptions(k float64) options {
	return options{
		Scale: k*k + 1, // main's own arithmetic: not simulation
		Bot: func(seed uint64, t engine.Tick, dst []byte) {
			dst[0] = byte(float64(t.N)*k + 1) // want `float product added`
		},
	}
}

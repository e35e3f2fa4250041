package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/fixstep/fixstep/cmd/demo/arena"
	"github.com/fixstep/fixstep/detmath"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/internal/fnv"
	"github.com/fixstep/fixstep/physics"
)

// A scene is a simulation run from a fixed start; its result is a hash of
// the world it ends with (and of the snapshot bytes, which are a portable
// format: the same on big-endian CPUs).
type scene struct {
	name string
	run  func(p *physics.Workers) (uint64, error)
}

var scenes = []scene{
	{"detmath", func(*physics.Workers) (uint64, error) { return detmath.Golden(), nil }},
	{"game", game},
	{"pile", pile},
	{"fast", fast},
	{"spin", spin},
	{"drag", drag},
	{"demo", demo},
}

const dt = 1.0 / 60

// worldHash is the world's own hash mixed with its snapshot's bytes.
func worldHash(w *physics.World) uint64 {
	return fnv.Bytes(fnv.Uint64(fnv.Offset, w.Hash()), w.Snapshot(nil))
}

// game is a game's own scene through the public API: 400 boxes and
// circles of random sizes, masses and materials in a walled room with
// ledges, a random half kicked every 3 s, for 600 ticks.
func game(p *physics.Workers) (uint64, error) {
	w := &physics.World{Gravity: physics.Vec2{Y: -9.8}, Workers: p}
	for _, b := range []physics.Body{
		{Pos: physics.Vec2{X: 20, Y: -1}, HalfW: 22, HalfH: 1}, {Pos: physics.Vec2{X: -1, Y: 15}, HalfW: 1, HalfH: 16},
		{Pos: physics.Vec2{X: 41, Y: 15}, HalfW: 1, HalfH: 16}, {Pos: physics.Vec2{X: 12, Y: 8}, HalfW: 5, HalfH: 0.3},
		{Pos: physics.Vec2{X: 28, Y: 12}, HalfW: 5, HalfH: 0.3},
	} {
		b.Kind, b.Shape, b.Friction, b.Restitution = physics.Static, physics.Box, 0.5, 0.2
		if _, err := w.Add(b); err != nil {
			return 0, err
		}
	}
	r := rand.New(rand.NewPCG(19, 20))
	for i := range 400 {
		size := 0.2 + float64(0.3*r.Float64())
		b := physics.Body{Shape: physics.Shape(i % 2), Radius: size, HalfW: size, HalfH: float64(size * 0.7),
			Pos:  physics.Vec2{X: 1 + float64(38*r.Float64()), Y: 2 + float64(25*r.Float64())},
			Vel:  physics.Vec2{X: float64(8*r.Float64()) - 4, Y: float64(4 * r.Float64())},
			Mass: 0.5 + float64(2*r.Float64()), Restitution: float64(0.6 * r.Float64()), Friction: 0.3}
		if _, err := w.Add(b); err != nil {
			return 0, err
		}
	}
	for tick := range 600 {
		if tick > 0 && tick%180 == 0 {
			for i := 5; i < w.Len(); i++ {
				if r.IntN(2) == 0 {
					w.ApplyImpulse(w.ID(i), physics.Vec2{X: float64(4*r.Float64()) - 2, Y: 4 + float64(6*r.Float64())})
				}
			}
		}
		w.Step(dt)
	}
	return worldHash(w), nil
}

// drag is a top-down arena (no gravity): 120 pucks and crates with
// linear and angular damping, some upright (FixedRotation, the upright
// solver's once-a-tick damping alongside the soft step's per sub-step),
// kicked by a seeded generator every half second, slowing between kicks;
// a snapshot restored midway into another world that finishes the run.
func drag(p *physics.Workers) (uint64, error) {
	w := &physics.World{Workers: p}
	for _, b := range [][4]float64{{0, -16, 16, 1}, {0, 16, 16, 1}, {-16, 0, 1, 16}, {16, 0, 1, 16}} {
		if _, err := w.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{X: b[0], Y: b[1]}, HalfW: b[2], HalfH: b[3]}); err != nil {
			return 0, err
		}
	}
	var ids []physics.BodyID
	for i := range 120 {
		b := physics.Body{Shape: physics.Shape(i % 2), Radius: 0.4, HalfW: 0.5, HalfH: 0.3,
			Pos:           physics.Vec2{X: float64(float64(i%12)*2.5) - 13.75, Y: float64(float64(i/12)*2.5) - 11.25},
			LinearDamping: float64(float64(i%5)*0.75) + 0.25, AngularDamping: float64(i % 3),
			FixedRotation: i%4 == 0, Friction: 0.3, Restitution: 0.2}
		id, err := w.Add(b)
		if err != nil {
			return 0, err
		}
		ids = append(ids, id)
	}
	r := rand.New(rand.NewPCG(33, 34))
	for tick := range 600 {
		if tick%30 == 0 {
			for _, id := range ids {
				if r.IntN(3) == 0 {
					w.ApplyImpulse(id, physics.Vec2{X: float64(r.IntN(41)-20) / 4, Y: float64(r.IntN(41)-20) / 4})
				}
			}
		}
		if tick == 300 {
			z := physics.World{Workers: p}
			if err := z.Restore(w.Snapshot(nil)); err != nil {
				return 0, err
			}
			w = &z
		}
		w.Step(dt)
	}
	return worldHash(w), nil
}

// pile is 300 boxes falling into a heap that comes to rest and sleeps:
// the solver's warm starting, position passes and islands.
func pile(p *physics.Workers) (uint64, error) {
	w := &physics.World{Gravity: physics.Vec2{Y: -10}, Workers: p}
	if _, err := w.Add(physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{Y: -1}, HalfW: 12, HalfH: 1, Friction: 0.6}); err != nil {
		return 0, err
	}
	for i := range 300 {
		x := float64(i%15) - 7 + float64(float64(i%7)*0.07)
		if _, err := w.Add(physics.Body{Shape: physics.Box, HalfW: 0.45, HalfH: 0.45,
			Pos: physics.Vec2{X: x, Y: 0.5 + float64(i/15)}, Friction: 0.6}); err != nil {
			return 0, err
		}
	}
	for range 600 {
		w.Step(dt)
	}
	return worldHash(w), nil
}

// fast is small fast bodies sub-stepped against thin walls, a sweeping
// kinematic paddle, bodies removed and added, ray casts, box queries and
// casts mixed into the hash, and a snapshot restored midway into another
// world that finishes the run.
func fast(p *physics.Workers) (uint64, error) {
	w := &physics.World{Workers: p}
	for _, b := range []physics.Body{
		{Pos: physics.Vec2{X: 0, Y: -10}, HalfW: 10, HalfH: 0.05}, {Pos: physics.Vec2{X: 0, Y: 10}, HalfW: 10, HalfH: 0.05},
		{Pos: physics.Vec2{X: -10, Y: 0}, HalfW: 0.05, HalfH: 10}, {Pos: physics.Vec2{X: 10, Y: 0}, HalfW: 0.05, HalfH: 10},
	} {
		b.Kind, b.Shape, b.Restitution = physics.Static, physics.Box, 1
		if _, err := w.Add(b); err != nil {
			return 0, err
		}
	}
	paddle, err := w.Add(physics.Body{Kind: physics.Kinematic, Shape: physics.Box, Sweep: true, HalfW: 2, HalfH: 0.3, Vel: physics.Vec2{X: 7}})
	if err != nil {
		return 0, err
	}
	r := rand.New(rand.NewPCG(23, 24))
	var ids []physics.BodyID
	for range 60 {
		a := float64(6.283185307179586 * r.Float64())
		s, c := detmath.SinCos(a)
		id, err := w.Add(physics.Body{Shape: physics.Circle, Radius: 0.08, Restitution: 0.9,
			Pos: physics.Vec2{X: float64(16*r.Float64()) - 8, Y: float64(16*r.Float64()) - 8},
			Vel: physics.Vec2{X: float64(c * 300), Y: float64(s * 300)}})
		if err != nil {
			return 0, err
		}
		ids = append(ids, id)
	}
	h := fnv.Offset
	var q []physics.BodyID
	z := physics.World{Workers: p}
	for tick := range 600 {
		p := w.Body(paddle)
		if p.Pos.X > 7 || p.Pos.X < -7 {
			p.Vel.X = -p.Vel.X
		}
		if tick%25 == 0 {
			k := tick / 25 % len(ids)
			if err := w.Remove(ids[k]); err != nil {
				return 0, err
			}
			if ids[k], err = w.Add(physics.Body{Shape: physics.Box, HalfW: 0.1, HalfH: 0.1, Restitution: 0.5,
				Vel: physics.Vec2{X: float64(tick%13) * 20, Y: 150}}); err != nil {
				return 0, err
			}
		}
		w.Step(dt)
		if hit, ok := w.RayCast(physics.Vec2{X: -9, Y: -9}, physics.Vec2{X: 9, Y: float64(tick%19) - 9}, 0); ok {
			h = fnv.Uint64(fnv.Uint64(h, uint64(hit.Body.Index())), uint64(hit.Fraction*1e12))
		}
		q = w.QueryAABB(physics.Vec2{X: -3, Y: -3}, physics.Vec2{X: 3, Y: 3}, 0, q[:0])
		h = fnv.Uint64(h, uint64(len(q)))
		if c, ok := w.Cast(paddle, physics.Vec2{Y: 5}); ok {
			h = fnv.Uint64(h, uint64(c.Fraction*1e12))
		}
		if tick == 300 { // the rest of the run in a restored copy
			if err := z.Restore(w.Snapshot(nil)); err != nil {
				return 0, err
			}
			w = &z
		}
	}
	return fnv.Uint64(h, worldHash(w)), nil
}

// spin is rotation: 240 turning boxes, balls and convex polygons (a
// triangle, a pentagon, an octagon) dropped at angles onto a static ramp
// turned by -0.4 rad and a floor, with a kinematic box spinning among
// them and a FixedRotation box; impulses at points and torques every
// 2 s; ray casts and a polygon's cast against turned shapes mixed into the
// hash; a snapshot restored midway into another world that finishes the
// run.
func spin(p *physics.Workers) (uint64, error) {
	w := &physics.World{Gravity: physics.Vec2{Y: -9.8}, Workers: p}
	for _, b := range []physics.Body{
		{Pos: physics.Vec2{Y: -1}, HalfW: 20, HalfH: 1},
		{Pos: physics.Vec2{X: -8, Y: 6}, HalfW: 9, HalfH: 0.3, Angle: -0.4},
		{Pos: physics.Vec2{X: -21, Y: 10}, HalfW: 1, HalfH: 11}, {Pos: physics.Vec2{X: 21, Y: 10}, HalfW: 1, HalfH: 11},
	} {
		b.Kind, b.Shape, b.Friction = physics.Static, physics.Box, 0.6
		if _, err := w.Add(b); err != nil {
			return 0, err
		}
	}
	var hulls []*physics.Hull
	for _, n := range []int{3, 5, 8} {
		verts := make([]physics.Vec2, n)
		for i := range verts {
			s, c := detmath.SinCos(float64(2*3.141592653589793*float64(i)) / float64(n))
			verts[i] = physics.Vec2{X: float64(0.35 * c), Y: float64(0.35 * s)}
		}
		h, err := physics.NewHull(verts...)
		if err != nil {
			return 0, err
		}
		hulls = append(hulls, h)
	}
	spinner, err := w.Add(physics.Body{Kind: physics.Kinematic, Shape: physics.Box, Pos: physics.Vec2{X: 8, Y: 2}, HalfW: 2, HalfH: 0.2, AngVel: 1.5})
	if err != nil {
		return 0, err
	}
	if _, err := w.Add(physics.Body{Shape: physics.Box, Pos: physics.Vec2{X: 14, Y: 1}, HalfW: 0.6, HalfH: 0.9, FixedRotation: true, Friction: 0.4}); err != nil {
		return 0, err
	}
	r := rand.New(rand.NewPCG(29, 30))
	for i := range 240 {
		b := physics.Body{Shape: physics.Shape(i % 3), Radius: 0.3, HalfW: 0.35, HalfH: 0.2, Hull: hulls[i/3%3],
			Pos:   physics.Vec2{X: float64(36*r.Float64()) - 18, Y: 3 + float64(20*r.Float64())},
			Angle: float64(6.283185307179586 * r.Float64()), AngVel: float64(4*r.Float64()) - 2,
			Mass: 0.5 + r.Float64(), Friction: 0.2 + float64(0.6*r.Float64()), Restitution: float64(0.3 * r.Float64()),
			AngularDamping: float64(0.5 * r.Float64())}
		if _, err := w.Add(b); err != nil {
			return 0, err
		}
	}
	h := fnv.Offset
	z := physics.World{Workers: p}
	for tick := range 480 {
		if tick > 0 && tick%120 == 0 {
			for i := 6; i < w.Len(); i += 3 {
				id := w.ID(i)
				b := w.Body(id)
				w.ApplyImpulseAt(id, physics.Vec2{X: float64(2*r.Float64()) - 1, Y: 3}, b.Pos.Add(physics.Vec2{X: 0.2, Y: 0.1}))
				w.ApplyTorque(id, float64(r.Float64())-0.5, dt)
			}
		}
		w.Step(dt)
		if hit, ok := w.RayCast(physics.Vec2{X: -19, Y: 0.5 + float64(tick%9)}, physics.Vec2{X: 19, Y: 0.1 + float64(tick%7)}, 0); ok {
			h = fnv.Uint64(fnv.Uint64(fnv.Uint64(h, uint64(hit.Body.Index())), uint64(hit.Fraction*1e12)), uint64(int64(hit.Normal.X*1e12)))
		}
		if c, ok := w.Cast(spinner, physics.Vec2{X: -3, Y: -1}); ok {
			h = fnv.Uint64(fnv.Uint64(h, uint64(c.Fraction*1e12)), uint64(c.Body.Index()))
		}
		if tick == 240 { // the rest of the run in a restored copy
			if err := z.Restore(w.Snapshot(nil)); err != nil {
				return 0, err
			}
			w = &z
		}
	}
	return fnv.Uint64(h, worldHash(w)), nil
}

// demo is the demo's own world (cmd/demo/arena, 300 bodies, seed 1) for
// 600 ticks (three kicks), its player driven by a scripted hand through the demo's
// bindings, on a jittery simulated clock, under a sync test of depth 2:
// the same path as `demo -headless -ticks N` with input.
func demo(p *physics.Workers) (uint64, error) {
	b, err := arena.ParseBindings(strings.NewReader(arena.DefaultBindings), "built-in bindings")
	if err != nil {
		return 0, err
	}
	keys := &input.State{}
	sc, err := arena.New(300, 1, input.NewActions(keys, b))
	if err != nil {
		return 0, err
	}
	sc.World.Workers = p
	g := &hand{Scene: sc, keys: keys, ticks: 600}
	hp := &handPlatform{Sim: engine.NewSim(engine.NewJitterFrames(3, 4*time.Millisecond, 40*time.Millisecond)), keys: keys}
	loop, err := engine.NewLoop(engine.Config{TPS: 60, InputSize: arena.InputSize}, hp, g)
	if err != nil {
		return 0, err
	}
	if err := loop.SyncTest(2); err != nil {
		return 0, err
	}
	if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
		return 0, err
	}
	return worldHash(&sc.World), nil
}

// hand plays the demo: right, jump, left, in a fixed rhythm of frames.
type hand struct {
	*arena.Scene
	keys  *input.State
	frame int
	ticks uint64
}

func (h *hand) Begin(engine.Frame) error {
	h.frame++
	switch h.frame % 90 {
	case 1:
		h.keys.KeyEvent(input.KeyRight, true)
	case 20:
		h.keys.KeyEvent(input.KeySpace, true)
		h.keys.KeyEvent(input.KeySpace, false)
	case 40:
		h.keys.KeyEvent(input.KeyRight, false)
		h.keys.KeyEvent(input.KeyLeft, true)
	case 70:
		h.keys.KeyEvent(input.KeyLeft, false)
	}
	return nil
}

func (h *hand) Update(t engine.Tick) error {
	if err := h.Scene.Update(t); err != nil {
		return err
	}
	if !t.Rerun && t.N+1 >= h.ticks {
		return engine.ErrStopped
	}
	return nil
}

func (h *hand) Draw(engine.Frame) {}

// handPlatform is a simulated clock whose ticks end the input's edges, as
// the window does.
type handPlatform struct {
	*engine.Sim
	keys *input.State
}

func (p *handPlatform) EndTick() { p.keys.EndTick() }

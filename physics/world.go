// Package physics is fixstep's deterministic fixed-step world: circles and
// axis-aligned boxes under gravity, with restitution, friction, a spatial
// hash broad phase, sub-stepping against static bodies so fast small bodies
// do not tunnel through thin walls, and contact begin/end events.
//
// A World is stepped only by the engine's fixed tick, with the same dt every
// time, so the same inputs give a bit-identical world on the same
// architecture whatever the frame rate. Every body keeps its position at the
// previous tick and the current one for the renderer to interpolate.
//
// Bodies are a slice of structs, not a pointer graph, and a step allocates
// nothing once the world has reached its size. Units are yours (metres or
// pixels); angles are not simulated (circles and boxes do not rotate).
package physics

import (
	"fmt"
	"math"
	"slices"
)

// Vec2 is a 2D vector.
type Vec2 struct{ X, Y float64 }

// Add returns v+w.
func (v Vec2) Add(w Vec2) Vec2 { return Vec2{v.X + w.X, v.Y + w.Y} }

// Sub returns v-w.
func (v Vec2) Sub(w Vec2) Vec2 { return Vec2{v.X - w.X, v.Y - w.Y} }

// Scale returns v·s.
func (v Vec2) Scale(s float64) Vec2 { return Vec2{v.X * s, v.Y * s} }

// Dot returns v·w.
func (v Vec2) Dot(w Vec2) float64 { return v.X*w.X + v.Y*w.Y }

// Len returns |v|.
func (v Vec2) Len() float64 { return math.Hypot(v.X, v.Y) }

// F32 returns v's components as float32: the one seam between the
// simulation, which is float64 for determinism and range, and drawing,
// which is float32 as the GPU takes it. Convert in Draw, once per body,
// after Body.Lerp: r.Rect(x, y, ...) with x, y := b.Lerp(f.Alpha).F32().
func (v Vec2) F32() (x, y float32) { return float32(v.X), float32(v.Y) }

// Kind says how a body moves.
type Kind uint8

// Body kinds.
const (
	// Dynamic bodies fall, collide and bounce.
	Dynamic Kind = iota
	// Kinematic bodies move at their velocity and push dynamic bodies, but
	// nothing pushes them.
	Kinematic
	// Static bodies never move: walls and floors.
	Static
)

// Shape is a body's collision shape.
type Shape uint8

// Shapes.
const (
	// Circle of radius Body.Radius.
	Circle Shape = iota
	// Box is an axis-aligned box of half extents Body.HalfW, Body.HalfH.
	Box
)

// BodyID names a body in its world: the index of its slot.
type BodyID int32

// Body is one rigid body. Set its fields before World.Add; afterwards change
// it through World.Body between steps.
type Body struct {
	Kind  Kind
	Shape Shape
	// Pos is the position at the current tick, Prev at the tick before;
	// draw at Lerp(alpha).
	Pos, Prev Vec2
	Vel       Vec2
	// Radius for circles; HalfW, HalfH for boxes.
	Radius, HalfW, HalfH float64
	// Mass of a dynamic body; zero means 1. Kinematic and static bodies
	// have infinite mass.
	Mass float64
	// Restitution is bounciness in [0, 1]; Friction the Coulomb
	// coefficient. A contact uses the larger restitution and the geometric
	// mean of the frictions.
	Restitution, Friction float64
	// Tag is the game's own number for the body (an entity index).
	Tag int32

	invMass float64
}

// Lerp returns the body's position a fraction alpha of the way from the
// previous tick to the current one.
func (b *Body) Lerp(alpha float64) Vec2 {
	return Vec2{b.Prev.X + (b.Pos.X-b.Prev.X)*alpha, b.Prev.Y + (b.Pos.Y-b.Prev.Y)*alpha}
}

// bounds returns the body's AABB.
func (b *Body) bounds() (lo, hi Vec2) {
	if b.Shape == Circle {
		return Vec2{b.Pos.X - b.Radius, b.Pos.Y - b.Radius}, Vec2{b.Pos.X + b.Radius, b.Pos.Y + b.Radius}
	}
	return Vec2{b.Pos.X - b.HalfW, b.Pos.Y - b.HalfH}, Vec2{b.Pos.X + b.HalfW, b.Pos.Y + b.HalfH}
}

// extent is the body's smallest half size: how far it may move in one
// sub-step without skipping over anything.
func (b *Body) extent() float64 {
	if b.Shape == Circle {
		return b.Radius
	}
	return min(b.HalfW, b.HalfH)
}

// ContactListener receives contact events, inside World.Step, in a
// deterministic order (by body pair). A pair's BeginContact comes on the
// first tick the two touch, its EndContact on the first tick they do not.
type ContactListener interface {
	BeginContact(a, b BodyID)
	EndContact(a, b BodyID)
}

// DefaultIterations is the contact passes per tick of a World whose
// Iterations is zero.
const DefaultIterations = 8

// World is a fixed-step 2D world. The zero value is an empty world with no
// gravity, ready to use; a World is not safe for concurrent use.
type World struct {
	// Gravity accelerates dynamic bodies.
	Gravity Vec2
	// MaxSubsteps caps sub-steps per body per tick; zero means 64. A body
	// moves at most half its smallest extent per sub-step, so it cannot
	// tunnel through a static body below MaxSubsteps·extent/2 per tick.
	MaxSubsteps int
	// Listener, when set, receives contact begin and end events.
	Listener ContactListener
	// Iterations is how many velocity and position passes each tick makes
	// over its contacts. One pass lets a stack's weight squeeze it (ten
	// boxes settle at 58 % of their height); eight hold it within 1.5 %.
	// Zero means DefaultIterations.
	Iterations int

	bodies    []Body
	statics   []BodyID     // static bodies, scanned during sub-steps
	staticBox [][4]float64 // their bounds, which never change
	movers    []BodyID     // dynamic and kinematic bodies

	grid     grid
	contacts []uint64 // this tick's touching pairs, a<<32|b
	normals  []Vec2   // the normal of each pair in contacts, as found (before sorting)
	previous []uint64 // last tick's, sorted when a Listener is set
	sorted   bool     // contacts are sorted and without duplicates
	ticks    uint64
}

// Add puts a body in the world and returns its ID. Prev is set to Pos.
func (w *World) Add(b Body) (BodyID, error) {
	switch {
	case b.Shape == Circle && !(b.Radius > 0):
		return -1, fmt.Errorf("physics: circle radius %v: must be positive", b.Radius)
	case b.Shape == Box && !(b.HalfW > 0 && b.HalfH > 0):
		return -1, fmt.Errorf("physics: box half extents %v x %v: must be positive", b.HalfW, b.HalfH)
	case b.Shape > Box:
		return -1, fmt.Errorf("physics: unknown shape %d", b.Shape)
	case b.Kind > Static:
		return -1, fmt.Errorf("physics: unknown kind %d", b.Kind)
	case b.Mass < 0 || math.IsNaN(b.Mass):
		return -1, fmt.Errorf("physics: mass %v: must be positive (or zero for 1)", b.Mass)
	}
	if b.Kind == Dynamic {
		m := b.Mass
		if m == 0 {
			m = 1
		}
		b.invMass = 1 / m
	}
	b.Prev = b.Pos
	id := BodyID(len(w.bodies))
	w.bodies = append(w.bodies, b)
	// Room for a resting pile's contacts (about four per body), so a
	// settling world does not grow these slices while it runs.
	if want := 4 * len(w.bodies); cap(w.contacts) < want {
		w.contacts = slices.Grow(w.contacts, want)
		w.previous = slices.Grow(w.previous, want)
		w.normals = slices.Grow(w.normals, want)
	}
	if b.Kind == Static {
		w.statics = append(w.statics, id)
		lo, hi := b.bounds()
		w.staticBox = append(w.staticBox, [4]float64{lo.X, lo.Y, hi.X, hi.Y})
	} else {
		w.movers = append(w.movers, id)
	}
	return id, nil
}

// Len returns the number of bodies.
func (w *World) Len() int { return len(w.bodies) }

// Body returns the body id; the pointer is valid until the next Add. Move
// a static body only with Teleport, which refreshes its cached bounds.
func (w *World) Body(id BodyID) *Body { return &w.bodies[id] }

// Bodies returns all bodies, indexed by ID, for drawing. The slice is valid
// until the next Add.
func (w *World) Bodies() []Body { return w.bodies }

// Teleport moves a body to pos at once: both its previous and current
// positions, so the renderer does not draw a streak across the jump.
func (w *World) Teleport(id BodyID, pos Vec2) {
	b := &w.bodies[id]
	b.Pos, b.Prev = pos, pos
	if b.Kind == Static {
		k := slices.Index(w.statics, id)
		lo, hi := b.bounds()
		w.staticBox[k] = [4]float64{lo.X, lo.Y, hi.X, hi.Y}
	}
}

// Ticks returns how many steps the world has taken.
func (w *World) Ticks() uint64 { return w.ticks }

// Step advances the world by dt seconds: one fixed tick. Call it from the
// game's Update with tick.DtSeconds(), never with a frame time.
func (w *World) Step(dt float64) {
	w.ticks++
	w.previous, w.contacts = w.contacts, w.previous[:0]
	w.normals = w.normals[:0]
	maxSub := w.MaxSubsteps
	if maxSub <= 0 {
		maxSub = 64
	}
	for _, id := range w.movers {
		b := &w.bodies[id]
		b.Prev = b.Pos
		if b.Kind == Dynamic {
			b.Vel = b.Vel.Add(w.Gravity.Scale(dt))
		}
		w.move(id, dt, maxSub)
	}
	w.collideMovers()
	w.iterate()
	w.sorted = false
	if w.Listener != nil {
		w.sortContacts()
		w.notify()
	}
}

// move integrates one body over dt in sub-steps short enough that it cannot
// pass through a static body, resolving static contacts at each.
func (w *World) move(id BodyID, dt float64, maxSub int) {
	b := &w.bodies[id]
	travel := b.Vel.Len() * dt
	n := 1
	if e := b.extent(); travel > e/2 {
		n = min(int(math.Ceil(travel/(e/2))), maxSub)
	}
	h := dt / float64(n)
	for range n {
		b.Pos = b.Pos.Add(b.Vel.Scale(h))
		if b.Kind != Dynamic {
			continue
		}
		lo, hi := b.bounds()
		for k, sid := range w.statics {
			sb := &w.staticBox[k]
			if lo.X > sb[2] || sb[0] > hi.X || lo.Y > sb[3] || sb[1] > hi.Y {
				continue // bounds apart: no need for the narrow phase
			}
			s := &w.bodies[sid]
			if c, ok := collide(b, s); ok {
				resolve(b, s, c)
				w.touchN(id, sid, c.n)
			}
		}
	}
}

// collideMovers finds touching pairs of moving bodies with the grid and
// resolves them, each pair once, in a fixed order.
func (w *World) collideMovers() {
	if len(w.movers) < 2 {
		return
	}
	w.grid.build(w.bodies, w.movers)
	w.grid.pairs(w.collidePair)
}

// collidePair is the narrow phase for movers mi and mj.
func (w *World) collidePair(mi, mj int32) {
	i, j := w.movers[mi], w.movers[mj]
	a, b := &w.bodies[i], &w.bodies[j]
	if a.Kind != Dynamic && b.Kind != Dynamic {
		return
	}
	if c, ok := collide(a, b); ok {
		resolve(a, b, c)
		w.touchN(i, j, c.n)
	}
}

// iterate runs the extra velocity passes over this tick's contacts: one
// pass leaves a stack's bodies still pushing into each other, each further
// one (Gauss-Seidel) brings them closer to rest. Restitution applied in the
// first pass only.
func (w *World) iterate() {
	passes := w.Iterations
	if passes <= 0 {
		passes = DefaultIterations
	}
	for range passes - 1 {
		for k, c := range w.contacts {
			a, b := &w.bodies[c>>32], &w.bodies[uint32(c)]
			if a.invMass+b.invMass == 0 {
				continue
			}
			impulse(a, b, w.normals[k], 0)
		}
	}
	// Position passes: the first pass pushed each pair apart once, in an
	// order that lets a stack's weight push its lower bodies back into the
	// floor; further passes measure the overlaps again and take more out.
	for range passes - 1 {
		for _, c := range w.contacts {
			a, b := &w.bodies[c>>32], &w.bodies[uint32(c)]
			if a.invMass+b.invMass == 0 {
				continue
			}
			if cc, ok := collide(a, b); ok {
				separate(a, b, cc)
			}
		}
	}
}

// touchN records that a and b touch, with the normal from a to b.
func (w *World) touchN(a, b BodyID, n Vec2) {
	if a > b {
		a, b, n = b, a, n.Scale(-1)
	}
	w.contacts = append(w.contacts, uint64(a)<<32|uint64(b))
	w.normals = append(w.normals, n)
}

// notify compares this tick's contacts with last tick's, both sorted, and
// reports the differences in pair order.
func (w *World) notify() {
	if w.Listener == nil {
		return
	}
	cur, prev := w.contacts, w.previous
	i, j := 0, 0
	for i < len(cur) || j < len(prev) {
		switch {
		case j == len(prev) || i < len(cur) && cur[i] < prev[j]:
			w.Listener.BeginContact(BodyID(cur[i]>>32), BodyID(uint32(cur[i])))
			i++
		case i == len(cur) || prev[j] < cur[i]:
			w.Listener.EndContact(BodyID(prev[j]>>32), BodyID(uint32(prev[j])))
			j++
		default:
			i++
			j++
		}
	}
}

// Contacts returns the pairs touching at the last step, as a<<32|b with
// a < b, in ascending order. The slice is valid until the next step.
func (w *World) Contacts() []uint64 {
	w.sortContacts()
	return w.contacts
}

// sortContacts sorts this tick's pairs once: a pair touched in several
// sub-steps is listed once.
func (w *World) sortContacts() {
	if !w.sorted {
		slices.Sort(w.contacts)
		w.contacts = slices.Compact(w.contacts)
		w.sorted = true
	}
}

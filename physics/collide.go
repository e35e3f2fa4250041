package physics

import "math"

// Contact is one touching pair of bodies at a tick, as the solver left it.
type Contact struct {
	// A and B are the bodies, A the one with the lower index.
	A, B BodyID
	// Normal is the unit direction from A to B along which they touch.
	Normal Vec2
	// Point is where they touch (the middle of Points), Points[:NumPoints]
	// the contact points: one for a circle, two for box against box (the
	// ends of the touching face).
	Point     Vec2
	Points    [2]Vec2
	NumPoints int
	// Depth is how far they overlapped when the tick found them; negative,
	// the gap between them (see Touching).
	Depth float64
	// Touching says whether they touch: they overlap, the gap between them
	// is under TouchGap (PartGap once they touch), or the solver pushed
	// them apart this tick (a speculative contact that carries an
	// impulse). The gaps are far above rounding anywhere in the world, so
	// a body stopped at a wall touches it whatever the wall's coordinates,
	// with gravity or without. Contacts lists pairs near enough to touch
	// within a tick (the solver's speculative margin); only touching ones
	// raise events.
	// Impulse is the normal impulse the solver applied this tick (mass ×
	// velocity); FrictionImpulse the tangential one. A resting box of mass
	// m under gravity g carries about m·g·dt.
	Impulse, FrictionImpulse float64
	Touching                 bool

	ia, ib   uint32
	key      uint64 // ia<<32 | ib
	feature  uint8  // which face of a box pair: warm starting matches on it
	resting  bool   // no awake body: kept from the last tick, not solved
	mass     float64
	vn0      float64 // the normal velocity before the solve, for restitution
	friction float64
}

// tangent returns the contact's tangent, the normal turned a quarter turn.
func (c *Contact) tangent() Vec2 { return Vec2{-c.Normal.Y, c.Normal.X} }

// Contacts returns the pairs touching at the last step, or near enough to
// touch within a tick (see Contact.Touching), in a deterministic order. The
// slice is valid until the next step.
func (w *World) Contacts() []Contact {
	w.purge()
	return w.contacts
}

// Restitution and position-correction constants (see the package doc).
const (
	slop          = 0.005    // overlap left alone, units
	baumgarte     = 0.2      // share of the rest of the overlap corrected per pass
	maxCorrection = 0.2      // the most one pass moves a contact, units
	bounceSpeed   = 1.0      // restitution applies above this approach speed, units/s
	margin        = 4 * slop // speculative contacts: pairs this near are solved
)

// The gaps under which a pair touches (see Contact.Touching). A pair
// begins to touch within TouchGap and stops beyond PartGap: the step
// between them keeps a body that slides along a wall, its gap wavering by
// rounding, from raising an event pair every tick.
const (
	TouchGap = slop / 4 // 1.25 mm
	PartGap  = slop / 2 // 2.5 mm
)

// detect finds this tick's contacts at the current positions: movers
// against movers through the movers' grid, awake dynamic movers against
// the statics' grid. Then it warm-starts each from the same contact of the
// last tick. Past the world's contact limit it stops and reports an
// overload.
func (w *World) detect() {
	w.limit = MaxContactsPerBody * len(w.bodies)
	w.over = false
	if len(w.movers) > 0 {
		w.grid.build(w.bodies, w.movers, margin/2)
		w.grid.pairs(w.pairMovers)
	}
	w.refreshStatics()
	for _, i := range w.movers {
		b := &w.bodies[i]
		if b.Kind != Dynamic || b.asleep || b.Disabled || w.over {
			continue
		}
		lo, hi := b.bounds()
		lo, hi = lo.Sub(Vec2{margin / 2, margin / 2}), hi.Add(Vec2{margin / 2, margin / 2})
		w.near = w.staticGrid.query(lo, hi, w.near[:0])
		for _, k := range w.near {
			if !w.narrow(w.statics[k], i) {
				break
			}
		}
	}
	// Pairs with no awake body are not tested again: they stay as they
	// were, so a sleeping heap keeps its contacts (and sends no events).
	for k := range w.previous {
		c := &w.previous[k]
		if w.sleeping(c.ia) && w.sleeping(c.ib) && w.room() {
			r := *c
			r.resting = true
			w.contacts = append(w.contacts, r)
		}
	}
	if w.over {
		w.overloads++
		if l, ok := w.Listener.(FaultListener); ok {
			l.ContactOverload(w.limit)
		}
	}
	w.prevTable.reset(len(w.previous))
	for k := range w.previous {
		w.prevTable.put(w.previous[k].key, k)
	}
	if !w.cold {
		w.warmStart()
	}
}

// sleeping reports whether body i is asleep or static: nothing of it moves.
func (w *World) sleeping(i uint32) bool {
	b := &w.bodies[i]
	return b.asleep || b.Kind == Static
}

// pairMovers is the grid's callback for movers mi and mj; false stops the
// search (the contact limit).
func (w *World) pairMovers(mi, mj int32) bool {
	i, j := w.movers[mi], w.movers[mj]
	a, b := &w.bodies[i], &w.bodies[j]
	if a.Kind != Dynamic && b.Kind != Dynamic || a.asleep && b.asleep {
		return true
	}
	return w.narrow(i, j)
}

// room reports whether the step may record another contact, and marks the
// step overloaded when not.
func (w *World) room() bool {
	if len(w.contacts) < w.limit {
		return true
	}
	w.over = true
	return false
}

// narrow tests bodies i and j and records their contact; false when the
// contact limit is reached.
func (w *World) narrow(i, j int32) bool {
	if i > j {
		i, j = j, i
	}
	a, b := &w.bodies[i], &w.bodies[j]
	if a.Disabled || b.Disabled || !collides(a, b) {
		return true
	}
	m, ok := collideNear(a, b)
	if !ok {
		return true
	}
	if !w.room() {
		return false
	}
	pts, np := contactPoints(a, b, m)
	c := Contact{
		A: BodyID{uint32(i), a.gen}, B: BodyID{uint32(j), b.gen},
		Normal: m.n, Points: pts, NumPoints: np, Depth: m.depth,
		ia: uint32(i), ib: uint32(j), key: uint64(i)<<32 | uint64(j), feature: m.feature,
		mass:     1 / (a.invMass + b.invMass),
		friction: math.Sqrt(a.Friction * b.Friction),
		vn0:      b.Vel.Sub(a.Vel).Dot(m.n),
	}
	c.Point = pts[0]
	if np == 2 {
		c.Point = pts[0].Add(pts[1]).Scale(0.5)
	}
	w.contacts = append(w.contacts, c)
	return true
}

// warmStart gives each contact the impulses the same contact (same pair,
// same feature) ended the last tick with, and applies them: the solver
// starts from last tick's answer instead of from nothing.
func (w *World) warmStart() {
	for i := range w.contacts {
		c := &w.contacts[i]
		if c.resting {
			continue
		}
		k := w.prevTable.get(c.key)
		if k < 0 {
			continue
		}
		c.Touching = w.previous[k].Touching // until the solve decides, with PartGap
		if w.previous[k].feature != c.feature {
			continue
		}
		c.Impulse, c.FrictionImpulse = w.previous[k].Impulse, w.previous[k].FrictionImpulse
		w.apply(c, c.Normal.Scale(c.Impulse).Add(c.tangent().Scale(c.FrictionImpulse)))
	}
}

// apply adds impulse p to body B of c and takes it from body A.
func (w *World) apply(c *Contact, p Vec2) {
	a, b := &w.bodies[c.ia], &w.bodies[c.ib]
	a.Vel = a.Vel.Sub(p.Scale(a.invMass))
	b.Vel = b.Vel.Add(p.Scale(b.invMass))
}

// manifold is a narrow-phase result: the normal from a to b, the overlap
// along it (negative: a gap) and the feature (box pairs: which face).
type manifold struct {
	n       Vec2
	depth   float64
	feature uint8
}

// collide tests two bodies for overlap.
func collide(a, b *Body) (manifold, bool) {
	m, ok := collideNear(a, b)
	return m, ok && m.depth > 0
}

// collideNear tests two bodies for overlap or a gap under the speculative
// margin (depth > -margin).
func collideNear(a, b *Body) (manifold, bool) {
	switch {
	case a.Shape == Circle && b.Shape == Circle:
		return circleCircle(a, b)
	case a.Shape == Box && b.Shape == Box:
		return boxBox(a, b)
	case a.Shape == Circle:
		m, ok := boxCircle(b, a)
		m.n = m.n.Scale(-1)
		return m, ok
	default:
		return boxCircle(a, b)
	}
}

func circleCircle(a, b *Body) (manifold, bool) {
	d := b.Pos.Sub(a.Pos)
	r := a.Radius + b.Radius
	dist2 := d.Dot(d)
	if dist2 >= (r+margin)*(r+margin) {
		return manifold{}, false
	}
	m := manifold{n: Vec2{0, 1}, depth: r}
	if dist := math.Sqrt(dist2); dist > 0 {
		m.n, m.depth = d.Scale(1/dist), r-dist
	}
	return m, true
}

// boxBox: two axis-aligned boxes touch along the axis of least overlap (or,
// apart, of the gap).
func boxBox(a, b *Body) (manifold, bool) {
	d := b.Pos.Sub(a.Pos)
	ox := a.HalfW + b.HalfW - math.Abs(d.X)
	oy := a.HalfH + b.HalfH - math.Abs(d.Y)
	if ox <= -margin || oy <= -margin || ox < 0 && oy < 0 {
		return manifold{}, false // apart, or only corners near
	}
	if ox < oy {
		s := sign(d.X)
		return manifold{n: Vec2{s, 0}, depth: ox, feature: uint8(1-s) / 2}, true // 0: +x, 1: -x
	}
	s := sign(d.Y)
	return manifold{n: Vec2{0, s}, depth: oy, feature: 2 + uint8(1-s)/2}, true // 2: +y, 3: -y
}

// boxCircle tests box a against circle b; the normal points from the box to
// the circle.
func boxCircle(a, b *Body) (manifold, bool) {
	d := b.Pos.Sub(a.Pos)
	cx := max(-a.HalfW, min(a.HalfW, d.X))
	cy := max(-a.HalfH, min(a.HalfH, d.Y))
	if cx == d.X && cy == d.Y {
		// Centre inside the box: out along the nearest face.
		ox, oy := a.HalfW-math.Abs(d.X), a.HalfH-math.Abs(d.Y)
		if ox < oy {
			return manifold{n: Vec2{sign(d.X), 0}, depth: ox + b.Radius, feature: 1}, true
		}
		return manifold{n: Vec2{0, sign(d.Y)}, depth: oy + b.Radius, feature: 1}, true
	}
	e := Vec2{d.X - cx, d.Y - cy}
	dist2 := e.Dot(e)
	if dist2 >= (b.Radius+margin)*(b.Radius+margin) {
		return manifold{}, false
	}
	dist := math.Sqrt(dist2)
	return manifold{n: e.Scale(1 / dist), depth: b.Radius - dist}, true
}

// contactPoints returns where a and b touch along normal n (from a to b):
// for two boxes the ends of the shared face, halfway into the overlap;
// otherwise the point of the circle (or of the box nearest the circle).
func contactPoints(a, b *Body, m manifold) (pts [2]Vec2, np int) {
	switch {
	case a.Shape == Box && b.Shape == Box:
		alo, ahi := a.bounds()
		blo, bhi := b.bounds()
		if m.n.X != 0 {
			x := a.Pos.X + float64(m.n.X*(a.HalfW-float64(m.depth/2)))
			return [2]Vec2{{x, max(alo.Y, blo.Y)}, {x, min(ahi.Y, bhi.Y)}}, 2
		}
		y := a.Pos.Y + float64(m.n.Y*(a.HalfH-float64(m.depth/2)))
		return [2]Vec2{{max(alo.X, blo.X), y}, {min(ahi.X, bhi.X), y}}, 2
	case a.Shape == Circle:
		pts[0] = a.Pos.Add(m.n.Scale(a.Radius - float64(m.depth/2)))
	default: // b is the circle
		pts[0] = b.Pos.Sub(m.n.Scale(b.Radius - float64(m.depth/2)))
	}
	return pts, 1
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// notify reports the pairs that began touching this tick, in the order
// they were found, then those that stopped, in last tick's order.
func (w *World) notify() {
	if w.Listener == nil {
		return
	}
	w.curTable.reset(len(w.contacts))
	for k := range w.contacts {
		w.curTable.put(w.contacts[k].key, k)
	}
	cur, prev := w.contacts, w.previous
	for i := range cur {
		if !cur[i].Touching {
			continue
		}
		if k := w.prevTable.get(cur[i].key); k < 0 || !prev[k].Touching {
			w.Listener.BeginContact(&cur[i])
		}
	}
	for j := range prev {
		if !prev[j].Touching {
			continue
		}
		if k := w.curTable.get(prev[j].key); k < 0 || !cur[k].Touching {
			w.Listener.EndContact(prev[j].A, prev[j].B)
		}
	}
}

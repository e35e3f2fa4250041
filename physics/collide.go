package physics

import "math"

// Contact is one touching pair of bodies at a tick, as the solver left it.
type Contact struct {
	// A and B are the bodies, A the one with the lower index.
	A, B BodyID
	// Normal is the unit direction from A to B along which they touch.
	Normal Vec2
	// Point is where they touch (the middle of Points), Points[:NumPoints]
	// the contact points, halfway into the overlap: one for a circle, up
	// to two for boxes and polygons (the ends of the touching face, clipped
	// to the other's).
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
	// velocity); FrictionImpulse the tangential one; for a pair that turns,
	// the sums of its points'. A resting box of mass m under gravity g
	// carries about m·g·dt.
	Impulse, FrictionImpulse float64
	Touching                 bool

	ia, ib   uint32
	key      uint64 // ia<<32 | ib
	feature  uint8  // which face of a box pair: warm starting matches on it
	resting  bool   // no awake body: kept from the last tick, not solved
	mass     float64
	vn0      float64 // the normal velocity before the solve, for restitution
	friction float64

	// A pair in which either body turns is solved point by point (turning
	// set), its points' state in the world's turn list at tp (kept apart,
	// so that the contacts the upright solver streams through stay small).
	turning bool
	tp      int32
}

// pointState is what a turning contact keeps from tick to tick (and a
// snapshot keeps): per point its feature id (warm starting matches on it),
// depth and accumulated impulses (the last sub-step's), and, for the tick
// being solved, its constraint (World.cons) and normal velocities before
// the solve (restitution).
type pointState struct {
	np     int32
	ci     int32 // its constraint this tick (World.cons)
	live   bool  // solved this tick: not resting
	e      float64
	pn, pt [2]float64
	vn0s   [2]float64
	depths [2]float64
	ids    [2]uint16
}

// kept is a turning contact's manifold as the narrow phase last computed
// it, with the pose the bodies had then, so that a pair that has barely
// moved since reuses it (recycle) instead of running the narrow phase. It
// lives beside the contact's pointState (World.keep, at the same index),
// apart, so that the passes that stream through the point states read
// half the memory.
type kept struct {
	n      int8       // its points; 0: none kept
	ids    [2]uint16  // their feature ids
	ra     [2]Vec2    // the points, relative to body A's position then
	dc     Vec2       // B's position less A's then
	qa, qb [2]float64 // the bodies' rotations then (cos, sin)
	base   [2]float64 // the points' separations then
	ka, kb shapeKey   // the bodies' shapes then
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
	margin        = 4 * slop // speculative contacts: pairs this near are solved (in an upright world; see World.speculative)
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
// the statics' grid, in blocks that the step's workers share (findContacts),
// or, when the pairs found outgrow the room kept for them, one after the
// other (findSerial). Both record the same contacts in the same order: the
// grid's pairs, then each mover's statics, then the resting contacts kept
// from the last tick. Past the world's contact limit it stops and reports
// an overload. Then it warm-starts each upright contact from the same
// contact of the last tick (a turning one is warm-started as it is
// recorded).
func (w *World) detect() {
	w.limit = MaxContactsPerBody * len(w.bodies)
	w.over = false
	// The last tick's contacts by pair: recycle and warmStart look them up.
	w.cursor = 0
	w.prevTable.reset(len(w.previous))
	for k := range w.previous {
		w.prevTable.put(w.previous[k].key, k)
	}
	if len(w.movers) > 0 {
		sweep := 0.0
		if w.turning {
			sweep = w.dt
		}
		w.grid.build(w.bodies, w.movers, margin/2, sweep)
	}
	w.refreshStatics()
	w.coloured, w.alone = false, false
	if !w.findContacts() {
		w.findSerial()
	}
	w.narrowEnd = int32(len(w.contacts))
	// Pairs with no awake body are not tested again: they stay as they
	// were, so a sleeping heap keeps its contacts (and sends no events).
	for k := range w.previous {
		c := &w.previous[k]
		if w.sleeping(c.ia) && w.sleeping(c.ib) && w.room() {
			r := *c
			r.resting = true
			if r.turning {
				r.tp = int32(len(w.turn))
				w.turn = append(w.turn, w.prevTurn[c.tp])
				w.keep = append(w.keep, w.prevKeep[c.tp])
				w.turn[r.tp].live = false
			}
			w.contacts = append(w.contacts, r)
		}
	}
	if w.over {
		w.overloads++
		if l, ok := w.Listener.(FaultListener); ok {
			l.ContactOverload(w.limit)
		}
	}
	if !w.cold && !w.turning {
		w.warmStart()
	}
}

// findSerial is detect's search one pair after the other, stopping at the
// contact limit: for a step whose pairs outgrew the room findContacts
// keeps for them (a pile-up past the limit, or more contacts than any
// step before).
func (w *World) findSerial() {
	w.contacts, w.turn, w.keep, w.cons = w.contacts[:0], w.turn[:0], w.keep[:0], w.cons[:0]
	w.alone, w.bounceAll = true, false
	s := &w.scratch[0]
	if len(w.movers) > 0 {
		w.grid.pairs(w.pairMovers, &s.nearby)
	}
	w.staticFrom = int32(len(w.contacts))
	for _, i := range w.movers {
		b := &w.bodies[i]
		if b.Kind != Dynamic || b.asleep || b.Disabled || w.over {
			continue
		}
		lo, hi := w.staticBounds(b)
		s.near = w.staticGrid.query(lo, hi, s.near[:0])
		for _, k := range s.near {
			if !w.narrow(w.statics[k], i) {
				break
			}
		}
	}
}

// staticBounds returns the box in which body b looks for statics: its
// bounds, padded by half the margin and, in a turning world, swept.
func (w *World) staticBounds(b *Body) (lo, hi Vec2) {
	lo, hi = b.bounds()
	lo, hi = lo.Sub(Vec2{margin / 2, margin / 2}), hi.Add(Vec2{margin / 2, margin / 2})
	if w.turning {
		lo, hi = b.sweep(lo, hi, w.dt)
	}
	return lo, hi
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
	if !w.bothMove(i, j) {
		return true
	}
	return w.narrow(i, j)
}

// bothMove reports whether a pair of movers is tested: one of them is
// dynamic, and one awake.
func (w *World) bothMove(i, j int32) bool {
	a, b := &w.bodies[i], &w.bodies[j]
	return !(a.Kind != Dynamic && b.Kind != Dynamic || a.asleep && b.asleep)
}

// lastOf returns the index of the last tick's contact of the pair key, or
// -1. The pairs come in much the order they came last tick, so it looks
// first where the last one it found was followed (*cursor), reading the
// last tick's contacts in order, and asks the table only when that fails,
// counting its probes in *probes.
func (w *World) lastOf(key uint64, cursor *int, probes *uint64) int {
	if k := *cursor; k < len(w.previous) && w.previous[k].key == key {
		*cursor++
		return k
	}
	k := w.prevTable.find(key, probes)
	if k >= 0 {
		*cursor = k + 1
	}
	return k
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

// found is a pair the narrow phase found to be a contact, before it is
// recorded: its bodies (i < j), its manifold and points, and the pair's
// contact of the last tick (prev, -1 for none; in a turning world only),
// whose kept manifold it reused (recycle) or not.
type found struct {
	i, j   int32
	prev   int32
	reused bool
	m      manifold
	p      points
}

// test runs the narrow phase on bodies i and j and reports whether they
// are a contact, filled into f. It reads the world and writes only f and
// the lookup's cursor and probe count: the step's workers run it at once.
func (w *World) test(i, j int32, f *found, cursor *int, probes *uint64) bool {
	if i > j {
		i, j = j, i
	}
	a, b := &w.bodies[i], &w.bodies[j]
	if a.Disabled || b.Disabled || !collides(a, b) {
		return false
	}
	f.i, f.j, f.prev, f.reused = i, j, -1, false
	f.p = points{}
	spec := w.speculative(a, b)
	var ok bool
	if w.turning {
		if k := w.lastOf(uint64(i)<<32|uint64(j), cursor, probes); k >= 0 {
			f.prev = int32(k)
			if last := &w.previous[k]; last.turning { // its manifold may be reused
				f.m, ok, f.reused = w.recycle(a, b, last, &f.p, spec)
			}
		}
	}
	if !f.reused {
		f.m, ok = collidePoints(a, b, &f.p, spec)
	}
	return ok
}

// narrow tests bodies i and j and records their contact; false when the
// contact limit is reached.
func (w *World) narrow(i, j int32) bool {
	w.work++
	var f found
	if !w.test(i, j, &f, &w.cursor, &w.prevTable.probes) {
		return true
	}
	if !w.room() {
		return false
	}
	g := len(w.contacts)
	w.contacts = append(w.contacts, Contact{}) // filled in place: a contact is large
	if w.turning {
		w.turn = append(w.turn, pointState{})
		w.keep = append(w.keep, kept{})
		w.cons = append(w.cons, constraint{})
	}
	if w.record(g, g, &f) {
		w.bounceAll = true
	}
	return true
}

// record fills contact g (and, in a turning world, its point state and
// kept manifold at g and its constraint at ci) from the pair f found: the
// contact as the solver starts from it, warm-started if it turns. It
// writes only those, so the step's workers record contacts at once. It
// reports whether the contact may bounce (pointState.mayBounce).
func (w *World) record(g, ci int, f *found) bool {
	i, j := f.i, f.j
	a, b := &w.bodies[i], &w.bodies[j]
	m, p := &f.m, &f.p
	c := &w.contacts[g]
	*c = Contact{A: BodyID{uint32(i), a.gen}, B: BodyID{uint32(j), b.gen}, Normal: m.n, Depth: m.depth,
		ia: uint32(i), ib: uint32(j), key: uint64(i)<<32 | uint64(j), feature: m.feature}
	c.mass = 1 / (a.invMass + b.invMass)
	c.friction = math.Sqrt(a.Friction * b.Friction)
	c.vn0 = b.Vel.Sub(a.Vel).Dot(m.n)
	c.turning = w.turning
	if !c.turning && p.np == 0 {
		c.Points, c.NumPoints = contactPoints(a, b, *m)
	} else {
		p.fill(a, b, m)
		c.NumPoints = p.np
		for k := range p.np {
			c.Points[k] = a.Pos.Add(p.pts[k])
		}
	}
	c.Point = c.Points[0]
	if c.NumPoints == 2 {
		c.Point = c.Points[0].Add(c.Points[1]).Scale(0.5)
	}
	if !c.turning {
		return false
	}
	c.tp = int32(g)
	q, k := &w.turn[g], &w.keep[g]
	q.prepare(a, b, c, p, &w.cons[ci], int32(ci))
	*k = kept{} // circles keep nothing (recycle)
	switch {
	case f.reused:
		*k = w.prevKeep[w.previous[f.prev].tp]
	case a.Shape != Circle && b.Shape != Circle:
		k.remember(a, b, p)
	}
	if f.prev >= 0 && !w.cold {
		prev := &w.previous[f.prev]
		c.Touching = prev.Touching // until the solve decides, with PartGap
		if prev.turning {
			w.warmTurning(c, q, &w.prevTurn[prev.tp])
		}
	}
	return q.mayBounce()
}

// Contact recycling, after Erin Catto's in Box2D v3 (b2CollideTask in
// physics_world.c; our own code, tighter): a turning pair whose
// shapes are as they were, neither of which has turned by more than
// recycleTurn, and whose relative pose has moved by less than
// recycleDistance (its centres' offset in A's frame, and its relative turn
// times the larger body's reach) since the narrow phase last ran for it,
// keeps that manifold: its normal, its points' anchors and ids, each
// point's separation moved by how far its two anchors have moved apart
// along the normal, as the sub-steps do. A heap at rest then costs the
// narrow phase almost nothing, and its contacts do not flicker between
// one and two points. The error is bounded by the tolerances: a fifth of
// the slop in the anchors, a third of a degree in the normal (Box2D v3
// allows ten slops and 11°). Circles are not recycled: a circle's point
// must stay on the line of its centre, or a frictionless ball would
// spin, and their narrow phase is cheap.
const (
	recycleDistance = slop / 5
	recycleTurn     = 0.99998 // the least cosine of either body's turn: 0.36°
)

// shapeKey is what a box's or a polygon's shape is made of (circles are
// not recycled): a game may resize a body between steps, and the
// manifolds kept for it must then go.
type shapeKey struct {
	hw, hh float64 // a box's
	hull   *Hull   // a polygon's
}

func keyOf(b *Body) shapeKey {
	if b.Shape == Polygon {
		return shapeKey{hull: b.Hull}
	}
	return shapeKey{hw: b.HalfW, hh: b.HalfH}
}

// bulk bounds how far a point of a box or polygon is from its centre (its
// reach, without a square root); zero for a static body, which never
// turns.
func (b *Body) bulk() float64 {
	switch {
	case b.Kind == Static:
		return 0
	case b.Shape == Box:
		return b.HalfW + b.HalfH
	}
	return b.Hull.outer
}

// remember keeps the manifold p of a and b, just computed, for recycle.
func (k *kept) remember(a, b *Body, p *points) {
	*k = kept{n: int8(p.np), ids: p.ids, ra: p.pts, dc: b.Pos.Sub(a.Pos),
		qa: [2]float64{a.rc, a.rs}, qb: [2]float64{b.rc, b.rs},
		base: [2]float64{-p.depths[0], -p.depths[1]}, ka: keyOf(a), kb: keyOf(b)}
}

// recycle fills p and the manifold of a and b from c, the pair's turning
// contact of the last tick, when its kept manifold may be
// reused (see recycleDistance); reused is false when it may not, and the
// narrow phase must run. ok reports whether the pair is a contact: a
// point of it is within spec.
func (w *World) recycle(a, b *Body, c *Contact, p *points, spec float64) (m manifold, ok, reused bool) {
	if a.Shape == Circle || b.Shape == Circle {
		return m, false, false // a circle's point must stay on its centres' line: its narrow phase is cheap
	}
	k := &w.prevKeep[c.tp]
	if k.n == 0 || k.ka != keyOf(a) || k.kb != keyOf(b) {
		return m, false, false
	}
	ac, as := a.cosSin()
	bc, bs := b.cosSin()
	// Each body's turn since: (cos, sin) of its angle less its angle then.
	dac, das := float64(ac*k.qa[0])+float64(as*k.qa[1]), float64(as*k.qa[0])-float64(ac*k.qa[1])
	dbc, dbs := float64(bc*k.qb[0])+float64(bs*k.qb[1]), float64(bs*k.qb[0])-float64(bc*k.qb[1])
	if !(dac >= recycleTurn && dbc >= recycleTurn) { // (NaN fails)
		return m, false, false
	}
	// The relative pose: B's centre in A's frame, now and then, and the
	// sine of B's turn relative to A's since.
	dc := b.Pos.Sub(a.Pos)
	moved := unrotate(ac, as, dc).Sub(unrotate(k.qa[0], k.qa[1], k.dc))
	rel := float64(dbs*dac) - float64(dbc*das)
	if !(math.Abs(moved.X)+math.Abs(moved.Y)+float64(max(a.bulk(), b.bulk())*math.Abs(rel)) < recycleDistance) {
		return m, false, false
	}
	n := c.Normal // kept: the normal of the manifold, as every tick's since
	m = manifold{n: n, depth: math.Inf(-1), feature: c.feature}
	p.np = int(k.n)
	for j := range p.np {
		// The anchors turned with their bodies; B's was ra - dc then.
		// Every point stays, apart or not, while the pair is a contact:
		// a box rocking on its neighbour keeps its lifted corner's row
		// (dropping it lets a pyramid creep).
		ra := rotate(dac, das, k.ra[j])
		rb := rotate(dbc, dbs, k.ra[j].Sub(k.dc))
		sep := k.base[j] + n.Dot(dc.Add(rb).Sub(ra))
		p.pts[j], p.depths[j], p.ids[j] = k.ra[j], -sep, k.ids[j]
		m.depth = max(m.depth, -sep)
	}
	return m, m.depth >= -spec, true
}

// prepare sets up a turning contact's points from m and its constraint,
// k, at index ci: the points' depths, ids and normal velocities, and
// what the soft step's passes need of them (see constraint).
func (c *pointState) prepare(a, b *Body, ct *Contact, m *points, k *constraint, ci int32) {
	n, t := ct.Normal, ct.tangent()
	*c = pointState{np: int32(m.np), ci: ci, live: true, e: max(a.Restitution, b.Restitution)}
	*k = constraint{a: int32(ct.ia), b: int32(ct.ib), np: int32(m.np), ima: a.invMass, iia: a.invI, imb: b.invMass, iib: b.invI}
	k.hard = a.Kind != Dynamic || b.Kind != Dynamic
	k.static = a.Kind == Static || b.Kind == Static
	k.n, k.friction = n, ct.friction
	ims := a.invMass + b.invMass
	var rt [2][2]float64 // each point's rA×t, rB×t
	for j := range m.np {
		ra := m.pts[j]
		rb := a.Pos.Add(ra).Sub(b.Pos)
		c.depths[j], c.ids[j] = m.depths[j], m.ids[j]
		c.vn0s[j] = relVel(a, b, ra, rb).Dot(n)
		p := &k.p[j]
		p.rnA, p.rnB = cross(ra, n), cross(rb, n)
		rt[j] = [2]float64{cross(ra, t), cross(rb, t)}
		// A circle's point is no point of it: the circle turns under it
		// and its surface stays where it was.
		if a.Shape != Circle {
			p.dA = n.Dot(ra)
		}
		if b.Shape != Circle {
			p.dB = n.Dot(rb)
		}
		p.sep = -m.depths[j]
		p.nm = 1 / (ims + float64(a.invI*float64(p.rnA*p.rnA)) + float64(b.invI*float64(p.rnB*p.rnB)))
	}
	// One friction row: a point's own, or for two at their mid-arms (see
	// pass2).
	rtA, rtB := rt[0][0], rt[0][1]
	if m.np == 2 {
		rtA, rtB = float64(0.5*(rt[0][0]+rt[1][0])), float64(0.5*(rt[0][1]+rt[1][1]))
	}
	k.rtA, k.rtB = rtA, rtB
	k.tm = 1 / (ims + float64(a.invI*float64(rtA*rtA)) + float64(b.invI*float64(rtB*rtB)))
	if m.np == 2 {
		p0, p1 := &k.p[0], &k.p[1]
		k11, k22 := 1/p0.nm, 1/p1.nm
		k12 := ims + float64(a.invI*float64(p0.rnA*p1.rnA)) + float64(b.invI*float64(p0.rnB*p1.rnB))
		det := float64(k11*k22) - float64(k12*k12)
		// Well conditioned (the points not on one spot): a block.
		if float64(k11*k11) < float64(1000*det) {
			k.block, k.kk, k.kinv = true, [3]float64{k11, k12, k22}, [3]float64{k22 / det, -k12 / det, k11 / det}
		}
	}
}

// speculative is how far apart a pair may be and still be a contact this
// tick. In an upright world, the margin. In a turning one, the slop plus
// as far as the pair can close in the tick, moving and turning as it does
// (the grid padded each body by its travel): a fast body is stopped at
// another, not found deep inside it a tick later and pushed out, and a
// pair with a gap it cannot close costs nothing.
func (w *World) speculative(a, b *Body) float64 {
	if !w.turning {
		return margin
	}
	return slop + float64(w.dt*(reachSpeed(a)+reachSpeed(b)))
}

// reachSpeed bounds how fast any point of a moving body moves: its speed
// and its spin times its outer radius. Zero for a static body.
func reachSpeed(b *Body) float64 {
	if b.Kind == Static {
		return 0
	}
	v := b.Vel.Len()
	if b.AngVel != 0 {
		v += float64(math.Abs(b.AngVel) * b.reach())
	}
	return v
}

// sweep widens the bounds lo, hi by where the body's points can go in dt:
// along its velocity, and by its spin's reach either way.
func (b *Body) sweep(lo, hi Vec2, dt float64) (Vec2, Vec2) {
	d := b.Vel.Scale(dt)
	r := 0.0
	if b.AngVel != 0 {
		r = float64(float64(math.Abs(b.AngVel)*b.reach()) * dt)
	}
	return Vec2{lo.X + min(d.X, 0) - r, lo.Y + min(d.Y, 0) - r}, Vec2{hi.X + max(d.X, 0) + r, hi.Y + max(d.Y, 0) + r}
}

// turns reports whether a pair is solved as turning: either body can turn
// or spins.
func turns(a, b *Body) bool { return a.invI != 0 || b.invI != 0 || a.AngVel != 0 || b.AngVel != 0 }

// relVel is the velocity of b's point at rb relative to a's at ra.
func relVel(a, b *Body, ra, rb Vec2) Vec2 {
	return Vec2{
		b.Vel.X - float64(b.AngVel*rb.Y) - (a.Vel.X - float64(a.AngVel*ra.Y)),
		b.Vel.Y + float64(b.AngVel*rb.X) - (a.Vel.Y + float64(a.AngVel*ra.X)),
	}
}

// warmStart gives each upright contact the impulses the same contact
// (same pair, same feature) ended the last tick with, and applies them:
// the solver starts from last tick's answer instead of from nothing. (A
// turning contact is warm-started as it is recorded.)
func (w *World) warmStart() {
	w.cursor = 0
	for i := range w.contacts {
		c := &w.contacts[i]
		if c.resting || c.turning {
			continue
		}
		k := w.lastOf(c.key, &w.cursor, &w.prevTable.probes)
		if k < 0 {
			continue
		}
		prev := &w.previous[k]
		c.Touching = prev.Touching // until the solve decides, with PartGap
		if prev.turning || prev.feature != c.feature {
			continue
		}
		c.Impulse, c.FrictionImpulse = w.previous[k].Impulse, w.previous[k].FrictionImpulse
		w.apply(c, c.Normal.Scale(c.Impulse).Add(c.tangent().Scale(c.FrictionImpulse)))
	}
}

// warmTurning gives each point of turning contact c the impulses of the
// point of prev with the same feature id; the sub-steps apply them.
func (w *World) warmTurning(c *Contact, q, prev *pointState) {
	k := &w.cons[q.ci]
	for i := range c.NumPoints {
		for j := range 2 {
			if prev.ids[j] == q.ids[i] {
				q.pn[i], q.pt[i] = prev.pn[j], prev.pt[j]
				k.p[i].pn, k.p[i].pt = prev.pn[j], prev.pt[j]
				break
			}
		}
	}
}

// apply adds impulse p to body B of c and takes it from body A.
func (w *World) apply(c *Contact, p Vec2) {
	a, b := &w.bodies[c.ia], &w.bodies[c.ib]
	a.Vel = a.Vel.Sub(p.Scale(a.invMass))
	b.Vel = b.Vel.Add(p.Scale(b.invMass))
}

// manifold is a narrow-phase result: the normal from a to b, the overlap
// along it (negative: a gap; the deepest point's) and the feature (box
// pairs on the upright path: which face). The general path (a turned box
// or a polygon) also gives its points (np of them, relative to a.Pos),
// each with its depth and a feature id stable from tick to tick.
type manifold struct {
	n       Vec2
	depth   float64
	feature uint8
}

// points are a manifold's contact points (np of them, relative to the
// first body's position), each with its depth and a feature id stable
// from tick to tick: the general path fills them in, the upright paths
// leave them to fill.
type points struct {
	np     int
	pts    [2]Vec2
	depths [2]float64
	ids    [2]uint16
	ref    uint8 // polygon pairs: 1 when a's face is the reference, 2 when b's
}

// collide tests two bodies for overlap.
func collide(a, b *Body) (manifold, bool) {
	m, ok := collideNear(a, b)
	return m, ok && m.depth > 0
}

// collideNear tests two bodies for overlap or a gap under the speculative
// margin (depth > -margin).
func collideNear(a, b *Body) (manifold, bool) {
	if a.Shape == Circle && b.Shape == Circle {
		return circleCircle(a, b, margin)
	}
	if flat(a, b) { // the upright world's pairs, without a points buffer
		if a.Shape == Box && b.Shape == Box {
			return boxBox(a, b, margin)
		}
		if a.Shape == Circle {
			m, ok := boxCircle(b, a, margin)
			m.n = m.n.Scale(-1)
			return m, ok
		}
		return boxCircle(a, b, margin)
	}
	var p points
	return collidePoints(a, b, &p, margin)
}

// flat reports whether a pair takes the upright paths: boxes and circles
// at angle 0 that cannot turn. The upright paths serve only pairs that
// cannot turn, so that a turning pair keeps one path, and its points
// their ids, when an angle passes through 0.
func flat(a, b *Body) bool {
	return a.Shape <= Box && b.Shape <= Box && !turns(a, b) && a.upright() && b.upright()
}

// collidePoints is collideNear, with the general path's points in p.
// Upright boxes and circles take the axis-aligned paths of the upright
// world; a turned box or a polygon the general one (separating axes, then
// the incident edge clipped to the reference face).
func collidePoints(a, b *Body, p *points, spec float64) (manifold, bool) {
	if a.Shape == Circle && b.Shape == Circle {
		return circleCircle(a, b, spec)
	}
	flat := flat(a, b)
	switch {
	case flat && a.Shape == Box && b.Shape == Box:
		return boxBox(a, b, spec)
	case flat && a.Shape == Circle:
		m, ok := boxCircle(b, a, spec)
		m.n = m.n.Scale(-1)
		return m, ok
	case flat:
		return boxCircle(a, b, spec)
	case a.Shape == Circle:
		var pb poly
		pb.place(b, b.Pos.Sub(a.Pos))
		m, ok := polyCircle(&pb, Vec2{}, a.Radius, p, spec)
		m.n = m.n.Scale(-1)
		return m, ok
	case b.Shape == Circle:
		var pa poly
		pa.place(a, Vec2{})
		return polyCircle(&pa, b.Pos.Sub(a.Pos), b.Radius, p, spec)
	}
	var pa, pb poly
	pa.place(a, Vec2{})
	pb.place(b, b.Pos.Sub(a.Pos))
	return polyPoly(&pa, &pb, p, spec)
}

func circleCircle(a, b *Body, spec float64) (manifold, bool) {
	d := b.Pos.Sub(a.Pos)
	r := a.Radius + b.Radius
	dist2 := d.Dot(d)
	if dist2 >= (r+spec)*(r+spec) {
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
func boxBox(a, b *Body, spec float64) (manifold, bool) {
	d := b.Pos.Sub(a.Pos)
	ox := a.HalfW + b.HalfW - math.Abs(d.X)
	oy := a.HalfH + b.HalfH - math.Abs(d.Y)
	if ox <= -spec || oy <= -spec || ox < 0 && oy < 0 {
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
func boxCircle(a, b *Body, spec float64) (manifold, bool) {
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
	if dist2 >= (b.Radius+spec)*(b.Radius+spec) {
		return manifold{}, false
	}
	dist := math.Sqrt(dist2)
	return manifold{n: e.Scale(1 / dist), depth: b.Radius - dist}, true
}

// polyCircle tests polygon p against a circle of radius r centred at c
// (both relative to the polygon body's position); the normal points from
// the polygon to the circle, and the point is the circle's, halfway into
// the overlap. The feature id is the face (0-7) or the vertex (8-15)
// nearest the centre.
func polyCircle(p *poly, c Vec2, r float64, out *points, spec float64) (manifold, bool) {
	face, sep := 0, math.Inf(-1)
	for i := range p.count {
		if s := p.n[i].Dot(c.Sub(p.v[i])); s > sep {
			face, sep = i, s
		}
	}
	if sep > r+spec {
		return manifold{}, false
	}
	n, depth, id := p.n[face], r-sep, uint16(face)
	if sep > 0 { // outside: the face, or one of its ends
		v1, v2 := p.v[face], p.v[(face+1)%p.count]
		end := -1
		switch {
		case c.Sub(v1).Dot(v2.Sub(v1)) <= 0:
			end = face
		case c.Sub(v2).Dot(v1.Sub(v2)) <= 0:
			end = (face + 1) % p.count
		}
		if end >= 0 {
			e := c.Sub(p.v[end])
			dist := e.Len()
			if dist >= r+spec {
				return manifold{}, false
			}
			if dist > 0 {
				n, depth, id = e.Scale(1/dist), r-dist, uint16(8+end)
			}
		}
	}
	out.np = 1
	out.pts[0] = c.Sub(n.Scale(r - float64(depth/2)))
	out.depths[0], out.ids[0] = depth, id
	return manifold{n: n, depth: depth}, true
}

// maxSeparation returns the face of p whose outward normal separates q
// the most, and by how much (negative: they overlap along every face).
func maxSeparation(p, q *poly) (int, float64) {
	face, best := 0, math.Inf(-1)
	qv := q.v[:q.count]
	if p.box {
		// A box's faces come in opposite pairs, n₂ = -n₀ and n₃ = -n₁:
		// q's least and greatest along n give both faces' separations,
		// -(n·w)'s least being -(n·w)'s greatest; for a box q they come
		// from its centre and axes, without its corners.
		var seps [4]float64
		for i := range 2 {
			n := p.n[i]
			var lo, hi float64
			if q.box { // q's extent along n, from its centre and axes
				e := float64(q.hw*math.Abs(n.Dot(q.n[1]))) + float64(q.hh*math.Abs(n.Dot(q.n[2])))
				c := n.Dot(q.c)
				lo, hi = c-e, c+e
			} else {
				lo, hi = math.Inf(1), math.Inf(-1)
				for _, w := range qv {
					d := float64(n.X*w.X) + float64(n.Y*w.Y)
					if d < lo {
						lo = d
					}
					if d > hi {
						hi = d
					}
				}
			}
			seps[i] = lo - n.Dot(p.v[i])
			seps[i+2] = -hi - p.n[i+2].Dot(p.v[i+2])
		}
		for i, s := range seps {
			if s > best {
				face, best = i, s
			}
		}
		return face, best
	}
	for i, n := range p.n[:p.count] {
		// The least of n·(w - v) over q's vertices w: n·w's least, less n·v.
		s := math.Inf(1)
		for _, w := range qv {
			if d := float64(n.X*w.X) + float64(n.Y*w.Y); d < s { // (not the builtin min, which orders NaNs and zeros, at a price)
				s = d
			}
		}
		if s -= n.Dot(p.v[i]); s > best {
			face, best = i, s
		}
	}
	return face, best
}

// polyPoly finds the contact of polygons a and b by separating axes: the
// face of either whose normal separates them most is the reference face
// (a's unless b's separates by a tenth of the slop more, so the choice
// does not flicker), the face of the other most against it the incident
// one, clipped to the reference face's sides; its ends within the margin
// of the reference face are the points, halfway between the two
// surfaces. A point's feature id names the reference face, which side
// (a or b) it is on, and the incident vertex or the side that clipped it.
func polyPoly(a, b *poly, out *points, spec float64) (manifold, bool) {
	fa, sa := maxSeparation(a, b)
	if sa > spec {
		return manifold{}, false
	}
	fb, sb := maxSeparation(b, a)
	if sb > spec {
		return manifold{}, false
	}
	ref, inc, face, flip := a, b, fa, uint16(0)
	if sb > sa+0.1*slop {
		ref, inc, face, flip = b, a, fb, 1
	}
	n := ref.n[face]
	v1, v2 := ref.v[face], ref.v[(face+1)%ref.count]
	// The incident face: the one most against n.
	ie, least := 0, math.Inf(1)
	for i := range inc.count {
		if d := n.Dot(inc.n[i]); d < least {
			ie, least = i, d
		}
	}
	i2 := (ie + 1) % inc.count
	seg := [2]Vec2{inc.v[ie], inc.v[i2]}
	ids := [2]uint16{uint16(ie), uint16(i2)}
	t := Vec2{-n.Y, n.X} // along the reference face, from v1 to v2
	// Clip to the side planes: t·p ≥ t·v1, and t·p ≤ t·v2.
	var ok bool
	if seg, ids, ok = clip(seg, ids, t.Scale(-1), -t.Dot(v1), uint16(8+face)); !ok {
		return manifold{}, false
	}
	if seg, ids, ok = clip(seg, ids, t, t.Dot(v2), uint16(8+(face+1)%ref.count)); !ok {
		return manifold{}, false
	}
	m := manifold{n: n, depth: math.Inf(-1)}
	if flip == 1 {
		m.n = n.Scale(-1)
	}
	out.np, out.ref = 0, uint8(1+flip)
	for k := range 2 {
		sep := n.Dot(seg[k].Sub(v1))
		if sep > spec {
			continue
		}
		out.pts[out.np] = seg[k].Sub(n.Scale(sep / 2))
		out.depths[out.np] = -sep
		out.ids[out.np] = flip<<12 | uint16(face)<<8 | ids[k]
		m.depth = max(m.depth, -sep)
		out.np++
	}
	return m, out.np > 0
}

// clip keeps the part of segment seg on the side n·p ≤ off; a point made
// by the cut takes the id side. It fails when nothing is left.
func clip(seg [2]Vec2, ids [2]uint16, n Vec2, off float64, side uint16) ([2]Vec2, [2]uint16, bool) {
	d0, d1 := n.Dot(seg[0])-off, n.Dot(seg[1])-off
	switch {
	case d0 <= 0 && d1 <= 0:
		return seg, ids, true
	case d0 > 0 && d1 > 0:
		return seg, ids, false
	}
	p := seg[0].Add(seg[1].Sub(seg[0]).Scale(d0 / (d0 - d1)))
	if d0 > 0 {
		seg[0], ids[0] = p, side
	} else {
		seg[1], ids[1] = p, side
	}
	return seg, ids, true
}

// fill fills in the points of m for the axis-aligned paths, which do not
// compute them (the upright solver needs none): the ends of the shared
// face for two boxes, the circle's point otherwise, relative to a.Pos, at
// the manifold's depth. Their ids name the face and the end.
func (p *points) fill(a, b *Body, m *manifold) {
	if p.np > 0 {
		return
	}
	pts, np := contactPoints(a, b, *m)
	p.np = np
	for k := range np {
		p.pts[k] = pts[k].Sub(a.Pos)
		p.depths[k] = m.depth
		p.ids[k] = 1<<13 | uint16(m.feature)<<4 | uint16(k)
	}
}

// contactPoints returns where a and b touch along normal n (from a to b),
// in world coordinates: for two upright boxes the ends of the shared face,
// halfway into the overlap; otherwise the point of the circle (or of the
// box nearest the circle).
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

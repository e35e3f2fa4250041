package physics

import "math"

// RayHit is where a ray first meets a body.
type RayHit struct {
	Body BodyID
	// Point is where the ray meets the body's surface, Normal the surface's
	// outward normal there, Fraction how far along from→to (0 to 1).
	Point, Normal Vec2
	Fraction      float64
}

// RayCast returns the first body the segment from→to meets among the
// enabled bodies whose layer is in mask (zero: all). A body the segment
// starts inside is hit at fraction 0, its normal against the ray. It tests
// every body: its cost grows with the world.
//
// Any finite from and to will do, ±1e308 included: the part of the
// segment beyond ±2·MaxCoordinate on either axis, where no body reaches,
// is cut off before the test, so the hit's point is finite and its fraction is
// along the whole of from→to; the farther its ends, the coarser the
// point, as their rounding is.
func (w *World) RayCast(from, to Vec2, mask uint32) (RayHit, bool) {
	best := RayHit{Fraction: math.Inf(1)}
	if !finite(from) || !finite(to) {
		return best, false // a ray that is not finite meets nothing
	}
	p, q, t0, t1, ok := clipRay(from, to)
	if !ok {
		return best, false // it passes where no body reaches
	}
	d := q.Sub(p)
	for i := range w.bodies {
		b := &w.bodies[i]
		if !b.answers(mask) {
			continue
		}
		t, n, ok := rayBody(b, p, d)
		if ok && t < best.Fraction {
			best = RayHit{Body: w.ID(i), Fraction: t, Normal: n, Point: p.Add(d.Scale(t))}
		}
	}
	if math.IsInf(best.Fraction, 1) {
		return best, false
	}
	if t0 != 0 || t1 != 1 {
		best.Fraction = t0 + float64(best.Fraction*(t1-t0)) // along from→to
	}
	return best, true
}

// rayReach bounds where a body reaches: its centre within MaxCoordinate,
// its shape within MaxSize (a hull's vertex within √2·MaxSize) of it.
const rayReach = 2 * MaxCoordinate

// clipRay returns the part p→q of the segment from→to that lies within
// ±rayReach on both axes, with the fractions t0 and t1 of from→to at
// which it begins and ends; ok is false when none does. A segment within
// reach is returned as it is (0 and 1), so a ray among the bodies is
// answered the same with or without the clip. It works on halves, which
// cannot overflow where to−from may (1e308 − (−1e308)). Where the segment
// is cut, the cut's coordinate on the axis that cut it is exact (±rayReach)
// and the other one is interpolated: exact for a ray along an axis, and
// within rounding of the ends' coordinates (1e292 for ends at 1e308)
// across, kept within reach.
func clipRay(from, to Vec2) (p, q Vec2, t0, t1 float64, ok bool) {
	in := func(v float64) bool { return v >= -rayReach && v <= rayReach }
	if in(from.X) && in(from.Y) && in(to.X) && in(to.Y) {
		return from, to, 0, 1, true
	}
	half := Vec2{float64(to.X/2) - float64(from.X/2), float64(to.Y/2) - float64(from.Y/2)} // (to−from)/2; x/2 is x*0.5, rounded before the subtraction
	t0, t1 = 0, 1
	var cut0, cut1 [2]float64 // where each end is cut, per axis (0: not)
	for axis := range 2 {
		o, v := float64(from.X/2), half.X // rounded: o is subtracted from below
		if axis == 1 {
			o, v = float64(from.Y/2), half.Y
		}
		if v == 0 {
			if !in(2 * o) {
				return p, q, 0, 0, false // parallel to the region, outside it
			}
			continue
		}
		enter, leave := -rayReach, rayReach
		if v < 0 {
			enter, leave = leave, enter
		}
		if a := (float64(enter/2) - o) / v; a > t0 {
			t0, cut0 = a, [2]float64{}
			cut0[axis] = enter
		}
		if b := (float64(leave/2) - o) / v; b < t1 {
			t1, cut1 = b, [2]float64{}
			cut1[axis] = leave
		}
	}
	if t0 > t1 {
		return p, q, 0, 0, false
	}
	at := func(t float64, cut [2]float64) Vec2 {
		if t == 0 {
			return from
		}
		if t == 1 {
			return to
		}
		v := from.Add(half.Scale(t).Scale(2))
		v = Vec2{clamp(v.X, rayReach), clamp(v.Y, rayReach)}
		if cut[0] != 0 {
			v.X = cut[0]
		}
		if cut[1] != 0 {
			v.Y = cut[1]
		}
		return v
	}
	return at(t0, cut0), at(t1, cut1), t0, t1, true
}

// rayBody intersects the ray from + t·d, t in [0, 1], with body b at its
// rotation: a turned box or a polygon in the body's frame.
func rayBody(b *Body, from, d Vec2) (float64, Vec2, bool) {
	b.syncRotation() // the game may have turned it since the step
	switch {
	case b.Shape == Circle:
		return rayCircle(from, d, b.Pos, b.Radius)
	case b.Shape == Box && b.upright():
		return rayBox(from, d, b.Pos, b.HalfW, b.HalfH)
	}
	p, ld := unrotate(b.rc, b.rs, from.Sub(b.Pos)), unrotate(b.rc, b.rs, d)
	var t float64
	var n Vec2
	var ok bool
	if b.Shape == Box {
		t, n, ok = rayBox(p, ld, Vec2{}, b.HalfW, b.HalfH)
	} else {
		t, n, ok = rayHull(p, ld, b.Hull)
	}
	if !ok {
		return 0, Vec2{}, false
	}
	if t == 0 && n == rayAgainst(ld) { // started inside: against the ray in the world
		return 0, rayAgainst(d), true
	}
	return t, rotate(b.rc, b.rs, n), true
}

// rayHull intersects the ray p + t·d, t in [0, 1], with a hull in its own
// frame, clipping the ray by each edge's half-plane (Cyrus and Beck).
func rayHull(p, d Vec2, h *Hull) (float64, Vec2, bool) {
	tmin, tmax, face := 0.0, 1.0, -1
	for i := range int(h.n) {
		n := h.norms[i]
		num, den := n.Dot(h.verts[i].Sub(p)), n.Dot(d)
		switch {
		case den == 0:
			if num < 0 {
				return 0, Vec2{}, false // parallel, outside
			}
		case den < 0: // entering
			if t := num / den; t > tmin {
				tmin, face = t, i
			}
		default:
			tmax = min(tmax, num/den)
		}
		if tmin > tmax {
			return 0, Vec2{}, false
		}
	}
	if face < 0 { // starts inside, or on the surface
		return 0, rayAgainst(d), true
	}
	return tmin, h.norms[face], true
}

// finite reports whether both of v's components are finite.
func finite(v Vec2) bool { return !math.IsNaN(v.X-v.X) && !math.IsNaN(v.Y-v.Y) }

// answers reports whether a query of mask (zero: every layer) sees b: it is
// in the world, enabled, and in one of the mask's layers.
func (b *Body) answers(mask uint32) bool {
	layer, _ := b.layers()
	return b.active() && (mask == 0 || layer&mask != 0)
}

// rayCircleFar is rayCircle for a ray that starts farther from the
// centre than farCircle radii: it works from the ray's closest approach
// to the centre, measured along the ray's unit direction (as Box2D
// does), not from the quadratic's coefficients, whose difference loses
// the circle altogether when the ray starts a billion radii away (a ray
// across the world). The start is outside the circle.
func rayCircleFar(m, d Vec2, r float64) (float64, Vec2, bool) {
	l := d.Len()
	if l == 0 {
		return 0, Vec2{}, false
	}
	u := d.Scale(1 / l)
	along := -m.Dot(u) // how far along the ray its closest approach is
	if along < 0 {
		return 0, Vec2{}, false // going away
	}
	near := m.Add(u.Scale(along)) // the closest approach, from the centre
	h := float64(r*r) - near.Dot(near)
	if h < 0 {
		return 0, Vec2{}, false
	}
	h = math.Sqrt(h)
	t := (along - h) / l
	if t > 1 {
		return 0, Vec2{}, false
	}
	return t, near.Sub(u.Scale(h)).Scale(1 / r), true
}

// farCircle is how many radii away a ray starts for rayCircle to hand it
// to rayCircleFar. Within it the quadratic loses at most about 8 of its
// 16 digits; the casts of a game's tick (the golden scenes') stay with
// it, bit for bit as before.
const farCircle = 1e4

// rayCircle intersects the ray p + t·d, t in [0, 1], with a circle. From
// farther than farCircle radii it hands over to rayCircleFar.
func rayCircle(p, d, c Vec2, r float64) (float64, Vec2, bool) {
	m := p.Sub(c)
	cc := m.Dot(m) - float64(r*r)
	if cc <= 0 { // inside
		return 0, rayAgainst(d), true
	}
	if m.Dot(m) > float64(farCircle*farCircle*float64(r*r)) {
		return rayCircleFar(m, d, r)
	}
	a := d.Dot(d)
	bb := m.Dot(d)
	disc := float64(bb*bb) - float64(a*cc)
	if a == 0 || bb > 0 || disc < 0 {
		return 0, Vec2{}, false
	}
	t := (-bb - math.Sqrt(disc)) / a
	if t > 1 {
		return 0, Vec2{}, false
	}
	hit := p.Add(d.Scale(t))
	return t, hit.Sub(c).Scale(1 / r), true
}

// rayBox intersects the ray p + t·d, t in [0, 1], with a box (slabs).
func rayBox(p, d, c Vec2, hw, hh float64) (float64, Vec2, bool) {
	lo, hi := Vec2{c.X - hw, c.Y - hh}, Vec2{c.X + hw, c.Y + hh}
	if p.X > lo.X && p.X < hi.X && p.Y > lo.Y && p.Y < hi.Y {
		return 0, rayAgainst(d), true
	}
	tmin, tmax := 0.0, 1.0
	var n Vec2
	for axis := range 2 {
		o, v, l, h := p.X, d.X, lo.X, hi.X
		if axis == 1 {
			o, v, l, h = p.Y, d.Y, lo.Y, hi.Y
		}
		if v == 0 {
			if o < l || o > h {
				return 0, Vec2{}, false
			}
			continue
		}
		t1, t2, s := (l-o)/v, (h-o)/v, -1.0
		if t1 > t2 {
			t1, t2, s = t2, t1, 1
		}
		if t1 > tmin {
			tmin = t1
			n = Vec2{}
			if axis == 0 {
				n.X = s
			} else {
				n.Y = s
			}
		}
		tmax = min(tmax, t2)
		if tmin > tmax {
			return 0, Vec2{}, false
		}
	}
	if n == (Vec2{}) { // touching at the start
		n = rayAgainst(d)
	}
	return tmin, n, true
}

// rayAgainst is the normal against a ray's direction.
func rayAgainst(d Vec2) Vec2 {
	if l := d.Len(); l > 0 {
		return d.Scale(-1 / l)
	}
	return Vec2{0, 1}
}

// QueryAABB appends to dst the enabled bodies whose bounds overlap the box
// lo..hi and whose layer is in mask (zero: all), in index order, and
// returns it. With a dst of enough capacity it allocates nothing.
func (w *World) QueryAABB(lo, hi Vec2, mask uint32, dst []BodyID) []BodyID {
	if !finite(lo) || !finite(hi) {
		return dst // a box that is not finite holds nothing
	}
	for i := range w.bodies {
		b := &w.bodies[i]
		if !b.answers(mask) {
			continue
		}
		b.syncRotation() // the game may have turned it since the step
		blo, bhi := b.bounds()
		if blo.X <= hi.X && lo.X <= bhi.X && blo.Y <= hi.Y && lo.Y <= bhi.Y {
			dst = append(dst, w.ID(i))
		}
	}
	return dst
}

// QueryPoint appends to dst the enabled bodies whose shape, at its angle,
// holds the point p (its edge included) and whose layer is in mask (zero:
// all), in index order, and returns it: the crate under the mouse, not
// every body whose bounds do (QueryAABB). With a dst of enough capacity
// it allocates nothing.
func (w *World) QueryPoint(p Vec2, mask uint32, dst []BodyID) []BodyID {
	if !finite(p) {
		return dst // a point that is not finite is in nothing
	}
	for i := range w.bodies {
		if b := &w.bodies[i]; b.answers(mask) && b.holds(p) {
			dst = append(dst, w.ID(i))
		}
	}
	return dst
}

// holds reports whether point p is inside the body's shape or on its edge.
func (b *Body) holds(p Vec2) bool {
	d := p.Sub(b.Pos)
	if b.Shape == Circle {
		return d.Dot(d) <= float64(b.Radius*b.Radius)
	}
	l := b.LocalVector(d)
	if b.Shape == Box {
		return math.Abs(l.X) <= b.HalfW && math.Abs(l.Y) <= b.HalfH
	}
	h := b.Hull
	for i := range h.Len() {
		if h.norms[i].Dot(l.Sub(h.verts[i])) > 0 {
			return false
		}
	}
	return true
}

// Hit is what a sweep meets first.
type Hit struct {
	Body BodyID
	// Fraction of the motion made before touching (0 to 1), Normal the
	// hit body's surface normal, against the motion.
	Fraction float64
	Normal   Vec2
}

// Cast sweeps body id's shape along delta, from where it is, against the
// static and kinematic bodies its layers collide with, and returns the
// first it would touch: a kinematic body moved by the game stops at walls
// this way (or set Body.Sweep and let Step do it). It does not move the
// body.
//
// Any finite delta will do, ±1e308 included: a sweep longer than
// 4·MaxCoordinate on an axis is cut to that (no body is farther away),
// and the hit's fraction is along the whole of delta.
func (w *World) Cast(id BodyID, delta Vec2) (Hit, bool) {
	b := w.Body(id)
	best := Hit{Fraction: math.Inf(1)}
	if !finite(delta) {
		return best, false
	}
	share := 1.0 // of delta swept
	if l := max(math.Abs(delta.X), math.Abs(delta.Y)); l > 2*rayReach {
		share = 2 * rayReach / l
		delta = delta.Scale(share)
	}
	for i := range w.bodies {
		o := &w.bodies[i]
		if i == int(id.index) || !o.active() || o.Kind == Dynamic || !collides(b, o) {
			continue
		}
		if t, n, ok := sweep(b, o, delta); ok && t < best.Fraction {
			best = Hit{Body: w.ID(i), Fraction: t, Normal: n}
		}
	}
	if math.IsInf(best.Fraction, 1) {
		return best, false
	}
	best.Fraction = float64(best.Fraction * share)
	return best, true
}

// sweep moves a's centre along delta against the Minkowski sum of the two
// shapes around b: a box (two boxes), a circle (two circles), or a rounded
// box (a box and a circle).
func sweep(a, b *Body, delta Vec2) (float64, Vec2, bool) {
	a.syncRotation()
	b.syncRotation()
	if !(a.Shape == Circle || a.Shape == Box && a.upright()) || !(b.Shape == Circle || b.Shape == Box && b.upright()) {
		return advance(a, b, delta)
	}
	switch {
	case a.Shape == Box && b.Shape == Box:
		return rayBox(a.Pos, delta, b.Pos, a.HalfW+b.HalfW, a.HalfH+b.HalfH)
	case a.Shape == Circle && b.Shape == Circle:
		return rayCircle(a.Pos, delta, b.Pos, a.Radius+b.Radius)
	}
	hw, hh, r := b.HalfW, b.HalfH, a.Radius
	if a.Shape == Box {
		hw, hh, r = a.HalfW, a.HalfH, b.Radius
	}
	// The rounded box: two crossed boxes and four corner circles.
	best, bn, hit := math.Inf(1), Vec2{}, false
	try := func(t float64, n Vec2, ok bool) {
		if ok && t < best {
			best, bn, hit = t, n, true
		}
	}
	try(rayBox(a.Pos, delta, b.Pos, hw+r, hh))
	try(rayBox(a.Pos, delta, b.Pos, hw, hh+r))
	for _, s := range [4]Vec2{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
		try(rayCircle(a.Pos, delta, b.Pos.Add(Vec2{s.X, s.Y}.Mul(hw, hh)), r))
	}
	return best, bn, hit
}

// castTolerance is how near a cast between turned shapes brings them: it
// reports the hit this far short of touching, or nearer.
const castTolerance = slop / 8

// advance sweeps a (not turning) along delta against b by conservative
// advancement, for a turned box or a polygon on either side: at each step
// the separation is a lower bound of the distance, so moving a by it
// never passes through b. It reports the fraction at which the
// separation is under castTolerance and closing, with b's surface normal
// there, against the motion. The separation of two polygons is that of
// separating axes, which may be less than the distance when corners face
// each other: such a hit comes early by at most about 1.5×castTolerance.
func advance(a, b *Body, delta Vec2) (float64, Vec2, bool) {
	l := delta.Len()
	if l == 0 {
		return 0, Vec2{}, false
	}
	t := 0.0
	for range 64 {
		sep, n := separation(a, a.Pos.Add(delta.Scale(t)), b)
		if sep <= castTolerance {
			if t == 0 && sep < 0 {
				return 0, n, true // starts inside
			}
			if delta.Dot(n) < 0 {
				return t, n, true
			}
			sep = castTolerance // touching but leaving: step on
		}
		t += sep / l
		if t > 1 {
			return 0, Vec2{}, false
		}
	}
	return 0, Vec2{}, false
}

// separation returns how far apart a (placed at pos) and b are, at least
// (negative: overlapping), and b's surface normal towards a.
func separation(a *Body, pos Vec2, b *Body) (float64, Vec2) {
	off := pos.Sub(b.Pos) // a relative to b
	switch {
	case a.Shape == Circle && b.Shape == Circle:
		d := off.Len()
		if d == 0 {
			return -(a.Radius + b.Radius), Vec2{0, 1}
		}
		return d - a.Radius - b.Radius, off.Scale(1 / d)
	case a.Shape == Circle:
		var pb poly
		pb.place(b, Vec2{})
		return polyCircleSep(&pb, off, a.Radius)
	case b.Shape == Circle:
		var pa poly
		pa.place(a, off)
		sep, n := polyCircleSep(&pa, Vec2{}, b.Radius)
		return sep, n.Scale(-1)
	}
	var pa, pb poly
	pa.place(a, off)
	pb.place(b, Vec2{})
	fa, sa := maxSeparation(&pa, &pb)
	fb, sb := maxSeparation(&pb, &pa)
	if sa > sb {
		return sa, pa.n[fa].Scale(-1)
	}
	return sb, pb.n[fb]
}

// polyCircleSep returns the distance from polygon p to the circle of
// radius r at c, less r, and the polygon's normal towards the circle.
func polyCircleSep(p *poly, c Vec2, r float64) (float64, Vec2) {
	face, sep := 0, math.Inf(-1)
	for i := range p.count {
		if s := p.n[i].Dot(c.Sub(p.v[i])); s > sep {
			face, sep = i, s
		}
	}
	if sep <= 0 {
		return sep - r, p.n[face]
	}
	v1, v2 := p.v[face], p.v[(face+1)%p.count]
	end := v2
	switch {
	case c.Sub(v1).Dot(v2.Sub(v1)) <= 0:
		end = v1
	case c.Sub(v2).Dot(v1.Sub(v2)) > 0:
		return sep - r, p.n[face]
	}
	e := c.Sub(end)
	d := e.Len()
	return d - r, e.Scale(1 / d)
}

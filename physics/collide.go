package physics

import "math"

// contact is a narrow-phase result: the normal points from a to b, and
// depth is how far they overlap along it.
type contact struct {
	n     Vec2
	depth float64
}

// collide tests two bodies for overlap.
func collide(a, b *Body) (contact, bool) {
	switch {
	case a.Shape == Circle && b.Shape == Circle:
		return circleCircle(a, b)
	case a.Shape == Box && b.Shape == Box:
		return boxBox(a, b)
	case a.Shape == Circle:
		c, ok := boxCircle(b, a)
		c.n = c.n.Scale(-1)
		return c, ok
	default:
		return boxCircle(a, b)
	}
}

func circleCircle(a, b *Body) (contact, bool) {
	d := b.Pos.Sub(a.Pos)
	r := a.Radius + b.Radius
	dist2 := d.Dot(d)
	if dist2 >= r*r {
		return contact{}, false
	}
	dist := math.Sqrt(dist2)
	if dist == 0 {
		return contact{n: Vec2{0, 1}, depth: r}, true
	}
	return contact{n: d.Scale(1 / dist), depth: r - dist}, true
}

func boxBox(a, b *Body) (contact, bool) {
	d := b.Pos.Sub(a.Pos)
	ox := a.HalfW + b.HalfW - math.Abs(d.X)
	oy := a.HalfH + b.HalfH - math.Abs(d.Y)
	if ox <= 0 || oy <= 0 {
		return contact{}, false
	}
	if ox < oy {
		return contact{n: Vec2{sign(d.X), 0}, depth: ox}, true
	}
	return contact{n: Vec2{0, sign(d.Y)}, depth: oy}, true
}

// boxCircle tests box a against circle b; the normal points from the box to
// the circle.
func boxCircle(a, b *Body) (contact, bool) {
	d := b.Pos.Sub(a.Pos)
	// Closest point of the box to the circle's center.
	cx := math.Max(-a.HalfW, math.Min(a.HalfW, d.X))
	cy := math.Max(-a.HalfH, math.Min(a.HalfH, d.Y))
	inside := cx == d.X && cy == d.Y
	if inside {
		// Center inside the box: push out along the nearest face.
		ox, oy := a.HalfW-math.Abs(d.X), a.HalfH-math.Abs(d.Y)
		if ox < oy {
			return contact{n: Vec2{sign(d.X), 0}, depth: ox + b.Radius}, true
		}
		return contact{n: Vec2{0, sign(d.Y)}, depth: oy + b.Radius}, true
	}
	e := Vec2{d.X - cx, d.Y - cy}
	dist2 := e.Dot(e)
	if dist2 >= b.Radius*b.Radius {
		return contact{}, false
	}
	dist := math.Sqrt(dist2)
	return contact{n: e.Scale(1 / dist), depth: b.Radius - dist}, true
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

const (
	// slop is the overlap left alone, so resting contacts do not jitter.
	slop = 1e-4
	// correction is the share of the remaining overlap removed per contact.
	correction = 0.8
)

// resolve applies a collision impulse with restitution and friction, and
// pushes the bodies apart.
func resolve(a, b *Body, c contact) {
	if a.invMass+b.invMass == 0 {
		return
	}
	separate(a, b, c)
	impulse(a, b, c.n, math.Max(a.Restitution, b.Restitution))
}

// separate takes a share of the overlap out of a and b's positions, split
// by inverse mass. One of them must be movable.
func separate(a, b *Body, c contact) {
	if p := c.depth - slop; p > 0 {
		k := p * correction / (a.invMass + b.invMass)
		a.Pos = a.Pos.Sub(c.n.Scale(k * a.invMass))
		b.Pos = b.Pos.Add(c.n.Scale(k * b.invMass))
	}
}

// impulse removes the approaching normal velocity of a and b (bouncing by
// restitution e) and applies Coulomb friction.
func impulse(a, b *Body, n Vec2, e float64) {
	im := a.invMass + b.invMass
	rv := b.Vel.Sub(a.Vel)
	vn := rv.Dot(n)
	if vn >= 0 {
		return // already separating
	}
	j := -(1 + e) * vn / im
	imp := n.Scale(j)
	a.Vel = a.Vel.Sub(imp.Scale(a.invMass))
	b.Vel = b.Vel.Add(imp.Scale(b.invMass))

	// Coulomb friction along the tangent, from the updated velocities.
	rv = b.Vel.Sub(a.Vel)
	t := rv.Sub(n.Scale(rv.Dot(n)))
	tl := t.Len()
	if tl < 1e-12 {
		return
	}
	t = t.Scale(1 / tl)
	mu := math.Sqrt(a.Friction * b.Friction)
	jt := math.Max(-j*mu, math.Min(j*mu, -rv.Dot(t)/im))
	fimp := t.Scale(jt)
	a.Vel = a.Vel.Sub(fimp.Scale(a.invMass))
	b.Vel = b.Vel.Add(fimp.Scale(b.invMass))
}

package physics

import "math"

// solveVelocities runs the sequential-impulse passes: each contact's
// accumulated normal impulse is kept non-negative (contacts push, never
// pull) and its friction impulse within the Coulomb cone of it. A pair
// still apart may close its gap within the tick, no more (a speculative
// contact). Then restitution: pairs that met faster than bounceSpeed and
// were pushed leave at -e times the speed they met at.
func (w *World) solveVelocities(dt float64) {
	passes := w.Iterations
	if passes <= 0 {
		passes = DefaultIterations
	}
	for range passes {
		for i := range w.contacts {
			c := &w.contacts[i]
			if c.resting {
				continue
			}
			if c.turning {
				w.solveTurning(c, dt)
				continue
			}
			a, b := &w.bodies[c.ia], &w.bodies[c.ib]
			rv := b.Vel.Sub(a.Vel)
			// Normal: no approach, or no more than closes the gap.
			vn := rv.Dot(c.Normal)
			target := 0.0
			if c.Depth < 0 {
				target = c.Depth / dt
			}
			p := max(c.Impulse+float64(c.mass*(target-vn)), 0)
			dp := p - c.Impulse
			c.Impulse = p
			// Friction, along the tangent, bounded by the normal impulse.
			t := c.tangent()
			vt := rv.Dot(t) // the normal impulse is orthogonal: vt is unchanged by it
			lim := c.friction * c.Impulse
			f := min(max(c.FrictionImpulse-float64(c.mass*vt), -lim), lim)
			df := f - c.FrictionImpulse
			c.FrictionImpulse = f
			w.apply(c, c.Normal.Scale(dp).Add(t.Scale(df)))
		}
	}
	for i := range w.contacts {
		c := &w.contacts[i]
		if c.resting {
			continue
		}
		a, b := &w.bodies[c.ia], &w.bodies[c.ib]
		if c.turning {
			w.bounceTurning(c)
		} else if e := max(a.Restitution, b.Restitution); e > 0 && c.vn0 < -bounceSpeed && c.Impulse > 0 {
			vn := b.Vel.Sub(a.Vel).Dot(c.Normal)
			p := max(c.Impulse+float64(c.mass*(float64(-e*c.vn0)-vn)), 0)
			dp := p - c.Impulse
			c.Impulse = p
			w.apply(c, c.Normal.Scale(dp))
		}
		gap := TouchGap
		if c.Touching { // it touched the tick before
			gap = PartGap
		}
		c.Touching = c.Depth >= -gap || c.Impulse > 0
	}
}

// solveTurning is one velocity pass over a turning contact's points:
// first each point's friction, within the Coulomb cone of its own normal
// impulse, then the normal impulses, kept non-negative (or closing no more
// than the gap). The two normal rows of a two-point contact are solved
// together, as a 2×2 linear complementarity problem (Catto's block
// solver, as in Box2D v2): one point after the other would rock a
// resting box from corner to corner. Impulse and FrictionImpulse are the
// points' sums. The velocities live in locals for the pass.
func (w *World) solveTurning(c *Contact, dt float64) {
	a, b := &w.bodies[c.ia], &w.bodies[c.ib]
	q := &w.turn[c.tp]
	s := spin{a.Vel, b.Vel, a.AngVel, b.AngVel, a.invMass, b.invMass, a.invI, b.invI}
	n, t := c.Normal, c.tangent()
	np := c.NumPoints
	c.FrictionImpulse = 0
	for k := range np {
		vt := s.rel(q.rA[k], q.rB[k]).Dot(t)
		lim := c.friction * q.pn[k]
		f := min(max(q.pt[k]-float64(q.tm[k]*vt), -lim), lim)
		s.push(t.Scale(f-q.pt[k]), q.rA[k], q.rB[k])
		q.pt[k] = f
		c.FrictionImpulse += f
	}
	if q.block {
		s.block(q, n, dt)
		c.Impulse = q.pn[0] + q.pn[1]
	} else {
		c.Impulse = 0
		for k := range np {
			vn := s.rel(q.rA[k], q.rB[k]).Dot(n)
			p := max(q.pn[k]+float64(q.nm[k]*(q.target(k, dt)-vn)), 0)
			s.push(n.Scale(p-q.pn[k]), q.rA[k], q.rB[k])
			q.pn[k] = p
			c.Impulse += p
		}
	}
	a.Vel, b.Vel, a.AngVel, b.AngVel = s.va, s.vb, s.wa, s.wb
}

// spin is a pair's velocities and inverse masses, held in locals while a
// contact is solved.
type spin struct {
	va, vb   Vec2
	wa, wb   float64
	ima, imb float64
	iia, iib float64
}

// rel is the velocity of b's point at rb relative to a's at ra.
func (s *spin) rel(ra, rb Vec2) Vec2 {
	return Vec2{
		s.vb.X - float64(s.wb*rb.Y) - (s.va.X - float64(s.wa*ra.Y)),
		s.vb.Y + float64(s.wb*rb.X) - (s.va.Y + float64(s.wa*ra.X)),
	}
}

// push adds impulse p at rb to b and takes it at ra from a.
func (s *spin) push(p, ra, rb Vec2) {
	s.va = s.va.Sub(p.Scale(s.ima))
	s.wa -= float64(s.iia * cross(ra, p))
	s.vb = s.vb.Add(p.Scale(s.imb))
	s.wb += float64(s.iib * cross(rb, p))
}

// target is the normal velocity point k may have at least: zero when it
// overlaps, closing no more than its gap within the tick when apart.
func (q *pointState) target(k int, dt float64) float64 {
	if q.depths[k] < 0 {
		return q.depths[k] / dt
	}
	return 0
}

// block solves both normal rows at once: the impulses x ≥ 0 with
// velocities v = K·x + b ≥ 0 and x·v = 0, trying in turn both points
// pushing, the first alone, the second alone, neither.
func (s *spin) block(q *pointState, n Vec2, dt float64) {
	x1, x2 := q.pn[0], q.pn[1]
	k11, k12, k22 := q.k[0], q.k[1], q.k[2]
	v1 := s.rel(q.rA[0], q.rB[0]).Dot(n) - q.target(0, dt)
	v2 := s.rel(q.rA[1], q.rB[1]).Dot(n) - q.target(1, dt)
	// b' = v - K·x_old: the velocities with the old impulses taken out.
	b1 := v1 - (float64(k11*x1) + float64(k12*x2))
	b2 := v2 - (float64(k12*x1) + float64(k22*x2))
	det := float64(k11*k22) - float64(k12*k12)
	y1 := (float64(k12*b2) - float64(k22*b1)) / det
	y2 := (float64(k12*b1) - float64(k11*b2)) / det
	switch {
	case y1 >= 0 && y2 >= 0: // both push
	case -b1/k11 >= 0 && float64(k12*(-b1/k11))+b2 >= 0: // the first alone
		y1, y2 = -b1/k11, 0
	case -b2/k22 >= 0 && float64(k12*(-b2/k22))+b1 >= 0: // the second alone
		y1, y2 = 0, -b2/k22
	case b1 >= 0 && b2 >= 0: // neither
		y1, y2 = 0, 0
	default:
		return // no solution (rounding): keep the impulses
	}
	s.push(n.Scale(y1-x1), q.rA[0], q.rB[0])
	s.push(n.Scale(y2-x2), q.rA[1], q.rB[1])
	q.pn[0], q.pn[1] = y1, y2
}

// bounceTurning applies restitution to a turning contact's points that met
// faster than bounceSpeed and were pushed.
func (w *World) bounceTurning(c *Contact) {
	a, b := &w.bodies[c.ia], &w.bodies[c.ib]
	q := &w.turn[c.tp]
	e := max(a.Restitution, b.Restitution)
	if e == 0 {
		return
	}
	for k := range c.NumPoints {
		if q.vn0s[k] >= -bounceSpeed || q.pn[k] <= 0 {
			continue
		}
		vn := relVel(a, b, q.rA[k], q.rB[k]).Dot(c.Normal)
		p := max(q.pn[k]+float64(q.nm[k]*(float64(-e*q.vn0s[k])-vn)), 0)
		dp := p - q.pn[k]
		q.pn[k] = p
		c.Impulse += dp
		applyAt(a, b, c.Normal.Scale(dp), q.rA[k], q.rB[k])
	}
}

// solvePositions runs the non-linear Gauss-Seidel passes: each measures the
// contact's overlap again at the current positions and takes a share of
// what exceeds the slop out of them, split by inverse mass. Velocities are
// left alone. A last pass pushes dynamic bodies fully out of statics, to
// the slop.
func (w *World) solvePositions() {
	passes := w.PositionIterations
	if passes <= 0 {
		passes = DefaultPositionIterations
	}
	for range passes {
		for i := range w.contacts {
			c := &w.contacts[i]
			if c.resting {
				continue
			}
			a, b := &w.bodies[c.ia], &w.bodies[c.ib]
			if c.turning {
				if q := &w.turn[c.tp]; q.ref != 0 {
					correctAnchored(a, b, q, c.NumPoints)
				} else {
					correctTurning(a, b)
				}
				continue
			}
			m, ok := collide(a, b)
			if !ok {
				continue
			}
			corr := min(baumgarte*(m.depth-slop), maxCorrection)
			if corr <= 0 {
				continue
			}
			k := corr / (a.invMass + b.invMass)
			a.Pos = a.Pos.Sub(m.n.Scale(k * a.invMass))
			b.Pos = b.Pos.Add(m.n.Scale(k * b.invMass))
		}
	}
	for _, i := range w.movers {
		w.bodies[i].syncRotation() // exact again after the small-angle steps, before the last pass measures
	}
	// No body ends the tick deeper in a static than the slop: the heap's
	// weight may press it in through its neighbours, the statics win.
	for range 2 {
		for i := range w.contacts {
			c := &w.contacts[i]
			a, b := &w.bodies[c.ia], &w.bodies[c.ib]
			if c.resting || a.Kind != Static && b.Kind != Static {
				continue
			}
			if m, ok := collide(a, b); ok && m.depth > slop {
				out := m.n.Scale(m.depth - slop)
				if a.Kind == Static {
					b.Pos = b.Pos.Add(out)
				} else {
					a.Pos = a.Pos.Sub(out)
				}
			}
		}
	}
}

// correctTurning is one position pass over a pair in which a body turns:
// the contact found again at the current positions and angles, each point's
// share of its overlap beyond the slop taken out of both positions and
// angles, split by the effective mass at the point.
func correctTurning(a, b *Body) {
	var p points
	m, ok := collidePoints(a, b, &p)
	if !ok || m.depth <= 0 {
		return
	}
	p.fill(a, b, &m)
	n := m.n
	ims := a.invMass + b.invMass
	for k := range p.np {
		corr := min(baumgarte*(p.depths[k]-slop), maxCorrection)
		if corr <= 0 {
			continue
		}
		ra := p.pts[k]
		push(a, b, n, ra, a.Pos.Add(ra).Sub(b.Pos), corr, ims)
	}
}

// push moves a and b apart along n by corr at the point a.Pos+ra (=
// b.Pos+rb), each by its share of the masses and inertias (ims is the sum
// of the inverse masses), turning them.
func push(a, b *Body, n, ra, rb Vec2, corr, ims float64) {
	an, bn := cross(ra, n), cross(rb, n)
	imp := corr / (ims + float64(a.invI*float64(an*an)) + float64(b.invI*float64(bn*bn)))
	a.Pos = a.Pos.Sub(n.Scale(float64(imp * a.invMass)))
	b.Pos = b.Pos.Add(n.Scale(float64(imp * b.invMass)))
	if a.invI != 0 {
		a.turn(-float64(a.invI * float64(an*imp)))
	}
	if b.invI != 0 {
		b.turn(float64(b.invI * float64(bn*imp)))
	}
}

// correctAnchored is correctTurning for a pair of polygons, without the
// narrow phase: each point's separation is measured between its two
// anchors, along the normal turned with the reference body.
func correctAnchored(a, b *Body, q *pointState, np int) {
	ref := a
	if q.ref == 2 {
		ref = b
	}
	n := rotate(ref.rc, ref.rs, q.normal)
	ims := a.invMass + b.invMass
	// Both points measured before either moves (a flat box's two equal
	// corrections turn it by nothing), then applied.
	var corrs [2]float64
	var ps [2]Vec2
	for k := range np {
		pa := rotate(a.rc, a.rs, q.anchorA[k]).Add(a.Pos)
		pb := rotate(b.rc, b.rs, q.anchorB[k]).Add(b.Pos)
		corrs[k] = min(baumgarte*(n.Dot(pa.Sub(pb))-slop), maxCorrection)
		ps[k] = pa.Add(pb).Scale(0.5)
	}
	ca, cb := a.Pos, b.Pos
	for k := range np {
		corr := corrs[k]
		if corr <= 0 {
			continue
		}
		push(a, b, n, ps[k].Sub(ca), ps[k].Sub(cb), corr, ims)
	}
}

// sleep puts islands to rest: bodies joined by contacts (through dynamic
// bodies; statics do not join islands) sleep together once every one of
// them has been slower than SleepSpeed for SleepTime, and wake together
// when one of them is woken or touched by something awake.
func (w *World) sleep(dt float64) {
	limit, speed := w.SleepTime, w.SleepSpeed
	if limit < 0 {
		return
	}
	if limit == 0 {
		limit = DefaultSleepTime
	}
	if speed == 0 {
		speed = DefaultSleepSpeed
	}
	for _, i := range w.movers {
		b := &w.bodies[i]
		w.island[i] = i
		if b.Kind == Dynamic && !b.asleep {
			v := b.Vel.Len()
			if b.AngVel != 0 {
				v = max(v, float64(math.Abs(b.AngVel)*b.reach()))
			}
			if v < speed {
				b.still += dt
			} else {
				b.still = 0
			}
		}
	}
	for k := range w.contacts {
		c := &w.contacts[k]
		a, b := &w.bodies[c.ia], &w.bodies[c.ib]
		if a.Kind == Dynamic && b.Kind == Dynamic {
			w.union(int32(c.ia), int32(c.ib))
		}
		// A moving kinematic body keeps what it touches awake.
		if a.Kind == Kinematic && a.Vel != (Vec2{}) {
			b.still = 0
		}
		if b.Kind == Kinematic && b.Vel != (Vec2{}) {
			a.still = 0
		}
	}
	// An island is as rested as its least rested body.
	for _, i := range w.movers {
		w.rest[i] = math.Inf(1)
	}
	for _, i := range w.movers {
		if b := &w.bodies[i]; b.Kind == Dynamic {
			r := w.find(i)
			w.rest[r] = min(w.rest[r], b.still)
		}
	}
	for _, i := range w.movers {
		b := &w.bodies[i]
		if b.Kind != Dynamic || b.Disabled {
			continue
		}
		switch ready := w.rest[w.find(i)] >= limit; {
		case ready && !b.asleep:
			b.asleep, b.Vel, b.AngVel = true, Vec2{}, 0
		case !ready && b.asleep:
			b.asleep, b.still = false, 0 // something in its island is awake
		}
	}
}

func (w *World) find(i int32) int32 {
	for w.island[i] != i {
		w.island[i] = w.island[w.island[i]]
		i = w.island[i]
	}
	return i
}

func (w *World) union(a, b int32) {
	ra, rb := w.find(a), w.find(b)
	if ra == rb {
		return
	}
	if ra < rb { // the lower index is the root: deterministic
		w.island[rb] = ra
	} else {
		w.island[ra] = rb
	}
}

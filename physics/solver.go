package physics

import "math"

// solveVelocities is the upright world's velocity solve, by sequential
// impulses: each contact's accumulated normal impulse is kept
// non-negative (contacts push, never pull) and its friction impulse
// within the Coulomb cone of it. A pair still apart may close its gap
// within the tick, no more (a speculative contact). Then restitution:
// pairs that met faster than bounceSpeed and were pushed leave at -e
// times the speed they met at.
func (w *World) solveVelocities(dt float64) {
	passes := w.Iterations
	if passes <= 0 {
		passes = DefaultIterations
	}
	for range passes {
		w.work += uint64(len(w.contacts))
		for i := range w.contacts {
			c := &w.contacts[i]
			if c.resting {
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
		if e := max(a.Restitution, b.Restitution); e > 0 && c.vn0 < -bounceSpeed && c.Impulse > 0 {
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

// solvePositions is the upright world's position solve: non-linear
// Gauss-Seidel passes, each of which measures the contact's overlap again
// at the current positions and takes a share of what exceeds the slop out
// of them, split by inverse mass. Velocities are left alone. Then no body
// is left deeper in a static than the slop.
func (w *World) solvePositions() {
	passes := w.PositionIterations
	if passes <= 0 {
		passes = DefaultPositionIterations
	}
	for range passes {
		w.work += uint64(len(w.contacts))
		for i := range w.contacts {
			c := &w.contacts[i]
			if c.resting {
				continue
			}
			a, b := &w.bodies[c.ia], &w.bodies[c.ib]
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
	w.outOfStatics()
}

// outOfStatics pushes dynamic bodies fully out of the statics they touch,
// to the slop, in two passes: the heap's weight may press a body in
// through its neighbours, the statics win. The contacts with a static
// body are those the narrow phase found after the movers' pairs
// (staticFrom to narrowEnd; the resting ones, after, are not pushed).
func (w *World) outOfStatics() {
	for range 2 {
		for i := w.staticFrom; i < w.narrowEnd; i++ {
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

package physics

import "math"

// DefaultSubsteps is the sub-steps per tick of a turning world whose
// Substeps is zero.
const DefaultSubsteps = 4

// The soft contact's numbers (see Rotation in the package doc).
const (
	// contactHertz is how stiff a contact between two moving bodies is,
	// in cycles per second, at most a quarter of the sub-step rate (what
	// the sub-step can follow); twice as stiff against a kinematic body,
	// which gives nothing. A contact rests as deep as its load over its
	// effective mass·(2π·hertz)²: a 100-row pyramid's rows press each
	// other 2.8 times less at 50 Hz than at Box2D v3's 30. Stiffer, near
	// the quarter (60 Hz), a 20-row pyramid no longer keeps still.
	contactHertz = 50.0
	// contactDamping is the contact's damping ratio: far above 1, so an
	// overlap is taken out without a bounce.
	contactDamping = 10.0
	// pushSpeed is the fastest a contact pushes overlapping bodies apart,
	// units/s: a deep overlap (a body teleported into another) is undone
	// over a few ticks, never by an explosion.
	pushSpeed = 3.0
)

// solverBody is a body as the soft-step solver moves it through a tick:
// its velocities, how far it has moved and turned since the tick began,
// and its inverse masses. They live apart from Body, in a small struct
// per body slot, so the passes stream through little memory.
type solverBody struct {
	v      Vec2
	w      float64
	dp     Vec2    // how far it moved this tick
	qc, qs float64 // how far it turned this tick, as a rotation (cos, sin)
	da     float64 // ... and as an angle, which Body.Angle gains at the end
	im, ii float64
	keep   float64 // its spin's share kept per sub-step (AngularDamping); 1: all
}

// softness is how a soft contact mixes its push with the velocity it
// solves for (Catto's soft step): the share of the overlap pushed out per
// second, and the scales of the new and of the accumulated impulse.
type softness struct{ bias, mass, impulse float64 }

// soften returns the softness of a spring of hz cycles per second and
// damping ratio zeta, stepped by h seconds: stiffer than the sub-step can
// follow would be a rigid constraint.
func soften(hz, zeta, h float64) softness {
	omega := float64(2 * math.Pi * hz) // 2π is folded at compile time: one rounding
	ho := float64(h * omega)
	a1 := float64(2*zeta) + ho
	a2 := float64(ho * a1)
	a3 := 1 / (1 + a2)
	return softness{bias: omega / a1, mass: float64(a2 * a3), impulse: a3}
}

// solveSoft is the turning world's tick (Box2D v3's soft step, our own
// code): Substeps sub-steps, each of which adds gravity, applies the
// contacts' accumulated impulses (warm starting), solves every contact
// once with a soft push out of any overlap, moves and turns the bodies,
// and solves every contact once more without the push (relaxing), which
// takes back the velocity the push left where an impulse holds the pair
// together. Each pass measures a point's separation
// from where its two anchors have moved, without the narrow phase. Then
// restitution, the impulses reported, and the bodies placed: fast ones
// meet the statics on their way in sub-steps of their own, and a last
// pass pushes dynamic bodies out of statics, to the slop.
func (w *World) solveSoft(dt float64) {
	n := w.Substeps
	if n <= 0 {
		n = DefaultSubsteps
	}
	h := dt / float64(n)
	invH := float64(n) / dt
	hz := min(contactHertz, float64(0.25*invH))
	soft, hard := soften(hz, contactDamping, h), soften(float64(2*hz), contactDamping, h)
	w.solverBodies(h)
	g := w.Gravity.Scale(h)
	for range n {
		for _, i := range w.active {
			s := &w.sb[i]
			if s.im != 0 {
				s.v = s.v.Add(g)
				s.w = float64(s.w * s.keep)
			}
		}
		w.warmSoft()
		w.passSoft(invH, &soft, &hard, true)
		for _, i := range w.active {
			s := &w.sb[i]
			s.dp = s.dp.Add(s.v.Scale(h))
			if s.w != 0 {
				t := float64(s.w * h)
				s.da += t
				c, sn := s.qc-float64(s.qs*t), s.qs+float64(s.qc*t)
				l := math.Sqrt(float64(c*c) + float64(sn*sn))
				s.qc, s.qs = c/l, sn/l
			}
		}
		w.passSoft(invH, &soft, &hard, false)
		w.sumSoft()
	}
	w.finishSoft()
	w.placeSoft(dt)
	w.outOfStatics()
}

// constraint is a contact as the soft step's passes stream through it:
// little memory, and what the passes need precomputed. Each point's
// offsets from the two centres enter only through their products with the
// normal and the tangent.
type constraint struct {
	a, b     int32      // the bodies
	k        int32      // the contact's pointState in World.turn
	np       int32      // 1 or 2
	hard     bool       // one body gives nothing: the stiffer softness
	static   bool       // one body is static: rigid rows, the overlap projected out (outOfStatics)
	block    bool       // two points solved together, by kinv
	kk, kinv [3]float64 // K = (k11, k12, k22) and its inverse
	n        Vec2
	friction float64
	p        [2]cpoint
}

// cpoint is one point of a constraint.
type cpoint struct {
	rnA, rnB, rtA, rtB float64 // rA×n, rB×n, rA×t, rB×t
	dA, dB             float64 // n·rA, n·rB (0 for a circle)
	sep                float64 // the separation when the tick began
	nm, tm             float64 // effective masses along n and t
	pn, pt             float64 // accumulated impulses
}

// solverBodies fills the solver's bodies for this tick (every mover's
// velocities and masses, the statics a contact names), the list of bodies
// that move (awake, enabled), and the constraints from the contacts.
func (w *World) solverBodies(h float64) {
	w.sb = room(w.sb, len(w.bodies))[:len(w.bodies)]
	w.active = w.active[:0]
	for _, i := range w.movers {
		b := &w.bodies[i]
		w.sb[i] = solverBody{v: b.Vel, w: b.AngVel, qc: 1, im: b.invMass, ii: b.invI, keep: 1}
		if b.AngularDamping > 0 {
			w.sb[i].keep = 1 / (1 + float64(h*b.AngularDamping))
		}
		if !b.asleep && !b.Disabled {
			w.active = append(w.active, i)
		}
	}
	w.cons = w.cons[:0]
	for k := range w.turn {
		q := &w.turn[k]
		if !q.live {
			continue
		}
		for _, i := range [2]int32{q.a, q.b} {
			if w.bodies[i].Kind == Static {
				w.sb[i] = solverBody{qc: 1, keep: 1}
			}
		}
		q.ci = int32(len(w.cons))
		w.cons = append(w.cons, constraint{a: q.a, b: q.b, k: int32(k), np: q.np, hard: q.hard, n: q.n, friction: q.friction})
		w.cons[q.ci].static = w.bodies[q.a].Kind == Static || w.bodies[q.b].Kind == Static
		c := &w.cons[q.ci]
		a, b := &w.sb[q.a], &w.sb[q.b]
		ims := a.im + b.im
		n, t := q.n, Vec2{-q.n.Y, q.n.X}
		for j := range c.p[:q.np] {
			p := &c.p[j]
			ra, rb := q.rA[j], q.rB[j]
			p.rnA, p.rnB, p.rtA, p.rtB = cross(ra, n), cross(rb, n), cross(ra, t), cross(rb, t)
			p.dA, p.dB = n.Dot(ra), n.Dot(rb)
			// A circle's point is no point of it: the circle turns under
			// it and its surface stays where it was.
			if w.bodies[q.a].Shape == Circle {
				p.dA = 0
			}
			if w.bodies[q.b].Shape == Circle {
				p.dB = 0
			}
			p.sep = -q.depths[j]
			p.nm = 1 / (ims + float64(a.ii*float64(p.rnA*p.rnA)) + float64(b.ii*float64(p.rnB*p.rnB)))
			p.tm = 1 / (ims + float64(a.ii*float64(p.rtA*p.rtA)) + float64(b.ii*float64(p.rtB*p.rtB)))
			p.pn, p.pt = q.pn[j], q.pt[j]
		}
		if c.np == 2 {
			p0, p1 := &c.p[0], &c.p[1]
			k11, k22 := 1/p0.nm, 1/p1.nm
			k12 := ims + float64(a.ii*float64(p0.rnA*p1.rnA)) + float64(b.ii*float64(p0.rnB*p1.rnB))
			det := float64(k11*k22) - float64(k12*k12)
			// Well conditioned (the points not on one spot): a block.
			if float64(k11*k11) < float64(1000*det) {
				c.block, c.kk, c.kinv = true, [3]float64{k11, k12, k22}, [3]float64{k22 / det, -k12 / det, k11 / det}
			}
		}
	}
}

// warmSoft applies every contact's accumulated impulses again: the
// sub-step starts from the last one's answer (and the first from the last
// tick's).
func (w *World) warmSoft() {
	sb := w.sb
	for k := range w.cons {
		c := &w.cons[k]
		a, b := &sb[c.a], &sb[c.b]
		va, vb, wa, wb := a.v, b.v, a.w, b.w
		n := c.n
		for j := range c.p[:c.np] {
			p := &c.p[j]
			px := float64(n.X*p.pn) - float64(n.Y*p.pt) // n·pn + t·pt, t = (-n.Y, n.X)
			py := float64(n.Y*p.pn) + float64(n.X*p.pt)
			va.X -= float64(a.im * px)
			va.Y -= float64(a.im * py)
			vb.X += float64(b.im * px)
			vb.Y += float64(b.im * py)
			wa -= float64(a.ii * (float64(p.rnA*p.pn) + float64(p.rtA*p.pt)))
			wb += float64(b.ii * (float64(p.rnB*p.pn) + float64(p.rtB*p.pt)))
		}
		a.v, b.v, a.w, b.w = va, vb, wa, wb
	}
}

// passSoft is one pass over the contacts: each point's normal impulse,
// kept non-negative, then its friction, within the Coulomb cone of it.
// A point apart may close its gap within the sub-step, no more (a
// speculative contact); an overlapping one, with push, is pushed apart
// softly (soft against a dynamic body, hard against a kinematic one), at
// most at pushSpeed; without push (the relax pass), or against a static
// body (its overlap is projected out at the tick's end), only its
// approach is stopped.
func (w *World) passSoft(invH float64, soft, hard *softness, push bool) {
	sb := w.sb
	for k := range w.cons {
		c := &w.cons[k]
		a, b := &sb[c.a], &sb[c.b]
		va, vb, wa, wb := a.v, b.v, a.w, b.w
		ima, imb, iia, iib := a.im, b.im, a.ii, b.ii
		sf := soft
		if c.hard {
			sf = hard
		}
		n := c.n
		// How far the bodies moved and turned along n since the tick began.
		dn := n.Dot(b.dp.Sub(a.dp))
		ca, sa, cb, sbn := a.qc-1, a.qs, b.qc-1, b.qs
		pts := c.p[:c.np]
		// Each point's bias, mass scale and impulse scale.
		var bias, ms, is [2]float64
		for j := range pts {
			p := &pts[j]
			sep := p.sep + dn + (float64(cb*p.dB) + float64(sbn*p.rnB)) - (float64(ca*p.dA) + float64(sa*p.rnA))
			bias[j], ms[j] = 0, 1
			if sep > 0 {
				bias[j] = float64(sep * invH)
			} else if push && !c.static {
				bias[j] = float64(sf.bias * sep)
				if bias[j] < -pushSpeed {
					bias[j] = -pushSpeed
				}
				ms[j], is[j] = sf.mass, sf.impulse
			}
		}
		solved := false
		if c.block && ms[0] == ms[1] {
			// Both normal rows at once. One point after the other would
			// turn a box that meets a wall flat, at the first point solved.
			p0, p1 := &pts[0], &pts[1]
			r := Vec2{vb.X - va.X, vb.Y - va.Y}
			u0 := float64(n.X*r.X) + float64(n.Y*r.Y) + float64(wb*p0.rnB) - float64(wa*p0.rnA) + bias[0]
			u1 := float64(n.X*r.X) + float64(n.Y*r.Y) + float64(wb*p1.rnB) - float64(wa*p1.rnA) + bias[1]
			i11, i12, i22 := c.kinv[0], c.kinv[1], c.kinv[2]
			k11, k12, k22 := c.kk[0], c.kk[1], c.kk[2]
			// When both push: rigid rows x = λ - K⁻¹·u; soft ones
			// x = λ - ms·K⁻¹·u - is·K⁻¹·D·λ (D the diagonal of K), which
			// rests each point as deep as a row of its own would.
			x0 := p0.pn - (float64(i11*u0) + float64(i12*u1))
			x1 := p1.pn - (float64(i12*u0) + float64(i22*u1))
			if is := is[0]; is != 0 {
				m := ms[0]
				e0, e1 := float64(k11*p0.pn), float64(k22*p1.pn)
				x0 = p0.pn - float64(m*(float64(i11*u0)+float64(i12*u1))) - float64(is*(float64(i11*e0)+float64(i12*e1)))
				x1 = p1.pn - float64(m*(float64(i12*u0)+float64(i22*u1))) - float64(is*(float64(i12*e0)+float64(i22*e1)))
			}
			// Otherwise the rigid rows' linear complementarity problem,
			// case by case (Catto's block solver): the first alone, the
			// second alone, neither; b is u without the old impulses.
			b0 := u0 - (float64(k11*p0.pn) + float64(k12*p1.pn))
			b1 := u1 - (float64(k12*p0.pn) + float64(k22*p1.pn))
			solved = true
			switch {
			case x0 >= 0 && x1 >= 0:
			case -b0/k11 >= 0 && float64(k12*(-b0/k11))+b1 >= 0:
				x0, x1 = -b0/k11, 0
			case -b1/k22 >= 0 && float64(k12*(-b1/k22))+b0 >= 0:
				x0, x1 = 0, -b1/k22
			case b0 >= 0 && b1 >= 0:
				x0, x1 = 0, 0
			default: // no solution (rounding): one row after the other
				solved = false
			}
			if solved {
				d0, d1 := x0-p0.pn, x1-p1.pn
				p0.pn, p1.pn = x0, x1
				d := d0 + d1
				dx, dy := float64(n.X*d), float64(n.Y*d)
				va.X -= float64(ima * dx)
				va.Y -= float64(ima * dy)
				vb.X += float64(imb * dx)
				vb.Y += float64(imb * dy)
				wa -= float64(iia * (float64(p0.rnA*d0) + float64(p1.rnA*d1)))
				wb += float64(iib * (float64(p0.rnB*d0) + float64(p1.rnB*d1)))
			}
		}
		for j := range pts {
			if solved {
				break
			}
			p := &pts[j]
			vn := float64(n.X*(vb.X-va.X)) + float64(n.Y*(vb.Y-va.Y)) + float64(wb*p.rnB) - float64(wa*p.rnA)
			pn := p.pn - float64(float64(p.nm*ms[j])*(vn+bias[j])) - float64(is[j]*p.pn)
			if pn < 0 { // (plain comparisons: the builtin min and max order NaNs and zeros, at a price)
				pn = 0
			}
			d := pn - p.pn
			p.pn = pn
			dx, dy := float64(n.X*d), float64(n.Y*d)
			va.X -= float64(ima * dx)
			va.Y -= float64(ima * dy)
			vb.X += float64(imb * dx)
			vb.Y += float64(imb * dy)
			wa -= float64(iia * float64(p.rnA*d))
			wb += float64(iib * float64(p.rnB*d))
		}
		for j := range pts {
			p := &pts[j]
			vt := float64(n.X*(vb.Y-va.Y)) - float64(n.Y*(vb.X-va.X)) + float64(wb*p.rtB) - float64(wa*p.rtA)
			lim := float64(c.friction * p.pn)
			pt := p.pt - float64(p.tm*vt)
			if pt < -lim {
				pt = -lim
			} else if pt > lim {
				pt = lim
			}
			d := pt - p.pt
			p.pt = pt
			dx, dy := -float64(n.Y*d), float64(n.X*d)
			va.X -= float64(ima * dx)
			va.Y -= float64(ima * dy)
			vb.X += float64(imb * dx)
			vb.Y += float64(imb * dy)
			wa -= float64(iia * float64(p.rtA*d))
			wb += float64(iib * float64(p.rtB*d))
		}
		a.v, b.v, a.w, b.w = va, vb, wa, wb
	}
}

// sumSoft adds the sub-step's impulses to the tick's sums.
func (w *World) sumSoft() {
	for k := range w.cons {
		c := &w.cons[k]
		q := &w.turn[c.k]
		for j := range c.p[:c.np] {
			q.sumN[j] += c.p[j].pn
			q.sumT[j] += c.p[j].pt
		}
	}
}

// finishSoft applies restitution to the points that met faster than
// bounceSpeed and were pushed, keeps each contact's impulses for the next
// tick's warm start, and reports them (the sums over the sub-steps) and
// whether it touches.
func (w *World) finishSoft() {
	for i := range w.contacts {
		c := &w.contacts[i]
		if c.resting || !c.turning {
			continue
		}
		q := &w.turn[c.tp]
		k := &w.cons[q.ci]
		if q.e > 0 {
			a, b := &w.sb[q.a], &w.sb[q.b]
			s := spin{a.v, b.v, a.w, b.w, a.im, b.im, a.ii, b.ii}
			for j := range k.p[:k.np] {
				p := &k.p[j]
				if q.vn0s[j] >= -bounceSpeed || q.sumN[j] <= 0 {
					continue
				}
				vn := s.rel(q.rA[j], q.rB[j]).Dot(q.n)
				pn := max(p.pn-float64(p.nm*(vn+float64(q.e*q.vn0s[j]))), 0)
				s.push(q.n.Scale(pn-p.pn), q.rA[j], q.rB[j])
				q.sumN[j] += pn - p.pn
				p.pn = pn
			}
			a.v, b.v, a.w, b.w = s.va, s.vb, s.wa, s.wb
		}
		for j := range k.p[:k.np] {
			q.pn[j], q.pt[j] = k.p[j].pn, k.p[j].pt
		}
		c.Impulse, c.FrictionImpulse = q.sumN[0]+q.sumN[1], q.sumT[0]+q.sumT[1]
		gap := TouchGap
		if c.Touching { // it touched the tick before
			gap = PartGap
		}
		c.Touching = c.Depth >= -gap || c.Impulse > 0
	}
}

// placeSoft gives the bodies what the sub-steps made of them: velocities,
// then the moving bodies' angles and positions. A dynamic body that
// moved more than half its extent is moved again from where it began in
// sub-steps of its own, meeting the statics on the way, so it does not
// pass through a thin wall; a kinematic body with Sweep is swept.
func (w *World) placeSoft(dt float64) {
	for _, i := range w.movers {
		if b := &w.bodies[i]; b.Kind == Dynamic {
			b.Vel, b.AngVel = w.sb[i].v, w.sb[i].w
		}
	}
	maxSub := w.maxSubsteps()
	for _, i := range w.active {
		b, s := &w.bodies[i], &w.sb[i]
		if s.da != 0 {
			b.Angle = wrapAngle(b.Angle + s.da)
			b.syncRotation()
		}
		if b.Kind == Kinematic && b.Sweep && w.sweepKinematic(i, b, dt) {
			continue
		}
		travel := s.dp.Len()
		if e := b.extent(); travel > e/2 && b.Kind == Dynamic {
			n := min(int(math.Ceil(travel/(e/2))), maxSub)
			w.throughStatics(b, s.dp, n, s.dp.Scale(1/float64(n)), 0)
			continue
		}
		b.Pos = b.Pos.Add(s.dp)
	}
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

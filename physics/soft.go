package physics

import (
	"math"
	"math/bits"
)

// DefaultSubsteps is the sub-steps per tick of a turning world whose
// Substeps is zero: 5, one more than Box2D v3's, so that its 100-row
// pyramid stands within 0.25 of its height (0.18; 0.30 at 4).
const DefaultSubsteps = 5

// The soft contact's numbers (see Rotation in the package doc).
const (
	// contactShare is how stiff a contact between two moving bodies is,
	// as a share of the sub-step rate: 62.5 Hz at 5 sub-steps of a 60 Hz
	// tick, 50 at 4; twice as stiff against a kinematic body, which gives
	// nothing.
	// A contact rests as deep as its load over its effective
	// mass·(2π·hertz)², so more sub-steps make a heap stand higher: Box2D
	// v3's 100-row pyramid ends 0.30 below its height at 4 sub-steps, 0.18
	// at 5 (Box2D v3 itself, 30 Hz: 0.73). At the same sub-steps a stiffer
	// contact (a quarter of the rate, Box2D v3's limit) no longer keeps a
	// 20-row pyramid still.
	contactShare = 5.0 / 24
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
	glide  float64 // its velocity's share kept per sub-step (LinearDamping); 1: all
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
// together. Each pass measures a point's separation from where its two
// anchors have moved, without the narrow phase. Then restitution, the
// impulses reported, and the bodies placed: fast ones meet the statics on
// their way in sub-steps of their own, and a last pass pushes dynamic
// bodies out of statics, to the slop.
func (w *World) solveSoft(dt float64) {
	n := w.Substeps
	if n <= 0 {
		n = DefaultSubsteps
	}
	h := dt / float64(n)
	invH := float64(n) / dt
	hz := float64(contactShare * invH)
	soft, hard := soften(hz, contactDamping, h), soften(float64(2*hz), contactDamping, h)
	w.solverBodies(h)
	w.colour()
	g := w.Gravity.Scale(h)
	for range n {
		for _, i := range w.active {
			s := &w.sb[i]
			if s.im != 0 {
				s.v = s.v.Add(g)
				if s.glide != 1 { // no damping: the velocity's bits untouched
					s.v = s.v.Scale(s.glide)
				}
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
	sumN, sumT         float64 // the sub-steps' impulses, summed
}

// solverBodies fills the solver's bodies for this tick, every mover's
// velocities and masses and the statics', and lists the bodies that move
// (awake, enabled). The constraints came with the contacts.
func (w *World) solverBodies(h float64) {
	w.sb = room(w.sb, len(w.bodies))[:len(w.bodies)]
	w.active = w.active[:0]
	for _, i := range w.movers {
		b := &w.bodies[i]
		w.sb[i] = solverBody{v: b.Vel, w: b.AngVel, qc: 1, im: b.invMass, ii: b.invI, keep: 1, glide: 1}
		if b.AngularDamping > 0 {
			w.sb[i].keep = 1 / (1 + float64(h*b.AngularDamping))
		}
		if b.LinearDamping > 0 {
			w.sb[i].glide = 1 / (1 + float64(h*b.LinearDamping))
		}
		if !b.asleep && !b.Disabled {
			w.active = append(w.active, i)
		}
	}
	for _, i := range w.statics {
		w.sb[i] = solverBody{qc: 1, keep: 1, glide: 1}
	}
}

// colours is how many colours colour gives the constraints; those that
// find none free come last, in the order found.
const colours = 64

// colour orders the constraints by colour, as Box2D v3's graph colouring
// does: greedily, in the order found, each takes the first colour that
// neither of its moving bodies has yet (a static or kinematic body, which
// no impulse moves, has none). Within a colour no two constraints share a
// moving body, so a pass takes each colour's impulses from the velocities
// its bodies had when the colour began, whatever the order within it: a
// heap is solved evenly instead of in the grid's sweep, and Box2D v3's
// 100-row pyramid creeps a third as fast. The constraints are moved into
// that order (their points' state follows them), so the passes still
// stream through memory.
func (w *World) colour() {
	used := room(w.used, len(w.bodies))[:len(w.bodies)]
	clear(used)
	w.tint = room(w.tint, len(w.cons))[:len(w.cons)]
	var count [colours + 3]int32 // shifted by two: see below
	for k := range w.cons {
		c := &w.cons[k]
		a, b := &w.sb[c.a], &w.sb[c.b]
		ma, mb := a.im != 0 || a.ii != 0, b.im != 0 || b.ii != 0
		var taken uint64
		if ma {
			taken |= used[c.a]
		}
		if mb {
			taken |= used[c.b]
		}
		col := colours
		if taken != ^uint64(0) {
			col = bits.TrailingZeros64(^taken)
			if ma {
				used[c.a] |= 1 << col
			}
			if mb {
				used[c.b] |= 1 << col
			}
		}
		w.tint[k] = uint8(col)
		count[col+2]++
	}
	w.used = used
	// count[col+1] becomes where colour col begins.
	for i := 2; i < len(count); i++ {
		count[i] += count[i-1]
	}
	w.to = room(w.to, len(w.cons))[:len(w.cons)]
	for k, col := range w.tint {
		w.to[k] = count[col+1]
		count[col+1]++
	}
	w.spare = room(w.spare[:0], len(w.cons))[:len(w.cons)]
	for k, to := range w.to {
		w.spare[to] = w.cons[k]
	}
	w.cons, w.spare = w.spare, w.cons[:0]
	for i := range w.turn {
		if q := &w.turn[i]; q.live {
			q.ci = w.to[q.ci]
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
		if c.p[0].pn == 0 && c.p[0].pt == 0 && c.p[1].pn == 0 && c.p[1].pt == 0 {
			continue // nothing to apply (a gap)
		}
		a, b := &sb[c.a], &sb[c.b]
		// The points' impulses, summed: both along n, and their friction
		// one row at the first's arms (friction2). A one-point contact's
		// second point is zero.
		n, p0, p1 := c.n, &c.p[0], &c.p[1]
		sn, st := p0.pn+p1.pn, p0.pt+p1.pt
		px := float64(n.X*sn) - float64(n.Y*st) // n·sn + t·st, t = (-n.Y, n.X)
		py := float64(n.Y*sn) + float64(n.X*st)
		a.v.X -= float64(a.im * px)
		a.v.Y -= float64(a.im * py)
		b.v.X += float64(b.im * px)
		b.v.Y += float64(b.im * py)
		a.w -= float64(a.ii * (float64(p0.rnA*p0.pn) + float64(p1.rnA*p1.pn) + float64(p0.rtA*st)))
		b.w += float64(b.ii * (float64(p0.rnB*p0.pn) + float64(p1.rnB*p1.pn) + float64(p0.rtB*st)))
	}
}

// passSoft is one pass over the contacts: each point's normal impulse,
// kept non-negative, then its friction, within the Coulomb cone of it.
// A point apart may close its gap within the sub-step, no more (a
// speculative contact); an overlapping one, with push, is pushed apart
// softly (soft against a dynamic body, hard against a kinematic one), at
// most at pushSpeed; without push (the relax pass), or against a static
// body (its overlap is projected out at the tick's end), only its
// approach is stopped. The relax pass adds the sub-step's impulses to the
// tick's sums.
func (w *World) passSoft(invH float64, soft, hard *softness, push bool) {
	w.work += uint64(len(w.cons))
	sb := w.sb
	for k := range w.cons {
		c := &w.cons[k]
		sf := soft
		if c.hard {
			sf = hard
		}
		if c.np == 2 {
			pass2(c, &sb[c.a], &sb[c.b], invH, sf, push)
		} else {
			pass1(c, &sb[c.a], &sb[c.b], invH, sf, push)
		}
	}
}

// row is how one normal row is solved in a pass: its velocity bias, and
// the mass and impulse scales of its softness (1 and 0: rigid).
type row struct{ bias, ms, is float64 }

// rowOf returns the row of a point at separation sep (see passSoft).
func (c *constraint) rowOf(sep, invH float64, sf *softness, push bool) row {
	switch {
	case sep > 0:
		return row{float64(sep * invH), 1, 0}
	case push && !c.static:
		bias := float64(sf.bias * sep)
		if bias < -pushSpeed { // (plain comparisons: the builtin min and max order NaNs and zeros, at a price)
			bias = -pushSpeed
		}
		return row{bias, sf.mass, sf.impulse}
	}
	return row{0, 1, 0}
}

// sepNow returns point p's separation now: where it began, plus how far the
// bodies moved along n (dn) and their anchors turned.
func (p *cpoint) sepNow(dn float64, a, b *solverBody) float64 {
	return p.sep + dn + (float64((b.qc-1)*p.dB) + float64(b.qs*p.rnB)) - (float64((a.qc-1)*p.dA) + float64(a.qs*p.rnA))
}

// pass1 solves a one-point contact. The rows below work on the bodies'
// velocities in place (the solver's bodies are small and hot).
func pass1(c *constraint, a, b *solverBody, invH float64, sf *softness, push bool) {
	p := &c.p[0]
	n := c.n
	r := c.rowOf(p.sepNow(n.Dot(b.dp.Sub(a.dp)), a, b), invH, sf, push)
	if r.bias > 0 && p.pn == 0 && p.pt == 0 && along(n, p.rnA, p.rnB, a, b)+r.bias >= 0 {
		return // apart, closing no more than its gap, nothing to take back
	}
	normal(c, p, a, b, r)
	friction(c, p, a, b)
	if !push {
		p.sumN += p.pn
		p.sumT += p.pt
	}
}

// along returns the velocity of b's point relative to a's along d, the
// points' arms given as their cross products with d.
func along(d Vec2, ra, rb float64, a, b *solverBody) float64 {
	return float64(d.X*(b.v.X-a.v.X)) + float64(d.Y*(b.v.Y-a.v.Y)) + float64(b.w*rb) - float64(a.w*ra)
}

// impulse applies impulse j along d to b and takes it from a, at arms
// given as their cross products with d.
func impulse(d Vec2, j, ra, rb float64, a, b *solverBody) {
	dx, dy := float64(d.X*j), float64(d.Y*j)
	a.v.X -= float64(a.im * dx)
	a.v.Y -= float64(a.im * dy)
	b.v.X += float64(b.im * dx)
	b.v.Y += float64(b.im * dy)
	a.w -= float64(a.ii * float64(ra*j))
	b.w += float64(b.ii * float64(rb*j))
}

// normal solves point p's normal row alone.
func normal(c *constraint, p *cpoint, a, b *solverBody, r row) {
	vn := along(c.n, p.rnA, p.rnB, a, b)
	pn := p.pn - float64(float64(p.nm*r.ms)*(vn+r.bias)) - float64(r.is*p.pn)
	if pn < 0 {
		pn = 0
	}
	d := pn - p.pn
	p.pn = pn
	impulse(c.n, d, p.rnA, p.rnB, a, b)
}

// friction solves point p's friction row, within the Coulomb cone of its
// normal impulse.
func friction(c *constraint, p *cpoint, a, b *solverBody) {
	if p.pn == 0 && p.pt == 0 {
		return // no cone: it stays at zero
	}
	t := Vec2{-c.n.Y, c.n.X}
	lim := float64(c.friction * p.pn)
	pt := p.pt - float64(p.tm*along(t, p.rtA, p.rtB, a, b))
	if pt < -lim {
		pt = -lim
	} else if pt > lim {
		pt = lim
	}
	d := pt - p.pt
	p.pt = pt
	impulse(t, d, p.rtA, p.rtB, a, b)
}

// friction2 solves a two-point contact's friction as one row, within the
// Coulomb cone of both normal impulses: both points lie on the contact's
// face, and a push along the face turns a body by its arm's component
// along n (r×t = r·n), the same for both points up to their depths, so
// one row at their mid-arms holds what two would, for half the work. Each
// point keeps half the impulse (warm starting matches points by id).
func friction2(c *constraint, p0, p1 *cpoint, a, b *solverBody) {
	old := p0.pt + p1.pt
	lim := float64(c.friction * (p0.pn + p1.pn))
	if lim == 0 && old == 0 {
		return // no cone: it stays at zero
	}
	t := Vec2{-c.n.Y, c.n.X}
	pt := old - float64(p0.tm*along(t, p0.rtA, p0.rtB, a, b))
	if pt < -lim {
		pt = -lim
	} else if pt > lim {
		pt = lim
	}
	p0.pt = float64(0.5 * pt)
	p1.pt = p0.pt
	impulse(t, pt-old, p0.rtA, p0.rtB, a, b)
}

// pass2 solves a two-point contact: both normal rows at once when they
// are of one kind (a block), else one after the other; then friction,
// one row for both.
func pass2(c *constraint, a, b *solverBody, invH float64, sf *softness, push bool) {
	p0, p1 := &c.p[0], &c.p[1]
	n := c.n
	dn := n.Dot(b.dp.Sub(a.dp))
	r0 := c.rowOf(p0.sepNow(dn, a, b), invH, sf, push)
	r1 := c.rowOf(p1.sepNow(dn, a, b), invH, sf, push)
	u0 := along(n, p0.rnA, p0.rnB, a, b) + r0.bias
	u1 := along(n, p1.rnA, p1.rnB, a, b) + r1.bias
	if r0.bias > 0 && r1.bias > 0 && u0 >= 0 && u1 >= 0 && p0.pn == 0 && p0.pt == 0 && p1.pn == 0 && p1.pt == 0 {
		return // apart, closing no more than the gaps, nothing to take back (most neighbours in a pile)
	}
	if !c.block || r0.ms != r1.ms || !block(c, p0, p1, a, b, u0, u1, r0) {
		normal(c, p0, a, b, r0)
		normal(c, p1, a, b, r1)
	}
	friction2(c, p0, p1, a, b)
	if !push {
		p0.sumN += p0.pn
		p0.sumT += p0.pt
		p1.sumN += p1.pn
		p1.sumT += p1.pt
	}
}

// block solves both normal rows of a two-point contact at once, from
// their velocities with bias u0 and u1, and reports whether it found the
// impulses (rounding may leave it none). One point after the other would
// turn a box that meets a wall flat, at the first point solved.
func block(c *constraint, p0, p1 *cpoint, a, b *solverBody, u0, u1 float64, r row) bool {
	i11, i12, i22 := c.kinv[0], c.kinv[1], c.kinv[2]
	k11, k12, k22 := c.kk[0], c.kk[1], c.kk[2]
	// When both push: rigid rows x = λ - K⁻¹·u; soft ones
	// x = λ - ms·K⁻¹·u - is·K⁻¹·D·λ (D the diagonal of K), which rests
	// each point as deep as a row of its own would.
	x0 := p0.pn - (float64(i11*u0) + float64(i12*u1))
	x1 := p1.pn - (float64(i12*u0) + float64(i22*u1))
	if r.is != 0 {
		e0, e1 := float64(k11*p0.pn), float64(k22*p1.pn)
		x0 = p0.pn - float64(r.ms*(float64(i11*u0)+float64(i12*u1))) - float64(r.is*(float64(i11*e0)+float64(i12*e1)))
		x1 = p1.pn - float64(r.ms*(float64(i12*u0)+float64(i22*u1))) - float64(r.is*(float64(i12*e0)+float64(i22*e1)))
	}
	if x0 < 0 || x1 < 0 {
		// Otherwise the rigid rows' linear complementarity problem, case
		// by case (Catto's block solver): the first alone, the second
		// alone, neither; b is u without the old impulses.
		b0 := u0 - (float64(k11*p0.pn) + float64(k12*p1.pn))
		b1 := u1 - (float64(k12*p0.pn) + float64(k22*p1.pn))
		switch {
		case -b0/k11 >= 0 && float64(k12*(-b0/k11))+b1 >= 0:
			x0, x1 = -b0/k11, 0
		case -b1/k22 >= 0 && float64(k12*(-b1/k22))+b0 >= 0:
			x0, x1 = 0, -b1/k22
		case b0 >= 0 && b1 >= 0:
			x0, x1 = 0, 0
		default:
			return false
		}
	}
	d0, d1 := x0-p0.pn, x1-p1.pn
	p0.pn, p1.pn = x0, x1
	// Both impulses along n: one linear push, each its own turn.
	d := d0 + d1
	dx, dy := float64(c.n.X*d), float64(c.n.Y*d)
	a.v.X -= float64(a.im * dx)
	a.v.Y -= float64(a.im * dy)
	b.v.X += float64(b.im * dx)
	b.v.Y += float64(b.im * dy)
	a.w -= float64(a.ii * (float64(p0.rnA*d0) + float64(p1.rnA*d1)))
	b.w += float64(b.ii * (float64(p0.rnB*d0) + float64(p1.rnB*d1)))
	return true
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
		pts := k.p[:k.np]
		if q.e > 0 {
			a, b := &w.sb[k.a], &w.sb[k.b]
			n := k.n
			for j := range pts {
				p := &pts[j]
				if q.vn0s[j] >= -bounceSpeed || p.sumN <= 0 {
					continue
				}
				vn := along(n, p.rnA, p.rnB, a, b)
				pn := max(p.pn-float64(p.nm*(vn+float64(q.e*q.vn0s[j]))), 0)
				d := pn - p.pn
				impulse(n, d, p.rnA, p.rnB, a, b)
				p.sumN += d
				p.pn = pn
			}
		}
		c.Impulse, c.FrictionImpulse = 0, 0
		for j := range pts {
			q.pn[j], q.pt[j] = pts[j].pn, pts[j].pt
			c.Impulse += pts[j].sumN
			c.FrictionImpulse += pts[j].sumT
		}
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

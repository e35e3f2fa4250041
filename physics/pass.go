package physics

// The soft step's passes over the constraints of a colour (solveBlock,
// warmBlock). A constraint's two bodies' velocities are read once into
// scalars, solved there, and written back once, as Box2D v3's solver
// does, rather than read and written through the solver bodies at each
// impulse. A
// body that no impulse moves (static, kinematic: no inverse mass) is not
// written back: within a colour no two constraints share a body an
// impulse moves, but they may share one that none does. Every product
// is rounded before it is added, as everywhere (see Determinism).

// solveBlock is one pass over block i of the colour being solved: each
// point's normal impulse, kept non-negative, then its friction, within
// the Coulomb cone of it. A point apart may close its gap within the
// sub-step, no more (a speculative contact); an overlapping one, with
// push, is pushed apart softly (soft against a dynamic body, hard against
// a kinematic one), at most at pushSpeed; without push (the relax pass),
// or against a static body (its overlap is projected out at the tick's
// end), only its approach is stopped. The relax pass adds the sub-step's
// impulses to the tick's sums.
func (w *World) solveBlock(i int, push bool) {
	sb := w.sb
	invH := w.sv.invH
	cons := w.colourSpan(i)
	for k := range cons {
		c := &cons[k]
		sf := &w.sv.soft
		if c.hard {
			sf = &w.sv.hard
		}
		if c.np == 2 {
			pass2(c, &sb[c.a], &sb[c.b], invH, sf, push)
		} else {
			pass1(c, &sb[c.a], &sb[c.b], invH, sf, push)
		}
	}
}

// warmBlock applies the accumulated impulses of block i of the colour
// being solved again: the sub-step starts from the last one's answer (and
// the first from the last tick's).
func (w *World) warmBlock(i int) {
	sb := w.sb
	cons := w.colourSpan(i)
	for k := range cons {
		c := &cons[k]
		p0, p1 := &c.p[0], &c.p[1]
		if p0.pn == 0 && p0.pt == 0 && p1.pn == 0 && p1.pt == 0 {
			continue // nothing to apply (a gap)
		}
		// The points' impulses, summed: both along n, and their friction
		// one row at the constraint's arms (pass2). A one-point
		// contact's second point is zero.
		nx, ny := c.n.X, c.n.Y
		sn, st := p0.pn+p1.pn, p0.pt+p1.pt
		px := float64(nx*sn) - float64(ny*st) // n·sn + t·st, t = (-n.Y, n.X)
		py := float64(ny*sn) + float64(nx*st)
		if c.ima != 0 || c.iia != 0 {
			a := &sb[c.a]
			a.v.X -= float64(c.ima * px)
			a.v.Y -= float64(c.ima * py)
			a.w -= float64(c.iia * (float64(p0.rnA*p0.pn) + float64(p1.rnA*p1.pn) + float64(c.rtA*st)))
		}
		if c.imb != 0 || c.iib != 0 {
			b := &sb[c.b]
			b.v.X += float64(c.imb * px)
			b.v.Y += float64(c.imb * py)
			b.w += float64(c.iib * (float64(p0.rnB*p0.pn) + float64(p1.rnB*p1.pn) + float64(c.rtB*st)))
		}
	}
}

// row is how one normal row is solved in a pass: its velocity bias, and
// the mass and impulse scales of its softness (1 and 0: rigid).
type row struct{ bias, ms, is float64 }

// rowOf returns the row of a point at separation sep (see solveBlock).
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

// sepNow returns point p's separation now: where it began, plus how far
// the bodies moved along n (dn) and their anchors turned (the bodies'
// turns less one, ta and tb, and their sines, sa and sb).
func (p *cpoint) sepNow(dn, ta, sa, tb, sb float64) float64 {
	return p.sep + dn + (float64(tb*p.dB) + float64(sb*p.rnB)) - (float64(ta*p.dA) + float64(sa*p.rnA))
}

// pass1 solves a one-point contact: its normal row, then its friction,
// within the Coulomb cone of its normal impulse, the velocities held in
// scalars as pass2 holds them.
func pass1(c *constraint, a, b *solverBody, invH float64, sf *softness, push bool) {
	p := &c.p[0]
	nx, ny := c.n.X, c.n.Y
	dn := float64(nx*(b.dp.X-a.dp.X)) + float64(ny*(b.dp.Y-a.dp.Y))
	r := c.rowOf(p.sepNow(dn, a.qc-1, a.qs, b.qc-1, b.qs), invH, sf, push)
	ax, ay, aw, bx, by, bw := a.v.X, a.v.Y, a.w, b.v.X, b.v.Y, b.w
	vn := rel(nx, ny, p.rnA, p.rnB, ax, ay, aw, bx, by, bw)
	if r.bias > 0 && p.pn == 0 && p.pt == 0 && vn+r.bias >= 0 {
		return // apart, closing no more than its gap, nothing to take back
	}
	pn := p.normalImpulse(vn, r)
	d := pn - p.pn
	p.pn = pn
	ax, ay, aw, bx, by, bw = kick(c, nx, ny, d, p.rnA, p.rnB, ax, ay, aw, bx, by, bw)
	if p.pn != 0 || p.pt != 0 { // else no cone: it stays at zero
		tx, ty := -ny, nx
		lim := float64(c.friction * p.pn)
		pt := p.pt - float64(c.tm*rel(tx, ty, c.rtA, c.rtB, ax, ay, aw, bx, by, bw))
		if pt < -lim {
			pt = -lim
		} else if pt > lim {
			pt = lim
		}
		d := pt - p.pt
		p.pt = pt
		ax, ay, aw, bx, by, bw = kick(c, tx, ty, d, c.rtA, c.rtB, ax, ay, aw, bx, by, bw)
	}
	if !push {
		p.sumN += p.pn
		p.sumT += p.pt
	}
	c.store(a, b, ax, ay, aw, bx, by, bw)
}

// pass2 solves a two-point contact: both normal rows at once when they
// are of one kind (a block), else one after the other; then friction as
// one row, within the Coulomb cone of both normal impulses: both points
// lie on the contact's face, and a push along the face turns a body by
// its arm's component along n (r×t = r·n), the same for both points up to
// their depths, so one row at their mid-arms (the constraint's) holds
// what two would, for half the work. Each point keeps half the friction
// impulse (warm starting matches points by id). It holds the velocities
// in scalars, which the compiler keeps in registers: the hottest loop of
// a step.
func pass2(c *constraint, a, b *solverBody, invH float64, sf *softness, push bool) {
	p0, p1 := &c.p[0], &c.p[1]
	nx, ny := c.n.X, c.n.Y
	dn := float64(nx*(b.dp.X-a.dp.X)) + float64(ny*(b.dp.Y-a.dp.Y))
	ta, sa, tb, sb := a.qc-1, a.qs, b.qc-1, b.qs
	r0 := c.rowOf(p0.sepNow(dn, ta, sa, tb, sb), invH, sf, push)
	r1 := c.rowOf(p1.sepNow(dn, ta, sa, tb, sb), invH, sf, push)
	ax, ay, aw, bx, by, bw := a.v.X, a.v.Y, a.w, b.v.X, b.v.Y, b.w
	u0 := rel(nx, ny, p0.rnA, p0.rnB, ax, ay, aw, bx, by, bw) + r0.bias
	u1 := rel(nx, ny, p1.rnA, p1.rnB, ax, ay, aw, bx, by, bw) + r1.bias
	if r0.bias > 0 && r1.bias > 0 && u0 >= 0 && u1 >= 0 && p0.pn == 0 && p0.pt == 0 && p1.pn == 0 && p1.pt == 0 {
		return // apart, closing no more than the gaps, nothing to take back (most neighbours in a pile)
	}
	if x0, x1, ok := c.block2(u0, u1, r0, r1); ok {
		d0, d1 := x0-p0.pn, x1-p1.pn
		p0.pn, p1.pn = x0, x1
		// Both impulses along n: one linear push, each its own turn.
		d := d0 + d1
		px, py := float64(nx*d), float64(ny*d)
		ax -= float64(c.ima * px)
		ay -= float64(c.ima * py)
		bx += float64(c.imb * px)
		by += float64(c.imb * py)
		aw -= float64(c.iia * (float64(p0.rnA*d0) + float64(p1.rnA*d1)))
		bw += float64(c.iib * (float64(p0.rnB*d0) + float64(p1.rnB*d1)))
	} else {
		pn := p0.normalImpulse(rel(nx, ny, p0.rnA, p0.rnB, ax, ay, aw, bx, by, bw), r0)
		d := pn - p0.pn
		p0.pn = pn
		ax, ay, aw, bx, by, bw = kick(c, nx, ny, d, p0.rnA, p0.rnB, ax, ay, aw, bx, by, bw)
		pn = p1.normalImpulse(rel(nx, ny, p1.rnA, p1.rnB, ax, ay, aw, bx, by, bw), r1)
		d = pn - p1.pn
		p1.pn = pn
		ax, ay, aw, bx, by, bw = kick(c, nx, ny, d, p1.rnA, p1.rnB, ax, ay, aw, bx, by, bw)
	}
	// Friction, one row for both points.
	old := p0.pt + p1.pt
	if lim := float64(c.friction * (p0.pn + p1.pn)); lim != 0 || old != 0 { // else no cone: it stays at zero
		tx, ty := -ny, nx
		pt := old - float64(c.tm*rel(tx, ty, c.rtA, c.rtB, ax, ay, aw, bx, by, bw))
		if pt < -lim {
			pt = -lim
		} else if pt > lim {
			pt = lim
		}
		p0.pt = float64(0.5 * pt)
		p1.pt = p0.pt
		ax, ay, aw, bx, by, bw = kick(c, tx, ty, pt-old, c.rtA, c.rtB, ax, ay, aw, bx, by, bw)
	}
	if !push {
		p0.sumN += p0.pn
		p0.sumT += p0.pt
		p1.sumN += p1.pn
		p1.sumT += p1.pt
	}
	c.store(a, b, ax, ay, aw, bx, by, bw)
}

// store writes the velocities (ax, ay, aw) and (bx, by, bw) back to the
// bodies of c that an impulse moves: a static or kinematic body, which a
// colour's constraints may share, is never written.
func (c *constraint) store(a, b *solverBody, ax, ay, aw, bx, by, bw float64) {
	if c.ima != 0 || c.iia != 0 {
		a.v.X, a.v.Y, a.w = ax, ay, aw
	}
	if c.imb != 0 || c.iib != 0 {
		b.v.X, b.v.Y, b.w = bx, by, bw
	}
}

// rel returns the velocity of b's point relative to a's along (dx, dy),
// the points' arms given as their cross products with it, the bodies'
// velocities (ax, ay, aw) and (bx, by, bw).
func rel(dx, dy, ra, rb, ax, ay, aw, bx, by, bw float64) float64 {
	return float64(dx*(bx-ax)) + float64(dy*(by-ay)) + float64(bw*rb) - float64(aw*ra)
}

// kick returns the velocities (ax, ay, aw) and (bx, by, bw) after
// impulse j along (dx, dy) is applied to b and taken from a, at arms
// given as their cross products with it.
func kick(c *constraint, dx, dy, j, ra, rb, ax, ay, aw, bx, by, bw float64) (float64, float64, float64, float64, float64, float64) {
	px, py := float64(dx*j), float64(dy*j)
	return ax - float64(c.ima*px), ay - float64(c.ima*py), aw - float64(c.iia*float64(ra*j)),
		bx + float64(c.imb*px), by + float64(c.imb*py), bw + float64(c.iib*float64(rb*j))
}

// normalImpulse returns point p's normal impulse after its row r, at a
// relative velocity vn along the normal: kept non-negative.
func (p *cpoint) normalImpulse(vn float64, r row) float64 {
	pn := p.pn - float64(float64(p.nm*r.ms)*(vn+r.bias)) - float64(r.is*p.pn)
	if pn < 0 {
		pn = 0
	}
	return pn
}

// block2 solves both normal rows of a two-point contact at once, rows r0
// and r1, from their velocities with bias u0 and u1, and returns the
// points' new impulses; ok is false when it may not (the rows are not of
// one kind, or the points nearly on one spot) or rounding leaves it none.
// One point after the other would turn a box that meets a wall flat, at
// the first point solved.
func (c *constraint) block2(u0, u1 float64, r0, r1 row) (x0, x1 float64, ok bool) {
	if !c.block || r0.ms != r1.ms {
		return 0, 0, false
	}
	p0, p1 := &c.p[0], &c.p[1]
	i11, i12, i22 := c.kinv[0], c.kinv[1], c.kinv[2]
	k11, k12, k22 := c.kk[0], c.kk[1], c.kk[2]
	// When both push: rigid rows x = λ - K⁻¹·u; soft ones
	// x = λ - ms·K⁻¹·u - is·K⁻¹·D·λ (D the diagonal of K), which rests
	// each point as deep as a row of its own would.
	x0 = p0.pn - (float64(i11*u0) + float64(i12*u1))
	x1 = p1.pn - (float64(i12*u0) + float64(i22*u1))
	if r0.is != 0 {
		e0, e1 := float64(k11*p0.pn), float64(k22*p1.pn)
		x0 = p0.pn - float64(r0.ms*(float64(i11*u0)+float64(i12*u1))) - float64(r0.is*(float64(i11*e0)+float64(i12*e1)))
		x1 = p1.pn - float64(r0.ms*(float64(i12*u0)+float64(i22*u1))) - float64(r0.is*(float64(i12*e0)+float64(i22*e1)))
	}
	if !(x0 < 0 || x1 < 0) { // (NaN passes, as the rows alone would let it)
		return x0, x1, true
	}
	// Otherwise the rigid rows' linear complementarity problem, case by
	// case (Catto's block solver): the first alone, the second alone,
	// neither; b is u without the old impulses.
	b0 := u0 - (float64(k11*p0.pn) + float64(k12*p1.pn))
	b1 := u1 - (float64(k12*p0.pn) + float64(k22*p1.pn))
	switch {
	case -b0/k11 >= 0 && float64(k12*(-b0/k11))+b1 >= 0:
		return -b0 / k11, 0, true
	case -b1/k22 >= 0 && float64(k12*(-b1/k22))+b0 >= 0:
		return 0, -b1 / k22, true
	case b0 >= 0 && b1 >= 0:
		return 0, 0, true
	}
	return 0, 0, false
}

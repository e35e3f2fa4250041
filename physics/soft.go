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
// its velocities and how far it has moved and turned since the tick
// began. They live apart from Body, in a struct of a cache line per body
// slot, so the passes stream through little memory; what else the solver
// needs of a body is in its solverMass, and its constraints keep its
// inverse masses.
type solverBody struct {
	v      Vec2
	w      float64
	dp     Vec2    // how far it moved this tick
	qc, qs float64 // how far it turned this tick, as a rotation (cos, sin)
	da     float64 // ... and as an angle, which Body.Angle gains at the end
}

// solverMass is what the soft step reads of a body once a sub-step
// (gravityBlock) and when its constraints are coloured: its inverse
// masses, and its damping.
type solverMass struct {
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
	n, h := w.substeps(dt)
	invH := float64(n) / dt
	hz := float64(contactShare * invH)
	w.sv = softStep{h: h, invH: invH, g: w.Gravity.Scale(h),
		soft: soften(hz, contactDamping, h), hard: soften(float64(2*hz), contactDamping, h)}
	if !w.coloured {
		w.colour()
	}
	active := len(w.active)
	w.work += uint64(2 * n * len(w.cons)) // two passes a sub-step
	for range n {
		w.parallel(stageGravity, blocks(active, bodyBlock), active)
		w.byColour(stageWarm)
		w.byColour(stageSolve)
		w.parallel(stageMove, blocks(active, bodyBlock), active)
		w.byColour(stageRelax)
	}
	w.finishSoft()
	w.placeSoft()
	w.outOfStatics()
}

// softStep is what the soft step's blocks share: the sub-step (seconds,
// and its inverse), gravity's velocity a sub-step, the contacts'
// softness against a dynamic and a kinematic body.
type softStep struct {
	h, invH    float64
	g          Vec2
	soft, hard softness
}

// substeps returns the sub-steps of a turning tick of dt and their length.
func (w *World) substeps(dt float64) (n int, h float64) {
	n = w.Substeps
	if n <= 0 {
		n = DefaultSubsteps
	}
	return n, dt / float64(n)
}

// gravityBlock starts a sub-step for block i of the active bodies:
// gravity, then damping.
func (w *World) gravityBlock(i int) {
	lo, hi := span(i, bodyBlock, len(w.active))
	g := w.sv.g
	for _, k := range w.active[lo:hi] {
		s, m := &w.sb[k], &w.sm[k]
		if m.im != 0 {
			s.v = s.v.Add(g)
			if m.glide != 1 { // no damping: the velocity's bits untouched
				s.v = s.v.Scale(m.glide)
			}
			s.w = float64(s.w * m.keep)
		}
	}
}

// moveBlock moves and turns block i of the active bodies by a sub-step.
func (w *World) moveBlock(i int) {
	lo, hi := span(i, bodyBlock, len(w.active))
	h := w.sv.h
	for _, k := range w.active[lo:hi] {
		s := &w.sb[k]
		s.dp = s.dp.Add(s.v.Scale(h))
		if s.w != 0 {
			t := float64(s.w * h)
			s.da += t
			c, sn := s.qc-float64(s.qs*t), s.qs+float64(s.qc*t)
			l := math.Sqrt(float64(c*c) + float64(sn*sn))
			s.qc, s.qs = c/l, sn/l
		}
	}
}

// byColour runs a pass of kind over the constraints colour by colour,
// each colour a stage of blocks, then the constraints that found no
// colour, one after the other.
func (w *World) byColour(kind stage) {
	for c := range colours {
		lo, hi := w.spans[c], w.spans[c+1]
		if lo == hi {
			continue
		}
		w.span0, w.span1 = lo, hi
		n := int(hi - lo)
		w.parallel(kind, blocks(n, constraintBlock), n)
	}
	if lo, hi := w.spans[colours], w.spans[colours+1]; lo < hi {
		w.span0, w.span1 = lo, hi
		for i := range blocks(int(hi-lo), constraintBlock) {
			w.runBlock(kind, i, 0)
		}
	}
}

// colourSpan returns block i of the colour being solved.
func (w *World) colourSpan(i int) []constraint {
	lo := int(w.span0) + i*constraintBlock
	return w.cons[lo:min(lo+constraintBlock, int(w.span1))]
}

// constraint is a contact as the soft step's passes stream through it:
// little memory, and what the passes need precomputed. Each point's
// offsets from the two centres enter only through their products with the
// normal and the tangent.
type constraint struct {
	a, b     int32 // the bodies
	np       int32 // 1 or 2
	hard     bool  // one body gives nothing: the stiffer softness
	static   bool  // one body is static: rigid rows, the overlap projected out (outOfStatics)
	block    bool  // two points solved together, by kinv
	ima, iia float64
	imb, iib float64 // the bodies' inverse masses and inertias
	n        Vec2
	friction float64
	// The friction row: its arms' cross products with the tangent, and
	// its effective mass (a two-point contact's at the points' mid-arms,
	// see pass2).
	rtA, rtB, tm float64
	kk, kinv     [3]float64 // K = (k11, k12, k22) and its inverse
	p            [2]cpoint
}

// cpoint is one point of a constraint.
type cpoint struct {
	rnA, rnB   float64 // rA×n, rB×n
	dA, dB     float64 // n·rA, n·rB (0 for a circle)
	sep        float64 // the separation when the tick began
	nm         float64 // effective mass along n
	pn, pt     float64 // accumulated impulses
	sumN, sumT float64 // the sub-steps' impulses, summed
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
	used := w.clearColours()
	w.tint = resize(w.tint, len(w.cons))
	for k := range w.cons {
		c := &w.cons[k]
		w.tint[k] = w.colourOf(used, c.a, c.b)
	}
	w.placeColours()
	w.spare = resize(w.spare[:0], len(w.cons))
	for k, to := range w.to {
		w.spare[to] = w.cons[k]
	}
	w.cons, w.spare = w.spare, w.cons[:0]
	for i := range w.turn {
		if q := &w.turn[i]; q.live {
			q.ci = w.to[q.ci]
		}
	}
	w.coloured = true
}

// clearColours returns the bodies' colours, none taken.
func (w *World) clearColours() []uint64 {
	w.used = resize(w.used, len(w.bodies))
	clear(w.used)
	return w.used
}

// colourOf returns the first colour that neither moving body of the
// constraint between bodies a and b has yet, and gives it to both; or
// colours, when none is free.
func (w *World) colourOf(used []uint64, a, b int32) uint8 {
	sa, sb := &w.sm[a], &w.sm[b]
	ma, mb := sa.im != 0 || sa.ii != 0, sb.im != 0 || sb.ii != 0
	var taken uint64
	if ma {
		taken |= used[a]
	}
	if mb {
		taken |= used[b]
	}
	if taken == ^uint64(0) {
		return colours
	}
	col := bits.TrailingZeros64(^taken)
	if ma {
		used[a] |= 1 << col
	}
	if mb {
		used[b] |= 1 << col
	}
	return uint8(col)
}

// placeColours sets where each colour's constraints begin (spans) and
// where each constraint goes (to): colour by colour, in the order found
// within each.
func (w *World) placeColours() {
	var count [colours + 1]int32
	for _, col := range w.tint {
		count[col]++
	}
	at := int32(0)
	for col, n := range count {
		w.spans[col] = at
		at += n
	}
	w.spans[colours+1] = at
	next := w.spans
	w.to = resize(w.to, len(w.tint))
	for k, col := range w.tint {
		w.to[k] = next[col]
		next[col]++
	}
}

// finishSoft applies restitution to the points that met faster than
// bounceSpeed and were pushed, one contact after the other (bounce), then
// keeps each contact's impulses for the next tick's warm start, and
// reports them (the sums over the sub-steps) and whether it touches
// (storeBlock).
func (w *World) finishSoft() {
	w.bounce()
	n := int(w.narrowEnd)
	w.parallel(stageStore, blocks(n, bodyBlock), n)
}

// bounce applies restitution to the contacts that may bounce (a point
// met faster than bounceSpeed, with some restitution), in their order:
// those of the blocks that recorded one, or every contact after a search
// one pair after the other.
func (w *World) bounce() {
	if w.alone { // findSerial found them
		if w.bounceAll {
			w.bounceIn(0, int(w.narrowEnd))
		}
		return
	}
	for b := range w.finds {
		if fb := &w.finds[b]; fb.bounce {
			w.bounceIn(int(fb.start), min(int(fb.start+fb.n), int(w.narrowEnd)))
		}
	}
}

// bounceIn applies restitution to contacts lo..hi-1.
func (w *World) bounceIn(lo, hi int) {
	for i := lo; i < hi; i++ {
		c := &w.contacts[i]
		if c.resting || !c.turning {
			continue
		}
		q := &w.turn[c.tp]
		if q.e <= 0 {
			continue
		}
		k := &w.cons[q.ci]
		pts := k.p[:k.np]
		a, b := &w.sb[k.a], &w.sb[k.b]
		ax, ay, aw, bx, by, bw := a.v.X, a.v.Y, a.w, b.v.X, b.v.Y, b.w
		for j := range pts {
			p := &pts[j]
			if q.vn0s[j] >= -bounceSpeed || p.sumN <= 0 {
				continue
			}
			vn := rel(k.n.X, k.n.Y, p.rnA, p.rnB, ax, ay, aw, bx, by, bw)
			pn := max(p.pn-float64(p.nm*(vn+float64(q.e*q.vn0s[j]))), 0)
			d := pn - p.pn
			ax, ay, aw, bx, by, bw = kick(k, k.n.X, k.n.Y, d, p.rnA, p.rnB, ax, ay, aw, bx, by, bw)
			p.sumN += d
			p.pn = pn
		}
		k.store(a, b, ax, ay, aw, bx, by, bw)
	}
}

// mayBounce reports whether restitution may apply to a contact: it has
// some, and a point met faster than bounceSpeed.
func (q *pointState) mayBounce() bool {
	return q.e > 0 && (q.vn0s[0] < -bounceSpeed || q.np > 1 && q.vn0s[1] < -bounceSpeed)
}

// storeBlock keeps the impulses of block i of the contacts for the next
// tick and reports them, and whether each touches.
func (w *World) storeBlock(i int) {
	lo, hi := span(i, bodyBlock, int(w.narrowEnd))
	for i := lo; i < hi; i++ {
		c := &w.contacts[i]
		if c.resting || !c.turning {
			continue
		}
		q := &w.turn[c.tp]
		k := &w.cons[q.ci]
		pts := k.p[:k.np]
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
// then the moving bodies' angles and positions (placeBlock), in blocks
// the workers share, unless a kinematic body sweeps (it meets the others
// where they are, so the bodies are placed in their order).
func (w *World) placeSoft() {
	w.parallel(stageVelocity, blocks(len(w.movers), bodyBlock), len(w.movers))
	w.refreshStatics()
	n := blocks(len(w.active), bodyBlock)
	if !w.sweeping {
		w.parallel(stagePlace, n, len(w.active))
		return
	}
	for i := range n {
		w.placeBlock(i, &w.scratch[0])
	}
}

// velocityBlock gives block i of the movers, the dynamic ones, their
// velocities from the soft step.
func (w *World) velocityBlock(i int) {
	lo, hi := span(i, bodyBlock, len(w.movers))
	for _, k := range w.movers[lo:hi] {
		if b := &w.bodies[k]; b.Kind == Dynamic {
			b.Vel, b.AngVel = w.sb[k].v, w.sb[k].w
		}
	}
}

// placeBlock turns and moves block i of the active bodies. A dynamic body
// that moved more than half its extent is moved again from where it began
// in sub-steps of its own, meeting the statics on the way, so it does not
// pass through a thin wall; a kinematic body with Sweep is swept.
func (w *World) placeBlock(i int, s *scratch) {
	lo, hi := span(i, bodyBlock, len(w.active))
	maxSub := w.maxSubsteps()
	for _, k := range w.active[lo:hi] {
		b, sv := &w.bodies[k], &w.sb[k]
		if sv.da != 0 {
			b.Angle = wrapAngle(b.Angle + sv.da)
			b.syncRotation()
		}
		if b.Kind == Kinematic && b.Sweep && w.sweepKinematic(k, b, w.dt) {
			continue
		}
		travel := sv.dp.Len()
		if e := b.extent(); travel > e/2 && b.Kind == Dynamic {
			n := min(int(math.Ceil(travel/(e/2))), maxSub)
			w.throughStatics(b, sv.dp, n, sv.dp.Scale(1/float64(n)), 0, s)
			continue
		}
		b.Pos = b.Pos.Add(sv.dp)
	}
}

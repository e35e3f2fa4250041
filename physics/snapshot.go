package physics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strings"
	"weak"
)

// Snapshot format: a file format, so that a snapshot can be stored, sent
// and compared as bytes. Little-endian throughout.
//
//	header   "FXPW" (4 bytes), version (uint16), then the settings:
//	         Gravity (2 float64), MoveSteps, Iterations,
//	         PositionIterations, Substeps (4 int32), SleepTime, SleepSpeed (2 float64),
//	         cold (uint8), ticks (uint64), then the counts: bodies, free
//	         slots, statics, movers, contacts (5 uint32)
//	bodies   bodyBytes each (see putBody)
//	free     uint32 slot each, in the order Add reuses them
//	statics  uint32 slot each, then movers: the order the step visits them
//	contacts contactBytes each (see putContact)
//	checksum CRC-32C (Castagnoli) of every byte before it (uint32)
//
// Version 2 added rotation: each body's angles, spin, inertia and hull,
// each contact's per-point ids, depths and impulses. Version 3 added
// Substeps, which a turning world's future depends on. Version 4 added
// each turning contact's kept manifold (recycle), which it depends on too.
// Version 6 added each body's LinearDamping. Version 5 added the checksum: a snapshot damaged on a disk or on the
// way (bytes flipped, cut short or extended) is refused before any of its
// numbers is read, whether or not they would pass the checks below. The
// checks below are what stands against bytes made to pass it: a
// checksum is no defence against a peer that computes one.
//
// Restore trusts no count: each is bounded by MaxSnapshotBodies and by the
// bytes that follow, every index is checked against the body it names,
// and a snapshot whose length is not exactly what its counts say is
// refused. So Restore allocates at most about twice len(src). Nor does it
// trust a number: the settings obey Step's limits, every body what Add
// asks of one (checkBody), every contact names a pair at most once with
// numbers a step could have made (checkContact). So a world restored
// from any snapshot it accepts steps as a world built by Add does, at
// the cost of one of its size.
const (
	snapMagic    = "FXPW"
	snapVersion  = 6 // 2: rotation (angles, inertia, hulls, per-point contact impulses); 3: Substeps; 4: kept manifolds; 5: checksum; 6: LinearDamping
	snapHeader   = 4 + 2 + 16 + 16 + 16 + 1 + 8 + 20
	snapTrailer  = 4 // the checksum
	bodyBytes    = 2 + 12*8 + 8 + 1 + 4 + 8 + 4 + 8 + 6*8 + 1 + 2*MaxHullVertices*8 + 8
	contactBytes = 4*4 + 2*8 + 4*8 + 2*8 + 1 + 8 + 2*8 + 1 + 1 + 3*8 + 2*2 + 6*8 + 1 + keptFloats*8 + 2*2
	slotBytes    = 4
)

// MaxSnapshotBodies bounds the body slots a snapshot may hold: 4,194,304,
// about 550 MB of snapshot. Restore refuses more before allocating.
const MaxSnapshotBodies = 1 << 22

// ErrBadSnapshot is wrapped by every error Restore returns for bytes that
// are not a snapshot this build can restore: check it with errors.Is.
var ErrBadSnapshot = errors.New("physics: bad snapshot")

// Snapshot appends the whole world to dst and returns the extended slice:
// its settings (everything but the Listener), every body slot with its
// generation, sleep timer and removed state, the order in which the step
// visits bodies, and the contacts with their accumulated impulses, which
// warm-start the next step. Restore puts it back, and stepping the restored
// world gives the same future bit for bit as stepping this one. With a dst
// of enough capacity (the last snapshot's buffer, dst[:0]) it allocates
// nothing, but once for each new buffer (see Restore: the world
// remembers its last snapshot in each of the last 64 buffers it wrote
// in). Call it between steps, not from a contact callback: it panics
// during Step.
//
// The bytes are the same on every CPU and build for the same world, so two
// snapshots can be compared, hashed or stored as they are.
func (w *World) Snapshot(dst []byte) []byte {
	if w.stepping {
		panic("physics: Snapshot during Step (from a contact callback): call it between steps")
	}
	w.purge()
	n := snapHeader + len(w.bodies)*bodyBytes + (len(w.free)+len(w.statics)+len(w.movers))*slotBytes +
		len(w.contacts)*contactBytes + snapTrailer
	off := len(dst)
	if cap(dst)-off < n {
		// Room to spare: for the world to grow, and for what a caller
		// appends after it (package save's other fields), so that the
		// buffer Restore knows the snapshot by is the one the caller
		// keeps.
		dst = slices.Grow(dst, n+n/8+256)
	}
	dst = dst[:off+n]
	b := dst[off:]
	copy(b, snapMagic)
	le.PutUint16(b[4:], snapVersion)
	putF(b[6:], w.Gravity.X)
	putF(b[14:], w.Gravity.Y)
	le.PutUint32(b[22:], uint32(int32(w.MoveSteps)))
	le.PutUint32(b[26:], uint32(int32(w.Iterations)))
	le.PutUint32(b[30:], uint32(int32(w.PositionIterations)))
	le.PutUint32(b[34:], uint32(int32(w.Substeps)))
	putF(b[38:], w.SleepTime)
	putF(b[46:], w.SleepSpeed)
	b[54] = boolByte(w.cold)
	le.PutUint64(b[55:], w.ticks)
	le.PutUint32(b[63:], uint32(len(w.bodies)))
	le.PutUint32(b[67:], uint32(len(w.free)))
	le.PutUint32(b[71:], uint32(len(w.statics)))
	le.PutUint32(b[75:], uint32(len(w.movers)))
	le.PutUint32(b[79:], uint32(len(w.contacts)))
	p := b[snapHeader:]
	for i := range w.bodies {
		putBody(p[:bodyBytes], &w.bodies[i])
		p = p[bodyBytes:]
	}
	for _, s := range w.free {
		le.PutUint32(p, s)
		p = p[slotBytes:]
	}
	for _, s := range w.statics {
		le.PutUint32(p, uint32(s))
		p = p[slotBytes:]
	}
	for _, s := range w.movers {
		le.PutUint32(p, uint32(s))
		p = p[slotBytes:]
	}
	for i := range w.contacts {
		c := &w.contacts[i]
		putContact(p[:contactBytes], c, w.pointsOf(c), w.keptOf(c))
		p = p[contactBytes:]
	}
	sum := crc32.Checksum(b[:n-snapTrailer], castagnoli)
	le.PutUint32(p, sum)
	w.remember(b, sum)
	return dst
}

// ownBuffers is how many buffers a world remembers its last snapshot in:
// more than a rollback's ring holds (netplay's deepest keeps 33 states,
// the engine's sync test 11 buffers), however many times it writes them
// over.
const ownBuffers = 64

// ownSnapshot is what a world remembers of the last snapshot it wrote in
// a buffer: where its first byte lies, its length and its checksum, and
// when it was written (the least recent is forgotten first). The weak
// pointer keeps no buffer alive, and compares equal to no buffer
// allocated after this one is freed, whatever address it gets.
type ownSnapshot struct {
	at   weak.Pointer[byte]
	n    int
	sum  uint32
	when uint64 // World.owned after it was written
}

// remember records snapshot b, of checksum sum, as the world's own: in
// place of the last one written where b begins, or of the least recent.
func (w *World) remember(b []byte, sum uint32) {
	at := weak.Make(&b[0])
	w.owned++
	k := 0
	for i := range w.own {
		if w.own[i].at == at {
			k = i
			break
		}
		if w.own[i].when < w.own[k].when {
			k = i
		}
	}
	w.own[k] = ownSnapshot{at, len(b), sum, w.owned}
}

// owns reports whether src is the last snapshot the world wrote where src
// begins, in one of the last ownBuffers buffers it wrote in, as long, and
// unchanged: its bytes sum to the checksum it wrote (a change in place
// that left the checksum as it was shows). Bytes read from a file or a
// network lie elsewhere, or sum to another checksum. It allocates
// nothing.
func (w *World) owns(src []byte) bool {
	if len(src) < snapHeader+snapTrailer {
		return false
	}
	n := len(src) - snapTrailer
	sum := le.Uint32(src[n:])
	for i := range w.own {
		o := &w.own[i]
		if o.n == len(src) && o.sum == sum && o.at.Value() == &src[0] {
			return crc32.Checksum(src[:n], castagnoli) == sum
		}
	}
	return false
}

// Restores returns how many snapshots Restore has put into the world:
// own, those this world's Snapshot wrote in this process, restored
// without checking them, and checked, the others (from a file, a
// network, another world, or changed since). A rollback restores its own
// (netplay's tests check that it does).
func (w *World) Restores() (own, checked uint64) { return w.restoredOwn, w.restoredChecked }

// castagnoli is CRC-32C's table: the snapshot's checksum, computed with
// the CPU's own instruction where it has one.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Restore replaces the world with the snapshot in src: the same world or
// another one, the zero World included. The Listener is kept. A src that
// is not a whole, valid snapshot (truncated, extended, corrupted, or of
// another version) gives an error wrapping ErrBadSnapshot, naming the
// setting, body or contact and the number at fault, and leaves the world
// as it was: it accepts what Snapshot writes for a world whose bodies
// and settings Add and Step would take (a body the game spoilt between
// steps, which the next Step would take out, is refused), each body's
// inverse mass and inertia as stored if within what Add derives for
// some mass and shape of its kind (the next Step derives them again). Restoring into a world that has held as
// many bodies and contacts before allocates nothing. Call it between
// steps.
//
// A snapshot the world wrote itself is restored without those checks,
// at the cost of reading it and its checksum (a rollback's case): the
// last that its Snapshot wrote in this process where src begins, in one
// of the last 64 buffers it wrote in (a rollback's ring of states, however
// often written over), as long, its bytes still summing to the checksum
// it wrote. The
// world remembers where each lies by a weak pointer, which keeps no
// buffer alive and matches no buffer allocated after the snapshot's is
// freed, so bytes from a file, a network, another world or another
// process are checked as above, and so is a snapshot copied or changed
// since. (What that cannot tell is a program that copies a hostile
// peer's bytes over its own snapshot, of the same length and made to
// the same checksum: don't receive into a buffer Snapshot wrote.) It
// puts back the same world, bit for bit, as checking it does, and a
// world the checks would refuse as it was (a body the game spoilt: the
// next Step takes it out). Restores counts both kinds.
func (w *World) Restore(src []byte) error {
	if w.stepping {
		panic("physics: Restore during Step (from a contact callback): call it between steps")
	}
	var h snapCounts
	if w.owns(src) {
		h = countsOf(src)
		w.restoredOwn++
	} else {
		var err error
		if h, err = checkSnapshot(src, &w.seen, &w.prevTable); err != nil {
			return err
		}
		w.restoredChecked++
	}
	w.Gravity = Vec2{getF(src[6:]), getF(src[14:])}
	w.MoveSteps = int(int32(le.Uint32(src[22:])))
	w.Iterations = int(int32(le.Uint32(src[26:])))
	w.PositionIterations = int(int32(le.Uint32(src[30:])))
	w.Substeps = int(int32(le.Uint32(src[34:])))
	w.SleepTime, w.SleepSpeed = getF(src[38:]), getF(src[46:])
	w.cold = src[54] != 0
	w.ticks = le.Uint64(src[55:])

	p := src[snapHeader:]
	w.bodies = resize(w.bodies, h.bodies)
	for i := range w.bodies {
		getBody(p[:bodyBytes], &w.bodies[i])
		p = p[bodyBytes:]
	}
	w.free = resize(w.free, h.free)
	for i := range w.free {
		w.free[i] = le.Uint32(p)
		p = p[slotBytes:]
	}
	w.statics = resize(w.statics, h.statics)
	for i := range w.statics {
		s := int32(le.Uint32(p))
		p = p[slotBytes:]
		w.statics[i], w.bodies[s].slot = s, int32(i)
	}
	w.movers = resize(w.movers, h.movers)
	for i := range w.movers {
		s := int32(le.Uint32(p))
		p = p[slotBytes:]
		w.movers[i], w.bodies[s].slot = s, int32(i)
	}
	w.staticsDirty, w.stale = true, true // a snapshot may name removed bodies in its contacts: dropped at the next step
	w.contacts = resize(w.contacts, h.contacts)
	w.turn, w.keep = w.turn[:0], w.keep[:0]
	for i := range w.contacts {
		c, rec := &w.contacts[i], p[:contactBytes]
		p = p[contactBytes:]
		getContact(rec, c)
		if !c.turning {
			continue
		}
		c.tp = int32(len(w.turn))
		w.turn = append(w.turn, pointState{})
		w.keep = append(w.keep, kept{})
		k := &w.keep[c.tp]
		getTurn(rec, &w.turn[c.tp], k)
		// A kept manifold holds for the shapes the bodies have now
		// (Snapshot wrote it as not kept if they had changed).
		k.ka, k.kb = keyOf(&w.bodies[c.ia]), keyOf(&w.bodies[c.ib])
	}
	w.prevTurn, w.prevKeep = w.prevTurn[:0], w.prevKeep[:0]
	w.freeing = w.freeing[:0]
	w.island = resize(w.island, h.bodies)
	w.rest = resize(w.rest, h.bodies)
	w.previous = w.previous[:0]
	w.roomForContacts() // as Add keeps it
	return nil
}

// snapCounts are a snapshot's counts, checked.
type snapCounts struct{ bodies, free, statics, movers, contacts int }

// countsOf reads the counts of a snapshot's header (as they are: checkSnapshot checks them).
func countsOf(src []byte) snapCounts {
	count := func(off int) int { return int(le.Uint32(src[off:])) }
	return snapCounts{count(63), count(67), count(71), count(75), count(79)}
}

// checkSnapshot validates all of src without changing anything but its
// scratch and the pair table it is lent: the header and the settings,
// the counts against the length, every slot index and the body it names,
// every body's numbers, every contact's pair (once each) and numbers.
// After it, decoding cannot fail.
func checkSnapshot(src []byte, scratch *[]uint8, pairs *pairTable) (snapCounts, error) {
	var h snapCounts
	if len(src) < snapHeader || string(src[:4]) != snapMagic {
		return h, fmt.Errorf("%w: %d bytes, not a world snapshot (no %q header)", ErrBadSnapshot, len(src), snapMagic)
	}
	if v := le.Uint16(src[4:]); v != snapVersion {
		return h, fmt.Errorf("%w: version %d; this build restores version %d", ErrBadSnapshot, v, snapVersion)
	}
	if len(src) < snapHeader+snapTrailer {
		return h, fmt.Errorf("%w: %d bytes, shorter than a snapshot of no bodies", ErrBadSnapshot, len(src))
	}
	if sum, want := le.Uint32(src[len(src)-snapTrailer:]), crc32.Checksum(src[:len(src)-snapTrailer], castagnoli); sum != want {
		return h, fmt.Errorf("%w: checksum %08x, want %08x: the bytes were damaged (changed, cut short or extended)", ErrBadSnapshot, sum, want)
	}
	h = countsOf(src)
	switch {
	case h.bodies > MaxSnapshotBodies:
		return h, fmt.Errorf("%w: %d bodies, over the limit of %d", ErrBadSnapshot, h.bodies, MaxSnapshotBodies)
	case h.free > h.bodies || h.statics > h.bodies || h.movers > h.bodies || h.free+h.statics+h.movers > h.bodies:
		return h, fmt.Errorf("%w: %d free, %d static and %d moving slots for %d bodies", ErrBadSnapshot, h.free, h.statics, h.movers, h.bodies)
	case h.contacts > MaxContactsPerBody*h.bodies:
		return h, fmt.Errorf("%w: %d contacts for %d bodies: want at most %d a body", ErrBadSnapshot, h.contacts, h.bodies, MaxContactsPerBody)
	case src[54] > 1:
		return h, fmt.Errorf("%w: warm-starting flag %d: want 0 or 1", ErrBadSnapshot, src[54])
	}
	// The settings obey the limits Step holds a game's own to.
	settings := World{Gravity: Vec2{getF(src[6:]), getF(src[14:])}, MoveSteps: int(int32(le.Uint32(src[22:]))),
		Iterations: int(int32(le.Uint32(src[26:]))), PositionIterations: int(int32(le.Uint32(src[30:]))),
		Substeps: int(int32(le.Uint32(src[34:]))), SleepTime: getF(src[38:]), SleepSpeed: getF(src[46:])}
	if err := settings.checkStep(1.0 / 60); err != nil {
		return h, fmt.Errorf("%w: %s", ErrBadSnapshot, strings.TrimPrefix(err.Error(), "physics: "))
	}
	want := snapHeader + h.bodies*bodyBytes + (h.free+h.statics+h.movers)*slotBytes + h.contacts*contactBytes + snapTrailer
	if len(src) != want {
		return h, fmt.Errorf("%w: %d bytes, want %d for %d bodies and %d contacts (truncated or extended)",
			ErrBadSnapshot, len(src), want, h.bodies, h.contacts)
	}
	bodies := src[snapHeader : snapHeader+h.bodies*bodyBytes]
	// Every slot is listed exactly once: free if removed, else static or
	// moving by its kind.
	const (
		seenFree = 1 << iota
		seenStatic
		seenMover
	)
	mark := resize(*scratch, h.bodies)
	*scratch = mark
	clear(mark)
	lists := src[snapHeader+len(bodies):]
	for k := range h.free + h.statics + h.movers {
		s := int(le.Uint32(lists[k*slotBytes:]))
		if s >= h.bodies {
			return h, fmt.Errorf("%w: slot %d of %d bodies", ErrBadSnapshot, s, h.bodies)
		}
		rec := bodies[s*bodyBytes:]
		kind, flags := Kind(rec[0]), rec[bodyFlags]
		removed := flags&flagRemoved != 0
		if !removed && le.Uint32(rec[119:]) == 0 {
			return h, fmt.Errorf("%w: body %d is alive at generation 0, which names no body", ErrBadSnapshot, s)
		}
		var want uint8
		switch {
		case k < h.free:
			want = seenFree
			if !removed || le.Uint32(rec[119:]) == math.MaxUint32 {
				return h, fmt.Errorf("%w: body %d is listed free but not removed, or its generation has run out", ErrBadSnapshot, s)
			}
		case k < h.free+h.statics:
			want = seenStatic
			if removed || kind != Static {
				return h, fmt.Errorf("%w: body %d is listed static but is not a static body", ErrBadSnapshot, s)
			}
		default:
			want = seenMover
			if removed || kind == Static {
				return h, fmt.Errorf("%w: body %d is listed moving but is not a moving body", ErrBadSnapshot, s)
			}
		}
		if mark[s] != 0 {
			return h, fmt.Errorf("%w: body %d is listed twice", ErrBadSnapshot, s)
		}
		mark[s] = want
	}
	for s := range h.bodies {
		rec := bodies[s*bodyBytes : (s+1)*bodyBytes]
		if Kind(rec[0]) > Static || Shape(rec[1]) > Polygon {
			return h, fmt.Errorf("%w: body %d has kind %d, shape %d", ErrBadSnapshot, s, rec[0], rec[1])
		}
		if mark[s] == 0 && (rec[bodyFlags]&flagRemoved == 0 || le.Uint32(rec[119:]) != math.MaxUint32) {
			// Only a slot whose generation has run out is on no list (release).
			return h, fmt.Errorf("%w: body %d is on no list", ErrBadSnapshot, s)
		}
		if err := checkHull(rec, Shape(rec[1])); err != nil {
			return h, fmt.Errorf("%w: body %d: %v", ErrBadSnapshot, s, err)
		}
		if err := checkBody(rec); err != nil {
			return h, fmt.Errorf("%w: body %d: %s", ErrBadSnapshot, s, strings.TrimPrefix(err.Error(), "physics: "))
		}
	}
	// Each pair at most once: the table is the step's, rebuilt at the
	// start of every step before it is read, so it is free between steps.
	contacts := lists[(h.free+h.statics+h.movers)*slotBytes:]
	pairs.reset(h.contacts)
	for k := range h.contacts {
		c := contacts[k*contactBytes : (k+1)*contactBytes]
		ia, ib := int(le.Uint32(c)), int(le.Uint32(c[4:]))
		if ia >= ib || ib >= h.bodies {
			return h, fmt.Errorf("%w: contact %d joins bodies %d and %d of %d", ErrBadSnapshot, k, ia, ib, h.bodies)
		}
		if !pairs.put(uint64(ia)<<32|uint64(ib), k) {
			return h, fmt.Errorf("%w: contact %d joins bodies %d and %d, as an earlier one does", ErrBadSnapshot, k, ia, ib)
		}
		if err := checkContact(c, bodies[ia*bodyBytes:(ia+1)*bodyBytes], bodies[ib*bodyBytes:(ib+1)*bodyBytes]); err != nil {
			return h, fmt.Errorf("%w: contact %d of bodies %d and %d: %v", ErrBadSnapshot, k, ia, ib, err)
		}
	}
	return h, nil
}

// Bounds of the numbers a snapshot holds that no body limit covers.
const (
	// maxSnapNumber bounds every number of a contact: its points, depth,
	// impulses, kept manifold. It is above any a world makes (an impulse
	// that stops MaxSnapshotBodies bodies of MaxMass at MaxSpeed is
	// 4.2e21) and far enough below overflow that an impulse times an
	// inverse mass, times a lever, stays finite within a step.
	maxSnapNumber = 1e24
	// minInvInertia and maxInvInertia bound a dynamic body's inverse
	// inertia (or it is 0, FixedRotation): the inertia Add derives is at
	// most MaxMass times the outermost hull's 2·MaxSize² per unit mass,
	// 2e21 (an explicit Inertia, MaxInertia), and at least MinMass times
	// a circle's or a hull's of MinSize edges (about 3e-10 per unit
	// mass), 3e-16: the bounds leave a hundredfold margin each way.
	minInvInertia = 1.0 / 4e23
	maxInvInertia = 1e18
)

// checkBody refuses a body record that no valid world's Snapshot writes:
// a removed slot that holds anything but its generation; a live body
// that Add would refuse (every number finite and within its limit, see
// MaxCoordinate), with a previous position beyond MaxCoordinate, a sleep
// timer that is negative or not finite, asleep though not dynamic, or an
// inverse mass or inertia that Add could not have derived for its kind:
// zero for a static or kinematic body, 1/Mass for a dynamic one within
// 1/MaxMass..1/MinMass. They are kept as stored, so that a snapshot
// restores to the same bytes (a game may have changed Mass, Inertia or
// the size since the last step, and the inverses with them do not
// match until the next), and the next Step derives them again, as the
// original's would: within range they cannot change what it does.
func checkBody(rec []byte) error {
	f, gen := rec[bodyFlags], le.Uint32(rec[119:])
	switch {
	case f&^(flagDisabled|flagSweep|flagRemoved|flagAsleep|flagFixedRotation) != 0:
		return fmt.Errorf("flags %#x", f)
	case gen == 0:
		return fmt.Errorf("generation 0, which names no body")
	case f&flagRemoved != 0:
		for i, v := range rec {
			if v != 0 && i != bodyFlags && (i < 119 || i >= 123) || i == bodyFlags && v != flagRemoved {
				return fmt.Errorf("a removed slot with byte %d of its record set: a snapshot keeps only its generation", i)
			}
		}
		return nil
	}
	var b Body
	var h Hull
	readBody(rec, &b, &h)
	if b.Shape == Polygon {
		b.Hull = &h
	}
	if err := b.check(); err != nil {
		return err
	}
	inside := func(v, lo, hi float64) bool { return v >= lo && v <= hi } // false for NaN
	invI := !(b.invI == 0 && !math.Signbit(b.invI))                      // not +0
	switch {
	case !inside(b.Prev.X, -MaxCoordinate, MaxCoordinate) || !inside(b.Prev.Y, -MaxCoordinate, MaxCoordinate):
		return fmt.Errorf("previous position %v: want finite coordinates within ±%v", b.Prev, float64(MaxCoordinate))
	case !inside(b.still, 0, math.MaxFloat64):
		return fmt.Errorf("sleep timer %v: want finite, at least 0", b.still)
	case b.asleep && b.Kind != Dynamic:
		return fmt.Errorf("asleep, but kind %d: only a dynamic body sleeps", b.Kind)
	case b.Kind != Dynamic && (math.Float64bits(b.invMass) != 0 || invI):
		return fmt.Errorf("inverse mass %v, inverse inertia %v on kind %d: want 0 for a body that is not dynamic", b.invMass, b.invI, b.Kind)
	case b.Kind == Dynamic && !inside(b.invMass, 1/MaxMass, 1/MinMass):
		return fmt.Errorf("inverse mass %v: want %v to %v (a mass within %v..%v)", b.invMass, 1/MaxMass, 1/MinMass, MinMass, MaxMass)
	case b.Kind == Dynamic && invI && !inside(b.invI, minInvInertia, maxInvInertia):
		return fmt.Errorf("inverse inertia %v: want 0 or %v to %v", b.invI, minInvInertia, maxInvInertia)
	}
	return nil
}

// contactFloats are the offsets of a contact record's numbers but its
// kept manifold's (putContact): Normal, Points, Point, Depth, Impulse,
// FrictionImpulse, mass, vn0, friction, the points' depths and impulses.
var contactFloats = [...]int{16, 24, 32, 40, 48, 56, 64, 72, 80, 88, 97, 107, 115, 123, 135, 143, 151, 159, 167, 175}

// checkContact refuses a contact record that no valid world's Snapshot
// writes for bodies a and b (their records, checked): either removed or
// of a later generation than the body's (an earlier one is the last
// tick's contact of a body removed since, whose slot a body added since
// holds), neither dynamic, unknown flags, more than 2
// points, a normal that is not a unit vector, a number that is not
// finite or beyond maxSnapNumber, a push (normal impulse) below zero,
// a mass or friction a pair could not have.
func checkContact(c, a, b []byte) error {
	ga, gb := le.Uint32(c[8:]), le.Uint32(c[12:])
	switch {
	case a[bodyFlags]&flagRemoved != 0 || b[bodyFlags]&flagRemoved != 0:
		return fmt.Errorf("a removed body")
	case ga == 0 || gb == 0 || ga > le.Uint32(a[119:]) || gb > le.Uint32(b[119:]):
		return fmt.Errorf("generations %d and %d: the bodies' are %d and %d", ga, gb, le.Uint32(a[119:]), le.Uint32(b[119:]))
	case ga == le.Uint32(a[119:]) && gb == le.Uint32(b[119:]) && Kind(a[0]) != Dynamic && Kind(b[0]) != Dynamic:
		return fmt.Errorf("kinds %d and %d: neither is dynamic", a[0], b[0])
	case c[contactNumPoints] > 2 || c[105]&^7 != 0:
		return fmt.Errorf("%d points, flags %#x", c[contactNumPoints], c[105])
	}
	if err := checkKept(c[contactKept:]); err != nil {
		return err
	}
	for i, off := range contactFloats {
		if v := getF(c[off:]); !(math.Abs(v) <= maxSnapNumber) {
			return fmt.Errorf("number %d is %v: want finite within ±%v", i, v, maxSnapNumber)
		}
	}
	nx, ny := getF(c[16:]), getF(c[24:])
	impulse, pn0, pn1 := getF(c[88:]), getF(c[151:]), getF(c[159:])
	mass, friction := getF(c[107:]), getF(c[123:])
	switch n := (Vec2{nx, ny}).Dot(Vec2{nx, ny}); {
	case !(math.Abs(n-1) <= 1e-9):
		return fmt.Errorf("normal %v: want a unit vector", Vec2{nx, ny})
	case !(impulse >= 0 && pn0 >= 0 && pn1 >= 0):
		return fmt.Errorf("normal impulses %v, %v, %v: want 0 or more (a contact only pushes)", impulse, pn0, pn1)
	case !(mass > 0 && mass <= 2*MaxMass):
		return fmt.Errorf("effective mass %v: want above 0, at most %v", mass, 2*MaxMass)
	case !(friction >= 0 && friction <= MaxFriction):
		return fmt.Errorf("friction %v: want 0 to %v", friction, float64(MaxFriction))
	}
	return nil
}

// Body record flags.
const (
	flagDisabled = 1 << iota
	flagSweep
	flagRemoved
	flagAsleep
	flagFixedRotation
)

// bodyFlags is the offset of the flags in a body record, bodyHull of the
// hull's vertex count (its vertices follow), bodyLinearDamping of
// LinearDamping, after them.
const (
	bodyFlags         = 106
	bodyHull          = 179
	bodyLinearDamping = bodyHull + 1 + 2*MaxHullVertices*8
)

// checkHull refuses a body record whose hull NewHull would not have made,
// or a hull on a body that is not a polygon (so that a world has one
// snapshot, byte for byte).
func checkHull(rec []byte, shape Shape) error {
	n := int(rec[bodyHull])
	if shape != Polygon {
		if n != 0 {
			return fmt.Errorf("a hull of %d vertices on shape %d", n, shape)
		}
		return nil
	}
	if n < 3 || n > MaxHullVertices {
		return fmt.Errorf("a hull of %d vertices", n)
	}
	var v [MaxHullVertices]Vec2
	for i := range n {
		v[i] = Vec2{getF(rec[bodyHull+1+16*i:]), getF(rec[bodyHull+9+16*i:])}
		if !(math.Abs(v[i].X) <= MaxSize && math.Abs(v[i].Y) <= MaxSize) {
			return fmt.Errorf("hull vertex %d %v out of range", i, v[i])
		}
	}
	if err := checkConvex(v[:n]); err != nil {
		return err
	}
	var h Hull
	if h.build(v[:n]); !(h.inner > 0) {
		// NewHull puts the centroid at the origin: inside.
		return fmt.Errorf("a hull that does not hold its origin (the body's position)")
	}
	return nil
}

// putBody writes a body record: kind, shape, 12 float64 (Pos, Prev, Vel,
// Radius, HalfW, HalfH, Mass, Restitution, Friction), Layer and Mask,
// flags, Tag, invMass, gen, still, then 6 float64 (Angle, PrevAngle,
// AngVel, Inertia, AngularDamping, invI), the hull: its vertex count
// and MaxHullVertices vertices (zero past the count), and LinearDamping. The rotation's
// cosine and sine are not stored: Restore computes them from Angle, as
// the step does.
func putBody(p []byte, b *Body) {
	_ = p[bodyBytes-1]
	p[0], p[1] = byte(b.Kind), byte(b.Shape)
	putF(p[2:], b.Pos.X)
	putF(p[10:], b.Pos.Y)
	putF(p[18:], b.Prev.X)
	putF(p[26:], b.Prev.Y)
	putF(p[34:], b.Vel.X)
	putF(p[42:], b.Vel.Y)
	putF(p[50:], b.Radius)
	putF(p[58:], b.HalfW)
	putF(p[66:], b.HalfH)
	putF(p[74:], b.Mass)
	putF(p[82:], b.Restitution)
	putF(p[90:], b.Friction)
	le.PutUint32(p[98:], b.Layer)
	le.PutUint32(p[102:], b.Mask)
	var f byte
	if b.Disabled {
		f |= flagDisabled
	}
	if b.Sweep {
		f |= flagSweep
	}
	if b.removed {
		f |= flagRemoved
	}
	if b.asleep {
		f |= flagAsleep
	}
	if b.FixedRotation {
		f |= flagFixedRotation
	}
	p[bodyFlags] = f
	le.PutUint32(p[107:], uint32(b.Tag))
	putF(p[111:], b.invMass)
	le.PutUint32(p[119:], b.gen)
	putF(p[123:], b.still)
	putF(p[131:], b.Angle)
	putF(p[139:], b.PrevAngle)
	putF(p[147:], b.AngVel)
	putF(p[155:], b.Inertia)
	putF(p[163:], b.AngularDamping)
	putF(p[171:], b.invI)
	h := b.Hull
	if b.Shape != Polygon || h == nil {
		h = &Hull{} // a stray hull on another shape plays no part
	}
	p[bodyHull] = h.n
	for i := range MaxHullVertices {
		putF(p[bodyHull+1+16*i:], h.verts[i].X)
		putF(p[bodyHull+9+16*i:], h.verts[i].Y)
	}
	putF(p[bodyLinearDamping:], b.LinearDamping)
}

// getBody reads a checked body record into b, its hull into a new Hull
// unless b's is the same already.
func getBody(p []byte, b *Body) {
	old := b.Hull
	if p[bodyHull] == 0 {
		readBody(p, b, nil)
	} else if sameHull(p, old) {
		readBody(p, b, nil)
		b.Hull = old // the slot's hull already: restoring a rollback builds nothing, allocates nothing
	} else {
		var h Hull
		readBody(p, b, &h)
		if old != nil && *old == h {
			b.Hull = old
		} else {
			b.Hull = new(Hull) // only here: h itself stays on the stack
			*b.Hull = h
		}
	}
	b.resync()
}

// sameHull reports whether h holds the vertices of body record p's hull,
// bit for bit: so h is what building them makes (Hull.build depends on
// nothing else).
func sameHull(p []byte, h *Hull) bool {
	n := int(p[bodyHull])
	if h == nil || int(h.n) != n {
		return false
	}
	for i := range n {
		v := h.verts[i]
		if le.Uint64(p[bodyHull+1+16*i:]) != math.Float64bits(v.X) || le.Uint64(p[bodyHull+9+16*i:]) != math.Float64bits(v.Y) {
			return false
		}
	}
	return true
}

// readBody decodes a body record into b (with no Hull) and its hull, if
// it has one, into h, which must be zero (nil to skip it): 3 to
// MaxHullVertices vertices (checkHull).
func readBody(p []byte, b *Body, h *Hull) {
	_ = p[bodyBytes-1]
	f := p[bodyFlags]
	*b = Body{
		Kind: Kind(p[0]), Shape: Shape(p[1]),
		Pos: Vec2{getF(p[2:]), getF(p[10:])}, Prev: Vec2{getF(p[18:]), getF(p[26:])},
		Vel:    Vec2{getF(p[34:]), getF(p[42:])},
		Radius: getF(p[50:]), HalfW: getF(p[58:]), HalfH: getF(p[66:]), Mass: getF(p[74:]),
		Restitution: getF(p[82:]), Friction: getF(p[90:]),
		Layer: le.Uint32(p[98:]), Mask: le.Uint32(p[102:]),
		Disabled: f&flagDisabled != 0, Sweep: f&flagSweep != 0,
		Tag:     int32(le.Uint32(p[107:])),
		invMass: getF(p[111:]), gen: le.Uint32(p[119:]),
		removed: f&flagRemoved != 0, asleep: f&flagAsleep != 0,
		still:         getF(p[123:]),
		FixedRotation: f&flagFixedRotation != 0,
		Angle:         getF(p[131:]), PrevAngle: getF(p[139:]), AngVel: getF(p[147:]),
		Inertia: getF(p[155:]), AngularDamping: getF(p[163:]), invI: getF(p[171:]),
		LinearDamping: getF(p[bodyLinearDamping:]),
	}
	if n := int(p[bodyHull]); n > 0 && h != nil {
		var v [MaxHullVertices]Vec2
		for i := range n {
			v[i] = Vec2{getF(p[bodyHull+1+16*i:]), getF(p[bodyHull+9+16*i:])}
		}
		h.build(v[:n])
	}
}

// contactNumPoints is the offset of NumPoints in a contact record,
// contactKept of its kept manifold: its point count (0: none kept), then
// keptFloats float64 (the points' anchors, the centres' offset, the two
// bodies' rotations, the separations) and the points' ids (2 uint16).
const (
	contactNumPoints = 96
	contactKept      = 183
	keptFloats       = 4 + 2 + 4 + 2
)

// keptOf returns contact c's kept manifold as a snapshot stores it: none
// (a zero point count) unless it may still be recycled, for the shapes
// the bodies have now.
func (w *World) keptOf(c *Contact) kept {
	if !c.turning {
		return kept{}
	}
	k := w.keep[c.tp]
	if k.ka != keyOf(&w.bodies[c.ia]) || k.kb != keyOf(&w.bodies[c.ib]) {
		k.n = 0
	}
	return k
}

// keptValues lists a kept manifold's numbers in record order.
func keptValues(k *kept) [keptFloats]*float64 {
	return [keptFloats]*float64{&k.ra[0].X, &k.ra[0].Y, &k.ra[1].X, &k.ra[1].Y, &k.dc.X, &k.dc.Y,
		&k.qa[0], &k.qa[1], &k.qb[0], &k.qb[1], &k.base[0], &k.base[1]}
}

// checkKept refuses a kept manifold record that no world writes: more
// than 2 points, a number that is not finite or beyond maxSnapNumber, a
// rotation's component beyond ±1.
func checkKept(rec []byte) error {
	if rec[0] > 2 {
		return fmt.Errorf("a kept manifold of %d points", rec[0])
	}
	for i := range keptFloats {
		v := getF(rec[1+8*i:])
		if !(math.Abs(v) <= maxSnapNumber) || i >= 6 && i < 10 && math.Abs(v) > 1 {
			return fmt.Errorf("kept-manifold number %d is %v", i, v)
		}
	}
	return nil
}

// putContact writes a contact record: ia, ib, A's and B's generations,
// Normal, Points, Point, Depth... (the offsets below), flags.
func putContact(p []byte, c *Contact, q *pointState, k kept) {
	_ = p[contactBytes-1]
	le.PutUint32(p[0:], c.ia)
	le.PutUint32(p[4:], c.ib)
	le.PutUint32(p[8:], c.A.gen)
	le.PutUint32(p[12:], c.B.gen)
	putF(p[16:], c.Normal.X)
	putF(p[24:], c.Normal.Y)
	putF(p[32:], c.Points[0].X)
	putF(p[40:], c.Points[0].Y)
	putF(p[48:], c.Points[1].X)
	putF(p[56:], c.Points[1].Y)
	putF(p[64:], c.Point.X)
	putF(p[72:], c.Point.Y)
	putF(p[80:], c.Depth)
	putF(p[88:], c.Impulse)
	p[96] = byte(c.NumPoints)
	putF(p[97:], c.FrictionImpulse)
	var f byte
	if c.Touching {
		f |= 1
	}
	if c.resting {
		f |= 2
	}
	if c.turning {
		f |= 4
	}
	p[105] = f
	p[106] = c.feature
	putF(p[107:], c.mass)
	putF(p[115:], c.vn0)
	putF(p[123:], c.friction)
	le.PutUint16(p[131:], q.ids[0])
	le.PutUint16(p[133:], q.ids[1])
	putF(p[135:], q.depths[0])
	putF(p[143:], q.depths[1])
	putF(p[151:], q.pn[0])
	putF(p[159:], q.pn[1])
	putF(p[167:], q.pt[0])
	putF(p[175:], q.pt[1])
	p[contactKept] = byte(k.n)
	for i, v := range keptValues(&k) {
		putF(p[contactKept+1+8*i:], *v)
	}
	le.PutUint16(p[contactKept+1+8*keptFloats:], k.ids[0])
	le.PutUint16(p[contactKept+3+8*keptFloats:], k.ids[1])
}

// noPoints is the point state written for a contact that does not turn.
var noPoints pointState

// pointsOf returns a contact's point state, or zeros when it does not
// turn.
func (w *World) pointsOf(c *Contact) *pointState {
	if c.turning {
		return &w.turn[c.tp]
	}
	return &noPoints
}

// getContact reads a checked contact record into c (its tp left 0).
func getContact(p []byte, c *Contact) {
	_ = p[contactBytes-1]
	ia, ib := le.Uint32(p[0:]), le.Uint32(p[4:])
	f := p[105]
	*c = Contact{
		A: BodyID{ia, le.Uint32(p[8:])}, B: BodyID{ib, le.Uint32(p[12:])},
		Normal: Vec2{getF(p[16:]), getF(p[24:])},
		Points: [2]Vec2{{getF(p[32:]), getF(p[40:])}, {getF(p[48:]), getF(p[56:])}},
		Point:  Vec2{getF(p[64:]), getF(p[72:])},
		Depth:  getF(p[80:]), Impulse: getF(p[88:]),
		NumPoints: int(p[96]), FrictionImpulse: getF(p[97:]),
		Touching: f&1 != 0, resting: f&2 != 0, feature: p[106],
		ia: ia, ib: ib, key: uint64(ia)<<32 | uint64(ib),
		mass: getF(p[107:]), vn0: getF(p[115:]), friction: getF(p[123:]),
		turning: f&4 != 0,
	}
}

// getTurn reads a turning contact's record's point state into q and its
// kept manifold into k, in place (a rollback's restore reads thousands),
// all but k's shape keys: the fields putContact and keptValues write, in
// their order.
func getTurn(p []byte, q *pointState, k *kept) {
	_ = p[contactBytes-1]
	*q = pointState{
		ids:    [2]uint16{le.Uint16(p[131:]), le.Uint16(p[133:])},
		depths: [2]float64{getF(p[135:]), getF(p[143:])},
		pn:     [2]float64{getF(p[151:]), getF(p[159:])},
		pt:     [2]float64{getF(p[167:]), getF(p[175:])},
	}
	r := p[contactKept:contactBytes]
	k.n = int8(r[0])
	k.ra = [2]Vec2{{getF(r[1:]), getF(r[9:])}, {getF(r[17:]), getF(r[25:])}}
	k.dc = Vec2{getF(r[33:]), getF(r[41:])}
	k.qa = [2]float64{getF(r[49:]), getF(r[57:])}
	k.qb = [2]float64{getF(r[65:]), getF(r[73:])}
	k.base = [2]float64{getF(r[81:]), getF(r[89:])}
	k.ids = [2]uint16{le.Uint16(r[1+8*keptFloats:]), le.Uint16(r[3+8*keptFloats:])}
}

var le = binary.LittleEndian

func putF(p []byte, v float64) { le.PutUint64(p, math.Float64bits(v)) }
func getF(p []byte) float64    { return math.Float64frombits(le.Uint64(p)) }

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// resize returns s with length n, reusing its array when it is large
// enough.
func resize[S ~[]E, E any](s S, n int) S {
	if cap(s) >= n {
		return s[:n]
	}
	return make(S, n, n+n/4)
}

// Diff compares two snapshots and describes the first difference, the way
// a sync test reports a desync: "body 17 (tag 5) Vel.X: 1.25 != 1.2500000000000002",
// a setting, a slot list or a contact. It returns "" when they are equal,
// and says so when one of them is not a valid snapshot. It allocates: it
// is for reports, not for every tick.
func Diff(a, b []byte) string {
	var wa, wb World
	if err := wa.Restore(a); err != nil {
		return "first snapshot: " + err.Error()
	}
	if err := wb.Restore(b); err != nil {
		return "second snapshot: " + err.Error()
	}
	settings := []struct {
		name string
		x, y float64
	}{
		{"ticks", float64(wa.ticks), float64(wb.ticks)},
		{"Gravity.X", wa.Gravity.X, wb.Gravity.X}, {"Gravity.Y", wa.Gravity.Y, wb.Gravity.Y},
		{"MoveSteps", float64(wa.MoveSteps), float64(wb.MoveSteps)},
		{"Iterations", float64(wa.Iterations), float64(wb.Iterations)},
		{"PositionIterations", float64(wa.PositionIterations), float64(wb.PositionIterations)},
		{"Substeps", float64(wa.Substeps), float64(wb.Substeps)},
		{"SleepTime", wa.SleepTime, wb.SleepTime}, {"SleepSpeed", wa.SleepSpeed, wb.SleepSpeed},
		{"body slots", float64(len(wa.bodies)), float64(len(wb.bodies))},
	}
	for _, s := range settings {
		if !same(s.x, s.y) {
			return fmt.Sprintf("world %s: %v != %v", s.name, s.x, s.y)
		}
	}
	for i := range wa.bodies {
		if d := diffBody(&wa.bodies[i], &wb.bodies[i]); d != "" {
			return fmt.Sprintf("body %d (tag %d) %s", i, wa.bodies[i].Tag, d)
		}
	}
	for _, l := range []struct {
		name string
		x, y []int32
	}{{"static", wa.statics, wb.statics}, {"moving", wa.movers, wb.movers}} {
		if !slices.Equal(l.x, l.y) {
			return fmt.Sprintf("world: the %s bodies are listed in another order", l.name)
		}
	}
	if !slices.Equal(wa.free, wb.free) {
		return "world: the free slots are listed in another order"
	}
	if len(wa.contacts) != len(wb.contacts) {
		return fmt.Sprintf("world: %d contacts != %d", len(wa.contacts), len(wb.contacts))
	}
	for i := range wa.contacts {
		ca, cb := &wa.contacts[i], &wb.contacts[i]
		var ra, rb [contactBytes]byte
		putContact(ra[:], ca, wa.pointsOf(ca), wa.keptOf(ca))
		putContact(rb[:], cb, wb.pointsOf(cb), wb.keptOf(cb))
		if ra != rb {
			if *ca == *cb {
				return fmt.Sprintf("contact %d (%v, %v): points %+v != %+v, kept %+v != %+v", i, ca.A, ca.B,
					*wa.pointsOf(ca), *wb.pointsOf(cb), wa.keptOf(ca), wb.keptOf(cb))
			}
			return fmt.Sprintf("contact %d (%v, %v): %+v != %+v", i, ca.A, ca.B, *ca, *cb)
		}
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("world: the snapshots differ at byte %d of %d", i, len(a))
		}
	}
	return ""
}

// diffBody names the first field in which a and b differ, with both
// values, or returns "".
func diffBody(a, b *Body) string {
	fields := [...]struct {
		name string
		x, y float64
	}{
		{"Pos.X", a.Pos.X, b.Pos.X}, {"Pos.Y", a.Pos.Y, b.Pos.Y},
		{"Prev.X", a.Prev.X, b.Prev.X}, {"Prev.Y", a.Prev.Y, b.Prev.Y},
		{"Vel.X", a.Vel.X, b.Vel.X}, {"Vel.Y", a.Vel.Y, b.Vel.Y},
		{"Angle", a.Angle, b.Angle}, {"PrevAngle", a.PrevAngle, b.PrevAngle}, {"AngVel", a.AngVel, b.AngVel},
		{"Inertia", a.Inertia, b.Inertia}, {"AngularDamping", a.AngularDamping, b.AngularDamping},
		{"LinearDamping", a.LinearDamping, b.LinearDamping},
		{"inverse inertia", a.invI, b.invI},
		{"Radius", a.Radius, b.Radius}, {"HalfW", a.HalfW, b.HalfW}, {"HalfH", a.HalfH, b.HalfH},
		{"Mass", a.Mass, b.Mass}, {"Restitution", a.Restitution, b.Restitution}, {"Friction", a.Friction, b.Friction},
		{"sleep timer", a.still, b.still}, {"inverse mass", a.invMass, b.invMass},
	}
	for _, f := range fields {
		if !same(f.x, f.y) {
			return fmt.Sprintf("%s: %v != %v", f.name, f.x, f.y)
		}
	}
	flags := [...]struct {
		name string
		x, y any
	}{
		{"Kind", a.Kind, b.Kind}, {"Shape", a.Shape, b.Shape}, {"Layer", a.Layer, b.Layer}, {"Mask", a.Mask, b.Mask},
		{"Disabled", a.Disabled, b.Disabled}, {"Sweep", a.Sweep, b.Sweep}, {"Tag", a.Tag, b.Tag},
		{"FixedRotation", a.FixedRotation, b.FixedRotation}, {"Hull", hullOf(a), hullOf(b)},
		{"generation", a.gen, b.gen}, {"removed", a.removed, b.removed}, {"asleep", a.asleep, b.asleep},
	}
	for _, f := range flags {
		if f.x != f.y {
			return fmt.Sprintf("%s: %v != %v", f.name, f.x, f.y)
		}
	}
	return ""
}

// same compares floats by their bits: NaN is the same as NaN, 0 differs
// from -0, as the next tick may tell them apart.
func same(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// hullOf returns b's hull as a value, the zero Hull for none.
func hullOf(b *Body) Hull {
	if b.Hull == nil || b.Shape != Polygon {
		return Hull{}
	}
	return *b.Hull
}

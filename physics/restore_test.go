package physics

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cost is the work the world's steps have done so far: pairs tested,
// contacts solved (once a pass), sub-steps against statics, and the pair
// tables' probes. It counts, so tests can bound a step's cost without a
// clock.
func (w *World) cost() uint64 { return w.work + w.prevTable.probes + w.curTable.probes }

// stepCost steps w n ticks and returns the work they took.
func stepCost(w *World, n int) uint64 {
	before := w.cost()
	for range n {
		w.Step(dt)
	}
	return w.cost() - before
}

// refuses restores bad into w and fails unless Restore refuses it with an
// error wrapping ErrBadSnapshot that says want, leaving w as it was.
func refuses(t *testing.T, w *World, name string, bad []byte, want string) {
	t.Helper()
	before := w.Snapshot(nil)
	err := w.Restore(reseal(bad))
	if !errors.Is(err, ErrBadSnapshot) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: Restore = %v, want ErrBadSnapshot saying %q", name, err, want)
	}
	if got := w.Snapshot(nil); !bytes.Equal(got, before) {
		t.Fatalf("%s: a refused Restore changed the world: %s", name, Diff(before, got))
	}
}

// reseal gives a snapshot whose bytes a test changed the checksum of its
// new bytes, as a hostile peer would, so that the checks behind the
// checksum are what refuse it. It returns b.
func reseal(b []byte) []byte {
	if len(b) >= snapHeader+snapTrailer {
		le.PutUint32(b[len(b)-snapTrailer:], crc32.Checksum(b[:len(b)-snapTrailer], castagnoli))
	}
	return b
}

// bodyAt returns the offset of body s's record in a snapshot.
func bodyAt(s int32) int { return snapHeader + int(s)*bodyBytes }

// TestRestoreRefusesBadInverses: a body's inverse mass or inertia that
// is NaN, negative, infinite, or one Add could not have derived for its
// kind (zero on a dynamic body: infinite mass; anything but zero on a
// static one) is refused, naming the body and the field. The old
// Restore took them as stored: one NaN took most of a world out in a step.
func TestRestoreRefusesBadInverses(t *testing.T) {
	src := lively(t, 20)
	run(t, src, 0, 60)
	snap := src.Snapshot(nil)
	dyn, static := int32(-1), src.statics[0]
	for _, i := range src.movers {
		if b := &src.bodies[i]; b.Kind == Dynamic && b.invI != 0 && !b.Disabled {
			dyn = i
			break
		}
	}
	if dyn < 0 {
		t.Fatal("no turning dynamic body to spoil")
	}
	w := lively(t, 5)
	for _, f := range []struct {
		name string
		off  int
	}{{"inverse mass", 111}, {"inverse inertia", 171}} {
		for _, v := range []float64{math.NaN(), -1, -1e-9, math.Inf(1), math.Inf(-1), 1e300} {
			bad := bytes.Clone(snap)
			putF(bad[bodyAt(dyn)+f.off:], v)
			refuses(t, w, f.name+" "+strconv.FormatFloat(v, 'g', -1, 64), bad, "body "+strconv.Itoa(int(dyn))+": "+f.name)
		}
	}
	bad := bytes.Clone(snap)
	putF(bad[bodyAt(dyn)+111:], 0)
	refuses(t, w, "a dynamic body of infinite mass", bad, "inverse mass 0")
	bad = bytes.Clone(snap)
	putF(bad[bodyAt(static)+111:], 1)
	refuses(t, w, "a static body of mass 1", bad, "want 0 for a body that is not dynamic")
	bad = bytes.Clone(snap)
	putF(bad[bodyAt(dyn)+123:], math.NaN())
	refuses(t, w, "a NaN sleep timer", bad, "sleep timer NaN")
	bad = bytes.Clone(snap)
	putF(bad[bodyAt(dyn)+18:], math.Inf(1))
	refuses(t, w, "an infinite previous position", bad, "previous position")
	bad = bytes.Clone(snap)
	putF(bad[bodyAt(dyn)+74:], -2)
	refuses(t, w, "a negative mass", bad, "mass -2")
	fresh := lively(t, 20) // a removed slot on its free list
	bad = fresh.Snapshot(nil)
	bad[bodyAt(int32(fresh.free[0]))+50] = 1 // a removed slot with a radius
	refuses(t, w, "a removed slot with numbers", bad, "a removed slot with byte 50")
}

// TestRestoreRefusesRepeatedPairs: a snapshot whose contacts name one
// pair twice is refused; no step makes one, and each copy would cost
// the pair table a probe past every copy before it.
func TestRestoreRefusesRepeatedPairs(t *testing.T) {
	src := lively(t, 20)
	run(t, src, 0, 120)
	snap := src.Snapshot(nil)
	if len(src.contacts) < 2 {
		t.Fatal("too few contacts to repeat")
	}
	at := snapHeader + len(src.bodies)*bodyBytes + (len(src.free)+len(src.statics)+len(src.movers))*slotBytes
	bad := bytes.Clone(snap)
	copy(bad[at+contactBytes:at+2*contactBytes], bad[at:at+contactBytes])
	c := &src.contacts[0]
	refuses(t, lively(t, 5), "contact 1 repeats contact 0", bad,
		"contact 1 joins bodies "+strconv.Itoa(int(c.ia))+" and "+strconv.Itoa(int(c.ib))+", as an earlier one does")

	bad = bytes.Clone(snap)
	putF(bad[at+16:], 2) // Normal.X
	refuses(t, lively(t, 5), "a normal of length 2", bad, "want a unit vector")
	bad = bytes.Clone(snap)
	putF(bad[at+88:], -1) // Impulse
	refuses(t, lively(t, 5), "a pulling contact", bad, "want 0 or more")
	bad = bytes.Clone(snap)
	putF(bad[at+97:], math.Inf(1)) // FrictionImpulse
	refuses(t, lively(t, 5), "an infinite friction impulse", bad, "number 10 is +Inf")
}

// TestPairTableKeepsOneOfEqualKeys: putting one key many times keeps the
// first index in one slot, so the table costs what it does for distinct
// keys instead of a probe past every earlier copy.
func TestPairTableKeepsOneOfEqualKeys(t *testing.T) {
	var tab pairTable
	const n = 1000
	tab.reset(n)
	for i := range n {
		tab.put(7<<32|9, i)
	}
	used := 0
	for _, v := range tab.idx {
		if v != 0 {
			used++
		}
	}
	if used != 1 || tab.get(7<<32|9) != 0 {
		t.Errorf("%d equal keys fill %d slots, get finds %d: want 1 slot holding index 0", n, used, tab.get(7<<32|9))
	}
}

// TestSettingsLimits: each setting at its limit steps; one above it is
// a bug Step names, and a snapshot that holds it is refused, naming it.
func TestSettingsLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(w *World, v int)
		max  int
	}{
		{"Iterations", func(w *World, v int) { w.Iterations = v }, MaxIterations},
		{"PositionIterations", func(w *World, v int) { w.PositionIterations = v }, MaxPositionIterations},
		{"Substeps", func(w *World, v int) { w.Substeps = v }, MaxSubsteps},
		{"MoveSteps", func(w *World, v int) { w.MoveSteps = v }, MaxMoveSteps},
	} {
		w := lively(t, 10)
		c.set(w, c.max)
		w.Step(dt)
		var z World
		if err := z.Restore(w.Snapshot(nil)); err != nil {
			t.Errorf("%s %d, at its limit: Restore = %v", c.name, c.max, err)
		}
		c.set(w, c.max+1)
		want := "World." + c.name + " = " + strconv.Itoa(c.max+1)
		refuses(t, &z, c.name+" above its limit", w.Snapshot(nil), want)
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), want) {
					t.Errorf("%s above its limit: Step panics with %v, want %q", c.name, r, want)
				}
			}()
			w.Step(dt)
		}()
	}
	w := lively(t, 10)
	w.SleepSpeed = math.NaN()
	refuses(t, lively(t, 5), "SleepSpeed NaN", w.Snapshot(nil), "SleepSpeed = NaN")
	// What one flipped bit of the defaults, or of the old limits, gave:
	// 25 to 140 times the cost of every later step.
	snap := lively(t, 10).Snapshot(nil)
	for _, c := range []struct {
		name string
		off  int
		v    uint32
	}{{"Substeps", 34, 512}, {"Iterations", 26, 1000}, {"PositionIterations", 30, 1000}, {"MoveSteps", 22, 4096}} {
		bad := bytes.Clone(snap)
		le.PutUint32(bad[c.off:], c.v)
		refuses(t, lively(t, 5), c.name+" "+strconv.Itoa(int(c.v)), bad, "World."+c.name+" = "+strconv.Itoa(int(c.v)))
	}
}

// TestRestoreAcceptsWhatSnapshotWrites: every tick's snapshot of a world
// in which the game does what it may between steps (change a body's
// mass, which keeps the inverse Add derived; switch FixedRotation; add
// polygons; exhaust a slot's generations) restores, to the same bytes.
func TestRestoreAcceptsWhatSnapshotWrites(t *testing.T) {
	w := lively(t, 60)
	hull, err := NewHull(Vec2{-0.3, -0.2}, Vec2{0.3, -0.2}, Vec2{0.1, 0.3})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		mustAdd(t, w, Body{Shape: Polygon, Hull: hull, Pos: Vec2{float64(i) - 3, 12}, Angle: 0.3 * float64(i)})
	}
	// A slot whose generations have run out is on no list.
	last := w.ID(w.Len() - 1)
	w.bodies[last.index].gen = math.MaxUint32
	if err := w.Remove(w.ID(w.Len() - 1)); err != nil {
		t.Fatal(err)
	}
	var z World
	var buf []byte
	game := w.ID(8)
	for tick := range 240 {
		churn(t, w, tick)
		if !w.Alive(game) {
		} else if b := w.Body(game); tick == 30 {
			b.Mass = 3 // the world keeps the inverse mass Add derived
		} else if tick%40 == 20 {
			b.FixedRotation = !b.FixedRotation
		}
		w.Step(dt)
		buf = w.Snapshot(buf[:0])
		if err := z.Restore(buf); err != nil {
			t.Fatalf("tick %d: Restore of a valid world's snapshot = %v", tick, err)
		}
		if got := z.Snapshot(nil); !bytes.Equal(got, buf) {
			t.Fatalf("tick %d: restore then snapshot changed the bytes: %s", tick, Diff(buf, got))
		}
	}
}

// corrupt returns a spoilt copy of snap and what it did: bits flipped,
// bytes replaced (anywhere, or in the header, the settings), truncated,
// extended, one contact copied over another, or a bit of a body's
// number's exponent flipped.
func corrupt(r *rand.Rand, snap []byte, contacts int) ([]byte, string) {
	b := bytes.Clone(snap)
	var what strings.Builder
	flip := func(at, bit int) {
		b[at] ^= 1 << bit
		fmt.Fprintf(&what, " bit %d of byte %d", bit, at)
	}
	switch r.IntN(7) {
	case 0:
		for range 1 + r.IntN(8) {
			flip(r.IntN(len(b)), r.IntN(8))
		}
	case 1:
		for range 1 + r.IntN(4) {
			at := r.IntN(len(b))
			b[at] = byte(r.IntN(256))
			fmt.Fprintf(&what, " byte %d = %d", at, b[at])
		}
	case 2:
		flip(6+r.IntN(snapHeader-6), r.IntN(8))
	case 3:
		n := r.IntN(len(b))
		b = b[:n]
		fmt.Fprintf(&what, " truncated to %d", n)
	case 4:
		n := 1 + r.IntN(2*bodyBytes)
		for range n {
			b = append(b, byte(r.IntN(256)))
		}
		fmt.Fprintf(&what, " extended by %d", n)
	case 5:
		at := len(b) - snapTrailer - contacts*contactBytes
		i, j := r.IntN(contacts), r.IntN(contacts)
		copy(b[at+j*contactBytes:at+(j+1)*contactBytes], b[at+i*contactBytes:at+(i+1)*contactBytes])
		fmt.Fprintf(&what, " contact %d copied over %d", i, j)
	case 6: // a body's number scaled by a power of two: a giant, a bullet, a feather
		fields := [...]int{2, 10, 18, 26, 34, 42, 50, 58, 66, 74, 82, 90, 111, 123, 131, 139, 147, 155, 163, 171}
		at := snapHeader + r.IntN((len(b)-snapHeader-contacts*contactBytes)/(bodyBytes+slotBytes))*bodyBytes
		flip(at+fields[r.IntN(len(fields))]+6+r.IntN(2), r.IntN(8))
	}
	return b, what.String()
}

// TestCorruptSnapshotsStepAtValidCost: of a settled, awake pile's
// snapshot spoilt many ways (seeded), none makes Restore or the steps
// after it panic, and every one Restore accepts steps 5 ticks at no
// more than maxCorruptCost times the work of the valid world's 5 ticks.
// FIXSTEP_CORRUPT=bodies,count runs a larger world (10000,1000, say) and
// logs the accepted count and the worst ratios, of work and of time.
//
// FIXSTEP_CORRUPT=10000,10000 (7.6 minutes on a shared 2-core Xeon)
// accepted 3,888 and failed 8, each a number within its limit that makes
// a valid world as costly: Gravity's exponent bit flipped (x256, 4.9
// times the work; x65,536, 7.7 times) or a contact's warm-start impulse
// replaced by one within range (4.4, 7.2 times), which throws bodies
// into more contacts, up to the step's limit (MaxContactsPerBody a body).
// That was before the checksum (format 5): now each corruption is first
// restored as it is, which the checksum refuses (0 of 10,000 of a
// 10,000-body world accepted), then resealed, as a hostile peer would,
// for the checks above; the 8 remain possible only on purpose.
func TestCorruptSnapshotsStepAtValidCost(t *testing.T) {
	const maxCorruptCost = 3
	bodies, count := 1000, 300
	if testing.Short() {
		count = 60
	}
	if env := os.Getenv("FIXSTEP_CORRUPT"); env != "" {
		b, c, _ := strings.Cut(env, ",")
		var err1, err2 error
		bodies, err1 = strconv.Atoi(b)
		count, err2 = strconv.Atoi(c)
		if err1 != nil || err2 != nil {
			t.Fatalf("FIXSTEP_CORRUPT=%q: want bodies,count", env)
		}
	}
	src := awakePile(t, bodies, false)
	snap := src.Snapshot(nil)
	// The time of 5 steps from a restore, the least of a few runs: the
	// machine is shared, so only the work is asserted.
	timed := func(w *World, b []byte, runs int) (work uint64, took time.Duration) {
		for k := range runs {
			if err := w.Restore(b); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			work = stepCost(w, 5)
			if d := time.Since(start); k == 0 || d < took {
				took = d
			}
		}
		return work, took
	}
	var valid World
	want, wantTime := timed(&valid, snap, 3)
	r := rand.New(rand.NewPCG(11, uint64(bodies)))
	var w World
	accepted, worst, worstTime := 0, 0.0, 0.0
	for k := range count {
		bad, what := corrupt(r, snap, len(src.contacts))
		// As damaged on a disk or on the way: the checksum refuses it.
		if err := w.Restore(bad); err == nil && !bytes.Equal(bad, snap) {
			t.Fatalf("corruption %d (%s): damaged bytes passed the checksum", k, what)
		}
		// As made by a hostile peer, with the checksum of its bytes: the
		// checks behind it refuse it, or it steps at a valid world's cost.
		reseal(bad)
		if err := w.Restore(bad); err != nil {
			if !errors.Is(err, ErrBadSnapshot) {
				t.Fatalf("corruption %d: error %v does not wrap ErrBadSnapshot", k, err)
			}
			continue
		}
		accepted++
		start := time.Now()
		got := stepCost(&w, 5)
		took := time.Since(start)
		if took > 2*wantTime { // again, to tell the world's cost from the machine's
			_, took = timed(&w, bad, 2)
		}
		ratio := float64(got) / float64(want)
		if float64(took)/float64(wantTime) > 2 {
			t.Logf("corruption %d (%s): 5 steps in %v (%.2fx the work): %s", k, what, took, ratio, Diff(snap, bad))
		}
		worst, worstTime = max(worst, ratio), max(worstTime, float64(took)/float64(wantTime))
		if ratio > maxCorruptCost {
			t.Errorf("corruption %d (%s): 5 steps cost %d, %.2f times the valid world's %d", k, what, got, ratio, want)
		}
	}
	t.Logf("%d bodies: %d of %d corrupted snapshots accepted; worst 5 steps after one: %.2fx the valid world's work, %.2fx its time (%v)",
		bodies, accepted, count, worst, worstTime, wantTime)
}

// TestStepDerivesInverses: a dynamic body's inverse mass and inertia are
// derived again at each step from its Mass, Inertia, shape and
// FixedRotation, as Add derives them: a game's change takes effect at the
// next step, and a snapshot's stored inverses (checked only for range)
// cannot make a restored world differ from the one that wrote it.
func TestStepDerivesInverses(t *testing.T) {
	src := lively(t, 20)
	run(t, src, 0, 60)
	snap := src.Snapshot(nil)
	dyn := int32(-1)
	for _, i := range src.movers {
		if b := &src.bodies[i]; b.Kind == Dynamic && b.invI != 0 && !b.Disabled && !b.asleep {
			dyn = i
			break
		}
	}
	if dyn < 0 {
		t.Fatal("no awake turning body")
	}
	bad := bytes.Clone(snap)
	putF(bad[bodyAt(dyn)+111:], 1/MinMass)                // a feather's inverse mass
	putF(bad[bodyAt(dyn)+171:], 256*src.bodies[dyn].invI) // spun by a touch
	var want, got World
	for _, c := range []struct {
		w *World
		b []byte
	}{{&want, snap}, {&got, reseal(bad)}} {
		if err := c.w.Restore(c.b); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			c.w.Step(dt)
		}
	}
	if a, b := want.Snapshot(nil), got.Snapshot(nil); !bytes.Equal(a, b) {
		t.Errorf("stored inverses in range changed the restored world: %s", Diff(a, b))
	}

	w := World{Gravity: Vec2{0, -10}}
	id := mustAdd(t, &w, Body{Shape: Box, HalfW: 1, HalfH: 1, Pos: Vec2{0, 5}})
	w.Body(id).Mass, w.Body(id).HalfW = 4, 2
	w.Step(dt)
	if b := w.Body(id); b.invMass != 0.25 || b.invI != 1/(4*(4.0+1)/3) {
		t.Errorf("after Mass 4 and a 4x2 box: inverse mass %v, inertia %v; want 0.25, %v", b.invMass, b.invI, 1/(4*(4.0+1)/3))
	}
}

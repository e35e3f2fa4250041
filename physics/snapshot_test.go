package physics

import (
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// lively builds a world that uses everything a snapshot must carry:
// circles and boxes that fall, bounce, rest and sleep, a sweeping
// kinematic paddle, a disabled body, layers, a removed slot on the free
// list and settings off their defaults.
func lively(tb testing.TB, n int) *World {
	w := &World{Gravity: Vec2{0, -9.8}, Iterations: 10, Substeps: 4, SleepTime: 0.25}
	for _, b := range []Body{
		{Pos: Vec2{0, -1}, HalfW: 22, HalfH: 1}, {Pos: Vec2{-21, 20}, HalfW: 1, HalfH: 21},
		{Pos: Vec2{21, 20}, HalfW: 1, HalfH: 21}, {Pos: Vec2{-5, 6}, HalfW: 4, HalfH: 0.2},
	} {
		b.Kind, b.Shape, b.Friction = Static, Box, 0.5
		mustAdd(tb, w, b)
	}
	mustAdd(tb, w, Body{Kind: Kinematic, Shape: Box, Sweep: true, Pos: Vec2{8, 3}, HalfW: 2, HalfH: 0.3, Vel: Vec2{3, 0}})
	r := rand.New(rand.NewPCG(7, 8))
	for i := range n {
		b := Body{Shape: Shape(i % 2), Pos: Vec2{r.Float64()*38 - 19, 1 + r.Float64()*30},
			Vel: Vec2{r.Float64()*6 - 3, r.Float64() * 4}, Restitution: 0.3 * r.Float64(), Friction: 0.4, AngularDamping: 1,
			Mass: 0.5 + r.Float64(), Tag: int32(i), Layer: 1 + uint32(i%3)}
		size := 0.2 + 0.3*r.Float64()
		b.Radius, b.HalfW, b.HalfH = size, size, size*0.8
		mustAdd(tb, w, b)
	}
	w.Body(w.ID(w.Len() - 1)).Disabled = true
	if err := w.Remove(w.ID(w.Len() - 2)); err != nil {
		tb.Fatal(err)
	}
	return w
}

// churn is what a game does between steps: the paddle turns at the
// walls, every 7th tick a body goes and another comes, every 50th a kick.
func churn(tb testing.TB, w *World, tick int) {
	paddle := w.Body(w.ID(4))
	if paddle.Pos.X > 15 || paddle.Pos.X < -15 {
		paddle.Vel.X = -paddle.Vel.X
	}
	if tick%7 == 0 {
		for i := 5 + tick%31; i < w.Len(); i++ {
			if id := w.ID(i); w.Alive(id) {
				if err := w.Remove(id); err != nil {
					tb.Fatal(err)
				}
				break
			}
		}
		mustAdd(tb, w, Body{Shape: Shape(tick % 2), Radius: 0.3, HalfW: 0.3, HalfH: 0.3,
			Pos: Vec2{float64(tick%30) - 15, 25}, Tag: int32(1000 + tick)})
	}
	if tick%50 == 0 {
		w.ApplyImpulse(w.ID(6), Vec2{0, 8})
	}
}

func run(tb testing.TB, w *World, from, to int) {
	for tick := from; tick < to; tick++ {
		churn(tb, w, tick)
		w.Step(dt)
	}
}

// TestSnapshotGivesTheSameFuture: a world restored from a snapshot, into a
// zero World or back into the world it came from, steps to the same bytes
// as the original, sleepers, warm starts, removals and free slots
// included.
func TestSnapshotGivesTheSameFuture(t *testing.T) {
	w := lively(t, 120)
	run(t, w, 0, 150)
	snap := w.Snapshot(nil)
	if again := w.Snapshot(nil); !bytes.Equal(snap, again) {
		t.Fatal("two snapshots of one world differ")
	}
	run(t, w, 150, 400)
	want := w.Snapshot(nil)
	asleep := 0
	for i := range w.bodies {
		if w.bodies[i].asleep {
			asleep++
		}
	}
	if asleep == 0 || len(w.free) == 0 || len(w.contacts) == 0 {
		t.Fatalf("the scene does not exercise sleep (%d asleep), free slots (%d) and contacts (%d)", asleep, len(w.free), len(w.contacts))
	}

	var z World
	if err := z.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := z.Snapshot(nil); !bytes.Equal(got, snap) {
		t.Fatalf("restore then snapshot changed the bytes: %s", Diff(snap, got))
	}
	run(t, &z, 150, 400)
	if got := z.Snapshot(nil); !bytes.Equal(got, want) {
		t.Errorf("a zero World restored at tick 150 diverged by tick 400: %s", Diff(want, got))
	}

	if err := w.Restore(snap); err != nil { // rewind the original
		t.Fatal(err)
	}
	run(t, w, 150, 400)
	if got := w.Snapshot(nil); !bytes.Equal(got, want) {
		t.Errorf("the world rewound to tick 150 diverged by tick 400: %s", Diff(want, got))
	}
	if z.Hash() != w.Hash() {
		t.Error("equal snapshots, different hashes")
	}
}

// TestSnapshotAndRestoreAllocateNothing with a reused buffer, restored
// unchecked into the world that wrote it and checked into another.
func TestSnapshotAndRestoreAllocateNothing(t *testing.T) {
	w := lively(t, 1000)
	run(t, w, 0, 60)
	buf := w.Snapshot(nil)
	var z World
	if err := z.Restore(buf); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(20, func() {
		buf = w.Snapshot(buf[:0])
		if err := w.Restore(buf); err != nil {
			t.Fatal(err)
		}
		if err := z.Restore(buf); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("snapshot and restore allocate %v times, want 0", n)
	}
	// Both kinds of restore ran: w's own snapshot, unchecked, into w; the
	// same bytes, checked, into z.
	if own, checked := w.Restores(); own != 21 || checked != 0 {
		t.Errorf("w restored %d own, %d checked; want 21, 0", own, checked)
	}
	if own, checked := z.Restores(); own != 0 || checked != 22 {
		t.Errorf("z restored %d own, %d checked; want 0, 22", own, checked)
	}
}

// TestRestoreRejectsBadBytes: every truncation, an extension, another
// version, and indices that name the wrong body are errors that wrap
// ErrBadSnapshot and leave the world as it was.
func TestRestoreRejectsBadBytes(t *testing.T) {
	src := lively(t, 20)
	run(t, src, 0, 120) // landed: it has contacts
	snap := src.Snapshot(nil)
	w := lively(t, 5)
	before := w.Snapshot(nil)
	check := func(name string, b []byte, want string) {
		t.Helper()
		err := w.Restore(reseal(b))
		if !errors.Is(err, ErrBadSnapshot) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Restore = %v, want ErrBadSnapshot saying %q", name, err, want)
		}
		if got := w.Snapshot(nil); !bytes.Equal(got, before) {
			t.Fatalf("%s: a refused Restore changed the world: %s", name, Diff(before, got))
		}
	}
	for n := range len(snap) {
		err := w.Restore(snap[:n])
		if !errors.Is(err, ErrBadSnapshot) {
			t.Fatalf("truncated to %d of %d bytes: Restore = %v, want ErrBadSnapshot", n, len(snap), err)
		}
	}
	check("extended", append(bytes.Clone(snap[:len(snap)-snapTrailer]), 0, 0, 0, 0, 0), "truncated or extended")
	for _, at := range []int{0, 6, snapHeader, len(snap) / 2, len(snap) - 1} {
		bad := bytes.Clone(snap)
		bad[at] ^= 0x10
		if err := w.Restore(bad); !errors.Is(err, ErrBadSnapshot) || !strings.Contains(err.Error(), "checksum") && at > 5 {
			t.Errorf("a bit flipped at byte %d: Restore = %v, want the checksum to refuse it", at, err)
		}
	}
	bad := bytes.Clone(snap)
	bad[4] = 9
	check("version 9", bad, "version 9")
	bad = bytes.Clone(snap)
	le.PutUint32(bad[63:], MaxSnapshotBodies+1)
	check("too many bodies", bad, "over the limit")
	bad = bytes.Clone(snap)
	first := snapHeader + len(src.bodies)*bodyBytes + len(src.free)*slotBytes // the first static's slot
	le.PutUint32(bad[first:], uint32(src.movers[0]))
	check("a moving body listed static", bad, "listed static")
	bad = bytes.Clone(snap)
	le.PutUint32(bad[first:], 1<<30)
	check("a slot out of range", bad, "slot 1073741824")
	if len(src.contacts) == 0 {
		t.Fatal("the world has no contacts to spoil")
	}
	contact := first + (len(src.statics)+len(src.movers))*slotBytes // the first contact
	bad = bytes.Clone(snap)
	putF(bad[contact+contactKept+1:], math.NaN())
	check("a kept manifold of NaN", bad, "kept-manifold number 0 is NaN")
	bad = bytes.Clone(snap)
	putF(bad[contact+contactKept+1+8*6:], 2) // a cosine of 2
	check("a kept rotation beyond 1", bad, "kept-manifold number 6 is 2")
}

// FuzzRestore: no bytes make Restore panic, hang or allocate without
// bound, and a world restored from any accepted bytes steps without
// panicking, at a cost bounded by its size: 3 steps test at most every
// pair (with the continuous collision's sub-steps against every static)
// and solve at most the contact limit in every pass the settings'
// limits allow, and the pair tables probe a few slots a lookup, not a
// slot per earlier contact of the same pair (which a snapshot naming one
// pair over and over once made quadratic). The seeds include that
// snapshot, and one with settings above the limits.
func FuzzRestore(f *testing.F) {
	w := lively(f, 6)
	f.Add(w.Snapshot(nil))
	run(f, w, 0, 40)
	snap := w.Snapshot(nil)
	f.Add(snap)
	f.Add([]byte("FXPW"))
	if len(w.contacts) > 1 { // every contact names the first one's pair
		one := bytes.Clone(snap)
		at := len(one) - snapTrailer - len(w.contacts)*contactBytes
		for k := 1; k < len(w.contacts); k++ {
			copy(one[at+k*contactBytes:at+(k+1)*contactBytes], one[at:at+contactBytes])
		}
		f.Add(reseal(one))
	}
	slow := bytes.Clone(snap)
	le.PutUint32(slow[34:], 512)  // Substeps
	le.PutUint32(slow[26:], 1000) // Iterations
	f.Add(reseal(slow))
	f.Fuzz(func(t *testing.T, b []byte) {
		var w World
		if w.Restore(b) == nil && len(b) >= snapHeader+snapTrailer {
			sum := le.Uint32(b[len(b)-snapTrailer:])
			if sum != crc32.Checksum(b[:len(b)-snapTrailer], castagnoli) {
				t.Fatal("a snapshot with a wrong checksum was restored")
			}
		}
		// The checks behind the checksum, on bytes made to pass it.
		b = reseal(bytes.Clone(b))
		if err := w.Restore(b); err != nil {
			if !errors.Is(err, ErrBadSnapshot) {
				t.Fatalf("error %v does not wrap ErrBadSnapshot", err)
			}
			return
		}
		if len(w.bodies) > len(b)/bodyBytes || cap(w.contacts) > 6*len(w.bodies)+len(b)/contactBytes {
			t.Fatalf("%d bytes made %d bodies and room for %d contacts", len(b), len(w.bodies), cap(w.contacts))
		}
		work, probes := w.work, w.prevTable.probes+w.curTable.probes
		for range 3 {
			w.Step(dt)
		}
		work, probes = w.work-work, w.prevTable.probes+w.curTable.probes-probes
		n := uint64(len(w.bodies)) + 1
		passes := uint64(max(2*MaxSubsteps, MaxIterations+MaxPositionIterations))
		if limit := 3 * (n*n*(MaxMoveSteps+1) + passes*MaxContactsPerBody*n); work > limit {
			t.Fatalf("3 steps of %d bodies did %d work, over the bound of %d", n-1, work, limit)
		}
		if limit := 8 * (work + 3*3*MaxContactsPerBody*n); probes > limit {
			t.Fatalf("3 steps of %d bodies probed the pair tables %d times for %d work, over the bound of %d", n-1, probes, work, limit)
		}
		w.Snapshot(nil)
	})
}

// TestDiffNamesTheBodyAndField that differ.
func TestDiffNamesTheBodyAndField(t *testing.T) {
	w := lively(t, 10)
	run(t, w, 0, 10)
	a := w.Snapshot(nil)
	w.Body(w.ID(7)).Vel.X += 1e-9
	b := w.Snapshot(nil)
	if d := Diff(a, a); d != "" {
		t.Errorf("Diff(a, a) = %q, want \"\"", d)
	}
	if d := Diff(a, b); !strings.HasPrefix(d, "body 7 (tag 2) Vel.X: ") {
		t.Errorf("Diff = %q, want it to name body 7's Vel.X", d)
	}
	if d := Diff(a, b[:10]); !strings.Contains(d, "second snapshot") {
		t.Errorf("Diff with a bad snapshot = %q", d)
	}
}

// BenchmarkSnapshotRestore saves an awake pile and restores it, with a
// reused buffer: the cost a rollback pays per saved tick, to compare with
// BenchmarkStep/awake.
func BenchmarkSnapshotRestore(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("awake/%d", n), func(b *testing.B) {
			w := awakePile(b, n, false)
			buf := w.Snapshot(nil)
			b.ReportAllocs()
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				buf = w.Snapshot(buf[:0])
				if err := w.Restore(buf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package physics

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"testing"
	"time"
	"unsafe"
)

// ownScene is lively's world with a few turning polygons, whose hulls a
// restore must keep.
func ownScene(t *testing.T) *World {
	t.Helper()
	w := lively(t, 150)
	hull, err := NewHull(Vec2{-0.5, -0.3}, Vec2{0.6, -0.3}, Vec2{0.4, 0.4}, Vec2{-0.3, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		mustAdd(t, w, Body{Shape: Polygon, Hull: hull, Pos: Vec2{float64(2*i) - 8, 18}, Angle: 0.4 * float64(i), Tag: int32(500 + i)})
	}
	return w
}

// TestRestoreOwnIsTheCheckedWorld: three copies of one world run 600
// ticks of churn; every 5 ticks two of them roll back 1 to 11 ticks and
// run them again, fast from a snapshot of its own, checked from a copy
// of its own (as bytes from a file are), while the third never rolls
// back. At every tick all three have the same snapshot and hash: the
// unchecked restore puts back the world the checked one does, and both
// the world that was. Each restore took the path it should.
func TestRestoreOwnIsTheCheckedWorld(t *testing.T) {
	fast, checked, never := ownScene(t), ownScene(t), ownScene(t)
	const keep = 12
	var ringFast, ringChecked [keep][]byte
	save := func(f int) {
		ringFast[f%keep] = fast.Snapshot(ringFast[f%keep][:0])
		ringChecked[f%keep] = checked.Snapshot(ringChecked[f%keep][:0])
	}
	tick := func(f int) {
		churn(t, fast, f)
		fast.Step(dt)
		churn(t, checked, f)
		checked.Step(dt)
	}
	var want, got, other []byte
	rollbacks := uint64(0)
	for f := range 600 {
		save(f)
		tick(f)
		churn(t, never, f)
		never.Step(dt)
		if f%5 == 4 && f >= keep {
			from := f + 1 - (1 + f/5%(keep-1))
			if err := fast.Restore(ringFast[from%keep]); err != nil {
				t.Fatal(err)
			}
			if err := checked.Restore(bytes.Clone(ringChecked[from%keep])); err != nil {
				t.Fatal(err)
			}
			rollbacks++
			for g := from; g <= f; g++ {
				if g > from {
					save(g)
				}
				tick(g)
			}
		}
		want = never.Snapshot(want[:0])
		got = fast.Snapshot(got[:0])
		other = checked.Snapshot(other[:0])
		if !bytes.Equal(got, want) {
			t.Fatalf("tick %d: the world restored unchecked differs from the one never rolled back: %s", f, Diff(want, got))
		}
		if !bytes.Equal(other, want) {
			t.Fatalf("tick %d: the world restored checked differs from the one never rolled back: %s", f, Diff(want, other))
		}
		if h := never.Hash(); fast.Hash() != h || checked.Hash() != h {
			t.Fatalf("tick %d: hashes %016x (unchecked), %016x (checked), %016x (never rolled back)", f, fast.Hash(), checked.Hash(), h)
		}
	}
	if own, chk := fast.Restores(); own != rollbacks || chk != 0 {
		t.Errorf("the fast world's Restores = %d own, %d checked; want %d, 0", own, chk, rollbacks)
	}
	if own, chk := checked.Restores(); own != 0 || chk != rollbacks {
		t.Errorf("the checked world's Restores = %d own, %d checked; want 0, %d", own, chk, rollbacks)
	}
	reused := 0
	for i := range fast.bodies {
		if fast.bodies[i].gen > 1 {
			reused++
		}
	}
	if reused == 0 || len(fast.turn) == 0 {
		t.Fatalf("the scene exercises no reused slots (%d) or turning contacts (%d)", reused, len(fast.turn))
	}
}

// restored restores src into w and returns which kind of restore it
// was, "own" or "checked", with its error.
func restored(w *World, src []byte) (string, error) {
	own, _ := w.Restores()
	err := w.Restore(src)
	if now, _ := w.Restores(); now > own {
		return "own", err
	}
	return "checked", err
}

// TestRestoreChecksWhatItDidNotWrite: only the bytes a world's Snapshot
// wrote last where they begin, unchanged, in one of the last 64 buffers
// it wrote in, are taken unchecked, however many snapshots it wrote
// since in those buffers; a copy, another world's snapshot, one changed
// in place (its checksum fixed up or left as it was), one in a buffer
// written in long ago, or the same bytes in a new buffer at a freed
// snapshot's address are checked, and refused if bad.
func TestRestoreChecksWhatItDidNotWrite(t *testing.T) {
	w := lively(t, 20)
	run(t, w, 0, 60)
	snap := w.Snapshot(nil)
	if kind, err := restored(w, snap); kind != "own" || err != nil {
		t.Fatalf("its own snapshot: restored %s, %v; want own", kind, err)
	}
	if kind, err := restored(w, bytes.Clone(snap)); kind != "checked" || err != nil {
		t.Errorf("a copy of its own snapshot: restored %s, %v; want checked", kind, err)
	}
	if kind, err := restored(w, lively(t, 20).Snapshot(nil)); kind != "checked" || err != nil {
		t.Errorf("another world's snapshot: restored %s, %v; want checked", kind, err)
	}
	// A new buffer the caller appends its own fields to after the
	// snapshot (as package save does) stays where the world wrote it.
	for _, extra := range []int{1, 60, 250} {
		b := w.Snapshot([]byte("header"))
		n := len(b)
		b = append(b, make([]byte, extra)...)
		if kind, err := restored(w, b[6:n]); kind != "own" || err != nil {
			t.Errorf("its own snapshot, %d bytes appended after it: restored %s, %v; want own", extra, kind, err)
		}
	}
	var z World
	if kind, err := restored(&z, snap); kind != "checked" || err != nil {
		t.Errorf("its snapshot in another world: restored %s, %v; want checked", kind, err)
	}

	// Changed in place: a NaN inverse mass, the checksum fixed up as a
	// hostile peer would, is checked and refused; without the fix-up the
	// checksum refuses it.
	dyn := w.movers[len(w.movers)-1]
	spoil := func(b []byte) []byte {
		b = w.Snapshot(b[:0])
		putF(b[bodyAt(dyn)+111:], math.NaN())
		return b
	}
	before := w.Snapshot(nil)
	buf := spoil(nil)
	if kind, err := restored(w, reseal(buf)); kind != "checked" || !errors.Is(err, ErrBadSnapshot) {
		t.Errorf("its own snapshot changed in place, checksum fixed: restored %s, %v; want checked, refused", kind, err)
	}
	buf = spoil(buf)
	if kind, err := restored(w, buf); kind != "checked" || !errors.Is(err, ErrBadSnapshot) {
		t.Errorf("its own snapshot changed in place: restored %s, %v; want checked, refused", kind, err)
	}
	if got := w.Snapshot(nil); !bytes.Equal(got, before) {
		t.Fatalf("a refused Restore changed the world: %s", Diff(before, got))
	}

	// Cut short, in place: another length.
	buf = w.Snapshot(buf[:0])
	if kind, err := restored(w, buf[:len(buf)-1]); kind != "checked" || !errors.Is(err, ErrBadSnapshot) {
		t.Errorf("its own snapshot cut short: restored %s, %v; want checked, refused", kind, err)
	}

	// A ring of 12 buffers written over 1,000 times, the first of them
	// less often (as a sync test's state of 8 ticks ago, written once
	// while the ticks after it write many): each one's last snapshot is
	// known. Then 65 buffers written once each: the first is forgotten,
	// the 64 after it are known.
	var ring [12][]byte
	for i := range 1000 {
		k := 1 + i%(len(ring)-1)
		if i%200 == 0 {
			k = 0
		}
		ring[k] = w.Snapshot(ring[k][:0])
	}
	for i := range ring {
		if kind, err := restored(w, ring[i]); kind != "own" || err != nil {
			t.Fatalf("the last snapshot in buffer %d of a ring written over: restored %s, %v; want own", i, kind, err)
		}
	}
	many := make([][]byte, ownBuffers+1)
	for i := range many {
		many[i] = w.Snapshot(nil)
	}
	if kind, err := restored(w, many[0]); kind != "checked" || err != nil {
		t.Errorf("its snapshot in the first of %d buffers: restored %s, %v; want checked", len(many), kind, err)
	}
	for i := 1; i < len(many); i++ {
		if kind, err := restored(w, many[i]); kind != "own" || err != nil {
			t.Fatalf("its snapshot in buffer %d of %d: restored %s, %v; want own", i, len(many), kind, err)
		}
	}
}

// freshHeapEnv marks the child process in which
// TestRestoreChecksBytesAtAFreedSnapshotsAddress runs.
const freshHeapEnv = "FIXSTEP_PHYSICS_FRESH_HEAP"

// TestRestoreChecksBytesAtAFreedSnapshotsAddress: a snapshot's buffer,
// once freed, is forgotten: a new buffer that the runtime puts at the
// same address, holding the same bytes (as a file read there could), is
// checked. A world that remembered the address alone would trust it.
//
// It runs in a process of its own, on a fresh heap: after the package's
// other tests the runtime had many freed places to put a new buffer in,
// and reused none of the snapshot's in ten tries of 200.
func TestRestoreChecksBytesAtAFreedSnapshotsAddress(t *testing.T) {
	if os.Getenv(freshHeapEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRestoreChecksBytesAtAFreedSnapshotsAddress$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), freshHeapEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestRestoreChecksBytesAtAFreedSnapshotsAddress")) {
			t.Fatalf("in a process of its own: %v\n%s", err, out)
		}
		return
	}
	w := lively(t, 20)
	run(t, w, 0, 60)
	for try := range 10 {
		buf := w.Snapshot(nil)
		n, c, at, same := len(buf), cap(buf), uintptr(unsafe.Pointer(&buf[0])), bytes.Clone(buf)
		buf = nil
		runtime.GC()
		runtime.GC()
		var held [][]byte // keep each try alive, so the next lands elsewhere
		for range 200 {
			b := make([]byte, n, c) // of the freed one's size class
			held = append(held, b)
			if uintptr(unsafe.Pointer(&b[0])) != at {
				continue
			}
			copy(b, same)
			if kind, err := restored(w, b); kind != "checked" || err != nil {
				t.Fatalf("the same bytes in a new buffer at a freed snapshot's address: restored %s, %v; want checked", kind, err)
			}
			return
		}
		t.Logf("try %d: the runtime put no new buffer at the freed one's address", try)
		runtime.KeepAlive(held)
	}
	t.Fatal("the runtime reused no freed snapshot's address in 10 tries: nothing was checked")
}

// TestRestoreOwnSpoiltWorld: a world with a body the game spoilt between
// steps (a NaN velocity) restores its own snapshot as it was, and the
// next Step takes the body out as it would have without the rollback; a
// copy of those bytes is refused, as any the checks refuse.
func TestRestoreOwnSpoiltWorld(t *testing.T) {
	w := lively(t, 20)
	run(t, w, 0, 30)
	id := w.ID(int(w.movers[len(w.movers)-1]))
	w.Body(id).Vel.X = math.NaN()
	snap := w.Snapshot(nil)
	if err := new(World).Restore(snap); !errors.Is(err, ErrBadSnapshot) {
		t.Errorf("the spoilt world's snapshot in another world: Restore = %v, want ErrBadSnapshot", err)
	}
	faults := w.Faults()
	w.Step(dt)
	want := w.Snapshot(nil)
	if w.Faults() != faults+1 || w.Alive(id) {
		t.Fatalf("the spoilt body: Faults %d → %d, alive %v; want it taken out", faults, w.Faults(), w.Alive(id))
	}
	if kind, err := restored(w, snap); kind != "own" || err != nil {
		t.Fatalf("its own spoilt snapshot: restored %s, %v; want own", kind, err)
	}
	w.Step(dt)
	if got := w.Snapshot(nil); !bytes.Equal(got, want) {
		t.Errorf("the step after restoring the spoilt world: %s", Diff(want, got))
	}
	if w.Faults() != faults+2 {
		t.Errorf("Faults = %d, want %d: the body taken out again", w.Faults(), faults+2)
	}
}

// TestRestorePutsBackHulls: a restore gives each polygon the hull its
// snapshot holds, bit for bit, whatever hull the slot had: the one it
// had (kept, not rebuilt: nothing allocated, own or checked) or another
// one the game gave it since.
func TestRestorePutsBackHulls(t *testing.T) {
	w := ownScene(t)
	run(t, w, 0, 30)
	snap := w.Snapshot(nil)
	var z World
	if err := z.Restore(snap); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(10, func() {
		snap = w.Snapshot(snap[:0])
		if err := w.Restore(snap); err != nil {
			t.Fatal(err)
		}
		if err := z.Restore(snap); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("restoring polygons into their own slots allocates %v times, want 0", n)
	}
	if own, _ := w.Restores(); own != 11 {
		t.Errorf("w restored %d of its own, want 11", own)
	}
	other, err := NewHull(Vec2{-0.4, -0.4}, Vec2{0.4, -0.4}, Vec2{0, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for i := range w.bodies {
		if b := &w.bodies[i]; b.Shape == Polygon && !b.removed {
			b.Hull = other
			z.bodies[i].Hull = other
		}
	}
	if kind, err := restored(w, snap); kind != "own" || err != nil {
		t.Fatalf("restored %s, %v; want own", kind, err)
	}
	if err := z.Restore(bytes.Clone(snap)); err != nil {
		t.Fatal(err)
	}
	for name, x := range map[string]*World{"own": w, "checked": &z} {
		if got := x.Snapshot(nil); !bytes.Equal(got, snap) {
			t.Errorf("%s: polygons given another hull, then restored: %s", name, Diff(snap, got))
		}
	}
}

// settled caches awakePile's snapshots by size: settling 10,000 bodies
// takes 600 steps, once per benchmark process rather than per count.
var settled = map[int][]byte{}

// BenchmarkRestoreOwn weighs a rollback's restore against a step on an
// awake pile (the turning one of BenchmarkSnapshotRestore): each
// iteration restores the pile's snapshot of its own (unchecked), the
// same bytes copied (checked, as every rollback's were before a world
// knew its own), in alternating order, then steps twice. It reports the
// medians over the iterations of each restore's time over the second
// step's, timed in the same iteration, so that a machine's load moves
// them alike and a preempted iteration moves no median: own/step (the
// target: at most 0.25), checked/step; and the medians of the times.
func BenchmarkRestoreOwn(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("awake/%d", n), func(b *testing.B) {
			if settled[n] == nil {
				settled[n] = awakePile(b, n, false).Snapshot(nil)
			}
			w := new(World)
			if err := w.Restore(settled[n]); err != nil {
				b.Fatal(err)
			}
			own := w.Snapshot(nil)
			copied := bytes.Clone(own)
			for range 2 { // grow what the steps after a restore use
				w.Step(dt)
				if err := w.Restore(own); err != nil {
					b.Fatal(err)
				}
			}
			var tOwn, tChecked, tStep, rOwn, rChecked []float64
			for _, v := range []*[]float64{&tOwn, &tChecked, &tStep, &rOwn, &rChecked} {
				*v = make([]float64, 0, 1024) // no allocation timed
			}
			b.ReportAllocs()
			for b.Loop() {
				ownFirst := len(tStep)%2 == 0
				first, second := own, copied
				if !ownFirst {
					first, second = copied, own
				}
				t0 := time.Now()
				err1 := w.Restore(first)
				t1 := time.Now()
				err2 := w.Restore(second)
				t2 := time.Now()
				w.Step(dt)
				t3 := time.Now()
				w.Step(dt)
				t4 := time.Now()
				if err1 != nil || err2 != nil {
					b.Fatal(err1, err2)
				}
				o, c := t1.Sub(t0), t2.Sub(t1)
				if !ownFirst {
					o, c = c, o
				}
				s := float64(t4.Sub(t3))
				tOwn, tChecked, tStep = append(tOwn, float64(o)), append(tChecked, float64(c)), append(tStep, s)
				rOwn, rChecked = append(rOwn, float64(o)/s), append(rChecked, float64(c)/s)
			}
			if own, checked := w.Restores(); own != uint64(len(tStep))+2 || checked != uint64(len(tStep))+1 {
				b.Fatalf("restored %d own, %d checked; want %d, %d", own, checked, len(tStep)+2, len(tStep)+1)
			}
			b.ReportMetric(median(rOwn), "own/step")
			b.ReportMetric(median(rChecked), "checked/step")
			b.ReportMetric(median(tOwn)/1e3, "own-µs")
			b.ReportMetric(median(tChecked)/1e3, "checked-µs")
			b.ReportMetric(median(tStep)/1e3, "step-µs")
		})
	}
}

// median returns the median of v, which it sorts.
func median(v []float64) float64 {
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

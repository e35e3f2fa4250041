package physics

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestStepRefusesBadDtAndSettings: a dt that is not finite and positive,
// or a setting out of range, is a caller bug: Step panics naming it and
// changes nothing.
func TestStepRefusesBadDtAndSettings(t *testing.T) {
	for _, c := range []struct {
		name string
		dt   float64
		set  func(*World)
		want string
	}{
		{"NaN", math.NaN(), nil, "Step(NaN)"},
		{"zero", 0, nil, "Step(0)"},
		{"negative", -dt, nil, "Step(-0.01666"},
		{"+Inf", math.Inf(1), nil, "Step(+Inf)"},
		{"too long", 2, nil, "Step(2)"},
		{"gravity NaN", dt, func(w *World) { w.Gravity.Y = math.NaN() }, "World.Gravity"},
		{"iterations", dt, func(w *World) { w.Iterations = 1 << 30 }, "World.Iterations"},
		{"substeps", dt, func(w *World) { w.MoveSteps = 1 << 30 }, "World.MoveSteps"},
	} {
		w := lively(t, 30)
		run(t, w, 0, 10)
		if c.set != nil {
			c.set(w)
		}
		before := w.Snapshot(nil)
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("%s: Step panicked with %v, want %q", c.name, r, c.want)
				}
			}()
			w.Step(c.dt)
		}()
		if !bytes.Equal(w.Snapshot(nil), before) {
			t.Errorf("%s: a refused Step changed the world", c.name)
		}
	}
}

// faults records what a FaultListener hears.
type faults struct {
	bodies    []BodyID
	why       []string
	overloads int
}

func (f *faults) BeginContact(*Contact)  {}
func (f *faults) EndContact(a, b BodyID) {}
func (f *faults) BodyFault(id BodyID, b *Body, why string) {
	f.bodies = append(f.bodies, id)
	f.why = append(f.why, why)
}
func (f *faults) ContactOverload(int) { f.overloads++ }

// TestBadBodyNeverChangesAnother: a body the game made non-finite (or
// sent beyond MaxCoordinate) between steps is taken out before the step,
// and every other body ends the step exactly as in a world where the game
// had removed it instead.
func TestBadBodyNeverChangesAnother(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(w *World, id BodyID)
		want  string
	}{
		{"NaN position", func(w *World, id BodyID) { w.Body(id).Pos.X = math.NaN() }, "position"},
		{"+Inf velocity", func(w *World, id BodyID) { w.Body(id).Vel.Y = math.Inf(1) }, "velocity"},
		{"NaN impulse", func(w *World, id BodyID) { w.ApplyImpulse(id, Vec2{math.NaN(), 0}) }, "velocity"},
		{"NaN radius", func(w *World, id BodyID) { w.Body(id).Radius, w.Body(id).HalfW = math.NaN(), math.NaN() }, "NaN"},
		{"teleported far", func(w *World, id BodyID) { w.Teleport(id, Vec2{0, 1e12}) }, "position"},
	} {
		w := lively(t, 200)
		run(t, w, 0, 100)
		ref := &World{}
		if err := ref.Restore(w.Snapshot(nil)); err != nil {
			t.Fatal(err)
		}
		var heard faults
		w.Listener = &heard
		id := w.ID(60) // in the thick of the pile
		for !w.Alive(id) {
			id = w.ID(id.Index() + 1)
		}
		c.spoil(w, id)
		if err := ref.Remove(id); err != nil {
			t.Fatal(err)
		}
		for range 60 {
			w.Step(dt)
			ref.Step(dt)
		}
		if w.Alive(id) || w.Faults() != 1 || len(heard.bodies) != 1 || heard.bodies[0] != id || !strings.Contains(heard.why[0], c.want) {
			t.Errorf("%s: alive %v, %d faults, heard %v %q", c.name, w.Alive(id), w.Faults(), heard.bodies, heard.why)
		}
		w.Listener = nil
		if a, b := w.Snapshot(nil), ref.Snapshot(nil); !bytes.Equal(a, b) {
			t.Errorf("%s: the other bodies differ from a world without it: %s", c.name, Diff(b, a))
		}
		for i := range w.bodies {
			if b := &w.bodies[i]; !b.removed && b.check() != nil {
				t.Fatalf("%s: body %d spoiled: %v", c.name, i, b.check())
			}
		}
	}
}

// TestQueriesIgnoreNonFiniteInput: a NaN or infinite ray, box or sweep
// finds nothing.
func TestQueriesIgnoreNonFiniteInput(t *testing.T) {
	w := lively(t, 50)
	run(t, w, 0, 20)
	nan, inf := math.NaN(), math.Inf(1)
	for _, r := range [][2]Vec2{{{nan, 0}, {1, 1}}, {{0, 0}, {inf, 5}}, {{-inf, 0}, {inf, 0}}} {
		if h, ok := w.RayCast(r[0], r[1], 0); ok {
			t.Errorf("RayCast(%v, %v) hit %v", r[0], r[1], h)
		}
	}
	if got := w.QueryAABB(Vec2{nan, -100}, Vec2{100, 100}, 0, nil); len(got) != 0 {
		t.Errorf("QueryAABB with NaN found %d bodies", len(got))
	}
	if got := w.QueryAABB(Vec2{-inf, -inf}, Vec2{inf, inf}, 0, nil); len(got) != 0 {
		t.Errorf("QueryAABB with infinities found %d bodies", len(got))
	}
	if h, ok := w.Cast(w.ID(4), Vec2{nan, 1}); ok {
		t.Errorf("Cast along NaN hit %v", h)
	}
}

// TestContactLimit: 2,000 bodies on one point make every pair a contact;
// each step solves up to the limit, reports the overload and goes on, and
// the pile spreads.
func TestContactLimit(t *testing.T) {
	w := &World{}
	var heard faults
	w.Listener = &heard
	for i := range 2000 {
		// Upright: turning, the pile spreads more slowly (12 units in 100
		// steps), its corrections shared between points and angles.
		mustAdd(t, w, Body{Shape: Shape(i % 2), Radius: 0.5, HalfW: 0.5, HalfH: 0.5, FixedRotation: true})
	}
	limit := MaxContactsPerBody * 2000
	w.Step(dt)
	if n := len(w.Contacts()); n != limit || w.Overloads() != 1 || heard.overloads != 1 {
		t.Fatalf("%d contacts (limit %d), %d overloads, heard %d", n, limit, w.Overloads(), heard.overloads)
	}
	lo, hi := 0.0, 0.0
	for range 100 {
		w.Step(dt)
		if n := len(w.Contacts()); n > limit {
			t.Fatalf("%d contacts, over the limit of %d", n, limit)
		}
	}
	for i := range w.bodies {
		if err := w.bodies[i].check(); err != nil {
			t.Fatal(err)
		}
		lo, hi = min(lo, w.bodies[i].Pos.Y), max(hi, w.bodies[i].Pos.Y)
	}
	if hi-lo < 20 {
		t.Errorf("the pile spans %v..%v after 100 steps: it did not spread", lo, hi)
	}
}

// TestIDsNeverWrap: a slot whose generation has run out is retired, so no
// ID ever comes back, the zero ID least of all.
func TestIDsNeverWrap(t *testing.T) {
	var w World
	id := mustAdd(t, &w, Body{Radius: 1})
	w.bodies[id.index].gen = math.MaxUint32 - 1
	id = BodyID{id.index, math.MaxUint32 - 1}
	for k := range 3 {
		if err := w.Remove(id); err != nil {
			t.Fatal(err)
		}
		next := mustAdd(t, &w, Body{Radius: 1})
		if next == (BodyID{}) || next == id || w.Alive(id) {
			t.Fatalf("round %d: Add after Remove(%v) gave %v", k, id, next)
		}
		id = next
	}
	// Slot 0 took generation 2^32-1 in round 0 and retired in round 1;
	// slot 1 came then, and was reused in round 2.
	if w.Len() != 2 || id != (BodyID{1, 2}) {
		t.Errorf("%d slots, last ID %v; want 2 slots and slot 1 at generation 2", w.Len(), id)
	}
}

// TestBroadPhaseMatchesBruteForce: over random worlds of mixed sizes (a
// few giants among small bodies), statics, far-apart clusters and
// layers, the contacts a step finds are exactly the pairs a test of every
// pair finds.
func TestBroadPhaseMatchesBruteForce(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 99))
		var w World
		for i := range 300 {
			b := Body{Kind: Kind(r.IntN(3)), Shape: Shape(r.IntN(2)), Layer: 1 << r.IntN(2), Mask: 1 | uint32(r.IntN(2))<<1}
			size := 0.05 + r.Float64()*r.Float64()*2
			if i%97 == 0 {
				size = 20 + r.Float64()*100 // a giant
			}
			b.Radius, b.HalfW, b.HalfH = size, size, size*(0.3+r.Float64())
			cluster := float64(r.IntN(3)) * 4e8 // far apart
			b.Pos = Vec2{cluster + r.Float64()*30, r.Float64()*30 - cluster}
			mustAdd(t, &w, b)
		}
		var want []uint64
		w.turning, w.dt = true, dt // its bodies turn: the step's own reach (speculative)
		for i := range w.bodies {
			for j := i + 1; j < len(w.bodies); j++ {
				a, b := &w.bodies[i], &w.bodies[j]
				if a.Kind != Dynamic && b.Kind != Dynamic || !collides(a, b) {
					continue
				}
				var p points
				if _, ok := collidePoints(a, b, &p, w.speculative(a, b)); ok {
					want = append(want, uint64(i)<<32|uint64(j))
				}
			}
		}
		w.Step(dt)
		var got []uint64
		for _, c := range w.Contacts() {
			got = append(got, c.key)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d: the step found %d pairs, testing every pair finds %d", seed, len(got), len(want))
		}
	}
}

// layout builds one of the layouts that used to make the broad phase
// quadratic, at n bodies.
func layout(tb testing.TB, name string, n int) *World {
	w := &World{Gravity: Vec2{0, -9.8}, SleepTime: -1}
	r := rand.New(rand.NewPCG(1, 2))
	side := math.Sqrt(float64(n)) * 2
	spaced := func(i int) Vec2 { return Vec2{float64(i%int(side/2)) * 2, float64(i/int(side/2)) * 2} }
	switch name {
	case "spaced": // the baseline: n bodies 2 units apart
		w.Gravity = Vec2{}
		for i := range n {
			mustAdd(tb, w, Body{Shape: Shape(i % 2), Radius: 0.4, HalfW: 0.4, HalfH: 0.4, Pos: spaced(i)})
		}
	case "giant": // and one kinematic box of half-width 100
		w.Gravity = Vec2{}
		for i := range n - 1 {
			mustAdd(tb, w, Body{Shape: Shape(i % 2), Radius: 0.4, HalfW: 0.4, HalfH: 0.4, Pos: spaced(i)})
		}
		mustAdd(tb, w, Body{Kind: Kinematic, Shape: Box, HalfW: 100, HalfH: 1, Pos: Vec2{side / 2, side / 2}})
	case "far": // bodies 7e5 apart, between 9e8 and 1e9 from the origin
		w.Gravity = Vec2{}
		for i := range n {
			p := Vec2{9e8 + float64(i%141)*7e5, -9e8 - float64(i/141)*7e5}
			mustAdd(tb, w, Body{Shape: Shape(i % 2), Radius: 0.4, HalfW: 0.4, HalfH: 0.4, Pos: p})
		}
	case "statics": // n/2 statics under n/2 falling bodies
		for i := range n / 2 {
			mustAdd(tb, w, Body{Kind: Static, Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{float64(i%100) * 1.5, -float64(i / 100)}})
			mustAdd(tb, w, Body{Shape: Circle, Radius: 0.3, Pos: Vec2{float64(i%100) * 1.5, 2 + float64(i/100)}})
		}
	case "fast": // n/10 fast tiny bodies over n/2 statics
		for i := range n / 2 {
			mustAdd(tb, w, Body{Kind: Static, Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{float64(i%100) * 1.5, -float64(i / 100)}})
		}
		for range n / 10 {
			mustAdd(tb, w, Body{Shape: Circle, Radius: 0.02, Restitution: 1, Pos: Vec2{r.Float64() * 150, 5},
				Vel: Vec2{r.Float64()*600 - 300, -r.Float64() * 600}})
		}
	}
	return w
}

// BenchmarkLayouts steps each layout at 20,000 bodies: none may cost much
// more than the spaced baseline (BENCHMARKS.md has the ratios).
func BenchmarkLayouts(b *testing.B) {
	for _, name := range []string{"spaced", "giant", "far", "statics", "fast"} {
		b.Run(name, func(b *testing.B) {
			w := layout(b, name, 20000)
			w.Step(dt)
			b.ReportAllocs()
			for b.Loop() {
				w.Step(dt)
			}
		})
	}
}

// churner removes both bodies of every pair that begins touching and adds
// two new ones, from inside the callback.
type churner struct {
	w     *World
	r     *rand.Rand
	churn int
}

func (c *churner) BeginContact(ct *Contact) {
	for _, id := range [2]BodyID{ct.A, ct.B} {
		if c.w.Alive(id) && c.w.Body(id).Kind == Dynamic {
			c.w.Remove(id)
			c.churn++
			c.w.Add(Body{Shape: Circle, Radius: 0.4, Pos: Vec2{c.r.Float64() * 280, c.r.Float64() * 280},
				Vel: Vec2{c.r.Float64()*10 - 5, c.r.Float64()*10 - 5}})
		}
	}
}
func (c *churner) EndContact(a, b BodyID) {}

// BenchmarkRemoveInCallbacks: bodies removed and added inside contact
// callbacks cost the same whatever the world's size.
func BenchmarkRemoveInCallbacks(b *testing.B) {
	for _, n := range []int{1000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			w := layout(b, "spaced", n)
			c := &churner{w: w, r: rand.New(rand.NewPCG(3, 3))}
			for i := range w.bodies {
				w.bodies[i].Vel = Vec2{c.r.Float64()*10 - 5, c.r.Float64()*10 - 5}
			}
			w.Listener = c
			for b.Loop() {
				w.Step(dt)
			}
			b.ReportMetric(float64(c.churn)/float64(b.N), "removals/op")
		})
	}
}

// TestReserveAllocatesNothingAfter: after Reserve, a world that piles its
// bodies on one point (the most contacts a step may hold), and removes and
// adds bodies every step within the reserved slots, allocates nothing in
// 400 steps; without Reserve the first pile-up grows the contacts and
// their tables (20 allocations).
func TestReserveAllocatesNothingAfter(t *testing.T) {
	// The count is process-wide, and about one run in fifty it shows a
	// lone malloc at a different tick each time, though the world does
	// the same thing every time: not the world's. Its own allocations
	// would come in every run, so the world passes if one of three
	// identical runs allocates nothing.
	var counts []uint64
	for range 3 {
		n, w := reserveRun(t, true)
		if w.Overloads() == 0 {
			t.Fatal("the pile-ups never reached the contact limit: the test did not test it")
		}
		w.Reserve(10) // less than it holds: nothing shrinks, nothing panics
		if w.Len() != 301 {
			t.Fatalf("Reserve(10) changed the world: %d slots", w.Len())
		}
		if n == 0 {
			return
		}
		counts = append(counts, n)
	}
	t.Errorf("400 steps after Reserve allocated %v times in three identical runs, want 0", counts)
}

// TestWithoutReserveThePileUpAllocates: the same world without Reserve
// grows at its first pile-up, so the test above can fail.
func TestWithoutReserveThePileUpAllocates(t *testing.T) {
	if n, _ := reserveRun(t, false); n == 0 {
		t.Error("without Reserve the pile-up allocated nothing: the Reserve test measures nothing")
	}
}

// reserveRun builds the pile-up world, with or without Reserve, and
// returns how many mallocs 400 steps of it made.
func reserveRun(t *testing.T, reserve bool) (uint64, *World) {
	w := &World{Gravity: Vec2{0, -10}}
	if reserve {
		w.Reserve(400)
	}
	mustAdd(t, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 50, HalfH: 1})
	r := rand.New(rand.NewPCG(8, 9))
	var ids []BodyID
	for i := range 300 {
		ids = append(ids, mustAdd(t, w, Body{Shape: Shape(i % 2), Radius: 0.3, HalfW: 0.3, HalfH: 0.3,
			Pos: Vec2{r.Float64()*40 - 20, r.Float64() * 20}}))
	}
	w.Step(dt) // the first Step builds the statics' grid
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for tick := range 400 {
		k := tick % len(ids)
		w.Remove(ids[k])
		ids[k], _ = w.Add(Body{Shape: Circle, Radius: 0.3, Pos: Vec2{float64(tick%40) - 20, 25}})
		if tick%100 == 50 { // a pile-up: everything on one point
			for _, id := range ids {
				w.Teleport(id, Vec2{0, 5})
			}
		}
		w.Step(dt)
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, w
}

// TestChurnAfterReserve is the shooter of issue 21: 300 enemies in a walled
// arena and 300 bullets fired every tick, each bullet removed after 4 ticks
// or when it hits something, so 300 bodies are added and 300 removed every
// tick, at a bounded count. After one Reserve, no tick allocates and no GC
// runs. It plays 20 s of game time (1,200 ticks: 360,000 bodies added and
// removed, each bullet slot reused 300 times; about 7 s of CPU, so it fits
// make test on a shared 2-core machine). FIXSTEP_CHURN_SECONDS=N plays N
// seconds instead: make cross-more plays 180, the three minutes make test
// used to (a minute of CPU), and 600 is the ten-minute run.
func TestChurnAfterReserve(t *testing.T) {
	seconds := 20
	if s, err := strconv.Atoi(os.Getenv("FIXSTEP_CHURN_SECONDS")); err == nil && s > 0 {
		seconds = s
	}
	if testing.Short() {
		seconds = 5
	}
	var runs []string
	for range 3 { // see TestReserveAllocatesNothingAfter: one clean run of three
		mallocs, gcs, adds := churnRun(t, seconds*60)
		if adds < uint64(seconds*60*300) {
			t.Fatalf("%d bodies added in %d s, want 300 a tick", adds, seconds)
		}
		if mallocs == 0 && gcs == 0 {
			t.Logf("%d s of game time, %d bodies added and removed: 0 allocations, 0 GC cycles", seconds, adds)
			return
		}
		runs = append(runs, fmt.Sprintf("%d allocations and %d GC cycles", mallocs, gcs))
	}
	t.Errorf("after Reserve, three identical runs allocated: %v; want none", runs)
}

// churnHits removes every bullet that begins touching something, from
// inside the callback, as a game does.
type churnHits struct {
	w       *World
	bullets []BodyID
}

func (c *churnHits) BeginContact(ct *Contact) {
	for _, id := range [2]BodyID{ct.A, ct.B} {
		if c.w.Alive(id) && c.w.Body(id).Tag == 1 {
			c.w.Remove(id)
		}
	}
}
func (c *churnHits) EndContact(a, b BodyID) {}

// churnRun runs the arena for ticks ticks after its Reserve and returns
// the mallocs and GC cycles of all of them, and the bullets fired.
func churnRun(t *testing.T, ticks int) (mallocs, gcs, adds uint64) {
	const enemies, perTick, life = 300, 300, 4
	w := &World{}
	w.Reserve(1 + 4 + enemies + perTick*life)
	hits := &churnHits{w: w, bullets: make([]BodyID, perTick*life)}
	w.Listener = hits
	for _, wall := range [4]Body{
		{Pos: Vec2{0, -51}, HalfW: 52, HalfH: 1}, {Pos: Vec2{0, 51}, HalfW: 52, HalfH: 1},
		{Pos: Vec2{-51, 0}, HalfW: 1, HalfH: 52}, {Pos: Vec2{51, 0}, HalfW: 1, HalfH: 52},
	} {
		wall.Kind, wall.Shape = Static, Box
		mustAdd(t, w, wall)
	}
	r := rand.New(rand.NewPCG(21, 2))
	for range enemies {
		mustAdd(t, w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Restitution: 0.5,
			Pos: Vec2{r.Float64()*90 - 45, r.Float64()*90 - 45}, Vel: Vec2{r.Float64()*6 - 3, r.Float64()*6 - 3}})
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for tick := range ticks {
		for k := range perTick {
			slot := &hits.bullets[tick%life*perTick+k]
			if w.Alive(*slot) {
				w.Remove(*slot)
			}
			// Fired from the middle in every direction, fast.
			a := float64(tick*perTick+k) * 0.618034
			d := Vec2{a - float64(int(a)) - 0.5, float64(k)/perTick - 0.5}
			var err error
			if *slot, err = w.Add(Body{Shape: Circle, Radius: 0.1, Tag: 1, Pos: d.Scale(10), Vel: d.Scale(80)}); err != nil {
				t.Fatal(err)
			}
			adds++
		}
		w.Step(dt)
	}
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, uint64(after.NumGC - before.NumGC), adds
}

// TestQueriesAcrossTheWorld: a ray or a sweep of any finite length, ends
// at ±1e308 included (where to−from overflows), finds what a short one
// finds, at a finite point on its surface (within 1e-6: the ray is cut
// at ±2e9, where a float64 is 2.4e-7 apart), the fraction along the
// whole of it; one that passes where no body reaches finds nothing.
func TestQueriesAcrossTheWorld(t *testing.T) {
	var w World
	box := mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{5, 0}, HalfW: 1, HalfH: 2})
	ball := mustAdd(t, &w, Body{Kind: Static, Shape: Circle, Pos: Vec2{0, 5}, Radius: 1})
	hull, err := NewHull(Vec2{-1, -1}, Vec2{1, -1}, Vec2{1, 1}, Vec2{-1, 1})
	if err != nil {
		t.Fatal(err)
	}
	turned := mustAdd(t, &w, Body{Kind: Static, Shape: Polygon, Hull: hull, Pos: Vec2{20, 20}, Angle: math.Pi / 2})
	edge := mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{-MaxCoordinate, -30}, HalfW: 1, HalfH: 1})
	const big = 1e308
	for _, c := range []struct {
		from, to      Vec2
		body          BodyID
		point, normal Vec2
		fraction      float64
	}{
		{Vec2{-big, 0}, Vec2{big, 0}, box, Vec2{4, 0}, Vec2{-1, 0}, 0.5},
		{Vec2{big, 0}, Vec2{-big, 0}, box, Vec2{6, 0}, Vec2{1, 0}, 0.5},
		{Vec2{-big, 5}, Vec2{big, 5}, ball, Vec2{-1, 5}, Vec2{-1, 0}, 0.5},
		{Vec2{0, big}, Vec2{0, -big}, ball, Vec2{0, 6}, Vec2{0, 1}, 0.5},
		{Vec2{-math.MaxFloat64, 20}, Vec2{math.MaxFloat64, 20}, turned, Vec2{19, 20}, Vec2{-1, 0}, 0.5},
		{Vec2{20, -big / 2}, Vec2{20, 3 * big / 2}, turned, Vec2{20, 19}, Vec2{0, -1}, 0.25},
		{Vec2{big, -30}, Vec2{-big, -30}, edge, Vec2{1 - MaxCoordinate, -30}, Vec2{1, 0}, 0.5},
		{Vec2{0, 0}, Vec2{big, 0}, box, Vec2{4, 0}, Vec2{-1, 0}, 4 / big},
		// Within the limits, a billion radii from the circle.
		{Vec2{-MaxCoordinate, 5}, Vec2{MaxCoordinate, 5}, ball, Vec2{-1, 5}, Vec2{-1, 0}, 0.4999999995},
	} {
		h, ok := w.RayCast(c.from, c.to, 0)
		if !ok || h.Body != c.body || h.Point.Sub(c.point).Len() > 1e-6 || h.Normal.Sub(c.normal).Len() > 1e-15 || h.Fraction != c.fraction {
			t.Errorf("RayCast(%v, %v) = %+v, %v; want %v at %v, normal %v, fraction %v", c.from, c.to, h, ok, c.body, c.point, c.normal, c.fraction)
		}
	}
	// Across the diagonal the cut is as coarse as the ends' rounding, but
	// the point is on the surface of what it hits, and finite.
	if h, ok := w.RayCast(Vec2{-big, -big}, Vec2{big, big}, 0); !ok || !finite(h.Point) || !finite(h.Normal) || !(h.Fraction >= 0 && h.Fraction <= 1) {
		t.Errorf("RayCast across the diagonal = %+v, %v; want a finite hit", h, ok)
	}
	for _, r := range [][2]Vec2{{{-big, 50}, {big, 50}}, {{-MaxCoordinate, 7}, {MaxCoordinate, 7}}, {{-MaxCoordinate, 12}, {MaxCoordinate, 12}}, {{-big, 3 * MaxCoordinate}, {big, 3 * MaxCoordinate}}, {{-big, -big}, {-big, big}}} {
		if h, ok := w.RayCast(r[0], r[1], 0); ok {
			t.Errorf("RayCast(%v, %v) hit %+v, want nothing", r[0], r[1], h)
		}
	}
	// The box and point queries only compare: right at any finite size.
	if got := w.QueryAABB(Vec2{-math.MaxFloat64, -math.MaxFloat64}, Vec2{math.MaxFloat64, math.MaxFloat64}, 0, nil); len(got) != 4 {
		t.Errorf("QueryAABB over every finite point found %v, want the 4 bodies", got)
	}
	for _, p := range []Vec2{{math.MaxFloat64, math.MaxFloat64}, {-big, big}, {math.MaxFloat64, 20}} {
		if got := w.QueryPoint(p, 0, nil); len(got) != 0 {
			t.Errorf("QueryPoint(%v) found %v, want nothing", p, got)
		}
	}
	if got := w.QueryPoint(Vec2{20.5, 20.5}, 0, nil); len(got) != 1 || got[0] != turned {
		t.Errorf("QueryPoint in the polygon found %v, want it", got)
	}
	// Sweeps by 1e308 (along the diagonal, whose length overflows) meet
	// what a short sweep would.
	paddle := mustAdd(t, &w, Body{Kind: Kinematic, Shape: Box, Pos: Vec2{-30, 0}, HalfW: 1, HalfH: 1})
	if h, ok := w.Cast(paddle, Vec2{big, 0}); !ok || h.Body != box || h.Normal != (Vec2{-1, 0}) || math.Abs(h.Fraction*big-33) > 1e-6 {
		t.Errorf("Cast by 1e308 = %+v, %v; want the box at fraction %v", h, ok, 33/big)
	}
	ball2 := mustAdd(t, &w, Body{Kind: Kinematic, Shape: Circle, Pos: Vec2{MaxCoordinate, -30}, Radius: 1})
	if h, ok := w.Cast(ball2, Vec2{-math.MaxFloat64, 0}); !ok || h.Body != edge || !(h.Fraction > 0) {
		t.Errorf("Cast across the world = %+v, %v; want the edge", h, ok)
	}
	spun := mustAdd(t, &w, Body{Kind: Kinematic, Shape: Box, Pos: Vec2{-30, -30}, HalfW: 1, HalfH: 1, Angle: 0.5})
	if h, ok := w.Cast(spun, Vec2{big, big}); !ok || h.Body != turned || !(h.Fraction > 0) {
		t.Errorf("a turned box swept along the diagonal = %+v, %v; want the polygon at (20, 20)", h, ok)
	}
	if h, ok := w.Cast(spun, Vec2{-big, 0}); !ok || h.Body != edge || !(h.Fraction > 0) {
		t.Errorf("a turned box swept left by 1e308 = %+v, %v; want the edge", h, ok)
	}
}

// TestGridQueryByCells: a query box of more cells than a query reads in
// cell order (a fast body's swept box among many statics) is answered by
// visiting its cells, with what reading every body of the grid gives, in
// the same order, so the worlds stay as they were; a giant box, of more
// cells than a quarter of the grid's bodies, still reads them.
func TestGridQueryByCells(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var bodies []Body
	var ids []int32
	for i := range 10000 {
		size := 0.5
		if i%100 == 0 {
			size = 3 // a second level
		}
		bodies = append(bodies, Body{Kind: Static, Shape: Box, HalfW: size, HalfH: size,
			Pos: Vec2{float64(i%100)*1.5 + r.Float64(), -float64(i/100) * 1.5}})
		bodies[i].setMass() // and its rotation, as Add does
		ids = append(ids, int32(i))
	}
	var g grid
	g.build(bodies, ids, margin/2, 0)
	// read is the query as it was: every body of a level, in sorted
	// order, past maxQueryCells cells.
	read := func(lo, hi Vec2) []int32 {
		q := entry{box: [4]float64{lo.X, lo.Y, hi.X, hi.Y}}
		var dst []int32
		for _, l := range g.levels {
			half := 0.5 / inv(l)
			x0, x1 := cell(lo.X-half, l), cell(hi.X+half, l)
			y0, y1 := cell(lo.Y-half, l), cell(hi.Y+half, l)
			if (x1-x0+1)*(y1-y0+1) <= maxQueryCells {
				for y := y0; y <= y1; y++ {
					for x := x0; x <= x1; x++ {
						b := g.bucket(l, x, y)
						for j := g.start[b]; j < g.start[b+1]; j++ {
							if o := &g.sorted[j]; o.x == x && o.y == y && o.level == l && overlap(&q, o) {
								dst = append(dst, o.item)
							}
						}
					}
				}
				continue
			}
			for i := range g.sorted {
				if o := &g.sorted[i]; o.level == l && overlap(&q, o) {
					dst = append(dst, o.item)
				}
			}
		}
		return dst
	}
	if !slices.Equal(g.levels, []int8{1, 3}) {
		t.Fatalf("the grid's levels are %v, want 1 and 3", g.levels)
	}
	var got []int32
	for k := range 500 {
		c := Vec2{r.Float64() * 150, -r.Float64() * 150}
		w, h := 4+r.Float64()*40, 4+r.Float64()*40
		if k%50 == 0 {
			w, h = 400, 400 // a giant's: read
		}
		lo, hi := c.Sub(Vec2{w / 2, h / 2}), c.Add(Vec2{w / 2, h / 2})
		got = g.query(lo, hi, got[:0])
		if want := read(lo, hi); !slices.Equal(got, want) {
			t.Fatalf("query %v..%v found %d bodies, reading them all %d (or in another order)", lo, hi, len(got), len(want))
		}
		if len(got) == 0 {
			t.Fatalf("query %v..%v found nothing: the test's boxes should hold bodies", lo, hi)
		}
	}
}

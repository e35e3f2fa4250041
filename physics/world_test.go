package physics

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

const dt = 1.0 / 60

func mustAdd(t testing.TB, w *World, b Body) BodyID {
	t.Helper()
	id, err := w.Add(b)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestFreeFallIsSemiImplicitEuler: a falling body follows semi-implicit
// Euler, once a tick in an upright world (a FixedRotation body) and once a
// sub-step in a turning one (DefaultSubsteps a tick).
func TestFreeFallIsSemiImplicitEuler(t *testing.T) {
	for _, upright := range []bool{true, false} {
		w := World{Gravity: Vec2{0, -10}}
		id := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 100}, FixedRotation: upright})
		for range 60 {
			w.Step(dt)
		}
		b := w.Body(id)
		// v_n = n·g·h; y_n = y0 + g·h²·n(n+1)/2, with n steps of h.
		n, h := 60.0, dt
		if !upright {
			n, h = 60*DefaultSubsteps, dt/DefaultSubsteps
		}
		wantV := -10.0 * n * h
		wantY := 100 - 10*h*h*n*(n+1)/2
		if math.Abs(b.Vel.Y-wantV) > 1e-9 || math.Abs(b.Pos.Y-wantY) > 1e-9 {
			t.Errorf("upright %v: after 1 s: y %v v %v, want %v, %v", upright, b.Pos.Y, b.Vel.Y, wantY, wantV)
		}
	}
	w := World{Gravity: Vec2{0, -10}}
	id := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 100}})
	for range 60 {
		w.Step(dt)
	}
	b := w.Body(id)
	if b.Prev.Y <= b.Pos.Y {
		t.Errorf("prev %v not above current %v while falling", b.Prev.Y, b.Pos.Y)
	}
	if got := b.Lerp(0.5).Y; math.Abs(got-(b.Prev.Y+b.Pos.Y)/2) > 1e-12 {
		t.Errorf("Lerp(0.5) = %v", got)
	}
}

func TestBounceAndRest(t *testing.T) {
	for _, c := range []struct {
		restitution float64
		check       func(maxAfter, y float64) string
	}{
		{1, func(maxAfter, y float64) string {
			if maxAfter < 9.5 {
				return fmt.Sprintf("elastic ball rebounds to %.3f, want about 10", maxAfter)
			}
			return ""
		}},
		{0, func(maxAfter, y float64) string {
			if math.Abs(y-0.5) > 0.01 {
				return fmt.Sprintf("inelastic ball rests at %.4f, want 0.5 (radius above the floor)", y)
			}
			return ""
		}},
	} {
		w := World{Gravity: Vec2{0, -10}}
		mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 50, HalfH: 1})
		id := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 10}, Restitution: c.restitution})
		var maxAfter float64
		bounced := false
		for range 600 {
			w.Step(dt)
			b := w.Body(id)
			if b.Vel.Y > 0 {
				bounced = true
			}
			if bounced {
				maxAfter = math.Max(maxAfter, b.Pos.Y)
			}
		}
		if msg := c.check(maxAfter, w.Body(id).Pos.Y); msg != "" {
			t.Error(msg)
		}
	}
}

// TestNoTunnelling fires a small fast ball at a thin wall: sub-stepping
// stops it, and so do a turning world's speculative contacts (found while
// a pair can close its gap within the tick) without sub-steps; an upright
// ball with a single step per tick (the classic failure) goes through.
func TestNoTunnelling(t *testing.T) {
	run := func(maxSub int, upright bool) float64 {
		w := World{MoveSteps: maxSub}
		mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{5, 0}, HalfW: 0.005, HalfH: 5})
		id := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.05, Pos: Vec2{0, 0}, Vel: Vec2{60, 0}, FixedRotation: upright})
		for range 30 {
			w.Step(dt)
		}
		return w.Body(id).Pos.X
	}
	for _, c := range []struct {
		maxSub  int
		upright bool
	}{{0, true}, {0, false}, {1, false}} {
		if x := run(c.maxSub, c.upright); x > 5 {
			t.Errorf("MoveSteps %d, upright %v: the fast ball went through the thin wall: x = %v", c.maxSub, c.upright, x)
		}
	}
	if x := run(1, true); x < 5 {
		t.Errorf("upright, without sub-steps the ball stopped at x = %v: the test does not exercise tunnelling", x)
	}
}

type events struct {
	log   []string
	first []Contact
}

func (e *events) BeginContact(c *Contact) {
	e.log = append(e.log, fmt.Sprintf("begin %d-%d", c.A.Index(), c.B.Index()))
	e.first = append(e.first, *c)
}
func (e *events) EndContact(a, b BodyID) {
	e.log = append(e.log, fmt.Sprintf("end %d-%d", a.Index(), b.Index()))
}

func TestContactEvents(t *testing.T) {
	ev := &events{}
	w := World{Gravity: Vec2{0, -10}, Listener: ev}
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 50, HalfH: 1})
	mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 2}, Restitution: 0.5})
	for range 120 {
		w.Step(dt)
		if len(ev.log) >= 2 {
			break
		}
	}
	if len(ev.log) < 2 || ev.log[0] != "begin 0-1" || ev.log[1] != "end 0-1" {
		t.Fatalf("events %v, want a begin then an end for the bounce of body 1 on body 0", ev.log)
	}
	// The begin event carries the contact as solved: the floor's normal,
	// the box's bottom face as its two points, the depth the tick found
	// (a gap the box closed within the tick: the speculative contact
	// stopped it at the floor, less than a tick's fall at 10 units/s
	// away) and a push.
	c := ev.first[0]
	if c.Normal != (Vec2{0, 1}) || c.NumPoints != 2 || c.Points[0].X != -0.5 || c.Points[1].X != 0.5 ||
		math.Abs(c.Point.Y) > 0.2 || c.Depth <= -10*dt || c.Depth > slop || c.Impulse <= 0 {
		t.Errorf("begin contact %+v: want normal (0,1), points at x=±0.5 near y=0, a depth within a tick's fall, an impulse", c)
	}
}

// TestBroadPhaseFindsExactlyTheTouchingPairs builds pairs that overlap by
// less than the slop (so nothing moves) or have a gap just under TouchGap,
// and pairs whose gap is just over it,
// of mixed shapes and sizes spanning several cells, and checks the grid
// reports exactly the touching ones.
func TestBroadPhaseFindsExactlyTheTouchingPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var w World
	var want []uint64
	for i := range 400 {
		x, y := float64(i%20)*6, float64(i/20)*6
		size := func() float64 { return 0.1 + r.Float64()*1.2 }
		a := Body{Shape: Shape(r.IntN(2)), Pos: Vec2{x, y}, Radius: size(), HalfW: size(), HalfH: size()}
		b := Body{Shape: Shape(r.IntN(2)), Radius: size(), HalfW: size(), HalfH: size()}
		// A pair touches when it overlaps or its gap is under TouchGap.
		touch := r.IntN(2) == 0
		gap := TouchGap + 5e-5
		if touch {
			gap = []float64{-5e-5, TouchGap - 5e-5}[r.IntN(2)]
		}
		// Along x: the sum of the half extents facing each other.
		ea := map[Shape]float64{Circle: a.Radius, Box: a.HalfW}[a.Shape]
		eb := map[Shape]float64{Circle: b.Radius, Box: b.HalfW}[b.Shape]
		b.Pos = Vec2{x + ea + eb + gap, y}
		ia := mustAdd(t, &w, a)
		ib := mustAdd(t, &w, b)
		if touch {
			want = append(want, uint64(ia.Index())<<32|uint64(ib.Index()))
		}
	}
	w.Step(dt)
	slices.Sort(want)
	var got []uint64
	for _, c := range w.Contacts() {
		if c.Touching {
			got = append(got, uint64(c.A.Index())<<32|uint64(c.B.Index()))
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("grid found %d touching pairs, want %d", len(got), len(want))
	}
}

func TestHashIsDeterministicAndSensitive(t *testing.T) {
	build := func(nudge float64) *World {
		w := &World{Gravity: Vec2{0, -9.8}}
		mustAdd(t, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 20, HalfH: 1})
		r := rand.New(rand.NewPCG(9, 9))
		for i := range 200 {
			mustAdd(t, w, Body{Shape: Shape(i % 2), Radius: 0.2, HalfW: 0.2, HalfH: 0.2,
				Pos: Vec2{r.Float64()*30 - 15 + nudge, r.Float64() * 20}, Restitution: 0.3, Friction: 0.5})
		}
		for range 300 {
			w.Step(dt)
		}
		return w
	}
	a, b, c := build(0), build(0), build(1e-12)
	if a.Hash() != b.Hash() {
		t.Errorf("identical runs hash %x and %x", a.Hash(), b.Hash())
	}
	if a.Hash() == c.Hash() {
		t.Errorf("a 1e-12 nudge left the hash at %x", a.Hash())
	}
}

func TestTeleport(t *testing.T) {
	var w World
	id := mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Vel: Vec2{1, 0}})
	w.Step(dt)
	w.Teleport(id, Vec2{100, 100})
	if b := w.Body(id); b.Lerp(0.3) != (Vec2{100, 100}) {
		t.Errorf("after Teleport, Lerp(0.3) = %v, want {100 100}: no streak", b.Lerp(0.3))
	}
}

func TestAddRejectsBadBodies(t *testing.T) {
	var w World
	for _, c := range []struct {
		b    Body
		want string
	}{
		{Body{Shape: Circle}, "physics: circle radius 0: want 0.0001 to 1e+06"},
		{Body{Shape: Box, HalfW: 1}, "physics: box half extents 1 x 0: want 0.0001 to 1e+06 each"},
		{Body{Shape: Circle, Radius: 1, Mass: -2}, "physics: mass -2: want 1e-06 to 1e+09 (or zero for 1)"},
		{Body{Shape: Circle, Radius: math.Inf(1)}, "physics: circle radius +Inf: want 0.0001 to 1e+06"},
		{Body{Shape: Circle, Radius: 1, Pos: Vec2{math.NaN(), 0}}, "physics: position {NaN 0}: want finite coordinates within ±1e+09"},
		{Body{Shape: Circle, Radius: 1, Pos: Vec2{0, 2e9}}, "physics: position {0 2e+09}: want finite coordinates within ±1e+09"},
		{Body{Shape: Circle, Radius: 1, Vel: Vec2{0, math.Inf(-1)}}, "physics: velocity {0 -Inf}: want finite components within ±1e+06"},
		{Body{Shape: Circle, Radius: 1, Mass: math.Inf(1)}, "physics: mass +Inf: want 1e-06 to 1e+09 (or zero for 1)"},
		{Body{Shape: Circle, Radius: 1, Mass: 1e308}, "physics: mass 1e+308: want 1e-06 to 1e+09 (or zero for 1)"},
		{Body{Shape: Circle, Radius: 1, Mass: 1e-308}, "physics: mass 1e-308: want 1e-06 to 1e+09 (or zero for 1)"},
		{Body{Shape: Circle, Radius: 1, Friction: math.NaN()}, "physics: friction NaN: want 0 to 100"},
		{Body{Shape: Circle, Radius: 1, Restitution: 1.5}, "physics: restitution 1.5: want 0 to 1"},
		{Body{Shape: 7, Radius: 1}, "physics: unknown shape 7"},
	} {
		if _, err := w.Add(c.b); err == nil || err.Error() != c.want {
			t.Errorf("Add(%+v) error %v, want %q", c.b, err, c.want)
		}
	}
}

// arena returns a walled box of n bodies, settled for a second.
func arena(tb testing.TB, n int) *World { return arenaWith(tb, n, false) }

// arenaWith is the arena, its bodies FixedRotation when upright.
func arenaWith(tb testing.TB, n int, upright bool) *World {
	w := &World{Gravity: Vec2{0, -9.8}}
	side := math.Sqrt(float64(n)) * 1.2
	for _, wall := range []Body{
		{Pos: Vec2{0, -1}, HalfW: side + 2, HalfH: 1}, {Pos: Vec2{-side - 1, side}, HalfW: 1, HalfH: side * 2},
		{Pos: Vec2{side + 1, side}, HalfW: 1, HalfH: side * 2},
	} {
		wall.Kind, wall.Shape = Static, Box
		mustAdd(tb, w, wall)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		mustAdd(tb, w, Body{Shape: Shape(i % 2), Radius: 0.25, HalfW: 0.25, HalfH: 0.25,
			Pos: Vec2{(r.Float64()*2 - 1) * (side - 0.5), 0.5 + r.Float64()*side*2},
			Vel: Vec2{r.Float64() - 0.5, 0}, Restitution: 0.4, Friction: 0.3, FixedRotation: upright})
	}
	for range 60 {
		w.Step(dt)
	}
	return w
}

func TestStepAllocs(t *testing.T) {
	w := arena(t, 1000)
	if n := testing.AllocsPerRun(20, func() { w.Step(dt) }); n != 0 {
		t.Errorf("a step of 1000 bodies allocates %v times, want 0", n)
	}
}

// gasWith returns n elastic bodies bouncing without gravity in a walled
// box, at the density of a lively scene: a steady state of collisions, the
// same at every step; its bodies FixedRotation when upright.
func gasWith(tb testing.TB, n int, upright bool) *World {
	w := &World{}
	side := math.Sqrt(float64(n)) * 2
	for _, wall := range []Body{
		{Pos: Vec2{side / 2, -1}, HalfW: side/2 + 2, HalfH: 1}, {Pos: Vec2{side / 2, side + 1}, HalfW: side/2 + 2, HalfH: 1},
		{Pos: Vec2{-1, side / 2}, HalfW: 1, HalfH: side/2 + 2}, {Pos: Vec2{side + 1, side / 2}, HalfW: 1, HalfH: side/2 + 2},
	} {
		wall.Kind, wall.Shape, wall.Restitution = Static, Box, 1
		mustAdd(tb, w, wall)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range n {
		mustAdd(tb, w, Body{Shape: Shape(i % 2), Radius: 0.4, HalfW: 0.4, HalfH: 0.4,
			Pos: Vec2{0.5 + r.Float64()*(side-1), 0.5 + r.Float64()*(side-1)},
			Vel: Vec2{r.Float64()*10 - 5, r.Float64()*10 - 5}, Restitution: 1, FixedRotation: upright})
	}
	for range 60 {
		w.Step(dt)
	}
	return w
}

// BenchmarkStep steps n upright (FixedRotation) bodies, as the world was
// before rotation, so its numbers compare with the old ones; "turning/"
// is the same scenes with bodies that turn. "gas" is a steady state of
// bouncing bodies (about one contact per ten bodies each tick); "pile" is
// the arena after everything has fallen into a resting heap, the worst
// case, with several contacts per body. The pile's world keeps settling
// during the run.
func BenchmarkStep(b *testing.B) {
	for _, turning := range []bool{false, true} {
		prefix := ""
		if turning {
			prefix = "turning/"
		}
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%sgas/%d", prefix, n), func(b *testing.B) {
				benchSteps(b, gasWith(b, n, !turning), 0)
			})
			b.Run(fmt.Sprintf("%spile/%d", prefix, n), func(b *testing.B) {
				benchSteps(b, arenaWith(b, n, !turning), 1200)
			})
			b.Run(fmt.Sprintf("%sawake/%d", prefix, n), func(b *testing.B) {
				benchSteps(b, awakePile(b, n, !turning), 0)
			})
		}
	}
}

// benchSteps times steps of w after settle steps.
func benchSteps(b *testing.B, w *World, settle int) {
	for range settle {
		w.Step(dt)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Step(dt)
	}
	b.ReportMetric(float64(len(w.Contacts())), "contacts")
}

// awakePile is the arena's pile with sleeping off, after 600 steps of
// settling: every body is solved every step.
func awakePile(tb testing.TB, n int, upright bool) *World {
	w := arenaWith(tb, n, upright)
	w.SleepTime = -1
	for range 600 {
		w.Step(dt)
	}
	return w
}

func TestTeleportStaticMovesItsCollision(t *testing.T) {
	w := World{Gravity: Vec2{0, -10}}
	floor := mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 5, HalfH: 1})
	ball := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 3}})
	w.Teleport(floor, Vec2{0, -11})
	for range 120 {
		w.Step(dt)
	}
	if y := w.Body(ball).Pos.Y; math.Abs(y-(-9.5)) > 0.05 {
		t.Errorf("ball rests at %v, want -9.5 on the moved floor", y)
	}
}

package physics

import (
	"math"
	"testing"
)

// stack builds ten unit boxes on a floor, each resting on the one below.
func stack(t testing.TB, w *World) []BodyID {
	w.Gravity = Vec2{0, -9.8}
	mustAdd(t, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.5})
	var ids []BodyID
	for i := range 10 {
		ids = append(ids, mustAdd(t, w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 0.5 + float64(i)}, Friction: 0.5}))
	}
	return ids
}

// TestStackComesToRest: after 10 s the top of a ten-box stack reports less
// than 0.05 units/s (it sleeps: exactly 0), and the stack stands its full
// height, less the slop per contact.
func TestStackComesToRest(t *testing.T) {
	var w World
	ids := stack(t, &w)
	for range 600 {
		w.Step(dt)
	}
	top := w.Body(ids[9])
	if v := top.Vel.Len(); v >= 0.05 {
		t.Errorf("top box moves at %v after 10 s, want under 0.05", v)
	}
	if y := top.Pos.Y; y < 9.5-10*slop || y > 9.5 {
		t.Errorf("top box at %v, want 9.5 less at most %v", y, 10*slop)
	}
	if !top.Asleep() {
		t.Error("the stack has not gone to sleep after 10 s")
	}
}

// TestWarmStartingHelps: with warm starting two velocity passes a tick hold
// the (upright) stack; without it the same two passes let it sag and
// shiver. Turning boxes need more passes than two to stand (see
// TestStackComesToRest).
func TestWarmStartingHelps(t *testing.T) {
	run := func(cold bool) (sag, speed float64) {
		w := World{Iterations: 2, SleepTime: -1, cold: cold}
		ids := stack(t, &w)
		for _, id := range ids {
			w.Body(id).FixedRotation = true
		}
		for range 600 {
			w.Step(dt)
		}
		top := w.Body(ids[9])
		return 9.5 - top.Pos.Y, top.Vel.Len()
	}
	warmSag, warmSpeed := run(false)
	coldSag, coldSpeed := run(true)
	t.Logf("2 passes: warm sag %.4f speed %.4f; cold sag %.4f speed %.4f", warmSag, warmSpeed, coldSag, coldSpeed)
	if warmSpeed >= 0.05 {
		t.Errorf("warm-started, the top box still moves at %v", warmSpeed)
	}
	if coldSpeed < 4*warmSpeed && coldSag < 2*warmSag {
		t.Errorf("without warm starting: sag %v speed %v, with: %v %v; want clearly worse without", coldSag, coldSpeed, warmSag, warmSpeed)
	}
}

// pyramid builds a 20-row pyramid of unit boxes (210) on a floor.
func pyramid(t testing.TB, w *World) []BodyID {
	w.Gravity = Vec2{0, -9.8}
	mustAdd(t, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 40, HalfH: 1, Friction: 0.6})
	var ids []BodyID
	for row := range 20 {
		n := 20 - row
		for i := range n {
			x := float64(i) - float64(n-1)/2
			ids = append(ids, mustAdd(t, w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5,
				Pos: Vec2{x * 1.0, 0.5 + float64(row)}, Friction: 0.6}))
		}
	}
	return ids
}

// TestPyramidHoldsStill: no box of a 20-row pyramid moves more than 5 mm
// during the tenth second.
func TestPyramidHoldsStill(t *testing.T) {
	var w World
	ids := pyramid(t, &w)
	for range 540 {
		w.Step(dt)
	}
	start := make([]Vec2, len(ids))
	for i, id := range ids {
		start[i] = w.Body(id).Pos
	}
	worst := 0.0
	for range 60 {
		w.Step(dt)
		for i, id := range ids {
			worst = max(worst, w.Body(id).Pos.Sub(start[i]).Len())
		}
	}
	if worst > 0.005 {
		t.Errorf("a pyramid box moved %.4f during the tenth second, want at most 0.005", worst)
	}
	if top := w.Body(ids[len(ids)-1]).Pos.Y; top < 19.5-20*slop {
		t.Errorf("the pyramid's top at %v, want 19.5 less the slop per row", top)
	}
}

// TestHeapStaysOutOfWalls: a heap pressing on thick walls leaves no body
// deeper in a static than the slop.
func TestHeapStaysOutOfWalls(t *testing.T) {
	w := arena(t, 2000)
	for range 600 {
		w.Step(dt)
	}
	deepest := 0.0
	for i := range w.bodies {
		b := &w.bodies[i]
		if b.Kind != Dynamic {
			continue
		}
		for _, si := range w.statics {
			if m, ok := collide(&w.bodies[si], b); ok {
				deepest = max(deepest, m.depth)
			}
		}
	}
	if deepest > slop+1e-9 {
		t.Errorf("a body is %.5f deep in a wall, want at most the slop %v", deepest, slop)
	}
}

// TestRestitutionOnlyForImpacts: a ball with restitution 1 keeps bouncing,
// but a box of restitution 1 set down on the floor stays down.
func TestRestitutionOnlyForImpacts(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}}
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Restitution: 1})
	box := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 0.5}, Restitution: 1})
	for range 120 {
		w.Step(dt)
	}
	if y := w.Body(box).Pos.Y; math.Abs(y-0.5) > slop {
		t.Errorf("a resting box of restitution 1 is at %v, want 0.5: it bounced on its own weight", y)
	}
}

// TestSleepAndWake: a resting box sleeps, stays asleep with a sleeping
// neighbour, and wakes when a falling ball lands on it, when it is given an
// impulse, a velocity, or teleported.
func TestSleepAndWake(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}}
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.8})
	a := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 0.5}, Friction: 0.8})
	b := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 1.5}, Friction: 0.8})
	for range 60 {
		w.Step(dt)
	}
	if !w.Body(a).Asleep() || !w.Body(b).Asleep() {
		t.Fatal("two resting boxes not asleep after a second")
	}
	contacts := len(w.Contacts())
	ball := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.3, Pos: Vec2{0, 6}})
	woke := false
	for range 120 {
		w.Step(dt)
		if !w.Body(a).Asleep() {
			woke = true
		}
	}
	if !woke {
		t.Error("a ball landing on the stack did not wake its island")
	}
	if contacts != 2 {
		t.Errorf("%d contacts while asleep, want the 2 of the stack kept", contacts)
	}
	for name, poke := range map[string]func(){
		"impulse":  func() { w.ApplyImpulse(a, Vec2{0, 1}) },
		"velocity": func() { w.Body(a).Vel = Vec2{1, 0} },
		"teleport": func() { w.Teleport(a, Vec2{3, 0.5}) },
	} {
		for range 120 {
			w.Step(dt)
		}
		if !w.Body(a).Asleep() {
			t.Fatalf("%s: not asleep before", name)
		}
		poke()
		w.Step(dt)
		if w.Body(a).Asleep() {
			t.Errorf("%s did not wake the body", name)
		}
	}
	_ = ball
}

// TestRemoveAndGenerations: a removed body's ID is stale for good, even
// after its slot is reused.
func TestRemoveAndGenerations(t *testing.T) {
	var w World
	a := mustAdd(t, &w, Body{Shape: Circle, Radius: 1})
	b := mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{5, 0}})
	if err := w.Remove(a); err != nil {
		t.Fatal(err)
	}
	if w.Alive(a) {
		t.Error("a removed body is alive")
	}
	if err := w.Remove(a); err == nil {
		t.Error("removing a body twice is no error")
	}
	c := mustAdd(t, &w, Body{Shape: Box, HalfW: 1, HalfH: 1})
	if c.Index() != a.Index() || c == a || w.Alive(a) || !w.Alive(c) || !w.Alive(b) {
		t.Errorf("slot reuse: a=%v c=%v, alive a %v c %v", a, c, w.Alive(a), w.Alive(c))
	}
	defer func() {
		if msg := recover(); msg == nil {
			t.Error("Body of a stale ID did not panic")
		}
	}()
	w.Body(a)
}

// remover removes whatever hits the floor, from inside the callback.
type remover struct {
	w     *World
	floor BodyID
	gone  []BodyID
	ended int
}

func (r *remover) BeginContact(c *Contact) {
	if c.A == r.floor {
		r.w.Remove(c.B)
		r.gone = append(r.gone, c.B)
		// Adding from a callback is safe too: it joins at the next step.
		r.w.Add(Body{Shape: Circle, Radius: 0.1, Pos: Vec2{100 + 10*float64(len(r.gone)), 100}})
	}
}
func (r *remover) EndContact(a, b BodyID) { r.ended++ }

func TestChangingTheWorldInsideCallbacks(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}}
	r := &remover{w: &w}
	w.Listener = r
	r.floor = mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1})
	for i := range 5 {
		mustAdd(t, &w, Body{Shape: Circle, Radius: 0.3, Pos: Vec2{float64(i) - 2, 1 + float64(i)}})
	}
	for range 180 {
		w.Step(dt)
	}
	if len(r.gone) != 5 {
		t.Fatalf("%d bodies removed on touching the floor, want 5", len(r.gone))
	}
	for _, id := range r.gone {
		if w.Alive(id) {
			t.Errorf("%v still alive", id)
		}
	}
	if r.ended != 0 {
		t.Errorf("%d EndContact events for removed bodies, want none", r.ended)
	}
	if n := len(w.Contacts()); n != 0 {
		t.Errorf("%d contacts left after removing everything that touched", n)
	}
}

// TestLayers: two bodies collide only when each one's layer is in the
// other's mask.
func TestLayers(t *testing.T) {
	for _, c := range []struct {
		la, ma, lb, mb uint32
		hit            bool
	}{
		{0, 0, 0, 0, true},  // defaults: layer 1, all
		{1, 2, 2, 1, true},  // each in the other's mask
		{1, 2, 2, 2, false}, // b does not take layer 1
		{4, 0, 2, 0, true},  // masks all
		{4, 1, 2, 0, false}, // a takes only layer 1
		{3, 2, 2, 1, true},  // a in layers 1 and 2
		{8, 8, 8, 8, true},  // the same layer
		{8, 4, 8, 8, false}, // a does not take its own layer
	} {
		var w World
		mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Layer: c.la, Mask: c.ma})
		mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{1.5, 0}, Layer: c.lb, Mask: c.mb})
		w.Step(dt)
		if hit := len(w.Contacts()) == 1; hit != c.hit {
			t.Errorf("layer %b mask %b against layer %b mask %b: contact %v, want %v", c.la, c.ma, c.lb, c.mb, hit, c.hit)
		}
	}
}

func TestRayCast(t *testing.T) {
	var w World
	box := mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{5, 0}, HalfW: 1, HalfH: 2})
	ball := mustAdd(t, &w, Body{Kind: Static, Shape: Circle, Pos: Vec2{0, 5}, Radius: 1, Layer: 2})
	for _, c := range []struct {
		from, to Vec2
		mask     uint32
		body     BodyID
		point    Vec2
		normal   Vec2
	}{
		{Vec2{0, 0}, Vec2{10, 0}, 0, box, Vec2{4, 0}, Vec2{-1, 0}},
		{Vec2{5, 10}, Vec2{5, -10}, 0, box, Vec2{5, 2}, Vec2{0, 1}},
		{Vec2{0, 0}, Vec2{0, 10}, 0, ball, Vec2{0, 4}, Vec2{0, -1}},
		{Vec2{-10, 5}, Vec2{0, 5}, 0, ball, Vec2{-1, 5}, Vec2{-1, 0}},
	} {
		h, ok := w.RayCast(c.from, c.to, c.mask)
		if !ok || h.Body != c.body || h.Point.Sub(c.point).Len() > 1e-9 || h.Normal.Sub(c.normal).Len() > 1e-9 {
			t.Errorf("ray %v→%v: %+v %v, want %v at %v normal %v", c.from, c.to, h, ok, c.body, c.point, c.normal)
		}
	}
	if _, ok := w.RayCast(Vec2{0, 0}, Vec2{0, 10}, 1); ok {
		t.Error("a ray of mask 1 hit the ball of layer 2")
	}
	if _, ok := w.RayCast(Vec2{0, 0}, Vec2{3, 0}, 0); ok {
		t.Error("a ray that stops short hit the box")
	}
	got := w.QueryAABB(Vec2{-2, -3}, Vec2{4.5, 4.5}, 0, nil)
	if len(got) != 2 || got[0] != box || got[1] != ball {
		t.Errorf("QueryAABB = %v, want both", got)
	}
	if got := w.QueryAABB(Vec2{-2, -3}, Vec2{3, 3}, 0, nil); len(got) != 0 {
		t.Errorf("QueryAABB of an empty area = %v", got)
	}
}

// TestKinematicSweepStopsAtWalls: a fast kinematic paddle with Sweep stops
// at a thin wall; without it, it passes through. Cast reports the wall.
func TestKinematicSweepStopsAtWalls(t *testing.T) {
	run := func(sweep bool) (float64, *World, BodyID) {
		var w World
		mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{10, 0}, HalfW: 0.05, HalfH: 5})
		p := mustAdd(t, &w, Body{Kind: Kinematic, Shape: Box, Pos: Vec2{0, 0}, HalfW: 1, HalfH: 0.2, Vel: Vec2{120, 0}, Sweep: sweep})
		return w.Body(p).Pos.X, &w, p
	}
	_, w, p := run(true)
	if h, ok := w.Cast(p, Vec2{20, 0}); !ok || math.Abs(h.Fraction-(8.95/20)) > 1e-9 || h.Normal != (Vec2{-1, 0}) {
		t.Errorf("Cast = %+v %v, want the wall at fraction %v", h, ok, 8.95/20)
	}
	for range 30 {
		w.Step(dt)
	}
	if x := w.Body(p).Pos.X; x > 8.95 || x < 8.9 {
		t.Errorf("swept paddle at x = %v, want stopped at the wall (8.95)", x)
	}
	_, w2, p2 := run(false)
	for range 30 {
		w2.Step(dt)
	}
	if x := w2.Body(p2).Pos.X; x < 10 {
		t.Errorf("an unswept paddle stopped at %v: the test does not show what Sweep does", x)
	}
}

// TestStepAllocsPile: a settling pile with sleeping, warm starting and
// events allocates nothing per step.
func TestStepAllocsPile(t *testing.T) {
	w := arena(t, 1000)
	w.Listener = &nopListener{}
	for range 120 {
		w.Step(dt)
	}
	if n := testing.AllocsPerRun(50, func() { w.Step(dt) }); n != 0 {
		t.Errorf("a step allocates %v times, want 0", n)
	}
}

type nopListener struct{}

func (nopListener) BeginContact(*Contact)  {}
func (nopListener) EndContact(a, b BodyID) {}

// TestDisabled: a disabled body neither moves, nor collides, nor answers
// queries; enabled again, it falls.
func TestDisabled(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}}
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1})
	ball := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 5}})
	other := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 5.5}}) // overlapping it
	w.Body(ball).Disabled = true
	for range 30 {
		w.Step(dt)
	}
	if p := w.Body(ball).Pos; p != (Vec2{0, 5}) {
		t.Errorf("a disabled body moved to %v", p)
	}
	for _, c := range w.Contacts() {
		if c.A == ball || c.B == ball {
			t.Errorf("a disabled body has a contact: %+v", c)
		}
	}
	if h, ok := w.RayCast(Vec2{-5, 5}, Vec2{5, 5}, 0); ok && h.Body == ball {
		t.Error("a ray hit a disabled body")
	}
	if w.Body(other).Pos.Y > 5 {
		t.Error("the other body did not fall through the disabled one")
	}
	w.Body(ball).Disabled = false
	for range 30 {
		w.Step(dt)
	}
	if w.Body(ball).Pos.Y >= 5 {
		t.Error("enabled again, the body did not fall")
	}
}

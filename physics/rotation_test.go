package physics

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/detmath"
)

// TestNewHullRefuses: concave, clockwise, degenerate and out-of-range
// polygons are refused with an error that says which and where.
func TestNewHullRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		verts []Vec2
		want  string
	}{
		{"two vertices", []Vec2{{0, 0}, {1, 0}}, "3 to 8"},
		{"nine vertices", make([]Vec2, 9), "3 to 8"},
		{"clockwise", []Vec2{{0, 0}, {0, 1}, {1, 1}, {1, 0}}, "clockwise"},
		{"concave", []Vec2{{0, 0}, {2, 0}, {1, 0.5}, {2, 2}, {0, 2}}, "vertex 2 {1 0.5} turns clockwise"},
		{"collinear", []Vec2{{0, 0}, {1, 0}, {2, 0}, {1, 1}}, "degenerate"},
		{"repeated", []Vec2{{0, 0}, {1, 0}, {1, 0}, {0, 1}}, "repeated vertex"},
		{"flat", []Vec2{{0, 0}, {1, 0}, {2, 1e-9}}, "degenerate"},
		{"star", []Vec2{{0, 1}, {-0.588, -0.809}, {0.951, 0.309}, {-0.951, 0.309}, {0.588, -0.809}}, "convex"},
		{"NaN", []Vec2{{0, 0}, {1, 0}, {math.NaN(), 1}}, "vertex 2"},
		{"huge", []Vec2{{0, 0}, {1e7, 0}, {0, 1}}, "vertex 1"},
	} {
		if _, err := NewHull(c.verts...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: NewHull error %v, want one that says %q", c.name, err, c.want)
		}
	}
	h, err := NewHull(Vec2{1, 1}, Vec2{3, 1}, Vec2{3, 2}, Vec2{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if h.Len() != 4 || h.Area() != 2 || h.Vertex(0) != (Vec2{-1, -0.5}) || Centroid(Vec2{1, 1}, Vec2{3, 1}, Vec2{3, 2}, Vec2{1, 2}) != (Vec2{2, 1.5}) {
		t.Errorf("hull %+v: want 4 vertices, area 2, centred on (2, 1.5)", h)
	}
	var w World
	if _, err := w.Add(Body{Shape: Polygon}); err == nil || !strings.Contains(err.Error(), "NewHull") {
		t.Errorf("Add of a polygon with no hull: %v", err)
	}
}

// TestHullInertiaMatchesBox: a box as a hull has a box's inertia, so the
// two shapes turn alike.
func TestHullInertiaMatchesBox(t *testing.T) {
	h, err := NewHull(Vec2{-1, -0.5}, Vec2{1, -0.5}, Vec2{1, 0.5}, Vec2{-1, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	box := Body{Shape: Box, HalfW: 1, HalfH: 0.5}
	poly := Body{Shape: Polygon, Hull: h}
	if a, b := box.inertiaPerMass(), poly.inertiaPerMass(); math.Abs(a-b) > 1e-15 {
		t.Errorf("box inertia %v, hull %v", a, b)
	}
}

// TestLerpAngleTakesTheShortArc: from 3.1 to -3.1 radians passes through
// π, not through 0.
func TestLerpAngleTakesTheShortArc(t *testing.T) {
	b := Body{PrevAngle: 3.1, Angle: -3.1}
	if got, want := b.LerpAngle(0.5), 3.1+(2*math.Pi-6.2)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("LerpAngle(0.5) from 3.1 to -3.1 = %v, want %v (through π)", got, want)
	}
	b = Body{PrevAngle: 0, Angle: 1}
	if got := b.LerpAngle(0.25); got != 0.25 {
		t.Errorf("LerpAngle(0.25) from 0 to 1 = %v, want 0.25", got)
	}
	b = Body{PrevAngle: -3, Angle: 3}
	if got := b.LerpAngle(1); math.Abs(got-(-3-(2*math.Pi-6))) > 1e-12 {
		t.Errorf("LerpAngle(1) from -3 to 3 = %v, want %v (the same angle, the short way)", got, -3-(2*math.Pi-6))
	}
}

// TestImpulseAtPoint: an impulse at a point off the centre turns the body
// by r×J over its inertia; torque and angular impulse likewise, and not a
// FixedRotation body.
func TestImpulseAtPoint(t *testing.T) {
	var w World
	id := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5}) // I = 1/6
	w.ApplyImpulseAt(id, Vec2{0, 1}, Vec2{0.5, 0})
	if b := w.Body(id); b.Vel != (Vec2{0, 1}) || b.AngVel != 3 {
		t.Errorf("after an impulse (0, 1) at (0.5, 0): vel %v, spin %v; want (0, 1) and 3", b.Vel, b.AngVel)
	}
	w.ApplyAngularImpulse(id, 0.5)
	w.ApplyTorque(id, 6, 0.5)
	if b := w.Body(id); b.AngVel != 24 {
		t.Errorf("spin %v, want 3 + 0.5·6 + 6·0.5·6 = 24", b.AngVel)
	}
	fixed := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{5, 0}, FixedRotation: true})
	w.ApplyImpulseAt(fixed, Vec2{0, 1}, Vec2{5.5, 0})
	w.Step(dt)
	if b := w.Body(fixed); b.AngVel != 0 || b.Angle != 0 {
		t.Errorf("a FixedRotation body turned: spin %v, angle %v", b.AngVel, b.Angle)
	}
	if b := w.Body(id); math.Abs(b.Angle-24*dt) > 1e-15 {
		t.Errorf("angle %v after a tick at 24 rad/s, want %v", b.Angle, 24*dt)
	}
}

// ramp adds a static 30° ramp and returns its surface's direction down
// the slope and its normal.
func ramp(t *testing.T, w *World) (down, normal Vec2) {
	s, c := detmath.SinCos(-math.Pi / 6)
	mustAdd(t, w, Body{Kind: Static, Shape: Box, HalfW: 20, HalfH: 0.5, Angle: -math.Pi / 6, Friction: 0.6})
	return Vec2{c, s}, Vec2{-s, c}
}

// TestBallRollsDownRamp: a ball released on a 30° ramp with friction rolls
// without sliding (its contact point still: v = ω·r within 1 %) and speeds
// up as a rolling disc does, at g·sin 30°/(1 + I/(m·r²)) = g/3.
func TestBallRollsDownRamp(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}, SleepTime: -1}
	down, normal := ramp(t, &w)
	const r = 0.5
	ball := mustAdd(t, &w, Body{Shape: Circle, Radius: r, Pos: down.Scale(-8).Add(normal.Scale(0.5 + r)), Friction: 0.6})
	var v0 float64
	for tick := range 120 {
		w.Step(dt)
		b := w.Body(ball)
		if tick == 29 {
			v0 = b.Vel.Dot(down)
		}
		if tick < 30 {
			continue
		}
		v, spin := b.Vel.Dot(down), -b.AngVel*r
		if math.Abs(v-spin) > 0.01*math.Abs(v) {
			t.Fatalf("tick %d: v %v, ω·r %v: the ball slides", tick, v, spin)
		}
	}
	v := w.Body(ball).Vel.Dot(down)
	if a := (v - v0) / (90 * dt); math.Abs(a-9.8/3) > 0.02*9.8/3 {
		t.Errorf("the ball speeds up at %v, want g/3 = %v (a rolling disc)", a, 9.8/3)
	}
}

// TestFixedRotationSlides: a FixedRotation box on the same ramp without
// friction slides down upright, at g·sin 30°.
func TestFixedRotationSlides(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}, SleepTime: -1}
	down, normal := ramp(t, &w)
	w.bodies[0].Friction = 0
	box := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Angle: -math.Pi / 6, FixedRotation: true,
		Pos: down.Scale(-8).Add(normal.Scale(0.5))})
	for range 60 {
		w.Step(dt)
	}
	b := w.Body(box)
	if b.Angle != -math.Pi/6 || b.AngVel != 0 {
		t.Errorf("angle %v, spin %v: a FixedRotation box turned", b.Angle, b.AngVel)
	}
	if v := b.Vel.Dot(down); math.Abs(v-9.8/2) > 0.02*9.8/2 {
		t.Errorf("after 1 s down the slope at %v, want g/2 = %v", v, 9.8/2)
	}
}

// TestAngularDampingStopsARoller: a ball rolling on a floor rolls on
// without damping and stops, and sleeps, with it.
func TestAngularDampingStopsARoller(t *testing.T) {
	for _, damping := range []float64{0, 2} {
		w := World{Gravity: Vec2{0, -9.8}}
		mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 1000, HalfH: 1, Friction: 0.5})
		ball := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 0.5}, Vel: Vec2{2, 0}, AngVel: -4, Friction: 0.5, AngularDamping: damping})
		for range 600 {
			w.Step(dt)
		}
		b := w.Body(ball)
		switch {
		case damping == 0 && b.Vel.X < 1.9:
			t.Errorf("undamped, the ball slowed to %v", b.Vel.X)
		case damping > 0 && !b.Asleep():
			t.Errorf("damped, the ball still rolls at %v after 10 s", b.Vel)
		}
	}
}

// TestTiltedBoxLandsFlat: a box dropped at an angle onto a floor tips onto
// a face and rests there, asleep.
func TestTiltedBoxLandsFlat(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}}
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.6})
	box := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 2}, Angle: 0.3, Friction: 0.6})
	for range 300 {
		w.Step(dt)
	}
	b := w.Body(box)
	quarter := math.Pi / 2
	if off := math.Abs(b.Angle - quarter*math.Round(b.Angle/quarter)); off > 0.01 || !b.Asleep() || math.Abs(b.Pos.Y-0.5) > slop {
		t.Errorf("angle %v (%v off a face), y %v, asleep %v: want flat on a face at 0.5, asleep", b.Angle, off, b.Pos.Y, b.Asleep())
	}
}

// TestPolygonsSettle: hexagons and triangles dropped in a heap come to rest
// on the floor, none in it.
func TestPolygonsSettle(t *testing.T) {
	w := World{Gravity: Vec2{0, -9.8}}
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.6})
	hex, err := NewHull(Vec2{0.5, 0}, Vec2{0.25, 0.433}, Vec2{-0.25, 0.433}, Vec2{-0.5, 0}, Vec2{-0.25, -0.433}, Vec2{0.25, -0.433})
	if err != nil {
		t.Fatal(err)
	}
	tri, err := NewHull(Vec2{-0.4, -0.3}, Vec2{0.4, -0.3}, Vec2{0, 0.4})
	if err != nil {
		t.Fatal(err)
	}
	var ids []BodyID
	for i := range 40 {
		h := hex
		if i%2 == 1 {
			h = tri
		}
		ids = append(ids, mustAdd(t, &w, Body{Shape: Polygon, Hull: h, Pos: Vec2{float64(i%8) - 3.5, 1 + float64(i/8)}, Angle: float64(i) * 0.3, Friction: 0.6}))
	}
	for range 900 {
		w.Step(dt)
	}
	for _, id := range ids {
		b := w.Body(id)
		lo, _ := b.bounds()
		if lo.Y < -slop-1e-9 || !b.Asleep() {
			t.Errorf("%v at %v (lowest point %v), asleep %v: want at rest on the floor", id, b.Pos, lo.Y, b.Asleep())
		}
	}
}

// TestRayCastTurnedShapes: a ray meets a box turned by 45° at its corner
// and a polygon at its face, with the face's normal.
func TestRayCastTurnedShapes(t *testing.T) {
	var w World
	box := mustAdd(t, &w, Body{Kind: Static, Shape: Box, HalfW: 1, HalfH: 1, Angle: math.Pi / 4})
	h, ok := w.RayCast(Vec2{-5, 0}, Vec2{5, 0}, 0)
	if !ok || h.Body != box || math.Abs(h.Fraction-(5-math.Sqrt2)/10) > 1e-12 {
		t.Errorf("hit %+v, want the box's corner at fraction %v", h, (5-math.Sqrt2)/10)
	}
	if h, ok := w.RayCast(Vec2{-5, 1.45}, Vec2{5, 1.45}, 0); ok {
		t.Errorf("a ray past the turned box's corner hit %+v", h)
	}
	tri, _ := NewHull(Vec2{-1, -1}, Vec2{1, -1}, Vec2{0, 2})
	w.Teleport(box, Vec2{100, 0})
	mustAdd(t, &w, Body{Kind: Static, Shape: Polygon, Hull: tri, Pos: Vec2{0, 0}})
	h, ok = w.RayCast(Vec2{0, -5}, Vec2{0, 5}, 0)
	if !ok || math.Abs(h.Point.Y-(-1)) > 1e-12 || h.Normal != (Vec2{0, -1}) {
		t.Errorf("hit %+v, want the triangle's base at y = -1, normal (0, -1)", h)
	}
}

// TestCastTurnedShapes: a circle cast at a turned box stops at its
// corner, short of touching by at most the cast tolerance.
func TestCastTurnedShapes(t *testing.T) {
	var w World
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, HalfW: 1, HalfH: 1, Angle: math.Pi / 4})
	ball := mustAdd(t, &w, Body{Kind: Kinematic, Shape: Circle, Radius: 0.5, Pos: Vec2{-5, 0}})
	h, ok := w.Cast(ball, Vec2{10, 0})
	want := (5 - math.Sqrt2 - 0.5) / 10
	if !ok || h.Fraction > want || h.Fraction < want-castTolerance/10 || math.Abs(h.Normal.X-(-1)) > 1e-9 {
		t.Errorf("cast hit %+v, want fraction %v (less at most %v), normal (-1, 0)", h, want, castTolerance/10)
	}
}

// TestTurningWorldAllocatesNothing: a heap of turning boxes, circles and
// polygons steps without allocating once reserved.
func TestTurningWorldAllocatesNothing(t *testing.T) {
	w := turningHeap(t, 300)
	w.Reserve(400)
	if n := testing.AllocsPerRun(100, func() { w.Step(dt) }); n != 0 {
		t.Errorf("%v allocations per step", n)
	}
	// A rollback: restore the tick before and step again, polygons among
	// the bodies (their hulls are the slots' own: kept, not made anew).
	snap := w.Snapshot(nil)
	if n := testing.AllocsPerRun(100, func() {
		if err := w.Restore(snap); err != nil {
			t.Fatal(err)
		}
		w.Step(dt)
	}); n != 0 {
		t.Errorf("%v allocations per restore and step", n)
	}
}

// turningHeap is n boxes, circles and polygons falling at angles into a
// walled room.
func turningHeap(tb testing.TB, n int) *World {
	w := &World{Gravity: Vec2{0, -9.8}, SleepTime: -1}
	for _, b := range []Body{{Pos: Vec2{0, -1}, HalfW: 12, HalfH: 1}, {Pos: Vec2{-11, 10}, HalfW: 1, HalfH: 10}, {Pos: Vec2{11, 10}, HalfW: 1, HalfH: 10}} {
		b.Kind, b.Shape, b.Friction = Static, Box, 0.6
		mustAdd(tb, w, b)
	}
	pent, err := NewHull(Vec2{0.3, 0}, Vec2{0.09, 0.285}, Vec2{-0.243, 0.176}, Vec2{-0.243, -0.176}, Vec2{0.09, -0.285})
	if err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		b := Body{Shape: Shape(i % 3), Radius: 0.3, HalfW: 0.3, HalfH: 0.2, Hull: pent, Friction: 0.6, Restitution: 0.1,
			Pos: Vec2{float64(i%19) - 9, 1 + float64(i/19)*0.8}, Angle: float64(i) * 0.7, AngularDamping: 0.5}
		mustAdd(tb, w, b)
	}
	for range 120 {
		w.Step(dt)
	}
	return w
}

// TestTurningSnapshotGivesTheSameFuture: a restored turning world steps to
// the same bytes, and a snapshot with a concave hull is refused.
func TestTurningSnapshotGivesTheSameFuture(t *testing.T) {
	w := turningHeap(t, 150)
	snap := w.Snapshot(nil)
	var z World
	if err := z.Restore(snap); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		w.Step(dt)
		z.Step(dt)
	}
	if a, b := w.Snapshot(nil), z.Snapshot(nil); !bytes.Equal(a, b) {
		t.Fatalf("the restored world diverged: %s", Diff(a, b))
	}
	if w.Hash() != z.Hash() {
		t.Error("the hashes differ")
	}
	// Body 5 is a polygon: pull its vertex 2 inside.
	bad := bytes.Clone(snap)
	rec := bad[snapHeader+5*bodyBytes:]
	if Shape(rec[1]) != Polygon {
		t.Fatalf("body 5 is shape %d", rec[1])
	}
	putF(rec[bodyHull+1+16*2:], 0)
	putF(rec[bodyHull+9+16*2:], 0)
	if err := z.Restore(reseal(bad)); !errors.Is(err, ErrBadSnapshot) || !strings.Contains(err.Error(), "body 5") {
		t.Errorf("a concave hull restored: %v", err)
	}
}

// TestTurningRollbackEveryTick: a turning heap restored from its snapshot
// at every tick steps to the same bytes as the world itself, as a sync
// test checks (a rotation left a hair off its angle's by the position
// passes once made the restored world another).
func TestTurningRollbackEveryTick(t *testing.T) {
	w := turningHeap(t, 150)
	var z World
	var snap []byte
	for tick := range 120 {
		snap = w.Snapshot(snap[:0])
		if err := z.Restore(snap); err != nil {
			t.Fatal(err)
		}
		w.Step(dt)
		z.Step(dt)
		if a, b := w.Snapshot(nil), z.Snapshot(nil); !bytes.Equal(a, b) {
			t.Fatalf("tick %d: the world restored from the tick before differs: %s", tick, Diff(a, b))
		}
	}
}

// landing records a turning box's contact events with the floor.
type landing struct {
	begins, ends int
	first        Contact
}

func (l *landing) BeginContact(c *Contact) {
	if l.begins == 0 {
		l.first = *c
	}
	l.begins++
}
func (l *landing) EndContact(a, b BodyID) { l.ends++ }

// TestTurningContactEvents: a box dropped tilted onto a floor begins
// touching on its corner (one point, halfway into the overlap below the
// floor's surface, with an impulse), tips flat, and resting carries its
// weight, m·g·dt, shared by two points. The corner it lands on may lift
// for a moment as the box swings down (the soft step keeps the turn the
// impact gave it; a hop of 2.5 mm): every end is followed by a begin, and
// it ends touching.
func TestTurningContactEvents(t *testing.T) {
	var l landing
	w := World{Gravity: Vec2{0, -10}, Listener: &l, SleepTime: -1}
	floor := mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.6})
	box := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 1.5}, Angle: 0.3, Friction: 0.6, Mass: 2})
	for range 240 {
		w.Step(dt)
	}
	if l.begins < 1 || l.begins > 2 || l.ends != l.begins-1 {
		t.Fatalf("%d begins, %d ends: want one begin, or two with an end between them", l.begins, l.ends)
	}
	if c := l.first; c.A != floor || c.B != box || c.NumPoints != 1 || math.Abs(c.Points[0].Y+c.Depth/2) > 1e-9 || c.Impulse <= 0 {
		t.Errorf("first contact %+v: want the floor and the box, one point (the corner) at y = -Depth/2, an impulse", c)
	}
	c := contactOf(&w, floor, box)
	if c == nil || c.NumPoints != 2 || math.Abs(c.Impulse-2*10*dt) > 1e-3*2*10*dt || math.Abs(c.Normal.Y-1) > 1e-6 {
		t.Errorf("resting contact %+v: want two points carrying m·g·dt = %v along (0, 1)", c, 2*10*dt)
	}
}

// TestSubstepsStiffenContacts: a box resting on a box rests as deep as its
// load over the contact's stiffness, and the contact is as stiff as the
// sub-step rate allows, so doubling Substeps quarters the depth. A 1×1 box
// of mass 1 under gravity 10 on a like one presses each of two corners
// with 5 units against an effective mass of 1/5: 25/(2π·50)² deep at 4
// sub-steps of a 60 Hz tick (50 Hz).
func TestSubstepsStiffenContacts(t *testing.T) {
	depth := func(substeps int) float64 {
		w := World{Gravity: Vec2{0, -10}, SleepTime: -1, Substeps: substeps}
		mustAdd(t, &w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.6})
		low := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 0.5}, Friction: 0.6})
		top := mustAdd(t, &w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, 1.5}, Friction: 0.6})
		for range 300 {
			w.Step(dt)
		}
		return 1 - (w.Body(top).Pos.Y - w.Body(low).Pos.Y)
	}
	want := 25 / math.Pow(2*math.Pi*50, 2)
	d4, d8 := depth(4), depth(8)
	if math.Abs(d4/want-1) > 0.005 || math.Abs(d4/d8/4-1) > 0.005 {
		t.Errorf("depth %.7f at 4 sub-steps (want %.7f), %.7f at 8: ratio %.3f, want 4", d4, want, d8, d4/d8)
	}
}

// TestBodyFrame: WorldPoint and WorldVector turn by detmath.SinCos of the
// body's Angle, bit for bit, whether or not the world has seen the body;
// LocalPoint and LocalVector undo them.
func TestBodyFrame(t *testing.T) {
	b := Body{Pos: Vec2{2, 3}}
	if got := b.WorldPoint(Vec2{1, 2}); got != (Vec2{3, 5}) {
		t.Errorf("unturned WorldPoint = %v, want (3, 5)", got)
	}
	for _, a := range []float64{math.Pi / 2, -2.5, 0.3} {
		b.Angle = a // the cache follows the angle
		s, c := detmath.SinCos(a)
		v := Vec2{1, -0.5}
		want := Vec2{float64(c*v.X) - float64(s*v.Y), float64(s*v.X) + float64(c*v.Y)}
		if got := b.WorldVector(v); got != want {
			t.Errorf("angle %v: WorldVector(%v) = %v, want %v", a, v, got, want)
		}
		if got := b.WorldPoint(v); got != b.Pos.Add(want) {
			t.Errorf("angle %v: WorldPoint(%v) = %v, want %v", a, v, got, b.Pos.Add(want))
		}
		if back := b.LocalPoint(b.WorldPoint(v)); back.Sub(v).Len() > 1e-15 {
			t.Errorf("angle %v: LocalPoint(WorldPoint(%v)) = %v", a, v, back)
		}
		if back := b.LocalVector(want); back.Sub(v).Len() > 1e-15 {
			t.Errorf("angle %v: LocalVector(%v) = %v, want %v", a, want, back, v)
		}
	}
	var w World
	id := mustAdd(t, &w, Body{Kind: Dynamic, Shape: Box, HalfW: 1, HalfH: 1, Pos: Vec2{-1, 0}, Angle: math.Pi / 2})
	if got := w.Body(id).WorldPoint(Vec2{1, 0}); got.Sub(Vec2{-1, 1}).Len() > 1e-15 {
		t.Errorf("a quarter turn's WorldPoint(1, 0) = %v, want (-1, 1)", got)
	}
}

// TestQueryPointTurnedShapes: a point inside a turned body's bounds but
// outside its shape is in nothing; inside its shape, or on its edge, it
// finds the body; layers, Disabled and Remove are respected.
func TestQueryPointTurnedShapes(t *testing.T) {
	var w World
	box := mustAdd(t, &w, Body{Kind: Static, Shape: Box, HalfW: 1, HalfH: 1, Angle: math.Pi / 4})
	tri, _ := NewHull(Vec2{-1, -1}, Vec2{1, -1}, Vec2{0, 2}) // centroid at the origin
	poly := mustAdd(t, &w, Body{Kind: Dynamic, Shape: Polygon, Hull: tri, Pos: Vec2{10, 0}, Layer: 2})
	ball := mustAdd(t, &w, Body{Kind: Dynamic, Shape: Circle, Radius: 0.5, Pos: Vec2{20, 0}})
	for _, c := range []struct {
		p    Vec2
		mask uint32
		want []BodyID
	}{
		{Vec2{0.9, 0.9}, 0, nil},          // in the diamond's bounds, past its edge
		{Vec2{1.3, 0}, 0, []BodyID{box}},  // near its corner, inside
		{Vec2{10, -1}, 0, []BodyID{poly}}, // on the triangle's base
		{Vec2{10.8, 1}, 0, nil},           // beside its slanted edge
		{Vec2{10.2, 1}, 0, []BodyID{poly}},
		{Vec2{10, 0}, 1, nil}, // the triangle is in layer 2
		{Vec2{20.5, 0}, 0, []BodyID{ball}},
		{Vec2{20.36, 0.36}, 0, nil},
		{Vec2{math.NaN(), 0}, 0, nil},
	} {
		if got := w.QueryPoint(c.p, c.mask, nil); !slices.Equal(got, c.want) {
			t.Errorf("QueryPoint(%v, mask %d) = %v, want %v", c.p, c.mask, got, c.want)
		}
	}
	// Overlapping bodies come in index order; a disabled or removed one
	// is in none.
	over := mustAdd(t, &w, Body{Kind: Dynamic, Shape: Circle, Radius: 1, Pos: Vec2{0.5, 0}})
	if got := w.QueryPoint(Vec2{0.5, 0}, 0, nil); !slices.Equal(got, []BodyID{box, over}) {
		t.Errorf("QueryPoint in both = %v, want %v", got, []BodyID{box, over})
	}
	w.Body(over).Disabled = true
	if err := w.Remove(box); err != nil {
		t.Fatal(err)
	}
	if got := w.QueryPoint(Vec2{0.5, 0}, 0, nil); len(got) != 0 {
		t.Errorf("QueryPoint after Disabled and Remove = %v, want none", got)
	}
	dst := make([]BodyID, 0, 4)
	if n := testing.AllocsPerRun(100, func() { dst = w.QueryPoint(Vec2{10, 0}, 0, dst[:0]) }); n != 0 || len(dst) != 1 {
		t.Errorf("QueryPoint into room: %v allocations, found %v", n, dst)
	}
}

// TestRecycledContactsFollowTheGame: a resting pair reuses its manifold
// (recycle), but not once the game resizes or turns a body, and a
// snapshot taken after the game did keeps the restored world on the same
// future.
func TestRecycledContactsFollowTheGame(t *testing.T) {
	stack := func() (*World, BodyID, BodyID) {
		w := &World{Gravity: Vec2{0, -10}, SleepTime: -1}
		mustAdd(t, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.6})
		low := mustAdd(t, w, Body{Shape: Box, Pos: Vec2{0, 0.5}, HalfW: 0.5, HalfH: 0.5, Friction: 0.6})
		top := mustAdd(t, w, Body{Shape: Box, Pos: Vec2{0, 1.5}, HalfW: 0.5, HalfH: 0.5, Friction: 0.6})
		for range 120 {
			w.Step(dt)
		}
		return w, low, top
	}
	overlap := func(w *World, low, top BodyID) float64 {
		l, u := w.Body(low), w.Body(top)
		return l.Pos.Y + l.HalfH - (u.Pos.Y - u.HalfH)
	}

	// Taller by half: the two overlap by 0.25, which the soft contact
	// pushes out at pushSpeed; a kept manifold would hold them so.
	w, low, top := stack()
	w.Body(top).HalfH = 0.75
	var z World
	if err := z.Restore(w.Snapshot(nil)); err != nil {
		t.Fatal(err)
	}
	for range 60 {
		w.Step(dt)
		z.Step(dt)
	}
	if d := overlap(w, low, top); d > 2*slop {
		t.Errorf("resized: the boxes overlap by %v after a second, want at most %v", d, 2*slop)
	}
	if a, b := w.Snapshot(nil), z.Snapshot(nil); !bytes.Equal(a, b) {
		t.Errorf("resized, then restored: the worlds differ: %s", Diff(a, b))
	}

	// Turned by the game: the top box meets the lower one at a corner.
	w, low, top = stack()
	w.Body(top).Angle = 0.2
	w.Step(dt)
	for _, c := range w.Contacts() {
		if c.A == low && c.B == top && c.NumPoints != 1 {
			t.Errorf("turned: the boxes touch at %d points, want its corner's 1", c.NumPoints)
		}
	}

	// Both turned as one about the lower box's centre: the pair's pose
	// is as it was, but its normal turned with it.
	w, low, top = stack()
	l, u := w.Body(low), w.Body(top)
	s, c := detmath.SinCos(0.2)
	l.Angle, u.Angle = 0.2, 0.2
	u.Pos = l.Pos.Add(Vec2{-s, c}.Scale(u.Pos.Sub(l.Pos).Len()))
	w.Step(dt)
	for _, k := range w.Contacts() {
		if k.A == low && k.B == top && k.Normal.Sub(Vec2{-s, c}).Len() > 1e-9 {
			t.Errorf("turned together: the normal is %v, want %v", k.Normal, Vec2{-s, c})
		}
	}
}

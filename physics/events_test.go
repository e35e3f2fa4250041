package physics

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// pairEvents counts the events of one pair of bodies, and of any other.
type pairEvents struct {
	a, b          BodyID
	begins, ends  int
	others        int
	beginTouching bool // the contact BeginContact saw said Touching
}

func (e *pairEvents) BeginContact(c *Contact) {
	if c.A != e.a || c.B != e.b {
		e.others++
		return
	}
	e.begins++
	e.beginTouching = c.Touching
}

func (e *pairEvents) EndContact(a, b BodyID) {
	if a != e.a || b != e.b {
		e.others++
		return
	}
	e.ends++
}

// placement is one case of the contact property: a body thrown at a static
// wall from one side, anywhere in the world.
type placement struct {
	wall, body Body
	toward     Vec2 // unit direction from the body to the wall
	gravity    bool // gravity presses the body on the wall; else none
}

func (p placement) String() string {
	return fmt.Sprintf("wall %v at %v (%v×%v, r %v), body %v at %v (%v×%v, r %v) vel %v, gravity %v",
		p.wall.Shape, p.wall.Pos, p.wall.HalfW, p.wall.HalfH, p.wall.Radius,
		p.body.Shape, p.body.Pos, p.body.HalfW, p.body.HalfH, p.body.Radius, p.body.Vel, p.gravity)
}

// randomPlacement makes case i: the wall's side, coordinates (up to ±10^5,
// on and off binary fractions), sizes (5 cm to 2 m) and speeds (0.5 to 40
// units/s toward the wall, up to ±3 along it, from 10 cm to 5 m away
// and there within 3 s) at random; a circle or a box
// thrown; gravity toward the wall or none, alternately.
func randomPlacement(r *rand.Rand, i int) placement {
	dirs := [4]Vec2{{0, 1}, {0, -1}, {1, 0}, {-1, 0}}
	d := dirs[r.IntN(4)]
	along := Vec2{-d.Y, d.X}
	scale := []float64{1, 100, 1e4, 1e5}[r.IntN(4)]
	centre := Vec2{(r.Float64()*2 - 1) * scale, (r.Float64()*2 - 1) * scale}
	if r.IntN(2) == 0 { // on a grid of quarters, like a tile map
		centre = Vec2{float64(int(centre.X*4)) / 4, float64(int(centre.Y*4)) / 4}
	}
	size := func() float64 { return 0.05 + r.Float64()*1.95 }
	p := placement{toward: d, gravity: i%2 == 1}
	if i%4 >= 2 {
		p.body = Body{Shape: Box, HalfW: size(), HalfH: size()}
	} else {
		p.body = Body{Shape: Circle, Radius: size()}
	}
	ext := p.body.Radius + p.body.HalfW*abs(d.X) + p.body.HalfH*abs(d.Y) // half extent along d
	wallHalf := 0.5
	p.wall = Body{Kind: Static, Shape: Box, Pos: centre.Add(d.Scale(wallHalf))}
	if d.X == 0 {
		p.wall.HalfW, p.wall.HalfH = 1000, wallHalf
	} else {
		p.wall.HalfW, p.wall.HalfH = wallHalf, 1000
	}
	speed := 0.5 + r.Float64()*39.5
	gap := min(0.1+r.Float64()*5, speed*3) // reached within 3 s
	p.body.Pos = centre.Sub(d.Scale(ext + gap)).Add(along.Scale(r.Float64()*20 - 10))
	p.body.Vel = d.Scale(speed).Add(along.Scale(r.Float64()*6 - 3))
	return p
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestContactEventsProperty is the contact events' property: a body thrown
// at a wall, which stops it, touches it. BeginContact runs once, while the
// body stays on the wall (sliding along it or at rest) nothing more runs,
// and EndContact runs once when it leaves; with gravity pressing it on or
// none (a top-down game), for circles and boxes, wherever the wall is. A
// pair left in Contacts with Touching false and a gap of -0.0000 is the
// failure this guards against: the wall's coordinates decided whether a
// bullet ever hit it.
func TestContactEventsProperty(t *testing.T) {
	const placements = 10000
	r := rand.New(rand.NewPCG(21, 1))
	failed := 0
	for i := range placements {
		p := randomPlacement(r, i)
		if err := contactProperty(p); err != nil {
			if failed++; failed <= 5 {
				t.Errorf("placement %d: %v\n\t%v", i, err, p)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d placements failed", failed, placements)
	}
}

// contactProperty runs one placement: 5 s of game time to reach the wall
// and stay there, then the body is sent away from it (gravity off) and
// must part within a second.
func contactProperty(p placement) error {
	var w World
	if p.gravity {
		w.Gravity = p.toward.Scale(10)
	}
	wall, err := w.Add(p.wall)
	if err != nil {
		return err
	}
	body, err := w.Add(p.body)
	if err != nil {
		return err
	}
	ev := &pairEvents{a: wall, b: body}
	w.Listener = ev
	const dt = 1.0 / 60
	for tick := range 300 {
		w.Step(dt)
		if ev.ends > 0 || ev.begins > 1 {
			return fmt.Errorf("tick %d on the wall: %d begins, %d ends, want 1 and 0", tick, ev.begins, ev.ends)
		}
	}
	if ev.begins != 1 || !ev.beginTouching || ev.others != 0 {
		c := contactOf(&w, wall, body)
		return fmt.Errorf("after 5 s: %d begins (touching %v), %d other events; want 1; contact now %+v, body at %v vel %v",
			ev.begins, ev.beginTouching, ev.others, c, w.Body(body).Pos, w.Body(body).Vel)
	}
	if c := contactOf(&w, wall, body); c == nil || !c.Touching {
		return fmt.Errorf("after 5 s the pair is not touching: %+v", c)
	}
	w.Gravity = Vec2{}
	b := w.Body(body)
	b.Vel = p.toward.Scale(-3)
	for range 60 {
		w.Step(dt)
	}
	if ev.begins != 1 || ev.ends != 1 {
		return fmt.Errorf("after leaving: %d begins, %d ends, want 1 and 1", ev.begins, ev.ends)
	}
	return nil
}

func contactOf(w *World, a, b BodyID) *Contact {
	for i, c := range w.Contacts() {
		if c.A == a && c.B == b {
			return &w.Contacts()[i]
		}
	}
	return nil
}

// TestTouchGapHysteresis pins the two gaps: a body placed just inside
// TouchGap of a wall touches it at once, one placed beyond it does not,
// and a touching body moved out to between TouchGap and PartGap still
// touches, until it is beyond PartGap.
func TestTouchGapHysteresis(t *testing.T) {
	touching := func(w *World) bool {
		cs := w.Contacts()
		return len(cs) == 1 && cs[0].Touching
	}
	setup := func(gap float64) (*World, BodyID) {
		w := &World{}
		if _, err := w.Add(Body{Kind: Static, Shape: Box, HalfW: 10, HalfH: 0.5}); err != nil {
			t.Fatal(err)
		}
		id, err := w.Add(Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{Y: 1 + gap}})
		if err != nil {
			t.Fatal(err)
		}
		return w, id
	}
	w, _ := setup(TouchGap * 0.9)
	if w.Step(1.0 / 60); !touching(w) {
		t.Errorf("a body %v from a wall does not touch it: %+v", TouchGap*0.9, w.Contacts())
	}
	w, _ = setup(TouchGap * 1.5)
	if w.Step(1.0 / 60); touching(w) {
		t.Errorf("a body %v from a wall touches it: %+v", TouchGap*1.5, w.Contacts())
	}
	w, id := setup(0)
	if w.Step(1.0 / 60); !touching(w) {
		t.Fatalf("a body on a wall does not touch it: %+v", w.Contacts())
	}
	w.Teleport(id, Vec2{Y: 1 + (TouchGap+PartGap)/2})
	if w.Step(1.0 / 60); !touching(w) {
		t.Errorf("a touching body moved %v away stopped touching (PartGap %v): %+v", (TouchGap+PartGap)/2, PartGap, w.Contacts())
	}
	w.Teleport(id, Vec2{Y: 1 + PartGap*1.5})
	if w.Step(1.0 / 60); touching(w) {
		t.Errorf("a body moved %v away still touches (PartGap %v): %+v", PartGap*1.5, PartGap, w.Contacts())
	}
}

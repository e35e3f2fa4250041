package physics

import (
	"errors"
	"testing"
)

// heavyOnLight builds a box of mass heavy resting on a box of mass light,
// unit boxes on static ground, on a column of three more light boxes when pile
// is set; upright (FixedRotation) or turning.
func heavyOnLight(tb testing.TB, heavy, light float64, upright, pile bool) (w *World, top, bottom BodyID) {
	w = &World{Gravity: Vec2{0, -9.8}, SleepTime: -1}
	mustAdd(tb, w, Body{Kind: Static, Shape: Box, Pos: Vec2{0, -1}, HalfW: 10, HalfH: 1, Friction: 0.5})
	y := 0.5
	if pile {
		for range 3 {
			mustAdd(tb, w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, y}, Mass: light, Friction: 0.5, FixedRotation: upright})
			y++
		}
	}
	bottom = mustAdd(tb, w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, y}, Mass: light, Friction: 0.5, FixedRotation: upright})
	top = mustAdd(tb, w, Body{Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{0, y + 1}, Mass: heavy, Friction: 0.5, FixedRotation: upright})
	return w, top, bottom
}

// TestMassRatioHeld: at MaxMassRatio a unit box rests on one 100 times
// lighter, on the ground and on a pile, sunk into it by at most 0.025
// units upright and 0.01 turning at any tick from the second second to
// the fifth (measured: 0.0177 and 0.0201 upright, 0.0080 turning); the
// light box on the heavy one sinks no deeper than into a box of its own
// mass. Neither ever passes the other. (At 1,000 to 1 the upright
// overlap reaches 0.47, and at 10,000 to 1 the boxes swap places: see
// MaxMassRatio.)
func TestMassRatioHeld(t *testing.T) {
	for _, c := range []struct {
		name          string
		heavy, light  float64
		upright, pile bool
		bound         float64
	}{
		{"upright on the ground", MaxMassRatio, 1, true, false, 0.025},
		{"upright on a pile", MaxMassRatio, 1, true, true, 0.025},
		{"turning on the ground", MaxMassRatio, 1, false, false, 0.01},
		{"turning on a pile", MaxMassRatio, 1, false, true, 0.01},
		{"upright, light on heavy", 1, MaxMassRatio, true, false, 0.0005},
		{"turning, light on heavy", 1, MaxMassRatio, false, false, 0.0005},
		{"the heavy box's mass is the most allowed", MaxMass, MaxMass / MaxMassRatio, false, true, 0.01},
		{"the light box's mass is the least allowed", MinMass * MaxMassRatio, MinMass, false, true, 0.01},
	} {
		w, top, bottom := heavyOnLight(t, c.heavy, c.light, c.upright, c.pile)
		worst := 0.0
		for tick := range 300 {
			w.Step(dt)
			a, b := w.Body(top), w.Body(bottom)
			if a.Pos.Y <= b.Pos.Y {
				t.Fatalf("%s: at tick %d the top box (%v) is below the bottom one (%v)", c.name, tick+1, a.Pos, b.Pos)
			}
			if tick >= 120 {
				worst = max(worst, (b.Pos.Y+0.5)-(a.Pos.Y-0.5))
			}
		}
		t.Logf("%s: sunk at most %.4f", c.name, worst)
		if worst > c.bound {
			t.Errorf("%s: the top box sinks %.4f into the bottom one, want at most %v", c.name, worst, c.bound)
		}
	}
}

// TestAddRefusesMassRatio: Add refuses a dynamic body more than
// MaxMassRatio times heavier than the lightest, or lighter than the
// heaviest over MaxMassRatio, naming both masses and their ratio (an
// error wrapping ErrMassRatio); static and kinematic bodies do not count.
// Removing the body at a bound lets its counterpart in, and after Restore
// the bounds are the restored world's.
func TestAddRefusesMassRatio(t *testing.T) {
	var w World
	mustAdd(t, &w, Body{Kind: Static, Shape: Box, HalfW: 1, HalfH: 1, Pos: Vec2{0, -5}})
	mustAdd(t, &w, Body{Kind: Kinematic, Shape: Box, HalfW: 1, HalfH: 1, Pos: Vec2{0, -9}})
	light := mustAdd(t, &w, Body{Shape: Box, HalfW: 1, HalfH: 1}) // mass zero: 1
	heavy := mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{5, 0}, Mass: MaxMassRatio})
	refuse := func(m float64, want string) {
		t.Helper()
		_, err := w.Add(Body{Shape: Circle, Radius: 1, Pos: Vec2{-5, 0}, Mass: m})
		if !errors.Is(err, ErrMassRatio) || err.Error() != want {
			t.Errorf("Add(mass %v) = %v, want %q", m, err, want)
		}
	}
	refuse(101, "physics: mass ratio beyond MaxMassRatio: mass 101 is 101 times the lightest dynamic body's mass 1: want at most 100 times")
	refuse(1e4, "physics: mass ratio beyond MaxMassRatio: mass 10000 is 10000 times the lightest dynamic body's mass 1: want at most 100 times")
	refuse(0.5, "physics: mass ratio beyond MaxMassRatio: mass 0.5 is 1/200 of the heaviest dynamic body's mass 100: want at least 1/100 of it")
	mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{0, 5}, Mass: 1})   // at the bounds: in
	mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{0, 10}, Mass: 50}) // between them: in
	if err := w.Remove(heavy); err != nil {
		t.Fatal(err)
	}
	mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{5, 5}, Mass: 0.5}) // 50 is the heaviest now
	refuse(0.4, "physics: mass ratio beyond MaxMassRatio: mass 0.4 is 1/125 of the heaviest dynamic body's mass 50: want at least 1/100 of it")
	if err := w.Remove(light); err != nil {
		t.Fatal(err)
	}
	w.Step(dt)
	// A world of one body of mass 1,000 restored over this one: its
	// bounds, not these, decide.
	var big World
	mustAdd(t, &big, Body{Shape: Box, HalfW: 1, HalfH: 1, Mass: 1000})
	if err := w.Restore(big.Snapshot(nil)); err != nil {
		t.Fatal(err)
	}
	refuse(5, "physics: mass ratio beyond MaxMassRatio: mass 5 is 1/200 of the heaviest dynamic body's mass 1000: want at least 1/100 of it")
	mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Pos: Vec2{5, 5}, Mass: 10})
}

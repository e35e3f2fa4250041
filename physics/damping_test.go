package physics

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestLinearDampingExact: a damped body alone, with no gravity, keeps
// 1/(1 + h·d) of its velocity each sub-step of h seconds in a turning
// world (five sub-steps of a 60 Hz tick) and each tick in an upright one
// (FixedRotation): exact bits, against the same factor applied by hand,
// and its position is the sum of what it moved.
func TestLinearDampingExact(t *testing.T) {
	const dt, d, ticks = 1.0 / 60, 2.0, 30
	for _, tc := range []struct {
		name  string
		fixed bool
		subs  int
	}{{"turning", false, DefaultSubsteps}, {"upright", true, 1}} {
		var w World
		id := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Vel: Vec2{8, -3}, LinearDamping: d, FixedRotation: tc.fixed})
		h := dt / float64(tc.subs)
		k := 1 / (1 + float64(h*d))
		v, p := Vec2{8, -3}, Vec2{}
		for range ticks {
			w.Step(dt)
			for range tc.subs {
				v = Vec2{float64(v.X * k), float64(v.Y * k)}
				if !tc.fixed {
					p = p.Add(v.Scale(h)) // the soft step moves the body a sub-step at a time
				}
			}
			if tc.fixed {
				p = p.Add(v.Scale(dt))
			}
		}
		b := w.Body(id)
		if b.Vel != v {
			t.Errorf("%s: velocity after %d ticks %v, want %v", tc.name, ticks, b.Vel, v)
		}
		// By hand: 8·k^(ticks·subs), within a few roundings of the power.
		want := 8 * math.Pow(k, ticks*float64(tc.subs))
		if math.Abs(b.Vel.X-want) > 1e-13 {
			t.Errorf("%s: velocity X %v, want 8·k^%d = %v", tc.name, b.Vel.X, ticks*tc.subs, want)
		}
		if tc.fixed && b.Pos != p || !tc.fixed && math.Abs(b.Pos.X-p.X) > 1e-12 {
			t.Errorf("%s: position %v, want %v", tc.name, b.Pos, p)
		}
	}
}

// TestLinearDampingStops: in a top-down world (no gravity) a pushed puck
// slows, stops and sleeps; the undamped one beside it keeps its speed.
func TestLinearDampingStops(t *testing.T) {
	var w World
	damped := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, LinearDamping: 3})
	free := mustAdd(t, &w, Body{Shape: Circle, Radius: 0.5, Pos: Vec2{0, 10}})
	w.ApplyImpulse(damped, Vec2{6, 0})
	w.ApplyImpulse(free, Vec2{6, 0})
	last := 0.0
	for tick := range 600 {
		w.Step(1.0 / 60)
		b := w.Body(damped)
		if b.Vel.X > 0 && !(b.Vel.X < 6) || b.Pos.X < last {
			t.Fatalf("tick %d: damped velocity %v, position %v after %v", tick, b.Vel, b.Pos, last)
		}
		last = b.Pos.X
	}
	b := w.Body(damped)
	// It coasts v0/d = 2 units (the integral of 6·e^(-3t)), a little less
	// with the implicit factor, and stops there.
	if !b.Asleep() || b.Vel != (Vec2{}) || !(b.Pos.X > 1.9 && b.Pos.X < 2) {
		t.Errorf("damped: pos %v, vel %v, asleep %v: want stopped near x = 2, asleep", b.Pos, b.Vel, b.Asleep())
	}
	if f := w.Body(free); f.Vel != (Vec2{6, 0}) {
		t.Errorf("undamped: velocity %v, want (6, 0) still", f.Vel)
	}
}

// TestLinearDampingChecked: Add refuses a LinearDamping that is negative,
// NaN or above MaxDamping, naming it; Restore refuses a snapshot with one,
// and keeps a valid one through a round trip.
func TestLinearDampingChecked(t *testing.T) {
	for _, d := range []float64{-1, math.NaN(), math.Inf(1), MaxDamping * 2} {
		var w World
		_, err := w.Add(Body{Shape: Circle, Radius: 1, LinearDamping: d})
		if err == nil || !strings.Contains(err.Error(), "linear damping") {
			t.Errorf("Add with LinearDamping %v: %v, want an error naming linear damping", d, err)
		}
	}
	var w World
	mustAdd(t, &w, Body{Shape: Circle, Radius: 1, Vel: Vec2{1, 0}, LinearDamping: 0.75})
	snap := w.Snapshot(nil)
	var back World
	if err := back.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if got := back.Body(back.ID(0)).LinearDamping; got != 0.75 {
		t.Errorf("restored LinearDamping %v, want 0.75", got)
	}
	bad := append([]byte(nil), snap...)
	putF(bad[bodyAt(0)+bodyLinearDamping:], -2)
	err := back.Restore(reseal(bad))
	if !errors.Is(err, ErrBadSnapshot) || !strings.Contains(err.Error(), "linear damping -2") {
		t.Errorf("Restore with LinearDamping -2: %v, want ErrBadSnapshot naming it", err)
	}
}

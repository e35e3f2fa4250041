package physics

import (
	"fmt"
	"testing"
)

// BenchmarkSettingsCeiling steps 2,000 bodies with each setting at its
// default and at its upper limit: what
// one flipped bit of a snapshot's settings, or a game's own choice, can
// cost a step. "substeps" is the turning awake pile (Substeps),
// "iterations" the upright awake pile (Iterations, PositionIterations),
// "ccd" the first step of a gas of bodies so fast (up to 70,000 units/s)
// that MoveSteps caps every one's continuous collision.
func BenchmarkSettingsCeiling(b *testing.B) {
	const n = 2000
	for _, s := range []int{0, MaxSubsteps} {
		b.Run(fmt.Sprintf("substeps/%d", s), func(b *testing.B) {
			w := awakePile(b, n, false)
			w.Substeps = s
			benchSteps(b, w, 0)
		})
	}
	for _, it := range [][2]int{{0, 0}, {MaxIterations, 0}, {0, MaxPositionIterations}, {MaxIterations, MaxPositionIterations}} {
		b.Run(fmt.Sprintf("iterations/%d,%d", it[0], it[1]), func(b *testing.B) {
			w := awakePile(b, n, true)
			w.Iterations, w.PositionIterations = it[0], it[1]
			benchSteps(b, w, 0)
		})
	}
	for _, m := range []int{0, MaxMoveSteps} {
		b.Run(fmt.Sprintf("ccd/%d", m), func(b *testing.B) {
			w := gasWith(b, n, true)
			for i := range w.bodies {
				if w.bodies[i].Kind == Dynamic {
					w.bodies[i].Vel = w.bodies[i].Vel.Scale(1e4)
				}
			}
			w.MoveSteps = m
			// Every step from the same state: the bodies that the cap lets
			// through the walls would leave, and the worlds would differ.
			snap := w.Snapshot(nil)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				if err := w.Restore(snap); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				w.Step(dt)
			}
		})
	}
}

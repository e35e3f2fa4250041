package physics

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// fastTiny builds 2,000 tiny circles (radius 0.02) thrown at up to 300
// units/s sideways and 600 down, with restitution 1, from 5 units above
// rows of static boxes (100 a row, 1.5 apart, each row one unit below the
// last): BenchmarkLayouts' "fast" layout with a chosen number of statics.
// A circle moves up to 10 units a tick, 1,000 times the 0.01 it may move
// in one sub-step against the statics, so each is sub-stepped to the cap
// (MoveSteps, 64).
func fastTiny(tb testing.TB, statics int, turning bool) *World {
	w := &World{Gravity: Vec2{0, -9.8}, SleepTime: -1}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range statics {
		mustAdd(tb, w, Body{Kind: Static, Shape: Box, HalfW: 0.5, HalfH: 0.5, Pos: Vec2{float64(i%100) * 1.5, -float64(i / 100)}})
	}
	for range 2000 {
		mustAdd(tb, w, Body{Shape: Circle, Radius: 0.02, Restitution: 1, Pos: Vec2{r.Float64() * 150, 5},
			Vel: Vec2{r.Float64()*600 - 300, -r.Float64() * 600}, FixedRotation: !turning})
	}
	return w
}

// BenchmarkFastTinyBodies: one op is the first second (60 ticks) of
// 2,000 fast tiny bodies over 100 statics (and over 10,000, the "fast"
// layout's), upright (FixedRotation) and turning, from a new world each
// time, so the figure does not depend on how many ops run. It reports
// ms/step, and vmax: the fastest body's speed at the end (they start at
// 670 at most; see BENCHMARKS.md).
func BenchmarkFastTinyBodies(b *testing.B) {
	for _, turning := range []bool{false, true} {
		for _, statics := range []int{100, 10000} {
			name := fmt.Sprintf("upright/statics=%d", statics)
			if turning {
				name = fmt.Sprintf("turning/statics=%d", statics)
			}
			b.Run(name, func(b *testing.B) {
				var vmax float64
				b.ReportAllocs()
				for b.Loop() {
					b.StopTimer()
					w := fastTiny(b, statics, turning)
					b.StartTimer()
					for range 60 {
						w.Step(dt)
					}
					vmax = 0
					for _, i := range w.movers {
						vmax = max(vmax, w.bodies[i].Vel.Len())
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(60*b.N), "ms/step")
				b.ReportMetric(vmax, "vmax")
			})
		}
	}
}

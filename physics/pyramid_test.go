package physics

import (
	"fmt"
	"testing"
)

// largePyramidWorld is Box2D v3's large_pyramid benchmark scene
// (benchmark/large_pyramid.c in its repository): 100 rows of boxes of
// half size 0.5, 5,050 in all, exactly touching on a ground of half size
// 100×1, friction 0.6, gravity -10, sleeping off.
func largePyramidWorld(tb testing.TB) *World { return pyramidWorld(tb, 100) }

// BenchmarkLargePyramid steps Box2D v3's large_pyramid (5,050 turning
// boxes, sleeping off) on 1 to 16 workers, from its first step on, as
// Box2D v3's benchmark does (it times steps 2 to 500: -test.benchtime
// 499x is the same run): every sub-benchmark steps the same world, bit
// for bit.
func BenchmarkLargePyramid(b *testing.B) {
	snap := largePyramidWorld(b).Snapshot(nil)
	for _, n := range []int{1, 2, 4, 8, 16} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) { benchWorkers(b, snap, n) })
	}
}

// benchWorkers steps the world of snapshot snap on n workers (1: alone),
// after an untimed first step.
func benchWorkers(b *testing.B, snap []byte, n int) {
	var w World
	if err := w.Restore(snap); err != nil {
		b.Fatal(err)
	}
	if n > 1 {
		w.Workers = NewWorkers(n)
		defer w.Workers.Close()
	}
	w.Step(dt) // the first step, which Box2D v3's benchmark does not time either
	b.ReportAllocs()
	for b.Loop() {
		w.Step(dt)
	}
}

// BenchmarkPileWorkers steps the awake turning pile of 1,000 bodies
// (BenchmarkStep's turning/awake/1000) alone and on pools of 2 and 4
// workers: a world near the pool's threshold.
func BenchmarkPileWorkers(b *testing.B) {
	snap := awakePile(b, 1000, false).Snapshot(nil)
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("pile=1000/workers=%d", n), func(b *testing.B) { benchWorkers(b, snap, n) })
	}
}

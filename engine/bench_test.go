package engine

import (
	"testing"
	"time"
)

// BenchmarkTimestepAdvance is one frame of the pure core at 60 TPS under
// 144 Hz frames.
func BenchmarkTimestepAdvance(b *testing.B) {
	ts := mustTimestep(b, Config{TPS: 60})
	b.ReportAllocs()
	for b.Loop() {
		ts.Advance(6_944_444)
	}
}

// BenchmarkLoopFrame is one frame of the loop shell with a no-op game on a
// simulated clock: poll, begin, updates, draw, present, stats, end.
func BenchmarkLoopFrame(b *testing.B) {
	l, err := NewLoop(Config{TPS: 60}, NewSim(ConstantFrames(16_666_667*time.Nanosecond)), nopGame{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := l.frame(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoopFrameProfiled is LoopFrame with pprof labels, trace regions
// (not tracing) and runtime metrics on, as the demo runs under -cpuprofile.
func BenchmarkLoopFrameProfiled(b *testing.B) {
	l, err := NewLoop(Config{TPS: 60, ProfilePhases: true, RuntimeStats: true},
		NewSim(ConstantFrames(16_666_667*time.Nanosecond)), nopGame{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := l.frame(); err != nil {
			b.Fatal(err)
		}
	}
}

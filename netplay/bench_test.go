package netplay

import (
	"testing"
	"time"
)

// BenchmarkFrame is one peer's frame over a perfect link, two players:
// poll, acks, one tick, a datagram out. ns/op is per peer frame.
func BenchmarkFrame(b *testing.B) {
	w := newWorld(b, worldOpts{seed: 1})
	w.run(2 * time.Second)
	b.ReportAllocs()
	for b.Loop() {
		w.step()
	}
	w.noErrors(b)
}

// BenchmarkFrameBadLink is one peer's frame of three players over
// latency=40ms,jitter=10ms,loss=0.05,dup=0.02,reorder=0.02: rollbacks on
// most frames, resends, duplicates. It reports the rollbacks per frame.
func BenchmarkFrameBadLink(b *testing.B) {
	w := newWorld(b, worldOpts{players: 3, sim: badLink, seed: 1, jitter: true})
	w.run(2 * time.Second)
	r0, t0 := w.nodes[0].s.stats.Rollbacks, w.nodes[0].s.stats.RollbackTicks
	b.ReportAllocs()
	frames := 0
	for b.Loop() {
		w.step()
		frames++
	}
	w.noErrors(b)
	st := w.nodes[0].s.stats
	b.ReportMetric(float64(st.Rollbacks-r0)*3/float64(frames), "rollbacks/frame")
	b.ReportMetric(float64(st.RollbackTicks-t0)*3/float64(frames), "reruns/frame")
}

// BenchmarkRollback is one rollback of MaxPrediction (8) ticks: load, and
// eight ticks of deciding inputs, saving and updating. The test game's
// update and save are a few ns, so this is the session's own cost.
func BenchmarkRollback(b *testing.B) {
	w := newWorld(b, worldOpts{seed: 1})
	w.run(2 * time.Second)
	s := w.nodes[0].s
	tick := tick0(b)
	b.ReportAllocs()
	for b.Loop() {
		s.firstWrong = s.tick - DefaultMaxPrediction
		if err := s.rerun(tick); err != nil {
			b.Fatal(err)
		}
	}
}

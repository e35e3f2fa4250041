package engine

import (
	"math/rand/v2"
	"testing"
	"time"
)

// jittered60 returns n frame times of a 60 Hz display whose timestamps
// jitter uniformly by ±1 ms: frame k is stamped at k/60 s + j_k.
func jittered60(n int, seed uint64) []time.Duration {
	r := rand.New(rand.NewPCG(seed, 1))
	out := make([]time.Duration, n)
	prev := time.Duration(0)
	for k := 1; k <= n; k++ {
		t := time.Duration(int64(k)*int64(time.Second)/60) + time.Duration(r.Int64N(2_000_001)-1_000_000)
		out[k-1] = t - prev
		prev = t
	}
	return out
}

func TestSnapperRemovesBeat(t *testing.T) {
	frames := jittered60(6000, 7)

	// Unsnapped, jitter makes frames alternate 0 and 2 ticks.
	ts := mustTimestep(t, Config{TPS: 60})
	var beats int
	for _, d := range frames {
		if n := ts.Advance(d).Ticks; n != 1 {
			beats++
		}
	}
	if beats < 1000 {
		t.Fatalf("unsnapped: only %d of 6000 frames ran other than 1 tick; the test clock is too tame", beats)
	}

	// Snapped to the measured period (here exactly 1/60 s), every frame
	// runs exactly one tick.
	ts = mustTimestep(t, Config{TPS: 60})
	var s Snapper
	s.SetPeriod(time.Second, 60)
	var raw, fed time.Duration
	for i, d := range frames {
		out := s.Snap(d)
		raw += d
		fed += out
		if n := ts.Advance(out).Ticks; n != 1 {
			t.Fatalf("snapped frame %d (raw %v, fed %v): %d ticks, want 1", i+1, d, out, n)
		}
		if diff := abs(raw - fed); diff > s.total/4 {
			t.Fatalf("frame %d: fed time strays %v from real time", i+1, diff)
		}
	}
	if s.Snapped() != 6000 {
		t.Errorf("snapped %d frames, want 6000", s.Snapped())
	}
}

func TestSnapperPassesMissedFramesAndStalls(t *testing.T) {
	var s Snapper
	s.SetPeriod(time.Second, 60)
	// A missed vblank: 33.4 ms snaps to two periods.
	if got := s.Snap(33_400_000); got != 33_333_334 {
		t.Errorf("33.4ms snapped to %v, want 33.333334ms", got)
	}
	// A stall far from any multiple passes through, with the carry.
	got := s.Snap(100_000_000 + 8_000_000)
	if got != 108_000_000+66_666 {
		t.Errorf("108ms passed as %v, want 108.066666ms (carry included)", got)
	}
	// No period: unchanged.
	var z Snapper
	if got := z.Snap(12345); got != 12345 {
		t.Errorf("zero snapper changed 12345 to %v", got)
	}
}

func TestSnapperKeepsFractionalPeriodExact(t *testing.T) {
	// A 59.94 Hz display measured as 1001 s over 60000 frames: after 60000
	// snapped frames exactly 1001 s was fed.
	var s Snapper
	s.SetPeriod(1001*time.Second, 60000)
	var fed time.Duration
	for range 60000 {
		fed += s.Snap(16_683_333)
	}
	if fed != 1001*time.Second {
		t.Errorf("fed %v, want exactly 1001s", fed)
	}
}

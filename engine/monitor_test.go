package engine

import (
	"math"
	"testing"
	"time"
)

func TestMonitorFPS(t *testing.T) {
	m, _ := NewMonitor(Config{})
	// One second at 100 fps: the first second initialises the average.
	for range 100 {
		m.Observe(10*time.Millisecond, time.Millisecond, 1)
	}
	if m.FPS() != 100 {
		t.Fatalf("fps after 1 s at 100 fps = %v, want 100", m.FPS())
	}
	// Then 50 fps: 0.25·50 + 0.75·100 = 87.5, then 0.25·50 + 0.75·87.5.
	want := []float64{87.5, 78.125, 71.09375}
	for i, w := range want {
		for range 50 {
			m.Observe(20*time.Millisecond, time.Millisecond, 1)
		}
		if m.FPS() != w {
			t.Errorf("second %d at 50 fps: fps = %v, want %v", i+2, m.FPS(), w)
		}
	}
	// A 3 s stall closes three seconds: 1 frame, then 0, then 0.
	m.Observe(3*time.Second, time.Millisecond, 15)
	w := 0.25*1 + 0.75*want[2]
	w = 0.75 * w
	w = 0.75 * w
	if math.Abs(m.FPS()-w) > 1e-12 {
		t.Errorf("after a 3 s stall: fps = %v, want %v", m.FPS(), w)
	}
}

func TestMonitorWorkEMAIsRateIndependent(t *testing.T) {
	// Half a second (one time constant) after a step from 1 ms to 3 ms of
	// work, the average has moved 1-1/e of the way, at 30 fps and at 240 fps.
	for _, fps := range []int{30, 240} {
		m, _ := NewMonitor(Config{})
		iv := time.Second / time.Duration(fps)
		for range fps {
			m.Observe(iv, time.Millisecond, 1)
		}
		for range fps / 2 {
			m.Observe(iv, 3*time.Millisecond, 1)
		}
		want := 1 + 2*(1-math.Exp(-1)) // ms
		got := float64(m.Work()) / 1e6
		if math.Abs(got-want) > 0.01 {
			t.Errorf("%d fps: work EMA %.4f ms, want %.4f ms", fps, got, want)
		}
	}
}

func TestMonitorPercentilesAndHistogram(t *testing.T) {
	m, _ := NewMonitor(Config{})
	// 200 frames of 4 ms, 50 of 8 ms, 6 of 40 ms: 256 frames, 1.24 s.
	for range 200 {
		m.Observe(4*time.Millisecond, 0, 0)
	}
	for range 50 {
		m.Observe(8*time.Millisecond, 0, 1)
	}
	for range 6 {
		m.Observe(40*time.Millisecond, 0, 3)
	}
	var s Stats
	m.fill(&s)
	// Percentiles were taken when the first second closed, at frame 250
	// (200·4 ms + 50·8 ms = 1.2 s): p50 4 ms, p95 (rank 238) 8 ms, p99 8 ms.
	if s.FrameP50 != 4*time.Millisecond || s.FrameP95 != 8*time.Millisecond || s.FrameP99 != 8*time.Millisecond {
		t.Errorf("percentiles %v %v %v, want 4ms 8ms 8ms", s.FrameP50, s.FrameP95, s.FrameP99)
	}
	if s.TicksPerFrame[0] != 200 || s.TicksPerFrame[1] != 50 || s.TicksPerFrame[3] != 6 {
		t.Errorf("ticks histogram %v", s.TicksPerFrame[:4])
	}
	// Another 0.8 s of 40 ms frames: the window now holds 26 of them.
	for range 20 {
		m.Observe(40*time.Millisecond, 0, 99)
	}
	m.fill(&s)
	if s.FrameP50 != 4*time.Millisecond || s.FrameP95 != 40*time.Millisecond || s.FrameP99 != 40*time.Millisecond {
		t.Errorf("percentiles %v %v %v, want 4ms 40ms 40ms", s.FrameP50, s.FrameP95, s.FrameP99)
	}
	if s.TicksPerFrame[TickBuckets-1] != 20 {
		t.Errorf("overflow bucket %d, want 20", s.TicksPerFrame[TickBuckets-1])
	}
}

// TestRunFigures scripts a run with known frame times: 600 frames of 16 ms,
// then 100 of 50 ms (a load), then 300 of 10 ms. The run's figures cover
// all of it; the last-second ones only the end.
func TestRunFigures(t *testing.T) {
	m, _ := NewMonitor(Config{})
	feed := func(n int, d time.Duration) {
		for range n {
			m.Observe(d, d/2, 1)
		}
	}
	feed(600, 16*time.Millisecond)
	feed(100, 50*time.Millisecond)
	feed(300, 10*time.Millisecond)
	// 1,000 frames in 9.6 + 5 + 3 = 17.6 s.
	if fps := m.RunFPS(); math.Abs(fps-1000/17.6) > 1e-9 {
		t.Errorf("RunFPS = %v, want %v", fps, 1000/17.6)
	}
	p50, p99 := m.RunPercentiles()
	if p50 != 16*time.Millisecond || p99 != 50*time.Millisecond {
		t.Errorf("run p50 %v p99 %v, want 16ms and 50ms", p50, p99)
	}
	// Stats carries both: the run's, and the recent average, which the
	// fast end has pulled above the run's.
	var s Stats
	m.fill(&s)
	if s.RunFPS != m.RunFPS() || s.RunP50 != 16*time.Millisecond || s.FPS < 60 || s.FPS <= s.RunFPS {
		t.Errorf("stats run fps %v p50 %v, last fps %v; want %v, 16ms and the last above the run's", s.RunFPS, s.RunP50, s.FPS, m.RunFPS())
	}
	// Past 100 ms the buckets are 1 % wide.
	m2, _ := NewMonitor(Config{})
	for range 10 {
		m2.Observe(400*time.Millisecond, 0, 1)
	}
	if _, p99 := m2.RunPercentiles(); p99 > 400*time.Millisecond || p99 < 396*time.Millisecond {
		t.Errorf("p99 of 400 ms frames = %v, want within 1 %% below", p99)
	}
}

// TestHugeFrameCostsOneFrame: a frame of two hundred years (a SIGSTOP, a
// laptop lid) closes its seconds at once: the FPS average decays to 0
// and the next second's frames count as usual. Walking its seconds one by
// one would not finish.
func TestHugeFrameCostsOneFrame(t *testing.T) {
	m, _ := NewMonitor(Config{FPSDecay: 0.5})
	for range 120 {
		m.Observe(time.Second/60, time.Millisecond, 1)
	}
	if m.FPS() < 59 || m.FPS() > 61 {
		t.Fatalf("FPS %v, want about 60", m.FPS())
	}
	m.Observe(200*365*24*time.Hour, time.Millisecond, 1)
	if m.FPS() != 0 {
		t.Errorf("FPS after two hundred years %v, want 0", m.FPS())
	}
	m.Observe(3*time.Second, time.Millisecond, 1) // three seconds: 1 frame, then none, none
	if want := 0.5 * 1 * 0.25; m.FPS() != want {
		t.Errorf("FPS %v, want %v", m.FPS(), want)
	}
}

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

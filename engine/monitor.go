package engine

import (
	"math"
	"slices"
	"time"
)

// WindowFrames is how many recent frame intervals the percentiles cover.
const WindowFrames = 256

// TickBuckets is the size of Stats.TicksPerFrame: frames that ran 0, 1, ...
// TickBuckets-2 ticks, and a last bucket for TickBuckets-1 or more.
const TickBuckets = 17

// Monitor measures frame rate and frame cost: an FPS average updated once
// per real second, a frame-rate-independent average of work time, frame
// interval percentiles over the last WindowFrames frames, and a histogram of
// ticks per frame. Like Timestep it is a pure value fed with numbers; Loop
// owns one. Make it with NewMonitor.
type Monitor struct {
	decay float64
	tau   float64 // ns

	second time.Duration // real time into the current second
	frames int           // frames that ended in the current second
	fps    float64
	fpsSet bool
	fpsAt  time.Duration // real time of the last FPS update
	total  time.Duration // real time observed

	work    float64 // EMA of work time, ns
	workSet bool

	ring  [WindowFrames]time.Duration
	count int // frames in ring, up to WindowFrames
	next  int
	p     [3]time.Duration // p50, p95, p99 as of the last second
	hist  [TickBuckets]uint64
}

// NewMonitor returns a Monitor with cfg's FPSDecay and WorkTau.
func NewMonitor(cfg Config) (Monitor, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return Monitor{}, err
	}
	return Monitor{decay: c.FPSDecay, tau: float64(c.WorkTau)}, nil
}

// Observe records one frame: the real interval since the previous frame,
// the work time of this frame (begin to before present), and the ticks it
// ran.
func (m *Monitor) Observe(interval, work time.Duration, ticks int) {
	if interval < 0 {
		interval = 0
	}
	m.hist[min(max(ticks, 0), TickBuckets-1)]++

	// Work-time EMA with a weight that depends on how long the frame lasted,
	// so it converges in the same wall time at 30 or 240 fps.
	if !m.workSet {
		m.work, m.workSet = float64(work), true
	} else {
		a := 1 - math.Exp(-float64(interval)/m.tau)
		m.work += a * (float64(work) - m.work)
	}

	m.ring[m.next] = interval
	m.next = (m.next + 1) % WindowFrames
	m.count = min(m.count+1, WindowFrames)

	// The FPS average moves once per real second. A frame that spans
	// several seconds closes them all; the later ones saw no frame.
	m.frames++
	m.total += interval
	m.second += interval
	for m.second >= time.Second {
		m.second -= time.Second
		if !m.fpsSet {
			m.fps, m.fpsSet = float64(m.frames), true
		} else {
			m.fps = m.decay*float64(m.frames) + (1-m.decay)*m.fps
		}
		m.frames = 0
		m.fpsAt = m.total - m.second
		m.percentiles()
	}
}

// percentiles refreshes p50/p95/p99 from the ring. It runs once a second so
// the sort costs nothing per frame; it does not allocate.
func (m *Monitor) percentiles() {
	var buf [WindowFrames]time.Duration
	s := buf[:m.count]
	copy(s, m.ring[:m.count])
	slices.Sort(s)
	for i, q := range [3]float64{0.50, 0.95, 0.99} {
		// Nearest rank: the smallest value with at least q of the window at
		// or below it.
		r := int(math.Ceil(q*float64(len(s)))) - 1
		m.p[i] = s[max(r, 0)]
	}
}

// FPS returns the frame-rate average, 0 before the first full second.
func (m *Monitor) FPS() float64 { return m.fps }

// Work returns the average frame work time.
func (m *Monitor) Work() time.Duration { return time.Duration(m.work) }

// fill copies the monitor's figures into s.
func (m *Monitor) fill(s *Stats) {
	s.FPS = m.fps
	s.Work = time.Duration(m.work)
	s.FrameP50, s.FrameP95, s.FrameP99 = m.p[0], m.p[1], m.p[2]
	s.TicksPerFrame = m.hist
}

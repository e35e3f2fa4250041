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
// interval percentiles over the last WindowFrames frames and over the whole
// run, and a histogram of ticks per frame. Like Timestep it is a pure value fed with numbers; Loop
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

	run  runHistogram
	runP [2]time.Duration // the run's p50 and p99 as of the last second
	n    uint64           // frames observed
}

// The whole run's frame intervals, in a histogram that never grows: 10 µs
// buckets up to 100 ms (exact for intervals in whole 10 µs), then buckets
// 1 % wide up to about 100 s, then one for anything longer.
const (
	runFine     = 10 * time.Microsecond
	runFineN    = int(100 * time.Millisecond / runFine)
	runCoarseN  = 700
	runBuckets  = runFineN + runCoarseN + 1
	runLogRatio = 0.01
)

type runHistogram [runBuckets]uint32

func runBucket(d time.Duration) int {
	if d < 100*time.Millisecond {
		return int(d / runFine)
	}
	k := int(math.Log(float64(d)/float64(100*time.Millisecond)) / math.Log1p(runLogRatio))
	return runFineN + min(k, runCoarseN)
}

// runLower returns the lower edge of bucket i.
func runLower(i int) time.Duration {
	if i < runFineN {
		return time.Duration(i) * runFine
	}
	return time.Duration(float64(100*time.Millisecond) * math.Pow(1+runLogRatio, float64(i-runFineN)))
}

// quantile returns the nearest-rank q quantile of n observations: the lower
// edge of the bucket that holds it.
func (h *runHistogram) quantile(q float64, n uint64) time.Duration {
	rank := uint64(math.Ceil(q * float64(n)))
	var seen uint64
	for i, c := range h {
		seen += uint64(c)
		if seen >= max(rank, 1) {
			return runLower(i)
		}
	}
	return 0
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
		m.work += float64(a * (float64(work) - m.work)) // rounded: no build fuses it
	}

	m.ring[m.next] = interval
	m.next = (m.next + 1) % WindowFrames
	m.count = min(m.count+1, WindowFrames)
	if b := &m.run[runBucket(interval)]; *b < math.MaxUint32 {
		*b++
	}
	m.n++

	// The FPS average moves once per real second. A frame that spans
	// several seconds closes them all; the later ones saw no frame, so the
	// average decays by (1-decay) for each: in constant time, however long
	// the frame (a SIGSTOP of days is one frame).
	m.frames++
	m.total += interval
	m.second += interval
	if m.second < time.Second {
		return
	}
	closed := m.second / time.Second
	m.second -= closed * time.Second
	if !m.fpsSet {
		m.fps, m.fpsSet = float64(m.frames), true
	} else {
		m.fps = float64(m.decay*float64(m.frames)) + float64((1-m.decay)*m.fps)
	}
	if closed > 1 {
		m.fps *= math.Pow(1-m.decay, float64(closed-1))
	}
	m.frames = 0
	m.fpsAt = m.total - m.second
	m.percentiles()
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
	m.runP = [2]time.Duration{m.run.quantile(0.50, m.n), m.run.quantile(0.99, m.n)}
}

// RunFPS returns the run's frame rate: frames over the real time they
// took.
func (m *Monitor) RunFPS() float64 {
	if m.total <= 0 {
		return 0
	}
	return float64(m.n) / m.total.Seconds()
}

// RunPercentiles returns the whole run's median and 99th percentile frame
// interval, to 10 µs under 100 ms and 1 % above. It walks the histogram:
// call it at the end of a run, not every frame (Stats carries the figures
// as of the last second).
func (m *Monitor) RunPercentiles() (p50, p99 time.Duration) {
	return m.run.quantile(0.50, m.n), m.run.quantile(0.99, m.n)
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
	s.RunFPS = m.RunFPS()
	s.RunP50, s.RunP99 = m.runP[0], m.runP[1]
}

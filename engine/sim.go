package engine

import (
	"math/rand/v2"
	"time"
)

// Frames is a source of frame intervals for a simulated clock.
type Frames interface {
	// Next returns the next frame interval, or false when the script ends.
	Next() (time.Duration, bool)
}

// ConstantFrames is an endless series of equal frame intervals.
type ConstantFrames time.Duration

// Next returns the interval.
func (c ConstantFrames) Next() (time.Duration, bool) { return time.Duration(c), true }

// ScriptFrames plays a fixed list of frame intervals once.
type ScriptFrames struct {
	Intervals []time.Duration
	i         int
}

// Next returns the next interval of the list.
func (s *ScriptFrames) Next() (time.Duration, bool) {
	if s.i >= len(s.Intervals) {
		return 0, false
	}
	s.i++
	return s.Intervals[s.i-1], true
}

// JitterFrames is an endless series of seeded random intervals, uniform in
// [Min, Max]. The same seed gives the same series on every machine.
type JitterFrames struct {
	Min, Max time.Duration
	rng      *rand.PCG
}

// NewJitterFrames returns intervals uniform in [lo, hi] from seed.
func NewJitterFrames(seed uint64, lo, hi time.Duration) *JitterFrames {
	return &JitterFrames{Min: lo, Max: hi, rng: rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)}
}

// Next returns the next random interval.
func (j *JitterFrames) Next() (time.Duration, bool) {
	span := uint64(j.Max-j.Min) + 1
	return j.Min + time.Duration(j.rng.Uint64()%span), true
}

// Sim is a Platform on a simulated clock: each Present advances time by the
// next interval from Frames, and nothing sleeps, so a simulation runs as
// fast as the CPU allows and gives the same result on every machine. Poll
// returns ErrStopped when the script ends.
type Sim struct {
	frames Frames
	now    time.Duration
	ended  bool
}

// NewSim returns a simulated platform whose frames last as f says.
func NewSim(f Frames) *Sim { return &Sim{frames: f} }

// Now returns the simulated time.
func (s *Sim) Now() time.Duration { return s.now }

// Poll reports ErrStopped once the frame script has ended.
func (s *Sim) Poll() error {
	if s.ended {
		return ErrStopped
	}
	return nil
}

// Present advances the simulated clock by one frame interval.
func (s *Sim) Present() error {
	d, ok := s.frames.Next()
	if !ok {
		s.ended = true
		return nil
	}
	s.now += d
	return nil
}

package engine

import "time"

// Snapper removes the 0/2 beat of vsync'd frames. Under vsync every frame
// really lasts a whole number of display periods, but timestamps jitter by
// a millisecond or more (scheduling, compositors), so at 60 TPS on a 60 Hz
// display an unsnapped loop sees 16.2 ms then 17.1 ms and runs 0 ticks, then
// 2. The snapper replaces a frame time within Tolerance of a whole number of
// periods by exactly that many periods, and carries the difference into the
// next frame so that no time is lost: the sum of what it returns never
// strays from the sum of what it was given by more than the tolerance. This
// is the technique of Godot's delta smoothing and Tyler Glaiel's "How to
// make your game run at 60fps".
//
// The period is kept as an exact fraction (a total over a number of frames)
// because it must come from measured present timestamps: SDL reports the
// refresh rate as an integer, and 59.94 Hz is not 60.
//
// The zero Snapper passes frame times through unchanged.
type Snapper struct {
	total  time.Duration // period = total / frames
	frames int64
	// Tolerance is how far a frame time may be from a whole number of
	// periods and still snap. Zero means a quarter period.
	Tolerance time.Duration

	carry   time.Duration // real time given but not yet returned
	emitted int64         // whole periods returned since the last period change
	base    int64         // ns returned for them, ceil(emitted·total/frames)
	snapped uint64
}

// SetPeriod sets the display period to total/frames. Frames of 0 turns
// snapping off.
func (s *Snapper) SetPeriod(total time.Duration, frames int64) {
	if total == s.total && frames == s.frames {
		return
	}
	s.total, s.frames = total, frames
	s.emitted, s.base = 0, 0
}

// Snapped returns how many frame times were snapped so far.
func (s *Snapper) Snapped() uint64 { return s.snapped }

// Snap returns the frame time to feed the timestep for a measured frame
// time raw.
func (s *Snapper) Snap(raw time.Duration) time.Duration {
	if s.frames <= 0 || s.total <= 0 {
		return raw
	}
	x := raw + s.carry
	// k = round(x / period), with period = total/frames.
	k := (int64(x)*s.frames + int64(s.total)/2) / int64(s.total)
	tol := s.Tolerance
	if tol == 0 {
		tol = s.total / time.Duration(4*s.frames)
	}
	// Whole periods are returned as exact multiples of the fractional
	// period: the n-th period ends at ceil(n·total/frames) ns. Rounding up
	// keeps n periods at or past n ticks of the same length, so a display
	// that matches the tick rate runs exactly one tick per frame.
	next := int64(mulDivCeil(uint64(s.emitted+k), uint64(s.total), uint64(s.frames)))
	out := time.Duration(next - s.base)
	if k < 1 || abs(x-out) > tol {
		s.carry = 0
		return x
	}
	s.emitted += k
	s.base = next
	s.carry = x - out
	s.snapped++
	return out
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

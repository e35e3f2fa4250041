package physics

import (
	"errors"
	"fmt"
)

// MaxMassRatio bounds how many times heavier than the lightest dynamic
// body of a world its heaviest may be: Add refuses a dynamic body whose
// mass would take the world beyond it, with an error wrapping
// ErrMassRatio that names both masses and their ratio. Static and
// kinematic bodies, of infinite mass, do not count.
//
// The solver holds a heavy body up on a light one within it (measured on
// unit boxes under a gravity of 9.8 at 60 ticks a second, after two to
// five seconds; BENCHMARKS.md has the table): at 100 to 1 the heavy box
// sinks into the light one by at most 0.020 units upright (FixedRotation)
// and 0.008 turning, 2 % and 0.8 % of its size, on the ground or on a
// pile. Beyond it the light body gives way: at 1,000 to 1 the overlap
// reaches 0.47 upright and 0.08 turning, at 3,000 to 1 the heavy box
// sinks in whole, and at 10,000 to 1 the two swap places (turning, on a
// pile, the heavy box falls through the pile and the ground under it). A
// contact's depth grows with the load over the lighter body's mass, so a
// smaller ratio sinks less.
const MaxMassRatio = 100

// ErrMassRatio is what Add's error wraps when a dynamic body's mass would
// take the world's heaviest dynamic body beyond MaxMassRatio times its
// lightest: check it with errors.Is.
var ErrMassRatio = errors.New("physics: mass ratio beyond MaxMassRatio")

// checkMassRatio reports whether a dynamic body of mass m may join the
// world, and if so, takes its mass into the world's bounds. Those bounds,
// lightest and heaviest, hold every live dynamic body's mass but may be
// wider than the world's (Remove leaves them as they are, in constant
// time); when they refuse m, or Restore has replaced the bodies, the
// bodies are counted again, so an Add costs a pass over the moving
// bodies only near the limit or after a Restore.
func (w *World) checkMassRatio(m float64) error {
	if !w.massesKnown || !withinRatio(m, w.lightest, w.heaviest) {
		w.countMasses()
	}
	lo, hi := w.lightest, w.heaviest
	switch {
	case lo > 0 && float64(maxRatio*lo) < m:
		return fmt.Errorf("%w: mass %v is %v times the lightest dynamic body's mass %v: want at most %d times",
			ErrMassRatio, m, m/lo, lo, MaxMassRatio)
	case hi > 0 && float64(maxRatio*m) < hi:
		return fmt.Errorf("%w: mass %v is 1/%v of the heaviest dynamic body's mass %v: want at least 1/%d of it",
			ErrMassRatio, m, hi/m, hi, MaxMassRatio)
	}
	if lo == 0 || m < lo {
		w.lightest = m
	}
	if m > hi {
		w.heaviest = m
	}
	return nil
}

// withinRatio reports whether m is within MaxMassRatio of lo and hi, the
// masses' bounds (zero when the world has no dynamic body).
func withinRatio(m, lo, hi float64) bool {
	return (lo == 0 || float64(maxRatio*lo) >= m) && float64(maxRatio*m) >= hi
}

// maxRatio is MaxMassRatio and a billionth, so that masses written in
// decimal exactly MaxMassRatio apart (1e-4 and 1e-6) are let in whatever
// their rounding.
const maxRatio = MaxMassRatio * (1 + 1e-9)

// countMasses sets the bounds to the lightest and heaviest live dynamic
// body's mass (zero without one).
func (w *World) countMasses() {
	w.lightest, w.heaviest = 0, 0
	for _, i := range w.movers {
		b := &w.bodies[i]
		if b.Kind != Dynamic || b.removed {
			continue
		}
		m := cmpOr(b.Mass, 1)
		if w.lightest == 0 || m < w.lightest {
			w.lightest = m
		}
		w.heaviest = max(w.heaviest, m)
	}
	w.massesKnown = true
}

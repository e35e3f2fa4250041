//go:build cgo

package gfx

import (
	"slices"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/veandco/go-sdl2/sdl"
)

const (
	// probeFrames is how many presents setupVsync times.
	probeFrames = 8
	// occludedAfter is how many consecutive presents far longer than the
	// period (a compositor throttling a covered window) make the window
	// Occluded.
	occludedAfter = 5
	// periodWindow is how many vsync'd presents each refresh of the
	// measured period averages.
	periodWindow = 120
)

// setupVsync asks for the configured swap interval, reads back what the
// driver set, and times a few presents to learn whether they really wait
// for the display: some drivers (and Xvfb) accept the interval and never
// block. When they do not, the window paces frames itself.
func (w *Window) setupVsync() {
	v := &w.vsync
	v.Requested = w.cfg.Vsync
	if idx, err := w.win.GetDisplayIndex(); err == nil {
		if m, err := sdl.GetCurrentDisplayMode(idx); err == nil {
			v.Refresh = int(m.RefreshRate)
		}
	}
	switch w.cfg.Vsync {
	case VsyncAdaptive:
		if sdl.GLSetSwapInterval(-1) != nil {
			sdl.GLSetSwapInterval(1)
		}
	case VsyncOn:
		sdl.GLSetSwapInterval(1)
	case VsyncOff:
		sdl.GLSetSwapInterval(0)
	}
	v.Interval, _ = sdl.GLGetSwapInterval()

	refresh := time.Second / 60
	if v.Refresh > 0 {
		refresh = time.Second / time.Duration(v.Refresh)
	}
	// SDL's offscreen driver has no display to wait for: no need to time
	// its presents (it saves start-up time).
	if v.Interval != 0 && w.driver != "offscreen" {
		var d [probeFrames]time.Duration
		gl.ClearColor(0, 0, 0, 1)
		prev := w.clock.Now()
		n := 0
		for n < probeFrames {
			gl.Clear(gl.COLOR_BUFFER_BIT)
			w.win.GLSwap()
			now := w.clock.Now()
			d[n], prev = now-prev, now
			n++
			// Three swaps far shorter than a refresh period settle it:
			// presents do not block, and start-up need not wait longer.
			if n == 4 && max(d[1], d[2], d[3]) < refresh/4 {
				break
			}
		}
		s := d[1:n] // the first swap may include start-up work
		slices.Sort(s)
		med := s[len(s)/2]
		// Blocking presents take most of a refresh period (at 30..360 Hz).
		if med >= refresh/2 {
			v.Blocks = true
			v.Period = med
			w.presents = presentTracker{sum: med, frames: 1}
		}
	}
	w.configurePacing()
	w.log.Debug("gfx: vsync", "requested", v.Requested, "interval", v.Interval, "blocks", v.Blocks, "period", v.Period, "refresh", v.Refresh)
}

// configurePacing sets the pacer for the current state and vsync outcome.
func (w *Window) configurePacing() {
	switch {
	case w.policy() == Throttle:
		w.pacer.Period = time.Second / ThrottleFPS
	case w.vsync.Blocks, w.cfg.Unpaced:
		w.pacer.Period = 0
	case w.cfg.FPSCap > 0:
		w.pacer.Period = time.Duration(float64(time.Second) / w.cfg.FPSCap)
	case w.vsync.Refresh > 0:
		w.pacer.Period = time.Second / time.Duration(w.vsync.Refresh)
	default:
		w.pacer.Period = time.Second / 60
	}
	if !w.vsync.Blocks {
		w.vsync.Period = w.pacer.Period
	}
}

// Interrupt ends a pacing wait in Present within 20 ms: engine.Loop.Stop
// calls it from any goroutine. Part of engine.Interrupter.
func (w *Window) Interrupt() { w.pacer.Interrupt() }

// Present swaps the buffers: it blocks on vsync where the driver honours
// it, or waits for the pacer's deadline where it does not. It also measures
// the present interval, which refines the vsync period and detects
// occlusion. Part of engine.Platform.
func (w *Window) Present() error {
	w.win.GLSwap()
	if w.pacer.Period > 0 {
		// Some drivers defer the frame's work past a swap that shows nothing
		// (Mesa's llvmpipe under SDL's offscreen driver): flush it now, or
		// it runs after the pacing sleep, where the GPU timer counts the
		// sleep as GPU time and the quality governor drops for nothing.
		gl.Flush()
		w.pacer.Wait(&w.clock) // a pointer: boxing the clock value would allocate
	}
	now := w.clock.Now()
	if w.firstPresent.IsZero() {
		w.firstPresent = time.Now()
	}
	d := now - w.lastPresent
	first := w.lastPresent == 0
	w.lastPresent = now
	if !w.vsync.Blocks || first {
		return nil
	}
	if w.presents.observe(d) {
		w.updateState()
	}
	if w.presents.frames >= periodWindow {
		w.vsync.Period = w.presents.period()
	}
	return nil
}

// presentTracker classifies present intervals under blocking vsync: runs
// of single-period presents refine the period; a run of presents far longer
// than the period means a compositor has stopped showing the window.
type presentTracker struct {
	sum      time.Duration // single-period intervals seen, summed
	frames   int64
	longRun  int // consecutive presents over 4 periods
	occluded bool
}

func (p *presentTracker) period() time.Duration { return p.sum / time.Duration(p.frames) }

// observe records one present interval and reports whether the occluded
// verdict changed.
func (p *presentTracker) observe(d time.Duration) bool {
	per := p.period()
	was := p.occluded
	switch {
	case d > 4*per:
		p.longRun++
		if p.longRun >= occludedAfter {
			p.occluded = true
		}
	case d > per*3/4 && d < per*5/4:
		p.longRun = 0
		p.occluded = false
		p.sum += d
		p.frames++
	default:
		p.longRun = 0
	}
	return p.occluded != was
}

// VsyncPeriod returns the measured present interval as a total over a
// number of frames, for engine.Snapper; frames is 0 when presents do not
// block on vsync (nothing to snap to).
func (w *Window) VsyncPeriod() (total time.Duration, frames int64) {
	if !w.vsync.Blocks || w.policy() != Run {
		return 0, 0
	}
	return w.presents.sum, w.presents.frames
}

// FramePeriod returns the period frames are held to: the measured display
// period under a blocking vsync, else the pacing period (0 when unpaced).
// It is the quality governor's budget; part of engine.Paced.
func (w *Window) FramePeriod() time.Duration {
	if w.vsync.Blocks {
		return w.vsync.Period
	}
	return w.pacer.Period
}

// FirstPresent returns the wall-clock time the first frame was presented:
// with the process start, the start-up time.
func (w *Window) FirstPresent() time.Time { return w.firstPresent }

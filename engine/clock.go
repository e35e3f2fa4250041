package engine

import (
	"sync/atomic"
	"time"
)

// This file is the only place in the engine that reads the wall clock or
// sleeps: everything else is driven with numbers.

// Clock is a monotonic clock: the real one (MonoClock) or a scripted one.
type Clock interface {
	// Now returns the time since an arbitrary origin.
	Now() time.Duration
}

// MonoClock reads the operating system's monotonic clock. Its zero value is
// not ready: make it with NewMonoClock.
type MonoClock struct{ origin time.Time }

// NewMonoClock returns a clock whose origin is now.
func NewMonoClock() MonoClock { return MonoClock{origin: time.Now()} }

// Now returns the monotonic time since the clock was made.
func (c MonoClock) Now() time.Duration { return time.Since(c.origin) }

// DefaultSpin is the part of a Pacer's wait that it spins rather than sleeps.
const DefaultSpin = 500 * time.Microsecond

// Pacer holds frames to a fixed period with a deadline limiter: it sleeps
// most of the way to the next deadline and spins the last Spin, because the
// OS wakes sleepers late by up to a millisecond. Deadlines advance by the
// period, so pacing does not drift; a frame that misses its deadline by more
// than a period starts a new schedule instead of bursting to catch up.
type Pacer struct {
	// Period is the frame period. Zero or negative disables pacing.
	Period time.Duration
	// Spin is how long before the deadline the pacer stops sleeping and
	// spins. Zero means DefaultSpin; negative means never spin.
	Spin time.Duration

	next        time.Duration
	interrupted atomic.Bool // set by Interrupt, taken by Wait
}

// maxSleep is the longest a Pacer sleeps at once: an Interrupt ends a
// wait within it. (A select on a timer and a channel would wake at once,
// but it allocates now and then for its wait queue, and a frame must
// allocate nothing.)
const maxSleep = 20 * time.Millisecond

// Wait blocks until the next deadline on clock c and returns the time then,
// or returns within 20 ms of an Interrupt.
func (p *Pacer) Wait(c Clock) time.Duration {
	now := c.Now()
	if p.Period <= 0 {
		return now
	}
	if p.next == 0 || now-p.next > p.Period {
		p.next = now + p.Period
	}
	spin := p.Spin
	if spin == 0 {
		spin = DefaultSpin
	}
	for d := p.next - now - max(spin, 0); d > 0; d = p.next - c.Now() - max(spin, 0) {
		if p.interrupted.Swap(false) {
			p.next = 0 // a new schedule from the next wait
			return c.Now()
		}
		time.Sleep(min(d, maxSleep))
	}
	for now = c.Now(); now < p.next; now = c.Now() {
	}
	p.next += p.Period
	return now
}

// Interrupt ends a Wait in progress (within 20 ms), or the next one: a
// stop request must not wait out a long period (a frame-rate cap of
// 1 fps). It is safe to call from any goroutine.
func (p *Pacer) Interrupt() { p.interrupted.Store(true) }

// Headless is the server-mode Platform: no window, frames paced by a Pacer
// on the real clock. It never reports a quit; stop its Loop with Stop or a
// context.
type Headless struct {
	clock MonoClock
	pacer Pacer
}

// NewHeadless returns a headless platform paced at fps frames per second
// (zero means 60; a negative rate runs unpaced, as fast as the CPU allows).
func NewHeadless(fps float64) *Headless {
	h := &Headless{clock: NewMonoClock()}
	switch {
	case fps == 0:
		h.pacer.Period = time.Second / 60
	case fps > 0:
		h.pacer.Period = time.Duration(float64(time.Second) / fps)
	}
	return h
}

// Now returns monotonic time.
func (h *Headless) Now() time.Duration { return h.clock.Now() }

// Poll does nothing: a headless platform has no events.
func (h *Headless) Poll() error { return nil }

// FramePeriod returns the pacing period; part of Paced.
func (h *Headless) FramePeriod() time.Duration { return h.pacer.Period }

// Interrupt ends a pacing wait within 20 ms; part of Interrupter.
func (h *Headless) Interrupt() { h.pacer.Interrupt() }

// Present waits for the next frame deadline.
func (h *Headless) Present() error {
	h.pacer.Wait(&h.clock) // a pointer: boxing the clock value would allocate
	return nil
}

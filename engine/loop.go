package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// ErrStopped is returned by Loop.Run after Loop.Stop, after the platform
// reported a quit request (the window's close button), or when a hook
// returned it. It means a clean stop: check it with errors.Is.
var ErrStopped = errors.New("engine: stopped")

// Game is what a Loop runs. Update is called at the fixed tick rate: for any
// frame timing, Update is called exactly floor(gameTime/dt) times, each time
// with the same dt, and the tick numbers run 0, 1, 2, ... without gaps. Put
// all simulation there. Draw is called once per frame, after the frame's
// updates, with Frame.Alpha in [0, 1): draw each object at
// lerp(previous, current, Alpha) of its last two tick states.
//
// Both run on the goroutine that called Loop.Run: the main OS thread in a
// windowed game. An Update that returns an error ends Run with that error;
// returning ErrStopped stops the game cleanly.
type Game interface {
	Update(t Tick) error
	Draw(f Frame)
}

// Beginner is an optional Game hook: Begin runs once per frame before any
// update, after the platform has processed its events. Handle input and
// frame-level logic here. f.Ticks says how many updates will follow.
type Beginner interface {
	Begin(f Frame) error
}

// Ender is an optional Game hook: End runs once per frame after Present,
// with the stats of the frame that just ended (FPS, overruns, dropped time).
// s is owned by the Loop and valid until the next frame: copy what you keep.
type Ender interface {
	End(s *Stats) error
}

// UpdateFunc adapts a function to Game, for a game with nothing to draw
// (a server, a test) or a one-file program.
type UpdateFunc func(t Tick) error

// Update calls u(t).
func (u UpdateFunc) Update(t Tick) error { return u(t) }

// Draw does nothing.
func (UpdateFunc) Draw(Frame) {}

// Platform is what a Loop runs on: a window (gfx.Window), a paced headless
// clock (Headless) or a simulated one (Sim). Its methods are called on the
// goroutine that calls Loop.Run.
type Platform interface {
	// Now returns monotonic time since an arbitrary origin.
	Now() time.Duration
	// Poll processes pending events. It returns ErrStopped when the user
	// asked to quit.
	Poll() error
	// Present shows the drawn frame. It may block, for vsync or pacing.
	Present() error
}

// Suspender is an optional Platform interface for platforms that can be
// hidden. While Suspended is true, the Loop neither updates nor draws, and
// the time spent is not owed afterwards: restoring a minimized window causes
// no catch-up burst.
type Suspender interface {
	Suspended() bool
	// WaitEvent blocks until an event arrives or timeout passes, so a
	// suspended game does not burn a core.
	WaitEvent(timeout time.Duration)
}

// TickEnder is an optional Platform interface: EndTick is called after each
// Update. Input uses it to hand each press to exactly one update.
type TickEnder interface {
	EndTick()
}

// VsyncReporter is an optional Platform interface for platforms whose
// presents wait for the display. VsyncPeriod returns the measured display
// period as total/frames (frames 0 when presents do not block); the Loop
// then snaps frame times to whole periods with a Snapper before they reach
// the timestep, so 60 TPS on a 60 Hz display runs one tick every frame.
type VsyncReporter interface {
	VsyncPeriod() (total time.Duration, frames int64)
}

// Interrupter is an optional Platform interface: Interrupt ends a wait in
// Present soon (a Pacer's within 20 ms). Stop and StopWith call it, from
// any goroutine, so a stop never waits out a long pacing period.
type Interrupter interface {
	Interrupt()
}

// Paced is an optional Platform interface: FramePeriod returns the frame
// period the platform holds to (the display period under vsync, or its
// pacing period), 0 when it does not pace. It is the quality governor's
// frame budget; without it the governor makes no decisions.
type Paced interface {
	FramePeriod() time.Duration
}

// Disturber is an optional Platform interface: Disturbed reports, once,
// whether the platform disturbed the frames since the last call (the window
// changed state or size). The quality governor takes no evidence from such
// a frame nor from its WarmUp after it.
type Disturber interface {
	Disturbed() bool
}

// QualityChanger is an optional Game hook: QualityChanged runs once before
// the first frame with the starting level, so a game configures its
// quality in one place, then, before the next frame's Begin, whenever the
// governor moves to another level (0 is the lowest). Frame.Quality carries
// the level too.
type QualityChanger interface {
	QualityChanged(level int)
}

// SuspendChanger is an optional Game hook: SuspendChanged runs when the
// platform suspends the loop (the window was minimized: no updates, no
// draws, no time owed) and when it resumes. A game pauses its sound there.
type SuspendChanger interface {
	SuspendChanged(suspended bool)
}

// GPUTimer is an optional Game interface: GPUTime returns the GPU time of a
// recent frame (gfx.Renderer measures it with timer queries), or 0 where it
// cannot be measured. The governor counts the larger of CPU work and GPU
// time as the frame's cost.
type GPUTimer interface {
	GPUTime() time.Duration
}

// Stats is what a Loop knows about its run, refreshed every frame.
type Stats struct {
	// Frame is the last frame's decision.
	Frame Frame
	// Interval is the last frame's raw interval, before any snapping.
	Interval time.Duration
	// WorkTime is the last frame's work time, begin to before Present.
	WorkTime time.Duration
	// Snapped counts frame times snapped to whole vsync periods.
	Snapped uint64

	Frames   uint64        // frames run
	Ticks    uint64        // updates run
	Elapsed  time.Duration // real time fed to the timestep
	Sim      time.Duration // game time simulated
	Dropped  time.Duration // time discarded by the frame clamp, overruns and Resync
	Overruns uint64        // frames that hit MaxUpdatesPerFrame

	// FPS is the frame-rate average, updated once per real second:
	// fps = d·framesThisSecond + (1-d)·fps with d = Config.FPSDecay.
	// It is 0 until the first second has passed.
	FPS float64
	// Work is the average frame work time, time constant Config.WorkTau.
	Work time.Duration
	// FrameP50, FrameP95 and FrameP99 are percentiles of the frame interval
	// over the last WindowFrames frames, refreshed once per second.
	FrameP50, FrameP95, FrameP99 time.Duration
	// TicksPerFrame counts frames by the number of updates they ran.
	TicksPerFrame [TickBuckets]uint64
	// RunFPS is the whole run's frame rate: frames over the real time they
	// took. RunP50 and RunP99 are the whole run's frame interval
	// percentiles, refreshed once per second (Loop.RunPercentiles has them
	// up to the last frame). A stats line at exit reports these; FPS and
	// FrameP99 describe the last seconds only.
	RunFPS         float64
	RunP50, RunP99 time.Duration

	// Quality is the governor's level (0 is the lowest); QualityReason
	// why it last changed, QualityAt when (real time since start),
	// QualityChanges how many times it changed, and QualityUndone how many
	// rises a drop undid soon after (see Governor).
	Quality        int
	QualityReason  Reason
	QualityAt      time.Duration
	QualityChanges int
	QualityUndone  int
	// GPUTime is the last GPU time the game reported.
	GPUTime time.Duration

	// Runtime is what Go's runtime did, when Config.RuntimeStats is set.
	Runtime Runtime
}

// Loop drives a Game on a Platform: the thin shell around Timestep that owns
// the clock. Make it with NewLoop; its methods must be called from the
// goroutine that runs it, except Stop.
type Loop struct {
	ts  Timestep
	mon Monitor
	gov Governor

	plat    Platform
	game    Game
	begin   Beginner
	end     Ender
	tickEnd TickEnder
	susp    Suspender
	disturb Disturber
	vsync   VsyncReporter
	paced   Paced
	quality QualityChanger
	onSusp  SuspendChanger
	asleep  bool // suspended at the last frame
	gpu     GPUTimer
	snap    Snapper
	phases  *phases        // nil unless Config.ProfilePhases
	runtime *runtimeReader // nil unless Config.RuntimeStats

	stats   Stats
	last    time.Duration
	started bool
	stop    atomic.Bool
	stopMu  sync.Mutex
	stopErr error // why Stop was called, nil for ErrStopped

	sync *syncTest // nil unless SyncTest was called

	inputter Inputter                        // the game's Input, when Config.InputSize is set
	inSize   int                             // one player's input
	players  int                             // Config.Players
	inBuf    [MaxPlayers * MaxInputSize]byte // the tick's inputs
	tape     Tape                            // nil unless SetTape was called
	seatTape SeatTape                        // tape, when it decides the seats

	in   hook   // the code running, for PanicError
	tick uint64 // the tick running or next to run, for PanicError

	prevGC  uint64 // GC cycles at the last frame, for the steady count
	exclude bool   // leave this frame out of the steady count
	steady  steadyCount
}

// NewLoop returns a Loop that runs g on p with cfg, or an error naming the
// first invalid field of cfg.
func NewLoop(cfg Config, p Platform, g Game) (*Loop, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	// c is valid now, so none of these can fail.
	ts, _ := NewTimestep(c)
	mon, _ := NewMonitor(c)
	gov, _ := NewGovernor(c.Quality)
	l := &Loop{ts: ts, mon: mon, gov: gov, plat: p, game: g, inSize: c.InputSize, players: c.Players}
	if c.InputSize > 0 {
		var ok bool
		if l.inputter, ok = g.(Inputter); !ok {
			return nil, fmt.Errorf("engine: Config.InputSize = %d, but the game (%T) has no Input method (engine.Inputter)", c.InputSize, g)
		}
	}
	l.paced, _ = p.(Paced)
	l.quality, _ = g.(QualityChanger)
	l.onSusp, _ = g.(SuspendChanger)
	l.gpu, _ = g.(GPUTimer)
	if c.ProfilePhases {
		l.phases = newPhases()
	}
	if c.RuntimeStats {
		l.runtime = newRuntimeReader()
	}
	l.begin, _ = g.(Beginner)
	l.end, _ = g.(Ender)
	l.tickEnd, _ = p.(TickEnder)
	l.susp, _ = p.(Suspender)
	l.disturb, _ = p.(Disturber)
	l.vsync, _ = p.(VsyncReporter)
	return l, nil
}

// Run runs frames until Stop is called, the platform reports a quit, a hook
// returns an error or panics, or ctx is done. It returns ErrStopped for the
// first two (or StopWith's error), the hook's error, a *PanicError that
// carries the panic's value, stack, hook and tick, or ctx.Err(). A panic is
// recovered here, once, so the caller's deferred cleanup runs. Before the first frame it draws the initial
// state once (alpha 0, no update) and presents it. Frame intervals run from
// one frame's start to the next, so frame 1's interval spans that initial
// frame, where drivers compile shaders: a game that must not simulate its
// start-up time calls Timestep().Resync() in the first Begin.
//
// In a windowed game Run must be called from the main goroutine, which holds
// the main OS thread (go-sdl2 locks it in its init).
func (l *Loop) Run(ctx context.Context) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = l.recovered(v)
		}
		l.stopSteady()
	}()
	done := ctx.Done()
	if !l.started {
		// Frame 0 draws the initial state; frame intervals are measured
		// between frame starts, so frame 1's interval spans frame 0.
		l.started = true
		if l.quality != nil {
			l.in = inQuality
			l.quality.QualityChanged(l.gov.Level())
		}
		l.last = l.plat.Now()
		l.in = inDraw
		l.game.Draw(Frame{Extrapolate: l.ts.extrap, num: l.ts.num, den: l.ts.den})
		l.in = inPlatform
		if err := l.plat.Present(); err != nil {
			return err
		}
	}
	for {
		if l.stop.Load() {
			l.stopMu.Lock()
			defer l.stopMu.Unlock()
			if l.stopErr != nil {
				return l.stopErr
			}
			return ErrStopped
		}
		select {
		case <-done:
			return ctx.Err()
		default:
		}
		if err := l.frame(); err != nil {
			return err
		}
	}
}

// Stop makes Run return ErrStopped between two frames, ending a pacing wait
// within 20 ms (Interrupter). It is safe to call from any goroutine and from the
// hooks.
func (l *Loop) Stop() {
	l.stop.Store(true)
	if i, ok := l.plat.(Interrupter); ok {
		i.Interrupt()
	}
}

// Timestep returns the loop's timestep, to pause, step, scale time or
// resync from the hooks.
func (l *Loop) Timestep() *Timestep { return &l.ts }

// Stats returns the loop's stats, refreshed after every frame. The pointer
// stays valid; read it from the loop's goroutine only.
func (l *Loop) Stats() *Stats { return &l.stats }

// frame runs one frame: poll, begin, updates, draw, present, end.
func (l *Loop) frame() error {
	p := l.plat
	if err := p.Poll(); err != nil {
		return err
	}
	if l.susp != nil && l.susp.Suspended() {
		if !l.asleep && l.onSusp != nil {
			l.onSusp.SuspendChanged(true)
		}
		l.asleep = true
		l.susp.WaitEvent(100 * time.Millisecond)
		l.last = p.Now() // time spent hidden is not owed
		return nil
	}
	if l.asleep && l.onSusp != nil {
		l.onSusp.SuspendChanged(false)
	}
	l.asleep = false
	start := p.Now()
	interval := start - l.last
	l.last = start

	feed := interval
	if l.vsync != nil {
		l.snap.SetPeriod(l.vsync.VsyncPeriod())
		feed = l.snap.Snap(interval)
	}
	f := l.ts.Advance(feed)
	f.Quality = l.gov.Level()
	l.tick = f.FirstTick
	l.enter(PhaseBegin)
	if l.begin != nil {
		l.in = inBegin
		if err := l.begin.Begin(f); err != nil {
			return err
		}
	}
	l.enter(PhaseUpdate)
	l.in = inUpdate
	for i := range f.Ticks {
		l.tick = f.FirstTick + uint64(i)
		if err := l.update(f.Tick(i)); err != nil {
			return err
		}
		if l.tickEnd != nil {
			l.tickEnd.EndTick()
		}
	}
	l.tick = f.FirstTick + uint64(f.Ticks)
	l.enter(PhaseDraw)
	l.in = inDraw
	l.game.Draw(f)
	work := p.Now() - start
	l.enter(PhasePresent)
	l.in = inPlatform
	if err := p.Present(); err != nil {
		return err
	}
	l.enter(PhaseEnd)
	l.mon.Observe(interval, work, f.Ticks)
	l.fillStats(f, interval, work)
	if l.runtime != nil {
		l.runtime.read(&l.stats.Runtime)
		l.countSteady()
	}
	if l.govern(work) && l.quality != nil {
		// A change of quality is not the steady state: the game may
		// allocate for its new level.
		l.ExcludeFrame()
		l.in = inQuality
		l.quality.QualityChanged(l.gov.Level())
	}
	var err error
	if l.end != nil {
		l.in = inEnd
		err = l.end.End(&l.stats)
	}
	l.in = inPlatform
	if l.phases != nil {
		l.phases.done()
	}
	return err
}

// stopSteady ends the steady count's open stretch, as a run of frames
// ends: the count becomes exact.
func (l *Loop) stopSteady() {
	if l.runtime != nil {
		l.steady.stop()
		l.stats.Runtime.SteadyAllocs = l.steady.allocs()
	}
}

// countSteady adds the frame to the steady-state garbage count.
func (l *Loop) countSteady() {
	rt := &l.stats.Runtime
	gcs := rt.GCCycles - l.prevGC
	l.prevGC = rt.GCCycles
	c := &l.steady
	switch {
	case l.stats.Frames < SteadyAfter:
	case !c.open: // the warm-up's end, an excluded frame's or a Run's
		c.start()
	case !l.exclude:
		rt.SteadyFrames++
		rt.SteadyGCs += gcs
		c.approx += rt.FrameAllocs
	}
	rt.SteadyAllocs = c.allocs()
	l.exclude = false
}

// steadyCount counts the steady state's heap allocations exactly: by
// runtime.ReadMemStats (which stops the world) at the start and end of
// every stretch of counted frames, a few times a run, not every frame.
// runtime/metrics, which the loop reads each frame, counts late: an
// allocation is counted when its processor's cache next takes a span, so
// a frame can be charged with its predecessors' allocations, and tiny
// ones (under 16 bytes, no pointers) may not be counted by the end of the
// run at all. Between reads it gives a running estimate.
//
// The count is of the whole process: it includes what the runtime
// allocates for itself, such as the first wait of a goroutine started
// before the steady state that the scheduler ran late (a loaded machine).
type steadyCount struct {
	open   bool   // a stretch is being counted
	base   uint64 // runtime.MemStats.Mallocs at the stretch's start
	closed uint64 // the allocations of the stretches closed, exact
	approx uint64 // the open stretch's, from runtime/metrics
}

// mallocs returns the heap allocations since the program started,
// exactly.
func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

func (c *steadyCount) start() {
	// Twice: restarting the world after the first read may start an OS
	// thread for a waiting goroutine, and the runtime allocates for it.
	mallocs()
	c.open, c.base, c.approx = true, mallocs(), 0
}

// stop ends the open stretch, if any, taking its exact count.
func (c *steadyCount) stop() {
	if c.open {
		c.closed += mallocs() - c.base
		c.open, c.approx = false, 0
	}
}

// allocs returns the steady state's allocations so far: exact for the
// stretches closed, estimated for the open one.
func (c *steadyCount) allocs() uint64 { return c.closed + c.approx }

// ExcludeFrame leaves the frame being run out of the steady-state garbage
// count (Stats.Runtime.Steady*): call it from a hook of a frame that does
// one-off allocating work on purpose, such as saving a screenshot, before
// that work (what the frame allocated before the call is counted).
func (l *Loop) ExcludeFrame() {
	l.exclude = true
	if l.runtime != nil {
		l.steady.stop()
	}
}

// enter marks the start of a frame phase for profiles and traces.
func (l *Loop) enter(ph Phase) {
	if l.phases != nil {
		l.phases.enter(ph)
	}
}

// govern feeds the frame to the quality governor and reports whether the
// level changed.
func (l *Loop) govern(work time.Duration) bool {
	s := &l.stats
	var budget time.Duration
	if l.paced != nil {
		budget = l.paced.FramePeriod()
	}
	if l.gpu != nil {
		s.GPUTime = l.gpu.GPUTime()
	}
	changed := l.gov.Observe(Sample{
		Now: s.Elapsed, Budget: budget, Work: work, GPU: s.GPUTime,
		WorkAvg: s.Work, FPS: s.FPS, FPSAt: l.mon.fpsAt,
		Unsteady: l.disturb != nil && l.disturb.Disturbed(),
	})
	s.Quality = l.gov.Level()
	s.QualityReason, s.QualityAt = l.gov.Reason()
	s.QualityChanges = l.gov.Changes()
	s.QualityUndone = l.gov.Undone()
	return changed
}

// RunPercentiles returns the whole run's median and 99th percentile frame
// interval up to the last frame, for a report at exit.
func (l *Loop) RunPercentiles() (p50, p99 time.Duration) { return l.mon.RunPercentiles() }

// Governor returns the loop's quality governor, to pin the level
// (Governor.Pin) or read it.
func (l *Loop) Governor() *Governor { return &l.gov }

func (l *Loop) fillStats(f Frame, interval, work time.Duration) {
	s := &l.stats
	s.Frame = f
	s.Interval = interval
	s.WorkTime = work
	s.Snapped = l.snap.Snapped()
	t := l.ts.Totals()
	s.Frames, s.Ticks, s.Elapsed, s.Sim, s.Dropped, s.Overruns = t.Frames, t.Ticks, t.Elapsed, t.Sim, t.Dropped, t.Overruns
	l.mon.fill(s)
}

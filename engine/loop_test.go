package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// recorder is a Game that logs every hook call.
type recorder struct {
	log    []string
	stopAt uint64 // End returns ErrStopped after this many frames
}

func (r *recorder) Begin(f Frame) error {
	r.log = append(r.log, fmt.Sprintf("begin %d ticks=%d", f.Index, f.Ticks))
	return nil
}

func (r *recorder) Update(t Tick) error {
	r.log = append(r.log, fmt.Sprintf("update %d", t.N))
	return nil
}

func (r *recorder) Draw(f Frame) {
	r.log = append(r.log, fmt.Sprintf("draw %d alpha=%.2f", f.Index, f.Alpha))
}

func (r *recorder) End(s *Stats) error {
	r.log = append(r.log, fmt.Sprintf("end %d ticks=%d", s.Frames, s.Ticks))
	if s.Frames == r.stopAt {
		return ErrStopped
	}
	return nil
}

// tickPlatform wraps Sim and records EndTick calls into the game's log.
type tickPlatform struct {
	*Sim
	r *recorder
}

func (p tickPlatform) EndTick() { p.r.log = append(p.r.log, "endtick") }

func TestLoopHookOrder(t *testing.T) {
	r := &recorder{stopAt: 3}
	p := tickPlatform{NewSim(&ScriptFrames{Intervals: []time.Duration{
		25 * time.Millisecond, 5 * time.Millisecond, 30 * time.Millisecond, 10 * time.Millisecond,
	}}), r}
	l, err := NewLoop(Config{Tick: 20 * time.Millisecond}, p, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); !errors.Is(err, ErrStopped) {
		t.Fatalf("Run = %v, want ErrStopped", err)
	}
	want := strings.Join([]string{
		"draw 0 alpha=0.00", // the initial state, before any update
		"begin 1 ticks=1", "update 0", "endtick", "draw 1 alpha=0.25", "end 1 ticks=1",
		"begin 2 ticks=0", "draw 2 alpha=0.50", "end 2 ticks=1",
		"begin 3 ticks=2", "update 1", "endtick", "update 2", "endtick", "draw 3 alpha=0.00", "end 3 ticks=3",
	}, "\n")
	if got := strings.Join(r.log, "\n"); got != want {
		t.Errorf("hooks ran as\n%s\nwant\n%s", got, want)
	}
}

func TestLoopStops(t *testing.T) {
	// The script ends: Sim reports a quit, as a window's close button does.
	var n int
	count := UpdateFunc(func(Tick) error { n++; return nil })
	l, _ := NewLoop(Config{TPS: 100}, NewSim(&ScriptFrames{Intervals: make([]time.Duration, 5)}), count)
	if err := l.Run(context.Background()); !errors.Is(err, ErrStopped) {
		t.Errorf("end of script: Run = %v, want ErrStopped", err)
	}
	if got := l.Stats().Frames; got != 5 {
		t.Errorf("end of script: %d frames, want 5", got)
	}

	// Stop from a hook ends the loop between frames.
	var l2 *Loop
	stopper := UpdateFunc(func(tk Tick) error {
		if tk.N == 9 {
			l2.Stop()
		}
		return nil
	})
	l2, _ = NewLoop(Config{TPS: 100}, NewSim(ConstantFrames(10*time.Millisecond)), stopper)
	if err := l2.Run(context.Background()); !errors.Is(err, ErrStopped) {
		t.Errorf("Stop: Run = %v, want ErrStopped", err)
	}
	if got := l2.Stats().Ticks; got != 10 {
		t.Errorf("Stop at tick 9: %d ticks ran, want 10", got)
	}

	// Context cancellation.
	ctx, cancel := context.WithCancel(context.Background())
	canceller := UpdateFunc(func(tk Tick) error {
		if tk.N == 4 {
			cancel()
		}
		return nil
	})
	l3, _ := NewLoop(Config{TPS: 100}, NewSim(ConstantFrames(10*time.Millisecond)), canceller)
	if err := l3.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: Run = %v, want context.Canceled", err)
	}

	// An update error ends Run with that error.
	boom := errors.New("boom")
	failing := UpdateFunc(func(tk Tick) error { return boom })
	l4, _ := NewLoop(Config{}, NewSim(ConstantFrames(20*time.Millisecond)), failing)
	if err := l4.Run(context.Background()); !errors.Is(err, boom) {
		t.Errorf("failing update: Run = %v, want boom", err)
	}
}

// hidingSim is suspended for frames [from, to) of its polls.
type hidingSim struct {
	*Sim
	polls, from, to int
	waits           int
}

func (h *hidingSim) Poll() error     { h.polls++; return h.Sim.Poll() }
func (h *hidingSim) Suspended() bool { return h.polls >= h.from && h.polls < h.to }
func (h *hidingSim) WaitEvent(d time.Duration) {
	h.waits++
	h.now += 5 * time.Second // a long time hidden
}

func TestLoopSuspendedOwesNothing(t *testing.T) {
	p := &hidingSim{Sim: NewSim(ConstantFrames(10 * time.Millisecond)), from: 3, to: 6}
	var l *Loop
	g := UpdateFunc(func(Tick) error { return nil })
	l, _ = NewLoop(Config{Tick: 10 * time.Millisecond}, p, g)
	end := &stopAfter{l: l, n: 8}
	l.end = end
	l.Run(context.Background())
	if p.waits != 3 {
		t.Errorf("waited %d times, want 3", p.waits)
	}
	// Eight frames ran: the first after the restore measures from the
	// restore, not from before hiding, so it owes nothing and runs no tick.
	if got := l.Stats().Ticks; got != 7 {
		t.Errorf("%d ticks in 8 frames, want 7 (no burst after 15 s hidden)", got)
	}
	if l.Stats().Dropped != 0 {
		t.Errorf("dropped %v, want 0: hidden time is not owed at all", l.Stats().Dropped)
	}
}

type stopAfter struct {
	l *Loop
	n uint64
}

func (s *stopAfter) End(st *Stats) error {
	if st.Frames == s.n {
		s.l.Stop()
	}
	return nil
}

func TestNewLoopRejectsBadConfig(t *testing.T) {
	_, err := NewLoop(Config{TPS: -5}, NewSim(ConstantFrames(1)), UpdateFunc(nil))
	if err == nil || !strings.Contains(err.Error(), "Config.TPS = -5") {
		t.Errorf("NewLoop error = %v, want one naming Config.TPS", err)
	}
}

// nopGame is the cheapest possible game, for allocation and speed checks.
type nopGame struct{}

func (nopGame) Update(Tick) error  { return nil }
func (nopGame) Draw(Frame)         {}
func (nopGame) Begin(Frame) error  { return nil }
func (nopGame) End(s *Stats) error { return nil }

func TestLoopFrameAllocs(t *testing.T) {
	for _, cfg := range []Config{{}, {ProfilePhases: true, RuntimeStats: true}} {
		l, _ := NewLoop(cfg, NewSim(ConstantFrames(7*time.Millisecond)), nopGame{})
		for range 2000 { // warm up past the first seconds
			l.frame()
		}
		if n := testing.AllocsPerRun(1000, func() { l.frame() }); n != 0 {
			t.Errorf("%+v: a loop frame allocates %v times, want 0", cfg, n)
		}
		if l.phases != nil && l.Stats().Runtime.FrameAllocs != 0 {
			t.Errorf("runtime metrics report %d allocations in a frame", l.Stats().Runtime.FrameAllocs)
		}
	}
}

func TestHeadlessPaces(t *testing.T) {
	h := NewHeadless(200) // 5 ms frames
	l, _ := NewLoop(Config{Tick: 5 * time.Millisecond}, h, nopGame{})
	l.end = &stopAfter{l: l, n: 20}
	start := h.Now()
	l.Run(context.Background())
	// Pacing can only make frames later, never earlier: 21 presents of 5 ms
	// take at least 100 ms after the first.
	if got := h.Now() - start; got < 100*time.Millisecond {
		t.Errorf("20 paced frames took %v, want at least 100ms", got)
	}
}

// vsyncSim is a Sim whose presents report a 60 Hz period.
type vsyncSim struct{ *Sim }

func (vsyncSim) VsyncPeriod() (time.Duration, int64) { return time.Second, 60 }

func TestLoopSnapsToVsync(t *testing.T) {
	frames := jittered60(600, 3)
	l, _ := NewLoop(Config{TPS: 60}, vsyncSim{NewSim(&ScriptFrames{Intervals: frames})}, nopGame{})
	l.Run(context.Background())
	s := l.Stats()
	if s.Frames != 600 || s.TicksPerFrame[1] != 600 || s.Snapped != 600 {
		t.Errorf("%d frames, %d with one tick, %d snapped; want 600 each", s.Frames, s.TicksPerFrame[1], s.Snapped)
	}
}

// pacedSim is a simulated 60 Hz display whose frames take the work the game
// does in Draw, as a real one would.
type pacedSim struct{ *Sim }

func (pacedSim) FramePeriod() time.Duration { return time.Second / 60 }

// Present waits for the next vblank, as vsync does.
func (p pacedSim) Present() error {
	const period = int64(time.Second / 60)
	p.now = time.Duration((int64(p.now)/period + 1) * period)
	return nil
}

// heavy is a game whose Draw costs 2 ms per quality level plus a load.
type heavy struct {
	p      *pacedSim
	load   time.Duration
	levels []int // QualityChanged calls
	seen   int   // the quality the last frame carried
	l      *Loop
	stopAt uint64
}

func (h *heavy) Update(Tick) error { return nil }
func (h *heavy) Draw(f Frame) {
	h.seen = f.Quality
	h.p.now += h.load + time.Duration(f.Quality)*2*time.Millisecond
}
func (h *heavy) QualityChanged(level int) { h.levels = append(h.levels, level) }
func (h *heavy) End(s *Stats) error {
	if s.Frames == h.stopAt {
		return ErrStopped
	}
	return nil
}

func TestLoopRunsTheGovernor(t *testing.T) {
	p := &pacedSim{NewSim(nil)}
	h := &heavy{p: p, load: 10 * time.Millisecond, stopAt: 300}
	l, _ := NewLoop(Config{}, p, h)
	l.Run(context.Background())
	s := l.Stats()
	// QualityChanged runs first with the starting level. Level 4 costs
	// 18 ms, over the 16.7 ms budget; level 3 fits.
	if len(h.levels) != 2 || h.levels[0] != 4 || h.levels[1] != 3 || s.Quality != 3 || h.seen != 3 {
		t.Fatalf("QualityChanged %v, stats level %d, frame level %d; want the start at 4 and one change to 3", h.levels, s.Quality, h.seen)
	}
	if s.QualityReason != ReasonOverBudget || s.QualityChanges != 1 || s.QualityAt < time.Second {
		t.Errorf("reason %v at %v after %d changes", s.QualityReason, s.QualityAt, s.QualityChanges)
	}
	l.Governor().Pin(1)
	if l.Governor().Level() != 1 {
		t.Error("Pin(1) did not set the level")
	}
}

// TestHeadlessFrameAllocs runs real-clock headless frames, pacing included:
// the pacer must not allocate (it once boxed its clock every frame).
func TestHeadlessFrameAllocs(t *testing.T) {
	l, _ := NewLoop(Config{}, NewHeadless(20000), nopGame{})
	for range 100 {
		l.frame()
	}
	if n := testing.AllocsPerRun(200, func() { l.frame() }); n != 0 {
		t.Errorf("a headless frame allocates %v times, want 0", n)
	}
}

// sleepy records SuspendChanged calls.
type sleepy struct{ calls []bool }

func (s *sleepy) Update(Tick) error      { return nil }
func (s *sleepy) Draw(Frame)             {}
func (s *sleepy) SuspendChanged(on bool) { s.calls = append(s.calls, on) }

func TestLoopTellsTheGameOfSuspension(t *testing.T) {
	p := &hidingSim{Sim: NewSim(ConstantFrames(10 * time.Millisecond)), from: 3, to: 6}
	g := &sleepy{}
	l, _ := NewLoop(Config{Tick: 10 * time.Millisecond}, p, g)
	l.end = &stopAfter{l: l, n: 8}
	l.Run(context.Background())
	if len(g.calls) != 2 || !g.calls[0] || g.calls[1] {
		t.Errorf("SuspendChanged calls %v, want [true false]: once into the suspension, once out", g.calls)
	}
}

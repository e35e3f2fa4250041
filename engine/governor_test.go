package engine

import (
	"testing"
	"time"
)

// govTrace runs a governor at 60 Hz for the given time: each frame's work is
// work(t, level), fed through a Monitor for the averages, the way Loop does.
type govTrace struct {
	t     *testing.T
	g     Governor
	m     Monitor
	now   time.Duration
	log   []change
	frame int
}

type change struct {
	at    time.Duration
	level int
	why   Reason
}

const budget = time.Second / 60

func newTrace(t *testing.T) *govTrace {
	g, err := NewGovernor(GovernorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := NewMonitor(Config{})
	return &govTrace{t: t, g: g, m: m}
}

// run feeds frames for d; interval is the frame time (the budget unless the
// work is longer and nothing else paces).
func (tr *govTrace) run(d time.Duration, work func(now time.Duration, level int) time.Duration) {
	end := tr.now + d
	for tr.now < end {
		w := work(tr.now, tr.g.Level())
		interval := max(budget, w)
		tr.now += interval
		tr.m.Observe(interval, w, 1)
		var s Stats
		tr.m.fill(&s)
		if tr.g.Observe(Sample{Now: tr.now, Budget: budget, Work: w, WorkAvg: s.Work, FPS: s.FPS, FPSAt: tr.m.fpsAt}) {
			r, _ := tr.g.Reason()
			tr.log = append(tr.log, change{tr.now, tr.g.Level(), r})
		}
	}
}

// costs models a game whose frame costs 2 ms per quality level plus load.
func costs(load time.Duration) func(time.Duration, int) time.Duration {
	return func(_ time.Duration, level int) time.Duration {
		return load + time.Duration(level)*2*time.Millisecond
	}
}

func TestGovernorDropsFastOnALoadStep(t *testing.T) {
	tr := newTrace(t)
	tr.run(5*time.Second, costs(4*time.Millisecond)) // level 4: 12 ms, fits
	if len(tr.log) != 0 || tr.g.Level() != 4 {
		t.Fatalf("changes %v before the load; want none at level 4", tr.log)
	}
	step := tr.now
	tr.run(5*time.Second, costs(10*time.Millisecond)) // level 4: 18 ms, over; level 3: 16 ms, fits
	if len(tr.log) != 1 || tr.log[0].level != 3 || tr.log[0].why != ReasonOverBudget {
		t.Fatalf("changes %v, want one drop to 3 for being over budget", tr.log)
	}
	// Three frames over budget at 18 ms each.
	if d := tr.log[0].at - step; d > 3*18*time.Millisecond {
		t.Errorf("dropped %v after the load step, want within 3 frames (54ms)", d)
	}
}

func TestGovernorRisesSlowlyAfterTheLoad(t *testing.T) {
	tr := newTrace(t)
	tr.run(3*time.Second, costs(12*time.Millisecond)) // drops to 2
	if tr.g.Level() > 2 {
		t.Fatalf("level %d under load, want at most 2 (log %v)", tr.g.Level(), tr.log)
	}
	low, removed := tr.g.Level(), tr.now
	tr.log = nil
	tr.run(20*time.Second, costs(0))
	if tr.g.Level() != 4 {
		t.Fatalf("level %d after the load left, want 4 (log %v)", tr.g.Level(), tr.log)
	}
	if len(tr.log) != 4-low {
		t.Errorf("%d changes for %d levels: %v", len(tr.log), 4-low, tr.log)
	}
	for i, c := range tr.log {
		if c.why != ReasonHeadroom {
			t.Errorf("rise %d for %v", i, c.why)
		}
		// Each rise takes the headroom window (2 s, plus the time for the
		// work average to settle) and no more than 3 s.
		prev := removed
		if i > 0 {
			prev = tr.log[i-1].at
		}
		if gap := c.at - prev; gap < 2*time.Second || gap > 3*time.Second {
			t.Errorf("rise %d came %v after the previous event, want 2-3 s", i, gap)
		}
	}
}

func TestGovernorDoesNotOscillate(t *testing.T) {
	tr := newTrace(t)
	flip := func(now time.Duration, level int) time.Duration {
		if now/time.Second%2 == 1 {
			return costs(10*time.Millisecond)(now, level)
		}
		return costs(0)(now, level)
	}
	tr.run(60*time.Second, flip)
	// The load drops one level once; the second of quiet between loads is
	// never the 2 s of headroom a rise needs, so nothing else happens.
	if len(tr.log) != 1 || tr.log[0].level != 3 {
		t.Errorf("changes over a minute of a load flipping every second: %v; want one drop to 3", tr.log)
	}
}

func TestGovernorRisesUnderVsyncPinnedFPS(t *testing.T) {
	// Under vsync the frame rate is 60 whatever the work: only the work
	// time shows the room.
	tr := newTrace(t)
	tr.g.Pin(0)
	tr.g.Pin(-1)
	tr.run(20*time.Second, costs(time.Millisecond))
	if tr.g.Level() != 4 {
		t.Errorf("level %d after 20 s of 1-9 ms frames at a pinned 60 fps, want 4 (log %v)", tr.g.Level(), tr.log)
	}
}

func TestGovernorDropsOnLowFPS(t *testing.T) {
	// Frames that take 22 ms of wall time but report little work (the GPU
	// is the bottleneck and cannot be timed): only the FPS average sees it.
	tr := newTrace(t)
	end := tr.now + 6*time.Second
	for tr.now < end {
		tr.now += 22 * time.Millisecond
		tr.m.Observe(22*time.Millisecond, 5*time.Millisecond, 1)
		var s Stats
		tr.m.fill(&s)
		if tr.g.Observe(Sample{Now: tr.now, Budget: budget, Work: 5 * time.Millisecond, WorkAvg: s.Work, FPS: s.FPS, FPSAt: tr.m.fpsAt}) {
			r, _ := tr.g.Reason()
			tr.log = append(tr.log, change{tr.now, tr.g.Level(), r})
		}
	}
	if len(tr.log) == 0 || tr.log[0].why != ReasonLowFPS {
		t.Fatalf("changes %v, want a drop for low FPS", tr.log)
	}
	// One drop per fresh FPS average, two seconds apart at least.
	for i := 1; i < len(tr.log); i++ {
		if tr.log[i].at-tr.log[i-1].at < 2*time.Second {
			t.Errorf("drops %v and %v less than 2 s apart", tr.log[i-1], tr.log[i])
		}
	}
}

func TestGovernorPin(t *testing.T) {
	g, _ := NewGovernor(GovernorConfig{Levels: 2})
	g.Pin(7)
	if g.Level() != 2 {
		t.Errorf("Pin(7) with 2 levels: %d", g.Level())
	}
	g.Pin(1)
	for i := range 100 {
		if g.Observe(Sample{Now: time.Duration(i) * time.Second, Budget: budget, Work: time.Second}) {
			t.Fatal("a pinned governor changed level")
		}
	}
	if r, _ := g.Reason(); r != ReasonPinned || g.Changes() != 1 {
		t.Errorf("reason %v after %d changes", r, g.Changes())
	}
	if _, err := NewGovernor(GovernorConfig{Headroom: 1.5}); err == nil {
		t.Error("headroom 1.5 accepted")
	}
}

// TestGovernorSettlesBetweenTwoLevels is the flapping case: level 4 costs
// 1.2x the budget, level 3 0.8x, for ten minutes of frames. The governor
// drops once and stays: its record of level 4 predicts it does not fit.
func TestGovernorSettlesBetweenTwoLevels(t *testing.T) {
	tr := newTrace(t)
	tr.run(10*time.Minute, func(_ time.Duration, level int) time.Duration {
		if level == 4 {
			return budget * 12 / 10
		}
		return budget * 8 / 10
	})
	if tr.g.Level() != 3 || len(tr.log) > 4 {
		t.Fatalf("level %d after %d changes (%v); want 3 with at most 4 changes", tr.g.Level(), len(tr.log), tr.log)
	}
	// The record is trusted for Forget (5 min): at most one retry after it.
	for i := 1; i < len(tr.log); i++ {
		if tr.log[i].why == ReasonHeadroom && tr.log[i].at-tr.log[i-1].at < 5*time.Minute {
			t.Errorf("a retry of level 4 %v after the drop, before the record was 5 min old (log %v)", tr.log[i].at-tr.log[i-1].at, tr.log)
		}
	}
}

// TestGovernorBacksOffFailedRises makes every rise fail although the record
// predicts a fit: level 4 costs 1.2x the budget, and level 3 costs 0.8x in
// the second after a drop (when it is measured) but 0.3x afterwards. Each
// failed rise doubles the wait before the next try, up to MaxBackoff.
func TestGovernorBacksOffFailedRises(t *testing.T) {
	tr := newTrace(t)
	tr.run(10*time.Minute, func(now time.Duration, level int) time.Duration {
		switch {
		case level == 4:
			return budget * 12 / 10
		case now-tr.g.changed < time.Second:
			return budget * 8 / 10
		}
		return budget * 3 / 10
	})
	var rises []time.Duration
	for i := 1; i < len(tr.log); i++ {
		if tr.log[i].why == ReasonHeadroom {
			rises = append(rises, tr.log[i].at-tr.log[i-1].at)
		}
	}
	if len(rises) < 3 || tr.g.Undone() != len(rises) {
		t.Fatalf("rises after %v, %d undone: want 3 or more, all undone (log %v)", rises, tr.g.Undone(), tr.log)
	}
	for i := 1; i < len(rises); i++ {
		want := min(2*time.Second<<i, 2*time.Minute)
		if rises[i] < want || rises[i] > want+time.Second {
			t.Errorf("try %d came %v after the drop, want %v (doubling)", i+1, rises[i], want)
		}
	}
	if len(tr.log) > 2*10+1 { // 2+4+...+64 s, then one try every 2 min at most
		t.Errorf("%d changes in 10 minutes", len(tr.log))
	}
}

// TestGovernorLoadRemovedRestoresTopWithin10s: a heavy load holds level 0;
// once it goes, every level fits and the top is back within 10 s.
func TestGovernorLoadRemovedRestoresTopWithin10s(t *testing.T) {
	tr := newTrace(t)
	tr.run(20*time.Second, costs(30*time.Millisecond))
	if tr.g.Level() != 0 {
		t.Fatalf("level %d under a 30 ms load, want 0 (log %v)", tr.g.Level(), tr.log)
	}
	removed := tr.now
	tr.log = nil
	tr.run(15*time.Second, costs(time.Millisecond))
	if tr.g.Level() != 4 || len(tr.log) != 4 {
		t.Fatalf("level %d after the load left (log %v), want 4", tr.g.Level(), tr.log)
	}
	if d := tr.log[3].at - removed; d > 10*time.Second {
		t.Errorf("top level back %v after the load left, want within 10 s", d)
	}
}

// TestGovernorIgnoresStartUpAndUnsteadyFrames: slow first frames (shader
// compilation) and the frames after a resize do not drop a level.
func TestGovernorIgnoresStartUpAndUnsteadyFrames(t *testing.T) {
	g, _ := NewGovernor(GovernorConfig{})
	now := time.Duration(0)
	feed := func(n int, cost time.Duration, unsteady bool) {
		for i := range n {
			now += max(cost, budget)
			g.Observe(Sample{Now: now, Budget: budget, Work: cost, WorkAvg: cost, Unsteady: unsteady && i == 0})
		}
	}
	feed(10, 80*time.Millisecond, false) // 0.8 s of start-up
	feed(300, 5*time.Millisecond, false)
	feed(10, 50*time.Millisecond, true) // a resize: 0.5 s of slow frames
	feed(300, 5*time.Millisecond, false)
	if g.Changes() != 0 {
		t.Errorf("%d changes (level %d): start-up and unsteady frames were taken as evidence", g.Changes(), g.Level())
	}
	feed(3, 50*time.Millisecond, false) // a real load step still drops at once
	if g.Level() != 3 {
		t.Errorf("level %d after three slow steady frames, want 3", g.Level())
	}
}

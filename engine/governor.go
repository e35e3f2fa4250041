package engine

import (
	"fmt"
	"time"
)

// DefaultQualityLevels is the top quality level of the zero GovernorConfig:
// levels run from 0 (lowest) to 4 (highest).
const DefaultQualityLevels = 4

// GovernorConfig tunes a Governor. Its zero value is a sensible governor:
// levels 0..4 starting at the top, 10 % headroom, a drop after 3 frames over
// budget, a rise after 2 s of headroom, at least 1 s between changes, no
// decision in the first second or the second after a platform disturbance,
// and a back-off for rises that fail (see Governor).
type GovernorConfig struct {
	// Levels is the top level N; levels run 0..N, 0 the lowest. Zero means
	// DefaultQualityLevels.
	Levels int
	// Headroom is the share of the budget a frame must leave free for the
	// governor to count it as having room to rise. Zero means 0.10.
	Headroom float64
	// DropFrames is how many consecutive frames over budget drop a level.
	// Zero means 3.
	DropFrames int
	// RiseAfter is how long the average frame cost must stay within the
	// budget less the headroom before a level is added. Zero means 2 s.
	RiseAfter time.Duration
	// MinDwell is the least time between two changes, so the level never
	// oscillates faster. Zero means 1 s.
	MinDwell time.Duration
	// WarmUp is how long after the first frame, and after a frame the
	// platform marks unsteady (Sample.Unsteady), frames are no evidence:
	// shader compilation, the first presents and a resize do not drop a
	// level. Zero means 1 s.
	WarmUp time.Duration
	// UndoWindow is how soon after a rise a drop back counts as undoing it,
	// which doubles the wait before the next try at that level. Zero means
	// 5 s.
	UndoWindow time.Duration
	// MaxBackoff caps that wait. Zero means 2 min.
	MaxBackoff time.Duration
	// HoldReset is how long a level reached by a rise must hold to clear
	// its back-off and its failure record. Zero means 60 s.
	HoldReset time.Duration
	// Forget is how long a level's failure record predicts its cost; after
	// that a rise is tried on headroom alone (and a failure doubles it).
	// Zero means 5 min.
	Forget time.Duration
}

func (c GovernorConfig) withDefaults() (GovernorConfig, error) {
	switch {
	case c.Levels < 0:
		return c, fmt.Errorf("engine: GovernorConfig.Levels = %d: must be positive (or zero for %d)", c.Levels, DefaultQualityLevels)
	case c.Headroom < 0 || c.Headroom >= 1:
		return c, fmt.Errorf("engine: GovernorConfig.Headroom = %v: must be in [0, 1) (zero for 0.10)", c.Headroom)
	case c.DropFrames < 0:
		return c, fmt.Errorf("engine: GovernorConfig.DropFrames = %d: must be positive (or zero for 3)", c.DropFrames)
	case c.RiseAfter < 0 || c.MinDwell < 0 || c.WarmUp < 0 || c.UndoWindow < 0 || c.MaxBackoff < 0 || c.HoldReset < 0 || c.Forget < 0:
		return c, fmt.Errorf("engine: GovernorConfig durations must not be negative (RiseAfter %v, MinDwell %v, WarmUp %v, UndoWindow %v, MaxBackoff %v, HoldReset %v, Forget %v)",
			c.RiseAfter, c.MinDwell, c.WarmUp, c.UndoWindow, c.MaxBackoff, c.HoldReset, c.Forget)
	}
	if c.Levels == 0 {
		c.Levels = DefaultQualityLevels
	}
	if c.Headroom == 0 {
		c.Headroom = 0.10
	}
	if c.DropFrames == 0 {
		c.DropFrames = 3
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.RiseAfter, 2*time.Second)
	def(&c.MinDwell, time.Second)
	def(&c.WarmUp, time.Second)
	def(&c.UndoWindow, 5*time.Second)
	def(&c.MaxBackoff, 2*time.Minute)
	def(&c.HoldReset, time.Minute)
	def(&c.Forget, 5*time.Minute)
	return c, nil
}

// Sample is what the governor sees of one frame.
type Sample struct {
	// Now is real time since start.
	Now time.Duration
	// Budget is the frame budget: the display period under vsync, or the
	// period of the target frame rate.
	Budget time.Duration
	// Work is this frame's CPU work time (begin to before present); GPU the
	// GPU time of a recent frame, 0 where the driver cannot measure it. The
	// frame's cost is the larger.
	Work, GPU time.Duration
	// WorkAvg is the frame-rate-independent average of the cost.
	WorkAvg time.Duration
	// FPS is the once-per-second frame-rate average, and FPSAt when it was
	// last updated (0: not yet).
	FPS   float64
	FPSAt time.Duration
	// Unsteady marks a frame the platform disturbed (the window changed
	// state or size): it and the WarmUp after it are no evidence.
	Unsteady bool
}

// Reason says why the level last changed.
type Reason uint8

// Reasons.
const (
	ReasonNone       Reason = iota
	ReasonOverBudget        // consecutive frames over budget
	ReasonLowFPS            // the FPS average under 90 % of the budget's rate
	ReasonHeadroom          // sustained headroom
	ReasonPinned            // set by hand (-quality N)
)

var reasonNames = [...]string{"none", "over budget", "low fps", "headroom", "pinned"}

// String returns the reason in words.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// Governor picks a quality level from frame timings: it drops fast when
// frames go over budget and rises slowly after sustained headroom, never
// changing twice within MinDwell. It reads work time as well as FPS because
// under vsync FPS is pinned to the refresh rate and says nothing about the
// room left. Like Timestep it is a value fed with numbers; Loop owns one.
//
// The rules, with the zero GovernorConfig's numbers:
//   - Evidence. A frame's cost is the larger of its CPU work and GPU time.
//     Nothing counts in the first second, nor in the second after a frame
//     the platform marks unsteady (a resize, a state change).
//   - Drop. Three consecutive frames over budget drop a level; so does a
//     fresh once-a-second FPS average under 90 % of the budget's rate that
//     is not recovering, two seconds or more after the last change.
//   - Rise. After 2 s in which the average cost stayed under the budget
//     less 10 % (and at most one frame in twenty went over that), a level
//     is added, at least 1 s after the last change.
//   - Memory. A drop from level L records what L cost and what L-1 cost in
//     the second after. A rise back to L then needs the predicted cost of
//     L to fit the budget less the headroom: L's recorded cost less what
//     L-1 has become cheaper since (or scaled by the same ratio, whichever
//     predicts less). So a level that does not fit is not retried while the
//     load stays, and one load removed is noticed in 2 s. A record is kept
//     5 min; a level that held 60 s after a rise clears it.
//   - Back-off. A drop within 5 s of the rise that reached the level undoes
//     the rise (Undone counts them): the headroom needed before the next
//     try at that level doubles, up to 2 min. Holding the level 60 s
//     resets it to 2 s.
type Governor struct {
	cfg GovernorConfig

	level    int
	pinned   bool
	over     int           // consecutive frames over budget
	overSum  time.Duration // their summed cost
	roomFrom time.Duration // since when there has been headroom; -1: not now
	roomN    int           // frames since roomFrom
	roomMiss int           // of which over budget less headroom
	changed  time.Duration // when the level last changed
	rose     bool          // the last change was a rise (to level)
	lastFPS  time.Duration // FPSAt of the last FPS sample seen
	prevFPS  float64       // its value
	reason   Reason
	changes  int
	undone   int
	started  bool
	quiet    time.Duration // no evidence before this time
	levels   []levelMemory // by level
}

// levelMemory is what the governor remembers of a level.
type levelMemory struct {
	wait time.Duration // headroom needed before a rise to this level
	// A failure: when the level was dropped, its cost then, and the mean
	// cost of the level below over the MinDwell after (base, of baseN
	// frames).
	failAt   time.Duration
	failCost time.Duration
	failed   bool
	base     time.Duration
	baseN    int
}

// NewGovernor returns a governor at the top level, or an error naming the
// first invalid field of cfg.
func NewGovernor(cfg GovernorConfig) (Governor, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return Governor{}, err
	}
	g := Governor{cfg: c, level: c.Levels, roomFrom: -1, levels: make([]levelMemory, c.Levels+1)}
	for i := range g.levels {
		g.levels[i].wait = c.RiseAfter
	}
	return g, nil
}

// Level returns the current level, 0..Levels.
func (g *Governor) Level() int { return g.level }

// Levels returns the top level.
func (g *Governor) Levels() int { return g.cfg.Levels }

// Reason returns why the level last changed, and when (real time).
func (g *Governor) Reason() (Reason, time.Duration) { return g.reason, g.changed }

// Changes returns how many times the level changed.
func (g *Governor) Changes() int { return g.changes }

// Undone returns how many rises were undone by a drop within UndoWindow.
func (g *Governor) Undone() int { return g.undone }

// Pin fixes the level (clamped to 0..Levels), or frees it with a negative
// level: the -quality flag.
func (g *Governor) Pin(level int) {
	if level < 0 {
		g.pinned = false
		return
	}
	g.pinned = true
	level = min(level, g.cfg.Levels)
	if level != g.level {
		g.level = level
		g.reason = ReasonPinned
		g.changes++
	}
}

// Observe feeds one frame and reports whether the level changed. It does
// not allocate.
func (g *Governor) Observe(s Sample) bool {
	if !g.started {
		g.started = true
		g.changed = s.Now
		g.quiet = s.Now + g.cfg.WarmUp
	}
	if s.Unsteady {
		g.quiet = s.Now + g.cfg.WarmUp
	}
	if g.pinned || s.Budget <= 0 {
		return false
	}
	if s.Now < g.quiet {
		g.over, g.overSum = 0, 0
		g.roomFrom, g.roomN, g.roomMiss = -1, 0, 0
		g.sawFPS(s)
		return false
	}
	cost := max(s.Work, s.GPU)
	if cost > s.Budget {
		g.over++
		g.overSum += cost
	} else {
		g.over, g.overSum = 0, 0
	}
	g.remember(s, cost)
	// Headroom: the average within the budget less the headroom, and no
	// more than one frame in twenty (plus one) over it, so a load that
	// comes and goes every second never looks like room.
	room := time.Duration(float64(s.Budget) * (1 - g.cfg.Headroom))
	if g.roomFrom >= 0 {
		g.roomN++
		if cost > room {
			g.roomMiss++
		}
	}
	avg := max(s.WorkAvg, s.GPU)
	switch {
	case avg > room || g.roomMiss > 1+g.roomN/20:
		g.roomFrom, g.roomN, g.roomMiss = -1, 0, 0
	case g.roomFrom < 0:
		g.roomFrom = s.Now
	}
	dwelt := s.Now-g.changed >= g.cfg.MinDwell
	if !dwelt || g.level == 0 && g.roomFrom < 0 {
		g.sawFPS(s)
		return false
	}
	switch {
	case g.level > 0 && g.over >= g.cfg.DropFrames:
		return g.drop(ReasonOverBudget, s.Now, g.overSum/time.Duration(g.over))
	case g.level > 0 && s.FPSAt > g.lastFPS && s.FPSAt-g.changed >= 2*time.Second &&
		s.FPS < 0.9*float64(time.Second)/float64(s.Budget) && s.FPS <= g.prevFPS+0.5:
		// A fresh FPS average, taken at least two seconds after the last
		// change, is under 90 % of the budget's rate and not recovering
		// (the average lags: after a drop that helped, it climbs for a few
		// seconds and must not cause another drop).
		g.lastFPS, g.prevFPS = s.FPSAt, s.FPS
		return g.drop(ReasonLowFPS, s.Now, max(avg, s.Budget))
	case g.level < g.cfg.Levels && g.roomFrom >= 0:
		up := &g.levels[g.level+1]
		if s.Now-g.roomFrom >= up.wait && s.Now-g.changed >= up.wait && g.fits(up, s.Now, avg, room) {
			return g.set(g.level+1, ReasonHeadroom, s.Now)
		}
	}
	g.sawFPS(s)
	return false
}

// remember keeps the level records: the cost of the level below a failed
// one, and the reset of a level that held.
func (g *Governor) remember(s Sample, cost time.Duration) {
	if g.level < g.cfg.Levels {
		if up := &g.levels[g.level+1]; up.failed && up.failAt == g.changed && s.Now-g.changed < g.cfg.MinDwell {
			up.base = (up.base*time.Duration(up.baseN) + cost) / time.Duration(up.baseN+1)
			up.baseN++
		}
	}
	if g.rose && s.Now-g.changed >= g.cfg.HoldReset {
		m := &g.levels[g.level]
		m.wait, m.failed = g.cfg.RiseAfter, false
		g.rose = false
	}
}

// fits reports whether level m, one above the current, is predicted to fit
// room at the current average cost avg.
func (g *Governor) fits(m *levelMemory, now, avg, room time.Duration) bool {
	if !m.failed || m.baseN == 0 || now-m.failAt >= g.cfg.Forget {
		return true
	}
	additive := m.failCost - (m.base - avg)
	scaled := time.Duration(float64(m.failCost) * float64(avg) / float64(max(m.base, 1)))
	return min(additive, scaled) <= room
}

func (g *Governor) sawFPS(s Sample) {
	if s.FPSAt > g.lastFPS {
		g.lastFPS, g.prevFPS = s.FPSAt, s.FPS
	}
}

// drop goes down a level that cost cost, recording the failure and, when
// it undoes a recent rise, backing off.
func (g *Governor) drop(why Reason, now, cost time.Duration) bool {
	m := &g.levels[g.level]
	if g.rose && now-g.changed <= g.cfg.UndoWindow {
		g.undone++
		m.wait = min(2*m.wait, g.cfg.MaxBackoff)
	}
	m.failed, m.failAt, m.failCost, m.base, m.baseN = true, now, cost, 0, 0
	return g.set(g.level-1, why, now)
}

func (g *Governor) set(level int, why Reason, now time.Duration) bool {
	g.rose = level > g.level
	g.level, g.reason, g.changed = level, why, now
	g.changes++
	g.over, g.overSum = 0, 0
	g.roomFrom, g.roomN, g.roomMiss = -1, 0, 0
	return true
}

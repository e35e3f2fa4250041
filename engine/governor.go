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
// budget, a rise after 3 s of headroom, and at least 1 s between changes.
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
	// budget less the headroom before a level is added. Zero means 3 s.
	RiseAfter time.Duration
	// MinDwell is the least time between two changes, so the level never
	// oscillates faster. Zero means 1 s.
	MinDwell time.Duration
}

func (c GovernorConfig) withDefaults() (GovernorConfig, error) {
	switch {
	case c.Levels < 0:
		return c, fmt.Errorf("engine: GovernorConfig.Levels = %d: must be positive (or zero for %d)", c.Levels, DefaultQualityLevels)
	case c.Headroom < 0 || c.Headroom >= 1:
		return c, fmt.Errorf("engine: GovernorConfig.Headroom = %v: must be in [0, 1) (zero for 0.10)", c.Headroom)
	case c.DropFrames < 0:
		return c, fmt.Errorf("engine: GovernorConfig.DropFrames = %d: must be positive (or zero for 3)", c.DropFrames)
	case c.RiseAfter < 0 || c.MinDwell < 0:
		return c, fmt.Errorf("engine: GovernorConfig.RiseAfter and MinDwell must not be negative")
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
	if c.RiseAfter == 0 {
		c.RiseAfter = 3 * time.Second
	}
	if c.MinDwell == 0 {
		c.MinDwell = time.Second
	}
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
type Governor struct {
	cfg GovernorConfig

	level    int
	pinned   bool
	over     int           // consecutive frames over budget
	roomFrom time.Duration // since when there has been headroom; -1: not now
	roomN    int           // frames since roomFrom
	roomMiss int           // of which over budget less headroom
	changed  time.Duration // when the level last changed
	lastFPS  time.Duration // FPSAt of the last FPS sample seen
	prevFPS  float64       // its value
	reason   Reason
	changes  int
	started  bool
}

// NewGovernor returns a governor at the top level, or an error naming the
// first invalid field of cfg.
func NewGovernor(cfg GovernorConfig) (Governor, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return Governor{}, err
	}
	return Governor{cfg: c, level: c.Levels, roomFrom: -1}, nil
}

// Level returns the current level, 0..Levels.
func (g *Governor) Level() int { return g.level }

// Levels returns the top level.
func (g *Governor) Levels() int { return g.cfg.Levels }

// Reason returns why the level last changed, and when (real time).
func (g *Governor) Reason() (Reason, time.Duration) { return g.reason, g.changed }

// Changes returns how many times the level changed.
func (g *Governor) Changes() int { return g.changes }

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

// Observe feeds one frame and reports whether the level changed.
func (g *Governor) Observe(s Sample) bool {
	if !g.started {
		g.started = true
		g.changed = s.Now
	}
	if g.pinned || s.Budget <= 0 {
		return false
	}
	cost := max(s.Work, s.GPU)
	if cost > s.Budget {
		g.over++
	} else {
		g.over = 0
	}
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
	switch {
	case max(s.WorkAvg, s.GPU) > room || g.roomMiss > 1+g.roomN/20:
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
		return g.set(g.level-1, ReasonOverBudget, s.Now)
	case g.level > 0 && s.FPSAt > g.lastFPS && s.FPSAt-g.changed >= 2*time.Second &&
		s.FPS < 0.9*float64(time.Second)/float64(s.Budget) && s.FPS <= g.prevFPS+0.5:
		// A fresh FPS average, taken at least two seconds after the last
		// change, is under 90 % of the budget's rate and not recovering
		// (the average lags: after a drop that helped, it climbs for a few
		// seconds and must not cause another drop).
		g.lastFPS, g.prevFPS = s.FPSAt, s.FPS
		return g.set(g.level-1, ReasonLowFPS, s.Now)
	case g.level < g.cfg.Levels && g.roomFrom >= 0 && s.Now-g.roomFrom >= g.cfg.RiseAfter &&
		s.Now-g.changed >= g.cfg.RiseAfter:
		return g.set(g.level+1, ReasonHeadroom, s.Now)
	}
	g.sawFPS(s)
	return false
}

func (g *Governor) sawFPS(s Sample) {
	if s.FPSAt > g.lastFPS {
		g.lastFPS, g.prevFPS = s.FPSAt, s.FPS
	}
}

func (g *Governor) set(level int, why Reason, now time.Duration) bool {
	g.level, g.reason, g.changed = level, why, now
	g.changes++
	g.over = 0
	g.roomFrom, g.roomN, g.roomMiss = -1, 0, 0
	return true
}

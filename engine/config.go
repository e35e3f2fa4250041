package engine

import (
	"fmt"
	"math"
	"time"
)

// Default values that the zero Config stands for.
const (
	DefaultTPS          = 60
	DefaultMaxFrameTime = 250 * time.Millisecond
	DefaultFPSDecay     = 0.25
	DefaultWorkTau      = 500 * time.Millisecond
)

// Limits a Config is checked against.
const (
	// MaxTimeScale is the largest TimeScale a Config accepts.
	MaxTimeScale = 1000
	// MinTimeScale is the smallest nonzero TimeScale: the scale is kept as
	// a fraction with a denominator of at most 1000, so anything smaller
	// would round to a standstill.
	MinTimeScale = 0.001
	// MaxTPS is the highest tick rate (a 100 µs tick): past it, a frame
	// would run more updates than any game does in its budget.
	MaxTPS = 10000
	// DefaultMaxUpdatesPerFrame is the update cap of the zero Config, as
	// MainLoop.js has it: far above what the 250 ms clamp lets 60 TPS run
	// (15), so it only acts for high tick rates or an unclamped loop,
	// where it keeps one slow frame from running thousands of updates.
	DefaultMaxUpdatesPerFrame = 240
)

// Overrun is what the timestep does with the time it could not simulate when a
// frame needs more updates than Config.MaxUpdatesPerFrame allows.
type Overrun int

const (
	// SlowMo runs the capped number of updates, keeps the fraction of a tick
	// that alpha needs, and drops the whole ticks beyond the cap: the game
	// runs slower than real time while the machine cannot keep up.
	SlowMo Overrun = iota
	// Drop runs the capped number of updates and discards all remaining lag,
	// fraction included (MainLoop.js's panic reset): alpha restarts at 0.
	Drop
	// CatchUp runs the capped number of updates and keeps the debt: later
	// frames run up to the cap again until the simulation has caught up with
	// real time. Frame.Debt says how many ticks are still owed.
	CatchUp
)

// String returns the policy's name as the -overrun flags spell it.
func (o Overrun) String() string {
	switch o {
	case SlowMo:
		return "slowmo"
	case Drop:
		return "drop"
	case CatchUp:
		return "catchup"
	}
	return fmt.Sprintf("Overrun(%d)", int(o))
}

// ParseOverrun reads a policy name as String writes it.
func ParseOverrun(s string) (Overrun, error) {
	for _, o := range []Overrun{SlowMo, Drop, CatchUp} {
		if s == o.String() {
			return o, nil
		}
	}
	return 0, fmt.Errorf("engine: unknown overrun policy %q (want slowmo, drop or catchup)", s)
}

// Config sets up a Timestep or a Loop. Its zero value runs: 60 ticks per
// second, a 250 ms frame clamp, at most 240 updates a frame, the SlowMo
// policy and real-time speed.
type Config struct {
	// TPS is the tick rate in ticks per second, at most MaxTPS. Zero means
	// DefaultTPS (60), unless Tick is set. A rate that does not divide a
	// second evenly is still exact: the timestep keeps time in units of
	// 1/TPS ns.
	TPS int

	// Tick is the tick length, at least 1s/MaxTPS (100 µs). When nonzero it
	// overrides TPS: 20 ms is 50 ticks per second, exactly.
	Tick time.Duration

	// MaxFrameTime clamps the time one frame may feed the simulation; the
	// excess is reported as dropped time. Zero means DefaultMaxFrameTime
	// (250 ms), or one tick when ticks are longer; a negative value
	// disables the clamp. A clamp shorter than one tick is an error: it
	// would let a tick run once in many frames, or never.
	MaxFrameTime time.Duration

	// MaxUpdatesPerFrame caps the updates one frame runs. Zero means
	// DefaultMaxUpdatesPerFrame (240); a negative value means no cap
	// beyond what MaxFrameTime allows. When a frame hits the cap, Overrun
	// decides what happens to the time left over.
	MaxUpdatesPerFrame int

	// Overrun is the policy for frames that hit MaxUpdatesPerFrame. The zero
	// value is SlowMo.
	Overrun Overrun

	// TimeScale is how much game time one real second feeds: 0.25 is slow
	// motion, 2 is double speed. It never changes the tick length. Zero
	// means 1; to stop time, pause. It must be in [MinTimeScale,
	// MaxTimeScale]; it is kept as the nearest fraction with a denominator
	// of at most 1000, so 0.1 and 1/3 are exact.
	TimeScale float64

	// Extrapolate tells Draw to extrapolate instead of interpolate: alpha is
	// the same number, but the game draws current + alpha·velocity·dt rather
	// than lerp(previous, current, alpha). It trades a tick of latency for
	// occasional misprediction. The timestep only passes the flag on.
	Extrapolate bool

	// FPSDecay is the weight d of the newest second in the FPS average,
	// fps = d·framesThisSecond + (1-d)·fps, updated once per real second.
	// Zero means DefaultFPSDecay (0.25). It must be in (0, 1].
	FPSDecay float64

	// WorkTau is the time constant of the average of frame work time (begin
	// to before present). Each frame weighs in with 1-exp(-interval/WorkTau),
	// so the average behaves the same at any frame rate. Zero means
	// DefaultWorkTau (500 ms).
	WorkTau time.Duration

	// ProfilePhases labels each phase of the frame (begin, update, draw,
	// present, end) for pprof ("phase" label) and runtime/trace (regions
	// inside a "frame" region), so a CPU profile splits by phase and go tool
	// trace shows every frame. It costs a few tens of ns per frame and
	// allocates nothing (trace regions allocate only while tracing).
	ProfilePhases bool

	// RuntimeStats reads Go runtime metrics every frame into Stats.Runtime:
	// heap allocated by the frame, GC cycles and GC pause time. It costs
	// about half a microsecond per frame and allocates nothing.
	RuntimeStats bool

	// Quality tunes the quality governor a Loop runs (see Governor). The
	// zero value is a sensible governor with levels 0..4.
	Quality GovernorConfig

	// InputSize is the size in bytes of the game's own per-tick input
	// value, at most MaxInputSize: the Loop calls the game's Input (see
	// Inputter) before each tick and hands the value to Update in
	// Tick.Input; a Tape (a replay) records or decides it. Zero means the
	// game has none. A Timestep ignores it.
	InputSize int

	// Players is how many players' inputs each Tick.Input holds, 1 to
	// MaxPlayers: the game's Input fills them all, one InputSize value
	// after another (players sharing one machine), or a Tape decides them
	// (the replay of a netplay match, whose recording holds every
	// player's input). Zero means 1. It needs InputSize. (Under a netplay
	// session the loop runs the session, and the session asks the game
	// for its local player's input only.)
	Players int
}

// withDefaults returns c with every zero field replaced by its default, or an
// error naming the first invalid field.
func (c Config) withDefaults() (Config, error) {
	switch {
	case c.TPS < 0:
		return c, fmt.Errorf("engine: Config.TPS = %d: must be positive (or zero for %d)", c.TPS, DefaultTPS)
	case c.TPS > MaxTPS:
		return c, fmt.Errorf("engine: Config.TPS = %d: must be at most MaxTPS (%d)", c.TPS, MaxTPS)
	case c.Tick < 0:
		return c, fmt.Errorf("engine: Config.Tick = %v: must be positive (or zero to use TPS)", c.Tick)
	case c.Tick > 0 && c.Tick < time.Second/MaxTPS:
		return c, fmt.Errorf("engine: Config.Tick = %v: must be at least %v (MaxTPS)", c.Tick, time.Second/MaxTPS)
	case c.Overrun < SlowMo || c.Overrun > CatchUp:
		return c, fmt.Errorf("engine: Config.Overrun = %d: must be SlowMo, Drop or CatchUp", int(c.Overrun))
	case c.TimeScale < 0 || c.TimeScale > MaxTimeScale || math.IsNaN(c.TimeScale):
		return c, fmt.Errorf("engine: Config.TimeScale = %v: must be in (0, %d] (or zero for 1)", c.TimeScale, MaxTimeScale)
	case c.TimeScale > 0 && c.TimeScale < MinTimeScale*0.5:
		return c, fmt.Errorf("engine: Config.TimeScale = %v: rounds to 0 at the 1/1000 precision it is kept in; the smallest is %v (pause to stop time)", c.TimeScale, MinTimeScale)
	case c.FPSDecay < 0 || c.FPSDecay > 1 || math.IsNaN(c.FPSDecay):
		return c, fmt.Errorf("engine: Config.FPSDecay = %v: must be in (0, 1] (or zero for %v)", c.FPSDecay, DefaultFPSDecay)
	case c.WorkTau < 0:
		return c, fmt.Errorf("engine: Config.WorkTau = %v: must be positive (or zero for %v)", c.WorkTau, DefaultWorkTau)
	case c.InputSize < 0 || c.InputSize > MaxInputSize:
		return c, fmt.Errorf("engine: Config.InputSize = %d: must be 0 to MaxInputSize (%d) bytes", c.InputSize, MaxInputSize)
	case c.Players < 0 || c.Players > MaxPlayers:
		return c, fmt.Errorf("engine: Config.Players = %d: must be 1 to MaxPlayers (%d), or 0 for 1", c.Players, MaxPlayers)
	case c.Players > 1 && c.InputSize == 0:
		return c, fmt.Errorf("engine: Config.Players = %d needs Config.InputSize: the players' inputs are what tells them apart", c.Players)
	}
	var err error
	if c.Quality, err = c.Quality.withDefaults(); err != nil {
		return c, err
	}
	if c.TPS == 0 && c.Tick == 0 {
		c.TPS = DefaultTPS
	}
	if c.Players == 0 {
		c.Players = 1
	}
	tick := c.Tick
	if tick == 0 {
		tick = time.Duration(float64(time.Second) / float64(c.TPS))
	}
	if c.MaxFrameTime == 0 {
		c.MaxFrameTime = max(DefaultMaxFrameTime, tick)
	}
	if c.MaxFrameTime > 0 && c.MaxFrameTime < tick {
		return c, fmt.Errorf("engine: Config.MaxFrameTime = %v: shorter than one tick (%v), so no tick would ever run", c.MaxFrameTime, tick)
	}
	switch {
	case c.MaxUpdatesPerFrame == 0:
		c.MaxUpdatesPerFrame = DefaultMaxUpdatesPerFrame
	case c.MaxUpdatesPerFrame < 0:
		c.MaxUpdatesPerFrame = 0 // no cap
	}
	if c.TimeScale == 0 {
		c.TimeScale = 1
	}
	if c.FPSDecay == 0 {
		c.FPSDecay = DefaultFPSDecay
	}
	if c.WorkTau == 0 {
		c.WorkTau = DefaultWorkTau
	}
	return c, nil
}

// Validate reports the first invalid field of c, or nil.
func (c Config) Validate() error {
	_, err := c.withDefaults()
	return err
}

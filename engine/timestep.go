package engine

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"time"
)

// Timestep is the pure fixed-step core: real elapsed time goes in, a Frame
// comes out that says how many fixed ticks to run and the interpolation alpha
// to draw with. It owns no clock and no goroutine; it is a value that a loop,
// a test or a tool drives with numbers. Its zero value is not ready: make one
// with NewTimestep.
//
// Time is kept exactly, in integer units of 1/den nanosecond where one tick
// lasts num/den ns (60 TPS is 50,000,000/3 ns). After any run without clamping
// or overruns, the tick count is exactly floor(elapsed·TPS/1e9): nothing
// drifts, whatever the frame times.
//
// A Timestep is not safe for concurrent use.
type Timestep struct {
	num, den int64 // one tick lasts num/den ns, as a reduced fraction

	maxFrame   time.Duration // negative: no clamp
	maxFeed    int64         // maxFrame after the time scale, ns
	maxUpdates int64         // 0: no cap
	policy     Overrun
	extrap     bool

	scaleNum, scaleDen int64 // time scale as a fraction
	scaleCarry         int64 // remainder of scaled time, units of 1/scaleDen ns

	paused bool
	steps  int // single steps queued while paused

	lag int64 // units of 1/den ns

	// Totals since start.
	frames   uint64
	ticks    uint64
	stepped  uint64 // ticks run by Step, fed no time
	elapsed  time.Duration
	scaled   time.Duration // elapsed after the time scale, before the clamp
	dropNs   int64         // dropped time: dropNs + dropRem/den ns
	dropRem  int64
	overruns uint64
}

// NewTimestep returns a Timestep for cfg, or an error naming the first
// invalid field of cfg.
func NewTimestep(cfg Config) (Timestep, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return Timestep{}, err
	}
	t := Timestep{
		maxFrame:   c.MaxFrameTime,
		maxUpdates: int64(c.MaxUpdatesPerFrame),
		policy:     c.Overrun,
		extrap:     c.Extrapolate,
	}
	if c.Tick > 0 {
		t.num, t.den = int64(c.Tick), 1
	} else {
		g := gcd(int64(time.Second), int64(c.TPS))
		t.num, t.den = int64(time.Second)/g, int64(c.TPS)/g
	}
	t.setScale(c.TimeScale)
	return t, nil
}

// Frame is what one call of Timestep.Advance decided: how many ticks to run
// and how far between two ticks to draw.
type Frame struct {
	// Index numbers frames from 1.
	Index uint64
	// Elapsed is the real time this frame was given, before scaling and
	// clamping.
	Elapsed time.Duration
	// Ticks is the number of fixed updates to run this frame.
	Ticks int
	// FirstTick is the index of the first of those ticks; ticks are numbered
	// from 0 since start.
	FirstTick uint64
	// Alpha is the fraction of a tick that the simulation owes after this
	// frame's ticks, in [0, 1). Draw at lerp(previous, current, Alpha).
	Alpha float64
	// Extrapolate is Config.Extrapolate: draw at current + Alpha·velocity·dt.
	Extrapolate bool
	// Lag is the time owed to the simulation after this frame's ticks,
	// debt included (floored to whole ns).
	Lag time.Duration
	// Dropped is the game time this frame discarded: the excess over the
	// frame clamp and what the overrun policy lost (floored to whole ns).
	Dropped time.Duration
	// Overrun is true when the frame hit Config.MaxUpdatesPerFrame.
	Overrun bool
	// Debt is the number of whole ticks still owed after this frame; only
	// the CatchUp policy keeps debt.
	Debt int
	// Quality is the quality level in force, filled in by Loop.
	Quality int
	// Local is the player this machine plays, 0 to players-1, for
	// drawing "you" and reading the devices for the right seat: 0 alone;
	// in a netplay match the session's (a peer's SessionConfig.Local, a
	// client's seat given by its server), which sets it on the frames it
	// passes to the game's Begin and Draw; -1 for a spectator, a server,
	// or a client not yet seated. Input may use it (keep it from Begin),
	// but never Update: each machine has another, and a tick that read it
	// would run differently on every peer. That is why a Tick has none.
	Local int

	num, den int64 // the tick length, for Tick
	lagStart int64 // lag before the first tick, units of 1/den ns
}

// Tick describes the i-th tick of the frame, 0 <= i < f.Ticks.
func (f Frame) Tick(i int) Tick {
	n := f.FirstTick + uint64(i)
	return Tick{
		N:    n,
		Time: time.Duration(mulDiv(n, uint64(f.num), uint64(f.den))),
		Dt:   time.Duration(f.num / f.den),
		Lag:  time.Duration((f.lagStart - int64(i)*f.num) / f.den),
		num:  f.num,
		den:  f.den,
	}
}

// Tick is one fixed update.
type Tick struct {
	// N numbers ticks from 0 since start.
	N uint64
	// Time is the game time at the start of the tick: N·dt, floored to ns.
	Time time.Duration
	// Dt is the tick length floored to whole ns (16,666,666 ns at 60 TPS).
	// Use DtSeconds for arithmetic: it is the exact length as a float.
	Dt time.Duration
	// Lag is the lag before this tick's dt is taken from it.
	Lag time.Duration
	// Rerun is true when the tick runs a second time, after a rollback (a
	// sync test, or netplay correcting a prediction): the world must come
	// out the same as the first time, but what the tick did outside the
	// world, such as starting a sound or writing a recording, it did
	// already. Skip that when Rerun is set.
	Rerun bool
	// Input holds the tick's input of every player, the game's own
	// per-tick input value (see Inputter), when Config.InputSize is set:
	// what the game's Input wrote, or what a replay or a netplay session
	// decided. Update reads the tick's input from here only.
	Input Inputs

	num, den int64
}

// DtSeconds returns the tick length in seconds, the number to integrate with.
// It is the same float64 for every tick, so the simulation is deterministic.
func (t Tick) DtSeconds() float64 { return float64(t.num) / float64(t.den) / 1e9 }

// EveryN reports whether this tick is one of every n ticks, starting at tick
// 0. It panics if n is 0.
func (t Tick) EveryN(n uint64) bool { return t.N%n == 0 }

// AtRate reports whether a sub-rate of hz per game second fires on this tick:
// AI at 10 Hz inside 60 TPS fires on ticks 0, 6, 12, ... A rate that does not
// divide the tick rate is spread evenly and is still exact: 7 Hz fires 7
// times in every game second, 420 times in a game minute. Rates at or above
// the tick rate fire on every tick. It panics if hz is not positive.
func (t Tick) AtRate(hz int) bool {
	if hz <= 0 {
		panic(fmt.Sprintf("engine: Tick.AtRate(%d): rate must be positive", hz))
	}
	if t.N == 0 {
		return true
	}
	// Event k is due at k/hz seconds and fires on the first tick that starts
	// at or after it: tick n fires when floor(n·hz·dt) > floor((n-1)·hz·dt),
	// with dt = num/den ns and time counted in seconds.
	per := uint64(hz) * uint64(t.num)
	sec := uint64(time.Second) * uint64(t.den)
	if per >= sec {
		return true
	}
	return mulDiv(t.N, per, sec) != mulDiv(t.N-1, per, sec)
}

// Advance feeds one frame's real elapsed time and returns what to do with it.
// A negative elapsed (a clock that stepped back) counts as zero.
func (t *Timestep) Advance(elapsed time.Duration) Frame {
	if elapsed < 0 {
		elapsed = 0
	}
	t.frames++
	t.elapsed += elapsed
	f := Frame{
		Index:       t.frames,
		Elapsed:     elapsed,
		FirstTick:   t.ticks,
		Extrapolate: t.extrap,
		num:         t.num,
		den:         t.den,
	}
	var dropped int64 // this frame, units of 1/den ns
	switch {
	case t.paused && t.steps > 0:
		t.steps--
		t.stepped++
		f.Ticks = 1
		f.lagStart = t.lag + t.num
		t.ticks++
	case t.paused:
		// Paused time feeds nothing, so resuming causes no burst.
	default:
		feed := t.scale(elapsed)
		t.scaled += time.Duration(feed)
		if t.maxFrame >= 0 && feed > t.maxFeed {
			dropped += (feed - t.maxFeed) * t.den
			feed = t.maxFeed
		}
		t.lag += feed * t.den
		n := t.lag / t.num
		if t.maxUpdates > 0 && n > t.maxUpdates {
			f.Overrun = true
			t.overruns++
			c := t.maxUpdates
			switch t.policy {
			case SlowMo:
				lost := (n - c) * t.num
				t.lag -= lost
				dropped += lost
			case Drop:
				lost := t.lag - c*t.num
				t.lag -= lost
				dropped += lost
			case CatchUp:
				// Keep the debt for later frames.
			}
			n = c
		}
		f.Ticks = int(n)
		f.lagStart = t.lag
		t.lag -= n * t.num
		t.ticks += uint64(n)
	}
	t.addDropped(dropped)
	f.Dropped = time.Duration(dropped / t.den)
	f.Debt = int(t.lag / t.num)
	f.Alpha = float64(t.lag%t.num) / float64(t.num)
	f.Lag = time.Duration(t.lag / t.den)
	return f
}

// scale converts real ns to game ns at the time scale, carrying the
// remainder so that no fraction of a nanosecond is lost across frames.
func (t *Timestep) scale(real time.Duration) int64 {
	if t.scaleDen == 1 && t.scaleNum == 1 {
		return int64(real)
	}
	hi, lo := bits.Mul64(uint64(real), uint64(t.scaleNum))
	lo, c := bits.Add64(lo, uint64(t.scaleCarry), 0)
	hi += c
	if hi >= uint64(t.scaleDen) {
		// Beyond 292 years of game time in one frame: saturate.
		t.scaleCarry = 0
		return int64(^uint64(0) >> 1)
	}
	q, r := bits.Div64(hi, lo, uint64(t.scaleDen))
	t.scaleCarry = int64(r)
	return int64(q)
}

func (t *Timestep) addDropped(units int64) {
	if units == 0 {
		return
	}
	t.dropRem += units
	t.dropNs += t.dropRem / t.den
	t.dropRem %= t.den
}

func (t *Timestep) setScale(s float64) {
	t.scaleNum, t.scaleDen = approxRatio(s, 1000)
	t.scaleCarry = 0
	if t.maxFrame >= 0 {
		t.maxFeed = int64(mulDiv(uint64(t.maxFrame), uint64(t.scaleNum), uint64(t.scaleDen)))
	}
}

// SetTimeScale changes how much game time one real second feeds (see
// Config.TimeScale). The tick length stays the same. Less than a nanosecond
// of carried remainder is discarded by the change.
func (t *Timestep) SetTimeScale(s float64) error {
	if err := (Config{TimeScale: s}).Validate(); err != nil {
		return err
	}
	if s == 0 {
		s = 1
	}
	t.setScale(s)
	return nil
}

// TimeScale returns the time scale in force, as the fraction it is kept as.
func (t *Timestep) TimeScale() float64 { return float64(t.scaleNum) / float64(t.scaleDen) }

// SetPaused pauses or resumes the simulation. Paused frames run no ticks
// (except queued single steps) and keep their alpha, and the time they span
// is not owed afterwards.
func (t *Timestep) SetPaused(p bool) {
	t.paused = p
	if !p {
		t.steps = 0
	}
}

// Paused reports whether the simulation is paused.
func (t *Timestep) Paused() bool { return t.paused }

// Step queues exactly one tick for the next frame while paused, for stepping
// through a simulation in a debugger. It does nothing unless paused.
func (t *Timestep) Step() {
	if t.paused {
		t.steps++
	}
}

// Resync discards all lag, debt included, as dropped time: call it after a
// long load or a teleport so that the next frames do not try to catch up.
func (t *Timestep) Resync() {
	t.addDropped(t.lag)
	t.lag = 0
}

// Dt returns the tick length floored to whole nanoseconds.
func (t *Timestep) Dt() time.Duration { return time.Duration(t.num / t.den) }

// TPS returns the tick rate in ticks per second.
func (t *Timestep) TPS() float64 { return 1e9 * float64(t.den) / float64(t.num) }

// Totals are a Timestep's sums since start.
type Totals struct {
	Frames   uint64
	Ticks    uint64
	Elapsed  time.Duration // real time fed, before scaling and clamping
	Sim      time.Duration // game time simulated: Ticks·dt, floored
	Lag      time.Duration // time owed now, floored
	Dropped  time.Duration // time discarded by the clamp, overruns and Resync, floored
	Overruns uint64
}

// Totals returns the sums since start.
func (t *Timestep) Totals() Totals {
	return Totals{
		Frames:   t.frames,
		Ticks:    t.ticks,
		Elapsed:  t.elapsed,
		Sim:      time.Duration(mulDiv(t.ticks, uint64(t.num), uint64(t.den))),
		Lag:      time.Duration(t.lag / t.den),
		Dropped:  time.Duration(t.dropNs),
		Overruns: t.overruns,
	}
}

// Save appends the timestep's position in game time to dst: the tick
// counter, so the next Tick.N and Tick.Time continue from it, and the lag,
// so the next frame's alpha does. Load puts them back. The rest (the
// configuration, pause, time scale, frame counts) stays. A game saved and
// loaded whole (a save file, a rewind to a checkpoint) saves its loop's
// timestep with it: l.Timestep().Save(dst).
func (t *Timestep) Save(dst []byte) []byte {
	dst = append(dst, "FXTS"...)
	dst = binary.LittleEndian.AppendUint64(dst, t.ticks)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(t.lag))
	return binary.LittleEndian.AppendUint64(dst, uint64(t.num))
}

// Load restores what Save wrote. Bytes of another length, or saved by a
// timestep of another tick length, give an error and change nothing.
func (t *Timestep) Load(src []byte) error {
	if len(src) != 28 || string(src[:4]) != "FXTS" {
		return fmt.Errorf("engine: timestep state of %d bytes: want 28 from Timestep.Save", len(src))
	}
	ticks := binary.LittleEndian.Uint64(src[4:])
	lag := int64(binary.LittleEndian.Uint64(src[12:]))
	num := int64(binary.LittleEndian.Uint64(src[20:]))
	switch {
	case num != t.num:
		return fmt.Errorf("engine: timestep state saved at another tick length (%d/%d ns, this one %d/%d)", num, t.den, t.num, t.den)
	case lag < 0 || lag/t.den > int64(time.Hour):
		return fmt.Errorf("engine: timestep state with a lag of %d/%d ns: out of range", lag, t.den)
	}
	t.ticks, t.lag = ticks, lag
	return nil
}

package engine

import (
	"math"
	"testing"
	"time"
)

func mustTimestep(t testing.TB, c Config) Timestep {
	t.Helper()
	ts, err := NewTimestep(c)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// display returns the frame intervals of a display at num/den Hz: frame k
// ends at floor(k·den·1e9/num) ns, so n frames span exactly that much time.
func display(num, den int64, n int) []time.Duration {
	out := make([]time.Duration, n)
	var prev int64
	for k := 1; k <= n; k++ {
		t := int64(k) * den * int64(time.Second) / num
		out[k-1] = time.Duration(t - prev)
		prev = t
	}
	return out
}

// TestExactTickCounts checks, after every frame of several displays, that
// the tick count is floor(elapsed·TPS/1e9) and alpha the exact remainder.
func TestExactTickCounts(t *testing.T) {
	cases := []struct {
		name     string
		num, den int64 // display refresh rate num/den Hz
		frames   int
		tps      int
		tick     time.Duration
		wantLast uint64 // ticks after the last frame
		hist     map[int]int
	}{
		{"60Hz display, 50Hz ticks", 60, 1, 600, 0, 20 * time.Millisecond, 500, map[int]int{0: 100, 1: 500}},
		{"144Hz display, 60 TPS", 144, 1, 1440, 60, 0, 600, map[int]int{0: 840, 1: 600}},
		{"240Hz display, 60 TPS", 240, 1, 2400, 60, 0, 600, map[int]int{0: 1800, 1: 600}},
		{"59.94Hz display, 60 TPS", 60000, 1001, 1000, 60, 0, 1000, map[int]int{1: 1000}},
		{"59.94Hz display, 60 TPS, 10000 frames", 60000, 1001, 10000, 60, 0, 10009, map[int]int{1: 9991, 2: 9}},
		// A display clock floored to whole ns runs a hair behind the exact
		// tick on two frames of three: exact time shows the 0/1/2 beat that
		// engine.Snapper exists to remove.
		{"60Hz display, 60 TPS", 60, 1, 600, 60, 0, 600, map[int]int{0: 200, 1: 200, 2: 200}},
		{"30Hz display, 60 TPS", 30, 1, 300, 60, 0, 600, map[int]int{1: 100, 2: 100, 3: 100}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := mustTimestep(t, Config{TPS: c.tps, Tick: c.tick})
			rate := int64(c.tps)
			var elapsed int64
			hist := map[int]int{}
			for i, d := range display(c.num, c.den, c.frames) {
				elapsed += int64(d)
				f := ts.Advance(d)
				hist[f.Ticks]++
				var want uint64
				var frac float64
				if c.tick > 0 {
					want = uint64(elapsed / int64(c.tick))
					frac = float64(elapsed%int64(c.tick)) / float64(c.tick)
				} else {
					want = uint64(elapsed * rate / int64(time.Second))
					frac = float64(elapsed*rate%int64(time.Second)) / float64(time.Second)
				}
				if got := ts.Totals().Ticks; got != want {
					t.Fatalf("frame %d: ticks = %d, want floor(%d ns · rate) = %d", i+1, got, elapsed, want)
				}
				if math.Abs(f.Alpha-frac) > 1e-9 || f.Alpha < 0 || f.Alpha >= 1 {
					t.Fatalf("frame %d: alpha = %v, want %v", i+1, f.Alpha, frac)
				}
			}
			if got := ts.Totals().Ticks; got != c.wantLast {
				t.Errorf("ticks after %d frames = %d, want %d", c.frames, got, c.wantLast)
			}
			for k, v := range c.hist {
				if hist[k] != v {
					t.Errorf("frames with %d ticks = %d, want %d (histogram %v)", k, hist[k], v, hist)
				}
			}
		})
	}
}

// TestDayOfSevenMsFrames is the drift case: 12,342,857 frames of 7 ms
// (86,399.999 s) at 60 TPS run floor(86,399,999,000,000·60/1e9) = 5,183,999
// ticks. A loop that rounds the tick to 16,666,666 ns runs 5,184,000.
func TestDayOfSevenMsFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("12 million frames")
	}
	ts := mustTimestep(t, Config{TPS: 60})
	const frames = 12_342_857
	for range frames {
		ts.Advance(7 * time.Millisecond)
	}
	tot := ts.Totals()
	if tot.Ticks != 5_183_999 {
		t.Errorf("ticks = %d, want 5183999", tot.Ticks)
	}
	if tot.Elapsed != 86_399_999*time.Millisecond {
		t.Errorf("elapsed = %v", tot.Elapsed)
	}
	// The rounded-tick loop drifts: it would count one tick more.
	if rounded := int64(tot.Elapsed) / 16_666_666; rounded != 5_184_000 {
		t.Errorf("rounded-tick reference = %d, want 5184000", rounded)
	}
	if tot.Dropped != 0 || tot.Overruns != 0 {
		t.Errorf("dropped %v, overruns %d; want none", tot.Dropped, tot.Overruns)
	}
}

func TestTieTicks(t *testing.T) {
	ts := mustTimestep(t, Config{Tick: 10 * time.Millisecond})
	if f := ts.Advance(10 * time.Millisecond); f.Ticks != 1 || f.Alpha != 0 || f.Lag != 0 {
		t.Errorf("lag == dt: ticks %d alpha %v lag %v, want 1, 0, 0", f.Ticks, f.Alpha, f.Lag)
	}
	if f := ts.Advance(10*time.Millisecond - 1); f.Ticks != 0 {
		t.Errorf("lag == dt-1ns: ticks %d, want 0", f.Ticks)
	}
	if f := ts.Advance(1); f.Ticks != 1 {
		t.Errorf("lag reaches dt: ticks %d, want 1", f.Ticks)
	}
}

func TestOneSecondFramesHalfSecondTicks(t *testing.T) {
	// Default clamp: 250 ms, raised to one tick (500 ms) so a tick can run
	// every frame; each 1 s frame feeds 500 ms and drops 500 ms.
	ts := mustTimestep(t, Config{Tick: 500 * time.Millisecond})
	for i := range 4 {
		f := ts.Advance(time.Second)
		if f.Ticks != 1 || f.Alpha != 0 || f.Dropped != 500*time.Millisecond {
			t.Errorf("clamped frame %d: ticks %d alpha %v dropped %v; want 1, 0, 500ms", i+1, f.Ticks, f.Alpha, f.Dropped)
		}
	}
	if got := ts.Totals().Dropped; got != 2*time.Second {
		t.Errorf("total dropped %v, want 2s", got)
	}

	// Clamp disabled: two ticks per frame, nothing dropped.
	ts = mustTimestep(t, Config{Tick: 500 * time.Millisecond, MaxFrameTime: -1})
	for i := range 4 {
		if f := ts.Advance(time.Second); f.Ticks != 2 || f.Alpha != 0 || f.Dropped != 0 {
			t.Errorf("unclamped frame %d: ticks %d alpha %v dropped %v; want 2, 0, 0", i+1, f.Ticks, f.Alpha, f.Dropped)
		}
	}
}

// TestStall feeds a 10 ms frame, a 10 s stall and then 60 Hz frames, under
// each overrun policy with a cap of 5 updates per frame.
func TestStall(t *testing.T) {
	tick := func(k int64) time.Duration { return time.Duration(k * int64(time.Second) / 60) }
	cases := []struct {
		name      string
		cfg       Config
		ticks     []int // per frame: the 10 ms frame, the stall, then 4 frames of 16,666,667 ns
		debt      []int
		dropped   time.Duration // total after all frames, floored
		overruns  uint64
		lastAlpha float64
	}{
		{
			name:    "no cap",
			cfg:     Config{TPS: 60},
			ticks:   []int{0, 15, 1, 1, 1, 1},
			debt:    []int{0, 0, 0, 0, 0, 0},
			dropped: 9750 * time.Millisecond,
			// lag after the stall: 10 ms; each frame adds 1e-9 s extra.
		},
		{
			name:     "slowmo",
			cfg:      Config{TPS: 60, MaxUpdatesPerFrame: 5},
			ticks:    []int{0, 5, 1, 1, 1, 1},
			debt:     []int{0, 0, 0, 0, 0, 0},
			dropped:  9750*time.Millisecond + tick(10),
			overruns: 1,
		},
		{
			name:     "drop",
			cfg:      Config{TPS: 60, MaxUpdatesPerFrame: 5, Overrun: Drop},
			ticks:    []int{0, 5, 1, 1, 1, 1},
			debt:     []int{0, 0, 0, 0, 0, 0},
			dropped:  9750*time.Millisecond + tick(10) + 10*time.Millisecond,
			overruns: 1,
		},
		{
			name:     "catchup",
			cfg:      Config{TPS: 60, MaxUpdatesPerFrame: 5, Overrun: CatchUp},
			ticks:    []int{0, 5, 5, 5, 3, 1},
			debt:     []int{0, 10, 6, 2, 0, 0},
			dropped:  9750 * time.Millisecond,
			overruns: 3,
		},
		{
			name:     "catchup without clamp",
			cfg:      Config{TPS: 60, MaxUpdatesPerFrame: 200, Overrun: CatchUp, MaxFrameTime: -1},
			ticks:    []int{0, 200, 200, 200, 3, 1},
			debt:     []int{0, 400, 201, 2, 0, 0},
			dropped:  0,
			overruns: 3,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := mustTimestep(t, c.cfg)
			frames := []time.Duration{10 * time.Millisecond, 10 * time.Second, 16666667, 16666667, 16666667, 16666667}
			for i, d := range frames {
				f := ts.Advance(d)
				if f.Ticks != c.ticks[i] || f.Debt != c.debt[i] {
					t.Errorf("frame %d (%v): ticks %d debt %d; want %d, %d", i+1, d, f.Ticks, f.Debt, c.ticks[i], c.debt[i])
				}
				if f.Alpha < 0 || f.Alpha >= 1 {
					t.Errorf("frame %d: alpha %v out of [0,1)", i+1, f.Alpha)
				}
				if f.Overrun != (c.cfg.MaxUpdatesPerFrame > 0 && f.Ticks == c.cfg.MaxUpdatesPerFrame && i > 0 && i < 4 && c.overruns > 0 && (i < 2 || c.cfg.Overrun == CatchUp)) {
					t.Errorf("frame %d: overrun = %v", i+1, f.Overrun)
				}
			}
			tot := ts.Totals()
			if tot.Dropped != c.dropped {
				t.Errorf("dropped %v (%d ns), want %v (%d ns)", tot.Dropped, tot.Dropped, c.dropped, c.dropped)
			}
			if tot.Overruns != c.overruns {
				t.Errorf("overruns %d, want %d", tot.Overruns, c.overruns)
			}
			assertBalance(t, &ts)
		})
	}
}

// assertBalance checks the conservation law: every nanosecond fed (after the
// time scale) is simulated, owed as lag, or reported as dropped.
func assertBalance(t testing.TB, ts *Timestep) {
	t.Helper()
	fed := int64(ts.scaled)*ts.den + int64(ts.stepped)*ts.num
	acc := int64(ts.ticks)*ts.num + ts.lag + ts.dropNs*ts.den + ts.dropRem
	if fed != acc {
		t.Fatalf("balance broken: fed %d units, simulated+lag+dropped %d units (den %d)", fed, acc, ts.den)
	}
}

func TestPauseResumeStep(t *testing.T) {
	ts := mustTimestep(t, Config{Tick: 10 * time.Millisecond})
	ts.Advance(15 * time.Millisecond) // 1 tick, alpha 0.5
	ts.SetPaused(true)
	for range 100 {
		if f := ts.Advance(15 * time.Millisecond); f.Ticks != 0 || f.Alpha != 0.5 {
			t.Fatalf("paused frame: ticks %d alpha %v; want 0, 0.5", f.Ticks, f.Alpha)
		}
	}
	ts.Step()
	ts.Step()
	if f := ts.Advance(time.Millisecond); f.Ticks != 1 || f.FirstTick != 1 || f.Alpha != 0.5 {
		t.Errorf("first step: ticks %d first %d alpha %v; want 1, 1, 0.5", f.Ticks, f.FirstTick, f.Alpha)
	}
	if f := ts.Advance(time.Millisecond); f.Ticks != 1 || f.FirstTick != 2 {
		t.Errorf("second step: ticks %d first %d; want 1, 2", f.Ticks, f.FirstTick)
	}
	if f := ts.Advance(time.Millisecond); f.Ticks != 0 {
		t.Errorf("steps used up: ticks %d, want 0", f.Ticks)
	}
	ts.SetPaused(false)
	// No burst: the 1.5 s spent paused is not owed.
	if f := ts.Advance(15 * time.Millisecond); f.Ticks != 2 || f.Alpha != 0 {
		t.Errorf("resumed: ticks %d alpha %v; want 2, 0", f.Ticks, f.Alpha)
	}
	if got := ts.Totals().Ticks; got != 5 {
		t.Errorf("ticks = %d, want 5", got)
	}
	ts.Step() // not paused: no effect
	if f := ts.Advance(0); f.Ticks != 0 {
		t.Errorf("Step while running queued a tick")
	}
	assertBalance(t, &ts)
}

func TestTimeScale(t *testing.T) {
	cases := []struct {
		scale float64
		ticks []int
	}{
		{0.25, []int{0, 0, 0, 1, 0, 0, 0, 1}},
		{0.5, []int{0, 1, 0, 1, 0, 1, 0, 1}},
		{2, []int{2, 2, 2, 2, 2, 2, 2, 2}},
		{1.5, []int{1, 2, 1, 2, 1, 2, 1, 2}},
	}
	for _, c := range cases {
		ts := mustTimestep(t, Config{Tick: 20 * time.Millisecond, TimeScale: c.scale})
		for i, want := range c.ticks {
			if f := ts.Advance(20 * time.Millisecond); f.Ticks != want {
				t.Errorf("scale %v frame %d: ticks %d, want %d", c.scale, i+1, f.Ticks, want)
			}
		}
		if ts.Dt() != 20*time.Millisecond {
			t.Errorf("scale %v changed dt to %v", c.scale, ts.Dt())
		}
		assertBalance(t, &ts)
	}
	// A third: every 3 frames of 1 ns feed exactly 1 ns of game time, so
	// 3,000,000 of them run exactly ten 100 µs ticks.
	ts := mustTimestep(t, Config{Tick: 100 * time.Microsecond, TimeScale: 1.0 / 3})
	var n int
	for range 3_000_000 {
		n += ts.Advance(1).Ticks
	}
	if n != 10 || ts.Totals().Sim != time.Millisecond {
		t.Errorf("scale 1/3: 3 ms of 1 ns frames ran %d ticks of 100 µs (%v), want 10 (1ms)", n, ts.Totals().Sim)
	}
	if err := ts.SetTimeScale(-1); err == nil {
		t.Error("SetTimeScale(-1) accepted")
	}
}

func TestResync(t *testing.T) {
	ts := mustTimestep(t, Config{TPS: 60, MaxUpdatesPerFrame: 2, Overrun: CatchUp})
	f := ts.Advance(100 * time.Millisecond) // 6 ticks owed, 2 run
	if f.Debt != 4 {
		t.Fatalf("debt %d, want 4", f.Debt)
	}
	ts.Resync()
	if f := ts.Advance(0); f.Ticks != 0 || f.Debt != 0 || f.Alpha != 0 {
		t.Errorf("after Resync: ticks %d debt %d alpha %v; want 0, 0, 0", f.Ticks, f.Debt, f.Alpha)
	}
	if got, want := ts.Totals().Dropped, 4*time.Second/60; got != want {
		t.Errorf("dropped %v, want %v", got, want)
	}
	assertBalance(t, &ts)
}

func TestTickInfo(t *testing.T) {
	ts := mustTimestep(t, Config{TPS: 60})
	ts.Advance(10 * time.Millisecond)
	f := ts.Advance(30 * time.Millisecond) // lag 40 ms: two ticks
	if f.Ticks != 2 {
		t.Fatalf("ticks %d, want 2", f.Ticks)
	}
	t0, t1 := f.Tick(0), f.Tick(1)
	if t0.N != 0 || t1.N != 1 || t0.Time != 0 || t1.Time != 16_666_666 {
		t.Errorf("ticks %+v %+v", t0, t1)
	}
	if t0.Lag != 40*time.Millisecond || t1.Lag != 23_333_333 {
		t.Errorf("lags %d %d; want 40000000, 23333333", t0.Lag, t1.Lag)
	}
	if t0.Dt != 16_666_666 || t0.DtSeconds() != 1.0/60 {
		t.Errorf("dt %d / %v", t0.Dt, t0.DtSeconds())
	}
}

func TestAtRate(t *testing.T) {
	for _, c := range []struct {
		tps, hz int
		want    int // fires per game second
	}{{60, 10, 10}, {60, 7, 7}, {60, 60, 60}, {60, 120, 60}, {144, 10, 10}, {50, 3, 3}} {
		ts := mustTimestep(t, Config{TPS: c.tps})
		f := ts.Advance(10 * time.Second)
		_ = f
		var fired, firstSecond int
		var ticks []uint64
		n := uint64(c.tps) * 60 // one game minute
		for i := uint64(0); i < n; i++ {
			tk := Tick{N: i, num: ts.num, den: ts.den}
			if tk.AtRate(c.hz) {
				fired++
				if i < uint64(c.tps) {
					firstSecond++
					ticks = append(ticks, i)
				}
			}
		}
		if fired != c.want*60 || firstSecond != c.want {
			t.Errorf("%d Hz in %d TPS: %d fires a minute, %d in the first second (%v); want %d, %d", c.hz, c.tps, fired, firstSecond, ticks, c.want*60, c.want)
		}
	}
	tk := Tick{N: 12, num: 50_000_000, den: 3}
	if !tk.AtRate(10) || !tk.EveryN(6) || tk.EveryN(5) {
		t.Error("tick 12 at 60 TPS: want AtRate(10), EveryN(6), not EveryN(5)")
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{TPS: -1}, "engine: Config.TPS = -1: must be positive (or zero for 60)"},
		{Config{Tick: -time.Millisecond}, "engine: Config.Tick = -1ms: must be positive (or zero to use TPS)"},
		{Config{TPS: MaxTPS + 1}, "engine: Config.TPS = 10001: must be at most MaxTPS (10000)"},
		{Config{TPS: 1e9}, "engine: Config.TPS = 1000000000: must be at most MaxTPS (10000)"},
		{Config{Tick: 99 * time.Microsecond}, "engine: Config.Tick = 99µs: must be at least 100µs (MaxTPS)"},
		{Config{MaxFrameTime: time.Nanosecond}, "engine: Config.MaxFrameTime = 1ns: shorter than one tick (16.666666ms), so no tick would ever run"},
		{Config{Tick: 20 * time.Millisecond, MaxFrameTime: 19 * time.Millisecond}, "engine: Config.MaxFrameTime = 19ms: shorter than one tick (20ms), so no tick would ever run"},
		{Config{TimeScale: 0.0004}, "engine: Config.TimeScale = 0.0004: rounds to 0 at the 1/1000 precision it is kept in; the smallest is 0.001 (pause to stop time)"},
		{Config{Overrun: 7}, "engine: Config.Overrun = 7: must be SlowMo, Drop or CatchUp"},
		{Config{TimeScale: 2000}, "engine: Config.TimeScale = 2000: must be in (0, 1000] (or zero for 1)"},
		{Config{FPSDecay: 1.5}, "engine: Config.FPSDecay = 1.5: must be in (0, 1] (or zero for 0.25)"},
	} {
		_, err := NewTimestep(c.cfg)
		if err == nil || err.Error() != c.want {
			t.Errorf("NewTimestep(%+v) error = %v, want %q", c.cfg, err, c.want)
		}
	}
	// Each limit itself is accepted.
	for _, c := range []Config{{TPS: MaxTPS}, {Tick: 100 * time.Microsecond}, {MaxFrameTime: time.Second / 60}, {TimeScale: MinTimeScale}, {MaxUpdatesPerFrame: -1}} {
		if _, err := NewTimestep(c); err != nil {
			t.Errorf("NewTimestep(%+v) = %v, want the limit accepted", c, err)
		}
	}
	if _, err := ParseOverrun("panic"); err == nil {
		t.Error("ParseOverrun(panic) accepted")
	}
	for _, o := range []Overrun{SlowMo, Drop, CatchUp} {
		if p, err := ParseOverrun(o.String()); err != nil || p != o {
			t.Errorf("ParseOverrun(%q) = %v, %v", o, p, err)
		}
	}
}

func TestApproxRatio(t *testing.T) {
	for _, c := range []struct {
		x    float64
		p, q int64
	}{{1, 1, 1}, {0.25, 1, 4}, {0.1, 1, 10}, {1.0 / 3, 1, 3}, {2, 2, 1}, {1.5, 3, 2}, {math.Pi, 355, 113}, {1000, 1000, 1}} {
		if p, q := approxRatio(c.x, 1000); p != c.p || q != c.q {
			t.Errorf("approxRatio(%v) = %d/%d, want %d/%d", c.x, p, q, c.p, c.q)
		}
	}
}

func TestAdvanceAllocs(t *testing.T) {
	ts := mustTimestep(t, Config{TPS: 60, TimeScale: 0.5})
	if n := testing.AllocsPerRun(1000, func() { ts.Advance(16 * time.Millisecond) }); n != 0 {
		t.Errorf("Advance allocates %v times per frame, want 0", n)
	}
}

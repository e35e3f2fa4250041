package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// drift is a small deterministic game for sync tests: particles that a
// seeded generator kicks, and a jump read from its input (Tick.Input, one
// byte: 1 for a press). From tick bugAt on it can misbehave as games do.
type drift struct {
	x, v    [16]float64
	rng     uint64
	jumps   int
	bugAt   uint64
	bug     string // "map", "time", "unsaved", "" for none
	hidden  float64
	updates int
}

func (d *drift) Update(t Tick) error {
	d.updates++
	dt := t.DtSeconds()
	if t.Input.Players() > 0 && t.Input.Player(0)[0] == 1 {
		d.jumps++
		d.v[0] += 3
	}
	for i := range d.x {
		d.rng ^= d.rng << 13
		d.rng ^= d.rng >> 7
		d.rng ^= d.rng << 17
		d.v[i] += float64(d.rng%1000)/1000 - 0.5
		d.x[i] += float64(d.v[i] * dt)
	}
	if t.N < d.bugAt {
		return nil
	}
	switch d.bug {
	case "map": // applies pushes in map order: float sums depend on it
		m := map[int]float64{}
		for i := range 64 {
			m[i] = float64(i*i+1) / 7
		}
		for i, p := range m {
			d.v[i%16] = d.v[i%16]*0.999 + p
		}
	case "time":
		d.v[3] += float64(time.Now().UnixNano()%1000) * 1e-12
	case "unsaved": // state that Save leaves out
		d.hidden += 1
		d.x[5] += d.hidden
	}
	return nil
}

func (d *drift) Draw(Frame) {}

func (d *drift) Save(dst []byte) []byte {
	for i := range d.x {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(d.x[i]))
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(d.v[i]))
	}
	dst = binary.LittleEndian.AppendUint64(dst, d.rng)
	return binary.LittleEndian.AppendUint64(dst, uint64(d.jumps))
}

func (d *drift) Load(src []byte) error {
	if len(src) != 16*16+16 {
		return fmt.Errorf("drift: %d bytes", len(src))
	}
	for i := range d.x {
		d.x[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[16*i:]))
		d.v[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[16*i+8:]))
	}
	d.rng = binary.LittleEndian.Uint64(src[256:])
	d.jumps = int(binary.LittleEndian.Uint64(src[264:]))
	return nil
}

// bot presses the jump button on every 7th frame, from Begin, as a
// player's hand would between frames; its Input hands the press to the
// next tick that runs, once, as a game's Input does with a device's edge.
type bot struct {
	*drift
	frame   int
	pressed bool
}

func (b *bot) Begin(Frame) error {
	b.frame++
	if b.frame%7 == 0 {
		b.pressed = true
	}
	return nil
}

func (b *bot) Input(_ Tick, dst []byte) {
	if b.pressed {
		dst[0], b.pressed = 1, false
	}
}

// TestSyncTestPassesADeterministicGame: every tick is run depth+1 times
// and nothing is reported; a rerun reads the Tick.Input its tick first
// read, so each press counts once.
func TestSyncTestPassesADeterministicGame(t *testing.T) {
	for _, depth := range []int{1, 2, 8} {
		g := &bot{drift: &drift{rng: 1}}
		if err := CheckSync(Config{TPS: 60, InputSize: 1}, g, 600, depth); err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if want := 600 + (600-(depth-1))*depth; g.updates != want {
			t.Errorf("depth %d: %d updates, want %d: 600 ticks, each run again %d times", depth, g.updates, want, depth)
		}
		// Frame 1 runs no tick (frames are a floored tick long), so the
		// bot's 7th frame is tick 5; 600 ticks hold 85 such frames.
		if g.jumps != 85 {
			t.Errorf("depth %d: %d jumps, want 85: a rerun must see the same presses, and count them once", depth, g.jumps)
		}
	}
}

// TestSyncTestFindsPlantedBugs at the tick they start.
func TestSyncTestFindsPlantedBugs(t *testing.T) {
	for _, bug := range []string{"map", "time", "unsaved"} {
		g := &drift{rng: 1, bug: bug, bugAt: 300}
		err := CheckSync(Config{TPS: 60}, g, 600, 4)
		var se *SyncError
		if !errors.As(err, &se) {
			t.Errorf("%s: CheckSync = %v, want a *SyncError", bug, err)
			continue
		}
		if se.Tick != 300 || se.Depth != 4 || !strings.Contains(se.Error(), "tick 300") {
			t.Errorf("%s: %v, want tick 300 at depth 4", bug, se)
		}
	}
}

// TestSyncTestNeedsASaver and a depth in range.
func TestSyncTestNeedsASaver(t *testing.T) {
	if err := CheckSync(Config{}, UpdateFunc(func(Tick) error { return nil }), 10, 2); err == nil || !strings.Contains(err.Error(), "engine.Saver") {
		t.Errorf("a game without Save and Load: %v", err)
	}
	if err := CheckSync(Config{}, &drift{}, 10, MaxSyncDepth+1); err == nil || !strings.Contains(err.Error(), "depth 9") {
		t.Errorf("depth 9: %v", err)
	}
}

// TestSyncTestAllocatesNothing per tick once its ring is full.
func TestSyncTestAllocatesNothing(t *testing.T) {
	g := &drift{rng: 1}
	l, err := NewLoop(Config{TPS: 60}, NewSim(ConstantFrames(time.Second/60)), g)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.SyncTest(8); err != nil {
		t.Fatal(err)
	}
	tk := l.Timestep().Advance(time.Second / 30).Tick(0)
	for i := range 20 {
		tk.N = uint64(i)
		if err := l.update(tk); err != nil {
			t.Fatal(err)
		}
	}
	n := testing.AllocsPerRun(100, func() {
		tk.N++
		if err := l.update(tk); err != nil {
			t.Fatal(err)
		}
	})
	if n != 0 {
		t.Errorf("a sync-tested tick allocates %v times, want 0", n)
	}
}

// TestTimestepSaveLoad: a loaded timestep continues from the saved tick
// and lag.
func TestTimestepSaveLoad(t *testing.T) {
	ts, _ := NewTimestep(Config{TPS: 60})
	ts.Advance(100 * time.Millisecond) // 6 ticks, 0 lag
	ts.Advance(10 * time.Millisecond)  // lag 10 ms
	saved := ts.Save(nil)
	f1 := ts.Advance(50 * time.Millisecond)
	ts.Advance(time.Second)
	if err := ts.Load(saved); err != nil {
		t.Fatal(err)
	}
	f2 := ts.Advance(50 * time.Millisecond)
	if f1.FirstTick != 6 || f2.FirstTick != f1.FirstTick || f2.Ticks != f1.Ticks || f2.Alpha != f1.Alpha {
		t.Errorf("after Load: first tick %d, %d ticks, alpha %v; want %d, %d, %v", f2.FirstTick, f2.Ticks, f2.Alpha, f1.FirstTick, f1.Ticks, f1.Alpha)
	}
	other, _ := NewTimestep(Config{TPS: 30})
	if err := other.Load(saved); err == nil {
		t.Error("a 30 TPS timestep loaded a 60 TPS state")
	}
	if err := ts.Load(saved[:20]); err == nil {
		t.Error("Load took 20 bytes")
	}
}

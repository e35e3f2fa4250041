package main

import (
	"bytes"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
)

// TestHotkeyActsOncePerPress: a hotkey read in Begin acts once per press,
// though its edge lasts until a tick ends and frames may run no tick; a
// new press after a tick acts again.
func TestHotkeyActsOncePerPress(t *testing.T) {
	g := &game{}
	keys := &g.keys
	const f3 = 1 // hotkeys[1]
	if hotkeys[f3] != input.KeyF3 {
		t.Fatalf("hotkeys[%d] is %v", f3, hotkeys[f3])
	}
	acts := func(first uint64) bool { return g.hotkey(engine.Frame{FirstTick: first}, f3) }
	if acts(10) {
		t.Fatal("acted with no press")
	}
	keys.KeyEvent(input.KeyF3, true)
	keys.KeyEvent(input.KeyF3, false)
	if !acts(10) {
		t.Fatal("a press did not act")
	}
	if acts(10) || acts(10) {
		t.Fatal("a press acted again in frames that ran no tick")
	}
	keys.EndTick() // a tick ran: the edge is gone
	if acts(11) {
		t.Fatal("acted after the press's tick ended")
	}
	keys.KeyEvent(input.KeyF3, true)
	if !acts(11) {
		t.Fatal("a second press, in a frame after a tick, did not act")
	}
	keys.EndTick()
	keys.KeyEvent(input.KeyF3, false)
	keys.KeyEvent(input.KeyF3, true) // pressed again before the next Begin
	if !acts(12) {
		t.Fatal("a third press, after the tick that ended the second's edge, did not act")
	}
}

// TestQualityLevelsAreTheRunners: the runner's loop and -quality have
// engine.DefaultQualityLevels above the lowest; the demo's knobs must
// name each of them, no more.
func TestQualityLevelsAreTheRunners(t *testing.T) {
	if top := len(levels) - 1; top != engine.DefaultQualityLevels {
		t.Errorf("the demo's knobs go up to level %d, the runner's to %d", top, engine.DefaultQualityLevels)
	}
}

// TestLoadGlides: a state Loaded (a rollback's, a snap's) that moves a body
// is drawn as a glide from where the body was drawn, gone 100 ms later; the
// simulation has the loaded state at once.
func TestLoadGlides(t *testing.T) {
	g := newGame(io.Discard)
	g.flags.n = 10
	if err := g.Start(1); err != nil {
		t.Fatal(err)
	}
	const k = 3 // a bouncer
	before := g.World.Bodies()[k].Pos
	a := g.Save(nil)
	b := &g.World.Bodies()[k]
	b.Pos.X++
	b.Prev.X++ // corrected a unit right, standing still
	moved := g.Save(nil)
	if err := g.Load(a); err != nil {
		t.Fatal(err)
	}
	frame := engine.Frame{Elapsed: 25 * time.Millisecond}
	draw := func() float64 {
		g.glide.Frame(frame)
		return g.drawn(k, 0).X
	}
	if x := draw(); x != before.X {
		t.Fatalf("first frame: drawn at x %v, want %v", x, before.X)
	}
	draw()
	if err := g.Load(moved); err != nil {
		t.Fatal(err)
	}
	if x := g.World.Bodies()[k].Pos.X; x != before.X+1 {
		t.Fatalf("loaded state has x %v, want %v", x, before.X+1)
	}
	if x := draw(); x != before.X {
		t.Errorf("frame after the Load: drawn at x %v, want %v, where it was drawn", x, before.X)
	}
	frame.Elapsed = 100 * time.Millisecond
	if x := draw(); x != before.X+1 {
		t.Errorf("100 ms later: drawn at x %v, want %v, where it is", x, before.X+1)
	}
}

// TestSyncTestRestoresItsOwnWorld: the demo's sync test loads, every tick
// once 8 have run, the state it saved 8 ticks before, through the game's
// Load and package save (as a netplay rollback does): the world restores
// each from its own snapshot, unchecked (physics.World.Restores), none
// checked as bytes from outside would be.
func TestSyncTestRestoresItsOwnWorld(t *testing.T) {
	var stdout, stderr bytes.Buffer
	g := newGame(&stderr)
	if err := app.Run(g, g.options([]string{"-headless", "-ticks", "120", "-synctest", "8", "-n", "50"}, &stdout, &stderr, nil)); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if own, checked := g.World.Restores(); own != 120-8 || checked != 0 {
		t.Errorf("the sync test's 112 loads restored %d of the world's own snapshots and %d checked; want 112, 0", own, checked)
	}
}

// TestProgressLine: headless, the demo prints its progress once a second
// of game time, and printing it allocates nothing: the runtime counts a
// span's allocations when it flushes it (at a GC), not as they are made,
// so a line formatted with fmt showed up in a netplay client's
// allocs_per_frame (0.03) though its frame was excluded.
func TestProgressLine(t *testing.T) {
	var out bytes.Buffer
	out.Grow(1 << 10)
	g := newGame(&out)
	g.flags.n = 10
	if err := g.Start(1); err != nil {
		t.Fatal(err)
	}
	box := g.World.Body(g.Osc).Pos
	s := &engine.Stats{Sim: 2 * time.Second, Ticks: 120, FPS: 59.94, FrameP99: 16712345 * time.Nanosecond, Dropped: 250 * time.Microsecond}
	if err := g.endHeadless(s); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("t=2.000s box=(%.3f, %.3f) ticks=120 fps=59.9 p99=16.712ms dropped=0.250ms\n", box.X, box.Y)
	if got := out.String(); got != want {
		t.Fatalf("progress line %q, want %q", got, want)
	}
	s.Sim += 500 * time.Millisecond
	if err := g.endHeadless(s); err != nil || out.Len() != len(want) {
		t.Fatalf("printed again half a second later (%v): %q", err, out.String())
	}
	allocs := testing.AllocsPerRun(100, func() {
		out.Reset()
		s.Sim += time.Second
		if err := g.endHeadless(s); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 || out.Len() == 0 {
		t.Errorf("printing the progress line allocated %v times (printed %q)", allocs, out.String())
	}
}

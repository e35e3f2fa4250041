package main

import (
	"testing"

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

package engine_test

import (
	"context"
	"fmt"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// pauseMenu is a game with a pause menu. While paused the loop still polls
// input, runs Begin and draws every frame, but runs no Update, and every
// frame draws at the alpha the pause froze: lerp(previous, current, alpha)
// gives one still picture, nothing shimmers. No tick runs, so no EndTick
// ends the input's edges: the menu reads its keys in Begin and ends them
// itself (with input.State.EndTick; here the presses are scripted).
type pauseMenu struct {
	loop    *engine.Loop
	pressed map[uint64]bool // frames where the pause key is pressed
	frame   uint64
}

func (g *pauseMenu) Begin(f engine.Frame) error {
	g.frame = f.Index
	ts := g.loop.Timestep()
	if ts.Paused() && g.pressed[f.Index] { // the menu's "resume"
		delete(g.pressed, f.Index) // the press is used up, as EndTick would
		ts.SetPaused(false)
		fmt.Printf("frame %d: resume\n", f.Index)
	}
	return nil
}

func (g *pauseMenu) Update(t engine.Tick) error {
	if g.pressed[g.frame] { // the game's "pause", read at the tick like all game input
		delete(g.pressed, g.frame) // seen by exactly one update
		g.loop.Timestep().SetPaused(true)
		fmt.Printf("frame %d: pause after tick %d\n", g.frame, t.N)
	}
	return nil
}

func (g *pauseMenu) Draw(f engine.Frame) {
	fmt.Printf("frame %d: %d ticks, alpha %.2f\n", f.Index, f.Ticks, f.Alpha)
}

func (g *pauseMenu) End(s *engine.Stats) error {
	if s.Frames == 7 {
		return engine.ErrStopped
	}
	return nil
}

// A pause menu: pausing holds the simulation still (no Update, alpha
// frozen) from the next frame on while frames keep coming (the ticks the
// pausing frame had already decided still run: an Update that must stop at
// once checks Paused), and resuming owes nothing for the time paused.
func ExampleTimestep_SetPaused() {
	g := &pauseMenu{pressed: map[uint64]bool{2: true, 5: true}}
	clock := engine.NewSim(engine.ConstantFrames(25 * time.Millisecond))
	loop, _ := engine.NewLoop(engine.Config{TPS: 60}, clock, g)
	g.loop = loop
	loop.Run(context.Background())
	// Output:
	// frame 0: 0 ticks, alpha 0.00
	// frame 1: 1 ticks, alpha 0.50
	// frame 2: pause after tick 1
	// frame 2: 2 ticks, alpha 0.00
	// frame 3: 0 ticks, alpha 0.00
	// frame 4: 0 ticks, alpha 0.00
	// frame 5: resume
	// frame 5: 0 ticks, alpha 0.00
	// frame 6: 1 ticks, alpha 0.50
	// frame 7: 2 ticks, alpha 0.00
}

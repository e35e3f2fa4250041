// Package engine is fixstep's game loop: a fixed-timestep core that runs the
// simulation at an exact tick rate and tells the renderer how far between two
// ticks to draw, wrapped in a thin loop that owns the clock.
//
// The core, Timestep, is a value driven with numbers: real elapsed time in,
// a Frame out (ticks to run, interpolation alpha, dropped time, overrun). It
// keeps time in exact integer fractions of a nanosecond, so 60 TPS never
// drifts, clamps long frames (250 ms by default) and caps updates per frame
// with a chosen overrun policy. Monitor turns frame timings into an FPS
// average, a work-time average and frame-time percentiles. Loop runs a Game
// on a Platform, calling the hooks in this order every frame:
//
//	Begin(frame)      optional: input and frame logic, before any update
//	Update(tick) × N  the fixed step, N = frame.Ticks (often 0, 1 or 2)
//	Draw(frame)       once, at frame.Alpha between the last two ticks
//	End(stats)        optional: after Present, with FPS and overruns
//
// Determinism: Update must be a function of the game's state (Saver) and
// Tick.Input alone, in portable arithmetic (see package detmath and the
// README's Determinism section); devices are read in Input or Begin, never
// in Update. Loop.SyncTest (and CheckSync, for a game's own test) saves
// the game, runs every tick again after a rollback with the same
// Tick.Input and names the first tick that differs; Tick.Rerun tells the
// game a tick is such a second run.
//
// The package imports no cgo package: it runs the same on a server, in a
// test or in a tool. The window lives in package gfx, which implements
// Platform. Everything here runs on the goroutine that calls Loop.Run.
//
// A complete headless game, pasteable as main.go:
//
//	package main
//
//	import (
//		"context"
//		"errors"
//		"fmt"
//		"log"
//		"math"
//
//		"github.com/fixstep/fixstep/engine"
//	)
//
//	// box oscillates on a 1 Hz spring; Update integrates it at the fixed tick.
//	// Each product is rounded before it is added (float64(...)), so no
//	// build fuses it into a multiply-add: the same world on every CPU.
//	type box struct {
//		prev, pos, vel float64
//	}
//
//	func (b *box) Update(t engine.Tick) error {
//		dt := t.DtSeconds()
//		b.prev = b.pos
//		b.vel -= float64(4 * math.Pi * math.Pi * b.pos * dt)
//		b.pos += float64(b.vel * dt)
//		if (t.N+1)%60 == 0 { // every game second
//			fmt.Printf("second %d: pos=%+.3f\n", (t.N+1)/60, b.pos)
//		}
//		if t.N+1 == 180 {
//			return engine.ErrStopped // a clean stop after 3 s of game time
//		}
//		return nil
//	}
//
//	// Draw would draw at lerp(prev, pos, f.Alpha) in a window.
//	func (b *box) Draw(f engine.Frame) {}
//
//	// End runs after each frame with the loop's stats.
//	func (b *box) End(s *engine.Stats) error {
//		if s.Overruns > 0 {
//			log.Printf("frame %d overran: %v dropped", s.Frames, s.Dropped)
//		}
//		return nil
//	}
//
//	func main() {
//		loop, err := engine.NewLoop(engine.Config{TPS: 60}, engine.NewHeadless(60), &box{pos: 1})
//		if err != nil {
//			log.Fatal(err)
//		}
//		if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
//			log.Fatal(err)
//		}
//		fmt.Println("stopped cleanly")
//	}
package engine

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
//		"time"
//
//		"fixstep/engine"
//	)
//
//	// box oscillates around the origin; Update integrates it at the fixed tick.
//	type box struct {
//		prev, pos, vel float64
//	}
//
//	func (b *box) Update(t engine.Tick) error {
//		b.prev = b.pos
//		b.vel -= 4 * math.Pi * math.Pi * b.pos * t.DtSeconds() // spring, 1 Hz
//		b.pos += b.vel * t.DtSeconds()
//		return nil
//	}
//
//	func (b *box) Draw(f engine.Frame) {} // a window would lerp(prev, pos, f.Alpha)
//
//	func (b *box) End(s *engine.Stats) error {
//		if s.Frames%60 == 0 {
//			fmt.Printf("t=%v pos=%+.3f fps=%.1f\n", s.Sim, b.pos, s.FPS)
//		}
//		if s.Sim >= 3*time.Second {
//			return engine.ErrStopped
//		}
//		return nil
//	}
//
//	func main() {
//		loop, err := engine.NewLoop(engine.Config{TPS: 60}, engine.NewHeadless(60), &box{pos: 1})
//		if err != nil {
//			log.Fatal(err)
//		}
//		if err := loop.Run(context.Background()); err != nil && !errors.Is(err, engine.ErrStopped) {
//			log.Fatal(err)
//		}
//	}
package engine

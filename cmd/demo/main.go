// Command demo is fixstep's showcase. Until the window lands it runs in
// server mode: an oscillating box simulated at a fixed tick, printing its
// position and the loop's stats once per second.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"time"

	"fixstep/engine"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		log.Fatal("demo: ", err)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	tps := fs.Int("tps", 60, "ticks per second")
	seconds := fs.Float64("seconds", 4, "run this many seconds of game time, then exit")
	fs.Bool("headless", true, "run without a window (the only mode until the window exists)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	b := &box{until: time.Duration(*seconds * float64(time.Second))}
	loop, err := engine.NewLoop(engine.Config{TPS: *tps}, engine.NewHeadless(60), b)
	if err != nil {
		return err
	}
	err = loop.Run(context.Background())
	if !errors.Is(err, engine.ErrStopped) {
		return err
	}
	s := loop.Stats()
	fmt.Printf("stats frames=%d ticks=%d fps=%.1f dropped_ms=%.3f overruns=%d\n",
		s.Frames, s.Ticks, s.FPS, float64(s.Dropped)/1e6, s.Overruns)
	return nil
}

// box oscillates on a 1 Hz spring.
type box struct {
	prev, pos, vel float64
	until          time.Duration
	lastPrint      time.Duration
}

func (b *box) Update(t engine.Tick) error {
	if t.N == 0 {
		b.pos = 1
	}
	b.prev = b.pos
	dt := t.DtSeconds()
	b.vel -= 4 * math.Pi * math.Pi * b.pos * dt
	b.pos += b.vel * dt
	return nil
}

func (b *box) Draw(engine.Frame) {}

func (b *box) End(s *engine.Stats) error {
	if s.Sim-b.lastPrint >= time.Second {
		b.lastPrint = s.Sim
		fmt.Printf("t=%-4v pos=%+.4f ticks=%d fps=%.1f p99=%v dropped=%v\n", s.Sim, b.pos, s.Ticks, s.FPS, s.FrameP99, s.Dropped)
	}
	if s.Sim >= b.until {
		return engine.ErrStopped
	}
	return nil
}

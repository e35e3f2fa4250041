package engine_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// A 60 Hz tick under frames of 25 ms: some frames run two updates, some one,
// and alpha says how far into the next tick each frame draws.
func ExampleTimestep() {
	ts, err := engine.NewTimestep(engine.Config{TPS: 60})
	if err != nil {
		panic(err)
	}
	for range 6 {
		f := ts.Advance(25 * time.Millisecond)
		fmt.Printf("frame %d: %d ticks, alpha %.2f\n", f.Index, f.Ticks, f.Alpha)
	}
	// Output:
	// frame 1: 1 ticks, alpha 0.50
	// frame 2: 2 ticks, alpha 0.00
	// frame 3: 1 ticks, alpha 0.50
	// frame 4: 2 ticks, alpha 0.00
	// frame 5: 1 ticks, alpha 0.50
	// frame 6: 2 ticks, alpha 0.00
}

// A 10 s stall is clamped to 250 ms; with a cap of 4 updates, SlowMo drops
// the rest and the frame reports it.
func ExampleTimestep_overrun() {
	ts, _ := engine.NewTimestep(engine.Config{Tick: 20 * time.Millisecond, MaxUpdatesPerFrame: 4})
	f := ts.Advance(10 * time.Second)
	fmt.Println("ticks:", f.Ticks, "overrun:", f.Overrun, "dropped:", f.Dropped, "alpha:", f.Alpha)
	// Output:
	// ticks: 4 overrun: true dropped: 9.91s alpha: 0.5
}

// Pausing freezes the game and owes nothing; Step advances exactly one tick.
func ExampleTimestep_Step() {
	ts, _ := engine.NewTimestep(engine.Config{Tick: 10 * time.Millisecond})
	ts.SetPaused(true)
	fmt.Println(ts.Advance(time.Second).Ticks)
	ts.Step()
	fmt.Println(ts.Advance(time.Second).Ticks)
	ts.SetPaused(false)
	fmt.Println(ts.Advance(30 * time.Millisecond).Ticks)
	// Output:
	// 0
	// 1
	// 3
}

// AI at 10 Hz inside a 60 Hz simulation.
func ExampleTick_AtRate() {
	ts, _ := engine.NewTimestep(engine.Config{TPS: 60})
	f := ts.Advance(250 * time.Millisecond)
	for i := range f.Ticks {
		if t := f.Tick(i); t.AtRate(10) {
			fmt.Println("think at tick", t.N, "game time", t.Time)
		}
	}
	// Output:
	// think at tick 0 game time 0s
	// think at tick 6 game time 100ms
	// think at tick 12 game time 200ms
}

// A headless game on a simulated clock: three frames of 40 ms at 50 TPS.
func ExampleLoop() {
	pos := 0.0
	game := engine.UpdateFunc(func(t engine.Tick) error {
		pos += 2 * t.DtSeconds() // 2 units per second
		fmt.Printf("tick %d at %v: pos %.2f\n", t.N, t.Time, pos)
		return nil
	})
	clock := engine.NewSim(&engine.ScriptFrames{Intervals: []time.Duration{
		40 * time.Millisecond, 40 * time.Millisecond, 40 * time.Millisecond,
	}})
	loop, err := engine.NewLoop(engine.Config{TPS: 50}, clock, game)
	if err != nil {
		panic(err)
	}
	err = loop.Run(context.Background())
	fmt.Println("stopped cleanly:", errors.Is(err, engine.ErrStopped), "ticks:", loop.Stats().Ticks)
	// Output:
	// tick 0 at 0s: pos 0.04
	// tick 1 at 20ms: pos 0.08
	// tick 2 at 40ms: pos 0.12
	// tick 3 at 60ms: pos 0.16
	// tick 4 at 80ms: pos 0.20
	// tick 5 at 100ms: pos 0.24
	// stopped cleanly: true ticks: 6
}

package arena

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
	"github.com/fixstep/fixstep/physics"
)

// BenchmarkRollback8 is what a rollback costs netplay on the demo's
// 300-body world: load the state of 8 ticks ago and simulate those 8 ticks
// again, saving after each (a rollback session keeps every tick's state).
// The world alone, then on pools of 2 and 4 workers (physics.Workers): a
// world this small steps alone below the pool's threshold, so a pool
// must cost nothing. BenchmarkTick is one tick with its save, the
// per-frame cost with no rollback at 60 Hz.
func BenchmarkRollback8(b *testing.B) {
	b.Run("workers=1", func(b *testing.B) { rollback8(b, nil) })
	for _, n := range []int{2, 4} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			p := physics.NewWorkers(n)
			defer p.Close()
			rollback8(b, p)
		})
	}
}

func rollback8(b *testing.B, p *physics.Workers) {
	s, ticks, saved := rollbackScene(b)
	s.World.Workers = p
	var state []byte
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Load(saved); err != nil {
			b.Fatal(err)
		}
		for _, t := range ticks {
			t.Rerun = true
			if err := s.Update(t); err != nil {
				b.Fatal(err)
			}
			state = s.Save(state[:0])
		}
	}
}

func BenchmarkTick(b *testing.B) {
	s, ticks, saved := rollbackScene(b)
	var state []byte
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Load(saved); err != nil { // the same tick every time, not a world at rest
			b.Fatal(err)
		}
		if err := s.Update(ticks[0]); err != nil {
			b.Fatal(err)
		}
		state = s.Save(state[:0])
	}
}

// rollbackScene runs the demo's world for 2 s, so its bodies pile up and
// bounce, then saves it and returns the 8 ticks that follow.
func rollbackScene(b *testing.B) (*Scene, []engine.Tick, []byte) {
	b.Helper()
	bindings, err := ParseBindings(strings.NewReader(DefaultBindings), "bindings")
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(300, 1, input.NewActions(&input.State{}, bindings))
	if err != nil {
		b.Fatal(err)
	}
	ts, err := engine.NewTimestep(engine.Config{TPS: 60})
	if err != nil {
		b.Fatal(err)
	}
	f := ts.Advance(2*1e9 + 8*16_666_667)
	in := engine.NewInputs(make([]byte, InputSize), InputSize, 0) // the player stands still
	tick := func(i int) engine.Tick {
		t := f.Tick(i)
		t.Input = in
		return t
	}
	for i := range f.Ticks - 8 {
		if err := s.Update(tick(i)); err != nil {
			b.Fatal(err)
		}
	}
	saved := s.Save(nil)
	var ticks []engine.Tick
	for i := f.Ticks - 8; i < f.Ticks; i++ {
		ticks = append(ticks, tick(i))
	}
	return s, ticks, saved
}

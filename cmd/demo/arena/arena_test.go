package arena

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
)

func newScene(t *testing.T, n int) (*Scene, *input.State) {
	t.Helper()
	b, err := ParseBindings(strings.NewReader(DefaultBindings), "built-in bindings")
	if err != nil {
		t.Fatal(err)
	}
	keys := &input.State{}
	s, err := New(n, 1, input.NewActions(keys, b))
	if err != nil {
		t.Fatal(err)
	}
	return s, keys
}

// player presses keys from Begin, as a hand between frames, so the sync
// test has edges to run again.
type player struct {
	*Scene
	keys  *input.State
	frame int
	plant func(*Scene, engine.Tick)
}

func (p *player) Begin(engine.Frame) error {
	p.frame++
	switch p.frame % 60 {
	case 5:
		p.keys.KeyEvent(input.KeyRight, true)
	case 25:
		p.keys.KeyEvent(input.KeySpace, true)
		p.keys.KeyEvent(input.KeySpace, false)
	case 45:
		p.keys.KeyEvent(input.KeyRight, false)
	}
	return nil
}

// Input is the scene's, then ends the keys' tick, as the window does after
// each tick: CheckSync's platform has no devices to end.
func (p *player) Input(t engine.Tick, dst []byte) {
	p.Scene.Input(t, dst)
	p.keys.EndTick()
}

func (p *player) Update(t engine.Tick) error {
	if p.plant != nil {
		p.plant(p.Scene, t)
	}
	return p.Scene.Update(t)
}

func (p *player) Draw(engine.Frame) {}

// TestSyncTestPassesTheDemo: the demo's world, its player moving and
// jumping, runs every tick again after rollbacks of 8 ticks with nothing
// different, across three kicks.
func TestSyncTestPassesTheDemo(t *testing.T) {
	s, keys := newScene(t, 300)
	p := &player{Scene: s, keys: keys}
	if err := engine.CheckSync(engine.Config{TPS: 60, InputSize: InputSize}, p, 600, engine.MaxSyncDepth); err != nil {
		t.Fatal(err)
	}
	if s.World.Body(s.Player).Pos.X == Width*0.3 {
		t.Error("the player never moved: the input did not reach the scene")
	}
}

// TestSyncTestCatchesPlantedBugs: a map iterated in Update and time.Now
// read in Update, from tick 200 on, are reported at tick 200 with the
// body and field that differ.
func TestSyncTestCatchesPlantedBugs(t *testing.T) {
	bugs := map[string]func(*Scene, engine.Tick){
		// Kicks bodies in map order: each takes the generator's next number.
		"map": func(s *Scene, t engine.Tick) {
			m := map[int]bool{}
			for i := range 32 {
				m[s.First+i] = true
			}
			for i := range m {
				s.World.Bodies()[i].Vel.X += float64(s.rng.IntN(100)) / 100
			}
		},
		// Nudges the player by the wall clock.
		"time.Now": func(s *Scene, t engine.Tick) {
			s.World.Body(s.Player).Vel.Y += float64(time.Now().UnixNano()%997) * 1e-9
		},
	}
	for name, bug := range bugs {
		s, keys := newScene(t, 100)
		p := &player{Scene: s, keys: keys, plant: func(s *Scene, t engine.Tick) {
			if t.N >= 200 {
				bug(s, t)
			}
		}}
		err := engine.CheckSync(engine.Config{TPS: 60, InputSize: InputSize}, p, 400, 2)
		var se *engine.SyncError
		if !errors.As(err, &se) {
			t.Errorf("%s: CheckSync = %v, want a *engine.SyncError", name, err)
			continue
		}
		if se.Tick != 200 || !strings.HasPrefix(se.Diff, "World: body ") {
			t.Errorf("%s: %v, want tick 200 and the body that differs", name, se)
		}
		t.Logf("%s: %v", name, se)
	}
}

// TestSaveLoad: a scene loaded from a save runs to the same world as the
// one saved; bad bytes change nothing.
func TestSaveLoad(t *testing.T) {
	a, _ := newScene(t, 200)
	b, _ := newScene(t, 50)
	tk := engine.Tick{Dt: time.Second / 60}
	step := func(s *Scene, from, to int) {
		ts, _ := engine.NewTimestep(engine.Config{TPS: 60})
		f := ts.Advance(time.Duration(to) * time.Second / 60)
		for i := from; i < to; i++ {
			tk = f.Tick(i)
			tk.Input = engine.NewInputs(make([]byte, InputSize), InputSize, 0) // no one presses anything
			if err := s.Update(tk); err != nil {
				t.Fatal(err)
			}
		}
	}
	step(a, 0, 170) // a kick comes at 180
	saved := a.Save(nil)
	if err := b.Load(saved); err != nil {
		t.Fatal(err)
	}
	step(a, 170, 400)
	step(b, 170, 400)
	if wa, wb := a.Save(nil), b.Save(nil); !bytes.Equal(wa, wb) {
		t.Fatalf("the loaded scene diverged: %s", a.Diff(wa, wb))
	}
	before := b.Save(nil)
	for _, bad := range [][]byte{nil, saved[:10], saved[:len(saved)-1], append([]byte("XXXX"), saved[4:]...)} {
		if err := b.Load(bad); err == nil {
			t.Errorf("Load took %d bad bytes", len(bad))
		}
	}
	if !bytes.Equal(b.Save(nil), before) {
		t.Error("a refused Load changed the scene")
	}
}

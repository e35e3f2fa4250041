package input

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// scripted is an engine.Platform whose frames run a chosen number of
// updates and deliver chosen key events at the start of each frame.
type scripted struct {
	in     *State
	frames []frame
	i      int
	now    time.Duration
}

type frame struct {
	ticks  int      // updates this frame runs (tick = 10 ms)
	events []string // "+Space" down, "-Space" up, in order
}

func (p *scripted) Now() time.Duration { return p.now }

func (p *scripted) Poll() error {
	if p.i >= len(p.frames) {
		return engine.ErrStopped
	}
	for _, e := range p.frames[p.i].events {
		k, ok := ParseKey(e[1:])
		if !ok {
			panic("bad key " + e)
		}
		p.in.KeyEvent(k, e[0] == '+')
	}
	return nil
}

// Present advances the clock by the next frame's ticks: a frame's interval
// is measured from the previous frame's start.
func (p *scripted) Present() error {
	p.i++
	if p.i < len(p.frames) {
		p.now += time.Duration(p.frames[p.i].ticks) * 10 * time.Millisecond
	}
	return nil
}

func (p *scripted) EndTick() { p.in.EndTick() }

// watcher logs what each update sees of Space.
type watcher struct {
	in  *State
	log []string
}

func (w *watcher) Update(t engine.Tick) error {
	var s []string
	if w.in.Pressed(KeySpace) {
		s = append(s, "pressed")
	}
	if w.in.Released(KeySpace) {
		s = append(s, "released")
	}
	if w.in.Down(KeySpace) {
		s = append(s, "down")
	}
	if n := w.in.Transitions(KeySpace); n > 0 {
		s = append(s, fmt.Sprintf("x%d", n))
	}
	w.log = append(w.log, fmt.Sprintf("tick %d: %s", t.N, strings.Join(s, " ")))
	return nil
}

func (w *watcher) Draw(engine.Frame) {}

// runScript runs frames through a real engine.Loop and returns what each
// update saw. The first frame of a script is its initial present.
func runScript(t *testing.T, frames []frame) []string {
	t.Helper()
	in := &State{}
	p := &scripted{in: in, frames: append([]frame{{}}, frames...)}
	w := &watcher{in: in}
	l, err := engine.NewLoop(engine.Config{Tick: 10 * time.Millisecond}, p, w)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
		t.Fatal(err)
	}
	return w.log
}

func TestPerTickEdges(t *testing.T) {
	cases := []struct {
		name   string
		frames []frame
		want   []string
	}{
		{
			name:   "press in a frame of zero updates reaches the next update",
			frames: []frame{{0, []string{"+Space"}}, {0, nil}, {1, nil}, {1, nil}},
			want:   []string{"tick 0: pressed down x1", "tick 1: down"},
		},
		{
			name:   "edges go to the first of three updates",
			frames: []frame{{3, []string{"+Space"}}, {3, []string{"-Space"}}},
			want:   []string{"tick 0: pressed down x1", "tick 1: down", "tick 2: down", "tick 3: released x1", "tick 4: ", "tick 5: "},
		},
		{
			name:   "a tap inside one frame is never lost",
			frames: []frame{{0, []string{"+Space", "-Space"}}, {1, nil}, {1, nil}},
			want:   []string{"tick 0: pressed released x2", "tick 1: "},
		},
		{
			name:   "two taps inside one tick count four transitions",
			frames: []frame{{1, []string{"+Space", "-Space", "+Space", "-Space"}}},
			want:   []string{"tick 0: pressed released x4"},
		},
		{
			name:   "a press then a release in a later frame of zero updates",
			frames: []frame{{0, []string{"+Space"}}, {0, []string{"-Space"}}, {2, nil}},
			want:   []string{"tick 0: pressed released x2", "tick 1: "},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := runScript(t, c.frames)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("updates saw\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestReleaseAllOnFocusLoss(t *testing.T) {
	var s State
	s.KeyEvent(KeyW, true)
	s.MouseButtonEvent(MouseLeft, true)
	s.EndTick()
	s.ReleaseAll()
	if s.Down(KeyW) || !s.Released(KeyW) || s.MouseDown(MouseLeft) || !s.MouseReleased(MouseLeft) {
		t.Error("ReleaseAll left keys or buttons down, or gave no release edge")
	}
}

func TestMouseTextPads(t *testing.T) {
	var s State
	s.MouseMotion(10, 20, 20, 40, 3, -1)
	s.MouseMotion(12, 22, 24, 44, 2, 2)
	s.WheelEvent(0, 1)
	s.TextEvent([]byte("hé"))
	m := s.Mouse()
	if m.X != 12 || m.PixelY != 44 || m.DX != 5 || m.DY != 1 || m.WheelY != 1 || string(s.Text()) != "hé" {
		t.Errorf("mouse %+v text %q", m, s.Text())
	}
	s.EndTick()
	if m := s.Mouse(); m.DX != 0 || m.WheelY != 0 || len(s.Text()) != 0 || m.X != 12 {
		t.Errorf("after EndTick: mouse %+v text %q; want motion and text cleared, position kept", m, s.Text())
	}

	s.PadAdded(s.FreePadSlot(), 77)
	slot := s.PadSlot(77)
	s.PadButtonEvent(slot, PadA, true)
	s.PadAxisEvent(slot, PadLeftX, -0.8)
	p := s.Pad(slot)
	if slot != 0 || !p.Pressed(PadA) || p.Axis(PadLeftX) != -0.8 {
		t.Errorf("pad slot %d pressed %v axis %v", slot, p.Pressed(PadA), p.Axis(PadLeftX))
	}
	s.EndTick()
	s.PadRemoved(slot)
	if p.Connected || p.Down(PadA) || !p.Released(PadA) || p.Axis(PadLeftX) != 0 {
		t.Error("removing a pad must release its buttons and center its axes")
	}
}

func TestKeyNames(t *testing.T) {
	for k, want := range map[Key]string{KeySpace: "Space", KeyA: "A", Key0: "0", KeyF12: "F12", KeyLeftShift: "Left Shift", KeyKP7: "Keypad 7"} {
		if k.String() != want {
			t.Errorf("Key(%d).String() = %q, want %q", k, k.String(), want)
		}
		if got, ok := ParseKey(strings.ToLower(want)); !ok || got != k {
			t.Errorf("ParseKey(%q) = %v, %v", want, got, ok)
		}
	}
}

func BenchmarkEventsAndTicks(b *testing.B) {
	var s State
	b.ReportAllocs()
	for b.Loop() {
		for i := range 1000 {
			k := Key(4 + i%40)
			s.KeyEvent(k, i%2 == 0)
			s.MouseMotion(1, 2, 2, 4, 1, 1)
		}
		for range 1000 {
			s.Pressed(KeySpace)
			s.EndTick()
		}
	}
}

func TestEventsAndTicksAllocateNothing(t *testing.T) {
	var s State
	var m Bindings
	m.Bind(0, KeyBinding(KeySpace), PadAxisBinding(PadLeftX, 1, 0.2))
	in := NewActions(&s, &m)
	n := testing.AllocsPerRun(10, func() {
		for i := range 1000 {
			s.KeyEvent(Key(4+i%40), i%2 == 0)
			s.TextEvent([]byte("a"))
		}
		for range 1000 {
			in.Pressed(0)
			in.Value(0)
			s.EndTick()
		}
	})
	if n != 0 {
		t.Errorf("1000 events and 1000 ticks allocate %v times, want 0", n)
	}
}

func TestEndTickClearsManyEdges(t *testing.T) {
	// More keys than the dirty list holds change in one tick.
	var s State
	for k := KeyA; k <= Key0; k++ {
		s.KeyEvent(k, true)
	}
	s.EndTick()
	for k := KeyA; k <= Key0; k++ {
		if s.Pressed(k) || !s.Down(k) {
			t.Fatalf("%v: pressed %v down %v after EndTick; want false, true", k, s.Pressed(k), s.Down(k))
		}
	}
	s.KeyEvent(KeyB, false)
	s.EndTick()
	s.KeyEvent(KeyB, true)
	if !s.Pressed(KeyB) || s.Released(KeyB) {
		t.Error("edges of a later tick were lost or kept")
	}
}

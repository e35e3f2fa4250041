package input

import (
	"bytes"
	"errors"
	"testing"
)

// TestStateSaveLoad: a loaded state answers every question as the saved
// one did, edges included, and consumes them the same way at EndTick.
func TestStateSaveLoad(t *testing.T) {
	var s State
	s.KeyEvent(KeyA, true)
	s.KeyEvent(KeyA, false)
	s.KeyEvent(KeySpace, true)
	s.MouseMotion(10, 20, 20, 40, 1.5, -2)
	s.MouseButtonEvent(MouseLeft, true)
	s.WheelEvent(0, 3)
	s.TextEvent([]byte("hé"))
	s.PadAdded(1, 77)
	s.PadButtonEvent(1, PadA, true)
	s.PadAxisEvent(1, PadLeftX, -0.75)
	saved := s.Save([]byte("prefix"))
	if string(saved[:6]) != "prefix" || len(saved) != 6+StateBytes {
		t.Fatalf("Save appended %d bytes after the prefix, want %d", len(saved)-6, StateBytes)
	}
	var l State
	if err := l.Load(saved[6:]); err != nil {
		t.Fatal(err)
	}
	if l != s {
		t.Fatalf("loaded state differs:\n got %+v\nwant %+v", l, s)
	}
	if !l.Pressed(KeyA) || !l.Released(KeyA) || l.Down(KeyA) || !l.Down(KeySpace) || l.Transitions(KeyA) != 2 ||
		string(l.Text()) != "hé" || !l.Pad(1).Pressed(PadA) || l.Pad(1).Axis(PadLeftX) != -0.75 || l.Mouse().WheelY != 3 {
		t.Error("the loaded state answers differently")
	}
	s.EndTick()
	l.EndTick()
	if l != s {
		t.Error("after EndTick the states differ")
	}
	if n := testing.AllocsPerRun(100, func() {
		saved = s.Save(saved[:0])
		if err := l.Load(saved); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Save and Load allocate %v times, want 0", n)
	}
}

// TestStateLoadRejects bytes of the wrong size, version or range, and
// leaves the state alone.
func TestStateLoadRejects(t *testing.T) {
	var s State
	s.KeyEvent(KeyB, true)
	good := s.Save(nil)
	var l State
	l.KeyEvent(KeyC, true)
	keep := l
	bad := func(name string, b []byte) {
		t.Helper()
		if err := l.Load(b); !errors.Is(err, ErrBadState) {
			t.Errorf("%s: Load = %v, want ErrBadState", name, err)
		}
		if l != keep {
			t.Errorf("%s: a refused Load changed the state", name)
		}
	}
	bad("short", good[:len(good)-1])
	bad("long", append(bytes.Clone(good), 0))
	b := bytes.Clone(good)
	b[4] = 2
	bad("version", b)
	b = bytes.Clone(good)
	b[5+int(KeyB)*3] = 7
	bad("level 7", b)
	b = bytes.Clone(good)
	b[len(b)-MaxText-1] = MaxText + 1
	bad("text", b)
	b = bytes.Clone(good)
	le.PutUint16(b[5+NumKeys*3+2:], NumKeys)
	bad("dirty key", b)
}

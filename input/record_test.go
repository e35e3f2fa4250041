package input

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// visible reports whether two states answer every query alike.
func visible(a, b *State) bool {
	for i := range a.pads {
		if !a.pads[i].same(&b.pads[i]) {
			return false
		}
	}
	return a.keys == b.keys && a.mouse == b.mouse && a.buttons == b.buttons && string(a.Text()) == string(b.Text())
}

// TestRecordReplay drives a state with random events over random frames of
// 0 to 3 ticks, records every tick, and replays the stream into a fresh
// state: each replayed tick sees exactly what the recorded tick saw.
func TestRecordReplay(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var live State
	var rec Recorder
	var seen []State
	live.PadAdded(0, 3)
	for range 2000 {
		for range r.IntN(4) {
			switch r.IntN(7) {
			case 0, 1, 2:
				live.KeyEvent(Key(4+r.IntN(60)), r.IntN(2) == 0)
			case 3:
				live.MouseMotion(r.Float32()*800, r.Float32()*600, 0, 0, r.Float32()*4-2, 1)
			case 4:
				live.MouseButtonEvent(MouseButton(1+r.IntN(3)), r.IntN(2) == 0)
			case 5:
				live.TextEvent([]byte("ab"[r.IntN(2):]))
			case 6:
				live.PadButtonEvent(0, PadButton(r.IntN(int(NumPadButtons))), r.IntN(2) == 0)
				live.PadAxisEvent(0, PadAxis(r.IntN(int(NumPadAxes))), r.Float32()*2-1)
			}
		}
		for range r.IntN(4) { // updates this frame
			rec.Tick(&live)
			seen = append(seen, live)
			live.EndTick()
		}
	}
	data := rec.Bytes()
	t.Logf("%d ticks in %d bytes (%.2f bytes a tick)", len(seen), len(data), float64(len(data))/float64(len(seen)))

	var replay State
	p := NewPlayer(data)
	for i := range seen {
		if err := p.Tick(&replay); err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		if !visible(&replay, &seen[i]) {
			t.Fatalf("tick %d: replayed state differs from the recorded one", i)
		}
		replay.EndTick()
	}
	if err := p.Tick(&replay); !errors.Is(err, ErrEnd) || !p.Done() {
		t.Errorf("after the last tick: %v, want ErrEnd", err)
	}
}

func TestIdleTicksCostOneByte(t *testing.T) {
	var s State
	var rec Recorder
	for range 100 {
		rec.Tick(&s)
		s.EndTick()
	}
	if n := len(rec.Bytes()); n != 100 {
		t.Errorf("100 idle ticks took %d bytes, want 100", n)
	}
}

func TestCorruptRecording(t *testing.T) {
	var s State
	var rec Recorder
	s.KeyEvent(KeySpace, true)
	rec.Tick(&s)
	good := rec.Bytes()
	for name, data := range map[string][]byte{
		"truncated":     good[:len(good)-1],
		"unknown flags": {0x80},
		"key too big":   {recKeys, 1, 0xff, 0x7f, 1, 1, 0},
	} {
		err := NewPlayer(data).Tick(&State{})
		if !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

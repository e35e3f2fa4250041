package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// walker is a game with an input value of its own: a 2-byte step that its
// Input makes from a "device" the test moves, and an Update that reads
// only Tick.Input.
type walker struct {
	device  int16   // what the devices say this tick (a mouse, say)
	pos     int64   // the simulation
	seen    []int16 // the input each first run read
	inputs  int     // Input calls
	reruns  int
	badRead bool // a rerun read another input than the first run
	first   map[uint64]int16
}

func (w *walker) Input(t Tick, dst []byte) {
	w.inputs++
	binary.LittleEndian.PutUint16(dst, uint16(w.device))
}

func (w *walker) Update(t Tick) error {
	step := int16(binary.LittleEndian.Uint16(t.Input.Player(0)))
	if t.Rerun {
		w.reruns++
		if w.first[t.N] != step {
			w.badRead = true
		}
	} else {
		w.seen = append(w.seen, step)
		w.first[t.N] = step
	}
	w.pos += int64(step)
	return nil
}
func (w *walker) Draw(Frame) {}

// Begin moves the device every frame, as a mouse does.
func (w *walker) Begin(Frame) error { w.device++; return nil }
func (w *walker) Save(dst []byte) []byte {
	return binary.LittleEndian.AppendUint64(dst, uint64(w.pos))
}
func (w *walker) Load(src []byte) error {
	w.pos = int64(binary.LittleEndian.Uint64(src))
	return nil
}

// script is a Tape: it decides the inputs of the ticks it holds, from a
// list, and records what every tick read.
type script struct {
	decide   map[uint64]int16
	recorded []int16
	endAt    uint64
}

func (s *script) Input(t Tick, dst []byte) (bool, error) {
	if s.endAt > 0 && t.N >= s.endAt {
		return false, ErrStopped
	}
	v, ok := s.decide[t.N]
	if ok {
		binary.LittleEndian.PutUint16(dst, uint16(v))
	}
	return ok, nil
}

func (s *script) Record(t Tick) error {
	s.recorded = append(s.recorded, int16(binary.LittleEndian.Uint16(t.Input.Player(0))))
	return nil
}

// TestGameInputFlow: with Config.InputSize the loop asks the game for its
// input once per tick, Update finds it in Tick.Input, a tape decides the
// ticks it holds (the game's Input is not called for them) and hears every
// tick's input, a sync test's reruns read the input their tick first read,
// and the end of the tape (ErrStopped) ends the run at its tick.
func TestGameInputFlow(t *testing.T) {
	g := &walker{first: map[uint64]int16{}}
	cfg := Config{TPS: 60, InputSize: 2}
	sim := NewSim(ConstantFrames(50 * time.Millisecond)) // 3 ticks a frame
	l, err := NewLoop(cfg, sim, g)
	if err != nil {
		t.Fatal(err)
	}
	tape := &script{decide: map[uint64]int16{4: 100, 5: -100}, endAt: 30}
	l.SetTape(tape)
	if err := l.SyncTest(3); err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); !errors.Is(err, ErrStopped) {
		t.Fatalf("Run: %v, want ErrStopped at the tape's end", err)
	}
	if len(g.seen) != 30 || len(tape.recorded) != 30 {
		t.Fatalf("%d ticks ran, %d recorded, want 30", len(g.seen), len(tape.recorded))
	}
	if g.inputs != 28 {
		t.Errorf("the game's Input ran %d times, want 28 (30 ticks, 2 decided by the tape)", g.inputs)
	}
	for n, v := range g.seen {
		want := int16(n/3 + 1) // frame n/3's device
		if d, ok := tape.decide[uint64(n)]; ok {
			want = d
		}
		if v != want || tape.recorded[n] != v {
			t.Errorf("tick %d read %d, recorded %d, want %d", n, v, tape.recorded[n], want)
		}
	}
	if g.reruns == 0 || g.badRead {
		t.Errorf("sync test reruns: %d, a rerun read another input: %v", g.reruns, g.badRead)
	}
}

// TestInputSizeNeedsInputter: a game without an Input method cannot have
// an InputSize, and the size is bounded.
func TestInputSizeNeedsInputter(t *testing.T) {
	_, err := NewLoop(Config{InputSize: 4}, NewSim(ConstantFrames(time.Millisecond)), UpdateFunc(func(Tick) error { return nil }))
	if err == nil || !strings.Contains(err.Error(), "no Input method") {
		t.Errorf("NewLoop: %v, want an error naming the missing Input method", err)
	}
	if err := (Config{InputSize: MaxInputSize + 1}).Validate(); err == nil || !strings.Contains(err.Error(), "InputSize") {
		t.Errorf("Validate: %v, want an error naming InputSize", err)
	}
}

// couch is two players on one machine: its Input fills both players'
// values, and Update reads each player's.
type couch struct {
	sums [2]int
}

func (c *couch) Input(t Tick, dst []byte) {
	dst[0], dst[1] = byte(t.N), byte(2*t.N) // player 0, player 1
}

func (c *couch) Update(t Tick) error {
	if t.Input.Players() != 2 || t.Input.Size() != 1 {
		return fmt.Errorf("tick %d: %d players of %d bytes, want 2 of 1", t.N, t.Input.Players(), t.Input.Size())
	}
	for p := range 2 {
		c.sums[p] += int(t.Input.Player(p)[0])
	}
	if t.N == 9 {
		return ErrStopped
	}
	return nil
}

func (c *couch) Draw(Frame) {}

// TestPlayersShareTheInput: with Config.Players the game's Input fills
// every player's value, and Update finds each in Tick.Input.Player; a
// count out of range, or players without an input size, are refused.
func TestPlayersShareTheInput(t *testing.T) {
	g := &couch{}
	l, err := NewLoop(Config{TPS: 60, InputSize: 1, Players: 2}, NewSim(ConstantFrames(50*time.Millisecond)), g)
	if err != nil {
		t.Fatal(err)
	}
	if l.Players() != 2 {
		t.Errorf("Players() = %d, want 2", l.Players())
	}
	if err := l.Run(context.Background()); !errors.Is(err, ErrStopped) {
		t.Fatal(err)
	}
	if g.sums != [2]int{45, 90} { // ticks 0..9
		t.Errorf("sums %v, want [45 90]", g.sums)
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{InputSize: 1, Players: MaxPlayers + 1}, "Config.Players = 33"},
		{Config{InputSize: 1, Players: -1}, "Config.Players = -1"},
		{Config{Players: 2}, "needs Config.InputSize"},
	} {
		if err := c.cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v): %v, want an error with %q", c.cfg, err, c.want)
		}
	}
}

func TestInputsPanicsOnBadLayout(t *testing.T) {
	for _, c := range []struct {
		n, size int
	}{{0, 2}, {3, 2}, {2, 0}, {2, MaxInputSize + 1}, {(MaxPlayers + 1) * 2, 2}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewInputs(%d bytes, size %d) did not panic", c.n, c.size)
				}
			}()
			NewInputs(make([]byte, c.n), c.size, 0)
		}()
	}
	in := NewInputs([]byte{1, 2, 3, 4, 5, 6}, 2, 0b110)
	if in.Players() != 3 || in.Player(1)[0] != 3 || in.Predicted(0) || !in.Predicted(2) || in.Confirmed() {
		t.Errorf("inputs %+v: players %d, player 1 %v", in, in.Players(), in.Player(1))
	}
}

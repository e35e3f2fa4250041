package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestSeated: every seat of NewInputs's inputs is occupied; WithEmptySeats
// empties the seats of its mask's bits (bits of players the inputs do not
// hold dropped), keeps the predictions, and works for all MaxPlayers.
func TestSeated(t *testing.T) {
	var zero Inputs
	if zero.Seated(0) || zero.EmptySeats() != 0 {
		t.Errorf("the zero Inputs: Seated(0) %v, EmptySeats %#x; want false, 0", zero.Seated(0), zero.EmptySeats())
	}
	data := []byte{7, 0, 9, 0}
	in := NewInputs(data, 1, 0b100)
	for p := range 4 {
		if !in.Seated(p) {
			t.Errorf("NewInputs: player %d not seated", p)
		}
	}
	in = in.WithEmptySeats(0b1010 | 1<<20)
	if got := in.EmptySeats(); got != 0b1010 {
		t.Errorf("EmptySeats %#x, want 0b1010 (bit 20 is no player's)", got)
	}
	for p, want := range []bool{true, false, true, false, false} { // player 4 does not exist
		if in.Seated(p) != want {
			t.Errorf("Seated(%d) = %v, want %v", p, in.Seated(p), want)
		}
	}
	if in.Seated(-1) || !in.Predicted(2) || in.Predicted(1) || in.Player(2)[0] != 9 {
		t.Errorf("Seated(-1) %v, predicted %v %v, player 2 %v", in.Seated(-1), in.Predicted(2), in.Predicted(1), in.Player(2))
	}
	if in.WithEmptySeats(0).EmptySeats() != 0 {
		t.Error("WithEmptySeats(0) left a seat empty")
	}

	full := NewInputs(make([]byte, MaxPlayers), 1, 1<<31|1).WithEmptySeats(1<<31 | 1<<16)
	if !full.Predicted(31) || full.Seated(31) || full.Seated(16) || !full.Seated(30) || !full.Seated(0) || full.Players() != 32 {
		t.Errorf("%d players: predicted(31) %v, seated 31 %v 16 %v 30 %v 0 %v", full.Players(), full.Predicted(31), full.Seated(31), full.Seated(16), full.Seated(30), full.Seated(0))
	}

	if n := testing.AllocsPerRun(100, func() {
		in = NewInputs(data, 1, 0).WithEmptySeats(0b1010)
		if !in.Seated(0) {
			t.Fatal("player 0 not seated")
		}
	}); n != 0 {
		t.Errorf("WithEmptySeats and Seated allocate %v times", n)
	}

	// An empty seat's input is all zero: a game never sees a departed
	// player's last input.
	func() {
		defer func() {
			if v := recover(); v == nil || !strings.Contains(fmt.Sprint(v), "Inputs.Player(2)'s seat is empty, but its input is 09") {
				t.Errorf("WithEmptySeats of a seat with input: %v, want a panic naming Inputs.Player(2)", v)
			}
		}()
		NewInputs(data, 1, 0).WithEmptySeats(0b100)
	}()
}

// seatScript is a SeatTape deciding ticks 0 to 59 of three 1-byte
// players, whose seats empty and fill by emptyAt; it returns false at
// tick 20, so the game decides that one.
type seatScript struct {
	empty    uint32
	recorded []uint32 // the seats each tick's Record saw
}

func emptyAt(n uint64) uint32 {
	switch {
	case n >= 40:
		return 0b101
	case n >= 5:
		return 0b010
	}
	return 0
}

func (s *seatScript) Input(t Tick, dst []byte) (bool, error) {
	if t.N >= 60 {
		return false, ErrStopped
	}
	if t.N == 20 {
		s.empty = 0b111 // the game decides this tick: ignored
		return false, nil
	}
	s.empty = emptyAt(t.N)
	for p := range 3 {
		if s.empty>>p&1 == 0 {
			dst[p] = byte(t.N)
		}
	}
	return true, nil
}

// EmptySeats makes seatScript a SeatTape.
func (s *seatScript) EmptySeats() uint32 { return s.empty }

func (s *seatScript) Record(t Tick) error {
	s.recorded = append(s.recorded, t.Input.EmptySeats())
	return nil
}

// seatGame records which seats each tick's first run saw, and checks that
// a rerun sees the same.
type seatGame struct {
	seen      []uint32
	first     map[uint64]uint32
	rerunDiff bool
	reruns    int
	pos       uint64
}

func (g *seatGame) Input(t Tick, dst []byte) {}
func (g *seatGame) Update(t Tick) error {
	var m uint32
	for p := range 3 {
		if !t.Input.Seated(p) {
			m |= 1 << p
		}
	}
	if t.Rerun {
		g.reruns++
		g.rerunDiff = g.rerunDiff || g.first[t.N] != m
	} else {
		g.seen = append(g.seen, m)
		g.first[t.N] = m
	}
	g.pos += uint64(m)
	return nil
}
func (g *seatGame) Draw(Frame)             {}
func (g *seatGame) Save(dst []byte) []byte { return append(dst, byte(g.pos)) }
func (g *seatGame) Load(src []byte) error  { g.pos = uint64(src[0]); return nil }
func (g *seatGame) String() string         { return fmt.Sprint(g.seen) }

// TestLoopPassesSeats: the seats a SeatTape decides reach Update in
// Tick.Input, the tape's Record and a sync test's reruns; a tick the game
// decides has every seat occupied.
func TestLoopPassesSeats(t *testing.T) {
	g := &seatGame{first: map[uint64]uint32{}}
	l, err := NewLoop(Config{TPS: 60, InputSize: 1, Players: 3}, NewSim(ConstantFrames(50*time.Millisecond)), g)
	if err != nil {
		t.Fatal(err)
	}
	tape := &seatScript{}
	l.SetTape(tape)
	if err := l.SyncTest(3); err != nil {
		t.Fatal(err)
	}
	if err := l.Run(context.Background()); !errors.Is(err, ErrStopped) {
		t.Fatalf("Run: %v", err)
	}
	if len(g.seen) != 60 || len(tape.recorded) != 60 {
		t.Fatalf("%d ticks ran, %d recorded, want 60", len(g.seen), len(tape.recorded))
	}
	for n := range uint64(60) {
		want := emptyAt(n)
		if n == 20 {
			want = 0
		}
		if g.seen[n] != want || tape.recorded[n] != want {
			t.Errorf("tick %d: the game saw empty seats %03b, the tape recorded %03b, want %03b", n, g.seen[n], tape.recorded[n], want)
		}
	}
	if g.reruns == 0 || g.rerunDiff {
		t.Errorf("sync test: %d reruns, a rerun saw other seats: %v", g.reruns, g.rerunDiff)
	}
}

package engine

import (
	"fmt"
	"math/bits"
)

// A game's own per-tick input. Device input (keys, a mouse in window
// pixels, a gamepad) is not what a tick should depend on: a window resized
// mid-run moves the mouse's world position, and a peer across a network has
// other devices. So a game that records, replays or plays over a network
// turns its devices into a small value of its own once per tick (move
// left, fire, aim at (12.5, 3) in world units), and its Update reads only
// that value. The value is what a recording holds, what a replay feeds
// back, and what netplay sends; the engine never looks inside it.

// Limits of a game's per-tick input.
const (
	// MaxInputSize is the largest per-tick input value, in bytes: a few
	// bytes is usual (GGPO's inputs are 2 to 8), and netplay sends several
	// ticks of every player in one datagram.
	MaxInputSize = 64
	// MaxPlayers is the most players one tick's Inputs holds: the seats
	// of a server's match (a peer-to-peer match has at most
	// netplay.MaxPeers). Inputs keeps a bit per player in a uint32.
	MaxPlayers = 32
)

// Inputter is a Game with a per-tick input value of its own, of
// Config.InputSize bytes. The Loop calls Input before each update that runs
// for the first time (not on a rerun), with dst zeroed and holding
// Config.Players values (one, unless players share the machine); Update
// then finds them in Tick.Input, and reads only that. When a replay
// decides the tick's inputs, Input is not called at all; a netplay session
// calls it for the local player's value alone.
//
// Input runs at the tick, like Update: presses and releases are seen by
// exactly one Input call, as they are by one Update.
type Inputter interface {
	Input(t Tick, dst []byte)
}

// Inputs are one tick's inputs of every player: each the game's own
// per-tick input value, all of the same size. The zero Inputs has no
// players. An Inputs is a view of memory the Loop (or a netplay session)
// owns, valid during the Update it is passed to: copy what you keep.
//
// Every player has a seat, occupied unless the tick says it is empty: in a
// server's match players join and leave while it runs, and which seats
// are occupied is part of each tick's inputs (Seated), so a join or a
// leave happens at the same tick in every run and every replay.
type Inputs struct {
	data      []byte
	size      int
	predicted uint32
	empty     uint32 // bit p: player p's seat is empty
}

// NewInputs returns the inputs held in data: len(data)/size players of
// size bytes each, player p at data[p*size:]. Bit p of predicted marks
// player p's input as a prediction (a remote input that has not arrived:
// netplay repeats the last one). Every seat is occupied (WithEmptySeats
// says otherwise). It panics when size is not in [1, MaxInputSize] or
// data does not hold 1 to MaxPlayers whole inputs.
func NewInputs(data []byte, size int, predicted uint32) Inputs {
	if size < 1 || size > MaxInputSize {
		panic(fmt.Sprintf("engine: input size %d, want 1 to %d", size, MaxInputSize))
	}
	if n := len(data) / size; len(data)%size != 0 || n < 1 || n > MaxPlayers {
		panic(fmt.Sprintf("engine: %d bytes of input is not 1 to %d inputs of %d bytes", len(data), MaxPlayers, size))
	}
	return Inputs{data: data, size: size, predicted: predicted & playerBits(len(data)/size)}
}

// playerBits returns a mask of n players' bits, 0 to MaxPlayers.
func playerBits(n int) uint32 { return uint32(1<<uint(n) - 1) }

// WithEmptySeats returns in with the seats of empty's bits empty (bit p:
// player p's seat) and every other seat occupied; bits of players in does
// not hold are dropped. Whoever builds a tick's inputs (a server's
// session, a replay) calls it; an empty seat's input must be all zero,
// and WithEmptySeats panics when one is not (a bug in the caller: a game
// must not see a departed player's last input). It allocates nothing.
func (in Inputs) WithEmptySeats(empty uint32) Inputs {
	in.empty = empty & playerBits(in.Players())
	for m := in.empty; m != 0; m &= m - 1 {
		p := bits.TrailingZeros32(m)
		for _, b := range in.Player(p) {
			if b != 0 {
				panic(fmt.Sprintf("engine: Inputs.Player(%d)'s seat is empty, but its input is % x, not all zero", p, in.Player(p)))
			}
		}
	}
	return in
}

// EmptySeats returns the mask of empty seats: bit p is set when player
// p's seat is empty at this tick. 0 means every seat is occupied, as in
// a game on one machine or a peer-to-peer match.
func (in Inputs) EmptySeats() uint32 { return in.empty }

// Seated reports whether player p's seat is occupied at this tick. A
// seat that is empty has an all-zero input. A game spawns a player's
// tank on the first tick its seat is Seated and removes it on the first
// tick it is not: joins and leaves are then deterministic events that
// replay. Every seat of the zero-mask Inputs (NewInputs) is occupied; a
// p out of range is not seated.
func (in Inputs) Seated(p int) bool {
	return p >= 0 && p < in.Players() && in.empty>>uint(p)&1 == 0
}

// Players returns how many players' inputs in holds.
func (in Inputs) Players() int {
	if in.size == 0 {
		return 0
	}
	return len(in.data) / in.size
}

// Player returns player p's input. It panics when p is out of range.
func (in Inputs) Player(p int) []byte {
	return in.data[p*in.size : (p+1)*in.size : (p+1)*in.size]
}

// Predicted reports whether player p's input is a prediction, not yet
// confirmed: netplay may roll the tick back and run it again with the
// input that arrives.
func (in Inputs) Predicted(p int) bool { return in.predicted>>uint(p)&1 != 0 }

// Confirmed reports whether no input of the tick is a prediction.
func (in Inputs) Confirmed() bool { return in.predicted == 0 }

// Size returns the size of one player's input in bytes.
func (in Inputs) Size() int { return in.size }

// Bytes returns every player's input, one after another.
func (in Inputs) Bytes() []byte { return in.data }

// Tape is what records or decides a game's per-tick input around its
// updates: a replay file being written or played back (package replay),
// or a test's script. A Loop with a tape (SetTape) and Config.InputSize
// calls Input, then Record, before each tick's first run; reruns of a sync
// test call neither. dst holds every player's input (Config.Players).
type Tape interface {
	// Input may decide tick t's input: it fills dst (zeroed,
	// Players·InputSize bytes) and returns true, and the game's Input is not called (a
	// replay); or it returns false and the game decides (a recording). An
	// error ends Run with it: ErrStopped at the end of a replay.
	Input(t Tick, dst []byte) (bool, error)
	// Record runs once tick t's input is decided (t.Input), before its
	// update: a recording writes it down, so a tick that panics is in the
	// file, and the game's state is what the ticks before t left, for a
	// state hash. An error ends Run with it.
	Record(t Tick) error
}

// SeatTape is an optional Tape interface, for a tape that decides a
// match whose players join and leave (the replay of a server's match):
// after its Input decided tick t's input, EmptySeats returns the seats
// empty at t (bit p: player p's seat), and the Loop passes them to the
// game in Tick.Input (Inputs.Seated). A tape without it, or a tick the
// game decided, has every seat occupied.
type SeatTape interface {
	Tape
	EmptySeats() uint32
}

// SetTape makes tape record or decide the game's per-tick input, from the
// next tick on; nil takes it off. Call it before Run.
func (l *Loop) SetTape(tape Tape) {
	l.tape = tape
	l.seatTape, _ = tape.(SeatTape)
}

// Game returns the game the loop runs.
func (l *Loop) Game() Game { return l.game }

// InputSize returns Config.InputSize: the game's per-tick input value's
// size in bytes, 0 when it has none.
func (l *Loop) InputSize() int { return l.inSize }

// Players returns Config.Players: how many players' inputs each tick holds.
func (l *Loop) Players() int { return l.players }

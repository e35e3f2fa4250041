package netplay

import (
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Match is a networked game as a runner holds it, whatever role this
// machine plays in it: a peer's Session (a player or a spectator), a
// server's Client, or the Server. It is the engine.Game the loop runs,
// which runs the game inside it and forwards the game's optional hooks
// (Begin, End, QualityChanged, SuspendChanged, GPUTime, and Frame.Local
// on the frames Begin and Draw get); its other methods are what a runner
// needs of any role, so that one (package app) holds a Match and never
// asks which role it holds. Its methods are called from the loop's
// goroutine.
type Match interface {
	engine.Game
	// SetTimeScaler gives the match the loop's clock, which it speeds up
	// and slows down to keep in step with the others (see Session and
	// Client); a Server, the clock the others keep to, changes nothing.
	SetTimeScaler(TimeScaler)
	// SetTickListener makes l hear every tick once it is final, with
	// every player's input (a recording: replay.RecordSession). Call it
	// before the loop runs.
	SetTickListener(TickListener)
	// Settings returns the match's seats, tick rate, input size and
	// Params: a client's once its server sent them.
	Settings() Settings
	// Running reports whether the match runs ticks: the handshake is
	// done, and the state it starts from at hand.
	Running() bool
	// MatchStats returns the figures every role counts (see MatchStats),
	// refreshed by every Update.
	MatchStats() *MatchStats
	// Report returns the role's fields of a stats line, each after a
	// space.
	Report() string
	// Err returns why the match stopped, or nil; engine.ErrStopped when
	// it reached its end.
	Err() error
	// Close says goodbye to the others and stops the match: later
	// Updates return ErrClosed. It does not close the transport.
	Close() error
}

// Defaults that zero fields of every role's settings stand for.
const (
	// DefaultDisconnectTimeout is the silence after which a machine
	// counts as gone: a peer, a server, a client.
	DefaultDisconnectTimeout = 2 * time.Second
	// DefaultHandshakeTimeout is how long a role calls an address that
	// does not answer.
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultMaxState is the largest state, in bytes, a role accepts from
	// another (a client from its server, a late spectator from its host).
	DefaultMaxState = 64 << 20
)

// Settings are what a match is played with: the seats (players), and the
// tick rate, input size and Params every machine in it must have. A
// server tells its clients its own.
type Settings struct {
	Players   int
	TPS       int
	InputSize int
	Params    string
}

// TimeScaler is what a role speeds up or slows down to keep in step with
// the others: the loop's timestep (engine.Loop.Timestep()) is one.
type TimeScaler interface {
	SetTimeScale(s float64) error
}

// TickListener hears every tick of the match once it is final: every player's
// input of it is confirmed and the tick has run on them. A recording of the
// match is one (replay.RecordSession): either peer's file replays the
// whole match, everyone's inputs included.
type TickListener interface {
	// Confirmed is called for tick n, 0, 1, 2 and on, with every player's
	// input and the seats empty at it (engine.Inputs.Seated: a recording
	// keeps them, so joins and leaves replay; every seat is occupied in a
	// peer-to-peer match), and the game's state saved before the tick
	// (engine.Saver's bytes), or nil where the session kept none (a
	// spectator keeps one every HashEvery ticks). Both are valid during
	// the call only. An error stops the session with it.
	Confirmed(n uint64, in engine.Inputs, state []byte) error
}

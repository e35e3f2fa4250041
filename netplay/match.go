package netplay

import "github.com/fixstep/fixstep/engine"

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

var (
	_ Match = (*Session)(nil)
	_ Match = (*Client)(nil)
	_ Match = (*Server)(nil)
)

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
// goroutine. A suspended loop (SuspendChanged) runs no update: a peer's
// others stall and time it out after DisconnectTimeout; a client's server
// replaces its inputs, then frees its seat.
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

// MatchStats are the figures every role of a match counts, the same way:
// a peer's Session (SessionStats), a server's Client (ClientStats) and the
// Server (ServerStats) embed them, and each role's Stats method returns
// them refreshed by every Update, to be read on the loop's goroutine. A
// server runs on final inputs only: its Confirmed is its Tick, and it
// never predicts, rolls back, stalls or waits.
type MatchStats struct {
	// Tick is the next tick to simulate: ticks 0 to Tick-1 have run.
	Tick uint64
	// Confirmed counts the ticks whose inputs are all final (every
	// player's arrived, or the server's): they will not roll back.
	Confirmed uint64
	// RTT is the smoothed round trip: to the player farthest away (to the
	// host, for a spectator), or to a client's server; 0 until measured,
	// and on a server, which has one per client.
	RTT time.Duration
	// Ahead is how many ticks this machine runs ahead of where its time
	// sync aims, smoothed: a peer's advantage over the peer farthest
	// behind, a client's lead over ClientConfig.Lead (how much earlier
	// than that its inputs reach the server; negative: later), 0 on a
	// server. TimeScale is the time scale the role last set on its loop
	// to bring Ahead to 0 (1 when it need not).
	Ahead     float64
	TimeScale float64

	// Rollbacks counts rollbacks, RollbackTicks the ticks they ran again,
	// RollbackTicksMax the deepest (at most the MaxPrediction), and
	// RollbackP99 the depth that 99 % of them did not exceed.
	Rollbacks        uint64
	RollbackTicks    uint64
	RollbackTicksMax int
	RollbackP99      int
	// TickCost is what a tick costs this machine in real time (the
	// game's Save and Update; a rollback's Load, spread over its ticks),
	// smoothed: 0 until measured, and on a server. A role that predicts
	// keeps its frames within a budget (SessionConfig.FrameBudget,
	// ClientConfig.FrameBudget): it predicts no further past the last
	// final tick than one frame can run again, waiting for final inputs
	// instead, and delays its input by a tick more while its cost holds
	// it there. InputDelay is the input delay it uses now, in ticks
	// (a session's SessionConfig.InputDelay, a client's for its round
	// trip, and those the cost added); DelayChanges counts the changes
	// the cost made to it; Deferred counts the rollbacks and the ticks
	// it put off to a later frame, this one's budget spent (a peer's
	// while it catches up; a client's also while it keeps pace: a frame
	// runs its first tick whatever the time, no more past the budget).
	TickCost     time.Duration
	InputDelay   int
	DelayChanges uint64
	Deferred     uint64
	// Predicted counts ticks first run with at least one predicted input.
	Predicted uint64
	// Stalls counts loop ticks the role did not advance while it plays:
	// it was MaxPrediction ticks past the last confirmed one (every tick
	// a remote input has not arrived for, in lockstep), or a client too
	// far ahead of its server. Waiting counts loop ticks before it plays:
	// before every player answered the handshake, and while a state it
	// starts from comes.
	Stalls, Waiting uint64
	// Hashes counts the desync checks passed: state hashes compared
	// equal with a player's (the host's, for a spectator; the server's,
	// for a client; a client's, for a server), every HashEvery ticks and
	// at the match's end. Desyncs counts those that differed.
	Hashes, Desyncs uint64
	// StateBytes is the size of the last state received (a late
	// spectator's from its host, a client's from its server); Catchup
	// is how long it took from the call (or the last resync asked) to
	// the first state hash compared equal after loading it and running
	// to the present: the join, verified. Both are 0 for a role that
	// received no state.
	StateBytes int
	Catchup    time.Duration

	// PacketsIn and PacketsOut count datagrams, BytesIn and BytesOut their
	// bytes.
	PacketsIn, PacketsOut uint64
	BytesIn, BytesOut     uint64
	// PacketsBad counts datagrams dropped as malformed: a bad magic, kind,
	// length or count, a field out of range, inputs out of order or out
	// of the window. PacketsStale counts well-formed ones with a wrong
	// token (an earlier session of the peer, or a forgery), PacketsUnknown
	// those from addresses the role does not know.
	PacketsBad     uint64
	PacketsStale   uint64
	PacketsUnknown uint64
}

// hooks are the game's optional engine hooks (engine.Hooks, found once)
// and the player this machine plays (local): every role holds them (the
// Server itself, a Session and a Client in their rollback core), so that
// the loop's QualityChanged, SuspendChanged, GPUTime and End reach the
// game through the role as they reach it alone, and the game's Begin and
// Draw get frames that say which player this machine plays (Frame.Local).
type hooks struct {
	engine.Hooks
	game  engine.Game
	local int // the player this machine plays; -1 none (a spectator, a server, before a seat)
}

// findHooks returns g's hooks, for no player yet.
func findHooks(g engine.Game) hooks { return hooks{Hooks: engine.FindHooks(g), game: g, local: -1} }

// beginGame runs the game's Begin, if it has one, on frame f.
func (h *hooks) beginGame(f engine.Frame) error {
	f.Local = h.local
	return h.Hooks.Begin(f)
}

// Draw draws the game: the present, as predicted where the role
// predicts, on a frame whose Local is the player this machine plays (-1
// for a spectator, a server, or a role not seated yet).
func (h *hooks) Draw(f engine.Frame) {
	f.Local = h.local
	h.game.Draw(f)
}

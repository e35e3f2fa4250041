package netplay

import (
	"time"
)

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
	// RollbackTicksMax the deepest (at most the MaxPrediction).
	Rollbacks        uint64
	RollbackTicks    uint64
	RollbackTicksMax int
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

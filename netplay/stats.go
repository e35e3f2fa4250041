package netplay

import (
	"fmt"
	"net/netip"
	"strconv"
	"time"
)

// FingerprintError is what Update returns when a peer's simulation is not
// this one's: another protocol version, tick rate, player count, input
// size, game params or build, or an address that claims another player.
// The session refuses the peer and stops.
type FingerprintError struct {
	// Player is the peer's player (-1 for a spectator or the host of one).
	Player int
	// Addr is the peer's address.
	Addr netip.AddrPort
	// Field names what differs: "protocol version", "tick rate",
	// "players", "input size", "game params", "simulation" or "player".
	Field string
	// Ours and Theirs are the two values (hashes, for params and the
	// simulation).
	Ours, Theirs uint64
	// OursText and TheirsText are the two Params, when the peer sent its
	// own (a Server does, to a Client of other Params); empty otherwise.
	OursText, TheirsText string
	// Refused is true when the peer refused us, false when we refused it.
	Refused bool
	// Server is true when the peer is a Client's server.
	Server bool
}

// Error names the peer and what differs.
func (e *FingerprintError) Error() string {
	who := "we refused"
	if e.Refused {
		who = "refused by"
	}
	peer := "peer"
	if e.Server {
		peer = "the server"
	}
	f, why := "%d", ""
	switch {
	case e.Field == "game params" && (e.OursText != "" || e.TheirsText != ""):
		return fmt.Sprintf("netplay: %s %s %v: %s differs: ours %q, theirs %q", who, peer, e.Addr, e.Field, e.OursText, e.TheirsText)
	case e.Field == "game params":
		f = "%016x"
	case e.Field == "simulation":
		f, why = "%016x", " (another version of the game's simulating code: engine.Fingerprint)"
	}
	return fmt.Sprintf("netplay: %s %s %v: %s differs: ours "+f+", theirs "+f+"%s", who, peer, e.Addr, e.Field, e.Ours, e.Theirs, why)
}

// fieldNames are the names of the refuse fields.
var fieldNames = [...]string{
	fieldVersion:   "protocol version",
	fieldTickRate:  "tick rate",
	fieldPlayers:   "players",
	fieldInputSize: "input size",
	fieldParams:    "game params",
	fieldSim:       "simulation",
	fieldPlayer:    "player",
	fieldSeats:     "spectator seats",
	fieldLate:      "join tick",
	fieldTable:     "seats",
	fieldHost:      "server",
	fieldAddr:      "seats per address",
}

// SeatError is what a spectator's Update returns when its host refused to
// seat it: every spectator seat is taken (or the host takes none), or the
// match is too far along to watch from its start; and what a joiner's
// Lobby.Poll returns when every player's seat of the host's match is
// taken (Players is set).
type SeatError struct {
	// Addr is the host's address.
	Addr netip.AddrPort
	// Players is, for a joiner, how many players the host's match seats,
	// all taken; 0 for a spectator.
	Players int
	// Late is true when the match had gone past Limit, the last tick a
	// spectator may join at: Tick is the host's tick then.
	Late        bool
	Tick, Limit uint64
	// Seats is how many spectators the host takes, all seated, when not
	// Late: 0 when it takes none.
	Seats int
}

// Error names the host and why it has no seat.
func (e *SeatError) Error() string {
	switch {
	case e.Players > 0:
		return fmt.Sprintf("netplay: refused by %v: the %d players of its match are all seated", e.Addr, e.Players)
	case e.Late:
		return fmt.Sprintf("netplay: refused by %v: its match is at tick %d, and a spectator must join by tick %d to watch it from the start", e.Addr, e.Tick, e.Limit)
	case e.Seats == 0:
		return fmt.Sprintf("netplay: refused by %v: it takes no spectators", e.Addr)
	}
	return fmt.Sprintf("netplay: refused by %v: its %d spectator seats are all taken", e.Addr, e.Seats)
}

// playerName names the player at index i for a person: "player 1" for
// index 0, "the host" for -1 (a spectator's).
func playerName(i int) string {
	if i < 0 {
		return "the host"
	}
	return "player " + strconv.Itoa(i+1)
}

// DisconnectError is what Update returns when a player (or a spectator's
// host) went silent for SessionConfig.DisconnectTimeout, or said goodbye.
type DisconnectError struct {
	// Player is the index of the player who left (0 for player 1; -1:
	// the host of a spectator).
	Player int
	// Addr is its address.
	Addr netip.AddrPort
	// Silence is how long nothing had come from it.
	Silence time.Duration
	// Left is true when the peer closed its session (a bye), false for a
	// timeout.
	Left bool
	// Handshake is true when the peer never answered the handshake
	// (SessionConfig.HandshakeTimeout): a host that is not there.
	Handshake bool
	// Server is true when the peer is a Client's server (Player is -1).
	Server bool
}

// who names the peer that left or went silent.
func (e *DisconnectError) who() string {
	if e.Server {
		return "the server"
	}
	return playerName(e.Player)
}

// Error names the player (numbered from 1) and the silence.
func (e *DisconnectError) Error() string {
	if e.Left {
		return fmt.Sprintf("netplay: %s (%v) left", e.who(), e.Addr)
	}
	if e.Handshake {
		return fmt.Sprintf("netplay: no answer from %v in %v: nobody plays there, or a firewall is in the way", e.Addr, e.Silence.Round(time.Millisecond))
	}
	return fmt.Sprintf("netplay: %s (%v) silent for %v: disconnected", e.who(), e.Addr, e.Silence.Round(time.Millisecond))
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

// SessionStats is what a Session has counted. Session.Stats returns it; the
// session updates it on its goroutine.
type SessionStats struct {
	MatchStats
	// Interrupted is the number of peers silent for longer than
	// SessionConfig.DisconnectWarning now; Interruptions counts how often one
	// went silent that long.
	Interrupted   int
	Interruptions uint64
	// SpectatorsDropped counts spectators dropped for going silent or
	// never running on from the states sent to them, or that left; their
	// seats are free again.
	SpectatorsDropped uint64
	// StatesSent counts, on a host, the states it began to send to
	// spectators that called too late to be fed from tick 0 or fell too
	// far behind (again for one that did not load it in time).
	StatesSent uint64
	// ChunksSent counts the slices of those states sent, resent ones
	// included.
	ChunksSent uint64
	// Refused counts the hellos a host refused, going on with its match
	// or on waiting for its peer: a caller on an Accept transport with
	// another fingerprint (tick rate, params, build...), and a spectator
	// with no seat free, or another game's. Probes counts the joins of a
	// Server's Probe that a host answered with "a peer-to-peer host, not
	// a server": a -spectate asks that first, so a host counts one for
	// each spectator that watches it, and refuses none of them.
	Refused, Probes uint64
}

// Report returns the session's figures as "key=value" fields for the end
// of a stats line, each after a space:
//
//	rtt_ms=48.2 rollbacks=310 rollback_ticks_max=5 predicted=1205 desyncs=0 hashes_checked=61 packets_bad=0 packets_stale=0 packets_unknown=0 refused=0 probes=1 stalls=3 time_scale=1.000 states_sent=0 catchup_ms=0
//
// hashes_checked is SessionStats.Hashes: desyncs=0 says something only when it
// is not 0. states_sent is a host's SessionStats.StatesSent, catchup_ms a late
// spectator's SessionStats.Catchup.
func (s *Session) Report() string {
	st := &s.stats
	return fmt.Sprintf(" rtt_ms=%.1f rollbacks=%d rollback_ticks_max=%d predicted=%d desyncs=%d hashes_checked=%d packets_bad=%d packets_stale=%d packets_unknown=%d refused=%d probes=%d stalls=%d time_scale=%.3f states_sent=%d catchup_ms=%d",
		float64(st.RTT)/1e6, st.Rollbacks, st.RollbackTicksMax, st.Predicted, st.Desyncs, st.Hashes, st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.Refused, st.Probes, st.Stalls, st.TimeScale,
		st.StatesSent, st.Catchup.Milliseconds())
}

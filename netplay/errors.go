package netplay

import (
	"errors"
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
	them := "peer"
	if e.Server {
		them = "the server"
	}
	f, why := "%d", ""
	switch {
	case e.Field == "game params" && (e.OursText != "" || e.TheirsText != ""):
		return fmt.Sprintf("netplay: %s %s %v: %s differs: ours %q, theirs %q", who, them, e.Addr, e.Field, e.OursText, e.TheirsText)
	case e.Field == "game params":
		f = "%016x"
	case e.Field == "simulation":
		f, why = "%016x", " (another version of the game's simulating code: engine.Fingerprint)"
	}
	return fmt.Sprintf("netplay: %s %s %v: %s differs: ours "+f+", theirs "+f+"%s", who, them, e.Addr, e.Field, e.Ours, e.Theirs, why)
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

// DisconnectError is what Update returns when a player (or a spectator's
// host) went silent for SessionConfig.DisconnectTimeout, or said goodbye,
// and the match cannot go on without it: a match of two players, a
// spectator's host, or more players lost than a match of three or four
// plays on without (see Session); and what a player the others dropped
// returns (Dropped).
type DisconnectError struct {
	// Player is the index of the player who left (0 for player 1; -1:
	// the host of a spectator); for Dropped, this peer's.
	Player int
	// Addr is its address; for Dropped, the address of the player that
	// told this peer.
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
	// Dropped is true when the other players dropped this peer: they
	// lost touch with it (it was cut off, or stalled, for
	// DisconnectTimeout) and play on without it. Tick is the first tick
	// its seat is empty at for them, or, if they had not agreed on it
	// yet, about that: how many of its inputs the player that told it
	// had.
	Dropped bool
	Tick    uint64
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
	if e.Dropped {
		return fmt.Sprintf("netplay: dropped from the match: the other players lost touch with this peer (%s) and play on without it from tick %d (told by %v)", playerName(e.Player), e.Tick, e.Addr)
	}
	if e.Handshake {
		return fmt.Sprintf("netplay: no answer from %v in %v: nobody plays there, or a firewall is in the way", e.Addr, e.Silence.Round(time.Millisecond))
	}
	return fmt.Sprintf("netplay: %s (%v) silent for %v: disconnected", e.who(), e.Addr, e.Silence.Round(time.Millisecond))
}

// playerName names the player at index i for a person: "player 1" for
// index 0, "the host" for -1 (a spectator's).
func playerName(i int) string {
	if i < 0 {
		return "the host"
	}
	return "player " + strconv.Itoa(i+1)
}

// ServerError is what a Client's Update returns when its server refused
// it or dropped it (the match is full, or over, the address has its
// seats, the client's state kept differing from the server's or it
// acknowledged nothing), or broke the protocol (Misbehaved); and what a
// late spectator's Session returns when its peer-to-peer host broke the
// protocol in sending it its state (Misbehaved: Server is the host).
type ServerError struct {
	// Server is the server's address.
	Server string
	// Reason says why, as a sentence.
	Reason string
	// Misbehaved is true when the server broke the protocol rather than
	// refusing or dropping the client: the state it announced made no
	// progress for DisconnectTimeout, or fell behind 16 kB/s (after the
	// handshake timeout), or it sent state after
	// state with none verified. Such a server is not serving: a Client
	// stops within a bounded time rather than load forever.
	Misbehaved bool
	// Host is true when Server is a late spectator's peer-to-peer host.
	Host bool
}

// Error names the server and the reason.
func (e *ServerError) Error() string {
	if e.Host {
		return fmt.Sprintf("netplay: the host %s: %s", e.Server, e.Reason)
	}
	return fmt.Sprintf("netplay: server %s: %s", e.Server, e.Reason)
}

// ErrNotServer is what a Client or a Probe stops with when a peer-to-peer
// host (a Session's Lobby or Accept) answers its join: the address plays
// peer to peer, and is joined (Lobby) or watched (SessionConfig.Spectate).
var ErrNotServer = errors.New("netplay: a peer-to-peer host answered, not a server: join it as a peer or spectate it")

// ErrClosed is what Update returns after Close.
var ErrClosed = errors.New("netplay: session closed")

// ErrUnverified is wrapped by the error Update returns when a match
// reached its end (SessionConfig.EndTick) without a single state hash compared
// with a player: the peers might have played different matches, and
// nothing says they did not.
var ErrUnverified = errors.New("netplay: nothing verified")

package netplay

import (
	"cmp"
	"fmt"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Default values that zero SessionConfig fields stand for.
const (
	DefaultInputDelay        = 2
	DefaultMaxPrediction     = 8
	DefaultDisconnectWarning = 500 * time.Millisecond
)

// A session's protocol timing.
const (
	// helloEvery is how often a hello (a lobby's sit) goes to a peer that
	// has not answered.
	helloEvery = 100 * time.Millisecond
	// keepAliveEvery is the longest a session stays silent to a peer.
	keepAliveEvery = 100 * time.Millisecond
	// maxBurst is the most input datagrams a peer gets per update.
	maxBurst = 4
)

// Limits a SessionConfig is checked against.
const (
	// MaxSpectators is the most spectators one peer feeds.
	MaxSpectators = 8
	// MaxInputDelay is the longest input delay, in ticks.
	MaxInputDelay = 15
	// MaxPredictionTicks is the largest MaxPrediction: rollbacks deeper
	// than half a second at 60 TPS cost more than they hide.
	MaxPredictionTicks = 30
)

// Special values of SessionConfig.InputDelay and SessionConfig.MaxPrediction, whose
// zero values mean their defaults.
const (
	// NoDelay as SessionConfig.InputDelay applies local input on the tick it is
	// read, and predicts every remote input.
	NoDelay = -1
	// Lockstep as SessionConfig.MaxPrediction predicts nothing: each tick waits
	// for every player's input, and nothing is ever rolled back.
	Lockstep = -1
)

// SessionConfig sets up a Session. Addrs (or Host, for a spectator) and InputSize
// must be set; every other zero field means its default.
type SessionConfig struct {
	// Players is the number of players, 2 to MaxPeers. Zero means 2.
	Players int
	// Local is this peer's player, 0 to Players-1. Ignored by a spectator.
	Local int
	// Addrs holds each player's address: Addrs[p] is player p's, and
	// Addrs[Local] is not used. It has Players entries.
	Addrs []netip.AddrPort
	// Spectators are the addresses of spectators this peer feeds with
	// confirmed inputs: at most MaxSpectators. A spectator that calls in
	// the match's first 64 ticks is fed every input from tick 0; one that
	// calls later, or falls 64 ticks behind, is sent this peer's state at
	// its last confirmed tick, in acknowledged slices, then the inputs
	// from that tick on, and runs them fast to the present (see
	// SessionStats.Catchup). A spectator that goes silent past DisconnectTimeout
	// (past DisconnectWarning, when 64 ticks behind), or is sent 4 states
	// in a row without running on from one, is dropped; the game goes on,
	// and the spectator's seat is free for another call. A late spectator
	// cannot record the match (SetTickListener): it stops with an error
	// instead.
	Spectators []netip.AddrPort

	// Spectate makes the session a spectator's: it sends no input, runs
	// confirmed ticks only (never predicts, never rolls back) and is fed
	// by Host, a player whose Spectators list has this peer's address.
	Spectate bool
	// Host is the player that feeds a spectator.
	Host netip.AddrPort
	// MaxState is the largest state, in bytes, a spectator accepts from
	// its host when it joins late; a larger one stops it with an error
	// before anything is allocated for it. Zero means DefaultMaxState.
	MaxState int

	// InputSize is the size of the game's per-tick input value in bytes,
	// 1 to engine.MaxInputSize, the same on every peer. It must be set.
	InputSize int
	// InputDelay is how many ticks after it is read the local input
	// applies, so it reaches the other peers before they need it. Zero
	// means DefaultInputDelay (2); NoDelay for none; at most MaxInputDelay.
	InputDelay int
	// MaxPrediction is how many ticks past the last confirmed one the
	// session simulates with predicted inputs; when it gets that far
	// ahead it stalls. Zero means DefaultMaxPrediction (8); Lockstep for
	// none; at most MaxPredictionTicks.
	MaxPrediction int
	// FrameBudget is the real time, on Clock, a frame may spend running
	// ticks: a rollback's and the ticks due. A session whose ticks cost
	// more than that allows predicts less far and delays its input by
	// more (see MatchStats.TickCost). Zero means three quarters of a
	// tick (12.5 ms at 60 TPS).
	FrameBudget time.Duration

	// DisconnectWarning is the silence after which a peer counts as
	// interrupted (SessionStats.Interrupted). Zero means 500 ms.
	DisconnectWarning time.Duration
	// DisconnectTimeout is the silence after which a player counts as gone:
	// a match of three or four plays on without it (see Session), one of
	// two stops, Update returning a *DisconnectError. It also bounds how
	// long the players still in touch take to agree on when it left.
	// Zero means 2 s.
	DisconnectTimeout time.Duration
	// HandshakeTimeout is how long a peer calls a player or a host at a
	// known address that does not answer before Update returns a
	// *DisconnectError: a joiner whose host is not there. A host waits
	// for callers on an Accept transport (Unknown, the SpectatorSeats)
	// as long as it runs. Zero means 10 s.
	HandshakeTimeout time.Duration

	// TPS is the loop's tick rate (engine.Config.TPS), the same on every
	// peer. Zero means engine.DefaultTPS.
	TPS int
	// Params is the game's own description of what its simulation depends
	// on (level, rules, physics settings): peers whose Params differ are
	// refused. Only its FNV-1a hash travels.
	Params string
	// Sim identifies the simulating code: engine.Fingerprint's hash, which
	// is the same for the same code on every CPU and build and another for
	// any change to it, so two versions of a game are refused at the
	// handshake, naming the difference, instead of meeting at a desync,
	// while builds of one version for other CPUs play together. Zero
	// means none given (tests).
	Sim uint64

	// HashEvery is how many ticks apart the peers compare the hashes of
	// their confirmed states, to detect a desync; with an EndTick they
	// compare the end state's too. Zero means TPS (once a second of game
	// time); negative turns the check off, the end's included.
	HashEvery int

	// EndTick ends the match after that many ticks: once ticks 0 to
	// EndTick-1 have run on every player's confirmed input, and every
	// peer has this peer's inputs of them (or has ended too), Update
	// returns engine.ErrStopped, and the game's state is the same on every
	// peer: its hash is compared with every player's, and a match that
	// compared no hash with one (a peer that sends none) returns an error
	// wrapping ErrUnverified instead. A peer whose match ends earlier
	// counts as one that left. Zero means the match runs until a peer
	// leaves.
	EndTick uint64

	// Clock is the session's time, for round trips, keep-alives and
	// timeouts. Nil means the real monotonic clock.
	Clock engine.Clock
	// Seed seeds the handshake nonces. Zero means a random seed; a test
	// sets it to repeat a run exactly.
	Seed uint64
}

// withDefaults returns c with its zero fields set to their defaults, or an
// error naming the first invalid field.
func (c SessionConfig) withDefaults() (SessionConfig, error) {
	c.Players = cmp.Or(c.Players, 2)
	c.TPS = cmp.Or(c.TPS, engine.DefaultTPS)
	switch {
	case c.Players < 2 || c.Players > MaxPeers:
		return c, fmt.Errorf("netplay: SessionConfig.Players = %d: want 2 to %d", c.Players, MaxPeers)
	case !c.Spectate && (c.Local < 0 || c.Local >= c.Players):
		return c, fmt.Errorf("netplay: SessionConfig.Local = %d: want 0 to %d", c.Local, c.Players-1)
	case !c.Spectate && len(c.Addrs) != c.Players:
		return c, fmt.Errorf("netplay: SessionConfig.Addrs has %d addresses: want one per player (%d)", len(c.Addrs), c.Players)
	case c.Spectate && !c.Host.IsValid():
		return c, fmt.Errorf("netplay: SessionConfig.Host = %v: a spectator needs its host's address", c.Host)
	case c.Spectate && len(c.Spectators) > 0:
		return c, fmt.Errorf("netplay: SessionConfig.Spectators has %d addresses: a spectator feeds no one", len(c.Spectators))
	case len(c.Spectators) > MaxSpectators:
		return c, fmt.Errorf("netplay: SessionConfig.Spectators has %d addresses: at most %d", len(c.Spectators), MaxSpectators)
	case c.InputSize < 1 || c.InputSize > engine.MaxInputSize:
		return c, fmt.Errorf("netplay: SessionConfig.InputSize = %d: want 1 to %d, the size of the game's input value", c.InputSize, engine.MaxInputSize)
	case c.InputDelay < NoDelay || c.InputDelay > MaxInputDelay:
		return c, fmt.Errorf("netplay: SessionConfig.InputDelay = %d: want 1 to %d ticks, NoDelay or 0 for %d", c.InputDelay, MaxInputDelay, DefaultInputDelay)
	case c.MaxPrediction < Lockstep || c.MaxPrediction > MaxPredictionTicks:
		return c, fmt.Errorf("netplay: SessionConfig.MaxPrediction = %d: want 1 to %d ticks, Lockstep or 0 for %d", c.MaxPrediction, MaxPredictionTicks, DefaultMaxPrediction)
	case c.DisconnectWarning < 0:
		return c, fmt.Errorf("netplay: SessionConfig.DisconnectWarning = %v: must be positive (or zero for %v)", c.DisconnectWarning, DefaultDisconnectWarning)
	case c.DisconnectTimeout < 0:
		return c, fmt.Errorf("netplay: SessionConfig.DisconnectTimeout = %v: must be positive (or zero for %v)", c.DisconnectTimeout, DefaultDisconnectTimeout)
	case c.HandshakeTimeout < 0:
		return c, fmt.Errorf("netplay: SessionConfig.HandshakeTimeout = %v: must be positive (or zero for %v)", c.HandshakeTimeout, DefaultHandshakeTimeout)
	case c.FrameBudget < 0:
		return c, fmt.Errorf("netplay: SessionConfig.FrameBudget = %v: must be positive (or zero for three quarters of a tick)", c.FrameBudget)
	case c.MaxState < 0:
		return c, fmt.Errorf("netplay: SessionConfig.MaxState = %d: must be positive (or zero for %d)", c.MaxState, DefaultMaxState)
	case c.TPS < 0 || c.TPS > engine.MaxTPS:
		return c, fmt.Errorf("netplay: SessionConfig.TPS = %d: want 1 to %d (or zero for %d)", c.TPS, engine.MaxTPS, engine.DefaultTPS)
	}
	if !c.Spectate {
		for p, a := range c.Addrs {
			if p != c.Local && !a.IsValid() {
				return c, fmt.Errorf("netplay: SessionConfig.Addrs[%d] = %v: not an address", p, a)
			}
		}
	}
	for i, a := range c.Spectators {
		if !a.IsValid() {
			return c, fmt.Errorf("netplay: SessionConfig.Spectators[%d] = %v: not an address", i, a)
		}
	}
	switch c.InputDelay {
	case 0:
		c.InputDelay = DefaultInputDelay
	case NoDelay:
		c.InputDelay = 0
	}
	switch c.MaxPrediction {
	case 0:
		c.MaxPrediction = DefaultMaxPrediction
	case Lockstep:
		c.MaxPrediction = 0
	}
	if c.Spectate {
		c.MaxPrediction, c.InputDelay = 0, 0
	}
	c.DisconnectWarning = cmp.Or(c.DisconnectWarning, DefaultDisconnectWarning)
	c.DisconnectTimeout = cmp.Or(c.DisconnectTimeout, DefaultDisconnectTimeout)
	c.HandshakeTimeout = cmp.Or(c.HandshakeTimeout, DefaultHandshakeTimeout)
	c.HashEvery = cmp.Or(c.HashEvery, c.TPS)
	c.MaxState = cmp.Or(c.MaxState, DefaultMaxState)
	return c, nil
}

// Validate reports the first invalid field of c, or nil.
func (c SessionConfig) Validate() error {
	_, err := c.withDefaults()
	return err
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
	// Left lists the players the match went on without, in the order
	// they left (see Session): each one's seat is empty from the tick
	// the players still in it agreed on. A spectator's is empty.
	Left []Leave
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

// Leave is a player a match went on without: from Tick on its seat is
// empty (engine.Inputs.Seated is false), on every player still in the
// match and in their recordings.
type Leave struct {
	// Player is the player's index (0 for player 1).
	Player int
	// Tick is the first tick its seat is empty at.
	Tick uint64
}

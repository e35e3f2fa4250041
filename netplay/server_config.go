package netplay

import (
	"cmp"
	"fmt"
	"math/bits"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// Server limits and defaults.
const (
	// MaxServerSpectators is the most spectators a Server feeds.
	MaxServerSpectators = 32
	// DefaultMaxResyncs is how many times in a row a Server sends a
	// client its state before it drops the client as diverged.
	DefaultMaxResyncs = 3
	// keepTicks is how many ticks of final inputs a Server keeps: a joiner
	// must receive its state and start asking for inputs within that.
	keepTicks = 1024
	// aheadLen is how many ticks past the server's tick a client's input
	// may be for; later ones are dropped.
	aheadLen = 64
	// checkpoints is how many saved states a Server keeps for transfers.
	checkpoints = 4
	// verifyTicks is how many ticks after a client is sent a state the
	// server hashes its state for that client: the first check of a
	// joiner, a quarter second in at 60 TPS, rather than at the next
	// HashEvery.
	verifyTicks = 15
	// sendEvery is how many ticks apart a Server sends a client its
	// final inputs in steady state.
	sendEvery = 2
	// DefaultTransferRate is the ServerConfig.TransferRate a zero value
	// means: 32 Mbit/s, all of it for a joiner alone (a client is sent
	// at most chunksPerTick slices a tick, 47 Mbit/s at 60 TPS).
	DefaultTransferRate = 32_000_000
	// DefaultSeatsPerAddr is the ServerConfig.SeatsPerAddr a zero value
	// means.
	DefaultSeatsPerAddr = 4
)

// ServerConfig sets up a Server. InputSize must be set; every other zero
// field means its default.
type ServerConfig struct {
	// Players is the number of seats, 1 to MaxSeats. Zero means 2.
	Players int
	// Spectators is how many spectators the server feeds, 0 to
	// MaxServerSpectators.
	Spectators int
	// InputSize is the game's per-tick input size, 1 to
	// engine.MaxInputSize, so that every seat's input of a tick fits one
	// datagram: Players × InputSize at most 451 − Players/8 bytes (13
	// bytes each at 32 players).
	InputSize int
	// TPS is the loop's tick rate. Zero means engine.DefaultTPS.
	TPS int
	// Params and Sim are the game's, as in SessionConfig: a client whose differ
	// is refused, naming the field.
	Params string
	Sim    uint64
	// HashEvery is how many ticks apart the server saves its state,
	// hashes it and sends the hash to its clients. Zero means TPS.
	HashEvery int
	// EndTick ends the match after that many ticks: the server sends the
	// end state's hash to every client, waits for them to have every
	// input (at most DisconnectTimeout), and its Update returns
	// engine.ErrStopped. Zero: the match runs until the loop stops.
	EndTick uint64
	// DisconnectTimeout is the silence after which a client's seat is
	// freed. Zero means 2 s.
	DisconnectTimeout time.Duration
	// MaxResyncs is how many times in a row the server sends a client its
	// state, the client's hash differing each time, before it drops the
	// client. Zero means DefaultMaxResyncs.
	MaxResyncs int
	// TransferRate is the most the server spends sending states (joins,
	// resyncs) to all its clients together, in bits per second of UDP
	// payload: joiners share it evenly, each at most chunksPerTick slices
	// a tick, and wait their turn beyond it. Zero means
	// DefaultTransferRate.
	TransferRate int
	// SeatsPerAddr is how many seats (players' and spectators' together)
	// clients from one address may take: one IPv4 address, or one IPv6
	// /64 network (what one subscriber is given). A join past it is
	// refused, naming the limit. Zero means DefaultSeatsPerAddr.
	SeatsPerAddr int
	// Clock is the server's time. Nil means the real monotonic clock.
	Clock engine.Clock
}

// withDefaults returns c with its zero fields set, or an error naming the
// field out of range.
func (c ServerConfig) withDefaults() (ServerConfig, error) {
	c.Players = cmp.Or(c.Players, 2)
	c.TPS = cmp.Or(c.TPS, engine.DefaultTPS)
	c.HashEvery = cmp.Or(c.HashEvery, c.TPS)
	c.DisconnectTimeout = cmp.Or(c.DisconnectTimeout, DefaultDisconnectTimeout)
	c.MaxResyncs = cmp.Or(c.MaxResyncs, DefaultMaxResyncs)
	c.TransferRate = cmp.Or(c.TransferRate, DefaultTransferRate)
	c.SeatsPerAddr = cmp.Or(c.SeatsPerAddr, DefaultSeatsPerAddr)
	switch {
	case c.Players < 1 || c.Players > MaxSeats:
		return c, fmt.Errorf("netplay: ServerConfig.Players = %d: must be 1 to %d", c.Players, MaxSeats)
	case c.Spectators < 0 || c.Spectators > MaxServerSpectators:
		return c, fmt.Errorf("netplay: ServerConfig.Spectators = %d: must be 0 to %d", c.Spectators, MaxServerSpectators)
	case c.InputSize < 1 || c.InputSize > maxInputSize:
		return c, fmt.Errorf("netplay: ServerConfig.InputSize = %d: must be 1 to %d", c.InputSize, maxInputSize)
	case c.Players*c.InputSize > maxRowInputs(c.Players):
		return c, fmt.Errorf("netplay: ServerConfig.InputSize = %d: %d players' inputs of it (%d bytes) do not fit a datagram's row; at most %d bytes each",
			c.InputSize, c.Players, c.Players*c.InputSize, maxRowInputs(c.Players)/c.Players)
	case c.TPS < 1 || c.TPS > engine.MaxTPS:
		return c, fmt.Errorf("netplay: ServerConfig.TPS = %d: must be 1 to %d", c.TPS, engine.MaxTPS)
	case c.HashEvery < 1 || c.HashEvery > 1<<16-1 || c.HashEvery*checkpoints >= keepTicks:
		return c, fmt.Errorf("netplay: ServerConfig.HashEvery = %d: must be 1 to %d", c.HashEvery, keepTicks/checkpoints-1)
	case c.DisconnectTimeout < 0:
		return c, fmt.Errorf("netplay: ServerConfig.DisconnectTimeout = %v: must not be negative", c.DisconnectTimeout)
	case c.MaxResyncs < 1:
		return c, fmt.Errorf("netplay: ServerConfig.MaxResyncs = %d: must be at least 1", c.MaxResyncs)
	case c.EndTick >= 1<<31:
		return c, fmt.Errorf("netplay: ServerConfig.EndTick = %d: must be under 2^31", c.EndTick)
	case len(c.Params) > MaxServerParams:
		return c, fmt.Errorf("netplay: ServerConfig.Params is %d bytes: must be at most %d, what a welcome carries", len(c.Params), MaxServerParams)
	case c.TransferRate < minTransferRate:
		return c, fmt.Errorf("netplay: ServerConfig.TransferRate = %d: must be at least %d bits/s", c.TransferRate, minTransferRate)
	case c.SeatsPerAddr < 1:
		return c, fmt.Errorf("netplay: ServerConfig.SeatsPerAddr = %d: must be at least 1", c.SeatsPerAddr)
	}
	return c, nil
}

// maxRowInputs is the most bytes of inputs a row of players seats may
// hold: a row in which every seat and the empty seats changed fits a
// final datagram.
func maxRowInputs(players int) int { return MaxPacket - finalHead - maskLen(players) - 4 }

// minTransferRate is the lowest ServerConfig.TransferRate: 64 kbit/s.
const minTransferRate = 64_000

// ServerStats is what a Server has counted. Its MatchStats' Hashes and
// Desyncs count clients' hashes compared with the server's, equal and not.
type ServerStats struct {
	MatchStats
	// Players and Spectators are the seats and spectator seats taken now.
	Players, Spectators int
	// Joins counts clients seated (players and spectators), Leaves those
	// that left, went silent past DisconnectTimeout or were dropped.
	Joins, Leaves uint64
	// InputsReplaced counts seated players' inputs that did not arrive in
	// time for their tick and were replaced by the player's last one;
	// InputsLate counts inputs that arrived after their tick ran.
	InputsReplaced, InputsLate uint64
	// Resyncs counts the states sent to clients whose hash differed (or
	// that fell too far behind); Dropped the clients dropped for
	// diverging MaxResyncs times in a row; Stalled those dropped for
	// acknowledging nothing new for DisconnectTimeout while the server had
	// a state or inputs to send them (a transfer or a stream that makes no
	// progress ends there).
	Resyncs, Dropped, Stalled uint64
	// StatesSent counts states sent (joins, resyncs), ChunksSent their
	// slices, resends included.
	StatesSent, ChunksSent uint64
	// Refused counts joins refused (another game, no seat free, the
	// address's seats taken); Probes the probes answered with the
	// settings (Probe).
	Refused, Probes uint64
	// BytesFinal counts the bytes of final inputs sent (the steady
	// downstream, states excluded).
	BytesFinal             uint64
	tickUS                 [tickBuckets]uint32
	tickCount, clientTicks uint64
}

// The buckets of the server's tick times: 1 µs each below 32 µs, then 32
// a doubling (each 3 % wide at most), up to 2^32 µs (71 minutes), so no
// time a tick can take is cut short.
const (
	tickSub     = 32
	tickBuckets = tickSub + 27*tickSub
)

// tickBucket returns the bucket of a tick time of us µs.
func tickBucket(us uint64) int {
	if us < tickSub {
		return int(us)
	}
	us = min(us, 1<<32-1)
	e := bits.Len64(us) - 6 // us>>e is in [32, 64)
	return tickSub + e*tickSub + int(us>>e) - tickSub
}

// tickTop returns the largest time, in µs, of bucket i.
func tickTop(i int) uint64 {
	if i < tickSub {
		return uint64(i)
	}
	e := (i - tickSub) / tickSub
	return (uint64(tickSub+(i-tickSub)%tickSub)+1)<<e - 1
}

// TickP99 returns the 99th percentile of the server's Update times (game
// tick included), rounded up to its bucket's top: to 1 µs under 32 µs,
// and to 3 % above, however long a tick took.
func (st *ServerStats) TickP99() time.Duration {
	want := st.tickCount - st.tickCount/100
	var seen uint64
	for i, n := range st.tickUS {
		seen += uint64(n)
		if seen >= want && n > 0 {
			return time.Duration(tickTop(i)) * time.Microsecond
		}
	}
	return 0
}

// DownKbpsPerClient is the mean downstream of final inputs to a client,
// in kbit/s of UDP payload plus 28 bytes of IPv4 and UDP headers per
// datagram, over the client-ticks the server ran.
func (st *ServerStats) DownKbpsPerClient(tps int) float64 {
	if st.clientTicks == 0 {
		return 0
	}
	return float64(st.BytesFinal) * 8 / 1000 / (float64(st.clientTicks) / float64(tps))
}

// udpOverhead is the bytes of IPv4 and UDP headers a datagram costs on
// the wire beside its payload.
const udpOverhead = 28

package netplay

import (
	"math/bits"
	"time"
)

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

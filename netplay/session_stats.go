package netplay

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

package netplay

import (
	"cmp"
	"fmt"
	"math/bits"
	"net/netip"
	"strconv"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// ringLen is how many ticks of inputs a session keeps per player: more
// than the farthest a peer can get ahead of another's confirmed tick
// (about 3·MaxPredictionTicks + 2·MaxInputDelay), and a spectator's window.
const ringLen = 128

// Session runs a game over the network, rollback style: it is the
// engine.Game an engine.Loop runs, and runs the game inside it.
//
// Each loop tick, Update reads what the peers sent, rolls back and runs
// again the ticks that ran on a wrong prediction (the game's Load, then
// its Update with Tick.Rerun set, saving as it goes), reads the local
// player's input for InputDelay ticks ahead (the game's Input), and runs
// the next tick with every player's input in Tick.Input: confirmed where it
// arrived, predicted (the player's last input, repeated) where it did not,
// marked so in engine.Inputs. Ticks are numbered by the session, from 0:
// a loop tick the session does not advance (the handshake is not done, it
// is MaxPrediction ticks past the last confirmed one, or in lockstep an
// input is missing) runs no game update, and SessionStats.Stalls counts it. Draw
// is the game's, and shows the predicted present. When this peer runs
// ahead of another, the session slows the loop's time scale a little (see
// SetTimeScaler), so that it need not stall; the tick length never
// changes.
//
// Inputs go to each peer redundantly, every tick, from the first it has
// not acknowledged; a peer silent for DisconnectWarning counts as
// interrupted, one silent for DisconnectTimeout as gone.
//
// A match of three or four plays on without a player that is gone or
// quit: the players still in touch agree on the tick from which its seat
// is empty (engine.Inputs.Seated false, its input zero), and run the
// ticks from there again if they ran with it seated; SessionStats.Left
// lists who left and when. The agreement: a player
// that drops another takes no more of its inputs, and its vote is how
// many it had; the players tell each other whom they drop, with their
// votes, until all still in touch drop the same players; then each takes
// the largest vote (no one made a tick past its own vote final, so none
// is undone), and has the lost player's inputs up to it passed on by one
// that has them. A player plays on only while the players it is in touch
// with, itself included, are more than half of those seated before: a
// peer cut off from the others stops with a *DisconnectError, and one
// that hears it was dropped (a stalled process, a healed partition) stops
// with one whose Dropped is set, never with a desync. A match of two
// players that loses one, a spectator whose host is gone, or players
// left without a majority stop with a *DisconnectError naming the player
// that vanished (a player that stops so tells the rest, a "gone"
// goodbye, so that they name it too, not the one that told them), or
// that left (Left).
//
// The game must implement engine.Saver (saves are the rollback's states)
// and, unless spectating, engine.Inputter. Its Update must be a function
// of its saved state and Tick.Input alone (see engine.SyncTest), and must
// skip what it does outside its state on a rerun. The session forwards
// the game's Begin, End, QualityChanged, SuspendChanged and GPUTime.
//
// A Session is used from the loop's goroutine only. In steady state,
// rollbacks included, it allocates nothing (the game's Save and Update
// must not either).
type Session struct {
	rollback // its local is our player: -1 for a spectator, or before the lobby seats us
	cfg      SessionConfig
	tr       Transport

	peers       []remote
	nonce       uint32 // ours: the token of every datagram to us
	params, sim uint64

	lastHash   tickHash      // the newest of our confirmed hashes, or final
	final      tickHash      // our hash of the state at SessionConfig.EndTick
	finalState []byte        // that state
	endAt      time.Duration // when final was taken
	started    bool          // every player answered the handshake
	calling    bool          // the handshake began, at callStart
	callStart  time.Duration
	slowing    bool            // the time sync is slowing the clock
	byeSent    bool            // the bye for err went out
	in, out    [MaxPacket]byte // the datagram read and the one written
	pk, opk    packet          // decoded in, encoded out
	hk         packet          // a hello an Accept transport asks about
	acc        *Accept         // tr, if it is an Accept: strangers' hellos are refused, not seated
	lobby      *Lobby          // the lobby seating the players (NewLobbySession) until it is done, then nil
	stats      SessionStats

	// The players this peer drops (session_leave.go).
	dropped   uint32                    // bit p: player p's own inputs are taken no more
	decided   uint32                    // of those, the ones whose seat is empty from at[p]
	vote      [MaxPeers]int             // how many of p's inputs this peer had when it began to drop p
	at        [MaxPeers]int             // the tick p's seat is empty from, once decided
	lost      [MaxPeers]DisconnectError // how each was lost: the error if the match cannot go on
	lostFirst int                       // the first player lost of those not vacated
	lostAt    time.Duration             // when it was lost
	dropNews  bool                      // dropped, decided or vacant changed since the last send

	// A late spectator's state from its host (late.go).
	st     receiver // the state, tick -1 before an offer
	gotDue bool     // a got is due: a chunk or offer of a loaded state came
	loaded bool     // a state was loaded, and no hash compared since
}

var _ Match = (*Session)(nil)

// Settings returns the match's players, tick rate, input size and Params.
func (s *Session) Settings() Settings {
	return Settings{Players: s.players, TPS: s.cfg.TPS, InputSize: s.size, Params: s.cfg.Params}
}

// Config returns the session's configuration, its defaults filled in.
func (s *Session) Config() SessionConfig { return s.cfg }

// Stats returns the session's counts, refreshed by every Update. The
// pointer stays valid; read it from the loop's goroutine.
func (s *Session) Stats() *SessionStats { return &s.stats }

// Confirmed returns how many ticks have every player's input: ticks 0 to
// Confirmed()-1 will not roll back.
func (s *Session) Confirmed() uint64 { return uint64(s.confirmed()) }

// Running reports whether every player answered the handshake, so the
// game runs.
func (s *Session) Running() bool { return s.started }

// theirFinal stores p's hash of the end state and compares it with ours,
// once, if we have it.
func (s *Session) theirFinal(p *remote, h uint64) {
	if p.finalDone {
		return
	}
	p.final = tickHash{tick: int(s.cfg.EndTick), hash: h, ok: true}
	if s.final.ok {
		p.finalDone = true
		s.compareHash(p, s.final.tick, s.final.hash, h)
	}
}

// floor returns the oldest tick whose input row must be kept: the last
// confirmed one (predictions repeat it), the oldest a peer or a
// spectator still needs from us, and the oldest input of a dropped
// player that we pass on to a player who lacks it. A row may be written for ticks below
// floor+ringLen only.
func (s *Session) floor() int {
	f := s.confirmed() - 1
	for i := range s.peers {
		p := &s.peers[i]
		if p.synced && p.kind != remoteHost && (!p.late || p.xOn) && !s.dropping(p) {
			f = min(f, p.ack)
		}
	}
	if s.dropped != 0 {
		f = min(f, s.relayPin())
	}
	return f
}

// desync is the error a desync before tick n with the peer at index
// player stops the session with: ours and theirs are zero when the peer
// reported it.
func desync(n uint64, player int, ours, theirs uint64) error {
	return fmt.Errorf("netplay: %w", &engine.DesyncError{Tick: n, Other: playerName(player), Ours: ours, Theirs: theirs})
}

// compareHash stops the session on a mismatch.
func (s *Session) compareHash(p *remote, c int, ours, theirs uint64) {
	if ours == theirs {
		s.stats.Hashes++
		s.st.verified()
		p.compared++
		if s.loaded {
			s.loaded = false
			s.stats.Catchup = s.clock.Now() - s.callStart
		}
		return
	}
	s.stats.Desyncs++
	s.fail(desync(uint64(c), p.player, ours, theirs))
}

// fail stops the session with err, unless it stopped already, and
// returns the error it stopped with.
func (s *Session) fail(err error) error {
	s.err = cmp.Or(s.err, err)
	return s.err
}

// Local returns this peer's player: SessionConfig.Local, or the seat its lobby
// gave it (-1 before); -1 for a spectator.
func (s *Session) Local() int { return s.local }

// fillStats refreshes the stats that are states, not counts.
func (s *Session) fillStats(now time.Duration) {
	st := &s.stats
	s.fill()
	st.RTT, st.Interrupted = 0, 0
	for i := range s.peers {
		p := &s.peers[i]
		if s.dropping(p) {
			continue
		}
		if p.kind != remoteSpectator {
			st.RTT = max(st.RTT, p.rt.rtt)
		}
		if p.interrupted {
			st.Interrupted++
		}
	}
}

// Report returns the session's figures as "key=value" fields for the end
// of a stats line, each after a space:
//
//	rtt_ms=48.2 rollbacks=310 rollback_ticks_max=5 rollback_p99=4 predicted=1205 desyncs=0 hashes_checked=61 packets_bad=0 packets_stale=0 packets_unknown=0 refused=0 probes=1 stalls=3 time_scale=1.000 states_sent=0 catchup_ms=0 input_delay=2 delay_changes=0 tick_cost_ms=0.210 deferred=0 left=3@1234
//
// hashes_checked is SessionStats.Hashes: desyncs=0 says something only when it
// is not 0. states_sent is a host's SessionStats.StatesSent, catchup_ms a late
// spectator's SessionStats.Catchup. input_delay to deferred are what the
// session's ticks cost and what it did about it (MatchStats.TickCost).
// left= lists SessionStats.Left, the players the match went on without,
// numbered from 1, each @ the first tick its seat was empty at
// (left=3@1234,2@2040), or says none; it is last.
func (s *Session) Report() string {
	st := &s.stats
	return fmt.Sprintf(" rtt_ms=%.1f rollbacks=%d rollback_ticks_max=%d rollback_p99=%d predicted=%d desyncs=%d hashes_checked=%d packets_bad=%d packets_stale=%d packets_unknown=%d refused=%d probes=%d stalls=%d time_scale=%.3f states_sent=%d catchup_ms=%d",
		float64(st.RTT)/1e6, st.Rollbacks, st.RollbackTicksMax, st.RollbackP99, st.Predicted, st.Desyncs, st.Hashes, st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.Refused, st.Probes, st.Stalls, st.TimeScale,
		st.StatesSent, st.Catchup.Milliseconds()) + st.budgetReport() + " left=" + string(appendLeft(nil, st.Left))
}

// remoteKind is what a remote address is to this session.
type remoteKind uint8

const (
	remotePlayer    remoteKind = iota // another player
	remoteSpectator                   // a spectator this peer feeds
	remoteHost                        // the player that feeds this spectator
)

// remote is what a session knows of one remote address: another player,
// a spectator it feeds, or the host that feeds it.
type remote struct {
	addr   netip.AddrPort
	kind   remoteKind
	player int // the player, -1 for a spectator or a host

	nonce   uint32 // theirs: the token of our datagrams to them; 0 until known
	knowsMe bool   // they sent our nonce back
	synced  bool   // the handshake is done: nonce known and knowsMe
	done    bool   // its match ended at our EndTick (a bye): it is silent now, and needs nothing

	helloSent          bool
	lastHello          time.Duration
	lastRecv, lastSend time.Duration
	sentAck            int  // the ack we last sent
	ackSent            bool // sentAck is valid
	ack                int  // the next tick of what we send them that they lack
	next               int  // the first tick of what we send them never sent yet

	rt roundTrip // the round trip to them

	remoteTick int           // their next tick, as of remoteAt
	remoteAt   time.Duration // when we learned it
	remoteAdv  float64       // their smoothed advantage over us, ticks
	adv        float64       // our smoothed advantage over them, ticks
	advOK      bool          // remoteTick is known
	advInit    bool          // adv has a first value

	// Its last drop datagram (session_leave.go), and ours to it.
	dropSeen           bool          // one came
	dDropped, dDecided uint32        // whom it drops, and whose tick it decided
	dTick, dHave       [MaxPeers]int // per player it drops: its vote or decided tick, and the inputs it has
	dropDue            bool          // it waits for ours
	lastDrop           time.Duration // when ours last went

	theirs      [4]tickHash // their confirmed hashes, by checkpoint
	final       tickHash    // their hash of the state at SessionConfig.EndTick
	finalDone   bool        // final was compared with ours
	compared    uint64      // their hashes compared equal with ours
	interrupted bool        // silent past DisconnectWarning

	// A spectator fed from a state (late.go).
	late   bool          // it called too late to be fed from tick 0, or fell too far behind
	xOn    bool          // xTick's state is taken and being sent
	x      sender        // the state's chunks sent, and acknowledged
	xHash  uint64        // its hash
	xBuf   []byte        // the state
	xSeen  bool          // a got named xTick: the offer arrived
	xDone  bool          // every chunk arrived
	xTries int           // states begun since it last ran on from one
	xOffer time.Duration // when the offer was last sent
}

// hashAt returns their hash of the state before tick c, if they sent it.
func (p *remote) hashAt(c, every int) (uint64, bool) {
	h := p.theirs[c/every%len(p.theirs)]
	return h.hash, h.ok && h.tick == c
}

// allSynced reports whether every player (or the host) finished the
// handshake.
func (s *Session) allSynced() bool {
	for i := range s.peers {
		if p := &s.peers[i]; p.kind != remoteSpectator && !p.synced {
			return false
		}
	}
	return true
}

// peerAt returns the peer at addr, or nil.
func (s *Session) peerAt(a netip.AddrPort) *remote {
	for i := range s.peers {
		if p := &s.peers[i]; p.addr == a {
			return p
		}
	}
	return nil
}

// spectatorJoinBy is the last tick a spectator may call at to be fed
// every input from tick 0 (a host keeps them half its ring ahead); a
// later one is sent a state.
const spectatorJoinBy = ringLen / 2

// freeSeat makes spectator p's seat free again for a new caller: on an
// Accept transport, the seat; the peer as before anyone called (its state
// buffers kept, for the next).
func (s *Session) freeSeat(p *remote) {
	if s.acc != nil {
		s.acc.release(p.addr)
	}
	*p = remote{addr: p.addr, kind: remoteSpectator, player: -1, xBuf: p.xBuf[:0], x: sender{at: p.x.at[:0], acked: p.x.acked[:0], again: p.x.again[:0]}}
}

// refuseCaller answers a hello of n bytes from a caller (at to) with a
// refuse of field, if that is no larger: the caller stops, naming why,
// and this session goes on. SessionStats.Refused counts it; SessionStats.Probes a
// server's probe told this is a host.
func (s *Session) refuseCaller(to netip.AddrPort, n int, field uint8, ours, theirs uint64) {
	if field == fieldHost {
		s.stats.Probes++
	} else {
		s.stats.Refused++
	}
	if refuseLen > n {
		return
	}
	b := appendRefuse(s.out[:0], field, ours, theirs)
	if s.tr.WriteTo(b, to) == nil {
		s.stats.PacketsOut++
		s.stats.BytesOut += uint64(len(b))
	}
}

// callerOf returns p's address as errors name it: the real one behind an
// Accept transport's stand-in.
func (s *Session) callerOf(p *remote) netip.AddrPort {
	if a, ok := s.tr.(interface {
		Caller(netip.AddrPort) netip.AddrPort
	}); ok {
		return a.Caller(p.addr)
	}
	return p.addr
}

// write sends b to p, counting it. A transport that cannot send stops
// the session.
func (s *Session) write(b []byte, p *remote) {
	if err := s.tr.WriteTo(b, p.addr); err != nil {
		s.fail(fmt.Errorf("netplay: send to %v: %w", p.addr, err))
		return
	}
	p.lastSend = s.clock.Now()
	s.stats.PacketsOut++
	s.stats.BytesOut += uint64(len(b))
}

// dropping reports whether p is a player this peer drops.
func (s *Session) dropping(p *remote) bool {
	return p.kind == remotePlayer && s.dropped>>uint(p.player)&1 != 0
}

// inTouch reports whether p is a player that takes part in a round:
// one this peer neither drops nor saw end its match.
func (s *Session) inTouch(p *remote) bool {
	return p.kind == remotePlayer && p.synced && !p.done && !s.dropping(p)
}

// relayPin returns the oldest tick of a dropped player's inputs that a
// player still in touch lacks and this peer can pass on (noTick if none):
// its rows are kept until then.
func (s *Session) relayPin() int {
	f := noTick
	for i := range s.peers {
		p := &s.peers[i]
		if !p.dropSeen || !s.inTouch(p) {
			continue
		}
		for m := s.dropped & p.dDropped; m != 0; m &= m - 1 {
			q := bits.TrailingZeros32(m)
			if h := p.dHave[q]; h < s.recv[q] && h >= s.recv[q]-ringLen/2 {
				f = min(f, h)
			}
		}
	}
	return f
}

// appendLeft appends the stats line's value of left=: each player the
// match went on without, numbered from 1, @ the tick its seat is empty
// from, or none.
func appendLeft(dst []byte, left []Leave) []byte {
	if len(left) == 0 {
		return append(dst, "none"...)
	}
	for i, l := range left {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(l.Player+1), 10)
		dst = append(dst, '@')
		dst = strconv.AppendUint(dst, l.Tick, 10)
	}
	return dst
}

package netplay

import (
	"cmp"
	"fmt"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// A late spectator: one that calls after the first spectatorJoinBy ticks,
// when its host will no longer keep the inputs from tick 0 for it, or
// that falls ringLen/2 ticks behind them while it still answers. The host
// takes its state at its last confirmed tick S (Session.takeState),
// offers it (kind offer: its tick, length and hash), and sends it in
// chunks (kind chunk, as a Server does), each again after a round trip
// until a got (the chunks received in order, and a 64-bit mask of the
// next ones) says it arrived. Meanwhile it feeds the spectator the
// confirmed inputs from S on, as it feeds any spectator: the spectator
// keeps ringLen ticks of them, so its acks, which pin the host's rows,
// move on while the state comes. The spectator checks the state's size
// against SessionConfig.MaxState before it allocates, its hash before it loads
// it, then runs the confirmed ticks fast (catchUpTicks a loop tick) to
// the present and compares the next checkpoint's hash with the host's.
// A spectator whose acks fall ringLen/2 ticks behind the host is sent a
// newer state, up to maxStateTries in a row (until it acknowledges
// inputs more than ringLen ticks past one, which it can only do once it
// ran on from it); then it is dropped. Offers and chunks go only to a
// spectator that finished the handshake.

// Late spectator limits.
const (
	// catchUpTicks is how many confirmed ticks a spectator far behind
	// its host runs per loop tick.
	catchUpTicks = 8
	// maxStateTries is how many states a host sends a spectator in a row
	// without it running on from one before dropping it.
	maxStateTries = 4
	// maxChunksPerSend bounds the chunks one send sends a spectator, and
	// lateWindow how far past the first one it lacks.
	maxChunksPerSend = 32
	lateWindow       = 256
	// offerEvery is how often an offer is sent again until a got names it.
	offerEvery = 100 * time.Millisecond
)

// sendState sends late spectator p its state: the offer until p names it,
// and the chunks p lacks that were not sent within a round trip. It takes
// the state first, when it is due and the confirmed state is at hand.
func (s *Session) sendState(p *remote, now time.Duration) {
	if !p.xOn && !s.takeState(p) {
		return
	}
	if p.xDone {
		return
	}
	if !p.xSeen && (p.xOffer < 0 || now-p.xOffer >= offerEvery) {
		s.write(appendOffer(s.out[:0], p.nonce, uint32(p.x.tick), len(p.xBuf), p.xHash), p)
		p.xOffer = now
	}
	rto := p.rt.timeout(250 * time.Millisecond) // 250 ms before a round trip is measured
	x := &p.x
	for sent, i := 0, x.next(0, now, rto, lateWindow); i >= 0 && sent < maxChunksPerSend && s.err == nil; i = x.next(i+1, now, rto, lateWindow) {
		s.write(appendChunk(s.out[:0], p.nonce, uint32(x.tick), i, p.xBuf), p)
		x.sent(i, now)
		s.stats.ChunksSent++
		sent++
	}
}

// takeState copies our state at the last confirmed tick for p and resets
// its transfer, or reports false when no such state is at hand now (a
// rollback is due, or the match has not begun).
func (s *Session) takeState(p *remote) bool {
	if !s.started || s.firstWrong != noTick || s.local < 0 {
		return false
	}
	c := min(s.confirmed(), s.tick)
	if c == s.tick {
		p.xBuf = s.saver.Save(p.xBuf[:0])
	} else if st, ok := s.stateAt(c); ok {
		p.xBuf = append(p.xBuf[:0], st...)
	} else {
		return false
	}
	p.x.start(c, len(p.xBuf))
	p.xOn, p.xHash = true, engine.StateHash(p.xBuf)
	p.xSeen, p.xDone, p.xOffer = false, false, -1
	p.xTries++
	// Its inputs start at the state's tick: rows from c on are kept
	// until it acknowledges them.
	p.ack, p.next, p.ackSent = c, c, false
	s.stats.StatesSent++
	return true
}

// onState takes an offer, a chunk or a got from a peer that finished the
// handshake, token checked: the host's offer and chunks, a late
// spectator's got.
func (s *Session) onState(p *remote, now time.Duration) {
	pk := &s.pk
	switch {
	case pk.kind == kindGot && p.kind == remoteSpectator:
		p.lastRecv = now
		if !p.late || !p.xOn || int(pk.state) != p.x.tick {
			s.stats.PacketsStale++ // an older state's
			return
		}
		p.xSeen = true
		p.x.ack(int(pk.have), pk.mask, nil, now, p.rt.rtt)
		p.xDone = p.x.done()
	case pk.kind == kindOffer && p.kind == remoteHost:
		p.lastRecv = now
		s.onOffer(now)
	case pk.kind == kindChunk && p.kind == remoteHost:
		p.lastRecv = now
		s.onChunk(now)
	default:
		s.stats.PacketsBad++
	}
}

// onOffer takes the host's offer of a state: a newer one than we have
// starts receiving it (a repeat, or an older one, is answered with a got).
func (s *Session) onOffer(now time.Duration) {
	pk := &s.pk
	st := int(pk.state)
	if s.st.tick >= 0 && st <= s.st.tick {
		if st == s.st.tick && pk.hash == s.st.hash && int(pk.length) == s.st.size {
			s.gotDue = true // our got was lost
		} else {
			s.stats.PacketsStale++
		}
		return
	}
	if int64(pk.length) > int64(s.cfg.MaxState) {
		s.fail(fmt.Errorf("netplay: the host %v sends a state of %d bytes, over SessionConfig.MaxState (%d)", s.callerOf(&s.peers[0]), pk.length, s.cfg.MaxState))
		return
	}
	if s.rec != nil {
		s.fail(fmt.Errorf("netplay: the host %v sends its state of tick %d: the match began before this spectator could be fed from tick 0, so it cannot record it (record at a player, or spectate from the start)", s.callerOf(&s.peers[0]), st))
		return
	}
	// A host that offers state after state, none of them verified, keeps
	// its spectator from watching: it stops, saying so (as a Client).
	if why := s.st.again(st); why != "" {
		s.fail(&ServerError{Server: s.callerOf(&s.peers[0]).String(), Misbehaved: true, Host: true, Reason: why})
		return
	}
	s.st.begin(st, int(pk.length), 0, pk.hash, now)
	s.loaded = false
	s.stats.StateBytes = s.st.size
	// The inputs from the state's tick on arrive meanwhile: the ring
	// starts there.
	first := 0
	if s.every > 0 {
		first = (st/s.every + 1) * s.every
	}
	s.restart(st, first, 0)
	s.gotDue = true
}

// onChunk takes a slice of the state being received; with the last, it
// loads the state. A slice of a state loaded already calls for a got.
func (s *Session) onChunk(now time.Duration) {
	pk := &s.pk
	if int(pk.state) != s.st.tick || int(pk.length) != s.st.size {
		s.stats.PacketsStale++
		return
	}
	s.gotDue = true
	if s.st.take(int(pk.index), pk.data, now) {
		s.loadState()
	}
}

// loadState checks and loads the state received: the spectator runs from
// its tick on.
func (s *Session) loadState() {
	if err := s.st.load(s.saver, "the host "+s.callerOf(&s.peers[0]).String()); err != nil {
		s.fail(err)
		return
	}
	s.loaded, s.lastHash = true, tickHash{} // restart (onOffer) set the rest
	s.reserve(cmp.Or(s.st.raw, s.st.size))
}

// watchState stops a spectator whose host's state makes no progress for
// DisconnectTimeout, or comes slower than minStateRate once
// HandshakeTimeout has passed (as a Client does its server's).
func (s *Session) watchState(now time.Duration) {
	if !s.st.on {
		return
	}
	if why := s.st.stalled(now, s.cfg.DisconnectTimeout, s.cfg.HandshakeTimeout); why != "" {
		s.fail(&ServerError{Server: s.callerOf(&s.peers[0]).String(), Misbehaved: true, Host: true, Reason: why})
	}
}

// sendGot tells the host which chunks of its state arrived.
func (s *Session) sendGot(p *remote) {
	s.gotDue = false
	s.write(appendGot(s.out[:0], p.nonce, uint32(s.st.tick), uint32(s.st.have), s.st.mask()), p)
}

package netplay

import (
	"fmt"
	"time"
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
// against Config.MaxState before it allocates, its hash before it loads
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
func (s *Session) sendState(p *peer, now time.Duration) {
	if !p.xOn && !s.takeState(p) {
		return
	}
	if p.xDone {
		return
	}
	if !p.xSeen && (p.xOffer < 0 || now-p.xOffer >= offerEvery) {
		s.write(appendOffer(s.out[:0], p.nonce, uint32(p.xTick), len(p.xBuf), p.xHash), p)
		p.xOffer = now
	}
	rto := p.rt.timeout(250 * time.Millisecond) // 250 ms before a round trip is measured
	sent := 0
	for i := p.xHave; i < len(p.xAt) && i < p.xHave+lateWindow && sent < maxChunksPerSend && s.err == nil; i++ {
		if d := i - p.xHave - 1; d >= 0 && d < 64 && p.xMask>>d&1 != 0 {
			continue
		}
		if at := p.xAt[i]; at >= 0 && now-at < rto {
			continue
		}
		s.write(appendChunk(s.out[:0], p.nonce, uint32(p.xTick), i, p.xBuf), p)
		p.xAt[i] = now
		s.stats.ChunksSent++
		sent++
	}
}

// takeState copies our state at the last confirmed tick for p and resets
// its transfer, or reports false when no such state is at hand now (a
// rollback is due, or the match has not begun).
func (s *Session) takeState(p *peer) bool {
	if !s.started || s.firstWrong != noTick || s.local < 0 {
		return false
	}
	c := min(s.confirmedTicks(), s.tick)
	if c == s.tick {
		p.xBuf = s.saver.Save(p.xBuf[:0])
	} else if i := c % len(s.states); s.stateTick[i] == c {
		p.xBuf = append(p.xBuf[:0], s.states[i]...)
	} else {
		return false
	}
	n := chunks(len(p.xBuf))
	if cap(p.xAt) < n {
		p.xAt = make([]time.Duration, n)
	}
	p.xAt = p.xAt[:n]
	for i := range p.xAt {
		p.xAt[i] = -1
	}
	p.xOn, p.xTick, p.xHash = true, c, fnv64(p.xBuf)
	p.xHave, p.xMask, p.xSeen, p.xDone, p.xOffer = 0, 0, false, false, -1
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
func (s *Session) onState(p *peer, now time.Duration) {
	pk := &s.pk
	switch {
	case pk.kind == kindGot && p.kind == peerSpectator:
		p.lastRecv = now
		if !p.late || !p.xOn || int(pk.state) != p.xTick {
			s.stats.PacketsStale++ // an older state's
			return
		}
		p.xSeen = true
		if h := int(pk.have); h > p.xHave {
			p.xHave = min(h, len(p.xAt))
		}
		p.xMask = pk.mask
		if p.xHave >= len(p.xAt) {
			p.xDone = true
		}
	case pk.kind == kindOffer && p.kind == peerHost:
		p.lastRecv = now
		s.onOffer(now)
	case pk.kind == kindChunk && p.kind == peerHost:
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
	if s.stTick >= 0 && st <= s.stTick {
		if st == s.stTick && pk.hash == s.stHash && int(pk.length) == s.stLen {
			s.gotDue = true // our got was lost
		} else {
			s.stats.PacketsStale++
		}
		return
	}
	if int64(pk.length) > int64(s.cfg.MaxState) {
		s.fail(fmt.Errorf("netplay: the host %v sends a state of %d bytes, over Config.MaxState (%d)", s.callerOf(&s.peers[0]), pk.length, s.cfg.MaxState))
		return
	}
	if s.rec != nil {
		s.fail(fmt.Errorf("netplay: the host %v sends its state of tick %d: the match began before this spectator could be fed from tick 0, so it cannot record it (record at a player, or spectate from the start)", s.callerOf(&s.peers[0]), st))
		return
	}
	// A host that offers state after state, none of them verified, keeps
	// its spectator from watching: it stops, saying so (as a Client).
	if s.stLoads++; s.stLoads > maxStatesInRow {
		s.fail(&ServerError{Server: s.callerOf(&s.peers[0]).String(), Misbehaved: true, Host: true,
			Reason: fmt.Sprintf("it offered %d states in a row with none verified (the last of tick %d)", s.stLoads, st)})
		return
	}
	s.stAt, s.stStart, s.stCount = now, now, 0
	s.stTick, s.stLen, s.stHash = st, int(pk.length), pk.hash
	if cap(s.stBuf) < s.stLen {
		s.stBuf = make([]byte, s.stLen)
	}
	s.stBuf = s.stBuf[:s.stLen]
	n := chunks(s.stLen)
	if cap(s.stGot) < n {
		s.stGot = make([]bool, n)
	}
	s.stGot = s.stGot[:n]
	clear(s.stGot)
	s.stHave, s.loading, s.loaded = 0, true, false
	s.stats.StateBytes = s.stLen
	// The inputs from the state's tick on arrive meanwhile: the ring
	// starts there.
	s.tick, s.firstWrong = st, noTick
	for q := range s.players {
		s.recv[q] = st
	}
	for i := range s.rowTick {
		s.rowTick[i] = -1
	}
	s.gotDue = true
}

// onChunk takes a slice of the state being received; with the last, it
// loads the state. A slice of a state loaded already calls for a got.
func (s *Session) onChunk(now time.Duration) {
	pk := &s.pk
	if int(pk.state) != s.stTick || int(pk.length) != s.stLen {
		s.stats.PacketsStale++
		return
	}
	s.gotDue = true
	i := int(pk.index)
	if !s.loading || s.stGot[i] {
		return
	}
	copy(s.stBuf[i*chunkData:], pk.data)
	s.stGot[i] = true
	s.stCount++
	s.stAt = now
	for s.stHave < len(s.stGot) && s.stGot[s.stHave] {
		s.stHave++
	}
	if s.stHave == len(s.stGot) {
		s.loadState()
	}
}

// loadState checks and loads the state received: the spectator runs from
// its tick on.
func (s *Session) loadState() {
	host := s.callerOf(&s.peers[0])
	if h := fnv64(s.stBuf); h != s.stHash {
		s.fail(fmt.Errorf("netplay: the state of tick %d from the host %v has hash %016x, not the %016x it announced", s.stTick, host, h, s.stHash))
		return
	}
	if err := s.saver.Load(s.stBuf); err != nil {
		s.fail(fmt.Errorf("netplay: load the state of tick %d from the host %v: %w", s.stTick, host, err))
		return
	}
	s.loading, s.loaded = false, true
	s.recNext = s.stTick
	for i := range s.stateTick {
		s.stateTick[i] = -1
	}
	s.hashes, s.lastHash = [8]tickHash{}, tickHash{}
	if every := s.cfg.HashEvery; every > 0 {
		s.nextHash = (s.stTick/every + 1) * every
	}
}

// watchState stops a spectator whose host's state makes no progress for
// DisconnectTimeout, or comes slower than minStateRate once
// HandshakeTimeout has passed (as a Client does its server's).
func (s *Session) watchState(now time.Duration) {
	if !s.loading {
		return
	}
	host := s.callerOf(&s.peers[0]).String()
	late := now - s.stStart - s.cfg.HandshakeTimeout
	switch {
	case now-s.stAt > s.cfg.DisconnectTimeout:
		s.fail(&ServerError{Server: host, Misbehaved: true, Host: true, Reason: fmt.Sprintf("it sent no new slice of its state of tick %d for %v (%d of %d slices arrived)",
			s.stTick, (now - s.stAt).Round(time.Millisecond), s.stCount, len(s.stGot))})
	case late > 0 && int64(s.stCount)*chunkData < int64(late)*minStateRate/int64(time.Second):
		s.fail(&ServerError{Server: host, Misbehaved: true, Host: true, Reason: fmt.Sprintf("its state of tick %d (%d bytes) comes slower than %d kB/s: %d of %d slices in %v",
			s.stTick, s.stLen, minStateRate>>10, s.stCount, len(s.stGot), (now - s.stStart).Round(time.Millisecond))})
	}
}

// sendGot tells the host which chunks of its state arrived.
func (s *Session) sendGot(p *peer) {
	s.gotDue = false
	var mask uint64
	if s.loading {
		for d := range 64 {
			if i := s.stHave + 1 + d; i < len(s.stGot) && s.stGot[i] {
				mask |= 1 << d
			}
		}
	}
	s.write(appendGot(s.out[:0], p.nonce, uint32(s.stTick), uint32(s.stHave), mask), p)
}

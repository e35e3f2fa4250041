package netplay

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// NewSession returns a session that runs game with the peers cfg names, over tr,
// or an error naming the first invalid SessionConfig field or what the game
// lacks. Nothing is sent until the first Update (or Begin).
func NewSession(cfg SessionConfig, game engine.Game, tr Transport) (*Session, error) {
	return newSession(cfg, game, tr, nil)
}

// NewLobbySession returns a session of game over tr whose players lobby l
// seats first (see Lobby): a host's lobby, or a joiner's once the host
// seated it (l.Players is known). The session polls l, running no tick,
// until it is done, then plays with the addresses l found. cfg is the
// session's SessionConfig without Players, Local, Addrs and Spectate,
// which the lobby finds. tr is l's transport, or an Accept over it.
func NewLobbySession(l *Lobby, cfg SessionConfig, game engine.Game, tr Transport) (*Session, error) {
	if cfg.Spectate || cfg.Local != 0 || len(cfg.Addrs) != 0 || cfg.Players != 0 {
		return nil, errors.New("netplay: NewLobbySession: a SessionConfig with Spectate, Local, Addrs or Players: the lobby finds them")
	}
	if cfg.Players = l.Players(); cfg.Players == 0 {
		return nil, errors.New("netplay: NewLobbySession: the lobby has no seat yet: the host has not said how many players its match has")
	}
	cfg.Local = l.Local()
	cfg.Addrs = make([]netip.AddrPort, cfg.Players)
	for i := range cfg.Addrs {
		cfg.Addrs[i] = seat(1 + i) // stand-ins until the lobby is done
	}
	return newSession(cfg, game, tr, l)
}

// newSession makes a session; one seated by lobby l plays with l's
// addresses once it is done.
func newSession(cfg SessionConfig, game engine.Game, tr Transport, l *Lobby) (*Session, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Session{cfg: c, tr: tr, st: receiver{tick: -1}}
	s.stats.Left = make([]Leave, 0, MaxPeers)
	s.rollback = newRollback(game, c.TPS, cmp.Or[engine.Clock](c.Clock, engine.NewMonoClock()), c.FrameBudget, &s.stats.MatchStats)
	if s.saver == nil {
		return nil, fmt.Errorf("netplay: the game (%T) does not implement engine.Saver", game)
	}
	if !c.Spectate && s.inputter == nil {
		return nil, fmt.Errorf("netplay: the game (%T) does not implement engine.Inputter", game)
	}
	if !c.Spectate && l == nil {
		s.local = c.Local
	}
	s.nonce, s.delay = newNonce(c.Seed, 0x5851f42d4c957f2d), c.InputDelay
	s.params, s.sim = paramsHash(c.Params), c.Sim

	seen := func(a netip.AddrPort) bool {
		for i := range s.peers {
			if s.peers[i].addr == a {
				return true
			}
		}
		return false
	}
	if c.Spectate {
		s.peers = append(s.peers, remote{addr: c.Host, kind: remoteHost, player: -1})
	}
	for p, a := range c.Addrs {
		if p == c.Local || c.Spectate || l != nil {
			continue
		}
		if seen(a) {
			return nil, fmt.Errorf("netplay: SessionConfig.Addrs[%d] = %v: named twice", p, a)
		}
		s.peers = append(s.peers, remote{addr: a, kind: remotePlayer, player: p})
	}
	for i, a := range c.Spectators {
		if seen(a) {
			return nil, fmt.Errorf("netplay: SessionConfig.Spectators[%d] = %v: named twice", i, a)
		}
		s.peers = append(s.peers, remote{addr: a, kind: remoteSpectator, player: -1})
	}
	n := c.MaxPrediction + 3 // the states from the last confirmed tick to now
	if c.Spectate {
		n = 1 // a spectator saves only to hash
	}
	s.setup(c.Players, c.InputSize, ringLen, n, max(c.HashEvery, 0), c.HashEvery)
	if s.local >= 0 {
		// Inputs of the first InputDelay ticks are zero on every peer.
		s.recv[s.local] = c.InputDelay
	}
	if a, ok := tr.(*Accept); ok {
		a.seatable, s.acc = s.seatable, a
	}
	if l != nil {
		s.lobby, s.cfg.Addrs = l, nil
	}
	return s, nil
}

// seat polls the lobby, mirroring its counts in the session's stats, and
// once it is done makes the player peers from the addresses it found.
func (s *Session) seat() {
	l := s.lobby
	err := l.Poll()
	ls, st := &l.stats, &s.stats
	st.PacketsIn, st.PacketsOut, st.BytesIn, st.BytesOut = ls.PacketsIn, ls.PacketsOut, ls.BytesIn, ls.BytesOut
	st.PacketsBad, st.PacketsStale, st.PacketsUnknown, st.Refused, st.Probes = ls.PacketsBad, ls.PacketsStale, ls.PacketsUnknown, ls.Refused, ls.Probes
	if err != nil {
		s.fail(err)
		return
	}
	if !l.Done() {
		return
	}
	c := l.Config()
	s.lobby, s.local, s.cfg.Local, s.cfg.Addrs = nil, c.Local, c.Local, c.Addrs
	s.recv = [MaxSeats]int{}
	s.recv[s.local] = s.cfg.InputDelay
	for p, a := range c.Addrs {
		if p == s.local {
			continue
		}
		if s.peerAt(a) != nil || !a.IsValid() {
			s.fail(fmt.Errorf("netplay: the lobby's address of player %d, %v, is no other peer's", p+1, a))
			return
		}
		s.peers = append(s.peers, remote{addr: a, kind: remotePlayer, player: p})
	}
}

// Update runs one loop tick of the networked game (see Session). It
// returns the game's errors, and a *FingerprintError, *engine.DesyncError or
// *DisconnectError when the session stops; every later call returns the
// same error.
func (s *Session) Update(t engine.Tick) error {
	if s.err != nil {
		return s.err
	}
	if err := s.ticks.check(t, "SessionConfig.TPS"); err != nil {
		return s.fail(err)
	}
	now := s.clock.Now()
	s.work.update(now)
	if s.lobby != nil {
		if s.seat(); s.err != nil {
			return s.stopped(now)
		}
		if s.lobby != nil {
			s.stats.Waiting++
			s.fillStats(now)
			return nil
		}
	}
	s.poll(now)
	s.watch(now)
	s.agreeDrops(now)
	if s.err != nil {
		return s.stopped(now)
	}
	if s.st.on {
		s.stats.Waiting++
		s.send(now, false)
		s.fillStats(now)
		return nil
	}
	if !s.started {
		s.started = s.allSynced()
		if !s.started {
			s.stats.Waiting++
			if err := s.handshakeTimedOut(now); err != nil {
				return s.stopped(now)
			}
			s.send(now, false)
			s.fillStats(now)
			return nil
		}
	}
	if err := s.step(t, now); err != nil {
		if s.err != nil {
			return s.stopped(now)
		}
		return err
	}
	if s.ended(now) {
		s.fail(engine.ErrStopped)
	}
	if s.err != nil {
		return s.stopped(now)
	}
	s.adapt(now)
	s.send(now, false)
	s.timeSync(now)
	s.fillStats(now)
	return nil
}

// handshakeTimedOut stops the session when a player or host at a known
// address has not answered the handshake for HandshakeTimeout since the
// first Update.
func (s *Session) handshakeTimedOut(now time.Duration) error {
	if !s.calling {
		s.calling, s.callStart = true, now
	}
	if now-s.callStart < s.cfg.HandshakeTimeout {
		return nil
	}
	for i := range s.peers {
		p := &s.peers[i]
		if p.kind != remoteSpectator && !p.synced && !p.addr.Addr().IsUnspecified() {
			return s.fail(&DisconnectError{Player: p.player, Addr: p.addr, Silence: now - s.callStart, Handshake: true})
		}
	}
	return nil
}

// step runs the rollback, if one is due and the frame's budget allows
// it, and the next tick, if the session may advance.
func (s *Session) step(t engine.Tick, now time.Duration) error {
	if goOn, err := s.rollBackIfDue(t, now); err != nil {
		return s.fail(err)
	} else if !goOn {
		return nil
	}
	if err := s.checkHashes(); err != nil {
		return err
	}
	n := 1
	if behind := s.confirmed() - s.tick; s.local < 0 && behind > ringLen/4 {
		n = catchUpTicks // a spectator far behind: one that joined late
	} else if s.local < 0 && behind > 4 {
		n = 2 // a spectator behind its host catches up
	}
	for i := range n {
		if s.cfg.EndTick > 0 && uint64(s.tick) >= s.cfg.EndTick {
			break // the match is over: waiting for the last inputs and acks
		}
		if !s.canAdvance() {
			if i == 0 {
				s.stats.Stalls++
			}
			break
		}
		if i > 0 && s.work.room(s.clock.Now()) < 1 {
			s.stats.Deferred++ // catching up goes on next frame
			break
		}
		if err := s.runTick(t); err != nil {
			return err
		}
		if err := s.checkHashes(); err != nil {
			return err
		}
	}
	if err := s.record(); err != nil {
		return s.fail(err)
	}
	return nil
}

// ended reports whether the match is over (SessionConfig.EndTick): every tick
// ran on confirmed inputs, every peer has ours or ended too, and, unless
// HashEvery turned the desync check off, a state hash was compared with
// each player (the host, for a spectator). Once every tick ran it hashes
// the end state: that hash goes to the peers in every datagram and in the
// bye, so a match shorter than HashEvery still compares one. A player
// that sent no hash to compare by then, or DisconnectTimeout after we
// reached the end, stops the session with an error wrapping ErrUnverified.
func (s *Session) ended(now time.Duration) bool {
	end := int(min(s.cfg.EndTick, uint64(noTick)))
	if end == 0 || s.tick < end || s.confirmed() < end || s.firstWrong != noTick || s.recNext < end && s.rec != nil {
		return false
	}
	if s.cfg.HashEvery > 0 && !s.final.ok {
		s.finalState = s.saver.Save(s.finalState[:0])
		s.final = tickHash{tick: end, hash: engine.StateHash(s.finalState), ok: true}
		s.lastHash, s.endAt = s.final, now
		for i := range s.peers {
			if p := &s.peers[i]; p.kind != remoteSpectator && p.final.ok && !s.dropping(p) {
				s.theirFinal(p, p.final.hash)
			}
		}
		if s.err != nil {
			return false
		}
	}
	for i := range s.peers {
		p := &s.peers[i]
		if p.synced && !p.done && p.kind != remoteHost && p.ack < end && !s.dropping(p) {
			return false
		}
	}
	if s.cfg.HashEvery <= 0 {
		return true
	}
	for i := range s.peers {
		p := &s.peers[i]
		if p.kind == remoteSpectator || p.compared > 0 || s.dropping(p) {
			continue
		}
		if p.done || now-s.endAt > s.cfg.DisconnectTimeout {
			who := fmt.Sprintf("%s (%v)", playerName(p.player), s.callerOf(p))
			if p.kind == remoteHost {
				who = fmt.Sprintf("the host (%v)", s.callerOf(p))
			}
			s.fail(fmt.Errorf("%w: the match ended at tick %d, and %s sent no state hash to compare", ErrUnverified, end, who))
		}
		return false
	}
	return true
}

// canAdvance reports whether the next tick may run: at most MaxPrediction
// ticks past the last confirmed one, fewer when the frame's budget could
// not run them again (see workload), with room for the local input.
func (s *Session) canAdvance() bool {
	if s.tick >= s.confirmed()+s.work.limit(s.cfg.MaxPrediction) {
		return false
	}
	return s.local < 0 || s.tick+s.inputDelay() < s.floor()+ringLen
}

// adapt moves the input delay the cost adds (see workload). A peer runs
// past a player's final inputs by half the round trip and a tick, less
// that player's input delay: it delays its own by as many ticks as the
// others would otherwise run past the limit its frames' budget sets,
// taking their cost for its own. A player's only.
func (s *Session) adapt(now time.Duration) {
	if s.local < 0 {
		return
	}
	var rtt time.Duration
	for i := range s.peers {
		if p := &s.peers[i]; p.kind == remotePlayer {
			rtt = max(rtt, p.rt.rtt)
		}
	}
	need := 0
	if l := s.work.limit(s.cfg.MaxPrediction); l < s.cfg.MaxPrediction && rtt > 0 {
		need = int(math.Ceil(float64(rtt)/2/s.ticks.length())) + 1 - l - s.delay
	}
	if s.work.steer(now, need, MaxInputDelay-s.delay) {
		s.stats.DelayChanges++
	}
}

// runTick reads the local inputs, up to the input delay ahead, and runs
// the next tick for the first time: a player saves the state before each
// tick, as any may roll back; a spectator before the checkpoints only.
// An input is read once, for one tick: when the delay grows, the ticks
// it skips are read at once; when it shrinks, none is read until the
// ticks catch up.
func (s *Session) runTick(t engine.Tick) error {
	if s.local >= 0 {
		for g := s.recv[s.local]; g <= s.tick+s.inputDelay(); g++ {
			s.readInput(t, g)
			s.confirm(s.local, g, s.ownInput(g))
		}
	}
	return s.advance(t, s.local >= 0 || s.tick == s.nextHash)
}

// checkHashes hashes the saved states that became confirmed, every
// HashEvery ticks, and compares them with the peers' hashes.
func (s *Session) checkHashes() error {
	for {
		h, ok := s.nextCheckpoint()
		if !ok {
			return s.err
		}
		s.lastHash = h
		for j := range s.peers {
			p := &s.peers[j]
			if p.kind == remoteSpectator || s.dropping(p) {
				continue
			}
			if theirs, ok := p.hashAt(h.tick, s.every); ok {
				s.compareHash(p, h.tick, h.hash, theirs)
			}
		}
	}
}

// Close tells the other peers this one leaves (three byes, in case of
// loss) and stops the session: later Updates return ErrClosed. It does
// not close the transport, which the caller owns.
func (s *Session) Close() error {
	if s.err == nil {
		s.err = ErrClosed
		s.bye(byeQuit, 0, 0)
	}
	return nil
}

// Begin reads what the peers sent and sends keep-alives, then runs the
// game's Begin, if it has one: so a frame without a tick (a paused loop,
// a high frame rate) still keeps the peers in touch.
func (s *Session) Begin(f engine.Frame) error {
	if s.err != nil {
		return s.err
	}
	now := s.clock.Now()
	s.work.begin(now)
	if s.lobby != nil {
		if s.seat(); s.err != nil {
			return s.stopped(now)
		}
	}
	if s.lobby == nil {
		s.poll(now)
		s.watch(now)
		s.agreeDrops(now)
		if s.err != nil {
			return s.stopped(now)
		}
		s.send(now, true)
	}
	return s.beginGame(f)
}

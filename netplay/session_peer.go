package netplay

import (
	"errors"
	"math"
	"math/bits"
	"net/netip"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// poll reads and handles every datagram waiting, up to maxReads.
func (s *Session) poll(now time.Duration) {
	for range maxReads {
		if s.err != nil {
			return
		}
		n, from, ok := s.tr.ReadFrom(s.in[:])
		if !ok {
			return
		}
		s.stats.PacketsIn++
		s.stats.BytesIn += uint64(n)
		p := s.peerAt(from)
		if p == nil {
			s.stats.PacketsUnknown++
			if s.acc != nil {
				s.refuseStranger(from, n)
			}
			continue
		}
		if err := s.pk.decode(s.in[:n]); err != nil {
			if err == errVersion && s.pk.kind == kindHello && !p.synced {
				if p.kind == remoteSpectator { // a spectator's refusal does not stop the match
					s.refuseCaller(p.addr, n, fieldVersion, ProtocolVersion, uint64(s.pk.version))
					s.freeSeat(p)
				} else {
					s.refuse(p, n, fieldVersion, ProtocolVersion, uint64(s.pk.version))
				}
				continue
			}
			s.stats.PacketsBad++
			continue
		}
		s.handle(p, now, n)
	}
}

// handle acts on the decoded datagram s.pk of n bytes from p. Past the
// handshake's kinds (hello, refuse), a datagram must carry our nonce, and
// a state's kinds come only once the handshake is done.
func (s *Session) handle(p *remote, now time.Duration, n int) {
	pk := &s.pk
	switch pk.kind {
	case kindInput, kindBye, kindOffer, kindChunk, kindGot, kindDrop:
		if pk.token != s.nonce || !p.synced && pk.kind != kindInput && pk.kind != kindBye {
			s.stats.PacketsStale++
			return
		}
		if s.dropping(p) {
			// A player this peer dropped, that still plays: a partition
			// healed, or a process that stalled. Tell it, but heed nothing.
			if pk.kind != kindBye {
				s.toDropped(p, now)
			}
			return
		}
	}
	switch pk.kind {
	case kindHello:
		s.onHello(p, now, n)
	case kindRefuse:
		if p.synced || pk.field == fieldHost {
			// A refuse after the handshake is a forgery or a ghost; one of
			// a server's join answers a probe this socket made before the
			// session (a -spectate asking what its address is).
			s.stats.PacketsStale++
			return
		}
		if pk.field == fieldSeats || pk.field == fieldLate {
			s.fail(&SeatError{Addr: s.callerOf(p), Late: pk.field == fieldLate, Seats: int(min(pk.ours, MaxSpectators)),
				Tick: pk.ours, Limit: pk.theirs})
			return
		}
		s.fail(&FingerprintError{Player: p.player, Addr: s.callerOf(p), Field: fieldNames[pk.field],
			Ours: pk.theirs, Theirs: pk.ours, Refused: true})
	case kindInput:
		s.onInput(p, now)
	case kindBye:
		s.onBye(p, now)
	case kindOffer, kindChunk, kindGot:
		s.onState(p, now)
	case kindDrop:
		s.onDrop(p, now)
	}
}

// onHello answers a hello: refuse it if the fingerprints differ, learn the
// peer's nonce, and answer with a hello of the same size if the peer does
// not know ours yet. The answer is never larger than the hello, so a
// forged source address gains an attacker nothing.
//
// Once the handshake with p is done, a hello changes nothing: it is p's
// own, sent again before it heard from us (ignored), or a forgery or a
// restarted peer (counted in SessionStats.PacketsStale). It is never compared
// with our settings, so a forged one cannot make us refuse a partner
// that plays.
func (s *Session) onHello(p *remote, now time.Duration, n int) {
	pk := &s.pk
	if p.synced {
		if field, _, _ := s.differs(pk); field != 0 || pk.nonce != p.nonce || pk.echo != s.nonce {
			s.stats.PacketsStale++
		}
		return
	}
	if p.kind == remoteSpectator {
		s.onSpectatorHello(p, now, n)
		return
	}
	var want uint8 // what the peer must say it is
	switch p.kind {
	case remotePlayer:
		want = uint8(p.player)
	case remoteHost:
		want = pk.player // any player may host
		if pk.player == spectatorIndex || int(pk.player) >= s.players {
			s.refuse(p, n, fieldPlayer, 0, uint64(pk.player))
			return
		}
	}
	if field, ours, theirs := s.differs(pk); field != 0 {
		s.refuse(p, n, field, ours, theirs)
	} else if pk.player != want {
		s.refuse(p, n, fieldPlayer, uint64(want), uint64(pk.player))
	}
	if s.err != nil {
		return
	}
	s.greet(p, now, n)
}

// onSpectatorHello answers the hello of a spectator not yet seated for
// good (its handshake is not done): one that cannot be fed, or another
// game's, is refused, naming why, and its seat freed; the match goes on
// either way. One that calls after the first spectatorJoinBy ticks will
// be sent a state to start from once its handshake is done (late.go).
func (s *Session) onSpectatorHello(p *remote, now time.Duration, n int) {
	pk := &s.pk
	field, ours, theirs := s.differs(pk)
	if field == 0 && pk.player != spectatorIndex {
		field, ours, theirs = fieldPlayer, spectatorIndex, uint64(pk.player)
	}
	if field != 0 {
		s.refuseCaller(p.addr, n, field, ours, theirs)
		s.freeSeat(p)
		return
	}
	if s.tick > spectatorJoinBy {
		p.late = true
	}
	s.greet(p, now, n)
}

// greet takes the accepted hello s.pk of n bytes from p: it learns p's
// nonce, and answers with a hello of the same size while p does not know
// ours.
func (s *Session) greet(p *remote, now time.Duration, n int) {
	pk := &s.pk
	p.lastRecv = now
	if pk.nonce != p.nonce {
		p.nonce, p.knowsMe = pk.nonce, false
	}
	if pk.echo == s.nonce {
		p.knowsMe = true
	}
	p.synced = p.knowsMe
	if pk.echo != s.nonce && n >= helloLen {
		s.hello(p, now)
	}
}

// differs returns the first field of hello pk's fingerprint that is not
// ours, with both values, or 0.
func (s *Session) differs(pk *packet) (field uint8, ours, theirs uint64) {
	switch {
	case int(pk.tps) != s.cfg.TPS:
		return fieldTickRate, uint64(s.cfg.TPS), uint64(pk.tps)
	case int(pk.players) != s.players:
		return fieldPlayers, uint64(s.players), uint64(pk.players)
	case int(pk.isize) != s.size:
		return fieldInputSize, uint64(s.size), uint64(pk.isize)
	case pk.params != s.params:
		return fieldParams, s.params, pk.params
	case pk.sim != s.sim:
		return fieldSim, s.sim, pk.sim
	}
	return 0, 0, 0
}

// seatable reports whether hello b may take a seat of an Accept transport:
// its fingerprint is ours, and it is a spectator's (spectator) or a
// player's whose address this session waits for.
func (s *Session) seatable(b []byte) (spectator, ok bool) {
	pk := &s.hk
	if pk.decode(b) != nil || pk.kind != kindHello {
		return false, false
	}
	if field, _, _ := s.differs(pk); field != 0 {
		return false, false
	}
	if pk.player == spectatorIndex {
		return true, true
	}
	p := s.peerAt(Unknown)
	return false, p != nil && p.kind == remotePlayer && int(pk.player) == p.player
}

// refuseStranger answers the hello of n bytes in s.in from an address
// without a seat with a refuse, if that is no larger: one whose
// fingerprint is not ours names the difference; a spectator's names the
// seats, all taken (or none offered). The caller learns why, and this
// session goes on.
func (s *Session) refuseStranger(from netip.AddrPort, n int) {
	pk := &s.hk
	err := pk.decode(s.in[:n])
	if err == errJoin {
		s.refuseCaller(from, n, fieldHost, 0, 0) // a client looking for a server
		return
	}
	if err != nil || pk.kind != kindHello {
		return
	}
	if field, ours, theirs := s.differs(pk); field != 0 {
		s.refuseCaller(from, n, field, ours, theirs)
	} else if pk.player == spectatorIndex {
		s.refuseCaller(from, n, fieldSeats, uint64(s.acc.spectators), 0)
	}
}

// refuse answers a hello of n bytes from p whose field differs with a
// refuse, if that is no larger, and stops the session.
func (s *Session) refuse(p *remote, n int, field uint8, ours, theirs uint64) {
	if refuseLen <= n {
		s.write(appendRefuse(s.out[:0], field, ours, theirs), p)
	}
	s.fail(&FingerprintError{Player: p.player, Addr: s.callerOf(p), Field: fieldNames[field], Ours: ours, Theirs: theirs})
}

// hello sends p our hello.
func (s *Session) hello(p *remote, now time.Duration) {
	pk := &s.opk
	*pk = packet{nonce: s.nonce, echo: p.nonce, players: uint8(s.players), player: spectatorIndex,
		isize: uint8(s.size), tps: uint32(s.cfg.TPS), params: s.params, sim: s.sim}
	if s.local >= 0 {
		pk.player = uint8(s.local)
	}
	p.helloSent, p.lastHello = true, now
	s.write(pk.appendHello(s.out[:0]), p)
}

// onInput takes an input datagram: round trip, time sync, acks, inputs,
// hashes. It checks the whole datagram before it changes anything. A
// player's inputs are its own, or those of a player both drop that it
// passes on (session_leave.go); a host's rows say which seats are empty.
func (s *Session) onInput(p *remote, now time.Duration) {
	pk := &s.pk
	start, count := int(pk.start), int(pk.count)
	ack := int(pk.ack)
	who := int(pk.first)
	switch p.kind {
	case remotePlayer:
		if count > 0 && (pk.per != 1 || who >= s.players || who == s.local || int(pk.size) != s.size || pk.seats != 0) ||
			ack > s.recv[s.local] {
			s.stats.PacketsBad++
			return
		}
		if who != p.player && count > 0 && (s.dropped>>uint(who)&1 == 0 || s.vacant>>uint(who)&1 != 0) {
			// Inputs passed on that we do not need (any more): we drop
			// nobody, or have them all. It waits for our drop datagram.
			s.stats.PacketsStale++
			p.dropDue, count = true, 0
		}
	case remoteHost:
		if count > 0 && (int(pk.per) != s.players || pk.first != 0 || int(pk.size) != s.size || !emptyZero(pk)) {
			s.stats.PacketsBad++
			return
		}
	case remoteSpectator:
		if count > 0 || ack > s.confirmed() {
			s.stats.PacketsBad++
			return
		}
	}
	p.lastRecv = now
	if !p.knowsMe {
		// Our nonce came back as the token: the peer knows us.
		p.knowsMe = true
		p.synced = p.nonce != 0
	}
	if p.rt.heard(pk.ts, now) {
		p.remoteTick, p.remoteAt, p.advOK = int(pk.tick), now, true
		p.remoteAdv = float64(pk.adv) / 8
	}
	if pk.flags&flagEcho != 0 {
		p.rt.measure(now, pk.echoTs, pk.hold)
	}
	if p.kind != remoteHost && ack > p.ack {
		p.ack = ack
	}
	if count > 0 {
		s.take(p, who, start, count, pk.inputs)
	}
	if pk.flags&flagHash != 0 && p.kind != remoteSpectator {
		s.theirHash(p, int(pk.hashTick), pk.hash)
	}
}

// take stores the inputs of ticks start to start+count-1 that are new:
// player q's from a player (its own, or passed on, up to the tick its
// seat is empty from once decided), every player's from a host. An input
// for a tick already run is compared with the prediction it ran on. A
// player's inputs after a gap (a datagram lost or overtaken) wait for the
// sender's next datagram, which starts at our ack; a host's are kept, as
// a spectator catching up gets several datagrams a tick.
func (s *Session) take(p *remote, q, start, count int, data []byte) {
	if p.kind == remoteHost {
		s.takeRows(start, count, data, uint32(s.pk.seats))
		return
	}
	if s.decided>>uint(q)&1 != 0 {
		count = min(count, s.at[q]-start)
	}
	fl := s.floor()
	for k := range count {
		f := start + k
		if f < s.recv[q] {
			continue
		}
		if f > s.recv[q] || f >= fl+ringLen {
			return // a gap, or no room yet: the peer sends it again
		}
		s.confirm(q, f, data[k*s.size:(k+1)*s.size])
	}
}

// takeRows stores a host's rows of every player's confirmed inputs, with
// their empty seats, in any order, within half the ring ahead of the
// first missing one.
func (s *Session) takeRows(start, count int, data []byte, empty uint32) {
	stride := s.players * s.size
	r := s.recv[0]
	for k := range count {
		f := start + k
		if f < r || f >= r+ringLen/2 || f >= s.tick+ringLen || s.rowTick[f%ringLen] == f {
			continue // old, too far ahead, or its slot holds a tick not yet run
		}
		s.putRow(f, data[k*stride:(k+1)*stride], empty)
	}
	s.settle()
}

// emptyZero reports whether every empty seat of pk's rows (pk.seats) has
// an input of zeros, as a game must see it.
func emptyZero(pk *packet) bool {
	if pk.seats == 0 {
		return true
	}
	size, per := int(pk.size), int(pk.per)
	for k := range int(pk.count) {
		for m := pk.seats; m != 0; m &= m - 1 {
			o := (k*per + bits.TrailingZeros8(m)) * size
			for _, b := range pk.inputs[o : o+size] {
				if b != 0 {
					return false
				}
			}
		}
	}
	return true
}

// theirHash stores a peer's hash of the state before tick c and compares
// it with ours, if we have it: a checkpoint's, or the end's.
func (s *Session) theirHash(p *remote, c int, h uint64) {
	every := s.cfg.HashEvery
	if every <= 0 || c <= 0 {
		return
	}
	if s.cfg.EndTick > 0 && uint64(c) == s.cfg.EndTick {
		s.theirFinal(p, h)
		return
	}
	if c%every != 0 {
		return
	}
	if _, ok := p.hashAt(c, every); ok {
		return // compared already
	}
	p.theirs[c/every%len(p.theirs)] = tickHash{tick: c, hash: h, ok: true}
	if ours, ok := s.ourHash(c); ok {
		s.compareHash(p, c, ours, h)
	}
}

// onBye takes a peer's goodbye.
func (s *Session) onBye(p *remote, now time.Duration) {
	pk := &s.pk
	switch {
	case pk.reason == byeDesync:
		s.stats.Desyncs++
		s.fail(desync(uint64(pk.tick), p.player, 0, 0))
	case pk.reason == byeDone && s.cfg.EndTick > 0 && uint64(pk.tick) >= s.cfg.EndTick && p.kind != remoteSpectator:
		// It had all it needed from us (it waits for our acks), and we
		// have its inputs (we acknowledged them), or it would not end.
		p.done, p.interrupted = true, false
		if uint64(pk.tick) == s.cfg.EndTick && s.cfg.HashEvery > 0 && pk.hash != 0 {
			s.theirFinal(p, pk.hash) // 0: the peer hashes nothing (its HashEvery is off)
		}
	case p.kind == remoteSpectator:
		if p.synced { // not the byes of one dropped already
			s.stats.SpectatorsDropped++
		}
		s.freeSeat(p)
	case pk.reason == byeGone && p.kind == remotePlayer && int(pk.tick) < s.players && int(pk.tick) != s.local:
		// The sender stopped because it lost another player and could
		// not play on: this peer drops both, the vanished one first,
		// and stops too unless the players it still has are a majority,
		// naming the vanished one, whose silence it may not have timed
		// out yet.
		s.dropPlayer(int(pk.tick), s.lostErr(int(pk.tick), now), now)
		s.losePlayer(p.player, DisconnectError{Player: p.player, Addr: s.callerOf(p), Silence: now - p.lastRecv, Left: true}, now)
	case p.kind == remotePlayer:
		s.losePlayer(p.player, DisconnectError{Player: p.player, Addr: s.callerOf(p), Silence: now - p.lastRecv, Left: true}, now)
	default:
		s.fail(&DisconnectError{Player: p.player, Addr: s.callerOf(p), Silence: now - p.lastRecv, Left: true})
	}
}

// watch drops silent spectators and those too far behind, counts the
// interrupted peers, drops a player silent for DisconnectTimeout (see
// session_leave.go), and stops the session when the host is.
func (s *Session) watch(now time.Duration) {
	if s.watchState(now); s.err != nil {
		return
	}
	for i := range s.peers {
		p := &s.peers[i]
		if p.kind == remoteSpectator && !p.synced && p.nonce != 0 && now-p.lastRecv > s.cfg.DisconnectTimeout {
			s.freeSeat(p) // a caller that never finished the handshake: a forgery, or one that left
			continue
		}
		if !p.synced || p.done || s.dropping(p) {
			continue
		}
		silence := now - p.lastRecv
		was := p.interrupted
		p.interrupted = silence > s.cfg.DisconnectWarning
		if p.interrupted && !was {
			s.stats.Interruptions++
		}
		if p.kind == remoteSpectator && silence > s.cfg.DisconnectTimeout {
			s.freeSeat(p)
			s.stats.SpectatorsDropped++
			continue
		}
		if p.kind == remoteSpectator && p.xOn && p.ack > p.x.tick+ringLen {
			p.xTries = 0 // it ran on from its state: it acknowledges rows past its ring
		}
		if p.kind == remoteSpectator && (!p.late || p.xOn) && p.ack < s.tick-ringLen/2 {
			// Too far behind for the inputs we keep. One still there
			// starts again from a newer state, unless it never runs on
			// from one; one gone quiet is dropped, and costs no state.
			if p.interrupted || p.xTries >= maxStateTries {
				s.freeSeat(p)
				s.stats.SpectatorsDropped++
				continue
			}
			p.late, p.xOn = true, false
		}
		if silence > s.cfg.DisconnectTimeout && p.kind == remotePlayer {
			if s.losePlayer(p.player, DisconnectError{Player: p.player, Addr: s.callerOf(p), Silence: silence}, now); s.err != nil {
				return
			}
		} else if silence > s.cfg.DisconnectTimeout {
			s.fail(&DisconnectError{Player: p.player, Addr: s.callerOf(p), Silence: silence})
			return
		}
	}
}

// stopped sends the bye that s.err calls for, once, and returns s.err.
func (s *Session) stopped(now time.Duration) error {
	if !s.byeSent {
		if d := (*engine.DesyncError)(nil); errors.As(s.err, &d) {
			s.bye(byeDesync, uint32(d.Tick), 0)
		} else if s.err == engine.ErrStopped {
			s.bye(byeDone, uint32(s.cfg.EndTick), s.final.hash)
		} else if de, ok := s.err.(*DisconnectError); ok && !de.Left && !de.Handshake && !de.Dropped && de.Player >= 0 {
			s.bye(byeGone, uint32(de.Player), 0)
		} else {
			s.bye(byeQuit, 0, 0)
		}
	}
	s.fillStats(now)
	return s.err
}

// bye sends every peer that finished the handshake three byes.
func (s *Session) bye(reason uint8, tick uint32, hash uint64) {
	s.byeSent = true
	for i := range s.peers {
		p := &s.peers[i]
		if !p.synced || p.done || s.dropping(p) {
			continue
		}
		b := appendBye(s.out[:0], p.nonce, reason, tick, hash)
		for range 3 {
			s.write(b, p)
		}
	}
}

// send sends each peer what it needs: hellos until the handshake is done,
// then an input datagram whenever there are inputs it lacks or a new ack,
// and at least every keepAliveEvery. keepAlive sends the last kind only.
func (s *Session) send(now time.Duration, keepAlive bool) {
	for i := range s.peers {
		p := &s.peers[i]
		if s.dropping(p) && s.dropNews && !keepAlive && s.err == nil {
			// It may only seem lost (a stalled process, a partition):
			// what it reads first when it wakes is that it was dropped.
			s.sendDrop(p, now)
		}
		if p.done || s.err != nil || s.dropping(p) {
			continue
		}
		if !p.synced {
			if !p.helloSent || now-p.lastHello >= helloEvery {
				s.hello(p, now)
			}
			continue
		}
		if p.nonce == 0 {
			continue
		}
		if !keepAlive && p.kind == remotePlayer {
			s.sendDrops(p, now)
		}
		if p.late {
			s.sendState(p, now)
		} else if p.kind == remoteHost && (s.gotDue || s.st.on && !keepAlive) {
			s.sendGot(p)
		}
		start, end, ack := s.sendRange(p)
		due := now-p.lastSend >= keepAliveEvery
		if keepAlive && !due || !keepAlive && !due && start >= end && p.ackSent && p.sentAck == ack {
			continue
		}
		// The first datagram starts at p's ack, again and again until p
		// acknowledges it: redundancy against loss. When the inputs p
		// lacks fill more than one (large inputs, a spectator catching
		// up), up to three more carry those never sent yet.
		from := max(s.sendInputs(p, now, s.local, start, end, ack), p.next)
		for k := 1; k < maxBurst && from < end && s.err == nil; k++ {
			from = s.sendInputs(p, now, s.local, from, end, ack)
		}
		p.next = max(p.next, from)
	}
	if !keepAlive {
		s.dropNews = false
	}
}

// sendRange returns the ticks of inputs p lacks, [start, end), and the
// ack to send it.
func (s *Session) sendRange(p *remote) (start, end, ack int) {
	switch p.kind {
	case remotePlayer:
		return p.ack, s.recv[s.local], s.recv[p.player]
	case remoteSpectator:
		if p.late && !p.xOn {
			return p.ack, p.ack, 0 // its state is not taken yet: no rows
		}
		return p.ack, s.confirmed(), 0
	default:
		return 0, 0, s.confirmed()
	}
}

// sendInputs sends p an input datagram with as many of the ticks [start,
// end) as fit, and returns the first tick that did not: player who's
// inputs to a player (ours, or a dropped player's it lacks), or whole
// rows with the same empty seats to a spectator.
func (s *Session) sendInputs(p *remote, now time.Duration, who, start, end, ack int) int {
	pk := &s.opk
	*pk = packet{token: p.nonce, tick: uint32(s.tick), ack: uint32(ack), ts: us(now),
		start: uint32(start), size: uint8(s.size), per: 1}
	if p.kind == remotePlayer {
		pk.first = uint8(who)
		pk.adv = int8(math.Max(-127, math.Min(127, math.Round(p.adv*8))))
	} else {
		pk.per = uint8(s.players)
	}
	if ts, hold, ok := p.rt.echo(now); ok {
		pk.flags |= flagEcho
		pk.echoTs, pk.hold = ts, hold
	}
	if s.lastHash.ok {
		pk.flags |= flagHash
		pk.hashTick, pk.hash = uint32(s.lastHash.tick), s.lastHash.hash
	}
	stride, room := int(pk.per)*s.size, MaxPacket-inputHead
	var seats uint32
	if pk.per > 1 && start < end {
		if _, seats = s.finalRow(start); seats != 0 {
			pk.flags |= flagSeats
			pk.seats, room = uint8(seats), room-1
		}
	}
	count := max(0, min(end-start, room/stride, 255))
	for f := start + 1; pk.per > 1 && f < start+count; f++ {
		if _, e := s.finalRow(f); e != seats {
			count = f - start // the next datagram carries the next seats
			break
		}
	}
	pk.count = uint8(count)
	b := pk.appendInputHead(s.out[:0])
	for f := start; f < start+count; f++ {
		if pk.per == 1 {
			b = append(b, s.input(s.rows, who, f)...)
		} else {
			row, _ := s.finalRow(f)
			b = append(b, row...)
		}
	}
	p.sentAck, p.ackSent = ack, true
	s.write(b, p)
	return start + count
}

// timeSync estimates how far this peer runs ahead of each player and, when
// it is a tick or more ahead of one, slows the loop's clock by 1 % a tick
// ahead (at most 10 %) until it is within a quarter tick: the peer ahead
// slows down rather than stalls, and the tick length never changes. The
// advantage over a player is the mean of ours and theirs (each side's
// tick minus its estimate of the other's, which is the tick last heard
// plus the time since and half a round trip), which cancels a lopsided
// route.
func (s *Session) timeSync(now time.Duration) {
	if s.local < 0 {
		return
	}
	ahead, seen := 0.0, false
	tick := s.ticks.length()
	for i := range s.peers {
		p := &s.peers[i]
		if !s.inTouch(p) || !p.advOK {
			continue
		}
		//fixvet:ignore time sync only paces frames: a tick's inputs and the world never depend on it
		est := float64(p.remoteTick) + (float64(now-p.remoteAt)+float64(p.rt.rtt)/2)/tick
		a := float64(s.tick) - est
		if !p.advInit {
			p.adv, p.advInit = a, true
		}
		p.adv += (a - p.adv) / 16 //fixvet:ignore pacing only, as above
		d := (p.adv - p.remoteAdv) / 2
		if !seen || d > ahead {
			ahead, seen = d, true
		}
	}
	s.stats.Ahead = ahead
	target := 1.0
	if ahead >= 1 || s.slowing && ahead > 0.25 {
		s.slowing = true
		target = math.Round((1-math.Min(0.1, 0.01*ahead))*200) / 200
	} else {
		s.slowing = false
	}
	if target != s.scale {
		s.scale = target
		if s.scaler != nil {
			s.scaler.SetTimeScale(target)
		}
	}
}

// sendDrops sends p, a player still in touch, what a round needs from
// this peer: its drop datagram while the round is not settled here, just
// changed, or p waits for it; and the inputs of a player both drop that
// p lacks and this peer has, up to that player's tick.
func (s *Session) sendDrops(p *remote, now time.Duration) {
	if s.dropped == 0 {
		return
	}
	if s.dropNews || p.dropDue || s.dropped != s.vacant {
		s.sendDrop(p, now)
	}
	if !p.dropSeen {
		return
	}
	for m := s.dropped & p.dDropped; m != 0 && s.err == nil; m &= m - 1 {
		q := bits.TrailingZeros32(m)
		from, to := p.dHave[q], s.recv[q]
		if s.decided>>uint(q)&1 != 0 {
			to = min(to, s.at[q])
		}
		if from < to && from >= s.recv[q]-ringLen/2 {
			s.sendInputs(p, now, q, from, to, s.recv[p.player])
		}
	}
}

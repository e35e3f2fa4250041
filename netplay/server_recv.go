package netplay

import (
	"crypto/rand"
	"crypto/subtle"
	"net/netip"
	"time"
)

// poll reads every waiting datagram.
func (s *Server) poll(now time.Duration) {
	for {
		n, from, ok := s.tr.ReadFrom(s.rbuf[:])
		if !ok {
			return
		}
		s.stats.PacketsIn++
		s.stats.BytesIn += uint64(n)
		kind, err := decodeAny(s.rbuf[:n], &s.sp, &s.pk)
		if err != nil {
			s.stats.PacketsBad++
			continue
		}
		switch kind {
		case kindJoin:
			s.onJoin(from, now)
		case kindUpdate:
			if cl := s.clientAt(from); cl == nil {
				s.stats.PacketsUnknown++
			} else if s.sp.token != cl.token {
				s.stats.PacketsStale++
			} else {
				s.onUpdate(cl, now)
			}
		case kindBye:
			if cl := s.clientAt(from); cl == nil {
				s.stats.PacketsUnknown++
			} else if s.pk.token != cl.token {
				s.stats.PacketsStale++
			} else {
				s.leave(cl, 0)
			}
		default:
			s.stats.PacketsBad++ // a server's kind, or a peer's
		}
	}
}

// onJoin answers a join: a refusal naming what differs, a cookie (no
// state kept, and fewer bytes than the join), or, for a join that returns
// its cookie, a probe's settings, or a seat and the state to start from.
// A seated client is displaced only by a join that carries its session
// secret; a join from its address with another nonce (the client started
// again, or a forger) waits until the seat is free.
func (s *Server) onJoin(from netip.AddrPort, now time.Duration) {
	p := &s.sp
	probe := p.flags&joinProbe != 0
	if !probe {
		if field, ours, theirs := s.differs(p); field != 0 {
			s.refuse(from, field, ours, theirs)
			return
		}
	}
	if !s.jar.valid(now, from, p.nonce, p.cookie) {
		s.send(appendCookie(s.wbuf[:0], p.nonce, s.jar.cookie(now, from, p.nonce), uint8(s.players)), from)
		return
	}
	// The address is proven: from here an answer may be larger than the
	// join.
	if probe || p.params != paramsHash(s.cfg.Params) {
		// A probe asks for the settings; a client of other params learns
		// them, to name what differs.
		if probe {
			s.stats.Probes++
		} else {
			s.stats.Refused++
		}
		s.settings(p.nonce, from)
		return
	}
	if s.cfg.Sim != 0 && p.sim != s.cfg.Sim {
		// A seat needs the simulation's fingerprint: 0 is a probe's.
		s.refuse(from, fieldSim, s.cfg.Sim, p.sim)
		return
	}
	spectator := p.flags&joinSpectator != 0
	var old *sclient // the seat the join's secret takes back
	if cl := s.clientAt(from); cl != nil {
		if cl.nonce == p.nonce {
			s.welcome(cl) // our welcome was lost
			return
		}
		if p.secret == 0 || !s.owns(cl, p.secret) || (cl.seat < 0) != spectator {
			return // its seat is not ours to give: it frees when the client leaves or times out
		}
		old = cl
	} else if p.secret != 0 {
		for i := range s.clients {
			if cl := &s.clients[i]; cl.on && s.owns(cl, p.secret) {
				old = cl
				break
			}
		}
	}
	if s.ended {
		s.refuse(from, fieldLate, uint64(s.tick), uint64(s.tick))
		return
	}
	if old != nil && (old.seat < 0) != spectator {
		old = nil // a player's secret does not seat a spectator, nor the other way round
	}
	if old == nil && s.fromAddr(from) >= s.cfg.SeatsPerAddr {
		s.refuse(from, fieldAddr, uint64(s.cfg.SeatsPerAddr), 0)
		return
	}
	// A seat: the one the secret names, the lowest free one, or a
	// spectator's.
	ci, seat := -1, -1
	switch {
	case old != nil:
		ci, seat = s.index(old), old.seat
		s.leave(old, 0)
		if seat >= 0 {
			s.taken[seat] = ci
			s.empty &^= 1 << seat // the seat stays taken: its player is back
		}
	case spectator:
		for i := s.players; i < len(s.clients); i++ {
			if !s.clients[i].on {
				ci = i
				break
			}
		}
		if ci < 0 {
			s.refuse(from, fieldSeats, uint64(s.cfg.Spectators), 0)
			return
		}
	default:
		for i := range s.players {
			if s.taken[i] < 0 {
				seat = i
				break
			}
		}
		if seat < 0 {
			s.refuse(from, fieldTable, uint64(s.players), 0)
			return
		}
		ci = seat // a seated client's slot is its seat's
		s.taken[seat] = ci
		s.empty &^= 1 << seat
	}
	cl := &s.clients[ci]
	*cl = sclient{on: true, addr: from, nonce: p.nonce, seat: seat, heard: now, hashed: -1,
		in: cl.in, inTick: cl.inTick, last: cl.last, xfer: -1, x: sender{at: cl.x.at[:0], acked: cl.x.acked[:0], again: cl.x.again[:0]}, credit: initialCredit}
	cl.secret, cl.token = newSecret()
	if old == nil {
		clear(cl.last)
	}
	for i := range cl.inTick {
		cl.inTick[i] = -1
	}
	cl.recv = s.tick
	s.stats.Joins++
	s.startTransfer(cl, now)
	s.welcome(cl)
}

// refuse answers a join from an address with a refusal of field, no
// larger than the join, and counts it.
func (s *Server) refuse(to netip.AddrPort, field uint8, ours, theirs uint64) {
	s.stats.Refused++
	s.send(appendRefuse(s.wbuf[:0], field, ours, theirs), to)
}

// newSecret returns a seat's session secret and the token of its
// datagrams, from crypto/rand, neither 0.
func newSecret() (secret uint64, token uint32) {
	var b [12]byte
	for secret == 0 || token == 0 {
		// crypto/rand never fails (it crashes the program first); a secret
		// never reaches a game's state, and must differ on every run.
		rand.Read(b[:]) //fixvet:ignore a session secret, not simulation
		secret, token = le.Uint64(b[:]), le.Uint32(b[8:])
	}
	return secret, token
}

// owns reports whether secret is cl's session secret, in constant time.
func (s *Server) owns(cl *sclient, secret uint64) bool {
	var a, b [8]byte
	le.PutUint64(a[:], cl.secret)
	le.PutUint64(b[:], secret)
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// fromAddr counts the seats taken from a's address: its IPv4 address, or
// its IPv6 /64 network.
func (s *Server) fromAddr(a netip.AddrPort) int {
	n := 0
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on && sameHost(cl.addr.Addr(), a.Addr()) {
			n++
		}
	}
	return n
}

// sameHost reports whether a and b are one IPv4 address, or in one IPv6
// /64 network.
func sameHost(a, b netip.Addr) bool {
	a, b = a.Unmap(), b.Unmap()
	if a.Is4() || b.Is4() {
		return a == b
	}
	x, y := a.As16(), b.As16()
	return [8]byte(x[:8]) == [8]byte(y[:8])
}

// settings sends the client of nonce at to (whose address is proven) the
// match's settings, and no seat.
func (s *Server) settings(nonce uint32, to netip.AddrPort) {
	p := &s.sp
	*p = sPacket{token: nonce, seat: seatNone, players: uint8(s.players), every: uint16(s.cfg.HashEvery),
		tick: uint32(s.tick), end: uint32(s.cfg.EndTick), tps: uint32(s.cfg.TPS), isize: uint8(s.size), data: s.params}
	s.send(p.appendWelcome(s.wbuf[:0]), to)
}

// differs returns the first field of a join that differs from the
// server's, with both values, or 0. The params are not among them: a
// client of other params is sent the server's, once its address is
// proven, so that it can name what differs.
func (s *Server) differs(p *sPacket) (field uint8, ours, theirs uint64) {
	switch {
	case p.tps != uint32(s.cfg.TPS):
		return fieldTickRate, uint64(s.cfg.TPS), uint64(p.tps)
	case int(p.isize) != s.size:
		return fieldInputSize, uint64(s.size), uint64(p.isize)
	case p.sim != s.cfg.Sim && p.sim != 0 && s.cfg.Sim != 0:
		return fieldSim, s.cfg.Sim, p.sim
	}
	return 0, 0, 0
}

// onUpdate takes a client's update: its inputs (for its own seat only:
// the seat is its address's), acks, round trip and hash.
func (s *Server) onUpdate(cl *sclient, now time.Duration) {
	p := &s.sp
	if int(p.isize) != s.size {
		s.stats.PacketsBad++
		return // a bad update keeps no seat
	}
	cl.heard = now
	cl.rt.heard(p.ts, now)
	if p.echo != 0 {
		cl.rt.measure(now, p.echo, p.hold)
	}
	// The state being sent.
	if cl.xfer >= 0 {
		cp := &s.cps[cl.xfer]
		if int(p.state) != cp.tick {
			return // the client has not seen our welcome yet
		}
		if p.flags&updateLoading != 0 {
			if cl.xferSt != cp.tick && cl.rt.rtt == 0 {
				// The first answer to our first welcome: a round trip,
				// or more if that welcome was lost. A new client's
				// slices are resent after a timeout of its round trip,
				// not of 20 ms.
				cl.rt.rtt = now - cl.welAt
			}
			cl.xferSt = cp.tick
			// Of the slices past have: mask, then the bitmap in the
			// update's tail. What it acknowledges buys it more: a
			// transfer goes on only while acknowledgements come.
			if n := cl.x.ack(int(p.have), p.mask, p.inputs, now, cl.rt.rtt); n > cl.acked {
				cl.credit = min(cl.credit+creditPerAck*(n-cl.acked), maxCredit)
				cl.acked, cl.progAt = n, now
			}
			if cl.x.done() {
				cp.users--
				cl.xfer = -1
			}
			return // inputs and acks wait for the state to be loaded
		}
		cp.users-- // loaded: its last acks were lost
		cl.xfer = -1
	}
	if a := int(p.ack); a > cl.ack && a <= s.tick {
		cl.ack, cl.progAt = a, now
	}
	if s.tick-cl.ack >= keepTicks-2*s.cfg.HashEvery {
		s.stats.Resyncs++ // too far behind for the inputs we keep
		s.startTransfer(cl, now)
		s.welcome(cl)
		return
	}
	// The client's hash of a state we hashed: equal, it is in step; else
	// it gets our state (it asks too, when ours reaches it first).
	if p.flags&updateHash != 0 && int(p.hashTick) == cl.vTick && cl.vOK && !cl.vDone {
		cl.vDone = true
		if p.hash != cl.vHash {
			s.stats.Desyncs++
			s.resync(cl, now)
			return
		}
		s.stats.Hashes++
		cl.row = 0
	} else if p.flags&updateHash != 0 {
		if h, ok := s.hashAt(int(p.hashTick)); ok && int(p.hashTick) > cl.hashed && int(p.hashTick) > cl.lastSt {
			cl.hashed = int(p.hashTick)
			if h != p.hash {
				s.stats.Desyncs++
				s.resync(cl, now)
				return
			}
			s.stats.Hashes++
			cl.row = 0
		}
	}
	if p.flags&updateResync != 0 {
		if int(p.hashTick) > cl.lastSt {
			s.resync(cl, now) // else a request the state we sent answered
		}
		return
	}
	if cl.seat < 0 {
		return
	}
	start := int(p.start)
	for k := range int(p.count) {
		f := start + k
		if f < s.tick {
			if f >= cl.recv {
				s.stats.InputsLate++
				cl.recv = f + 1
			}
			continue
		}
		if f >= s.tick+aheadLen {
			break
		}
		i := f % aheadLen
		copy(cl.in[i*s.size:(i+1)*s.size], p.inputs[k*s.size:(k+1)*s.size])
		cl.inTick[i] = f
		if f >= cl.recv {
			cl.recv = f + 1
		}
	}
	if p.count > 0 {
		// How early its newest input came: 0 is just in time.
		l := float64(start + int(p.count) - 1 - s.tick)
		if !cl.leadOK {
			cl.lead, cl.leadOK = l, true
		}
		cl.lead += (l - cl.lead) / 8 //fixvet:ignore the lead only paces the client's frames
	}
}

// resync sends cl the server's state, the client's hash having differed,
// or drops it when it has diverged MaxResyncs times in a row.
func (s *Server) resync(cl *sclient, now time.Duration) {
	cl.row++
	if cl.row > s.cfg.MaxResyncs {
		s.stats.Dropped++
		s.drop(cl, byeDiverged, uint32(cl.row-1))
		return
	}
	s.stats.Resyncs++
	s.startTransfer(cl, now)
	s.welcome(cl)
}

// watch frees the seats of clients silent past DisconnectTimeout, and
// drops those whose acknowledgements have not moved for as long while
// the server had a state or inputs for them: an update that acknowledges
// nothing keeps no seat.
func (s *Server) watch(now time.Duration) {
	for i := range s.clients {
		cl := &s.clients[i]
		switch {
		case !cl.on:
		case now-cl.heard > s.cfg.DisconnectTimeout:
			s.leave(cl, 0)
		case now-cl.progAt > s.cfg.DisconnectTimeout && (cl.xfer >= 0 || cl.ack < s.tick):
			s.drop(cl, byeStalled, uint32(s.tick))
		}
	}
}

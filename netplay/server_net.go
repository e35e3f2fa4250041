package netplay

import (
	"compress/flate"
	"crypto/rand"
	"crypto/subtle"
	"net/netip"
	"time"
)

// chunksPerTick is the most slices of a state a Server sends a client in
// a tick: 7.8 Mbit/s at 60 TPS.
const chunksPerTick = 32

// A transfer's credit: it may send initialCredit slices before the first
// acknowledgement, creditPerAck more for each slice acknowledged, and
// hold at most maxCredit; with no acknowledgement moving for stallRTOs
// retransmission timeouts it sends one slice a timeout. A client that
// acknowledges nothing is sent initialCredit slices (32 kB) and freed
// after DisconnectTimeout; one that acknowledges is sent at most
// initialCredit + creditPerAck times what it acknowledged.
const (
	initialCredit = 64
	creditPerAck  = 4
	maxCredit     = chunkWindow
	stallRTOs     = 4
)

// minTransferRate is the lowest ServerConfig.TransferRate: 64 kbit/s.
const minTransferRate = 64_000

// udpOverhead is the bytes of IPv4 and UDP headers a datagram costs on
// the wire beside its payload.
const udpOverhead = 28

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

// clientAt returns the client at address a, or nil.
func (s *Server) clientAt(a netip.AddrPort) *sclient {
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on && cl.addr == a {
			return cl
		}
	}
	return nil
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
			s.stats.Refused++
			s.send(appendRefuse(s.wbuf[:0], field, ours, theirs), from)
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
		s.stats.Refused++
		s.send(appendRefuse(s.wbuf[:0], fieldSim, s.cfg.Sim, p.sim), from)
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
		s.stats.Refused++
		s.send(appendRefuse(s.wbuf[:0], fieldLate, uint64(s.tick), uint64(s.tick)), from)
		return
	}
	if old != nil && (old.seat < 0) != spectator {
		old = nil // a player's secret does not seat a spectator, nor the other way round
	}
	if old == nil && s.fromAddr(from) >= s.cfg.SeatsPerAddr {
		s.stats.Refused++
		s.send(appendRefuse(s.wbuf[:0], fieldAddr, uint64(s.cfg.SeatsPerAddr), 0), from)
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
			s.stats.Refused++
			s.send(appendRefuse(s.wbuf[:0], fieldSeats, uint64(s.cfg.Spectators), 0), from)
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
			s.stats.Refused++
			s.send(appendRefuse(s.wbuf[:0], fieldTable, uint64(s.players), 0), from)
			return
		}
		ci = seat // a seated client's slot is its seat's
		s.taken[seat] = ci
		s.empty &^= 1 << seat
	}
	cl := &s.clients[ci]
	*cl = sclient{on: true, addr: from, nonce: p.nonce, seat: seat, heard: now, hashed: -1,
		in: cl.in, inTick: cl.inTick, last: cl.last, xfer: -1, x: sender{at: cl.x.at[:0]}, credit: initialCredit}
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

// index returns cl's index in s.clients.
func (s *Server) index(cl *sclient) int {
	for i := range s.clients {
		if &s.clients[i] == cl {
			return i
		}
	}
	return -1
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

// startTransfer sends cl the newest checkpoint: the state it starts
// from, in slices.
func (s *Server) startTransfer(cl *sclient, now time.Duration) {
	if cl.xfer >= 0 {
		s.cps[cl.xfer].users--
	}
	cl.xfer = s.newest
	if cl.xfer < 0 {
		s.checkpoint() // before the first tick
		cl.xfer = s.newest
	}
	cp := &s.cps[cl.xfer]
	cp.users++
	s.pack(cp)
	cl.xferSt = -1
	cl.x.start(cp.tick, len(cp.packed))
	cl.ack, cl.sentTo, cl.ackSeen, cl.lastSt = cp.tick, cp.tick, cp.tick, cp.tick
	cl.vTick, cl.vOK, cl.vDone = s.tick+verifyTicks, false, false
	cl.welAt, cl.acked, cl.progAt = now, 0, now
	s.stats.StatesSent++
}

// pack compresses a checkpoint's state for sending, once: DEFLATE at
// its fastest halves the demo's physics state (265 kB to 110 kB at 300
// bodies, in 5 ms), and a joiner's wait with it.
func (s *Server) pack(cp *checkpoint) {
	if cp.packedOK {
		return
	}
	s.zbuf.Reset()
	if s.zw == nil {
		s.zw, _ = flate.NewWriter(&s.zbuf, flate.BestSpeed) // a valid level: no error
	} else {
		s.zw.Reset(&s.zbuf)
	}
	s.zw.Write(cp.state) // a bytes.Buffer's writes do not fail
	s.zw.Close()
	cp.packed = append(cp.packed[:0], s.zbuf.Bytes()...)
	cp.packedOK = true
}

// welcome tells cl its seat, its secret, the settings and the state that
// follows.
func (s *Server) welcome(cl *sclient) {
	p := &s.sp
	*p = sPacket{token: cl.nonce, secret: cl.secret, ctoken: cl.token, seat: seatSpectator, players: uint8(s.players),
		every: uint16(s.cfg.HashEvery), tick: uint32(s.tick), end: uint32(s.cfg.EndTick), verify: uint32(cl.vTick),
		tps: uint32(s.cfg.TPS), isize: uint8(s.size), data: s.params}
	if cl.seat >= 0 {
		p.seat = uint8(cl.seat)
	}
	if cl.xfer >= 0 {
		cp := &s.cps[cl.xfer]
		p.state, p.size, p.raw, p.hash = uint32(cp.tick), uint32(len(cp.packed)), uint32(len(cp.state)), cp.hash
	}
	s.write(p.appendWelcome(s.wbuf[:0]), cl)
	cl.welSent = s.clock.Now()
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
			if n := cl.x.ack(int(p.have), p.mask, p.inputs); n > cl.acked {
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

// drop tells cl why it is dropped (a bye of reason with tick, three
// times, in case of loss) and frees its seat.
func (s *Server) drop(cl *sclient, reason uint8, tick uint32) {
	for range 3 {
		s.write(appendBye(s.wbuf[:0], cl.nonce, reason, tick, 0), cl)
	}
	s.leave(cl, reason)
}

// leave frees cl's seat: from the next tick the seat is empty. reason is
// the bye it was dropped with (0: it left, went silent or came back).
func (s *Server) leave(cl *sclient, reason uint8) {
	if !cl.on {
		return
	}
	if cl.xfer >= 0 {
		s.cps[cl.xfer].users--
	}
	if cl.seat >= 0 {
		s.taken[cl.seat] = -1
		s.empty |= 1 << cl.seat
	}
	cl.on = false
	s.stats.Leaves++
	if reason == byeStalled {
		s.stats.Stalled++
	}
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

// sendAll sends every client what it needs: the state's slices while
// one is being sent, within the transfer budget, else the final inputs
// it has not acknowledged, every sendEvery ticks (more often while it
// catches up).
func (s *Server) sendAll(now time.Duration) {
	// The budget of this tick, shared evenly by the transfers that may
	// send (the rest of it, and a transfer's turn when there is too
	// little for all, rotates).
	s.xferBits = min(s.xferBits+s.cfg.TransferRate/s.cfg.TPS, 2*max(s.cfg.TransferRate/s.cfg.TPS, 8*MaxPacket))
	xfers := 0
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on && cl.xfer >= 0 && cl.credit > 0 {
			xfers++
		}
	}
	share := chunksPerTick
	if xfers > 0 {
		share = min(chunksPerTick, max(1, s.xferBits/(8*MaxPacket)/xfers))
	}
	n := len(s.clients)
	s.xferTurn = (s.xferTurn + 1) % n
	for k := range n {
		i := (s.xferTurn + k) % n
		cl := &s.clients[i]
		if !cl.on {
			continue
		}
		if cl.xfer >= 0 {
			s.sendChunks(cl, now, share)
			continue
		}
		behind := s.tick - cl.ack
		if behind <= 0 && now-cl.sentAt < 250*time.Millisecond {
			continue // nothing new: a keep-alive four times a second
		}
		if (s.tick+i)%sendEvery != 0 && behind < 8 && now-cl.sentAt < 250*time.Millisecond {
			continue
		}
		for k := 0; k < 8; k++ {
			if !s.sendFinal(cl, now) {
				break
			}
		}
	}
}

// sendFinal sends cl one datagram of final inputs: from the first it
// has not acknowledged, or past those sent less than a round trip ago.
// It reports whether more remain to send.
func (s *Server) sendFinal(cl *sclient, now time.Duration) bool {
	// From the first row it lacks, unless the rows from there were sent
	// less than a retransmission timeout ago: then from the newest, and
	// two before them again, which covers a lost datagram.
	from := cl.ack
	rto := cl.rt.timeout(20 * time.Millisecond)
	if cl.ack > cl.ackSeen {
		cl.ackSeen, cl.ackAt = cl.ack, now
	}
	if cl.sentTo > from+2 && now-cl.ackAt < rto {
		from = cl.sentTo - 2
	} else if cl.sentTo > from {
		cl.ackAt = now // sent again from the ack: wait a timeout more
	}
	from = max(from, cl.ack, s.tick-keepTicks+1)
	rowLen := 4 + s.players*s.size
	count := min(s.tick-from, (MaxPacket-finalHead)/rowLen, 255)
	p := &s.sp
	*p = sPacket{token: cl.nonce, tick: uint32(s.tick), players: uint8(s.players), isize: uint8(s.size),
		ack: uint32(cl.recv), start: uint32(max(from, 0)), count: uint8(max(count, 0))}
	if cl.leadOK {
		p.lead = int16(max(min(cl.lead*8, 32767), -32768))
	}
	if ts, hold, ok := cl.rt.echo(now); ok {
		p.flags |= finalEcho
		p.echo, p.hold = ts, hold
	}
	p.ts = us(now)
	if cl.vOK && !cl.vDone {
		p.flags |= finalHash
		p.hashTick, p.hash = uint32(cl.vTick), cl.vHash
	} else if n := s.newest; n >= 0 {
		p.flags |= finalHash
		p.hashTick, p.hash = uint32(s.cps[n].tick), s.cps[n].hash
	}
	b := p.appendFinalHead(s.wbuf[:0])
	for f := from; f < from+count; f++ {
		b = le.AppendUint32(b, s.mask[f%keepTicks])
		b = append(b, s.row(f)...)
	}
	s.write(b, cl)
	s.stats.BytesFinal += uint64(len(b) + udpOverhead)
	cl.sentAt = now
	if from+count > cl.sentTo {
		cl.sentTo = from + count
	}
	return count > 0 && from+count < s.tick
}

// sendChunks sends cl the slices of its state it has not acknowledged
// (its acknowledgement names each slice of the window: have, and a
// bitmap of the chunkWindow past it) and that were not sent within a
// retransmission timeout: at most share
// this tick (its part of the transfer budget), none more than chunkWindow
// past the first it lacks, and only as many as its credit allows: a
// transfer starts with initialCredit slices and earns creditPerAck for
// each one acknowledged, so that what a client is sent stays within a
// fixed multiple of what it acknowledges. A transfer whose
// acknowledgements have not moved for stallRTOs timeouts sends only the
// first slice it lacks, once a timeout, until they move again (watch
// drops it after DisconnectTimeout).
func (s *Server) sendChunks(cl *sclient, now time.Duration, share int) {
	cp := &s.cps[cl.xfer]
	rto := cl.rt.timeout(300 * time.Millisecond) // 300 ms until the client's answer measures it
	if cl.xferSt != cp.tick && now-cl.welSent > 100*time.Millisecond && cl.credit > 0 {
		// The welcome goes again until the client answers it, costing
		// as a slice does; the slices went with the first from the
		// start, not a round trip later.
		s.welcome(cl)
		cl.credit--
	}
	window := chunkWindow
	if now-cl.progAt > stallRTOs*rto {
		window = 1
	}
	limit := min(share, cl.credit, s.xferBits/(8*MaxPacket))
	sent := 0
	for i := cl.x.next(0, now, rto, window); i >= 0 && sent < limit; i = cl.x.next(i+1, now, rto, window) {
		b := appendChunk(s.wbuf[:0], cl.nonce, uint32(cp.tick), i, cp.packed)
		s.write(b, cl)
		cl.x.at[i] = now
		cl.credit--
		s.xferBits -= 8 * len(b)
		s.stats.ChunksSent++
		sent++
	}
	if sent == 0 && limit == 0 && cl.credit > 0 && now-cl.progAt <= stallRTOs*rto {
		cl.progAt = now // waiting its turn in the budget is not a stall
	}
	cl.sentAt = now
}

// write sends b to cl.
func (s *Server) write(b []byte, cl *sclient) { s.send(b, cl.addr) }

// send sends b to an address, counting it.
func (s *Server) send(b []byte, to netip.AddrPort) {
	s.stats.PacketsOut++
	s.stats.BytesOut += uint64(len(b))
	s.tr.WriteTo(b, to)
}

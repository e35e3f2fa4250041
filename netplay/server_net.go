package netplay

import (
	"compress/flate"
	"net/netip"
	"time"
)

// The state's slices a Server sends a client: at most chunksPerTick a
// tick (8 Mbit/s at 60 TPS), none more than chunkWindow past the first
// the client lacks. The window must hold what the rate sends in a round
// trip and a resend timeout (about 0.4 s at 151 ms: some 770 slices), or
// a lost slice at its front stalls the transfer; past the 64 slices a
// client's acknowledgement describes, a larger one resends more that
// arrived. BenchmarkServerJoin, a 265 kB and a 1.9 MB state at 151 ms and
// 4 % loss: window 256, loaded in 1.65 s and not in 10 s; 512, 1.35 s and
// 5.4 s; 1024, 1.35 s and not in 10 s.
const (
	chunksPerTick = 32
	chunkWindow   = 512
)

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
			} else if s.sp.token != cl.cookie {
				s.stats.PacketsStale++
			} else {
				s.onUpdate(cl, now)
			}
		case kindBye:
			if cl := s.clientAt(from); cl == nil {
				s.stats.PacketsUnknown++
			} else if s.pk.token != cl.cookie {
				s.stats.PacketsStale++
			} else {
				s.leave(cl)
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
// state kept), or, for a join that returns its cookie, a seat and the
// state to start from.
func (s *Server) onJoin(from netip.AddrPort, now time.Duration) {
	p := &s.sp
	spectator := p.flags&joinSpectator != 0
	if field, ours, theirs := s.differs(p); field != 0 {
		s.stats.Refused++
		s.send(appendRefuse(s.wbuf[:0], field, ours, theirs), from)
		return
	}
	cookie := cookieOf(s.key, from, p.nonce)
	if p.cookie == cookie && s.cfg.Sim != 0 && p.sim != s.cfg.Sim {
		// A seat needs the simulation's fingerprint: 0 is a probe's.
		s.stats.Refused++
		s.send(appendRefuse(s.wbuf[:0], fieldSim, s.cfg.Sim, p.sim), from)
		return
	}
	if cl := s.clientAt(from); cl != nil {
		if cl.nonce == p.nonce {
			s.welcome(cl) // our welcome was lost
			return
		}
		// The same address with another nonce: the client started again.
		if p.cookie != cookie {
			s.send(appendWelcome(s.wbuf[:0], p.nonce, cookie, seatChallenge, uint8(s.players), uint16(s.cfg.HashEvery), uint32(s.tick), 0, 0, 0, uint32(s.cfg.EndTick), 0, 0), from)
			return
		}
		s.leave(cl)
	}
	if p.cookie != cookie {
		s.send(appendWelcome(s.wbuf[:0], p.nonce, cookie, seatChallenge, uint8(s.players), uint16(s.cfg.HashEvery), uint32(s.tick), 0, 0, 0, uint32(s.cfg.EndTick), 0, 0), from)
		return
	}
	if s.ended {
		s.stats.Refused++
		s.send(appendRefuse(s.wbuf[:0], fieldLate, uint64(s.tick), uint64(s.tick)), from)
		return
	}
	// A seat: the lowest free one, or a spectator's.
	ci, seat := -1, -1
	if spectator {
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
	} else {
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
	*cl = sclient{on: true, addr: from, nonce: p.nonce, cookie: cookie, seat: seat, heard: now, hashed: -1,
		in: cl.in, inTick: cl.inTick, last: cl.last, xfer: -1, xferAt: cl.xferAt[:0]}
	clear(cl.last)
	for i := range cl.inTick {
		cl.inTick[i] = -1
	}
	cl.recv = s.tick
	s.stats.Joins++
	s.startTransfer(cl, now)
	s.welcome(cl)
}

// differs returns the first field of a join that differs from the
// server's, with both values, or 0.
func (s *Server) differs(p *sPacket) (field uint8, ours, theirs uint64) {
	switch {
	case p.tps != uint32(s.cfg.TPS):
		return fieldTickRate, uint64(s.cfg.TPS), uint64(p.tps)
	case int(p.isize) != s.size:
		return fieldInputSize, uint64(s.size), uint64(p.isize)
	case p.params != fnv64([]byte(s.cfg.Params)):
		return fieldParams, fnv64([]byte(s.cfg.Params)), p.params
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
	cl.xferSt, cl.have, cl.mask = -1, 0, 0
	n := chunks(len(cp.packed))
	if cap(cl.xferAt) < n {
		cl.xferAt = make([]time.Duration, n)
	}
	cl.xferAt = cl.xferAt[:n]
	for i := range cl.xferAt {
		cl.xferAt[i] = -1
	}
	cl.ack, cl.sentTo, cl.ackSeen, cl.lastSt = cp.tick, cp.tick, cp.tick, cp.tick
	cl.vTick, cl.vOK, cl.vDone = s.tick+verifyTicks, false, false
	cl.welAt, cl.welSent = now, 0
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

// welcome tells cl its seat and the state that follows.
func (s *Server) welcome(cl *sclient) {
	seat := uint8(seatSpectator)
	if cl.seat >= 0 {
		seat = uint8(cl.seat)
	}
	var st, size, raw uint32
	var h uint64
	if cl.xfer >= 0 {
		cp := &s.cps[cl.xfer]
		st, size, raw, h = uint32(cp.tick), uint32(len(cp.packed)), uint32(len(cp.state)), cp.hash
	}
	s.write(appendWelcome(s.wbuf[:0], cl.nonce, cl.cookie, seat, uint8(s.players), uint16(s.cfg.HashEvery),
		uint32(s.tick), st, size, h, uint32(s.cfg.EndTick), uint32(cl.vTick), raw), cl)
}

// onUpdate takes a client's update: its inputs (for its own seat only:
// the seat is its address's), acks, round trip and hash.
func (s *Server) onUpdate(cl *sclient, now time.Duration) {
	p := &s.sp
	cl.heard = now
	if int(p.isize) != s.size {
		s.stats.PacketsBad++
		return
	}
	cl.ts, cl.tsAt = p.ts, now
	if p.echo != 0 {
		if rtt := time.Duration(us(now)-p.echo-p.hold) * time.Microsecond; rtt > 0 && rtt < 10*time.Second {
			if cl.rtt == 0 {
				cl.rtt = rtt
			} else {
				cl.rtt += (rtt - cl.rtt) / 8
			}
		}
	}
	// The state being sent.
	if cl.xfer >= 0 {
		cp := &s.cps[cl.xfer]
		if int(p.state) != cp.tick {
			return // the client has not seen our welcome yet
		}
		if p.flags&updateLoading != 0 {
			if cl.xferSt != cp.tick && cl.rtt == 0 {
				// The first answer to our first welcome: a round trip,
				// or more if that welcome was lost. A new client's
				// slices are resent after a timeout of its round trip,
				// not of 20 ms.
				cl.rtt = now - cl.welAt
			}
			cl.xferSt = cp.tick
			if int(p.have) > cl.have {
				cl.have = min(int(p.have), len(cl.xferAt))
			}
			cl.mask = p.mask
			if cl.have >= len(cl.xferAt) {
				cp.users--
				cl.xfer = -1
			}
			return // inputs and acks wait for the state to be loaded
		}
		cp.users-- // loaded: its last acks were lost
		cl.xfer = -1
	}
	if a := int(p.ack); a > cl.ack && a <= s.tick {
		cl.ack = a
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
			s.resync(cl, now)
			return
		}
		s.stats.Hashes++
		cl.row = 0
	} else if p.flags&updateHash != 0 {
		if h, ok := s.hashAt(int(p.hashTick)); ok && int(p.hashTick) > cl.hashed && int(p.hashTick) > cl.lastSt {
			cl.hashed = int(p.hashTick)
			if h != p.hash {
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
		for range 3 {
			s.write(appendBye(s.wbuf[:0], cl.nonce, byeDiverged, uint32(cl.row-1), 0), cl)
		}
		s.leave(cl)
		return
	}
	s.stats.Resyncs++
	s.startTransfer(cl, now)
	s.welcome(cl)
}

// leave frees cl's seat: from the next tick the seat is empty.
func (s *Server) leave(cl *sclient) {
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
}

// watch frees the seats of clients silent past DisconnectTimeout.
func (s *Server) watch(now time.Duration) {
	for i := range s.clients {
		if cl := &s.clients[i]; cl.on && now-cl.heard > s.cfg.DisconnectTimeout {
			s.leave(cl)
		}
	}
}

// sendAll sends every client what it needs: the state's slices while
// one is being sent, else the final inputs it has not acknowledged,
// every sendEvery ticks (more often while it catches up).
func (s *Server) sendAll(now time.Duration) {
	for i := range s.clients {
		cl := &s.clients[i]
		if !cl.on {
			continue
		}
		if cl.xfer >= 0 {
			s.sendChunks(cl, now)
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
	rto := cl.rtt + cl.rtt/4 + 20*time.Millisecond
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
	if cl.tsAt != 0 {
		p.flags |= finalEcho
		p.echo, p.hold = cl.ts, us(now-cl.tsAt)
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
// and that were not sent within a round trip: at most chunkWindow past the
// first it lacks, and 32 a tick.
func (s *Server) sendChunks(cl *sclient, now time.Duration) {
	cp := &s.cps[cl.xfer]
	if cl.xferSt != cp.tick && (now-cl.welSent > 100*time.Millisecond || cl.welSent == 0) {
		// The welcome goes again until the client answers it; the
		// slices go with it from the start, not a round trip later.
		s.welcome(cl)
		cl.welSent = now
	}
	rto := cl.rtt + cl.rtt/4 + 20*time.Millisecond
	if cl.rtt == 0 {
		rto = 300 * time.Millisecond // until the client's answer measures it
	}
	sent := 0
	for i := cl.have; i < len(cl.xferAt) && i < cl.have+chunkWindow && sent < chunksPerTick; i++ {
		if d := i - cl.have - 1; d >= 0 && d < 64 && cl.mask>>d&1 != 0 {
			continue
		}
		if at := cl.xferAt[i]; at >= 0 && now-at < rto {
			continue
		}
		s.write(appendChunk(s.wbuf[:0], cl.nonce, uint32(cp.tick), i, cp.packed), cl)
		cl.xferAt[i] = now
		s.stats.ChunksSent++
		sent++
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

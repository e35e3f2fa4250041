package netplay

import (
	"compress/flate"
	"time"
)

// chunksPerTick is the most slices of a state a Server sends a client in
// a tick: 192, 47 Mbit/s at 60 TPS, above DefaultTransferRate (32), so
// that a joiner alone may use the whole budget, and what the budget
// saved while it waited for acknowledgements. More would overflow the
// client's transport, which holds queueLen datagrams between two of its
// reads (a frame, which may run two ticks).
const chunksPerTick = queueLen * 3 / 8

// A transfer's credit: it may send initialCredit slices before the first
// acknowledgement, creditPerAck more for each slice acknowledged, and
// hold at most maxCredit; with no acknowledgement moving for stallRTOs
// retransmission timeouts it sends one slice a timeout. A client that
// acknowledges nothing is sent initialCredit slices (32 kB) and freed
// after DisconnectTimeout; one that acknowledges is sent at most
// initialCredit + creditPerAck times what it acknowledged. The credit,
// not the budget, paces a transfer's first round trips: 64 slices, then
// about 16 and 256 times as many, each a round trip after the last. 16 a
// slice, not 4, lets a 2,000-body state (1,790 slices) go in two round
// trips after the first: a joiner at 151 ms plays in 974 ms, not 1,176
// (BenchmarkServerJoin, median of 5 seeds).
const (
	initialCredit = 64
	creditPerAck  = 16
	maxCredit     = chunkWindow
	stallRTOs     = 4
)

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
			// Once every slice went, the rows from the state's tick go
			// too: the client keeps them while the last slices come, so
			// it runs to the present and checks its first hash as soon
			// as the state is loaded, not a round trip later.
			if !cl.x.allSent() || (s.tick+i)%sendEvery != 0 {
				continue
			}
		}
		if s.tick <= cl.ack && now-cl.sentAt < 250*time.Millisecond {
			continue // nothing new: a keep-alive four times a second
		}
		// Rows not sent yet: a few every sendEvery ticks; more, every
		// tick, while the client catches up or is sent them again. (Rows
		// sent and not yet acknowledged, a round trip's, are no reason:
		// on a long link there are always some.)
		if (s.tick+i)%sendEvery != 0 && s.tick-cl.sentTo < 8 && now-cl.sentAt < 250*time.Millisecond {
			continue
		}
		for k := 0; k < 8; k++ {
			if !s.sendFinal(cl, now) {
				break
			}
		}
	}
}

// resendRows is how many of the rows sent last a datagram of final
// inputs sends again: a datagram whose rows start after a row the client
// lost cannot be read (its first row is a change from that one), and the
// server sends up to 8 datagrams at once while a client catches up. With
// 2, a client at 180 ms and 5 % loss found 41 datagrams it could not read,
// stalled 147 times and rolled back 10 ticks at the 99th percentile, past
// its link's 9 (TestClientRollbackAsDeepAsTheLink); with 4, 8, 75
// stalls and 9, for 46 kbit/s a client at 32 seats instead of 37
// (BenchmarkServerMatch; every unacknowledged row every time: 72-85).
const resendRows = 4

// sendFinal sends cl one datagram of final inputs: the rows not sent
// yet, and the last resendRows sent again, which covers a lost datagram; or,
// when its acknowledgement has not moved for a retransmission timeout,
// from the first row it lacks. Each row is sent as its changes from the
// row before (see the final kind), so the rows of a datagram follow on
// from the client's rows: the last two sent, the first it lacks. It
// reports whether more remain to send.
func (s *Server) sendFinal(cl *sclient, now time.Duration) bool {
	rto := cl.rt.timeout(20 * time.Millisecond)
	if cl.ack > cl.ackSeen {
		cl.ackSeen, cl.ackAt = cl.ack, now
	}
	if cl.sentTo > cl.ack && now-cl.ackAt >= rto {
		cl.sentTo, cl.ackAt = cl.ack, now // from the first it lacks, then on; wait a timeout more
	}
	from := max(cl.sentTo-resendRows, cl.ack, s.tick-keepTicks+1)
	p := &s.sp
	*p = sPacket{token: cl.nonce, tick: uint32(s.tick), players: uint8(s.players), isize: uint8(s.size),
		ack: uint32(cl.recv), start: uint32(max(from, 0))}
	// The rows as changes from the row before the first, which the
	// client holds unless the first follows its state: then from zero.
	prev, prevEmpty := s.zeroRow, uint32(0)
	if from <= cl.lastSt || from <= s.tick-keepTicks+1 {
		p.flags |= finalKey
	} else {
		prev, prevEmpty = s.row(from-1), s.mask[(from-1)%keepTicks]
	}
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
	count := 0
	for f := from; f < s.tick && count < 255; f++ {
		row, empty := s.row(f), s.mask[f%keepTicks]
		var ok bool
		if b, ok = appendRow(b, MaxPacket, prev, row, prevEmpty, empty, s.players, s.size); !ok {
			break
		}
		prev, prevEmpty = row, empty
		count++
	}
	b[finalHead-4] = uint8(count)
	s.write(b, cl)
	s.stats.BytesFinal += uint64(len(b) + udpOverhead)
	cl.sentAt = now
	cl.sentTo = max(cl.sentTo, from+count)
	return count > 0 && from+count < s.tick
}

// sendChunks sends cl the slices of its state it has not acknowledged
// (its acknowledgement names each slice of the window: have, and a
// bitmap of the chunkWindow past it) and that are not in flight (never
// sent, or lost: see sender.next): at most share this tick (its part of
// the transfer budget), none more than chunkWindow past the first it
// lacks, and only as many as its credit allows: a
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
		// A slice sent again goes twice where a second loss would cost
		// most: near the front of the window (which waits on it a round
		// trip more) or once every slice was sent (nothing sent after it
		// would show the loss: only a timeout). At 4 % loss, about 6 %
		// more slices.
		copies := 1
		if cl.x.at[i] >= 0 && (i < cl.x.have+chunkWindow/4 || cl.x.allSent()) {
			copies = min(2, limit-sent)
		}
		for range copies {
			s.sendChunk(cl, cp, i)
			sent++
		}
		cl.x.sent(i, now)
	}
	for i := cl.x.tail(now, cl.rt.rtt/2); i >= 0 && sent < limit && window > 1; i = cl.x.tail(now, cl.rt.rtt/2) {
		s.sendChunk(cl, cp, i)
		cl.x.sent(i, now)
		sent++
	}
	if sent == 0 && limit == 0 && cl.credit > 0 && now-cl.progAt <= stallRTOs*rto {
		cl.progAt = now // waiting its turn in the budget is not a stall
	}
}

// sendChunk sends cl slice i of cp's state, spending a credit and its
// bits of the budget.
func (s *Server) sendChunk(cl *sclient, cp *checkpoint, i int) {
	b := appendChunk(s.wbuf[:0], cl.nonce, uint32(cp.tick), i, cp.packed)
	s.write(b, cl)
	cl.credit--
	s.xferBits -= 8 * len(b)
	s.stats.ChunksSent++
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

package netplay

import (
	"cmp"
	"fmt"
	"time"
)

// poll reads every waiting datagram (at most maxReads).
func (s *Client) poll(now time.Duration) {
	for range maxReads {
		if s.err != nil {
			return
		}
		n, from, ok := s.tr.ReadFrom(s.rbuf[:])
		if !ok {
			return
		}
		s.stats.PacketsIn++
		s.stats.BytesIn += uint64(n)
		if from != s.cfg.Server {
			s.stats.PacketsUnknown++
			continue
		}
		kind, err := decodeAny(s.rbuf[:n], &s.sp, &s.pk)
		if err != nil {
			if err == errVersion && kind == kindWelcome {
				s.fail(&FingerprintError{Player: -1, Server: true, Addr: from, Field: fieldNames[fieldVersion], Ours: ProtocolVersion, Theirs: uint64(s.rbuf[2]), Refused: true})
				return
			}
			s.stats.PacketsBad++
			continue
		}
		switch kind {
		case kindRefuse:
			if s.phase != phaseCall {
				s.stats.PacketsStale++
				continue
			}
			s.refused()
		case kindBye:
			if s.pk.token != s.nonce || s.token == 0 {
				s.stats.PacketsStale++
				continue
			}
			s.onBye(now)
		case kindCookie, kindWelcome, kindChunk, kindFinal:
			if s.sp.token != s.nonce {
				s.stats.PacketsStale++
				continue
			}
			s.heard = now
			switch kind {
			case kindCookie:
				s.onCookie(now)
			case kindWelcome:
				s.onWelcome(now)
			case kindChunk:
				s.onChunk(now)
			case kindFinal:
				s.onFinal(now)
			}
		default:
			s.stats.PacketsBad++
		}
	}
}

// refused stops the client with why the server refused it.
func (s *Client) refused() {
	p := &s.pk
	srv := s.cfg.Server.String()
	switch p.field {
	case fieldTable:
		s.fail(&ServerError{Server: srv, Reason: fmt.Sprintf("every one of its %d seats is taken", p.ours)})
	case fieldSeats:
		if p.ours == 0 {
			s.fail(&ServerError{Server: srv, Reason: "it takes no spectators"})
		} else {
			s.fail(&ServerError{Server: srv, Reason: fmt.Sprintf("its %d spectator seats are all taken", p.ours)})
		}
	case fieldHost:
		s.fail(fmt.Errorf("%w (%v)", ErrNotServer, s.cfg.Server))
	case fieldLate:
		s.fail(&ServerError{Server: srv, Reason: fmt.Sprintf("its match is over (tick %d)", p.ours)})
	default:
		s.fail(&FingerprintError{Player: -1, Server: true, Addr: s.cfg.Server, Field: fieldNames[p.field], Ours: p.theirs, Theirs: p.ours, Refused: true})
	}
}

// onBye acts on the server's bye: the end of the match, or the server
// stopping or dropping us.
func (s *Client) onBye(now time.Duration) {
	p := &s.pk
	switch p.reason {
	case byeDone:
		if !s.endKnown {
			s.endKnown, s.endHash, s.endHeard = true, p.hash, now
			if s.endT == 0 || s.endT != int(p.tick) {
				s.endT = int(p.tick)
			}
		}
	case byeDiverged:
		s.fail(&ServerError{Server: s.cfg.Server.String(), Reason: fmt.Sprintf("dropped this client: its state differed from the server's %d times in a row (its simulation is not the server's: see engine.Fingerprint and cmd/fixvet)", p.tick)})
	case byeStalled:
		s.fail(&ServerError{Server: s.cfg.Server.String(), Reason: "dropped this client: it acknowledged nothing new for the server's disconnect timeout (its link carries nothing back, or it is too slow)"})
	default:
		s.fail(&DisconnectError{Player: -1, Server: true, Addr: s.cfg.Server, Silence: now - s.heard, Left: true})
	}
}

// timeouts stops a client whose server is silent.
func (s *Client) timeouts(now time.Duration) {
	if s.callAt == 0 && s.callStart == 0 {
		s.callStart, s.heard = now, now
		s.askAt = now
	}
	if s.phase == phaseCall && s.token == 0 {
		if now-s.callStart > s.cfg.HandshakeTimeout {
			s.fail(&DisconnectError{Player: -1, Server: true, Addr: s.cfg.Server, Silence: now - s.callStart, Handshake: true})
		}
		return
	}
	if now-s.heard > s.cfg.DisconnectTimeout {
		s.fail(&DisconnectError{Player: -1, Server: true, Addr: s.cfg.Server, Silence: now - s.heard})
		return
	}
	if s.phase == phaseLoad {
		// A state that makes no progress, or comes too slowly, is a
		// server that does not serve.
		if why := s.st.stalled(now, s.cfg.DisconnectTimeout, s.cfg.HandshakeTimeout); why != "" {
			s.fail(&ServerError{Server: s.cfg.Server.String(), Misbehaved: true, Reason: why})
		}
		return
	}
	if s.endKnown && now-s.endHeard > s.cfg.DisconnectTimeout {
		s.fail(fmt.Errorf("%w: the server ended the match at tick %d, and its last inputs did not arrive within %v", ErrUnverified, s.endT, s.cfg.DisconnectTimeout))
	}
}

// call sends a join (a probe's, for a Probe), ten times a second.
func (s *Client) call(now time.Duration) {
	if s.callAt != 0 && now-s.callAt < 100*time.Millisecond {
		return
	}
	s.callAt = now
	p := &s.sp
	*p = sPacket{nonce: s.nonce, isize: uint8(s.size), tps: uint32(s.cfg.TPS), params: paramsHash(s.cfg.Params),
		sim: s.cfg.Sim, cookie: s.challenge, secret: s.cfg.Secret}
	if s.cfg.Spectate {
		p.flags |= joinSpectator
	}
	if s.probing {
		p.flags |= joinProbe
	}
	s.write(p.appendJoin(s.wbuf[:0]))
}

// onCookie takes the server's challenge: the join goes again, with it.
func (s *Client) onCookie(now time.Duration) {
	p := &s.sp
	s.known = int(p.players)
	if s.phase == phaseCall && s.challenge != p.cookie {
		s.challenge = p.cookie
		s.callAt = 0
		s.call(now)
	}
}

// onWelcome takes the server's settings, our seat, our secret and the
// state to receive.
func (s *Client) onWelcome(now time.Duration) {
	p := &s.sp
	if p.seat == seatNone {
		if s.phase != phaseCall {
			s.stats.PacketsStale++
			return
		}
		s.set = Settings{Players: int(p.players), TPS: int(p.tps), InputSize: int(p.isize), Params: string(p.data)}
		if !s.probing {
			// Our params are not the server's: it sent its own.
			s.fail(&FingerprintError{Player: -1, Server: true, Addr: s.cfg.Server, Field: fieldNames[fieldParams],
				Ours: paramsHash(s.cfg.Params), Theirs: paramsHash(string(p.data)), OursText: s.cfg.Params, TheirsText: s.set.Params, Refused: true})
		}
		return
	}
	if s.probing {
		s.stats.PacketsStale++
		return
	}
	if s.cfg.Spectate != (p.seat == seatSpectator) || int(p.tps) != s.cfg.TPS || int(p.isize) != s.size || string(p.data) != s.cfg.Params {
		s.stats.PacketsBad++
		return
	}
	if int(p.raw) > s.cfg.MaxState || int(p.size) > s.cfg.MaxState {
		s.fail(&ServerError{Server: s.cfg.Server.String(), Reason: fmt.Sprintf("its state of %d bytes (%d compressed) is over ClientConfig.MaxState (%d)", p.raw, p.size, s.cfg.MaxState)})
		return
	}
	if s.phase == phaseLoad && int(p.state) == s.st.tick && s.st.hash == p.hash {
		return // a repeat
	}
	if s.phase == phasePlay && (s.resyncAsk < 0 && int(p.state) <= s.st.tick || int(p.state) < s.st.tick) {
		return // an old one
	}
	if s.players != 0 && s.players != int(p.players) {
		s.stats.PacketsBad++
		return
	}
	// A server that sends state after state, none of them verified,
	// keeps a client from playing: it stops, saying so.
	if why := s.st.again(int(p.state)); why != "" {
		s.fail(&ServerError{Server: s.cfg.Server.String(), Misbehaved: true, Reason: why})
		return
	}
	if s.rec != nil && int(p.state) != s.recNext {
		s.fail(fmt.Errorf("netplay: server %v sends its state of tick %d: a recording needs every tick from %d, so this client cannot record (record on the server)", s.cfg.Server, p.state, s.recNext))
		return
	}
	first := s.players == 0
	s.token, s.secret = p.ctoken, p.secret
	if first {
		s.setup(int(p.players), s.size, clientRing, s.cfg.MaxPrediction+3, int(p.every), 0)
		s.cur = make([]byte, s.players*s.size)
		s.set = Settings{Players: int(p.players), TPS: int(p.tps), InputSize: int(p.isize), Params: s.cfg.Params}
	} else {
		s.stats.Resyncs++
	}
	s.endT = int(p.end)
	s.vTick, s.vMine, s.vSrv, s.vDone = int(p.verify), tickHash{}, tickHash{}, false
	if p.verify == 0 {
		s.vTick = -1
	}
	s.local = -1
	if p.seat != seatSpectator {
		s.local = int(p.seat)
	}
	s.srvTick, s.srvAt = int(p.tick), now
	s.phase = phaseLoad
	s.st.begin(int(p.state), int(p.size), int(p.raw), p.hash, now)
	s.stats.StateBytes = s.st.raw
	// The rows and hashes from the state's tick on are kept while it
	// comes (the server sends them with its last slices).
	s.restart(s.st.tick, s.st.tick, uint32(1)<<s.players-1) // no seat known before the state's first row
	s.srvHashes, s.lastSrv, s.compared = [8]tickHash{}, -1, -1
	s.sendUpdate(now)
}

// onChunk takes a slice of the state; with the last, it loads it.
func (s *Client) onChunk(now time.Duration) {
	p := &s.sp
	if s.phase != phaseLoad || int(p.state) != s.st.tick || int(p.size) != s.st.size {
		s.stats.PacketsStale++
		return
	}
	if s.st.take(int(p.index), p.data, now) {
		s.load(now)
	}
}

// load loads the received state: the client now runs from its tick.
func (s *Client) load(now time.Duration) {
	if err := s.st.load(s.saver, "server "+s.cfg.Server.String()); err != nil {
		s.fail(err)
		return
	}
	s.reserve(cmp.Or(s.st.raw, s.st.size))
	s.resyncAsk = -1
	s.phase = phasePlay
	s.srvAck, s.ownNext = s.st.tick, s.st.tick
	s.sendUpdate(now)
}

// onFinal takes the server's final inputs, its tick and hash.
func (s *Client) onFinal(now time.Duration) {
	p := &s.sp
	if s.phase == phaseCall {
		return // no state announced: nothing to put its rows after
	}
	if int(p.players) != s.players || int(p.isize) != s.size {
		s.stats.PacketsBad++
		return
	}
	if int(p.tick) >= s.srvTick {
		s.srvTick, s.srvAt = int(p.tick), now
	}
	if p.flags&finalEcho != 0 {
		s.rt.measure(now, p.echo, p.hold)
	}
	s.rt.heard(p.ts, now)
	if a := int(p.ack); a > s.srvAck {
		s.srvAck = a
	}
	if p.lead != 0 || s.leadOK {
		s.lead, s.leadOK = float64(p.lead)/8, true
	}
	if p.flags&finalHash != 0 && int(p.hashTick) == s.vTick && s.vTick >= 0 {
		if !s.vSrv.ok && !s.vDone {
			s.vSrv = tickHash{tick: s.vTick, hash: p.hash, ok: true}
		}
	} else if p.flags&finalHash != 0 && int(p.hashTick) > s.lastSrv && int(p.hashTick) >= s.st.tick {
		s.vDone = s.vDone || s.vMine.ok
		s.srvHashes[int(p.hashTick)/s.every%len(s.srvHashes)] = tickHash{tick: int(p.hashTick), hash: p.hash, ok: true}
		s.lastSrv = int(p.hashTick)
	}
	s.takeRows(p)
	s.settle() // the rows that arrived in order become final
}

// takeRows puts the final rows of p, a final datagram: each is the
// changes from the row before it, the first's from the row of tick
// start-1 (which we must hold) or, in a key, from zero inputs.
func (s *Client) takeRows(p *sPacket) {
	if p.count == 0 {
		return
	}
	start := int(p.start)
	row, empty := s.cur, uint32(0)
	if p.flags&finalKey != 0 {
		clear(row)
	} else if f := start - 1; f >= s.base && s.rowTick[f%clientRing] == f {
		copy(row, s.row(s.rows, f))
		empty = s.rowEmpty[f%clientRing]
	} else {
		s.stats.PacketsStale++ // the row its first is from was lost: a later datagram brings them
		return
	}
	final, b := s.confirmed(), p.inputs
	for k := range int(p.count) {
		f := start + k
		b = readRow(b, row, &empty, s.players, s.size)
		if !zeroSeats(row, empty, s.size) {
			s.stats.PacketsBad++
			return
		}
		if f < final || s.rowTick[f%clientRing] == f {
			continue
		}
		if f >= s.floor()+clientRing {
			break
		}
		s.putRow(f, row, empty)
	}
}

// zeroSeats reports whether the empty seats of a row have zero inputs, as
// engine.Inputs requires.
func zeroSeats(row []byte, empty uint32, size int) bool {
	for p := 0; empty != 0; p, empty = p+1, empty>>1 {
		if empty&1 != 0 {
			for _, c := range row[p*size : (p+1)*size] {
				if c != 0 {
					return false
				}
			}
		}
	}
	return true
}

// sendUpdate sends the server our inputs it has not acknowledged, our
// acks, our last hash and, while the state comes, which slices arrived.
func (s *Client) sendUpdate(now time.Duration) {
	if s.token == 0 {
		return
	}
	p := &s.sp
	*p = sPacket{token: s.token, isize: uint8(s.size), ack: uint32(s.confirmed()), ts: us(now), state: uint32(s.st.tick)}
	if ts, hold, ok := s.rt.echo(now); ok {
		p.echo, p.hold = ts, hold
	}
	if s.phase == phaseLoad {
		p.flags |= updateLoading
		p.have, p.mask = uint32(s.st.have), s.st.mask()
	} else if s.phase == phasePlay {
		if s.resyncAsk >= 0 {
			p.flags |= updateResync
			p.hashTick = uint32(s.resyncAsk)
		} else if h := s.vMine; h.ok && !s.vDone {
			p.flags |= updateHash
			p.hashTick, p.hash = uint32(h.tick), h.hash
		} else if h, ok := s.ourHash(s.lastSrv); ok {
			p.flags |= updateHash
			p.hashTick, p.hash = uint32(s.lastSrv), h
		}
		if s.local >= 0 {
			from := max(s.srvAck, s.tick-clientRing/2, s.confirmed()-clientRing/2)
			count := min(s.ownNext-from, (MaxPacket-updateHead)/s.size, 255)
			if count > 0 {
				p.start, p.count = uint32(from), uint8(count)
			}
		}
	}
	if s.phase == phaseLoad {
		// The slices past the mask's, to the last that arrived, in the
		// tail: the server sends again only what is missing.
		s.write(s.st.appendTail(p.appendUpdateHead(s.wbuf[:0])))
		return
	}
	b := p.appendUpdateHead(s.wbuf[:0])
	for k := range int(p.count) {
		b = append(b, s.ownInput(int(p.start)+k)...)
	}
	s.write(b)
}

// Probe asks a server, before a client of it is made, for its match's
// settings, without taking a seat: so that a runner can take the server's
// Params (a game's flags) and build the game for the match's players
// before its loop runs, and learn that a server answers at the address at
// all. The server keeps nothing of it.
type Probe struct{ c *Client }

// NewProbe makes a probe of the server at cfg.Server. Only cfg.Server,
// InputSize (any valid size), the timeouts, Clock and Seed matter: a
// probe asks whatever the server's settings are.
func NewProbe(cfg ClientConfig, tr Transport) (*Probe, error) {
	c, err := newClient(cfg, nil, tr)
	if err != nil {
		return nil, err
	}
	c.probing = true
	return &Probe{c: c}, nil
}

// Poll calls the server (ten times a second) and reads its answers. It
// returns the server's settings once it sent them (Players 0 before); an
// error wrapping ErrNotServer if a peer-to-peer host answered, or a
// *DisconnectError once ClientConfig.HandshakeTimeout passed without the
// settings.
func (p *Probe) Poll() (Settings, error) {
	s := p.c
	if s.err != nil {
		return Settings{}, s.err
	}
	now := s.clock.Now()
	s.poll(now)
	if s.err == nil && s.set.Players == 0 {
		s.timeouts(now)
	}
	if s.err != nil {
		return Settings{}, s.err
	}
	if s.set.Players == 0 {
		s.call(now)
	}
	return s.set, nil
}

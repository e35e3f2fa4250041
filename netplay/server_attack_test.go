package netplay

import (
	"errors"
	"net/netip"
	"testing"
	"time"
)

// sentTo counts what a server sends to each address.
type sentTo struct {
	Transport
	bytes map[netip.AddrPort]uint64
}

func (c *sentTo) WriteTo(b []byte, to netip.AddrPort) error {
	c.bytes[to] += uint64(len(b))
	return c.Transport.WriteTo(b, to)
}

// newCountedSWorld is newSWorld with what its server sends counted by
// address.
func newCountedSWorld(t *testing.T, cfg ServerConfig, state int, seed uint64) (*sworld, *sentTo) {
	ct := &sentTo{bytes: map[netip.AddrPort]uint64{}}
	w := newSWorldWrapped(t, cfg, state, seed, nil, func(tr Transport) Transport { ct.Transport = tr; return ct })
	return w, ct
}

// validCookie is the cookie the server answers a join of nonce from a
// with now: what an attacker who recovered the old cookie's key (from 16
// join answers) computed, and what the strongest forger has (one on the
// path to a, who reads the server's answers to it).
func validCookie(s *Server, a netip.AddrPort, nonce uint32) uint64 {
	return s.jar.cookie(s.clock.Now(), a, nonce)
}

// testJoin is a join of the sworld's game.
func testJoin(nonce uint32, cookie uint64, spectator bool) []byte {
	p := sPacket{nonce: nonce, cookie: cookie, isize: 2, tps: 60, params: paramsHash("test"), sim: 0xb1}
	if spectator {
		p.flags = joinSpectator
	}
	return p.appendJoin(nil)
}

// A join from a seated player's address with a new nonce and a cookie
// valid for them (one datagram, spoofed: what the old cookie's recovered
// key let anyone send) evicts no one: the player plays on.
func TestForgedJoinEvictsNoOne(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2}, 0, 31)
	a := w.join(t, 0, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
	w.run(time.Second)
	if !a.cl.Running() {
		t.Fatal("the victim is not playing")
	}
	spoof := w.net.Listen(clientAddr(0)) // the victim's own address
	spoof.WriteTo(testJoin(4242, validCookie(w.srv.srv, clientAddr(0), 4242), false), serverAddr)
	w.run(3 * time.Second)
	st := w.srv.srv.Stats()
	t.Logf("after one forged join: victim %v, server leaves=%d joins=%d", a.err, st.Leaves, st.Joins)
	if a.err != nil || st.Leaves != 0 {
		t.Errorf("victim: %v; server: %d leaves; want the victim playing, no leave", a.err, st.Leaves)
	}
}

// Forged spectator joins "from" a victim's address (one that never
// sent anything) make the server send the victim no more than the forger
// sent: without the cookie (which goes to the victim) no seat is taken,
// and the challenge is smaller than the join. A forger that has valid
// cookies (the old cookie's recovered key gave them; now only one on the
// victim's path, reading the server's answers to it, has them) takes
// spectator seats, which send the victim, who acknowledges nothing, one
// window of slices each, and are freed after DisconnectTimeout.
func TestForgedSpectatorAmplifiesNothing(t *testing.T) {
	for _, strong := range []bool{false, true} {
		name := "cookie guessed"
		if strong {
			name = "cookie known"
		}
		t.Run(name, func(t *testing.T) {
			w, ct := newCountedSWorld(t, ServerConfig{Players: 2, Spectators: 2}, 100_000, 32)
			w.join(t, 0, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
			w.run(time.Second)
			victim := netip.MustParseAddrPort("198.51.100.7:5000")
			forger := w.net.Listen(victim) // spoofs the victim's address; nobody reads there
			var forged uint64
			start := w.clock.now
			for k := range 34 {
				nonce := uint32(900 + k)
				cookie := uint64(0x5eed0000 + k)
				if strong {
					cookie = validCookie(w.srv.srv, victim, nonce)
				}
				b := testJoin(nonce, cookie, true)
				forger.WriteTo(b, serverAddr)
				forged += uint64(len(b))
				w.run(300 * time.Millisecond)
			}
			got, elapsed := ct.bytes[victim], w.clock.now-start
			st := w.srv.srv.Stats()
			t.Logf("%s: forged %d bytes; the server sent the victim %d bytes in %v (%d seats taken, %d stalled)", name, forged, got, elapsed, st.Joins-1, st.Stalled)
			if !strong && got > forged {
				t.Errorf("the server sent the victim %d bytes for %d forged", got, forged)
			}
			// Each of the 2 spectator seats: at most a window, and a bye,
			// per DisconnectTimeout and a tick.
			periods := uint64(elapsed/(DefaultDisconnectTimeout+20*time.Millisecond)) + 1
			if limit := 2 * periods * (initialCredit*MaxPacket + 3*byeLen); strong && got > limit {
				t.Errorf("the server sent the victim %d bytes, over a window a seat a timeout (%d)", got, limit)
			}
		})
	}
}

// rawClient is a client the test drives by hand, from its own address:
// it answers the cookie challenge, then misbehaves as the test says.
type rawClient struct {
	conn   *MemConn
	nonce  uint32
	token  uint32 // the seated welcome's: the token of our datagrams
	state  uint32 // the state the welcome announced
	seated bool
	got    uint64 // bytes received
	sp     sPacket
	pk     packet
	buf    [MaxPacket + 1]byte
}

// read takes what the server sent: a challenge is answered at once.
func (r *rawClient) read(spectator bool) {
	for {
		n, _, ok := r.conn.ReadFrom(r.buf[:])
		if !ok {
			return
		}
		r.got += uint64(n)
		kind, err := decodeAny(r.buf[:n], &r.sp, &r.pk)
		if err == nil && kind == kindCookie {
			r.conn.WriteTo(testJoin(r.nonce, r.sp.cookie, spectator), serverAddr)
			continue
		}
		if err != nil || kind != kindWelcome || r.sp.seat == seatNone {
			continue
		}
		r.seated, r.token, r.state = true, r.sp.ctoken, r.sp.state
	}
}

// loadingUpdate is an update that acknowledges no slice of the state.
func (r *rawClient) loadingUpdate() []byte {
	p := sPacket{token: r.token, isize: 2, flags: updateLoading, state: r.state}
	return p.appendUpdateHead(nil)
}

// A client that takes a seat and never acknowledges a slice of its
// state, keeping its seat with a 60-byte update every 1.9 s, is sent at
// most one window of slices, then freed with a reason.
func TestUnackedTransferIsBounded(t *testing.T) {
	for _, spectator := range []bool{false, true} {
		name := "player"
		if spectator {
			name = "spectator"
		}
		t.Run(name, func(t *testing.T) {
			w, ct := newCountedSWorld(t, ServerConfig{Players: 2, Spectators: 1}, 300_000, 33)
			w.join(t, 0, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
			w.run(time.Second)
			bad := &rawClient{conn: w.net.Listen(clientAddr(5)), nonce: 77}
			bad.conn.WriteTo(testJoin(bad.nonce, 0, spectator), serverAddr)
			var up uint64
			last := time.Duration(0)
			start := w.clock.now
			for w.clock.now < start+10*time.Second {
				w.run(20 * time.Millisecond)
				bad.read(spectator)
				if bad.seated && w.clock.now-last >= 1900*time.Millisecond {
					b := bad.loadingUpdate()
					bad.conn.WriteTo(b, serverAddr)
					up += uint64(len(b))
					last = w.clock.now
				}
			}
			st := w.srv.srv.Stats()
			sent := ct.bytes[clientAddr(5)]
			t.Logf("%s: sent %d bytes in 10 s (%.0f kB/s) for %d bytes of updates (%.0fx); server leaves=%d",
				name, sent, float64(sent)/10/1000, up, float64(sent)/float64(max(up, 1)), st.Leaves)
			if !bad.seated {
				t.Fatal("the client was not seated")
			}
			if window := uint64(initialCredit * MaxPacket * 2); sent > window {
				t.Errorf("sent %d bytes to a client that acknowledged nothing, over twice a window (%d)", sent, window)
			}
			if st.Leaves != 1 {
				t.Errorf("%d leaves, want the client freed", st.Leaves)
			}
		})
	}
}

// An update the server counts as bad (the wrong input size) does not
// keep a silent client's seat: it is freed after DisconnectTimeout as if
// nothing came.
func TestBadUpdateKeepsNoSeat(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2}, 0, 34)
	a := w.join(t, 0, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
	w.run(time.Second)
	w.kill(a)
	spoof := w.net.Listen(clientAddr(0))
	p := sPacket{token: w.srv.srv.clients[0].token, isize: 3}
	bad := p.appendUpdateHead(nil)
	for range 10 {
		spoof.WriteTo(bad, serverAddr)
		w.run(500 * time.Millisecond)
	}
	st := w.srv.srv.Stats()
	t.Logf("after 5 s of bad updates: %d players, %d leaves, %d bad datagrams", st.Players, st.Leaves, st.PacketsBad)
	if st.Players != 0 || st.Leaves != 1 {
		t.Errorf("%d players seated, %d leaves: want the silent client freed", st.Players, st.Leaves)
	}
}

// One address on many ports takes no more than its share of seats: a
// player from another address still gets one.
func TestSeatsPerAddress(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 8}, 0, 35)
	var hogs []*rawClient
	for k := range 8 {
		a := netip.AddrPortFrom(netip.MustParseAddr("203.0.113.5"), uint16(4000+k))
		r := &rawClient{conn: w.net.Listen(a), nonce: uint32(100 + k)}
		r.conn.WriteTo(testJoin(r.nonce, 0, false), serverAddr)
		hogs = append(hogs, r)
	}
	for range 20 {
		w.run(20 * time.Millisecond)
		for _, r := range hogs {
			r.read(false)
		}
	}
	seated := 0
	for _, r := range hogs {
		if r.seated {
			seated++
		}
	}
	real := w.join(t, 0, NetSim{}, 0, nil)
	w.run(time.Second)
	t.Logf("one address on 8 ports: %d seats of 8; a player from elsewhere: %v", seated, real.err)
	if seated > 4 || real.err != nil || real.cl.Seat() < 0 {
		t.Errorf("one address took %d seats; the other player: %v, seat %d", seated, real.err, real.cl.Seat())
	}
}

// evilServer answers a Client's joins as a server would, then breaks the
// protocol as its mode says: "silent" announces a state and never sends
// it, "restart" announces a new state every 5 ms, "drip" sends one new
// slice of a huge state every 1.9 s.
type evilServer struct {
	conn     *MemConn
	mode     string
	nonce    uint32
	state    uint32
	restarts int
	sent     int // slices
	lastAt   time.Duration
	sp       sPacket
	pk       packet
	buf      [MaxPacket + 1]byte
}

func (e *evilServer) step(now time.Duration) {
	for {
		n, from, ok := e.conn.ReadFrom(e.buf[:])
		if !ok {
			break
		}
		if kind, err := decodeAny(e.buf[:n], &e.sp, &e.pk); err != nil || kind != kindJoin {
			continue
		}
		e.nonce = e.sp.nonce
		if e.sp.cookie == 0 {
			e.conn.WriteTo(appendCookie(nil, e.nonce, 99, 2), from)
			continue
		}
		e.welcome(clientAddr(0))
	}
	if e.nonce == 0 {
		return
	}
	switch e.mode {
	case "silent":
		if now-e.lastAt >= 100*time.Millisecond {
			e.welcome(clientAddr(0)) // the same state, again: a repeat
			e.lastAt = now
		}
	case "restart":
		for t := e.lastAt; t+5*time.Millisecond <= now; t += 5 * time.Millisecond {
			e.state++
			e.restarts++
			e.welcome(clientAddr(0))
			e.lastAt = t + 5*time.Millisecond
		}
	case "drip":
		if now-e.lastAt >= 1900*time.Millisecond {
			b := appendChunk(nil, e.nonce, e.state, e.sent, dripState)
			e.conn.WriteTo(b, clientAddr(0))
			e.sent++
			e.lastAt = now
		}
	}
}

func (e *evilServer) welcome(to netip.AddrPort) {
	size := uint32(200_000)
	if e.mode == "drip" {
		size = uint32(len(dripState))
	}
	p := sPacket{token: e.nonce, secret: 5, ctoken: 6, seat: 0, players: 2, every: 60, tick: 100, state: e.state,
		size: size, hash: 0xfeed, raw: size, tps: 60, isize: 2, data: []byte("test")}
	e.conn.WriteTo(p.appendWelcome(nil), to)
}

// dripState is the drip's huge state.
var dripState = make([]byte, 60<<20)

// A server that never delivers the state it announced (silent), restarts
// it every 5 ms, or drips a huge one a slice at a time keeps a client
// loading no longer than a bounded time: the client stops with an error
// that says what the server did.
func TestMaliciousServer(t *testing.T) {
	for _, mode := range []string{"silent", "restart", "drip"} {
		t.Run(mode, func(t *testing.T) {
			clk := &fakeClock{now: time.Second}
			net := NewMemNet()
			e := &evilServer{conn: net.Listen(serverAddr), mode: mode, state: 100}
			g := &seatGame{}
			cl, err := NewClient(ClientConfig{Server: serverAddr, InputSize: 2, Params: "test", Sim: 0xb1, Clock: clk, Seed: 3}, g, net.Listen(clientAddr(0)))
			if err != nil {
				t.Fatal(err)
			}
			tick := tick0(t)
			start := clk.now
			for clk.now < start+5*time.Minute && cl.Err() == nil {
				clk.now += 16_666_667
				e.step(clk.now)
				if err := cl.Update(tick); err != nil {
					break
				}
			}
			t.Logf("%s: after %v: %v (%d restarts, %d slices sent)", mode, clk.now-start, cl.Err(), e.restarts, e.sent)
			if cl.Err() == nil || clk.now-start > time.Minute {
				t.Errorf("the client still loads after %v: %v", clk.now-start, cl.Err())
			}
		})
	}
}

// A client started again at its old address takes its seat back at once
// when it brings its session secret (ClientConfig.Secret, from the old
// client's Secret), the same seat, and plays on to the server's hash;
// without the secret it waits until the old seat times out.
func TestRejoinWithSecret(t *testing.T) {
	for _, withSecret := range []bool{true, false} {
		name := "secret"
		if !withSecret {
			name = "no secret"
		}
		t.Run(name, func(t *testing.T) {
			w := newSWorld(t, ServerConfig{Players: 3, EndTick: 900}, 0, 37)
			w.join(t, 0, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
			a := w.join(t, 1, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
			w.run(2 * time.Second)
			seat, secret := a.cl.Seat(), a.cl.Secret()
			if seat < 0 || secret == 0 {
				t.Fatalf("seat %d, secret %x", seat, secret)
			}
			w.kill(a)
			killed := w.clock.now
			b := w.join(t, 1, NetSim{Latency: 20 * time.Millisecond}, 0, func(c *ClientConfig) {
				c.Seed = 77
				if withSecret {
					c.Secret = secret
				}
			})
			for w.clock.now < killed+5*time.Second && !b.cl.Running() {
				w.step()
			}
			took := w.clock.now - killed
			t.Logf("%s: seated again after %v, seat %d (was %d)", name, took, b.cl.Seat(), seat)
			if withSecret && (took > 500*time.Millisecond || b.cl.Seat() != seat) || !withSecret && took < DefaultDisconnectTimeout {
				t.Errorf("seated after %v in seat %d", took, b.cl.Seat())
			}
			w.endsOnServer(t, 20*time.Second)
		})
	}
}

// Joiners share the server's TransferRate: however many load at once,
// the slices of a tick stay within the budget, and every one loads and
// ends on the server's hash.
func TestTransferRateShared(t *testing.T) {
	const rate = 2_000_000 // bits a second: 4,167 bytes a tick at 60 TPS
	w, ct := newCountedSWorld(t, ServerConfig{Players: 6, EndTick: 1500, TransferRate: rate}, 60_000, 38)
	var js []*snode
	for i := range 6 {
		js = append(js, w.join(t, i, NetSim{Latency: 30 * time.Millisecond}, 0, nil))
	}
	var last uint64
	worst := uint64(0)
	for w.clock.now < 20*time.Second {
		w.run(time.Second)
		var total uint64
		for _, n := range ct.bytes {
			total += n
		}
		worst = max(worst, total-last)
		last = total
	}
	w.endsOnServer(t, 20*time.Second)
	t.Logf("the most the server sent in a second: %d bytes (budget %d)", worst, rate/8)
	// The budget, and the final inputs beside it.
	if worst > rate/8*11/10+20_000 {
		t.Errorf("the server sent %d bytes in a second, over its budget of %d", worst, rate/8)
	}
	for i, j := range js {
		if st := j.cl.Stats(); st.Hashes == 0 || st.Desyncs != 0 {
			t.Errorf("joiner %d: %d hashes, %d desyncs", i, st.Hashes, st.Desyncs)
		}
	}
}

// A peer-to-peer host that offers its spectator a new state every 5 ms,
// or one state whose slices never come, keeps it loading no longer than a
// bounded time: the spectator stops with a ServerError (Misbehaved).
func TestMaliciousHost(t *testing.T) {
	for _, mode := range []string{"restart", "silent"} {
		t.Run(mode, func(t *testing.T) {
			w := newWorld(t, worldOpts{spectators: 1, seed: 46})
			w.run(time.Second)
			spec := w.nodes[2]
			if !spec.s.Running() {
				t.Fatal("the spectator is not watching")
			}
			host := w.net.Listen(addr(0)) // the host's own address
			start := w.clock.now
			state := uint32(5000)
			for w.clock.now < start+time.Minute && spec.err == nil {
				if mode == "restart" || state == 5000 {
					host.WriteTo(appendOffer(nil, spec.s.nonce, state, 300_000, 0xfeed), addr(2))
					state++
				}
				w.run(5 * time.Millisecond)
			}
			var se *ServerError
			t.Logf("%s: after %v: %v", mode, w.clock.now-start, spec.err)
			if !errors.As(spec.err, &se) || !se.Misbehaved || w.clock.now-start > 3*time.Second {
				t.Errorf("the spectator: %v after %v, want a ServerError (Misbehaved) within 3 s", spec.err, w.clock.now-start)
			}
		})
	}
}

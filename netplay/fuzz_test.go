package netplay

import (
	"bytes"
	"errors"
	"net/netip"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// fuzzSession returns a session whose handshake with player 1 is done,
// with a fixed nonce, and the MemConn at player 1's address.
func fuzzSession(tb testing.TB) (*Session, *MemConn, *fakeClock) {
	net := NewMemNet()
	clk := &fakeClock{now: time.Second}
	s, err := NewSession(SessionConfig{Players: 2, Addrs: []netip.AddrPort{addr(0), addr(1)}, InputSize: 2, Params: "test", Sim: 0xb1,
		Clock: clk, Seed: 1, HashEvery: 1}, &testGame{players: 2}, net.Listen(addr(0)))
	if err != nil {
		tb.Fatal(err)
	}
	p := &s.peers[0]
	p.nonce, p.knowsMe, p.synced, p.lastRecv = 99, true, true, clk.now
	s.started = true
	return s, net.Listen(addr(1)), clk
}

// fuzzSpectator returns a spectator's session whose handshake with its
// host, player 1 (at addr(1)), is done, with nonce (fuzzSession's, which
// the seeds carry), and the MemConn at the host's address.
func fuzzSpectator(tb testing.TB, nonce uint32) (*Session, *MemConn) {
	net := NewMemNet()
	clk := &fakeClock{now: time.Second}
	s, err := NewSession(SessionConfig{Players: 2, Spectate: true, Host: addr(1), InputSize: 2, Params: "test", Sim: 0xb1,
		Clock: clk, Seed: 2, HashEvery: 1, MaxState: 1 << 16}, &testGame{players: 2}, net.Listen(addr(2)))
	if err != nil {
		tb.Fatal(err)
	}
	s.nonce = nonce
	p := &s.peers[0]
	p.nonce, p.knowsMe, p.synced, p.lastRecv = 99, true, true, clk.now
	s.started = true
	return s, net.Listen(addr(1))
}

// fuzzSeeds are one well-formed datagram of each kind and some near misses.
func fuzzSeeds(tb testing.TB) [][]byte {
	s, _, _ := fuzzSession(tb)
	var p packet
	p.nonce, p.echo, p.players, p.player, p.isize, p.tps = 99, s.nonce, 2, 1, 2, 60
	p.params, p.sim = paramsHash("test"), 0xb1
	hello := p.appendHello(nil)
	p = packet{token: s.nonce, tick: 5, adv: -3, flags: flagHash | flagEcho, ack: 2, ts: 1000, echoTs: 900, hold: 50,
		hashTick: 1, hash: 0x1234, start: 0, count: 3, first: 1, per: 1, size: 2}
	input := append(p.appendInputHead(nil), 1, 0, 2, 0, 0, 1)
	p = packet{nonce: 99, echo: 7, players: 3, player: 1, isize: 2, hflags: sitReady, tps: 60, params: paramsHash("test"), sim: 0xb1}
	sit := p.appendSit(nil)
	p = packet{token: 5, nonce: 7, player: 2, players: 3, seated: 3, hflags: seatRoster}
	p.roster[1], p.roster[2] = addr(1), netip.MustParseAddrPort("[2001:db8::1]:7000")
	roster := p.appendSeat(nil)
	p.hflags, p.seated, p.roster = 0, 2, [MaxPeers]netip.AddrPort{}
	seat := p.appendSeat(nil)
	p = packet{token: s.nonce, dropped: 0b01, decided: 0b01}
	p.dtick[0], p.dhave[0] = 40, 38
	drop := p.appendDrop(nil)
	p = packet{token: s.nonce, tick: 9, flags: flagSeats, seats: 0b10, start: 3, count: 1, per: 2, size: 2}
	rows := append(p.appendInputHead(nil), 1, 2, 0, 0)
	state := make([]byte, chunkData+7)
	for i := range state {
		state[i] = byte(i * 7)
	}
	return [][]byte{
		appendOffer(nil, s.nonce, 600, len(state), engine.StateHash(state)),
		appendGot(nil, s.nonce, 600, 1, 0b101),
		appendChunk(nil, s.nonce, 600, 0, state),
		appendChunk(nil, s.nonce, 600, 1, state),
		appendChunk(nil, s.nonce, 600, 0, nil),
		sit,
		roster,
		seat,
		drop,
		rows,
		appendRefuse(nil, fieldTable, 4, 0),
		appendBye(nil, s.nonce, byeGone, 1, 0),
		hello,
		appendRefuse(nil, fieldParams, 1, 2),
		input,
		appendBye(nil, s.nonce, byeQuit, 0, 0),
		appendBye(nil, s.nonce, byeDone, 60, 0xfeed),
		appendBye(nil, s.nonce, byeDesync, 7, 0),
		input[:inputHead],
		{'f', 'x', 9, kindRefuse, 0, 0, 0, 0},
		{},
	}
}

// FuzzDecode feeds the decoder arbitrary datagrams. What it accepts must
// encode back to the same bytes (no field is read loosely) with its
// inputs' length matching its counts; and a session that receives the
// datagram from a peer (a player's from a player, a spectator's from its
// host) must count it once, as handled or as dropped, without panicking,
// take no more than SessionConfig.MaxState for a state, and run a tick after it.
func FuzzDecode(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b)
	}
	tick := tick0(f)
	s0, _, _ := fuzzSession(f)
	nonce := s0.nonce
	f.Fuzz(func(t *testing.T, b []byte) {
		var p packet
		if err := p.decode(b); err == nil {
			if got := p.encode(nil); !bytes.Equal(got, b) {
				t.Fatalf("decoded %+v\nencodes to %x\nfrom       %x", p, got, b)
			}
			if p.kind == kindInput && len(p.inputs) != int(p.count)*int(p.per)*int(p.size) {
				t.Fatalf("%d bytes of inputs for %d×%d×%d", len(p.inputs), p.count, p.per, p.size)
			}
		} else if len(b) >= headerLen && len(b) <= MaxPacket && b[0] == 'f' && b[1] == 'x' && err == errShort && b[3] != kindInput && b[3] != kindChunk {
			t.Fatalf("a %d-byte datagram of kind %d: %v", len(b), b[3], err)
		}
		s, peer, _ := fuzzSession(t)
		peer.WriteTo(b, addr(0))
		s.Update(tick)
		st := s.Stats()
		if len(b) <= MaxPacket && st.PacketsIn != 1 {
			t.Fatalf("%d datagrams read, want 1", st.PacketsIn)
		}
		if st.PacketsBad+st.PacketsStale+st.PacketsUnknown > 1 {
			t.Fatalf("one datagram counted %d times as dropped", st.PacketsBad+st.PacketsStale+st.PacketsUnknown)
		}
		s.Update(tick)
		// A spectator, which takes a host's offers and chunks.
		sp, host := fuzzSpectator(t, nonce)
		host.WriteTo(b, addr(2))
		sp.Update(tick)
		if st := sp.Stats(); st.PacketsBad+st.PacketsStale+st.PacketsUnknown > 1 || cap(sp.st.buf) > sp.cfg.MaxState {
			t.Fatalf("spectator: one datagram counted %d times as dropped; %d bytes taken for a state", st.PacketsBad+st.PacketsStale+st.PacketsUnknown, cap(sp.st.buf))
		}
		sp.Update(tick)
	})
}

// FuzzLobby feeds a host's lobby (3 players, one seated) and a joiner's
// arbitrary datagrams from a seated caller's address and the host's: each
// is counted once at most, as dropped or handled, and neither panics; a
// joiner's only way to stop is a refuse.
func FuzzLobby(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		lt := newLobbyTable(t, 3)
		j := lt.join(t, addr(1), 0xb1)
		lt.poll(t, 2)
		hs, js := *lt.host.Stats(), *j.Stats()
		lt.net.Listen(addr(1)).WriteTo(b, addr(0))
		lt.net.Listen(addr(0)).WriteTo(b, addr(1))
		herr, jerr := lt.host.Poll(), j.Poll()
		h2, j2 := lt.host.Stats(), j.Stats()
		if herr != nil {
			t.Fatalf("host: %v", herr)
		}
		var fe *FingerprintError
		var se *SeatError
		if jerr != nil && !errors.As(jerr, &fe) && !errors.As(jerr, &se) {
			t.Fatalf("joiner: %v", jerr)
		}
		for _, d := range []uint64{h2.PacketsBad + h2.PacketsStale + h2.PacketsUnknown - hs.PacketsBad - hs.PacketsStale - hs.PacketsUnknown,
			j2.PacketsBad + j2.PacketsStale + j2.PacketsUnknown - js.PacketsBad - js.PacketsStale - js.PacketsUnknown} {
			if d > 1 {
				t.Fatalf("one datagram counted %d times as dropped", d)
			}
		}
		if j.Players() != 3 {
			t.Fatalf("the joiner's match changed to %d players", j.Players())
		}
	})
}

package netplay

import (
	"bytes"
	"net/netip"
	"testing"
	"time"
)

// fuzzSession returns a session whose handshake with player 1 is done,
// with a fixed nonce, and the MemConn at player 1's address.
func fuzzSession(tb testing.TB) (*Session, *MemConn, *fakeClock) {
	net := NewMemNet()
	clk := &fakeClock{now: time.Second}
	s, err := NewSession(Config{Players: 2, Addrs: []netip.AddrPort{addr(0), addr(1)}, InputSize: 2, Params: "test", Sim: 0xb1,
		Clock: clk, Seed: 1, HashEvery: 1}, &testGame{players: 2}, net.Listen(addr(0)))
	if err != nil {
		tb.Fatal(err)
	}
	p := &s.peers[0]
	p.nonce, p.knowsMe, p.synced, p.lastRecv = 99, true, true, clk.now
	s.started = true
	return s, net.Listen(addr(1)), clk
}

// fuzzSeeds are one well-formed datagram of each kind and some near misses.
func fuzzSeeds(tb testing.TB) [][]byte {
	s, _, _ := fuzzSession(tb)
	var p packet
	p.nonce, p.echo, p.players, p.player, p.isize, p.tps = 99, s.nonce, 2, 1, 2, 60
	p.params, p.sim = fnvString("test"), 0xb1
	hello := p.appendHello(nil)
	p = packet{token: s.nonce, tick: 5, adv: -3, flags: flagHash | flagEcho, ack: 2, ts: 1000, echoTs: 900, hold: 50,
		hashTick: 1, hash: 0x1234, start: 0, count: 3, first: 1, per: 1, size: 2}
	input := append(p.appendInputHead(nil), 1, 0, 2, 0, 0, 1)
	return [][]byte{
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
// datagram from a peer must count it once, as handled or as dropped,
// without panicking, and run a tick after it.
func FuzzDecode(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b)
	}
	tick := tick0(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		var p packet
		if err := p.decode(b); err == nil {
			if got := p.encode(nil); !bytes.Equal(got, b) {
				t.Fatalf("decoded %+v\nencodes to %x\nfrom       %x", p, got, b)
			}
			if p.kind == kindInput && len(p.inputs) != int(p.count)*int(p.per)*int(p.size) {
				t.Fatalf("%d bytes of inputs for %d×%d×%d", len(p.inputs), p.count, p.per, p.size)
			}
		} else if len(b) >= headerLen && len(b) <= MaxPacket && b[0] == 'f' && b[1] == 'x' && err == errShort && b[3] != kindInput {
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
	})
}

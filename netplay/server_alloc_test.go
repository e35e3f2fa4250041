package netplay

import (
	"bytes"
	"testing"
	"time"
)

// In steady state a server tick and a client frame allocate nothing: 32
// clients on bad links, rollbacks, resends, duplicates and the hash
// checks included.
func TestServerZeroAllocs(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 32}, 200, 12)
	for i := range 32 {
		w.join(t, i, badLink, time.Duration(i)*10*time.Millisecond, nil)
	}
	w.run(4 * time.Second) // warm up: everyone seated, states at their size
	st := w.srv.srv.Stats()
	hashes, ticks := st.Hashes, st.Tick
	n := allocs(5000, func() { w.step() })
	w.noErrors(t)
	t.Logf("%d allocations in 5,000 steps; %d server ticks, %d hashes compared meanwhile; server:%s",
		n, st.Tick-ticks, st.Hashes-hashes, w.srv.srv.Report())
	if n != 0 {
		t.Errorf("%d allocations in 5,000 steps, want 0", n)
	}
	if st.Players != 32 || st.Hashes == hashes {
		t.Errorf("%d players seated, %d hashes compared while measuring", st.Players, st.Hashes-hashes)
	}
}

// serverSeeds are one well-formed datagram of each server kind and some
// near misses.
func serverSeeds() [][]byte {
	p := sPacket{token: 7, ack: 3, ts: 100, echo: 90, hold: 5, flags: updateHash, isize: 2, count: 2, hashTick: 60, hash: 9, start: 4}
	update := append(p.appendUpdateHead(nil), 1, 2, 3, 4)
	p = sPacket{token: 7, flags: updateLoading, isize: 2, state: 30, have: 5, mask: 0xf0}
	loading := append(p.appendUpdateHead(nil), 0xff, 0, 1, 0x80, 0, 0, 3) // a bitmap of any length
	p = sPacket{token: 7, tick: 9, lead: -12, flags: finalHash | finalEcho, players: 2, ack: 4, isize: 2, start: 5, count: 2, hashTick: 60, hash: 1}
	// Two rows as changes: seats 0 and 1 and the empty seats (seat 1,
	// whose input is zero), then seat 0's alone.
	final := append(p.appendFinalHead(nil), 7, 2, 0, 0, 0, 1, 2, 0, 0, 1, 3, 4)
	p.flags, p.count, p.players = finalKey, 3, 32
	key := append(p.appendFinalHead(nil), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) // three rows of no change
	join := sPacket{nonce: 5, isize: 2, tps: 60, params: paramsHash("test"), sim: 0xb1}
	rejoin := sPacket{nonce: 5, isize: 2, flags: joinSpectator, tps: 60, params: 1, sim: 2, cookie: 77, secret: 9}
	probe := sPacket{nonce: 5, isize: 1, flags: joinProbe, tps: 30, cookie: 77}
	welcome := sPacket{token: 5, secret: 77, ctoken: 8, seat: 1, players: 2, every: 60, tick: 30, size: 300,
		hash: 0xfeed, verify: 45, raw: 1200, tps: 60, isize: 2, data: []byte("test")}
	settings := sPacket{token: 5, seat: seatNone, players: 2, every: 60, tick: 30, end: 600, tps: 60, isize: 2,
		data: []byte("skeleton v1\n-gravity=20")}
	return [][]byte{
		join.appendJoin(nil),
		rejoin.appendJoin(nil),
		probe.appendJoin(nil),
		appendCookie(nil, 5, 0x0123456789abcdef, 2),
		welcome.appendWelcome(nil),
		settings.appendWelcome(nil),
		appendChunk(nil, 5, 0, 0, bytes.Repeat([]byte{1}, 600)),
		appendChunk(nil, 5, 0, 1, bytes.Repeat([]byte{1}, 600)),
		update,
		loading,
		final,
		key,
		update[:updateHead],
		final[:finalHead+3],
		{'f', 'x', ProtocolVersion, kindFinal, 0, 0, 0, 0},
	}
}

// The server decoder reads any datagram without panicking, accepts only
// what its counts describe, and encodes what it accepted back to the
// same bytes.
func FuzzServerDecode(f *testing.F) {
	for _, b := range serverSeeds() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var sp sPacket
		var pk packet
		kind, err := decodeAny(b, &sp, &pk)
		if err != nil || kind == kindRefuse || kind == kindBye {
			return
		}
		if got := sp.encode(nil); !bytes.Equal(got[8:], b[8:]) || !bytes.Equal(got[:4], b[:4]) {
			t.Fatalf("round trip:\n got %x\nwant %x", got, b)
		}
	})
}

// A server and a seated client take any datagram, from the other's
// address, without panicking or stopping for it.
func FuzzServerAndClient(f *testing.F) {
	for _, b := range serverSeeds() {
		f.Add(b, true)
		f.Add(b, false)
	}
	w := newSWorld(f, ServerConfig{Players: 2}, 0, 13)
	a := w.join(f, 0, NetSim{}, 0, nil)
	w.run(time.Second)
	if !a.cl.Running() {
		f.Fatal("the client did not start")
	}
	toServer := w.net.Listen(clientAddr(0))
	toClient := w.net.Listen(serverAddr)
	f.Fuzz(func(t *testing.T, b []byte, server bool) {
		if len(b) > 8 && server {
			le.PutUint32(b[4:], w.srv.srv.clients[0].token)
		} else if len(b) > 8 {
			le.PutUint32(b[4:], a.cl.nonce)
		}
		if server {
			toServer.WriteTo(b, serverAddr)
		} else {
			toClient.WriteTo(b, clientAddr(0))
		}
		w.run(20 * time.Millisecond)
		if w.srv.err != nil {
			t.Fatalf("server: %v", w.srv.err)
		}
	})
}

package netplay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// forgedHello returns a hello in the test world's fingerprint (2 players,
// 2-byte inputs, "test", "b1", 60 TPS) from nonce, claiming player, with
// change applied.
func forgedHello(nonce uint32, player uint8, change func(p *packet)) []byte {
	p := packet{nonce: nonce, players: 2, player: player, isize: 2, tps: 60,
		params: paramsHash("test"), sim: 0xb1}
	if change != nil {
		change(&p)
	}
	return p.appendHello(nil)
}

// Forged hellos sent into a running match, from each peer's own address
// (spoofed) and from a stranger's, with another tick rate or claiming
// the other player, change nothing: both peers run the match to its end
// on the same state, comparing hashes, and count the forgeries as stale.
func TestForgedHelloLeavesMatchRunning(t *testing.T) {
	const end = 300
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond}, seed: 5,
		tweak: func(i int, c *SessionConfig) { c.EndTick = end }})
	w.run(time.Second)
	w.noErrors(t)
	if !w.nodes[0].s.Running() || !w.nodes[1].s.Running() {
		t.Fatal("the handshake is not done after 1 s")
	}
	stranger := w.net.Listen(addrStranger)
	otherRate := func(p *packet) { p.tps = 30 }
	forgeries := []struct {
		from *MemConn
		to   int
		b    []byte
	}{
		{w.nodes[1].conn, 0, forgedHello(77, 1, otherRate)}, // from the partner's address
		{w.nodes[1].conn, 0, forgedHello(78, 0, nil)},       // the right fingerprint, the wrong player
		{w.nodes[0].conn, 1, forgedHello(79, 0, otherRate)},
		{w.nodes[0].conn, 1, forgedHello(80, 1, nil)},
		{stranger, 0, forgedHello(81, 1, otherRate)},
		{stranger, 1, forgedHello(82, 0, nil)},
	}
	for range 30 {
		for _, f := range forgeries {
			f.from.WriteTo(f.b, addr(f.to))
		}
		w.run(50 * time.Millisecond)
		drain(stranger)
	}
	w.run(10 * time.Second)
	for i, n := range w.nodes {
		st := n.s.Stats()
		if n.err != engine.ErrStopped || n.g.n != end || n.g.h != w.nodes[0].g.h {
			t.Errorf("node %d: %v at tick %d with hash %x, want engine.ErrStopped at tick %d with node 0's %x", i, n.err, n.g.n, n.g.h, end, w.nodes[0].g.h)
		}
		if st.Hashes < 4 || st.Desyncs != 0 || st.PacketsStale < 60 {
			t.Errorf("node %d: %d hashes compared, %d desyncs, %d stale datagrams, want 4+, 0, 60+", i, st.Hashes, st.Desyncs, st.PacketsStale)
		}
	}
}

// A match that reaches its end with no state hash compared stops with
// ErrUnverified, not engine.ErrStopped: whether the peer that sends none
// ends too (its bye carries no hash) or runs on silent about its state.
func TestEndWithoutHashesIsUnverified(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  uint64 // node 1's end
	}{{"peer ends", 300}, {"peer runs on", 600}} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond}, seed: 6, tweak: func(i int, c *SessionConfig) {
				c.EndTick = 300
				if i == 1 {
					c.HashEvery, c.EndTick = -1, tc.end // sends no hash
				}
			}})
			w.run(15 * time.Second)
			a := w.nodes[0]
			st := a.s.Stats()
			if !errors.Is(a.err, ErrUnverified) || !strings.Contains(a.err.Error(), "tick 300") || st.Hashes != 0 || !strings.Contains(a.s.Report(), " desyncs=0 hashes_checked=0 ") {
				t.Fatalf("node 0: %v, %d hashes compared, report%s; want ErrUnverified naming tick 300 and hashes_checked=0", a.err, st.Hashes, a.s.Report())
			}
			if a.g.n != 300 {
				t.Errorf("node 0 ran %d ticks", a.g.n)
			}
			t.Log(a.err)
		})
	}
}

// A match shorter than HashEvery compares the hash of its end state, once
// with each other player, and ends cleanly on every peer, the spectator
// included (it compares its host's).
func TestShortMatchComparesItsEnd(t *testing.T) {
	const end = 40
	w := newWorld(t, worldOpts{players: 3, spectators: 1, sim: badLink, seed: 8, tweak: func(i int, c *SessionConfig) { c.EndTick = end }})
	w.run(10 * time.Second)
	for i, n := range w.nodes {
		want := uint64(2)
		if i == 3 {
			want = 1
		}
		if n.err != engine.ErrStopped || n.g.n != end || n.g.h != w.nodes[0].g.h || n.s.Stats().Hashes != want {
			t.Errorf("node %d: %v at tick %d, hash %x (node 0's %x), %d hashes compared; want engine.ErrStopped at tick %d, %d hashes",
				i, n.err, n.g.n, n.g.h, w.nodes[0].g.h, n.s.Stats().Hashes, end, want)
		}
	}
}

// A peer whose end state differs is caught at the end, even in a match
// shorter than HashEvery.
func TestEndStateDesync(t *testing.T) {
	const end = 40
	w := newWorld(t, worldOpts{sim: NetSim{Latency: 20 * time.Millisecond}, seed: 4, tweak: func(i int, c *SessionConfig) { c.EndTick = end }})
	for w.nodes[1].g.n < end-1 && w.step() {
	}
	w.nodes[1].g.pos[0] += 7 // node 1's last tick drifts
	w.run(5 * time.Second)
	for i, n := range w.nodes {
		var de *engine.DesyncError
		if !errors.As(n.err, &de) || de.Tick != end {
			t.Errorf("node %d: %v, want a desync before tick %d", i, n.err, end)
		}
	}
}

// A forged hello from the address of a spectator that has not called yet,
// of another game or claiming a player, is refused without stopping the
// match; the spectator, calling later within the first ticks, still
// watches.
func TestForgedSpectatorHelloLeavesMatchRunning(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 20 * time.Millisecond}, seed: 2})
	sp := w.nodes[2]
	sp.off = true
	w.run(300 * time.Millisecond)
	sp.conn.WriteTo(forgedHello(90, spectatorIndex, func(p *packet) { p.tps = 30 }), addr(0))
	sp.conn.WriteTo(forgedHello(91, 1, nil), addr(0))
	w.run(200 * time.Millisecond)
	w.noErrors(t)
	if st := w.nodes[0].s.Stats(); st.Refused != 2 {
		t.Errorf("host: %d hellos refused, want 2", st.Refused)
	}
	drain(sp.conn)
	sp.off = false
	w.run(5 * time.Second)
	w.noErrors(t)
	if n := w.sameHistory(t); n < 250 || sp.s.Tick() < 250 {
		t.Fatalf("%d ticks compared, the spectator at tick %d", n, sp.s.Tick())
	}
}

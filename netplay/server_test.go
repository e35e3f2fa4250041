package netplay

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// endsOnServer runs the world for d, fails on any error but the end, and
// checks that every client still running ended the match with
// engine.ErrStopped in the server's state.
func (w *sworld) endsOnServer(tb testing.TB, d time.Duration) {
	tb.Helper()
	w.run(d)
	w.noErrors(tb)
	if !errors.Is(w.srv.err, engine.ErrStopped) {
		tb.Fatalf("server: %v, want the end", w.srv.err)
	}
	want := w.srv.g.hash()
	for i, n := range w.nodes[1:] {
		if n.off {
			continue
		}
		if !errors.Is(n.err, engine.ErrStopped) {
			tb.Fatalf("client %d: %v (tick %d, final %d), want the end", i, n.err, n.cl.tick, n.cl.recv)
		}
		if h := n.g.hash(); h != want {
			tb.Fatalf("client %d ended on %016x, the server on %016x", i, h, want)
		}
	}
}

// A server and two clients on a clean link play to the end: both end in
// the server's state, having verified its hashes.
func TestServerTwoClients(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 4, EndTick: 600}, 0, 1)
	a := w.join(t, 0, NetSim{Latency: 20 * time.Millisecond}, 0, nil)
	b := w.join(t, 1, NetSim{Latency: 30 * time.Millisecond}, 300*time.Millisecond, nil)
	w.endsOnServer(t, 20*time.Second)
	for i, n := range []*snode{a, b} {
		st := n.cl.Stats()
		t.Logf("client %d:%s", i, n.cl.Report())
		if st.Hashes < 5 || st.Desyncs != 0 || st.Seat != i {
			t.Errorf("client %d: %d hashes, %d desyncs, seat %d", i, st.Hashes, st.Desyncs, st.Seat)
		}
	}
	t.Logf("server:%s", w.srv.srv.Report())
}

// The match, in one process: four clients on links of 50 ms,
// 10 ms jitter, 5 % loss and 1 % duplication; two from the start, one
// joining 20 s in, one killed at 12 s and started again at 16 s (a new
// process: a new nonce, the same address), while a stranger floods the
// server with garbage. 3,600 ticks: every client running ends on the
// server's hash, none desynced, and the server replaced few inputs.
func TestServerJoinLeaveLossyLinks(t *testing.T) {
	link := NetSim{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Dup: 0.01}
	w := newSWorld(t, ServerConfig{Players: 4, EndTick: 3600}, 2000, 7)
	a := w.join(t, 0, link, 0, nil)
	b := w.join(t, 1, link, 0, nil)
	c := w.join(t, 2, link, 20*time.Second, nil)
	k := w.join(t, 3, link, 0, nil)
	flood := w.net.Listen(addrStranger)
	garbage := []byte("fx\x04\x0agarbage that is not an update at all, over and over")
	for w.clock.now < 13*time.Second {
		w.run(50 * time.Millisecond)
		flood.WriteTo(garbage, serverAddr)
	}
	w.kill(k)
	if k.cl.Seat() < 0 {
		t.Fatalf("the killed client had no seat")
	}
	for w.clock.now < 17*time.Second {
		w.run(50 * time.Millisecond)
		flood.WriteTo(garbage, serverAddr)
	}
	k2 := w.join(t, 3, link, 0, func(c *ClientConfig) { c.Seed = 99 })
	w.endsOnServer(t, 80*time.Second)
	st := w.srv.srv.Stats()
	t.Logf("server:%s", w.srv.srv.Report())
	for i, n := range []*snode{a, b, c, k2} {
		t.Logf("client %d:%s", i, n.cl.Report())
		if cs := n.cl.Stats(); cs.Desyncs != 0 || cs.Hashes == 0 {
			t.Errorf("client %d: %d desyncs, %d hashes", i, cs.Desyncs, cs.Hashes)
		}
	}
	if st.Joins != 5 || st.Leaves != 1 || st.PacketsBad == 0 {
		t.Errorf("server: %d joins, %d leaves, %d bad packets; want 5, 1, some", st.Joins, st.Leaves, st.PacketsBad)
	}
	if c.cl.Stats().Catchup <= 0 || c.cl.Stats().Catchup > 1500*time.Millisecond {
		t.Errorf("the late joiner took %v to verify its state", c.cl.Stats().Catchup)
	}
}

// A client whose game diverges once (game code that is not portable) is
// sent the server's state, snaps to it and plays on to the server's end
// state.
func TestServerSnapBack(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2, EndTick: 900}, 0, 3)
	a := w.join(t, 0, NetSim{Latency: 30 * time.Millisecond}, 0, nil)
	b := w.join(t, 1, NetSim{Latency: 30 * time.Millisecond}, 0, nil)
	b.g.bad = 400
	w.endsOnServer(t, 30*time.Second)
	t.Logf("server:%s", w.srv.srv.Report())
	t.Logf("snapped:%s", b.cl.Report())
	if st := b.cl.Stats(); st.Desyncs != 1 || st.Resyncs != 1 {
		t.Errorf("diverging client: %d desyncs, %d resyncs; want 1, 1", st.Desyncs, st.Resyncs)
	}
	if st := a.cl.Stats(); st.Desyncs != 0 || st.Resyncs != 0 {
		t.Errorf("the other client: %d desyncs, %d resyncs; want 0, 0", st.Desyncs, st.Resyncs)
	}
	if st := w.srv.srv.Stats(); st.Resyncs != 1 {
		t.Errorf("server: %d resyncs, want 1", st.Resyncs)
	}
}

// A client that diverges on every tick is sent the state MaxResyncs
// times, then dropped with a reason; the match goes on for the others.
func TestServerDropsDivergingClient(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2, EndTick: 900}, 0, 4)
	a := w.join(t, 0, NetSim{Latency: 10 * time.Millisecond}, 0, nil)
	b := w.join(t, 1, NetSim{Latency: 10 * time.Millisecond}, 0, nil)
	b.g.bad, b.g.worse = 100, true
	w.run(30 * time.Second)
	var se *ServerError
	if !errors.As(b.err, &se) || !strings.Contains(se.Error(), "differed from the server's 3 times in a row") {
		t.Fatalf("diverging client: %v, want a ServerError saying it diverged", b.err)
	}
	t.Log(b.err)
	if a.err == nil || !errors.Is(a.err, engine.ErrStopped) {
		t.Fatalf("other client: %v, want the end", a.err)
	}
	if st := w.srv.srv.Stats(); st.Dropped != 1 || st.Resyncs != 3 {
		t.Errorf("server: %d dropped, %d resyncs; want 1, 3", st.Dropped, st.Resyncs)
	}
}

// A client of another game is refused, naming what differs; a full
// server refuses with the seats it has; one that takes no spectators
// says so; the match goes on for the seated.
func TestServerRefusals(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 1}, 0, 5)
	a := w.join(t, 0, NetSim{}, 0, nil)
	params := w.join(t, 1, NetSim{}, 0, func(c *ClientConfig) { c.Params = "other level" })
	rate := w.join(t, 2, NetSim{}, 0, func(c *ClientConfig) { c.TPS = 30 })
	sim := w.join(t, 3, NetSim{}, 0, func(c *ClientConfig) { c.Sim = 0xb2 })
	full := w.join(t, 4, NetSim{}, 200*time.Millisecond, nil)
	watcher := w.join(t, 5, NetSim{}, 0, func(c *ClientConfig) { c.Spectate = true })
	w.run(3 * time.Second)
	for _, c := range []struct {
		n    *snode
		want string
	}{
		{params, "game params differs"},
		{rate, "tick rate differs: ours 30, theirs 60"},
		{sim, "simulation differs: ours 00000000000000b2, theirs 00000000000000b1"},
		{full, "every one of its 1 seats is taken"},
		{watcher, "it takes no spectators"},
	} {
		if c.n.err == nil || !strings.Contains(c.n.err.Error(), c.want) {
			t.Errorf("got %v, want an error saying %q", c.n.err, c.want)
		}
	}
	if a.err != nil || !a.cl.Running() {
		t.Fatalf("the seated client: %v", a.err)
	}
	if st := w.srv.srv.Stats(); st.Refused < 5 {
		t.Errorf("server refused %d", st.Refused)
	}
}

// A flood of joins from many addresses (forged ones, which never see the
// cookie) takes no seat and keeps no state; a client that then joins
// gets a seat, and the tick kept pace. An update claiming another
// client's address without its cookie changes nothing.
func TestServerJoinFlood(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2, Spectators: 1}, 0, 6)
	flood := make([]*MemConn, 200)
	for i := range flood {
		flood[i] = w.net.Listen(netip.AddrPortFrom(netip.AddrFrom4([4]byte{192, 0, 2, byte(i)}), uint16(1000+i)))
	}
	join := testJoin(1234, 0, false)
	spoof := testJoin(1234, 0xdeadbeefdeadbeef, false)
	for range 50 {
		for _, c := range flood {
			c.WriteTo(join, serverAddr)
			c.WriteTo(spoof, serverAddr)
		}
		w.run(20 * time.Millisecond)
	}
	st := w.srv.srv.Stats()
	if st.Joins != 0 || st.Players != 0 || st.Tick < 55 {
		t.Fatalf("after the flood: %d joins, %d players, tick %d", st.Joins, st.Players, st.Tick)
	}
	a := w.join(t, 0, NetSim{}, 0, nil)
	w.run(time.Second)
	if a.err != nil || !a.cl.Running() || a.cl.Seat() != 0 {
		t.Fatalf("a client after the flood: %v, seat %d", a.err, a.cl.Seat())
	}
	// Another address sends an update with a guessed cookie for seat 0.
	forged := (&sPacket{token: 0x1234, isize: 2, count: 1, start: uint32(w.srv.srv.tick + 3), ack: 0}).appendUpdateHead(nil)
	forged = append(forged, 2, 0xff)
	stale := st.PacketsStale
	for _, c := range flood[:10] {
		c.WriteTo(forged, serverAddr)
	}
	w.run(100 * time.Millisecond)
	st = w.srv.srv.Stats()
	if st.PacketsUnknown < 10 || st.PacketsStale != stale {
		t.Errorf("forged updates: %d unknown, %d stale", st.PacketsUnknown, st.PacketsStale)
	}
	if a.err != nil {
		t.Fatal(a.err)
	}
}

// A spectator joins a match in progress: it gets the state and the
// inputs since, runs final ticks only, and ends on the server's hash. It
// counts no stall: it waits for each final tick as it should (it counted
// one for every loop tick without one: 99 in this match).
func TestServerSpectatorJoinsLate(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 2, Spectators: 2, EndTick: 1200}, 500, 8)
	w.join(t, 0, NetSim{Latency: 40 * time.Millisecond, Loss: 0.03}, 0, nil)
	w.join(t, 1, NetSim{Latency: 40 * time.Millisecond, Loss: 0.03}, 0, nil)
	s := w.join(t, 2, NetSim{Latency: 75 * time.Millisecond, Loss: 0.04}, 9*time.Second, func(c *ClientConfig) { c.Spectate = true })
	w.endsOnServer(t, 40*time.Second)
	st := s.cl.Stats()
	t.Logf("spectator:%s", s.cl.Report())
	if st.Seat != -1 || st.Predicted != 0 || st.Rollbacks != 0 || st.Hashes == 0 || st.Catchup == 0 || st.Stalls != 0 {
		t.Errorf("spectator: seat %d, %d predicted, %d rollbacks, %d hashes, catchup %v, %d stalls", st.Seat, st.Predicted, st.Rollbacks, st.Hashes, st.Catchup, st.Stalls)
	}
}

// A probe (a -connect, or a -spectate asking which it is) that reaches a
// peer-to-peer host is told so at once, with a refuse the size of no
// more than its join; the host counts a probe, not a refusal nor a bad
// datagram (a host counted refused=1 for each spectator that watched
// it).
func TestProbeFindsAHost(t *testing.T) {
	lt := newLobbyTable(t, 2)
	pr, err := NewProbe(ClientConfig{Server: addr(0), InputSize: 2, Params: "test", Clock: lt.clock, Seed: 5},
		lt.net.Listen(addr(7)))
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err = pr.Poll(); err != nil {
			break
		}
		lt.poll(t, 1)
	}
	if !errors.Is(err, ErrNotServer) || !strings.Contains(err.Error(), addr(0).String()) {
		t.Fatalf("a probe of a host: %v, want ErrNotServer naming the address", err)
	}
	if st := lt.host.Stats(); st.PacketsBad != 0 || st.Refused != 0 || st.Probes == 0 {
		t.Errorf("host: %d bad datagrams, %d refused, %d probes; want 0, 0 and some", st.PacketsBad, st.Refused, st.Probes)
	}
}

// A joiner whose state takes long to arrive loads it far behind the
// server, stalls at MaxPrediction, then receives a burst of final inputs:
// the rows its pending rollback needs are kept until it ran it (a ring
// that kept only the rows past its tick overwrote them with later ticks',
// the rollback ran on wrong inputs and the joiner desynced).
func TestServerJoinerFarBehind(t *testing.T) {
	link := NetSim{Latency: 75500 * time.Microsecond, Loss: 0.04}
	w := newSWorld(t, ServerConfig{Players: 4, EndTick: 1200}, 300_000, 1)
	for i := range 3 {
		w.join(t, i, link, time.Duration(i)*10*time.Millisecond, nil)
	}
	j := w.join(t, 3, link, 10*time.Second, nil)
	w.endsOnServer(t, 40*time.Second)
	st := j.cl.Stats()
	t.Logf("joiner:%s", j.cl.Report())
	if st.Desyncs != 0 || st.Resyncs != 0 || st.Catchup == 0 {
		t.Errorf("joiner: %d desyncs, %d resyncs, catch-up %v; want none, none, some", st.Desyncs, st.Resyncs, st.Catchup)
	}
}

// A new client's state is resent on a timeout of its round trip, taken
// from its answer to the welcome, not of 20 ms: at 151 ms and 4 % loss a
// joiner's 265 kB state costs the server under 2.5 times its slices (5.5
// times with the 20 ms timeout), and arrives sooner.
func TestServerStateResendsOnRoundTrip(t *testing.T) {
	w, j := lateJoin(t, NetSim{Latency: 75500 * time.Microsecond, Loss: 0.04}, 600, 265_000, 2)
	sent := w.srv.srv.Stats().ChunksSent
	for w.clock.now < 10*time.Second && !j.cl.Running() {
		w.step()
	}
	sent = w.srv.srv.Stats().ChunksSent - sent
	need := uint64(chunks(j.cl.Stats().StateBytes))
	t.Logf("%d slices sent for %d", sent, need)
	if !j.cl.Running() || sent > need*5/2 {
		t.Errorf("joiner running %v; %d slices sent for a state of %d", j.cl.Running(), sent, need)
	}
}

// Joiners whose states take longer to send than HashEvery each pin a
// checkpoint of their own: the server keeps one more rather than
// overwrite a state being sent, and every joiner loads and ends on the
// server's hash.
func TestServerManySlowTransfers(t *testing.T) {
	w := newSWorld(t, ServerConfig{Players: 8, HashEvery: 6, EndTick: 900}, 150_000, 9)
	var js []*snode
	for i := range 6 {
		js = append(js, w.join(t, i, NetSim{Latency: 100 * time.Millisecond, Loss: 0.05}, time.Duration(i)*110*time.Millisecond, nil))
	}
	w.endsOnServer(t, 40*time.Second)
	if n := len(w.srv.srv.cps); n <= checkpoints {
		t.Errorf("%d checkpoints kept: the transfers did not overlap as meant", n)
	}
	for i, j := range js {
		if st := j.cl.Stats(); st.Desyncs != 0 || st.Hashes == 0 {
			t.Errorf("joiner %d: %d desyncs, %d hashes", i, st.Desyncs, st.Hashes)
		}
	}
}

// A host's refusal of a probe's join that arrives after the probe gave
// up (a -spectate that asked, then became a peer-to-peer spectator on
// the same socket) is stale to the spectator's session, not a refusal.
func TestLateHostRefusalIsStale(t *testing.T) {
	w := newWorld(t, worldOpts{players: 2, spectators: 1, seed: 3})
	spec := w.nodes[2]
	// It arrives before the spectator's handshake is done.
	w.nodes[0].conn.WriteTo(appendRefuse(nil, fieldHost, 0, 0), addr(2))
	w.run(2 * time.Second)
	w.noErrors(t)
	if st := spec.s.Stats(); st.PacketsStale == 0 || st.Tick == 0 {
		t.Errorf("spectator: %d stale, tick %d: want the refusal counted stale and the match watched", st.PacketsStale, st.Tick)
	}
}

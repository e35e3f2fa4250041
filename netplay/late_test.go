package netplay

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// lateLink is the late spectator's tests' link: 75 ms each way, 4 % loss.
var lateLink = NetSim{Latency: 75 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.04}

// wake starts running node n, silent until now, from the present.
func (w *world) wake(n *node) {
	drain(n.conn)
	n.off, n.next, n.last = false, w.clock.now, w.clock.now
}

// A spectator that calls 10 s into a three-player match on a lossy link
// is seated, sent the host's state (12 kB: 25 chunks, some lost) at a
// confirmed tick, loads it, runs the ticks since fast to the present,
// compares hashes with the host, and ends the match with the players, in
// their state, having run every tick from the state's on their inputs.
func TestLateSpectator(t *testing.T) {
	const end = 1500
	const pad = 12_000
	w := newWorld(t, worldOpts{players: 3, spectators: 1, sim: lateLink, seed: 21, pad: pad,
		tweak: func(i int, c *SessionConfig) { c.EndTick = end }})
	sp := w.nodes[3]
	sp.off = true
	w.run(10 * time.Second)
	w.noErrors(t)
	host := w.nodes[0]
	if host.s.Tick() < 550 {
		t.Fatalf("the host is at tick %d after 10 s", host.s.Tick())
	}
	w.wake(sp)
	// Step until the end, noting when the state was loaded, how many
	// confirmed ticks the spectator had then to run, and when it had run
	// them all but 4 (the present, as far as it knows).
	var loadedAt, presentAt time.Duration
	backlog := 0
	for stop := w.clock.now + 30*time.Second; w.clock.now < stop && w.step(); {
		if loadedAt == 0 && sp.s.st.tick >= 0 && !sp.s.st.on {
			loadedAt, backlog = w.clock.now, sp.s.confirmed()-sp.s.tick
		}
		if loadedAt != 0 && presentAt == 0 && sp.s.tick >= sp.s.confirmed()-4 {
			presentAt = w.clock.now
		}
	}
	for i, n := range w.nodes {
		if n.err != engine.ErrStopped {
			t.Fatalf("node %d: %v, want engine.ErrStopped at the end", i, n.err)
		}
		if n.g.n != end || n.g.h != host.g.h {
			t.Fatalf("node %d ended at tick %d with hash %x; the host: %x", i, n.g.n, n.g.h, host.g.h)
		}
	}
	st, hs := sp.s.Stats(), host.s.Stats()
	from := sp.s.st.tick
	t.Logf("the spectator loaded the state of tick %d (%d bytes in %d chunks sent), ran the %d ticks it had then %v later, and was verified %v after its first hello; %d hashes compared; the host sent %d states",
		from, st.StateBytes, hs.ChunksSent, backlog, presentAt-loadedAt, st.Catchup, st.Hashes, hs.StatesSent)
	if n := uint64(chunks(st.StateBytes)); hs.ChunksSent < n || hs.ChunksSent > n+n/4 {
		t.Errorf("the host sent %d chunks of a state of %d", hs.ChunksSent, n)
	}
	if presentAt == 0 || presentAt-loadedAt > 200*time.Millisecond {
		t.Errorf("the spectator ran the %d ticks it had at the load %v after it (at %v)", backlog, presentAt-loadedAt, loadedAt)
	}
	if from < 550 || st.StateBytes != 8*(MaxPeers+2)+pad || st.Hashes == 0 || st.Desyncs != 0 ||
		st.Catchup <= 0 || st.Catchup > 2*time.Second {
		t.Errorf("spectator: state of tick %d, %d bytes, %d hashes, %d desyncs, caught up in %v", from, st.StateBytes, st.Hashes, st.Desyncs, st.Catchup)
	}
	if hs.StatesSent != 1 || hs.SpectatorsDropped != 0 || hs.Refused != 0 {
		t.Errorf("host: %d states sent, %d spectators dropped, %d refused", hs.StatesSent, hs.SpectatorsDropped, hs.Refused)
	}
	if sp.g.updates != end-from || sp.g.predicted != 0 || sp.g.reruns != 0 {
		t.Errorf("spectator: %d updates (want %d), %d predicted, %d reruns", sp.g.updates, end-from, sp.g.predicted, sp.g.reruns)
	}
	for k := from; k < end; k++ {
		if sp.g.after[k] != host.g.after[k] {
			t.Fatalf("tick %d: the spectator's hash %x, the host's %x", k, sp.g.after[k], host.g.after[k])
		}
	}
}

// A late spectator checks the size of its host's state against
// SessionConfig.MaxState before it allocates anything for it, and stops naming
// both; the match goes on.
func TestLateSpectatorStateTooLarge(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 20 * time.Millisecond}, seed: 22, pad: 1000,
		tweak: func(i int, c *SessionConfig) {
			if c.Spectate {
				c.MaxState = 1000
			}
		}})
	sp := w.nodes[2]
	sp.off = true
	w.run(3 * time.Second)
	w.wake(sp)
	w.run(2 * time.Second)
	if sp.err == nil || !strings.Contains(sp.err.Error(), "a state of 1048 bytes, over SessionConfig.MaxState (1000)") {
		t.Fatalf("the spectator: %v, want its host's state refused as too large", sp.err)
	}
	if sp.s.st.buf != nil || w.nodes[0].err != nil || w.nodes[1].err != nil {
		t.Errorf("the spectator allocated %d bytes; the players: %v, %v", cap(sp.s.st.buf), w.nodes[0].err, w.nodes[1].err)
	}
}

// Once a late spectator has caught up, a frame allocates nothing, on it
// or on the players.
func TestLateSpectatorZeroAllocs(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: badLink, seed: 23, pad: 3000})
	sp := w.nodes[2]
	sp.off = true
	w.run(3 * time.Second)
	w.wake(sp)
	w.run(3 * time.Second)
	w.noErrors(t)
	if sp.s.st.tick < 100 || sp.s.Stats().Catchup == 0 {
		t.Fatalf("the spectator loaded the state of tick %d, caught up in %v", sp.s.st.tick, sp.s.Stats().Catchup)
	}
	hashes := sp.s.Stats().Hashes
	n := allocs(3000, func() { w.step() })
	w.noErrors(t)
	t.Logf("%d allocations in 3,000 frames; the spectator compared %d hashes meanwhile", n, sp.s.Stats().Hashes-hashes)
	if n != 0 || sp.s.Stats().Hashes == hashes {
		t.Errorf("%d allocations in 3,000 frames, want 0; %d hashes compared", n, sp.s.Stats().Hashes-hashes)
	}
}

// A spectator that calls 5 s into a two-player match over a slow lossy
// link (151 ms each way, 4 % loss) and is sent a 100 kB state (206
// chunks, several round trips, some resent) loads it, is verified, and
// runs the players' ticks from it.
func TestLateSpectatorLargeStateSlowLink(t *testing.T) {
	const pad = 100_000
	w := newWorld(t, worldOpts{players: 2, spectators: 1, sim: NetSim{Latency: 151 * time.Millisecond, Loss: 0.04}, seed: 24, pad: pad})
	sp, host := w.nodes[2], w.nodes[0]
	sp.off = true
	w.run(5 * time.Second)
	w.wake(sp)
	w.run(5 * time.Second)
	w.noErrors(t)
	st, hs := sp.s.Stats(), host.s.Stats()
	t.Logf("the spectator loaded the state of tick %d (%d bytes in %d chunks sent), and was verified %v after its first hello; %d hashes compared",
		sp.s.st.tick, st.StateBytes, hs.ChunksSent, st.Catchup, st.Hashes)
	if sp.s.st.tick < 250 || st.Hashes < 3 || st.Catchup <= 0 || st.Catchup > 2*time.Second || hs.StatesSent != 1 || hs.ChunksSent < 206 {
		t.Errorf("spectator: from tick %d, %d hashes, caught up in %v; the host sent %d states, %d chunks", sp.s.st.tick, st.Hashes, st.Catchup, hs.StatesSent, hs.ChunksSent)
	}
	for k := sp.s.st.tick; k < int(min(sp.s.Tick(), host.s.Tick())); k++ {
		if sp.g.after[k] != host.g.after[k] {
			t.Fatalf("tick %d: the spectator's hash %x, the host's %x", k, sp.g.after[k], host.g.after[k])
		}
	}
}

// A spectator with many confirmed ticks to run (one that loaded a state
// while its host went on) runs catchUpTicks of them a loop tick while
// more than ringLen/4 wait, then 2 while more than 4 do, then 1.
func TestSpectatorCatchesUpFast(t *testing.T) {
	s, _ := fuzzSpectator(t, 1)
	s.cfg.HashEvery = 0
	rows := make([]byte, 50*s.players*s.size)
	s.takeRows(0, 50, rows, 0)
	tick := tick0(t)
	var got []uint64
	for range 17 {
		if err := s.Update(tick); err != nil {
			t.Fatal(err)
		}
		got = append(got, s.Tick())
	}
	want := []uint64{8, 16, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 47, 48, 49}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ticks after each loop tick: %v, want %v", got, want)
	}
}

// A spectator takes no row of its host's into a ring slot that holds a
// tick it has not run yet, however far ahead its host's confirmed rows
// run.
func TestSpectatorRingKeepsTicksNotRun(t *testing.T) {
	s, _ := fuzzSpectator(t, 1)
	stride := s.players * s.size
	rows := make([]byte, 64*stride)
	for start := 0; start < 3*64; start += 64 {
		for k := range rows {
			rows[k] = byte(start/64 + 1)
		}
		s.takeRows(start, 64, rows, 0)
	}
	if s.recv[0] != ringLen || s.row(s.rows, 0)[0] != 1 {
		t.Fatalf("at tick 0, the spectator took rows to tick %d; row 0 holds %d, want 1", s.recv[0], s.row(s.rows, 0)[0])
	}
}

// A spectator that records the match (a TickListener) and calls late
// stops, saying why, instead of writing a recording that cannot replay
// from tick 0; the match goes on.
func TestLateSpectatorCannotRecord(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 20 * time.Millisecond}, seed: 25})
	sp := w.nodes[2]
	sp.s.SetTickListener(&tape{states: map[uint64][]byte{}})
	sp.off = true
	w.run(3 * time.Second)
	w.wake(sp)
	w.run(time.Second)
	if sp.err == nil || !strings.Contains(sp.err.Error(), "cannot record it") {
		t.Fatalf("the recording spectator: %v, want an error saying it cannot record", sp.err)
	}
	if w.nodes[0].err != nil || w.nodes[1].err != nil {
		t.Errorf("the players: %v, %v", w.nodes[0].err, w.nodes[1].err)
	}
}

// A spectator seated at the start whose loop stops running ticks for 4 s
// (it still answers: its frames poll and send) falls too far behind for
// the inputs its host keeps: instead of dropping it, the host sends it a
// newer state, and once its ticks run again it catches up and matches the
// host from there.
func TestStalledSpectatorIsSentAState(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 20 * time.Millisecond, Loss: 0.02}, seed: 26})
	sp, host := w.nodes[2], w.nodes[0]
	w.run(3 * time.Second)
	hashes := sp.s.Stats().Hashes
	if sp.s.st.tick >= 0 || hashes == 0 {
		t.Fatalf("the spectator: state of tick %d loaded, %d hashes compared", sp.s.st.tick, hashes)
	}
	stalled := sp.s.Tick()
	sp.skew = -1 // its frames run no tick
	w.run(4 * time.Second)
	sp.skew = 0
	w.run(3 * time.Second)
	w.noErrors(t)
	hs, st := host.s.Stats(), sp.s.Stats()
	t.Logf("the spectator stalled at tick %d, loaded the state of tick %d, and is at tick %d (the host at %d); %d hashes compared since",
		stalled, sp.s.st.tick, sp.s.Tick(), host.s.Tick(), st.Hashes-hashes)
	if hs.StatesSent != 1 || hs.SpectatorsDropped != 0 || sp.s.st.tick <= int(stalled)+ringLen || st.Hashes-hashes < 2 || sp.s.Tick()+30 < host.s.Tick() {
		t.Errorf("host: %d states sent, %d spectators dropped; the spectator from tick %d, %d hashes compared since, at tick %d",
			hs.StatesSent, hs.SpectatorsDropped, sp.s.st.tick, st.Hashes-hashes, sp.s.Tick())
	}
	for k := sp.s.st.tick; k < int(min(sp.s.Tick(), host.s.Tick())); k++ {
		if sp.g.after[k] != host.g.after[k] {
			t.Fatalf("tick %d: the spectator's hash %x, the host's %x", k, sp.g.after[k], host.g.after[k])
		}
	}
}

// A spectator that answers but never runs a tick again is sent
// maxStateTries states, then dropped; the match goes on.
func TestFrozenSpectatorIsDropped(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 20 * time.Millisecond}, seed: 27})
	sp, host := w.nodes[2], w.nodes[0]
	w.run(2 * time.Second)
	sp.skew = -1 // its frames run no tick
	w.run(20 * time.Second)
	hs := host.s.Stats()
	t.Logf("host: %d states sent, %d spectators dropped; the spectator: %v", hs.StatesSent, hs.SpectatorsDropped, sp.err)
	if hs.StatesSent != maxStateTries || hs.SpectatorsDropped != 1 || host.err != nil || w.nodes[1].err != nil || host.s.Tick() < 1200 {
		t.Errorf("host: %d states sent, %d spectators dropped, at tick %d; the players: %v, %v", hs.StatesSent, hs.SpectatorsDropped, host.s.Tick(), host.err, w.nodes[1].err)
	}
}

// A spectator that stalls again and again, but runs on from each state
// in between, is sent a state each time and never dropped: only states
// in a row without running on count towards maxStateTries.
func TestSpectatorStalledOftenStaysSeated(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 20 * time.Millisecond}, seed: 28})
	sp, host := w.nodes[2], w.nodes[0]
	w.run(2 * time.Second)
	for range maxStateTries + 1 {
		sp.skew = -1
		w.run(4 * time.Second)
		sp.skew = 0
		w.run(3 * time.Second)
	}
	w.noErrors(t)
	if hs := host.s.Stats(); hs.StatesSent != maxStateTries+1 || hs.SpectatorsDropped != 0 || sp.s.Tick()+30 < host.s.Tick() {
		t.Errorf("host: %d states sent, %d spectators dropped; the spectator at tick %d, the host at %d", hs.StatesSent, hs.SpectatorsDropped, sp.s.Tick(), host.s.Tick())
	}
}

// A forged late spectator hello (the right fingerprint, from an address
// that never answers) takes a seat, and gets hellos no larger than its
// own until the seat is freed: never an offer or a chunk of the host's
// state, which go only to a spectator that finished the handshake.
func TestForgedLateSpectatorGetsNoState(t *testing.T) {
	r := newSeatRig(t, 1)
	r.join()
	r.run(300)
	fake := r.net.Listen(netip.MustParseAddrPort("192.0.2.7:9"))
	hello := forgedHello(700, spectatorIndex, nil)
	fake.WriteTo(hello, seatHost)
	r.run(60 * 3)
	var buf [MaxPacket]byte
	n, kinds := 0, map[uint8]int{}
	for {
		m, _, ok := fake.ReadFrom(buf[:])
		if !ok {
			break
		}
		n++
		kinds[buf[3]]++
		if m > len(hello) {
			t.Errorf("a %d-byte answer (kind %d) to a %d-byte hello", m, buf[3], len(hello))
		}
	}
	st := r.peers[0].s.Stats()
	t.Logf("the forged spectator got %d datagrams (by kind: %v); the host sent %d states", n, kinds, st.StatesSent)
	if n == 0 || kinds[kindHello] != n || st.StatesSent != 0 || st.ChunksSent != 0 {
		t.Errorf("the forged spectator got %v; the host sent %d states, %d chunks", kinds, st.StatesSent, st.ChunksSent)
	}
	if c := r.host.Caller(SpectatorSeat(0)); c != SpectatorSeat(0) {
		t.Errorf("the seat is still held by %v", c)
	}
}

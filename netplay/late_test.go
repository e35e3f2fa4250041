package netplay

import (
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
		tweak: func(i int, c *Config) { c.EndTick = end }})
	sp := w.nodes[3]
	sp.off = true
	w.run(10 * time.Second)
	w.noErrors(t)
	host := w.nodes[0]
	if host.s.Tick() < 550 {
		t.Fatalf("the host is at tick %d after 10 s", host.s.Tick())
	}
	w.wake(sp)
	w.run(30 * time.Second)
	for i, n := range w.nodes {
		if n.err != engine.ErrStopped {
			t.Fatalf("node %d: %v, want engine.ErrStopped at the end", i, n.err)
		}
		if n.g.n != end || n.g.h != host.g.h {
			t.Fatalf("node %d ended at tick %d with hash %x; the host: %x", i, n.g.n, n.g.h, host.g.h)
		}
	}
	st, hs := sp.s.Stats(), host.s.Stats()
	from := sp.s.stTick
	t.Logf("the spectator loaded the state of tick %d (%d bytes), verified %v after its first hello; %d hashes compared; the host sent %d states",
		from, st.StateBytes, st.Catchup, st.Hashes, hs.StatesSent)
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
// Config.MaxState before it allocates anything for it, and stops naming
// both; the match goes on.
func TestLateSpectatorStateTooLarge(t *testing.T) {
	w := newWorld(t, worldOpts{spectators: 1, sim: NetSim{Latency: 20 * time.Millisecond}, seed: 22, pad: 1000,
		tweak: func(i int, c *Config) {
			if c.Spectate {
				c.MaxState = 1000
			}
		}})
	sp := w.nodes[2]
	sp.off = true
	w.run(3 * time.Second)
	w.wake(sp)
	w.run(2 * time.Second)
	if sp.err == nil || !strings.Contains(sp.err.Error(), "a state of 1048 bytes, over Config.MaxState (1000)") {
		t.Fatalf("the spectator: %v, want its host's state refused as too large", sp.err)
	}
	if sp.s.stBuf != nil || w.nodes[0].err != nil || w.nodes[1].err != nil {
		t.Errorf("the spectator allocated %d bytes; the players: %v, %v", cap(sp.s.stBuf), w.nodes[0].err, w.nodes[1].err)
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
	if sp.s.stTick < 100 || sp.s.Stats().Catchup == 0 {
		t.Fatalf("the spectator loaded the state of tick %d, caught up in %v", sp.s.stTick, sp.s.Stats().Catchup)
	}
	hashes := sp.s.Stats().Hashes
	allocs := testing.AllocsPerRun(3000, func() { w.step() })
	w.noErrors(t)
	t.Logf("%.3f allocations per frame; the spectator compared %d hashes meanwhile", allocs, sp.s.Stats().Hashes-hashes)
	if allocs != 0 || sp.s.Stats().Hashes == hashes {
		t.Errorf("%v allocations per frame, want 0; %d hashes compared", allocs, sp.s.Stats().Hashes-hashes)
	}
}

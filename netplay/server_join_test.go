package netplay

import (
	"testing"
	"time"
)

// A joiner alone may use the whole TransferRate: at 16 Mbit/s, its
// state goes at 2 MB a second (it went at most 32 slices a tick, 7.8
// Mbit/s, whatever the budget).
func TestJoinerUsesTheBudget(t *testing.T) {
	const rate = 16_000_000
	w, ct := newCountedSWorld(t, ServerConfig{Players: 2, EndTick: 600, TransferRate: rate}, 1_500_000, 4)
	w.join(t, 0, NetSim{Latency: 30 * time.Millisecond}, 0, nil)
	w.run(time.Second)
	j := w.join(t, 1, NetSim{Latency: 30 * time.Millisecond}, 0, nil)
	worst := uint64(0)
	for w.clock.now < 5*time.Second && !j.cl.Running() {
		before := ct.bytes[clientAddr(1)]
		w.run(250 * time.Millisecond)
		worst = max(worst, (ct.bytes[clientAddr(1)]-before)*4)
	}
	t.Logf("the most sent the joiner in a quarter second, a second's worth: %d bytes (budget %d)", worst, rate/8)
	if worst < rate/8*85/100 || worst > rate/8*11/10 {
		t.Errorf("the joiner was sent %d bytes a second at its fastest, want about the budget (%d)", worst, rate/8)
	}
}

// A joiner checks its first hash as its state loads: the rows from the
// state's tick and the server's hash came with the last slices, so it
// runs to the present at once rather than a round trip later (when they
// were sent only once the whole state was acknowledged: 182 ms). The
// rows that come with the last slices are those up to when they left;
// with a credit of 16 slices an acknowledgement they leave sooner, and
// the next rows come with the final inputs, a few ticks on (47 ms; 0 ms
// with a credit of 4, whose joiner loaded 145 ms later): within half a
// round trip.
func TestJoinerVerifiesAsItLoads(t *testing.T) {
	w, j := lateJoin(t, NetSim{Latency: 75500 * time.Microsecond}, 900, 300_000, 5)
	var loaded time.Duration
	for w.clock.now < 10*time.Second && j.cl.Stats().Catchup == 0 {
		w.step()
		if loaded == 0 && j.cl.Running() {
			loaded = w.clock.now
		}
	}
	verified := w.clock.now
	if loaded == 0 || j.cl.Stats().Catchup == 0 {
		t.Fatalf("the joiner loaded at %v, verified at %v: not in 10 s", loaded, verified)
	}
	t.Logf("loaded at %v, verified %v later (catch-up %v)", loaded, verified-loaded, j.cl.Stats().Catchup)
	if verified-loaded > 75*time.Millisecond {
		t.Errorf("verified %v after the state loaded, want within half the round trip of 151 ms", verified-loaded)
	}
	w.endsOnServer(t, 20*time.Second)
}

// A server sending a joiner its state, and the joiner taking its slices
// and rows, allocate nothing per step once the transfer's buffers are
// made: the slices sent twice, the tail's probes and the rows that come
// with the last slices included. (The step that loads the state inflates
// it, once a state: not counted.)
func TestJoinZeroAllocs(t *testing.T) {
	w, j := lateJoin(t, NetSim{Latency: 75500 * time.Microsecond, Loss: 0.04}, 900, 2_000_000, 6)
	for w.clock.now < 10*time.Second && j.cl.st.count < 64 {
		w.step()
	}
	sent := w.srv.srv.Stats().ChunksSent
	var allocs float64
	steps, rows := 0, 0
	for w.clock.now < 10*time.Second && !j.cl.Running() {
		n := testing.AllocsPerRun(1, func() { w.step() }) // a step to warm up, one measured
		if j.cl.Running() {
			break // this one loaded the state
		}
		allocs += n
		steps++
		rows = max(rows, j.cl.confirmed()-j.cl.st.tick)
	}
	st := w.srv.srv.Stats()
	t.Logf("%.0f allocations in %d steps measured; %d slices sent meanwhile, %d rows kept before the state loaded", allocs, steps, st.ChunksSent-sent, rows)
	if allocs != 0 {
		t.Errorf("%v allocations in %d steps while a state transfers, want 0", allocs, steps)
	}
	if st.ChunksSent-sent < 3000 || rows == 0 {
		t.Errorf("%d slices sent and %d rows kept while measuring: not a whole transfer", st.ChunksSent-sent, rows)
	}
}

// lateJoin is a match of two seats, ending at tick end, with a state of
// about state bytes: one client plays from the start, the other joins 2 s
// in; both on link.
func lateJoin(t *testing.T, link NetSim, end uint64, state int, seed uint64) (*sworld, *snode) {
	w := newSWorld(t, ServerConfig{Players: 2, EndTick: end}, state, seed)
	w.join(t, 0, link, 0, nil)
	w.run(2 * time.Second)
	return w, w.join(t, 1, link, 0, nil)
}

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
// were sent only once the whole state was acknowledged).
func TestJoinerVerifiesAsItLoads(t *testing.T) {
	link := NetSim{Latency: 75500 * time.Microsecond}
	w := newSWorld(t, ServerConfig{Players: 2, EndTick: 900}, 300_000, 5)
	w.join(t, 0, link, 0, nil)
	w.run(2 * time.Second)
	j := w.join(t, 1, link, 0, nil)
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
	if verified-loaded > 34*time.Millisecond {
		t.Errorf("verified %v after the state loaded, want within two ticks (the round trip is 151 ms)", verified-loaded)
	}
	w.endsOnServer(t, 20*time.Second)
}

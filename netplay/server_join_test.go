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

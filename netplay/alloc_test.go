package netplay

import (
	"testing"
	"time"
)

// badLink is the link of the allocation test and the benchmarks: about a
// rollback every other tick.
var badLink = NetSim{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Dup: 0.02, Reorder: 0.02}

// In steady state a frame allocates nothing, on either peer, rollbacks,
// resends, duplicates and the desync check included.
func TestZeroAllocs(t *testing.T) {
	w := newWorld(t, worldOpts{players: 3, sim: badLink, seed: 12, jitter: true})
	w.run(3 * time.Second) // warm up: the saved states reach their size
	before := w.nodes[0].s.Stats().Rollbacks + w.nodes[1].s.Stats().Rollbacks
	hashes := w.nodes[0].s.Stats().Hashes
	allocs := testing.AllocsPerRun(3000, func() { w.step() })
	w.noErrors(t)
	after := w.nodes[0].s.Stats().Rollbacks + w.nodes[1].s.Stats().Rollbacks
	t.Logf("%.3f allocations per frame; %d rollbacks, %d hashes compared meanwhile", allocs, after-before, w.nodes[0].s.Stats().Hashes-hashes)
	if allocs != 0 {
		t.Errorf("%v allocations per frame, want 0", allocs)
	}
	if after == before || w.nodes[0].s.Stats().Hashes == hashes {
		t.Error("no rollback or no hash compared while measuring")
	}
}

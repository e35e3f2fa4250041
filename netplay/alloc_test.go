package netplay

import (
	"runtime"
	"testing"
	"time"
)

// badLink is the link of the allocation test and the benchmarks: about a
// rollback every other tick.
var badLink = NetSim{Latency: 40 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.05, Dup: 0.02, Reorder: 0.02}

// allocs runs f runs times and returns how many allocations the runs
// made in all: testing.AllocsPerRun's average is a whole number, floored,
// so it reads 0 for up to runs-1 of them (a client that allocated once
// every 25 frames passed a test of 3,000).
func allocs(runs int, f func()) uint64 {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	f() // warm up, as AllocsPerRun does
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Mallocs
	for range runs {
		f()
	}
	runtime.ReadMemStats(&ms)
	return ms.Mallocs - before
}

// In steady state a frame allocates nothing, on either peer, rollbacks,
// resends, duplicates and the desync check included.
func TestZeroAllocs(t *testing.T) {
	w := newWorld(t, worldOpts{players: 3, sim: badLink, seed: 12, jitter: true})
	w.run(3 * time.Second) // warm up: the saved states reach their size
	before := w.nodes[0].s.Stats().Rollbacks + w.nodes[1].s.Stats().Rollbacks
	hashes := w.nodes[0].s.Stats().Hashes
	n := allocs(3000, func() { w.step() })
	w.noErrors(t)
	after := w.nodes[0].s.Stats().Rollbacks + w.nodes[1].s.Stats().Rollbacks
	t.Logf("%d allocations in 3,000 frames; %d rollbacks, %d hashes compared meanwhile", n, after-before, w.nodes[0].s.Stats().Hashes-hashes)
	if n != 0 {
		t.Errorf("%d allocations in 3,000 frames, want 0", n)
	}
	if after == before || w.nodes[0].s.Stats().Hashes == hashes {
		t.Error("no rollback or no hash compared while measuring")
	}
}

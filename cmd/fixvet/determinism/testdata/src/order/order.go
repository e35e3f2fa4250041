// Package order has what differs between runs, in a game's Update.
package order

import (
	crand "crypto/rand"
	"maps"
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"time"

	"github.com/fixstep/fixstep/engine"
)

type game struct {
	scores map[string]int
	order  []string
	rng    *randv2.Rand // seeded, owned, saved: fine
	rng1   *rand.Rand
	sum    int
	ch     chan int
	at     time.Duration
}

func newGame(seed uint64) *game {
	return &game{rng: randv2.New(randv2.NewPCG(seed, 0)), rng1: rand.New(rand.NewSource(int64(seed)))}
}

func (g *game) Update(t engine.Tick) error {
	for name := range g.scores { // want `range over a map in simulation code: its order is random on every run; range over sorted keys`
		g.order = append(g.order, name)
	}
	for k, v := range maps.All(g.scores) { // want `range over maps.All`
		g.sum += len(k) + v
	}
	for _, k := range slices.Collect(maps.Keys(g.scores)) { // want `range over maps.Keys`
		g.order = append(g.order, k)
	}
	for _, k := range slices.Sorted(maps.Keys(g.scores)) { // sorted: fine
		g.sum += g.scores[k]
	}
	start := time.Now()                  // want `time.Now reads the clock in simulation code: use the tick`
	g.at = time.Since(start)             // want `time.Since reads the clock`
	g.sum += randv2.IntN(6)              // want `rand.IntN uses the global random source: keep a seeded \*rand.Rand`
	g.sum += rand.Intn(6)                // want `rand.Intn uses the global random source`
	randv2.Shuffle(3, func(i, j int) {}) // want `rand.Shuffle uses the global random source`
	var b [8]byte
	crand.Read(b[:])                        // want `crypto/rand.Read is random on every run`
	g.sum += g.rng.IntN(6) + g.rng1.Intn(6) // the game's own: fine
	go g.count()                            // want `go statement in simulation code`
	select {                                // want `select in simulation code`
	case v := <-g.ch:
		g.sum += v
	default:
	}
	g.at += t.Time // the tick's time: fine
	return nil
}

func (g *game) count() { g.sum++ }

// Draw reads the clock and ranges maps freely.
func (g *game) Draw(engine.Frame) { // want Draw:`findings\(3\)`
	for range g.scores {
	}
	_ = time.Now()
	_ = randv2.Float64()
}

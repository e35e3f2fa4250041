// Command maingame builds its state in a constructor that touches no
// physics: in a command, a function that returns the game simulates.
package main

import (
	"math/rand/v2"
	"time"

	"github.com/fixstep/fixstep/engine"
)

type enemy struct{ x, y float64 }

type game struct {
	enemies []enemy
	rng     *rand.Rand
}

func newGame(seed uint64) *game {
	g := &game{rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), seed))} // want `time.Now reads the clock`
	for i := range 8 {
		g.enemies = append(g.enemies, enemy{x: 10 + 5*float64(i), y: g.rng.Float64()*4 - 2}) // want `10 \+ 5\*float64\(i\) may be fused` `g.rng.Float64\(\)\*4 - 2 may be fused`
	}
	return g
}

// options is not the game: its arithmetic is main's own.
func options(scale float64) float64 { return scale*scale + 1 }

func (g *game) Update(t engine.Tick) error { return nil }

func (g *game) Draw(f engine.Frame) {}

func main() {
	g := newGame(uint64(options(2)))
	_ = g
}

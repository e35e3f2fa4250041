// Command naive is a game written as people write Go, against the real
// engine: fixvet names its non-portable lines (see ../../main_test.go).
package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/physics"
)

type game struct {
	world physics.World
	balls []physics.BodyID
	rng   *rand.Rand
	drift float64
	seen  map[int]bool
}

func main() {
	g := &game{rng: rand.New(rand.NewPCG(1, 2)), seen: map[int]bool{}}
	if err := g.Start(1); err != nil {
		panic(err)
	}
	fmt.Println(engine.Fingerprint(engine.Config{}, g))
}

func (g *game) Start(players int) error {
	for i := range 10 {
		id, err := g.world.Add(physics.Body{Shape: physics.Circle, Radius: 0.5, Pos: physics.Vec2{X: 1 + 30*g.rng.Float64(), Y: float64(i)}})
		if err != nil {
			return err
		}
		g.balls = append(g.balls, id)
	}
	return nil
}

func (g *game) Input(t engine.Tick, dst []byte) {}

func (g *game) Update(t engine.Tick) error {
	g.drift = g.drift*1.0001 + 0.5
	for i, id := range g.balls {
		b := g.world.Body(id)
		b.Vel.X += math.Sin(float64(t.N) / 30)
		g.seen[i] = b.Pos.Y < 0
	}
	for i := range g.seen {
		_ = i
	}
	g.world.Step(t.DtSeconds())
	return nil
}

func (g *game) Save(dst []byte) []byte { return g.world.Snapshot(dst) }
func (g *game) Load(src []byte) error  { return g.world.Restore(src) }

func (g *game) Draw(f engine.Frame) {
	for _, id := range g.balls {
		b := g.world.Body(id)
		_ = b.Prev.X + (b.Pos.X-b.Prev.X)*f.Alpha + math.Sin(g.drift)
	}
}

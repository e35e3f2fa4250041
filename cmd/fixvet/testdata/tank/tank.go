// Command tank is a naive 4-tank game, written as the user wrote
// theirs, headless: it prints the world's hash after -ticks ticks of bots.
// fixvet names each of its non-portable lines (../../main_test.go).
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/physics"
)

type tank struct {
	id    physics.BodyID
	speed float64
	aim   float64
	cool  int
}

type game struct {
	world  physics.World
	tanks  []tank
	crates []physics.BodyID
	rng    *rand.Rand
	hits   map[int]int
}

func newGame(seed uint64) (*game, error) {
	g := &game{rng: rand.New(rand.NewPCG(seed, 7)), hits: map[int]int{}}
	g.world.Gravity = physics.Vec2{}
	for i := range 12 {
		x := 5 + 90*g.rng.Float64()
		y := 5 + 90*g.rng.Float64()
		id, err := g.world.Add(physics.Body{Shape: physics.Box, HalfW: 1 + 0.5*float64(i%3), HalfH: 1, Pos: physics.Vec2{X: x, Y: y}, Mass: 2})
		if err != nil {
			return nil, err
		}
		g.crates = append(g.crates, id)
	}
	for p := range 4 {
		a := float64(p) * math.Pi / 2
		id, err := g.world.Add(physics.Body{Shape: physics.Circle, Radius: 1.5, Pos: physics.Vec2{X: 50 + 30*math.Cos(a), Y: 50 + 30*math.Sin(a)}, FixedRotation: true})
		if err != nil {
			return nil, err
		}
		g.tanks = append(g.tanks, tank{id: id})
	}
	return g, nil
}

// bot is each tank's input: drive toward the nearest crate, aim at it.
func (g *game) bot(seed uint64, t engine.Tick, dst []byte) {
	for p := range g.tanks {
		me := g.world.Body(g.tanks[p].id).Pos
		best, bd := 0, math.Inf(1)
		for i, c := range g.crates {
			cp := g.world.Body(c).Pos
			dx, dy := cp.X-me.X, cp.Y-me.Y
			d := math.Sqrt(dx*dx + dy*dy)
			if d < bd {
				best, bd = i, d
			}
		}
		cp := g.world.Body(g.crates[best]).Pos
		ang := math.Atan2(cp.Y-me.Y, cp.X-me.X)
		dst[2*p] = byte(int8(100 * math.Min(1, bd/20)))
		dst[2*p+1] = byte(int(ang/(2*math.Pi)*256+256) % 256)
	}
}

func (g *game) Update(t engine.Tick) error {
	dt := 1.0 / 60
	for p := range g.tanks {
		tk := &g.tanks[p]
		in := t.Input.Player(0)[2*p:]
		target := float64(int8(in[0])) / 100 * 12
		tk.speed = tk.speed*0.9 + target*0.1
		tk.aim = float64(in[1]) / 256 * 2 * math.Pi
		b := g.world.Body(tk.id)
		b.Vel = physics.Vec2{X: tk.speed * math.Cos(tk.aim), Y: tk.speed * math.Sin(tk.aim)}
		if tk.cool > 0 {
			tk.cool--
			continue
		}
		for i, c := range g.crates {
			cb := g.world.Body(c)
			dx, dy := cb.Pos.X-b.Pos.X, cb.Pos.Y-b.Pos.Y
			if dx*dx+dy*dy < 36 {
				g.world.ApplyImpulse(c, physics.Vec2{X: dx*0.5 + 0.1*float64(p), Y: dy * 0.5})
				g.hits[i]++
				tk.cool = 30
			}
		}
	}
	for i, n := range g.hits {
		if n > 3 {
			g.world.Body(g.crates[i]).Vel.X += 0.5
		}
	}
	g.world.Step(dt)
	return nil
}

func main() {
	ticks := flag.Int("ticks", 1200, "ticks to run")
	flag.Parse()
	g, err := newGame(1)
	if err != nil {
		panic(err)
	}
	in := make([]byte, 8)
	for n := range *ticks {
		t := engine.Tick{N: uint64(n)}
		clear(in)
		g.bot(1, t, in)
		t.Input = engine.NewInputs(in, 8, 0)
		if err := g.Update(t); err != nil {
			panic(err)
		}
	}
	fmt.Printf("%016x\n", g.world.Hash())
}

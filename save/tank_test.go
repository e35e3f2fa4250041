package save_test

import (
	"math/rand/v2"

	"github.com/fixstep/fixstep/physics"
)

// newTankGame builds the arena: walls, four tanks, a few crates.
func newTankGame() *tankGame {
	g := &tankGame{}
	s := &g.state
	s.Rand = rand.NewPCG(1, 2)
	g.rng = rand.New(s.Rand)
	for _, w := range [][4]float64{{0, -11, 12, 1}, {0, 11, 12, 1}, {-11, 0, 1, 12}, {11, 0, 1, 12}} {
		mustAdd(&s.World, physics.Body{Kind: physics.Static, Shape: physics.Box, Pos: physics.Vec2{X: w[0], Y: w[1]}, HalfW: w[2], HalfH: w[3]})
	}
	for i := range s.Tanks {
		x := float64(i*6 - 9)
		s.Tanks[i] = tank{Alive: true, Aim: float64(i) / 4,
			Body: mustAdd(&s.World, physics.Body{Shape: physics.Box, HalfW: 0.6, HalfH: 0.4, Pos: physics.Vec2{X: x, Y: -5},
				LinearDamping: 2, AngularDamping: 2, Tag: int32(i)})}
	}
	for i := range 6 {
		mustAdd(&s.World, physics.Body{Shape: physics.Circle, Radius: 0.5, Pos: physics.Vec2{X: float64(i*3 - 8), Y: 4}, LinearDamping: 1, Tag: 100})
	}
	return g
}

// step is the game's tick: tanks drive and fire from the generator, bullets fly.
func (g *tankGame) step() {
	s := &g.state
	s.Tick++
	for i := range s.Tanks {
		t := &s.Tanks[i]
		if !t.Alive || !s.World.Alive(t.Body) {
			continue
		}
		t.Aim += float64(g.rng.IntN(5)-2) / 16
		s.World.ApplyImpulse(t.Body, physics.Vec2{X: float64(g.rng.IntN(3) - 1), Y: float64(g.rng.IntN(3) - 1)})
		if t.Cooldown--; t.Cooldown <= 0 && len(s.Bullets) < 256 {
			t.Cooldown = 20
			p := s.World.Body(t.Body).Pos
			s.Bullets = append(s.Bullets, bullet{Pos: p, Vel: physics.Vec2{X: t.Aim, Y: 1}, Owner: uint8(i), TTL: 90})
		}
	}
	for i := 0; i < len(s.Bullets); i++ {
		b := &s.Bullets[i]
		b.Pos = b.Pos.Add(b.Vel.Scale(1.0 / 60))
		if b.TTL--; b.TTL <= 0 {
			s.Tanks[b.Owner].Score++
			s.Bullets = append(s.Bullets[:i], s.Bullets[i+1:]...)
			i--
		}
	}
	s.World.Step(1.0 / 60)
}

func mustAdd(w *physics.World, b physics.Body) physics.BodyID {
	id, err := w.Add(b)
	if err != nil {
		panic(err)
	}
	return id
}

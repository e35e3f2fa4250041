// Package scene is the first target, written as a user would
// against the public physics API: fused set-up arithmetic and impulses,
// math.Sin and a map ranged in the tick.
package scene

import (
	"math"
	"math/rand/v2"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/physics"
)

type Scene struct {
	World  physics.World
	balls  []physics.BodyID
	rng    *rand.Rand
	spin   float64
	scores map[physics.BodyID]int
}

func New(seed uint64) *Scene {
	s := &Scene{rng: rand.New(rand.NewPCG(seed, 0)), scores: map[physics.BodyID]int{}}
	s.World.Gravity = physics.Vec2{Y: -10}
	for range 20 {
		id, _ := s.World.Add(physics.Body{Radius: 0.5, Pos: physics.Vec2{X: 1 + 30*s.rng.Float64(), Y: 5}}) // want `float product added without rounding: 1 \+ 30\*s.rng.Float64\(\)`
		s.balls = append(s.balls, id)
	}
	return s
}

func (s *Scene) Update(t engine.Tick) error {
	if t.N%60 == 0 {
		for _, id := range s.balls {
			r := s.rng.Float64()
			s.World.ApplyImpulse(id, physics.Vec2{X: 6*r - 3, Y: 0.1 + 0.2*r}) // want `6\*r - 3 may be fused` `0.1 \+ 0.2\*r may be fused`
		}
	}
	s.spin = math.Sin(float64(t.N) / 60) // want `math.Sin differs between builds`
	for id := range s.scores {           // want `range over a map in simulation code`
		if s.World.Body(id).Pos.Y < 0 {
			s.scores[id]++
		}
	}
	s.World.Step(t.DtSeconds())
	return nil
}

func (s *Scene) Draw(f engine.Frame) { // want Draw:`findings\(2\)`
	for _, b := range s.World.Bodies() {
		_ = b.Pos.X*f.Alpha + math.Sin(s.spin)
	}
}

// Package scenefixed is package scene with its products rounded, detmath's
// Sin and the map's keys sorted: nothing to report.
package scenefixed

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/fixstep/fixstep/detmath"
	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/physics"
)

type Scene struct {
	World  physics.World
	balls  []physics.BodyID
	rng    *rand.Rand
	spin   float64
	scores map[int]int
}

func New(seed uint64) *Scene {
	s := &Scene{rng: rand.New(rand.NewPCG(seed, 0)), scores: map[int]int{}}
	s.World.Gravity = physics.Vec2{Y: -10}
	for range 20 {
		id, _ := s.World.Add(physics.Body{Radius: 0.5, Pos: physics.Vec2{X: 1 + float64(30*s.rng.Float64()), Y: 5}})
		s.balls = append(s.balls, id)
	}
	return s
}

func (s *Scene) Update(t engine.Tick) error {
	if t.N%60 == 0 {
		for _, id := range s.balls {
			r := s.rng.Float64()
			s.World.ApplyImpulse(id, physics.Vec2{X: float64(6*r) - 3, Y: 0.1 + float64(0.2*r)})
		}
	}
	s.spin = detmath.Sin(float64(t.N) / 60)
	for _, i := range slices.Sorted(maps.Keys(s.scores)) {
		if s.World.Body(s.balls[i]).Pos.Y < 0 {
			s.scores[i]++
		}
	}
	s.World.Step(t.DtSeconds())
	return nil
}

// Draw may use math and unrounded products.
func (s *Scene) Draw(f engine.Frame) { // want Draw:`findings\(2\)`
	for _, b := range s.World.Bodies() {
		_ = b.Pos.X*f.Alpha + math.Sin(s.spin)
	}
}

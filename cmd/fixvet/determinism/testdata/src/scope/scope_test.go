package scope

import (
	"testing"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/physics"
)

type testGame struct{ x float64 }

// Tests are not checked, even a game's Update and set-up in them.
func (g *testGame) Update(t engine.Tick) error { g.x = g.x*g.x + 1; return nil }

func TestScope(t *testing.T) {
	var w physics.World
	w.Add(physics.Body{Radius: 0.5 + g2()*g2()})
}

func g2() float64 { return 2 }

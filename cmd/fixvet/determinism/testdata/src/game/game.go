// Package game calls into its own module's packages.
package game

import (
	"game/helpers"
	"game/rules"

	"github.com/fixstep/fixstep/engine"
)

type game struct{ x, v, s float64 }

func (g *game) Update(t engine.Tick) error {
	g.x = helpers.Move(g.x, g.v, t.DtSeconds()) // want `helpers.Move simulates: game/helpers/helpers.go:6:46: float product added without rounding: x \+ v\*dt`
	g.x = helpers.Wave(g.x)                     // want `helpers.Wave simulates: game/helpers/helpers.go:11:39: float product added`
	g.x = helpers.Exact(g.x)
	g.s = rules.Score(g.s, g.v, 2) // reported in package rules
	return nil
}

func (g *game) Draw(f engine.Frame) { // want Draw:`findings\(1\)`
	_ = helpers.Blend(g.x, g.v, f.Alpha)
}

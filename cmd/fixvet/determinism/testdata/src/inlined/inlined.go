// Package inlined has products that reach an addition through a call: the
// compiler inlines small functions, and then may fuse.
package inlined

import "github.com/fixstep/fixstep/engine"

type vec struct{ x, y float64 }

func (v vec) add(w vec) vec { return vec{v.x + w.x, v.y + w.y} }

func (v vec) scale(s float64) vec {
	return vec{v.x * s, v.y * s} // want `float product returned without rounding: a caller that adds v.x \* s may fuse it .*; round it: float64\(v.x \* s\)` `round it: float64\(v.y \* s\)`
}

func (v vec) len2() float64 { return v.x*v.x + v.y*v.y } // want `float product added`

func area(w, h float64) float64 { return w * h } // want `float product returned without rounding`

func mass(w, h float64) float64 { return float64(w * h) }

func (g *game) move(d float64) { g.x += d }

func (g *game) scaleBy(d float64) { g.x *= d }

type game struct {
	pos, vel vec
	x        float64
}

func (g *game) Update(t engine.Tick) error {
	dt := t.DtSeconds()
	g.pos = g.pos.add(g.vel.scale(dt))
	g.pos = g.pos.add(vec{g.vel.x * dt, 0}) // want `float product passed without rounding to g.pos.add, which adds it: .*; round it: float64\(g.vel.x \* dt\)`
	g.move(g.vel.x * dt)                    // want `float product passed without rounding to g.move`
	g.scaleBy(g.vel.x * dt)                 // scaleBy multiplies: fine
	g.move(float64(g.vel.y * dt))
	g.x = area(g.x, 2) + mass(g.x, 3) + g.pos.len2()
	return nil
}

// Draw does the same, unchecked.
func (g *game) Draw(f engine.Frame) { // want Draw:`findings\(1\)`
	_ = g.pos.add(vec{g.vel.x * f.Alpha, 0})
}

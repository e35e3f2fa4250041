// Package mathfuncs calls math functions from a game's Update.
package mathfuncs

import (
	"math"

	"github.com/fixstep/fixstep/detmath"
	"github.com/fixstep/fixstep/engine"
)

type game struct{ a, b float64 }

func (g *game) Update(t engine.Tick) error {
	x := g.a
	g.b = math.Sin(x)      // want `math.Sin differs between builds .*: use detmath.Sin \(github.com/fixstep/fixstep/detmath\)`
	g.b = math.Cos(x)      // want `use detmath.Cos`
	s, c := math.Sincos(x) // want `use detmath.SinCos`
	g.b = math.Atan2(s, c) // want `use detmath.Atan2`
	g.b = math.Atan(x)     // want `use detmath.Atan`
	g.b = math.Hypot(s, c) // want `use detmath.Hypot`
	g.b = math.Tan(x)      // want `math.Tan differs between builds .*detmath has no portable Tan`
	g.b = math.Exp(x)      // want `math.Exp differs`
	g.b = math.Log(x)      // want `math.Log differs`
	g.b = math.Pow(x, 1.5) // want `math.Pow differs`
	g.b = math.Cbrt(x)     // want `math.Cbrt differs`
	g.b = math.Asin(x)     // want `math.Asin differs`
	g.b = math.Log1p(x)    // want `math.Log1p differs`
	f := math.Exp2         // want `math.Exp2 differs`
	g.b = f(x)

	// Exact on every build.
	g.b = math.Sqrt(x) + math.Abs(x) + math.Floor(x) + math.Ceil(x) + math.Trunc(x) + math.Round(x)
	g.b = math.Min(x, 1) + math.Max(x, 0) + math.Copysign(x, -1) + math.FMA(x, x, 1) + math.Mod(x, 3)
	g.b = math.Float64frombits(math.Float64bits(x)) + math.Inf(1) + math.Pi
	// The portable ones.
	g.b = detmath.Sin(x) + detmath.Cos(x) + detmath.Atan2(x, 1) + detmath.Hypot(x, 1)
	return nil
}

// Draw may use anything: it does not feed the next tick.
func (g *game) Draw(f engine.Frame) { // want Draw:`findings\(2\)`
	_ = math.Sin(g.a) + math.Pow(g.b, f.Alpha)
}

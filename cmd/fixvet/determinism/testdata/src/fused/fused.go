// Package fused has every form of a fusable product, in a game's Update.
package fused

import "github.com/fixstep/fixstep/engine"

type meters float64

type game struct {
	x, y, z, w float64
	f32        float32
	m          meters
	n          int
	xs         []float64
	b          struct{ x, vx float64 }
}

func (g *game) Draw(engine.Frame) {}

func (g *game) Update(t engine.Tick) error {
	x, y, z := g.x, g.y, g.z
	g.w = x*y + z                 // want `float product added without rounding: x\*y \+ z may be fused .*; round the product: float64\(x\*y\) \+ z`
	g.w = z + x*y                 // want `round the product: z \+ float64\(x\*y\)`
	g.w = x*y - z                 // want `round the product: float64\(x\*y\) - z`
	g.w = z - x*y                 // want `round the product: z - float64\(x\*y\)`
	g.w = (x * y) + z             // want `round the product: \(float64\(x \* y\)\) \+ z`
	g.w += x * y                  // want `round the product: g.w \+= float64\(x \* y\)`
	g.w -= x * y                  // want `round the product: g.w -= float64\(x \* y\)`
	g.w = x*y + z*t.DtSeconds()   // want `round the product: float64\(x\*y\) \+ float64\(z\*t.DtSeconds\(\)\)`
	g.w = 1 + 30*g.rand()         // want `round the product: 1 \+ float64\(30\*g.rand\(\)\)`
	g.w = 6*g.rand() - 3          // want `round the product: float64\(6\*g.rand\(\)\) - 3`
	g.w = 0.1 + 0.2*float64(g.n)  // want `round the product: 0.1 \+ float64\(0.2\*float64\(g.n\)\)`
	g.w = -x*y + z                // want `round the product: float64\(-x\*y\) \+ z`
	g.w = z - -(x * y)            // want `round the product: z - -\(float64\(x \* y\)\)`
	g.w = x/2 + z                 // want `round the product: float64\(x/2\) \+ z`
	g.f32 = g.f32*g.f32 + 1       // want `round the product: float32\(g.f32\*g.f32\) \+ 1`
	g.m = g.m*2 + g.m             // want `round the product: meters\(g.m\*2\) \+ g.m`
	g.xs[0] = g.xs[1]*x + g.xs[2] // want `round the product: float64\(g.xs\[1\]\*x\) \+ g.xs\[2\]`

	p := x * y
	g.w = p + z   // want `float product added without rounding through p \(an unrounded product, line 39\): p \+ z`
	g.w = g.w - p // want `through p \(an unrounded product, line 39\)`
	v := g.y
	v *= 0.98
	g.x += v // want `through v \(an unrounded product, line 43\)`
	var q = x * z
	g.w = z - q // want `through q`

	// Not fusable: rounded products, constants, integers, other operations.
	g.w = float64(x*y) + z
	g.w += float64(x * y)
	g.w = float64(x*y) + float64(z*x)
	g.f32 = float32(x*y) + g.f32
	g.m = meters(g.m*2) + g.m
	const k = 2.5
	g.w = k*4 + z
	g.w = 1.5*2 + 1
	g.n = g.n*3 + 4
	g.w = x/3 + z
	g.w = (x + y) * z
	g.w = x * y * z
	g.w = x + y - z
	r := float64(x * y)
	g.w = r + z
	g.fields(x)
	g.w = lerp(g.x, g.y, 0.5)
	return nil
}

// fields holds products in fields, then adds them: the compiler forwards
// the stored value to the load, and may fuse.
func (g *game) fields(dt float64) {
	g.w = g.x + g.y // read before the product is stored: fine
	b := &g.b
	b.vx *= 0.98
	b.x += b.vx // want `through b.vx \(an unrounded product, line 74\)`
	g.y = g.x * dt
	g.z = g.z - g.y // want `through g.y \(an unrounded product, line 76\)`
}

// lerp is generic: a type parameter that may be a float is one.
func lerp[T ~float32 | ~float64](a, b, t T) T {
	return a + (b-a)*t // want `round the product: a \+ T\(\(b-a\)\*t\)`
}

// ilerp's type parameter is never a float.
func ilerp[T ~int | ~int64](a, b, t T) T { return a + (b-a)*t }

var _ = ilerp[int]

func (g *game) rand() float64 { return 0.5 }

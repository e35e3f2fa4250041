package gfx

import "math"

// turnOne is 1 in the fixed point of a turn's cosine and sine (a sprite
// instance's Cos and Sin): 2^14, so 1 is exact, every multiple of 1/16384
// up to 1 fits an int16, and q/16384 is exact in any float arithmetic,
// a GPU's included.
const turnOne = 1 << 14

// turnFastLimit bounds the angles turn reduces itself, in radians: past
// it (a body spinning for days), or for NaN and infinities, math.Sincos
// does.
const turnFastLimit = 1 << 20

// turn returns the cosine and sine of angle in units of 1/turnOne, each
// rounded to the nearest (halves up). The sprite shader and Polygon both
// turn by these, so a Rect and a Polygon of the same corners turn alike.
//
// It needs 1/32768 of precision, not math.Sincos's 1e-16, and is cheaper
// (a turned sprite fed costs about 10 ns less, BenchmarkSpriteFeed):
// angle less the nearest multiple of π/2 (π/2 in two parts, Cody and
// Waite's reduction) is within π/4 of 0, where the Taylor series of sine
// to x⁹ and of cosine to x¹⁰ are within 2e-9 of the truth (3e-5 of a
// unit); the quarter picks which is which and their signs, by index
// rather than by branches, which random angles mispredict. The result is
// math.Sincos's rounded the same way, or one unit from it at a rounding
// boundary (TestTurnMatchesSincos).
func turn(angle float32) (cos, sin int16) {
	a := float64(angle)
	if !(math.Abs(a) < turnFastLimit) {
		s, c := math.Sincos(a)
		return fixedTurn(c), fixedTurn(s)
	}
	const (
		pio2Hi = 1.5707963267341256e+00 // π/2's first 33 bits: k·pio2Hi is exact for |k| < 2^20
		pio2Lo = 6.077100506506192e-11  // π/2 - pio2Hi
	)
	// k is a·2/π rounded to the nearest, shifted to be positive so the
	// conversion's truncation is a floor.
	k := int64(a*(2/math.Pi)+(turnFastLimit+0.5)) - turnFastLimit
	x := a - float64(k)*pio2Hi - float64(k)*pio2Lo
	x2 := x * x
	s := x * (1 + x2*(-1.0/6+x2*(1.0/120+x2*(-1.0/5040+x2*(1.0/362880)))))
	c := 1 + x2*(-1.0/2+x2*(1.0/24+x2*(-1.0/720+x2*(1.0/40320+x2*(-1.0/3628800)))))
	// The quarter k mod 4: sin(x + kπ/2) is sin x, cos x, -sin x, -cos x
	// for k = 0, 1, 2, 3, and cos(x + kπ/2) is sin(x + (k+1)π/2).
	sc := [2]float64{s, c}
	sign := [2]float64{1, -1}
	return fixedTurn(sign[(k+1)>>1&1] * sc[(k+1)&1]), fixedTurn(sign[k>>1&1] * sc[k&1])
}

// fixedTurn rounds v, in -1..1, to the nearest multiple of 1/turnOne, in
// those units: shifted to be positive, so the conversion's truncation is
// a floor.
func fixedTurn(v float64) int16 {
	return int16(int32(v*turnOne+2*turnOne+0.5) - 2*turnOne)
}

// turnFloat returns a fixed-point cosine or sine as a float32, exactly.
func turnFloat(q int16) float32 { return float32(q) * (1.0 / turnOne) }

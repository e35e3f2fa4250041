package gfx

import "math"

// turnOne is 1 in the fixed point of a turn's cosine and sine (a sprite
// instance's Cos and Sin): 2^14, so 1 is exact, every multiple of 1/16384
// up to 1 fits an int16, and q/16384 is exact in any float arithmetic,
// a GPU's included.
const turnOne = 1 << 14

// turn returns the cosine and sine of angle in units of 1/turnOne, each
// rounded to the nearest (halves up). The sprite shader and Polygon both
// turn by these, so a Rect and a Polygon of the same corners turn alike.
func turn(angle float32) (cos, sin int16) {
	s, c := math.Sincos(float64(angle))
	return fixedTurn(c), fixedTurn(s)
}

// fixedTurn rounds v, in -1..1, to the nearest multiple of 1/turnOne, in
// those units: shifted to be positive, so the conversion's truncation is
// a floor.
func fixedTurn(v float64) int16 {
	return int16(int32(v*turnOne+2*turnOne+0.5) - 2*turnOne)
}

// turnFloat returns a fixed-point cosine or sine as a float32, exactly.
func turnFloat(q int16) float32 { return float32(q) * (1.0 / turnOne) }

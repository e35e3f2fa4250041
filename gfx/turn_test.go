package gfx

import (
	"math"
	"testing"
)

// TestTurnQuarters: no rotation and the quarter turns are exact (the
// float32 nearest π/2 is not, but its cosine rounds to 0), and values
// round to the nearest 1/16384, halves up.
func TestTurnQuarters(t *testing.T) {
	for _, c := range []struct {
		a        float32
		cos, sin int16
	}{
		{0, turnOne, 0}, {float32(math.Pi / 2), 0, turnOne}, {float32(math.Pi), -turnOne, 0},
		{float32(-math.Pi / 2), 0, -turnOne}, {float32(3 * math.Pi / 2), 0, -turnOne}, {float32(2 * math.Pi), turnOne, 0},
	} {
		if cos, sin := turn(c.a); cos != c.cos || sin != c.sin {
			t.Errorf("turn(%v) = %d, %d, want %d, %d", c.a, cos, sin, c.cos, c.sin)
		}
	}
	for _, c := range []struct {
		v    float64
		want int16
	}{{0.5 / turnOne, 1}, {0.49 / turnOne, 0}, {-0.5 / turnOne, 0}, {-0.51 / turnOne, -1}, {-1, -turnOne}, {1, turnOne}, {0.3, 4915}} {
		if got := fixedTurn(c.v); got != c.want {
			t.Errorf("fixedTurn(%v) = %d, want %d", c.v, got, c.want)
		}
		if f := turnFloat(c.want); float64(f) != float64(c.want)/turnOne {
			t.Errorf("turnFloat(%d) = %v, want %v", c.want, f, float64(c.want)/turnOne)
		}
	}
}

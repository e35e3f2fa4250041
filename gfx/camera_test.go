package gfx

import (
	"math"
	"testing"
)

func TestCamera2DScreenToWorld(t *testing.T) {
	cam := Camera2D{X: 10, Y: 5, Width: 16, Height: 9, Zoom: 2} // shows x 6..14, y 2.75..7.25
	for _, c := range []struct{ px, py, x, y float32 }{
		{0, 0, 6, 7.25},       // top left
		{1600, 900, 14, 2.75}, // bottom right
		{800, 450, 10, 5},     // the centre
		{400, 900, 8, 2.75},
	} {
		x, y := cam.ScreenToWorld(c.px, c.py, 1600, 900)
		if math.Abs(float64(x-c.x)) > 1e-5 || math.Abs(float64(y-c.y)) > 1e-5 {
			t.Errorf("ScreenToWorld(%v, %v) = (%v, %v), want (%v, %v)", c.px, c.py, x, y, c.x, c.y)
		}
		px, py := cam.WorldToScreen(x, y, 1600, 900)
		if math.Abs(float64(px-c.px)) > 1e-3 || math.Abs(float64(py-c.py)) > 1e-3 {
			t.Errorf("WorldToScreen(ScreenToWorld(%v, %v)) = (%v, %v)", c.px, c.py, px, py)
		}
	}
	// The matrix agrees: a world point maps to the same pixel.
	v := cam.Matrix().Mul4x1([4]float32{8, 2.75, 0, 1})
	if px := (v[0] + 1) / 2 * 1600; math.Abs(float64(px-400)) > 1e-3 {
		t.Errorf("the matrix puts x=8 at pixel %v, ScreenToWorld at 400", px)
	}
}

package view

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

// TestCameraFollowAndClamp: Follow closes half the gap per tick at 0.5, in
// exact steps; Clamp keeps a 16x9 view inside a 100x50 world, and centers
// a view wider than the world.
func TestCameraFollowAndClamp(t *testing.T) {
	c := Camera2D{Width: 16, Height: 9}
	var xs [4]float32
	for i := range xs {
		c.Follow(10, -4, 0.5)
		xs[i] = c.X
	}
	if xs != [4]float32{5, 7.5, 8.75, 9.375} || c.Y != -3.75 {
		t.Errorf("Follow at 0.5: x %v, y %v; want [5 7.5 8.75 9.375], -3.75", xs, c.Y)
	}
	c.Follow(10, -4, 7) // clamped to 1: a snap
	if c.X != 10 || c.Y != -4 {
		t.Errorf("Follow at 1: (%v, %v), want (10, -4)", c.X, c.Y)
	}
	for _, k := range []struct{ x, y, wantX, wantY, zoom float32 }{
		{-4, -3.75, 8, 4.5, 0},  // the bottom left corner
		{50, 25, 50, 25, 0},     // inside: unchanged
		{99, 49, 92, 45.5, 0},   // the top right corner
		{99, 49, 96, 47.75, 2},  // zoomed in 2x: an 8x4.5 view
		{99, 49, 50, 25, 0.125}, // zoomed out: 128x72, wider than the world
	} {
		c := Camera2D{X: k.x, Y: k.y, Width: 16, Height: 9, Zoom: k.zoom}
		c.Clamp(0, 0, 100, 50)
		if c.X != k.wantX || c.Y != k.wantY {
			t.Errorf("Clamp of (%v, %v) zoom %v: (%v, %v), want (%v, %v)", k.x, k.y, k.zoom, c.X, c.Y, k.wantX, k.wantY)
		}
	}
	var i Interpolated[Camera2D]
	i.Teleport(Camera2D{X: 0, Width: 16, Height: 9})
	i.Set(Camera2D{X: 10, Width: 16, Height: 9})
	if got := i.At(0.25); got != (Camera2D{X: 2.5, Width: 16, Height: 9}) {
		t.Errorf("interpolated camera %+v", got)
	}
}

// TestShake checks the shake's generator against SplitMix64's published
// first output for seed 0, its decay to exactly zero, that a seed replays
// and another differs, and that it allocates nothing.
func TestShake(t *testing.T) {
	s := Shake{Decay: 0.5}
	s.Kick(1)
	s.Step()
	// SplitMix64(0) starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4: the top
	// 24 bits of each, over 2^23, minus 1.
	wantX := float32(0xe220a8)/(1<<23) - 1
	wantY := float32(0x6e789e)/(1<<23) - 1
	if dx, dy := s.Offset(); dx != wantX || dy != wantY {
		t.Errorf("first offset (%v, %v), want (%v, %v)", dx, dy, wantX, wantY)
	}
	if s.Amplitude() != 0.5 {
		t.Errorf("amplitude %v after a step at decay 0.5, want 0.5", s.Amplitude())
	}
	// 2^-10 < 1e-3: steps 2..10 shake within 2^-(k-1), step 11 stops.
	for k := 2; k <= 10; k++ {
		s.Step()
		dx, dy := s.Offset()
		if lim := float32(1) / float32(int(1)<<(k-1)); dx == 0 || dx < -lim || dx >= lim || dy < -lim || dy >= lim {
			t.Errorf("step %d: offset (%v, %v) outside ±%v", k, dx, dy, lim)
		}
	}
	s.Step()
	if dx, dy := s.Offset(); dx != 0 || dy != 0 || s.Amplitude() != 0 {
		t.Errorf("step 11: offset (%v, %v), amplitude %v; want still", dx, dy, s.Amplitude())
	}
	cam := Camera2D{X: 3, Y: 4, Width: 16, Height: 9}
	if s.Apply(cam) != cam {
		t.Error("a still shake moved the camera")
	}

	run := func(seed uint64) (out [20]float32) {
		s := Shake{Seed: seed}
		s.Kick(2)
		for i := 0; i < len(out); i += 2 {
			s.Step()
			out[i], out[i+1] = s.Offset()
		}
		return out
	}
	if a, b := run(42), run(42); a != b {
		t.Errorf("seed 42 twice: %v and %v", a, b)
	}
	if a, b := run(42), run(43); a == b {
		t.Error("seeds 42 and 43 shake the same")
	}
	s = Shake{Seed: 7}
	if n := testing.AllocsPerRun(100, func() {
		s.Kick(0.5)
		s.Step()
		cam = s.Apply(cam)
	}); n != 0 {
		t.Errorf("a shake's tick allocates %v times", n)
	}
}

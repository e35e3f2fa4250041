package view

import "testing"

// TestFitLayout checks the rectangle of a logical screen in drawables of
// several shapes, and the mapping of pixels into it, with exact values.
func TestFitLayout(t *testing.T) {
	for _, c := range []struct {
		lw, lh, dw, dh int
		integer        bool
		want           Layout
	}{
		// 1000/320 = 3.125 < 700/180: full width, 562.5 rows rounded up,
		// centered with 68 rows above and 69 below.
		{320, 180, 1000, 700, false, Layout{320, 180, 1000, 700, 0, 68, 1000, 563}},
		// Whole numbers: 3, so 960x540 with 20 and 80 pixels of bar.
		{320, 180, 1000, 700, true, Layout{320, 180, 1000, 700, 20, 80, 960, 540}},
		// Pillarbox: a 4:3 screen in a 16:9 window, 4.5x, and 4x with
		// bars all round.
		{320, 240, 1920, 1080, false, Layout{320, 240, 1920, 1080, 240, 0, 1440, 1080}},
		{320, 240, 1920, 1080, true, Layout{320, 240, 1920, 1080, 320, 60, 1280, 960}},
		// A drawable smaller than the screen stays fractional (0.5) even
		// with integer: a scale of 0 would show nothing.
		{320, 180, 160, 100, true, Layout{320, 180, 160, 100, 0, 5, 160, 90}},
		// The identity: the layout of a window without a logical size.
		{1280, 720, 1280, 720, false, Layout{1280, 720, 1280, 720, 0, 0, 1280, 720}},
		// A minimized window's empty drawable: an empty rectangle.
		{320, 180, 0, 0, false, Layout{320, 180, 0, 0, 0, 0, 0, 0}},
	} {
		if got := FitLayout(c.lw, c.lh, c.dw, c.dh, c.integer); got != c.want {
			t.Errorf("FitLayout(%d, %d, %d, %d, %v) = %+v, want %+v", c.lw, c.lh, c.dw, c.dh, c.integer, got, c.want)
		}
	}
	if !FitLayout(64, 48, 64, 48, false).Identity() || FitLayout(64, 48, 128, 96, false).Identity() {
		t.Error("Identity is wrong")
	}

	l := FitLayout(320, 180, 1000, 700, true) // 3x at (20, 80)
	for _, p := range [][4]float32{
		{20, 80, 0, 0},       // the screen's top left corner
		{980, 620, 320, 180}, // its bottom right corner
		{500, 350, 160, 90},  // the center
		{17, 77, -1, -1},     // on the bars, up and left: not clamped
		{23, 83, 1, 1},
	} {
		if x, y := l.ToLogical(p[0], p[1]); x != p[2] || y != p[3] {
			t.Errorf("ToLogical(%v, %v) = (%v, %v), want (%v, %v)", p[0], p[1], x, y, p[2], p[3])
		}
	}
	if sx, sy := l.Scale(); sx != 1.0/3 || sy != 1.0/3 {
		t.Errorf("Scale() = %v, %v, want 1/3", sx, sy)
	}
	if x, y := (Layout{}).ToLogical(5, 7); x != 5 || y != 7 {
		t.Errorf("the empty layout moved a point to (%v, %v)", x, y)
	}
}

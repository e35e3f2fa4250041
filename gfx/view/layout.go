package view

import "math"

// Layout places a logical screen, the fixed resolution a game draws in, in
// a window's drawable: scaled to fit with its aspect kept, centered, with
// black bars on two sides where the aspects differ (letterboxing). The
// game then draws in logical pixels whatever the window's size, and the
// mouse is reported in them (gfx.WindowConfig.LogicalWidth).
//
// gfx.Window.Layout returns the window's current one; gfx.Scaler.BeginLayout
// renders into it. Without a logical size the layout is the identity: the
// logical screen is the drawable. The zero Layout is empty; FitLayout makes
// one.
type Layout struct {
	// LogicalW and LogicalH are the size the game draws in, in logical
	// pixels.
	LogicalW, LogicalH int
	// DrawW and DrawH are the window's drawable size, in pixels.
	DrawW, DrawH int
	// X, Y, W and H are the rectangle of the drawable that the logical
	// screen fills, in pixels, origin at the top left and y down as the
	// mouse reports it; the rest of the drawable is bars.
	X, Y, W, H int
}

// FitLayout fits a logicalW×logicalH screen into a drawW×drawH drawable: the
// largest scale that fits both ways, the scaled size rounded to whole
// pixels, centered (an odd pixel of bar goes right or below). With
// integer, the scale is rounded down to a whole number, so each logical
// pixel covers the same number of pixels (crisp pixel art, wider bars);
// when the drawable is smaller than the logical screen the scale stays
// fractional. A size of zero or less gives an empty rectangle.
func FitLayout(logicalW, logicalH, drawW, drawH int, integer bool) Layout {
	l := Layout{LogicalW: logicalW, LogicalH: logicalH, DrawW: drawW, DrawH: drawH}
	if logicalW <= 0 || logicalH <= 0 || drawW <= 0 || drawH <= 0 {
		return l
	}
	s := min(float64(drawW)/float64(logicalW), float64(drawH)/float64(logicalH))
	if integer && s >= 1 {
		s = math.Floor(s)
	}
	l.W = min(int(float64(logicalW)*s+0.5), drawW)
	l.H = min(int(float64(logicalH)*s+0.5), drawH)
	l.X, l.Y = (drawW-l.W)/2, (drawH-l.H)/2
	return l
}

// Identity reports whether the logical screen is the whole drawable, pixel
// for pixel: no scaling and no bars.
func (l Layout) Identity() bool {
	return l.X == 0 && l.Y == 0 && l.W == l.DrawW && l.H == l.DrawH &&
		l.LogicalW == l.DrawW && l.LogicalH == l.DrawH
}

// Scale returns logical pixels per drawable pixel, across and down: what
// a distance in pixels is multiplied by to be logical. It is (1, 1) for an
// empty layout.
func (l Layout) Scale() (sx, sy float32) {
	if l.W <= 0 || l.H <= 0 {
		return 1, 1
	}
	return float32(l.LogicalW) / float32(l.W), float32(l.LogicalH) / float32(l.H)
}

// ToLogical converts a point in drawable pixels, origin at the top left
// and y down, to logical pixels, likewise: (px-X)·LogicalW/W across. A
// point on a bar maps outside 0..LogicalW or 0..LogicalH; it is not
// clamped, so a drag that leaves the screen keeps its direction. An empty
// layout returns the point unchanged.
func (l Layout) ToLogical(px, py float32) (x, y float32) {
	if l.W <= 0 || l.H <= 0 {
		return px, py
	}
	x = (px - float32(l.X)) * float32(l.LogicalW) / float32(l.W)
	y = (py - float32(l.Y)) * float32(l.LogicalH) / float32(l.H)
	return x, y
}

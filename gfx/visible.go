//go:build cgo

package gfx

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// visible is the rectangle of camera units that a camera shows: text is
// clipped to it, so a glyph wholly outside never becomes a quad and a line
// stops costing where no later glyph can show. It is the bounding box of
// the clip square seen through the camera, so for a turned camera it holds
// a little more than the screen; all means no clipping.
type visible struct {
	minX, minY, maxX, maxY float32
	all                    bool
}

// visibleOf returns what projection·view matrix m shows, for sprites at depth
// 0. Only a 2D affine m (x and y not feeding clip w, which stays 1: every
// orthographic camera) is inverted; another matrix, or one that maps the
// plane to a line, shows "all".
func visibleOf(m mgl32.Mat4) visible {
	// Column-major: clip x = m[0]x + m[4]y + m[12], clip y = m[1]x + m[5]y
	// + m[13], clip w = m[3]x + m[7]y + m[15], at depth 0.
	if m[3] != 0 || m[7] != 0 || m[15] != 1 {
		return visible{all: true}
	}
	a, b, c, d := float64(m[0]), float64(m[4]), float64(m[1]), float64(m[5])
	det := a*d - b*c
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return visible{all: true}
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, corner := range [4][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		px, py := corner[0]-float64(m[12]), corner[1]-float64(m[13])
		x, y := (d*px-b*py)/det, (a*py-c*px)/det
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	// A margin of a thousandth of the view for rounding: a glyph on the
	// edge is kept.
	mx, my := (maxX-minX)/1024, (maxY-minY)/1024
	v := visible{minX: float32(minX - mx), minY: float32(minY - my), maxX: float32(maxX + mx), maxY: float32(maxY + my)}
	if math.IsNaN(minX+maxX+minY+maxY) || math.IsInf(minX+maxX+minY+maxY, 0) {
		return visible{all: true}
	}
	return v
}

// outside reports whether the rectangle from (x0, y0) to (x1, y1) is
// wholly outside v.
func (v *visible) outside(x0, y0, x1, y1 float32) bool {
	return !v.all && (x1 < v.minX || x0 > v.maxX || y1 < v.minY || y0 > v.maxY)
}

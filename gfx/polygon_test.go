//go:build cgo

package gfx

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
)

// regularPolygon returns the n vertices of a regular polygon of circumradius
// radius, counterclockwise, the first at angle phase.
func regularPolygon(n int, radius, phase float64) []mgl32.Vec2 {
	v := make([]mgl32.Vec2, n)
	for i := range v {
		s, c := math.Sincos(phase + 2*math.Pi*float64(i)/float64(n))
		v[i] = mgl32.Vec2{float32(radius * c), float32(radius * s)}
	}
	return v
}

// The polygon scene: 160×120 pixels under a camera 16×12 units wide, so a
// unit is 10 pixels.
const polyW, polyH = 160, 120

var polyCam = Camera2D{X: 8, Y: 6, Width: 16, Height: 12}

// polyTriangle is a right triangle whose right angle is at its bottom
// left: turned, it shows which way it turned.
var polyTriangle = []mgl32.Vec2{{-1.5, -1}, {1.5, -1}, {-1.5, 1.5}}

// Colors of the polygon scene.
var (
	polyRed   = RGBA(0.9, 0.2, 0.2, 1)
	polyGreen = RGBA(0.2, 0.8, 0.3, 1)
	polyBlue  = RGBA(0.2, 0.4, 0.9, 1)
)

// drawPolygonScene draws the golden polygon scene: a hexagon and a
// triangle turned by 30° in one batch; a white rect under a translucent
// octagon; a green pentagon between a red rect under it and a blue rect
// over it; then a diamond under the pixel camera, after a camera change.
func drawPolygonScene(r *Renderer) {
	r.BeginFrame(polyW, polyH, RGBA(0.1, 0.1, 0.15, 1))
	r.SetCamera(polyCam.Matrix())
	r.Polygon(3.5, 8.5, 0, regularPolygon(6, 2, 0), RGBA(1, 0.6, 0.1, 1))
	r.Polygon(9, 8.5, math.Pi/6, polyTriangle, RGBA(0.9, 0.9, 0.3, 1))
	r.Rect(3, 3, 3, 3, 0, White)
	r.Polygon(4.5, 3, 0, regularPolygon(8, 2, math.Pi/8), RGBA(0.2, 0.3, 1, 0.5))
	r.Rect(11.5, 3.5, 3, 3, 0, polyRed)
	r.Polygon(13, 4, 0, regularPolygon(5, 1.8, math.Pi/2), polyGreen)
	r.Rect(14, 2.5, 2.5, 2.5, 0, polyBlue)
	r.SetCamera(PixelCamera(polyW, polyH).Matrix())
	r.Polygon(148, 108, 0, []mgl32.Vec2{{0, -6}, {6, 0}, {0, 6}, {-6, 0}}, White)
	r.EndFrame()
}

// TestPolygonGolden draws polygons among rects under a camera and checks
// the image, the order of the shapes where they overlap, the way the
// triangle turned, the draw calls, and that Close leaves no GL object.
func TestPolygonGolden(t *testing.T) {
	openWindow(t, WindowConfig{Width: polyW, Height: polyH})
	var img *image.RGBA
	var drawn FrameStats
	var before, after int
	var err error
	onMain(func() {
		before = LiveObjects()
		var r *Renderer
		if r, err = NewRenderer(testConfig()); err != nil {
			return
		}
		drawPolygonScene(r)
		drawn = r.LastFrame()
		img = r.ReadPixels(polyW, polyH)
		err = r.Close()
		after = LiveObjects()
	})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "polygons", img)

	at := func(x, y float32) color.RGBA {
		px, py := polyCam.WorldToScreen(x, y, polyW, polyH)
		return img.RGBAAt(int(px), int(py))
	}
	near := func(got color.RGBA, want Color) bool {
		for i, w := range want {
			if abs(int([4]uint8{got.R, got.G, got.B, got.A}[i])-int(w)) > goldenTolerance {
				return false
			}
		}
		return true
	}
	for _, c := range []struct {
		what string
		x, y float32
		want Color
	}{
		{"the red rect alone", 10.5, 2.5, polyRed},
		{"the pentagon over the red rect", 12.5, 4, polyGreen},
		{"the blue rect over the pentagon", 14, 3, polyBlue},
		{"the blue rect alone", 14.8, 1.6, polyBlue},
		{"the pentagon alone", 13, 5.3, polyGreen},
		// Half-transparent blue over white: premultiplied blending.
		{"the octagon over the white rect", 3.9, 3, RGBA(0.6, 0.65, 1, 1)},
		// The triangle's right-angle corner (-1.5, -1), turned by 30°
		// counterclockwise, lands at (-0.8, -1.62) from its center; turned
		// clockwise it would be at (-1.8, -0.12).
		{"the triangle's turned corner", 9 - 0.7, 8.5 - 1.4, RGBA(0.9, 0.9, 0.3, 1)},
	} {
		if got := at(c.x, c.y); !near(got, c.want) {
			t.Errorf("%s at (%v, %v): %v, want %v", c.what, c.x, c.y, got, c.want)
		}
	}
	if got := img.RGBAAt(148, polyH-108); !near(got, White) {
		t.Errorf("the diamond under the pixel camera: %v, want white", got)
	}
	// Runs of one kind: the hexagon and triangle; the white rect; the
	// octagon; the red rect; the pentagon; the blue rect; the diamond.
	if drawn.DrawCalls != 7 || drawn.Polygons != 5 || drawn.Sprites != 3 {
		t.Errorf("drew %+v, want 7 draw calls, 5 polygons, 3 sprites", drawn)
	}
	if after != before {
		t.Errorf("%d GL objects alive after Close, want %d", after, before)
	}
}

// TestPolygonMatchesRect draws rects, then polygons of the same corners at
// the same places and angles, in both windings: the angle turns the same
// way, about the same center, and the pixels are the same (up to a few on
// turned edges, where the CPU's arithmetic and the GPU's round apart).
func TestPolygonMatchesRect(t *testing.T) {
	const w, h = 96, 96
	openWindow(t, WindowConfig{Width: w, Height: h})
	cases := []struct{ x, y, w, h, angle float32 }{
		{48, 48, 40, 20, 0},
		{30.3, 60.7, 17.5, 9.25, 0},
		{48, 48, 40, 20, math.Pi / 6},
		{50.5, 41.2, 60, 12, 2},
		{40, 52, 33, 21, -0.7},
	}
	for _, c := range cases {
		var rect, ccw, cw *image.RGBA
		err := withRenderer(func(r *Renderer) error {
			frame := func(draw func()) *image.RGBA {
				r.BeginFrame(w, h, Black)
				draw()
				r.EndFrame()
				return r.ReadPixels(w, h)
			}
			hw, hh := c.w/2, c.h/2
			corners := []mgl32.Vec2{{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}}
			reversed := []mgl32.Vec2{corners[3], corners[2], corners[1], corners[0]}
			rect = frame(func() { r.Rect(c.x, c.y, c.w, c.h, c.angle, White) })
			ccw = frame(func() { r.Polygon(c.x, c.y, c.angle, corners, White) })
			cw = frame(func() { r.Polygon(c.x, c.y, c.angle, reversed, White) })
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		allowed := 0
		if c.angle != 0 {
			allowed = 4
		}
		for name, img := range map[string]*image.RGBA{"counterclockwise": ccw, "clockwise": cw} {
			if d := differing(rect, img); d > allowed {
				t.Errorf("%+v: the %s polygon differs from the rect in %d pixels, want at most %d", c, name, d, allowed)
			}
		}
	}
}

// differing counts the pixels that differ between a and b.
func differing(a, b *image.RGBA) int {
	n := 0
	for i := 0; i < len(a.Pix); i += 4 {
		if [4]uint8(a.Pix[i:i+4]) != [4]uint8(b.Pix[i:i+4]) {
			n++
		}
	}
	return n
}

// TestPolygonVertexCounts: 3 to MaxPolygonVertices vertices draw; fewer,
// more, or none draw nothing and count nothing, and do not end the sprite
// batch around them.
func TestPolygonVertexCounts(t *testing.T) {
	const w, h = 64, 64
	openWindow(t, WindowConfig{Width: w, Height: h})
	for _, c := range []struct {
		n     int
		drawn bool
	}{{0, false}, {1, false}, {2, false}, {3, true}, {8, true}, {MaxPolygonVertices, true}, {MaxPolygonVertices + 1, false}, {1000, false}} {
		var got FrameStats
		var center color.RGBA
		err := withRenderer(func(r *Renderer) error {
			r.BeginFrame(w, h, Black)
			r.Rect(4, 4, 2, 2, 0, White)
			var verts []mgl32.Vec2
			if c.n > 0 {
				verts = regularPolygon(c.n, 20, 0.1)
			}
			r.Polygon(32, 32, 0, verts, White)
			r.Rect(60, 60, 2, 2, 0, White)
			got = r.EndFrame()
			center = r.ReadPixels(w, h).RGBAAt(32, 32)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		want := FrameStats{DrawCalls: 1, Sprites: 2}
		if c.drawn {
			want = FrameStats{DrawCalls: 3, Sprites: 2, Polygons: 1}
		}
		if got != want {
			t.Errorf("%d vertices: %+v, want %+v", c.n, got, want)
		}
		if lit := center.R == 255; lit != c.drawn {
			t.Errorf("%d vertices: center pixel %v, drawn %v, want %v", c.n, center, lit, c.drawn)
		}
	}
}

// TestPolygonFrameAllocs: a frame of hulls between rects, their vertices
// filled into an array on the stack as a game's Draw fills them from a
// physics.Hull, allocates nothing once the batches have grown.
func TestPolygonFrameAllocs(t *testing.T) {
	openWindow(t, WindowConfig{Width: 128, Height: 128})
	var allocs float64
	var drawn FrameStats
	err := withRenderer(func(r *Renderer) error {
		hull := regularPolygon(8, 3, 0)
		frame := func() {
			r.BeginFrame(128, 128, Black)
			r.SetCamera(Camera2D{X: 64, Y: 64, Width: 128, Height: 128}.Matrix())
			for i := range 500 {
				var verts [8]mgl32.Vec2
				n := 3 + i%6
				for j := range n {
					verts[j] = hull[j]
				}
				r.Polygon(float32(i%128), float32(i/4), float32(i)*0.1, verts[:n], White)
				if i%10 == 0 {
					r.Rect(float32(i%128), 3, 4, 4, 0, White)
				}
			}
			r.EndFrame()
		}
		for range 5 {
			frame()
		}
		allocs = testing.AllocsPerRun(50, frame)
		drawn = r.LastFrame()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if drawn.Polygons != 500 || drawn.DrawCalls != 101 {
		t.Errorf("drew %+v, want 500 polygons in 101 calls (51 runs of polygons, 50 rects between them)", drawn)
	}
	if allocs != 0 {
		t.Errorf("a frame of polygons allocates %v times, want 0", allocs)
	}
}

package gfx

import "time"

// Color is a premultiplied RGBA8 color, the form the GPU blends.
type Color [4]uint8

// RGBA returns the premultiplied color of straight components in 0..1.
func RGBA(r, g, b, a float32) Color {
	c := func(v float32) uint8 { return uint8(min(max(v, 0), 1)*255 + 0.5) }
	return Color{c(r * a), c(g * a), c(b * a), c(a)}
}

// Common colors.
var (
	White = Color{255, 255, 255, 255}
	Black = Color{0, 0, 0, 255}
)

// Sprite is one textured, tinted, rotated quad.
type Sprite struct {
	// X, Y is the center; W, H the size, in camera units.
	X, Y, W, H float32
	// Angle is the rotation in radians, counterclockwise; Depth the clip
	// depth in -1..1 (0 is fine for 2D). The rotation is drawn with its
	// cosine and sine rounded to a multiple of 1/16384 (a corner of a
	// sprite 1,000 units wide moves by 0.03 units at most), exactly at
	// every quarter turn.
	Angle, Depth float32
	// Color tints the texture (premultiplied).
	Color Color
	// U0, V0 and U1, V1 are the texture coordinates at the bottom-left and
	// top-right corners. All zero means the whole texture.
	U0, V0, U1, V1 float32
}

// FrameStats counts a frame's renderer work.
type FrameStats struct {
	// DrawCalls counts the frame's GL draw calls: one per sprite batch
	// (a run of up to 65,536 sprites on one atlas page under one camera),
	// one per polygon batch (a run of polygons, up to 262,144 vertices,
	// under one camera) and one per cube.
	DrawCalls int
	// Sprites counts the sprites, rects, circles and glyphs drawn; glyphs
	// that DrawText and Text clipped away are not counted.
	Sprites int
	// Polygons counts the polygons drawn (not those Polygon refused).
	Polygons int
	// GPUWaits counts the times the frame's CPU waited for the GPU: for a
	// part of a stream buffer the GPU still read (see Streaming), or, in
	// EndFrame, for the frame before the last to finish. GPUWait is how
	// long it waited in all. A frame bound by the GPU waits; one bound by
	// the CPU does not.
	GPUWaits int
	GPUWait  time.Duration
}

// Filter says how a texture is sampled when it is drawn at another size
// than its own or between pixels.
type Filter uint8

const (
	// Nearest takes the nearest pixel: crisp pixel art and text. It is the
	// zero value.
	Nearest Filter = iota
	// Linear blends the four nearest pixels: smooth scaling and rotation.
	Linear
)

// MaxPolygonVertices is the most vertices Polygon draws: a physics hull has
// at most 8, a circle-like polygon a few dozen. It bounds the work and the
// buffer growth one call can cause.
const MaxPolygonVertices = 64

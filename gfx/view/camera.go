package view

import "github.com/go-gl/mathgl/mgl32"

// Camera2D is an orthographic camera for 2D scenes: world units map to a
// view Width×Height units wide centered on (X, Y), Y up.
type Camera2D struct {
	X, Y          float32
	Width, Height float32
	// Zoom scales the view; zero means 1.
	Zoom float32
}

// Matrix returns the projection·view matrix.
func (c Camera2D) Matrix() mgl32.Mat4 {
	hw, hh := c.half()
	return mgl32.Ortho(c.X-hw, c.X+hw, c.Y-hh, c.Y+hh, -1, 1)
}

// ScreenToWorld converts a point in pixels of a w×h target, origin at the
// top left and y down as the mouse reports it (input.Mouse.PixelX and
// PixelY, in drawable pixels), to world units under this camera, y up:
// what the mouse points at.
func (c Camera2D) ScreenToWorld(px, py float32, w, h int) (x, y float32) {
	hw, hh := c.half()
	x = c.X - hw + px/float32(max(w, 1))*2*hw
	y = c.Y + hh - py/float32(max(h, 1))*2*hh
	return x, y
}

// WorldToScreen converts a point in world units to pixels of a w×h target,
// origin at the top left and y down: the inverse of ScreenToWorld.
func (c Camera2D) WorldToScreen(x, y float32, w, h int) (px, py float32) {
	hw, hh := c.half()
	px = (x - c.X + hw) / (2 * hw) * float32(w)
	py = (c.Y + hh - y) / (2 * hh) * float32(h)
	return px, py
}

// half returns the half extents of the view, zoom applied.
func (c Camera2D) half() (hw, hh float32) {
	z := c.Zoom
	if z == 0 {
		z = 1
	}
	return c.Width / (2 * z), c.Height / (2 * z)
}

// Lerp returns the camera a fraction alpha of the way from c to d, every
// field linearly: with Interpolated[Camera2D], a camera moved by Follow in
// the fixed update is drawn between ticks as the bodies are.
func (c Camera2D) Lerp(d Camera2D, alpha float32) Camera2D {
	l := func(a, b float32) float32 { return a + float32((b-a)*alpha) }
	return Camera2D{X: l(c.X, d.X), Y: l(c.Y, d.Y), Width: l(c.Width, d.Width), Height: l(c.Height, d.Height), Zoom: l(c.Zoom, d.Zoom)}
}

// Follow moves the camera's center a fraction smoothing (0..1, clamped) of
// the way to the target (tx, ty): 1 snaps to it, 0.1 closes a tenth of the
// gap, so the camera eases in behind a moving target and settles on a
// still one. Call it once per tick, in the fixed update: the fixed step
// makes the easing the same at any frame rate, and each step rounds its
// product (no fused multiply-add), so it is the same on every CPU too.
func (c *Camera2D) Follow(tx, ty, smoothing float32) {
	s := min(max(smoothing, 0), 1)
	c.X += float32((tx - c.X) * s)
	c.Y += float32((ty - c.Y) * s)
}

// Clamp moves the camera's center so that its view (zoom applied) stays
// inside the world rectangle from (minX, minY) to (maxX, maxY): no void
// shows past the world's edges. On an axis where the view is larger than
// the world, the view is centered on the world.
func (c *Camera2D) Clamp(minX, minY, maxX, maxY float32) {
	hw, hh := c.half()
	clamp := func(v, lo, hi, half float32) float32 {
		if hi-lo <= 2*half {
			return lo + (hi-lo)/2
		}
		return min(max(v, lo+half), hi-half)
	}
	c.X = clamp(c.X, minX, maxX, hw)
	c.Y = clamp(c.Y, minY, maxY, hh)
}

// Shake is a camera shake: a random offset of the camera, drawn from a
// seeded generator, that decays each tick. Kick it on a hit, Step it once
// per fixed tick, and add Offset to the camera when drawing (Apply). The
// offsets are a function of Seed and the sequence of calls alone: the
// same in a replay. It is plain values, so it snapshots with the game; it
// does not allocate. The zero value is still, and shakes with seed 0.
type Shake struct {
	// Seed seeds the offsets.
	Seed uint64
	// Decay is the fraction of the amplitude kept from one tick to the
	// next, in 0..1. Zero means 0.9 (a tenth left after 22 ticks).
	Decay float32

	amp    float32 // the amplitude, in world units
	n      uint64  // draws made
	dx, dy float32
}

// shakeRest is the amplitude, in world units, below which a shake stops.
const shakeRest = 1e-3

// Kick adds amplitude (world units: the largest offset along each axis)
// to the shake; kicks add up.
func (s *Shake) Kick(amplitude float32) { s.amp += max(amplitude, 0) }

// Step advances the shake by one tick: a new offset within the amplitude
// along each axis, then the amplitude decays. Below a thousandth of a
// world unit it stops, to an offset of exactly zero.
func (s *Shake) Step() {
	if s.amp < shakeRest {
		s.amp, s.dx, s.dy = 0, 0, 0
		return
	}
	s.dx = s.amp * s.unit()
	s.dy = s.amp * s.unit()
	d := s.Decay
	if d == 0 {
		d = 0.9
	}
	s.amp *= min(max(d, 0), 1)
}

// unit returns the next number of the shake's sequence, uniform in
// [-1, 1): SplitMix64 (Steele, Lea and Flood 2014) of the seed, its top 24
// bits as a float32 with no rounding.
func (s *Shake) unit() float32 {
	s.n++
	z := s.Seed + s.n*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float32(z>>40)/(1<<23) - 1
}

// Offset returns the current offset in world units.
func (s *Shake) Offset() (dx, dy float32) { return s.dx, s.dy }

// Amplitude returns the current amplitude in world units, 0 when still.
func (s *Shake) Amplitude() float32 { return s.amp }

// Apply returns c moved by the shake's offset: the camera to draw with.
// The camera itself (what Follow and Clamp work on) stays put, so a shake
// at the world's edge may show up to its amplitude past it.
func (s *Shake) Apply(c Camera2D) Camera2D {
	c.X += s.dx
	c.Y += s.dy
	return c
}

// PixelCamera returns a camera that maps one unit to one pixel of a w×h
// target, origin at the bottom left: for overlays and UI.
func PixelCamera(w, h int) Camera2D {
	return Camera2D{X: float32(w) / 2, Y: float32(h) / 2, Width: float32(w), Height: float32(h)}
}

// Camera3D is a perspective camera.
type Camera3D struct {
	Eye, Target, Up mgl32.Vec3
	// FovY is the vertical field of view in radians; zero means 60°.
	FovY float32
	// Near and Far clip distances; zero means 0.1 and 100.
	Near, Far float32
}

// Matrix returns the projection·view matrix for a target of the given
// aspect ratio (width/height).
func (c Camera3D) Matrix(aspect float32) mgl32.Mat4 {
	fov, near, far, up := c.FovY, c.Near, c.Far, c.Up
	if fov == 0 {
		fov = mgl32.DegToRad(60)
	}
	if near == 0 {
		near = 0.1
	}
	if far == 0 {
		far = 100
	}
	if up == (mgl32.Vec3{}) {
		up = mgl32.Vec3{0, 1, 0}
	}
	return mgl32.Perspective(fov, aspect, near, far).Mul4(mgl32.LookAtV(c.Eye, c.Target, up))
}

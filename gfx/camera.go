package gfx

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

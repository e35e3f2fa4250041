//go:build !cgo

// This file is gfx in a build without cgo (CGO_ENABLED=0): the same
// exported API, so a game's drawing code compiles unchanged, with no SDL
// and no OpenGL behind it. NewWindow, NewRenderer and every other
// constructor of a GL object return ErrNoCgo; nothing else can make a
// Window, a Renderer or a Face, so their methods are never reached with
// one and do nothing. The values that are plain data (WindowConfig, Color,
// Sprite, Sheet, Overlay, the cameras) are the same code in both builds.
// TestOneAPI (tools/nocgo) checks that this file and the cgo files
// export the same names with the same signatures.

package gfx

import (
	"image"
	"io/fs"
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// Available reports whether this build has a window and a renderer: false
// in a build without cgo, whose NewWindow and NewRenderer return ErrNoCgo.
const Available = false

// LiveObjects returns the number of GL objects alive: none without cgo.
func LiveObjects() int { return 0 }

// Buffer is an OpenGL buffer object; without cgo there is none.
type Buffer struct{}

// NewBuffer returns the zero Buffer: without cgo there is no GL.
func NewBuffer() Buffer { return Buffer{} }

// ID returns 0: without cgo there is no GL object.
func (b Buffer) ID() uint32 { return 0 }

// Delete does nothing without cgo.
func (b *Buffer) Delete() {}

// VertexArray is an OpenGL vertex array object; without cgo there is none.
type VertexArray struct{}

// NewVertexArray returns the zero VertexArray: without cgo there is no GL.
func NewVertexArray() VertexArray { return VertexArray{} }

// ID returns 0: without cgo there is no GL object.
func (v VertexArray) ID() uint32 { return 0 }

// Delete does nothing without cgo.
func (v *VertexArray) Delete() {}

// Texture is an image on the GPU; without cgo only the zero Texture, of
// size 0x0, exists.
type Texture struct{}

// NewTexture returns ErrNoCgo: without cgo there is no GL.
func NewTexture(w, h int, pix []byte, linear bool) (Texture, error) { return Texture{}, ErrNoCgo }

// ID returns 0: without cgo there is no GL object.
func (t Texture) ID() uint32 { return 0 }

// Size returns 0, 0: without cgo a texture holds nothing.
func (t Texture) Size() (w, h int) { return 0, 0 }

// Sub returns the zero Texture.
func (t Texture) Sub(x, y, w, h int) Texture { return Texture{} }

// Delete does nothing without cgo.
func (t *Texture) Delete() {}

// Framebuffer is an OpenGL framebuffer object; without cgo there is none.
type Framebuffer struct {
	// Color is the framebuffer's color texture.
	Color Texture
}

// NewFramebuffer returns ErrNoCgo: without cgo there is no GL.
func NewFramebuffer(w, h int) (Framebuffer, error) { return Framebuffer{}, ErrNoCgo }

// ID returns 0: without cgo there is no GL object.
func (f Framebuffer) ID() uint32 { return 0 }

// Delete does nothing without cgo.
func (f *Framebuffer) Delete() {}

// Program is a linked shader program; without cgo there is none.
type Program struct{}

// LoadProgram returns ErrNoCgo: without cgo there is no GL.
func LoadProgram(name string) (Program, error) { return Program{}, ErrNoCgo }

// NewProgram returns ErrNoCgo: without cgo there is no GL.
func NewProgram(vertName, vertSrc, fragName, fragSrc string) (Program, error) {
	return Program{}, ErrNoCgo
}

// ID returns 0: without cgo there is no GL object.
func (p Program) ID() uint32 { return 0 }

// Use does nothing without cgo.
func (p Program) Use() {}

// Uniform returns ErrNoCgo: without cgo there is no GL.
func (p Program) Uniform(name string) (int32, error) { return -1, ErrNoCgo }

// Delete does nothing without cgo.
func (p *Program) Delete() {}

// Window is an SDL window with an OpenGL context; a build without cgo has
// none: NewWindow returns ErrNoCgo.
type Window struct{}

// NewWindow returns ErrNoCgo: a build without cgo has no window. Run such
// a build headless.
func NewWindow(cfg WindowConfig) (*Window, error) { return nil, ErrNoCgo }

// LoadGamepadMappings returns ErrNoCgo: without cgo there is no SDL.
func LoadGamepadMappings(path string) (int, error) { return 0, ErrNoCgo }

// Driver returns "": without cgo there is no window.
func (w *Window) Driver() string { return "" }

// GLVersion returns "", "": without cgo there is no window.
func (w *Window) GLVersion() (version, renderer string) { return "", "" }

// Size returns 0, 0: without cgo there is no window.
func (w *Window) Size() (width, height int) { return 0, 0 }

// DrawableSize returns 0, 0: without cgo there is no window.
func (w *Window) DrawableSize() (width, height int) { return 0, 0 }

// Layout returns the zero Layout: without cgo there is no window.
func (w *Window) Layout() Layout { return Layout{} }

// Disturbed returns false: without cgo there is no window.
func (w *Window) Disturbed() bool { return false }

// Vsync returns the zero Vsync: without cgo there is no window.
func (w *Window) Vsync() Vsync { return Vsync{} }

// State returns Focused: without cgo there is no window.
func (w *Window) State() WindowState { return Focused }

// StateChanges returns 0: without cgo there is no window.
func (w *Window) StateChanges() int { return 0 }

// Fullscreen returns false: without cgo there is no window.
func (w *Window) Fullscreen() bool { return false }

// SetFullscreen returns ErrNoCgo: without cgo there is no window.
func (w *Window) SetFullscreen(on bool) error { return ErrNoCgo }

// Now returns 0: without cgo there is no window.
func (w *Window) Now() time.Duration { return 0 }

// Poll returns ErrNoCgo: without cgo there is no window.
func (w *Window) Poll() error { return ErrNoCgo }

// RequestQuit does nothing without cgo.
func (w *Window) RequestQuit() {}

// Suspended returns false: without cgo there is no window.
func (w *Window) Suspended() bool { return false }

// WaitEvent does nothing without cgo.
func (w *Window) WaitEvent(timeout time.Duration) {}

// EndTick does nothing without cgo.
func (w *Window) EndTick() {}

// Close does nothing without cgo.
func (w *Window) Close() error { return nil }

// Rumble does nothing without cgo.
func (w *Window) Rumble(slot int, low, high float32, ms int) {}

// Interrupt does nothing without cgo.
func (w *Window) Interrupt() {}

// Present returns ErrNoCgo: without cgo there is no window.
func (w *Window) Present() error { return ErrNoCgo }

// VsyncPeriod returns 0, 0: without cgo there is no window.
func (w *Window) VsyncPeriod() (total time.Duration, frames int64) { return 0, 0 }

// FramePeriod returns 0: without cgo there is no window.
func (w *Window) FramePeriod() time.Duration { return 0 }

// FirstPresent returns the zero time: without cgo there is no window.
func (w *Window) FirstPresent() time.Time { return time.Time{} }

// Renderer draws sprites, polygons, meshes and text; a build without cgo
// has none: NewRenderer returns ErrNoCgo.
type Renderer struct{}

// NewRenderer returns ErrNoCgo: a build without cgo has no GL.
func NewRenderer(cfg RendererConfig) (*Renderer, error) { return nil, ErrNoCgo }

// Streaming returns StreamAuto: without cgo nothing is streamed.
func (r *Renderer) Streaming() Streaming { return StreamAuto }

// CloseTime returns 0, 0: without cgo there is nothing to close.
func (r *Renderer) CloseTime() (total, gpuWait time.Duration) { return 0, 0 }

// LastFrame returns the zero FrameStats: without cgo nothing is drawn.
func (r *Renderer) LastFrame() FrameStats { return FrameStats{} }

// Pages returns 0: without cgo there is no atlas.
func (r *Renderer) Pages() int { return 0 }

// BeginFrame does nothing without cgo.
func (r *Renderer) BeginFrame(w, h int, clear Color) {}

// Target returns 0, 0: without cgo there is no target.
func (r *Renderer) Target() (w, h int) { return 0, 0 }

// SetTarget does nothing without cgo.
func (r *Renderer) SetTarget(w, h int) {}

// GPUTime returns 0: without cgo there is no GPU work.
func (r *Renderer) GPUTime() time.Duration { return 0 }

// SetCamera does nothing without cgo.
func (r *Renderer) SetCamera(m mgl32.Mat4) {}

// Draw does nothing without cgo.
func (r *Renderer) Draw(tex Texture, s Sprite) {}

// Rect does nothing without cgo.
func (r *Renderer) Rect(x, y, w, h, angle float32, c Color) {}

// Circle does nothing without cgo.
func (r *Renderer) Circle(x, y, radius float32, c Color) {}

// Polygon does nothing without cgo.
func (r *Renderer) Polygon(x, y, angle float32, verts []mgl32.Vec2, c Color) {}

// Flush does nothing without cgo.
func (r *Renderer) Flush() {}

// DrawCube does nothing without cgo.
func (r *Renderer) DrawCube(viewProj, model mgl32.Mat4, c Color) {}

// EndFrame returns the zero FrameStats: without cgo nothing is drawn.
func (r *Renderer) EndFrame() FrameStats { return FrameStats{} }

// ReadPixels returns an empty image: without cgo nothing is drawn.
func (r *Renderer) ReadPixels(w, h int) *image.RGBA { return image.NewRGBA(image.Rect(0, 0, 0, 0)) }

// Close does nothing without cgo.
func (r *Renderer) Close() error { return nil }

// SetMaxImageBytes does nothing without cgo.
func (r *Renderer) SetMaxImageBytes(n int64) {}

// MaxImageBytes returns DefaultMaxImageBytes.
func (r *Renderer) MaxImageBytes() int64 { return DefaultMaxImageBytes }

// TextureFromImage returns ErrNoCgo: without cgo there is no GL.
func (r *Renderer) TextureFromImage(img image.Image, f Filter) (Texture, error) {
	return Texture{}, ErrNoCgo
}

// LoadTexture returns ErrNoCgo: without cgo there is no GL.
func (r *Renderer) LoadTexture(fsys fs.FS, path string, f Filter) (Texture, error) {
	return Texture{}, ErrNoCgo
}

// Screenshot returns ErrNoCgo: without cgo nothing is drawn.
func (r *Renderer) Screenshot(path string, w, h int) error { return ErrNoCgo }

// DrawText does nothing without cgo.
func (r *Renderer) DrawText(f *Face, x, y float32, text string, c Color, a Align) {}

// DrawTextBytes does nothing without cgo.
func (r *Renderer) DrawTextBytes(f *Face, x, y float32, text []byte, c Color, a Align) {}

// DebugText does nothing without cgo.
func (r *Renderer) DebugText(x, y, scale float32, text []byte, c Color) {}

// NewFace returns ErrNoCgo: without cgo there is no atlas to rasterize
// into.
func (r *Renderer) NewFace(cfg FaceConfig) (*Face, error) { return nil, ErrNoCgo }

// Face is a font rasterized at one size; a build without cgo has none:
// Renderer.NewFace returns ErrNoCgo.
type Face struct{}

// Measure returns 0, 0: without cgo there is no face.
func (f *Face) Measure(text string) (w, h float32) { return 0, 0 }

// MeasureBytes returns 0, 0: without cgo there is no face.
func (f *Face) MeasureBytes(text []byte) (w, h float32) { return 0, 0 }

// Size returns 0: without cgo there is no face.
func (f *Face) Size() float64 { return 0 }

// Ascent returns 0: without cgo there is no face.
func (f *Face) Ascent() float32 { return 0 }

// Descent returns 0: without cgo there is no face.
func (f *Face) Descent() float32 { return 0 }

// LineHeight returns 0: without cgo there is no face.
func (f *Face) LineHeight() float32 { return 0 }

// Advance returns 0: without cgo there is no face.
func (f *Face) Advance(r rune) float32 { return 0 }

// Close does nothing without cgo.
func (f *Face) Close() error { return nil }

// Delete does nothing without cgo.
func (f *Face) Delete() {}

// Scaler renders at a scaled resolution and upscales; without cgo it has
// no framebuffer: Begin and BeginLayout return ErrNoCgo.
type Scaler struct {
	// Nearest upscales with nearest filtering instead of linear.
	Nearest bool
}

// Begin returns ErrNoCgo: without cgo there is no GL.
func (s *Scaler) Begin(w, h int, scale float32, samples int) (rw, rh int, err error) {
	return 0, 0, ErrNoCgo
}

// BeginLayout returns ErrNoCgo: without cgo there is no GL.
func (s *Scaler) BeginLayout(l Layout, scale float32, samples int) (rw, rh int, err error) {
	return 0, 0, ErrNoCgo
}

// Size returns 0, 0: without cgo nothing is rendered.
func (s *Scaler) Size() (w, h int) { return 0, 0 }

// End does nothing without cgo.
func (s *Scaler) End() {}

// Delete does nothing without cgo.
func (s *Scaler) Delete() {}

//go:build cgo

package gfx

import (
	"fmt"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// Scaler is dynamic resolution: it renders the scene into an offscreen
// framebuffer at a fraction of the window's size and upscales it to the
// window, so a renderer that is fill-bound draws fewer pixels under load.
// The overlay and text are drawn after End, at full resolution. With MSAA
// it renders into a multisampled framebuffer and resolves it. At scale 1
// without MSAA it renders straight to the window: no copy at all.
//
// It also renders a logical screen (a fixed resolution, see Layout and
// WindowConfig.LogicalWidth): BeginLayout renders at the logical size
// times the scale and End upscales into the layout's rectangle, with black
// bars around it. Nearest keeps pixel art crisp there too.
//
// A Scaler owns its framebuffers; Delete frees them. The zero value is
// ready.
//
// The order of a frame, each call once (see Example_scaler):
//
//	rw, rh, err := scaler.Begin(w, h, scale, msaa) // bind the offscreen target
//	r.BeginFrame(rw, rh, clear)                    // viewport, clear, pixel camera
//	...draw the world...
//	r.Flush()                                      // the world's batches, into the target
//	scaler.End()                                   // resolve/upscale into the window
//	r.SetTarget(w, h)                              // full-size viewport, pixel camera
//	...draw the HUD and the overlay at full resolution...
//	r.EndFrame()
type Scaler struct {
	// Nearest upscales with nearest filtering instead of linear (pixel art,
	// tests).
	Nearest bool

	fb      Framebuffer // single-sampled, at the scaled size
	ms      msFramebuffer
	w, h    int    // the window's drawable size
	sw, sh  int    // the render size
	box     Layout // where the frame goes in the window
	active  bool
	samples int
}

// Begin starts rendering a frame for a w×h window at scale (clamped to
// [0.25, 1]) with MSAA samples (0 for none). It binds the target and sets
// the viewport, and returns the render size to pass to
// Renderer.BeginFrame. It is BeginLayout with the identity layout of the
// window.
func (s *Scaler) Begin(w, h int, scale float32, samples int) (rw, rh int, err error) {
	return s.BeginLayout(FitLayout(w, h, w, h, false), scale, samples)
}

// BeginLayout starts rendering a frame of l's logical screen at scale
// (clamped to [0.25, 1]) with MSAA samples (0 for none; MSAA is used at
// scale 1 only): the render size is the logical size times scale, and End
// upscales it into l's rectangle of the drawable, bars black. It binds the
// target and sets the viewport, and returns the render size to pass to
// Renderer.BeginFrame; a pixel camera of that size, or any Camera2D, then
// draws in the logical screen. With the identity layout, scale 1 and no
// MSAA it renders straight to the window.
func (s *Scaler) BeginLayout(l Layout, scale float32, samples int) (rw, rh int, err error) {
	scale = min(max(scale, 0.25), 1)
	s.w, s.h, s.box = l.DrawW, l.DrawH, l
	lw, lh := max(l.LogicalW, 1), max(l.LogicalH, 1)
	s.sw, s.sh = max(int(float32(lw)*scale+0.5), 1), max(int(float32(lh)*scale+0.5), 1)
	s.active, s.samples = false, 0
	switch {
	case scale == 1 && samples > 0:
		if s.ms.w != s.sw || s.ms.h != s.sh || s.ms.samples != samples {
			s.ms.Delete()
			if s.ms, err = newMSFramebuffer(s.sw, s.sh, samples); err != nil {
				return s.sw, s.sh, err
			}
		}
		if !l.Identity() { // resolved 1:1 into fb, then scaled into the box
			if err := s.sizeFB(); err != nil {
				return s.sw, s.sh, err
			}
		}
		gl.BindFramebuffer(gl.FRAMEBUFFER, s.ms.id)
		s.active, s.samples = true, samples
	case scale < 1 || !l.Identity():
		if err := s.sizeFB(); err != nil {
			return s.sw, s.sh, err
		}
		gl.BindFramebuffer(gl.FRAMEBUFFER, s.fb.id)
		s.active = true
	default:
		gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	}
	gl.Viewport(0, 0, int32(s.sw), int32(s.sh))
	return s.sw, s.sh, nil
}

// sizeFB makes the single-sampled framebuffer the render size.
func (s *Scaler) sizeFB() (err error) {
	if fw, fh := s.fb.Color.Size(); s.fb.id == 0 || fw != s.sw || fh != s.sh {
		s.fb.Delete()
		s.fb, err = NewFramebuffer(s.sw, s.sh)
	}
	return err
}

// Size returns the render size of the current frame.
func (s *Scaler) Size() (w, h int) { return s.sw, s.sh }

// End resolves or upscales the frame into the window (into the layout's
// rectangle, the bars cleared to black) and leaves the window bound with a
// full-size viewport, ready for the overlay.
func (s *Scaler) End() {
	if s.active {
		b := s.box
		x0, y0 := int32(b.X), int32(b.DrawH-b.Y-b.H) // GL's rows run bottom to top
		x1, y1 := x0+int32(b.W), y0+int32(b.H)
		filter := uint32(gl.LINEAR)
		if s.Nearest {
			filter = gl.NEAREST
		}
		src := s.fb.id
		if s.samples > 0 {
			src = s.ms.id
			if b.Identity() {
				filter = gl.NEAREST // a resolve must be 1:1
			} else { // resolve into fb, which is scaled below
				gl.BindFramebuffer(gl.READ_FRAMEBUFFER, s.ms.id)
				gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, s.fb.id)
				gl.BlitFramebuffer(0, 0, int32(s.sw), int32(s.sh), 0, 0, int32(s.sw), int32(s.sh), gl.COLOR_BUFFER_BIT, gl.NEAREST)
				src = s.fb.id
			}
		}
		gl.BindFramebuffer(gl.DRAW_FRAMEBUFFER, 0)
		if b.X != 0 || b.Y != 0 || b.W != b.DrawW || b.H != b.DrawH {
			gl.ClearColor(0, 0, 0, 1) // the bars; Renderer.BeginFrame sets its own
			gl.Clear(gl.COLOR_BUFFER_BIT)
		}
		gl.BindFramebuffer(gl.READ_FRAMEBUFFER, src)
		gl.BlitFramebuffer(0, 0, int32(s.sw), int32(s.sh), x0, y0, x1, y1, gl.COLOR_BUFFER_BIT, filter)
	}
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	gl.Viewport(0, 0, int32(s.w), int32(s.h))
	s.active = false
}

// Delete frees the framebuffers; the Scaler can be used again after.
func (s *Scaler) Delete() {
	s.fb.Delete()
	s.ms.Delete()
}

// msFramebuffer is a multisampled framebuffer of renderbuffers.
type msFramebuffer struct {
	id, color, depth uint32
	w, h, samples    int
}

func newMSFramebuffer(w, h, samples int) (msFramebuffer, error) {
	f := msFramebuffer{w: w, h: h, samples: samples}
	f.id = gen(gl.GenFramebuffers)
	f.color = gen(gl.GenRenderbuffers)
	f.depth = gen(gl.GenRenderbuffers)
	gl.BindRenderbuffer(gl.RENDERBUFFER, f.color)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(samples), gl.RGBA8, int32(w), int32(h))
	gl.BindRenderbuffer(gl.RENDERBUFFER, f.depth)
	gl.RenderbufferStorageMultisample(gl.RENDERBUFFER, int32(samples), gl.DEPTH_COMPONENT24, int32(w), int32(h))
	gl.BindFramebuffer(gl.FRAMEBUFFER, f.id)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.RENDERBUFFER, f.color)
	gl.FramebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, f.depth)
	status := gl.CheckFramebufferStatus(gl.FRAMEBUFFER)
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	if status != gl.FRAMEBUFFER_COMPLETE {
		f.Delete()
		return f, fmt.Errorf("gfx: %dx MSAA framebuffer %dx%d incomplete: status 0x%x", samples, w, h, status)
	}
	return f, glError("MSAA framebuffer")
}

func (f *msFramebuffer) Delete() {
	if f.id != 0 {
		gl.DeleteFramebuffers(1, &f.id)
		gl.DeleteRenderbuffers(1, &f.color)
		gl.DeleteRenderbuffers(1, &f.depth)
		live.Add(-3)
	}
	*f = msFramebuffer{}
}

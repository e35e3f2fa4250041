//go:build cgo

package gfx

import (
	"image"
	"image/color"
	"testing"

	"github.com/go-gl/gl/v3.3-core/gl"
	"github.com/veandco/go-sdl2/sdl"

	"github.com/fixstep/fixstep/input"
)

// TestLogicalMouse pushes mouse motion through SDL into a 160x100 window
// with a 40x30 logical screen at 3x (120x90 at (20, 5)): input.State sees
// logical pixels, on the screen and over a bar.
func TestLogicalMouse(t *testing.T) {
	in := &input.State{}
	w := openWindow(t, WindowConfig{Width: 160, Height: 100, LogicalWidth: 40, LogicalHeight: 30, IntegerScale: true, Input: in})
	var l Layout
	var got [4]input.Mouse
	onMain(func() {
		l = w.Layout()
		for i, e := range []sdl.MouseMotionEvent{
			{X: 20, Y: 5, XRel: 3, YRel: -6}, // the top left corner
			{X: 140, Y: 95},                  // the bottom right corner
			{X: 80, Y: 50},                   // the center
			{X: 17, Y: 2},                    // the bars, one logical pixel out
		} {
			e.Type = sdl.MOUSEMOTION
			pushEvent(e)
			w.Poll()
			got[i] = in.Mouse()
			w.EndTick()
		}
	})
	if want := (Layout{LogicalW: 40, LogicalH: 30, DrawW: 160, DrawH: 100, X: 20, Y: 5, W: 120, H: 90}); l != want {
		t.Fatalf("Layout() = %+v, want %+v", l, want)
	}
	for i, want := range []input.Mouse{
		{X: 0, Y: 0, PixelX: 0, PixelY: 0, DX: 1, DY: -2},
		{X: 40, Y: 30, PixelX: 40, PixelY: 30},
		{X: 20, Y: 15, PixelX: 20, PixelY: 15},
		{X: -1, Y: -1, PixelX: -1, PixelY: -1},
	} {
		if got[i] != want {
			t.Errorf("motion %d: mouse %+v, want %+v", i, got[i], want)
		}
	}
}

// TestMouseWithoutLogical: without a logical size the mouse stays in
// window coordinates and drawable pixels (the same under offscreen).
func TestMouseWithoutLogical(t *testing.T) {
	in := &input.State{}
	w := openWindow(t, WindowConfig{Width: 160, Height: 100, Input: in})
	onMain(func() {
		pushEvent(sdl.MouseMotionEvent{Type: sdl.MOUSEMOTION, X: 17, Y: 2, XRel: 3, YRel: -6})
		w.Poll()
	})
	if m, want := in.Mouse(), (input.Mouse{X: 17, Y: 2, PixelX: 17, PixelY: 2, DX: 3, DY: -6}); m != want {
		t.Errorf("mouse %+v, want %+v", m, want)
	}
	if l := w.Layout(); !l.Identity() || l.W != 160 || l.H != 100 {
		t.Errorf("Layout() = %+v, want the identity of 160x100", l)
	}
}

// drawLogical draws a 40x30 logical screen: a blue ground, a white 10x10
// square at (5, 5) from the bottom left, a red pixel at the top left and a
// green one at the bottom right.
func drawLogical(r *Renderer, s *Scaler, l Layout, samples int) error {
	rw, rh, err := s.BeginLayout(l, 1, samples)
	if err != nil {
		return err
	}
	r.BeginFrame(rw, rh, RGBA(0.2, 0.3, 0.8, 1))
	r.Rect(10, 10, 10, 10, 0, White)
	r.Rect(0.5, 29.5, 1, 1, 0, RGBA(1, 0, 0, 1))
	r.Rect(39.5, 0.5, 1, 1, 0, RGBA(0, 1, 0, 1))
	r.Flush()
	s.End()
	r.EndFrame()
	return nil
}

// TestGoldenLetterbox renders a 40x30 logical screen into a 160x100
// window: fractional (3.33x, 133x100 at (13, 0): bars left and right) and
// integer (3x, 120x90 at (20, 5): bars all round). The bars are black to
// the last pixel, and the screen's corner pixels land where the layout
// says.
func TestGoldenLetterbox(t *testing.T) {
	var (
		black = color.RGBA{0, 0, 0, 255}
		white = color.RGBA{255, 255, 255, 255}
		red   = color.RGBA{255, 0, 0, 255}
		green = color.RGBA{0, 255, 0, 255}
		blue  = color.RGBA{51, 77, 204, 255}
	)
	type probe struct {
		x, y int
		want color.RGBA
	}
	for _, c := range []struct {
		name    string
		integer bool
		layout  Layout
		probes  []probe
	}{
		{"letterbox", false, Layout{LogicalW: 40, LogicalH: 30, DrawW: 160, DrawH: 100, X: 13, Y: 0, W: 133, H: 100}, []probe{
			{13, 0, red}, {15, 2, red}, {16, 0, blue}, {145, 99, green}, {143, 97, green}, {142, 97, blue}, {143, 96, blue},
		}},
		{"letterbox_integer", true, Layout{LogicalW: 40, LogicalH: 30, DrawW: 160, DrawH: 100, X: 20, Y: 5, W: 120, H: 90}, []probe{
			{20, 5, red}, {22, 7, red}, {23, 5, blue}, {20, 8, blue},
			{137, 92, green}, {139, 94, green}, {136, 94, blue},
			{35, 50, white}, {64, 79, white}, {34, 50, blue}, {65, 79, blue}, {35, 49, blue}, {64, 80, blue},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := openWindow(t, WindowConfig{Width: 160, Height: 100, LogicalWidth: 40, LogicalHeight: 30, IntegerScale: c.integer})
			var img *image.RGBA
			var l Layout
			err := withRenderer(func(r *Renderer) error {
				l = w.Layout()
				s := &Scaler{Nearest: true}
				defer s.Delete()
				if err := drawLogical(r, s, l, 0); err != nil {
					return err
				}
				img = r.ReadPixels(160, 100)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if l != c.layout {
				t.Fatalf("Layout() = %+v, want %+v", l, c.layout)
			}
			bars := 0
			for y := range 100 {
				for x := range 160 {
					if x >= l.X && x < l.X+l.W && y >= l.Y && y < l.Y+l.H {
						continue
					}
					bars++
					if got := img.RGBAAt(x, y); got != black {
						t.Fatalf("bar pixel (%d, %d) = %v, want black", x, y, got)
					}
				}
			}
			for _, p := range c.probes {
				if got := img.RGBAAt(p.x, p.y); got != p.want {
					t.Errorf("pixel (%d, %d) = %v, want %v", p.x, p.y, got, p.want)
				}
			}
			t.Logf("%d bar pixels black", bars)
			checkGolden(t, c.name, img)
		})
	}
}

// TestLetterboxMSAA renders the logical screen with 4x MSAA, which is
// resolved 1:1 and then scaled into the box: the bars stay black and the
// content arrives.
func TestLetterboxMSAA(t *testing.T) {
	w := openWindow(t, WindowConfig{Width: 160, Height: 100, LogicalWidth: 40, LogicalHeight: 30, IntegerScale: true})
	var img *image.RGBA
	err := withRenderer(func(r *Renderer) error {
		s := &Scaler{Nearest: true}
		defer s.Delete()
		if err := drawLogical(r, s, w.Layout(), 4); err != nil {
			return err
		}
		img = r.ReadPixels(160, 100)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		x, y int
		want color.RGBA
	}{{0, 0, color.RGBA{0, 0, 0, 255}}, {19, 50, color.RGBA{0, 0, 0, 255}}, {50, 65, color.RGBA{255, 255, 255, 255}}, {21, 6, color.RGBA{255, 0, 0, 255}}} {
		if got := img.RGBAAt(p.x, p.y); got != p.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", p.x, p.y, got, p.want)
		}
	}
}

// TestNotResizable checks SDL's resizable flag of a window made with and
// without NotResizable, under the offscreen driver (TestX11NotResizable
// does it on X11).
func TestNotResizable(t *testing.T) {
	checkResizable(t)
}

func checkResizable(t *testing.T) {
	t.Helper()
	for _, fixed := range []bool{false, true} {
		w := openWindow(t, WindowConfig{Width: 64, Height: 48, NotResizable: fixed})
		var flags uint32
		onMain(func() { flags = w.win.GetFlags() })
		if resizable := flags&sdl.WINDOW_RESIZABLE != 0; resizable == fixed {
			t.Errorf("NotResizable %v: SDL window flags 0x%x, resizable %v", fixed, flags, resizable)
		}
		onMain(func() { w.Close() })
	}
}

func TestLogicalConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  WindowConfig
		want string
	}{
		{WindowConfig{LogicalWidth: 320}, "gfx: WindowConfig logical size 320x0: set both positive, or neither"},
		{WindowConfig{LogicalWidth: -320, LogicalHeight: 180}, "gfx: WindowConfig logical size -320x180: set both positive, or neither"},
		{WindowConfig{IntegerScale: true}, "gfx: WindowConfig.IntegerScale needs LogicalWidth and LogicalHeight"},
	} {
		var err error
		onMain(func() { _, err = NewWindow(c.cfg) })
		if err == nil || err.Error() != c.want {
			t.Errorf("NewWindow(%+v) = %v, want %q", c.cfg, err, c.want)
		}
	}
}

// BenchmarkLetterbox is one frame of 100 rects in a 1280x720 window: drawn
// straight into it, and drawn in a 320x180 (16:9, 4x) or 320x240 (4:3,
// bars left and right) logical screen and scaled into it, with glFinish,
// so the figure is the frame's whole cost. Under llvmpipe the logical
// frames fill fewer pixels and pay one blit (and a clear for the bars).
func BenchmarkLetterbox(b *testing.B) {
	for _, c := range []struct {
		name   string
		lw, lh int
	}{{"direct", 1280, 720}, {"logical320x180", 320, 180}, {"logical320x240", 320, 240}} {
		b.Run(c.name, func(b *testing.B) {
			var w *Window
			var err error
			onMain(func() {
				w, err = NewWindow(WindowConfig{Width: 1280, Height: 720, Vsync: VsyncOff, Unpaced: true, Hidden: true})
			})
			if err != nil {
				b.Skip(err)
			}
			b.Cleanup(func() { onMain(func() { w.Close() }) })
			onMain(func() {
				var r *Renderer
				if r, err = NewRenderer(testConfig()); err != nil {
					return
				}
				defer r.Close()
				s := &Scaler{Nearest: true}
				defer s.Delete()
				l := FitLayout(c.lw, c.lh, 1280, 720, true)
				frame := func() {
					rw, rh, _ := s.BeginLayout(l, 1, 0)
					r.BeginFrame(rw, rh, Black)
					for i := range 100 {
						r.Rect(float32(i%10)*float32(rw)/10+8, float32(i/10)*float32(rh)/10+8, 12, 12, 0, White)
					}
					r.Flush()
					s.End()
					r.EndFrame()
					gl.Finish()
				}
				frame()
				b.ReportAllocs()
				for b.Loop() {
					frame()
				}
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}

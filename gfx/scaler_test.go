//go:build cgo

package gfx

import (
	"image"
	"testing"
	"time"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// TestScalerHalfResolution renders at 50 % of a 64×48 window: the scene
// buffer is 32×24, and each of its pixels covers a 2×2 block of the window.
func TestScalerHalfResolution(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 48})
	var img *image.RGBA
	var rw, rh, liveDuring, liveAfter int
	err := withRenderer(func(r *Renderer) error {
		s := &Scaler{Nearest: true}
		var err error
		if rw, rh, err = s.Begin(64, 48, 0.5, 0); err != nil {
			return err
		}
		r.BeginFrame(rw, rh, Black)
		r.Rect(8.5, 6.5, 1, 1, 0, White)            // one scene pixel at (8, 6) from the bottom left
		r.Rect(24, 12, 16, 24, 0, RGBA(1, 0, 0, 1)) // the right half, red
		r.Flush()
		s.End()
		r.SetTarget(64, 48)
		r.Rect(1.5, 47.5, 1, 1, 0, RGBA(0, 1, 0, 1)) // overlay: one window pixel, top left
		r.EndFrame()
		img = r.ReadPixels(64, 48)
		liveDuring = LiveObjects()
		s.Delete()
		liveAfter = LiveObjects()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if rw != 32 || rh != 24 {
		t.Fatalf("render size %dx%d, want 32x24", rw, rh)
	}
	// Scene pixel (8, 6) from the bottom is window rows 48-1-12 and 48-1-13
	// from the top, columns 16 and 17: a 2x2 white block, and nothing
	// around it.
	for y := 33; y <= 36; y++ {
		for x := 15; x <= 18; x++ {
			want := uint8(0)
			if (x == 16 || x == 17) && (y == 34 || y == 35) {
				want = 255
			}
			if got := img.RGBAAt(x, y).G; got != want {
				t.Errorf("window pixel (%d,%d) green %d, want %d", x, y, got, want)
			}
		}
	}
	if c := img.RGBAAt(40, 10); c.R != 255 || c.B != 0 {
		t.Errorf("right half %v, want red", c)
	}
	// The overlay pixel is drawn at full resolution: exactly one pixel.
	if c := img.RGBAAt(1, 0); c.G != 255 || img.RGBAAt(0, 0).G != 0 || img.RGBAAt(1, 1).G != 0 {
		t.Errorf("overlay pixel not a single full-resolution pixel")
	}
	if liveDuring-liveAfter != 3 {
		t.Errorf("scaler deleted %d GL objects, want its framebuffer's 3", liveDuring-liveAfter)
	}
}

func TestScalerMSAAAndGPUTime(t *testing.T) {
	openWindow(t, WindowConfig{Width: 64, Height: 64})
	var edge uint8
	var gpu time.Duration
	err := withRenderer(func(r *Renderer) error {
		s := &Scaler{}
		defer s.Delete()
		for range 3 {
			rw, rh, err := s.Begin(64, 64, 1, 4)
			if err != nil {
				return err
			}
			r.BeginFrame(rw, rh, Black)
			r.Rect(32, 32, 40, 40, 0.3, White) // a rotated square: its edges get coverage
			r.Flush()
			s.End()
			r.EndFrame()
		}
		img := r.ReadPixels(64, 64)
		gl.Finish()
		r.BeginFrame(64, 64, Black) // one more frame reads the last query
		r.EndFrame()
		gpu = r.GPUTime()
		// Some edge pixel is partly covered: neither black nor white.
		for _, p := range img.Pix {
			if p > 20 && p < 235 {
				edge = p
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if edge == 0 {
		t.Error("4x MSAA left no partly covered pixel")
	}
	if gpu <= 0 || gpu > time.Second {
		t.Errorf("GPU time %v, want a measured duration", gpu)
	}
}

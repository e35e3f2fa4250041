//go:build cgo

package gfx_test

import (
	"github.com/fixstep/fixstep/gfx"
)

// One frame through a Scaler: the world at 75 % of the window's size with
// no MSAA, upscaled, then the HUD at full resolution. It runs on the
// thread that owns the GL context, inside a game's Draw.
func Example_scaler() {
	draw := func(win *gfx.Window, r *gfx.Renderer, scaler *gfx.Scaler, hud []byte) error {
		w, h := win.DrawableSize()
		rw, rh, err := scaler.Begin(w, h, 0.75, 0)
		if err != nil {
			return err
		}
		r.BeginFrame(rw, rh, gfx.Black)
		r.SetCamera(gfx.Camera2D{X: 8, Y: 4.5, Width: 16, Height: 9}.Matrix())
		r.Circle(8, 4.5, 1, gfx.White) // the world, in world units
		r.Flush()
		scaler.End()
		r.SetTarget(w, h) // pixels from here on
		r.DebugText(8, float32(h)-8, 2, hud, gfx.White)
		r.EndFrame()
		return nil
	}
	_ = draw
}

package gfx

import (
	"fmt"
	"time"
)

// loaded approximates the process's start: package gfx initialises just
// before main runs.
var loaded = time.Now()

// Report returns the window's and the renderer's figures as the fields of
// a stats line, after engine.Loop.Report's:
//
//	vsync=on(paced) vsync_period_ms=16.667 window=x11 state_changes=0 draw_calls=5 sprites=1137 polygons=100 stream=persistent startup_ms=124.0 close_ms=1.2 close_gpu_wait_ms=0.4 gl_objects=0
//
// draw_calls, sprites and polygons are the last frame's; stream is the
// renderer's streaming mode; startup_ms is the time from the program's
// start to the first presented frame; close_ms is how long the renderer's
// Close took and close_gpu_wait_ms how much of it waited for the GPU
// (CloseTime); gl_objects counts the GL objects alive. Call it after
// closing the renderer: gl_objects is then 0.
func Report(w *Window, r *Renderer) string {
	d := r.LastFrame()
	closed, wait := r.CloseTime()
	return fmt.Sprintf("vsync=%s vsync_period_ms=%.3f window=%s state_changes=%d draw_calls=%d sprites=%d polygons=%d stream=%s startup_ms=%.1f close_ms=%.1f close_gpu_wait_ms=%.1f gl_objects=%d",
		w.Vsync().Mode(), float64(w.Vsync().Period)/1e6, w.Driver(), w.StateChanges(), d.DrawCalls, d.Sprites, d.Polygons,
		r.Streaming(), float64(w.FirstPresent().Sub(loaded))/1e6, float64(closed)/1e6, float64(wait)/1e6, LiveObjects())
}

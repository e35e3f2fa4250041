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
//	vsync=on(paced) vsync_period_ms=16.667 window=x11 state_changes=0 draw_calls=5 sprites=1137 polygons=100 startup_ms=124.0 gl_objects=0
//
// draw_calls, sprites and polygons are the last frame's; startup_ms is the time from
// the program's start to the first presented frame; gl_objects counts the
// GL objects alive, so call it after closing the renderer: 0.
func Report(w *Window, r *Renderer) string {
	d := r.LastFrame()
	return fmt.Sprintf("vsync=%s vsync_period_ms=%.3f window=%s state_changes=%d draw_calls=%d sprites=%d polygons=%d startup_ms=%.1f gl_objects=%d",
		w.Vsync().Mode(), float64(w.Vsync().Period)/1e6, w.Driver(), w.StateChanges(), d.DrawCalls, d.Sprites, d.Polygons,
		float64(w.FirstPresent().Sub(loaded))/1e6, LiveObjects())
}

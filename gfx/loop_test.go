//go:build cgo

package gfx

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/fixstep/fixstep/engine"
	"github.com/fixstep/fixstep/input"
)

// boxGame moves a box one unit per tick and draws it interpolated.
type boxGame struct {
	r      *Renderer
	w      *Window
	box    Interpolated[Transform2D]
	frames uint64
}

func (g *boxGame) Update(t engine.Tick) error {
	c := g.box.Current()
	c.X++
	g.box.Set(c)
	return nil
}

func (g *boxGame) Draw(f engine.Frame) {
	w, h := g.w.DrawableSize()
	g.r.BeginFrame(w, h, Black)
	s := g.box.At(f.Alpha)
	g.r.Rect(s.X, 20, 10, 10, 0, White)
	g.r.EndFrame()
}

func (g *boxGame) End(s *engine.Stats) error {
	if s.Frames == g.frames {
		return engine.ErrStopped
	}
	return nil
}

// TestLoopOnWindow runs the engine loop on a real window: the window paces
// frames where presents do not block, so 30 frames take about half a
// second and run about 30 ticks at 60 TPS.
func TestLoopOnWindow(t *testing.T) {
	keys := &input.State{}
	w := openWindow(t, WindowConfig{Width: 128, Height: 64, Vsync: VsyncOn, Input: keys})
	var err error
	var stats engine.Stats
	var elapsed time.Duration
	onMain(func() {
		var r *Renderer
		if r, err = NewRenderer(testConfig()); err != nil {
			return
		}
		defer r.Close()
		g := &boxGame{r: r, w: w, frames: 30}
		var l *engine.Loop
		if l, err = engine.NewLoop(engine.Config{TPS: 60}, w, g); err != nil {
			return
		}
		start := time.Now()
		err = l.Run(context.Background())
		elapsed = time.Since(start)
		stats = *l.Stats()
	})
	if !errors.Is(err, engine.ErrStopped) {
		t.Fatal(err)
	}
	if stats.Frames != 30 {
		t.Errorf("%d frames, want 30", stats.Frames)
	}
	v := w.Vsync()
	if !v.Blocks && v.Period != time.Second/60 {
		t.Errorf("unblocking vsync paced at %v, want 16.666666ms", v.Period)
	}
	// Paced at 60 Hz: 30 frames take at least 29 periods, and the ticks
	// follow the real time the loop measured, exactly (nothing was long
	// enough to be clamped).
	if elapsed < 29*time.Second/60 {
		t.Errorf("30 frames took %v: pacing did not wait", elapsed)
	}
	if want := uint64(stats.Elapsed * 60 / time.Second); stats.Dropped == 0 && stats.Ticks != want {
		t.Errorf("%d ticks in %v of frames, want %d", stats.Ticks, stats.Elapsed, want)
	}
}

func TestWindowConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  WindowConfig
		want string
	}{
		{WindowConfig{Width: -1}, "gfx: WindowConfig size -1x720: must be positive"},
		{WindowConfig{FPSCap: -5}, "gfx: WindowConfig.FPSCap = -5: must be positive (or zero for the refresh rate)"},
		{WindowConfig{Vsync: 9}, "gfx: WindowConfig.Vsync = 9: must be VsyncAdaptive, VsyncOn or VsyncOff"},
	} {
		var err error
		onMain(func() { _, err = NewWindow(c.cfg) })
		if err == nil || err.Error() != c.want {
			t.Errorf("NewWindow(%+v) = %v, want %q", c.cfg, err, c.want)
		}
	}
	if _, err := ParseVsync("sometimes"); err == nil {
		t.Error("ParseVsync(sometimes) accepted")
	}
}

package gfx

import (
	"strconv"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// GraphFrames is how many recent frames the overlay's graph shows.
const GraphFrames = 300

// Overlay is the debug overlay: a text panel (FPS, TPS, frame time, vsync,
// window state, and lines the game adds) and a graph of the last
// GraphFrames frames, frame interval behind work time, with the 16.7 ms
// line marked. Toggle it with Visible. It draws through a Renderer and
// allocates nothing per frame. The zero value is ready and hidden.
type Overlay struct {
	// Visible turns drawing on.
	Visible bool
	// Scale multiplies text size; zero means 2.
	Scale float32
	// Detail is how many recent frames the graph shows, at most
	// GraphFrames; zero means all.
	Detail int

	ring  [GraphFrames][2]time.Duration // interval, work
	count int
	next  int

	text      []byte
	refreshed time.Duration // Stats.Elapsed when text was last rebuilt
}

// OverlayInfo is what the overlay shows besides the loop's stats.
type OverlayInfo struct {
	TPS   float64
	Vsync Vsync
	State WindowState
	// Extra is appended as more lines of text (the game's own figures).
	Extra []byte
}

// Record adds the frame that just ended; call it from the End hook.
func (o *Overlay) Record(s *engine.Stats) {
	o.ring[o.next] = [2]time.Duration{s.Interval, s.WorkTime}
	o.next = (o.next + 1) % GraphFrames
	o.count = min(o.count+1, GraphFrames)
}

// Draw queues the overlay at the top left of the renderer's current target
// (Renderer.Target), in pixels. It changes the renderer's camera to
// pixels. The text is rebuilt four times a
// second so it can be read.
func (o *Overlay) Draw(r *Renderer, s *engine.Stats, info OverlayInfo) {
	if !o.Visible {
		return
	}
	w, h := r.Target()
	scale := o.Scale
	if scale == 0 {
		scale = 2
	}
	if o.text == nil || s.Elapsed-o.refreshed >= 250*time.Millisecond || s.Elapsed < o.refreshed {
		o.refreshed = s.Elapsed
		o.build(s, info, r.LastFrame(), r.Pages())
	}
	r.SetCamera(PixelCamera(w, h).Matrix())

	// Panel background, text, then the graph below it.
	lines := float32(1)
	for _, b := range o.text {
		if b == '\n' {
			lines++
		}
	}
	pad := 4 * scale
	tw := max(TextWidth(o.text, scale), GraphFrames)
	th := lines * glyphH * scale
	gh := float32(100) // 2 px per ms, 50 ms tall
	top := float32(h) - pad
	panelH := th + gh + 3*pad
	r.Rect(pad+tw/2+pad/2, top-panelH/2+pad/2, tw+2*pad, panelH, 0, RGBA(0, 0, 0, 0.6))
	r.DebugText(2*pad, top, scale, o.text, White)

	base := top - th - 2*pad - gh
	x0 := 2 * pad
	ms := func(d time.Duration) float32 { return min(float32(d)/float32(time.Millisecond)*2, gh) }
	intervalColor, workColor := RGBA(0.3, 0.5, 1, 0.9), RGBA(0.3, 1, 0.4, 1)
	n := o.count
	if o.Detail > 0 {
		n = min(n, o.Detail)
	}
	for i := range n {
		f := o.ring[(o.next-n+i+GraphFrames)%GraphFrames]
		x := x0 + float32(GraphFrames-n+i) + 0.5
		if hi := ms(f[0]); hi > 0 {
			r.Rect(x, base+hi/2, 1, hi, 0, intervalColor)
		}
		if hw := ms(f[1]); hw > 0 {
			r.Rect(x, base+hw/2, 1, hw, 0, workColor)
		}
	}
	// The 60 Hz budget line.
	line := base + ms(16_666_667)
	r.Rect(x0+GraphFrames/2, line, GraphFrames, 1, 0, RGBA(1, 0.3, 0.3, 1))
}

func (o *Overlay) build(s *engine.Stats, info OverlayInfo, drawn FrameStats, pages int) {
	b := o.text[:0]
	b = append(b, "FPS "...)
	b = strconv.AppendFloat(b, s.FPS, 'f', 1, 64)
	b = append(b, "  TPS "...)
	b = strconv.AppendFloat(b, info.TPS, 'f', 0, 64)
	b = append(b, "\nframe "...)
	b = appendMs(b, s.FrameP50)
	b = append(b, " p99 "...)
	b = appendMs(b, s.FrameP99)
	b = append(b, " work "...)
	b = appendMs(b, s.Work)
	b = append(b, "\nvsync "...)
	b = append(b, info.Vsync.Requested.String()...)
	b = append(b, "->"...)
	b = append(b, info.Vsync.Mode()...)
	b = append(b, ' ')
	b = appendMs(b, info.Vsync.Period)
	b = append(b, "  "...)
	b = append(b, info.State.String()...)
	b = append(b, "\nticks/frame 0:"...)
	b = strconv.AppendUint(b, s.TicksPerFrame[0], 10)
	b = append(b, " 1:"...)
	b = strconv.AppendUint(b, s.TicksPerFrame[1], 10)
	b = append(b, " 2+:"...)
	var more uint64
	for _, n := range s.TicksPerFrame[2:] {
		more += n
	}
	b = strconv.AppendUint(b, more, 10)
	b = append(b, " drop "...)
	b = appendMs(b, s.Dropped)
	b = append(b, "\ndraw calls "...)
	b = strconv.AppendInt(b, int64(drawn.DrawCalls), 10)
	b = append(b, " sprites "...)
	b = strconv.AppendInt(b, int64(drawn.Sprites), 10)
	b = append(b, " polygons "...)
	b = strconv.AppendInt(b, int64(drawn.Polygons), 10)
	b = append(b, " pages "...)
	b = strconv.AppendInt(b, int64(pages), 10)
	if len(info.Extra) > 0 {
		b = append(b, '\n')
		b = append(b, info.Extra...)
	}
	o.text = b
}

// appendMs appends d in milliseconds with two decimals.
func appendMs(b []byte, d time.Duration) []byte {
	b = strconv.AppendFloat(b, float64(d)/1e6, 'f', 2, 64)
	return append(b, "ms"...)
}

package main

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/fixstep/fixstep/engine"
)

// svgFrames is how many frames the timeline draws at most.
const svgFrames = 40

// timeline collects the first frames for the SVG picture: frames on one row,
// ticks on another, both against real time, so that the draw's alpha is
// where the frame's end falls inside the next tick.
type timeline struct {
	scale   float64
	dt      time.Duration
	frames  []engine.Frame
	dropped time.Duration // game time dropped before each frame, summed
	drops   []time.Duration
}

func (t *timeline) add(f engine.Frame) {
	if len(t.frames) >= svgFrames {
		return
	}
	t.frames = append(t.frames, f)
	t.drops = append(t.drops, t.dropped)
	t.dropped += f.Dropped
}

func (t *timeline) write(path string) error {
	var end time.Duration
	for _, f := range t.frames {
		end += f.Elapsed
	}
	if end <= 0 {
		end = 1
	}
	const width, left, right = 1200.0, 70.0, 20.0
	px := func(d time.Duration) float64 { return left + float64(d)/float64(end)*(width-left-right) }
	game := func(g time.Duration) float64 { return float64(g) / t.scale } // game time to real time

	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(fh)
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="190" font-family="sans-serif" font-size="11">`+"\n", width)
	fmt.Fprintln(w, `<rect width="100%" height="100%" fill="white"/>`)
	fmt.Fprintf(w, `<text x="%.0f" y="18" font-size="13">fixstep timestep: %d frames, tick %v, time scale %g</text>`+"\n", left, len(t.frames), t.dt, t.scale)
	fmt.Fprintln(w, `<text x="8" y="62">frames</text><text x="8" y="132">ticks</text>`)
	var at time.Duration
	for i, f := range t.frames {
		x0, x1 := px(at), px(at+f.Elapsed)
		fill := "#cfe3ff"
		if f.Overrun {
			fill = "#ffc9c9"
		}
		fmt.Fprintf(w, `<rect x="%.2f" y="40" width="%.2f" height="34" fill="%s" stroke="#357"/>`+"\n", x0, x1-x0, fill)
		fmt.Fprintf(w, `<text x="%.2f" y="61" text-anchor="middle">%d</text>`+"\n", (x0+x1)/2, f.Ticks)
		for k := range f.Ticks {
			tk := f.Tick(k)
			s := time.Duration(game(tk.Time + t.drops[i]))
			e := time.Duration(game(tk.Time + t.drops[i] + tk.Dt))
			fmt.Fprintf(w, `<rect x="%.2f" y="110" width="%.2f" height="34" fill="#d9f2d0" stroke="#363"/>`+"\n", px(s), px(e)-px(s))
			fmt.Fprintf(w, `<text x="%.2f" y="131" text-anchor="middle">%d</text>`+"\n", (px(s)+px(e))/2, tk.N)
		}
		at += f.Elapsed
		// The draw: the frame's end, with the alpha it draws at.
		fmt.Fprintf(w, `<line x1="%.2f" y1="74" x2="%.2f" y2="150" stroke="#c33" stroke-dasharray="3,2"/>`+"\n", x1, x1)
		fmt.Fprintf(w, `<text x="%.2f" y="%d" fill="#c33" text-anchor="middle">α%.2f</text>`+"\n", x1, 163+12*(i%2), f.Alpha)
	}
	fmt.Fprintf(w, `<text x="%.0f" y="100" fill="#555">frame boxes span real time; the number is the ticks run; red: the draw and its alpha; pink: overrun</text>`+"\n", left)
	fmt.Fprintln(w, `</svg>`)
	if err := w.Flush(); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

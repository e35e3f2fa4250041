package main

import (
	"bufio"
	"fmt"
	"os"
	"time"
)

// writeSVG draws the run: on top each frame's cost (the highest in each
// pixel column) with the budget and the budget less the headroom, below
// the level as steps, both against real time, with every change marked.
func (g *traced) writeSVG(path string, budget time.Duration) error {
	const width, left, right = 1200.0, 60.0, 20.0
	const costTop, costH, levelTop, levelH = 30.0, 200.0, 270.0, 100.0
	end := max(g.end, 1)
	x := func(t time.Duration) float64 { return left + float64(t)/float64(end)*(width-left-right) }
	maxCost := 2 * budget
	for _, s := range g.samples {
		maxCost = max(maxCost, s.cost)
	}
	yc := func(c time.Duration) float64 { return costTop + costH - float64(c)/float64(maxCost)*costH }
	yl := func(l int) float64 { return levelTop + levelH - float64(l)/float64(max(g.top, 1))*levelH }

	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="400" font-family="sans-serif" font-size="11">`+"\n", width)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(w, `<text x="%.0f" y="18" font-size="13">fixstep quality governor: %.0f s, budget %.2f ms, %d changes</text>`+"\n",
		left, end.Seconds(), ms(budget), len(g.changes))
	// Frame cost: the largest in each pixel column.
	fmt.Fprintf(w, `<text x="4" y="%.0f">cost</text>`+"\n", costTop+costH/2)
	fmt.Fprintf(w, `<text x="%.0f" y="%.1f" text-anchor="end">%.0f ms</text><text x="%.0f" y="%.1f" text-anchor="end">0</text>`+"\n",
		left-6, yc(maxCost)+10, ms(maxCost), left-6, yc(0))
	fmt.Fprint(w, `<polyline fill="none" stroke="#3070d0" stroke-width="1" points="`)
	col, peak := -1, time.Duration(0)
	for i, s := range g.samples {
		c := int(x(s.at))
		if c != col && col >= 0 {
			fmt.Fprintf(w, "%d,%.1f ", col, yc(peak))
			peak = 0
		}
		col, peak = c, max(peak, s.cost)
		if i == len(g.samples)-1 {
			fmt.Fprintf(w, "%d,%.1f", col, yc(peak))
		}
	}
	fmt.Fprintln(w, `"/>`)
	fmt.Fprintf(w, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d03030"/><text x="4" y="%.1f" fill="#d03030">budget</text>`+"\n",
		left, width-right, yc(budget), yc(budget), yc(budget)+4)
	room := budget * 9 / 10
	fmt.Fprintf(w, `<line x1="%.0f" x2="%.0f" y1="%.1f" y2="%.1f" stroke="#d03030" stroke-dasharray="4 3"/>`+"\n",
		left, width-right, yc(room), yc(room))
	// Level steps.
	fmt.Fprintf(w, `<text x="4" y="%.0f">level</text>`+"\n", levelTop+10)
	for l := 0; l <= g.top; l++ {
		fmt.Fprintf(w, `<text x="%.0f" y="%.1f" text-anchor="end">%d</text>`+"\n", left-6, yl(l)+4, l)
	}
	fmt.Fprint(w, `<polyline fill="none" stroke="#208040" stroke-width="2" points="`)
	if len(g.samples) > 0 {
		level := g.samples[0].level
		fmt.Fprintf(w, "%.1f,%.1f ", x(0), yl(level))
		for _, c := range g.changes {
			fmt.Fprintf(w, "%.1f,%.1f %.1f,%.1f ", x(c.at), yl(c.from), x(c.at), yl(c.to))
		}
		fmt.Fprintf(w, "%.1f,%.1f", x(end), yl(g.samples[len(g.samples)-1].level))
	}
	fmt.Fprintln(w, `"/>`)
	for i, c := range g.changes {
		// Labels alternate between two rows, so close changes stay legible.
		fmt.Fprintf(w, `<line x1="%.1f" x2="%.1f" y1="%.0f" y2="%.0f" stroke="#999" stroke-dasharray="2 2"/><text x="%.1f" y="%.0f" font-size="9">%s</text>`+"\n",
			x(c.at), x(c.at), costTop, levelTop+levelH, x(c.at)+2, levelTop+levelH+12+float64(i%2)*10, c.why)
	}
	fmt.Fprintf(w, `<text x="%.0f" y="397">time: 0 to %v</text>`+"\n", width-right-120, end)
	fmt.Fprintln(w, `</svg>`)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

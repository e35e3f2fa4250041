// Command govtrace runs fixstep's quality governor, inside a real
// engine.Loop, on a scripted frame cost and a simulated vsync'd display,
// prints every change of level with its reason, and can draw the run as
// SVG: each frame's cost against the budget, and the level over time. It
// is how anyone sees why the governor decided what it did.
//
// Usage:
//
//	govtrace -scenario flap -svg flap.svg
//	govtrace -script costs.txt -hz 60 -levels 4
//
// A script has one segment a line: a duration, the frame cost at level 0,
// and the cost each level adds, in milliseconds ("5s 4 2": five seconds at
// 4 ms plus 2 ms a level). '#' starts a comment. The built-in scenarios:
//
//	flap  level 4 costs 1.2x the budget, level 3 0.8x, for 10 minutes
//	step  light, then a load that only level 3 fits, then light again
//	flip  a load that comes and goes every second, for a minute
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/fixstep/fixstep/engine"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "govtrace:", err)
		os.Exit(1)
	}
}

// segment is a stretch of time whose frames cost base + level·perLevel.
type segment struct {
	d, base, perLevel time.Duration
}

var scenarios = map[string]string{
	"flap": "10m 13.3333 0\n", // special-cased below: 0.8x at 3, 1.2x at 4
	"step": "5s 4 2\n20s 10 2\n15s 0 2\n",
	"flip": strings.Repeat("1s 0 2\n1s 10 2\n", 30),
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("govtrace", flag.ContinueOnError)
	script := fs.String("script", "", "cost script file (see the package doc)")
	scenario := fs.String("scenario", "step", "built-in scenario: flap, step or flip (unless -script)")
	hz := fs.Float64("hz", 60, "display refresh rate: the budget is its period")
	levels := fs.Int("levels", engine.DefaultQualityLevels, "top quality level")
	svg := fs.String("svg", "", "draw the run to this SVG file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *hz < 10 || *hz > 1000 {
		return fmt.Errorf("-hz %v: want 10 to 1000", *hz)
	}
	var segs []segment
	var err error
	flap := false
	if *script != "" {
		f, err := os.Open(*script)
		if err != nil {
			return err
		}
		segs, err = parseScript(f, *script)
		f.Close()
		if err != nil {
			return err
		}
	} else {
		text, ok := scenarios[*scenario]
		if !ok {
			return fmt.Errorf("-scenario %q: want flap, step or flip", *scenario)
		}
		flap = *scenario == "flap"
		if segs, err = parseScript(strings.NewReader(text), *scenario); err != nil {
			return err
		}
	}
	period := time.Duration(float64(time.Second) / *hz)
	g := &traced{segs: segs, flap: flap, top: *levels, clk: display{period: period}}
	for _, s := range segs {
		g.end += s.d
	}
	loop, err := engine.NewLoop(engine.Config{Quality: engine.GovernorConfig{Levels: *levels}}, &g.clk, g)
	if err != nil {
		return err
	}
	g.loop = loop
	if err := loop.Run(context.Background()); !errors.Is(err, engine.ErrStopped) {
		return err
	}
	for _, c := range g.changes {
		fmt.Fprintf(stdout, "t=%-10v level %d -> %d  %-11s cost %.2fms\n", c.at.Round(time.Millisecond), c.from, c.to, c.why, ms(c.cost))
	}
	s := loop.Stats()
	fmt.Fprintf(stdout, "frames=%d seconds=%.0f budget_ms=%.3f changes=%d undone=%d final=%d\n",
		s.Frames, g.end.Seconds(), ms(period), s.QualityChanges, s.QualityUndone, s.Quality)
	if *svg != "" {
		return g.writeSVG(*svg, period)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// parseScript reads segments: "DURATION BASE_MS PER_LEVEL_MS" a line.
func parseScript(r io.Reader, name string) ([]segment, error) {
	var segs []segment
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want DURATION BASE_MS PER_LEVEL_MS, got %q", name, n, line)
		}
		d, err := time.ParseDuration(f[0])
		if err != nil || d <= 0 || d > time.Hour {
			return nil, fmt.Errorf("%s:%d: duration %q: want 1ms to 1h", name, n, f[0])
		}
		var v [2]time.Duration
		for i, s := range f[1:] {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || x < 0 || x > 1000 {
				return nil, fmt.Errorf("%s:%d: %q: want milliseconds from 0 to 1000", name, n, s)
			}
			v[i] = time.Duration(x * 1e6)
		}
		segs = append(segs, segment{d, v[0], v[1]})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("%s: no segments", name)
	}
	return segs, nil
}

// display is a simulated platform whose presents wait for the next vsync:
// a frame that costs more than a period takes two, and so on.
type display struct{ now, period time.Duration }

func (d *display) Now() time.Duration         { return d.now }
func (d *display) Poll() error                { return nil }
func (d *display) Present() error             { d.now = (d.now/d.period + 1) * d.period; return nil }
func (d *display) FramePeriod() time.Duration { return d.period }

type sample struct {
	at, cost time.Duration
	level    int
}

type change struct {
	at, cost time.Duration
	from, to int
	why      engine.Reason
}

// traced is the game: its Draw costs what the script says at its level.
type traced struct {
	segs    []segment
	flap    bool
	top     int
	clk     display
	loop    *engine.Loop
	end     time.Duration
	level   int
	cost    time.Duration
	samples []sample
	changes []change
}

func (g *traced) Update(engine.Tick) error { return nil }

func (g *traced) costAt(t time.Duration, level int) time.Duration {
	if g.flap {
		p := g.clk.period
		if level >= g.top {
			return p * 12 / 10
		}
		return p * 8 / 10
	}
	for _, s := range g.segs {
		if t < s.d {
			return s.base + time.Duration(level)*s.perLevel
		}
		t -= s.d
	}
	last := g.segs[len(g.segs)-1] // the frame that ends the run
	return last.base + time.Duration(level)*last.perLevel
}

func (g *traced) Draw(f engine.Frame) {
	g.cost = g.costAt(g.clk.now, f.Quality)
	g.clk.now += g.cost
}

func (g *traced) QualityChanged(level int) { g.level = level }

func (g *traced) End(s *engine.Stats) error {
	g.samples = append(g.samples, sample{s.Elapsed, g.cost, s.Frame.Quality})
	if s.Quality != s.Frame.Quality {
		g.changes = append(g.changes, change{s.Elapsed, g.cost, s.Frame.Quality, s.Quality, s.QualityReason})
	}
	if s.Elapsed >= g.end {
		return engine.ErrStopped
	}
	return nil
}

// Command looptrace runs fixstep's timestep core on a scripted clock and
// prints what happened: each tick and each draw, as text or JSON lines, or
// the totals. It is how anyone checks the engine against another loop:
// feed both the same frame timestamps and compare.
//
// Usage:
//
//	looptrace -frame 16ms -n 100 -tps 60 -format jsonl
//	looptrace -timestamps frames.txt -tick 20ms -clamp 0 -format summary
//	looptrace -frame 7ms -n 60 -svg timeline.svg
//
// The clock is either -frame D -n N (N frames of D) or -timestamps FILE: one
// timestamp in milliseconds per line, decimals allowed, '#' comments and
// blank lines ignored; the first line starts the clock and each later line
// ends one frame. Frames are numbered from 1.
//
// JSON lines, -format jsonl: per tick, before its frame's draw,
//
//	{"frame":k,"event":"tick","t_ns":T,"dt_ns":DT,"lag_ns":L}
//
// with T the game time at the start of the tick and L the lag before the
// tick's dt is taken from it; per frame, after its ticks,
//
//	{"frame":k,"event":"draw","ticks":n,"alpha":a,"lag_ns":l,"dropped_ns":d,"overrun":b}
//
// -format summary prints one JSON object of totals: frames, ticks, sim_ns,
// lag_ns, dropped_ns, overruns.
package main

import (
	"bufio"
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
		fmt.Fprintln(os.Stderr, "looptrace:", err)
		os.Exit(1)
	}
}

type options struct {
	frame      time.Duration
	n          int
	timestamps string
	cfg        engine.Config
	format     string
	svg        string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("looptrace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.frame, "frame", 16*time.Millisecond, "constant frame interval")
	fs.IntVar(&o.n, "n", 100, "number of frames of -frame")
	fs.StringVar(&o.timestamps, "timestamps", "", "file of frame timestamps in ms, one per line (overrides -frame and -n)")
	tps := fs.Int("tps", 60, "ticks per second")
	tick := fs.Duration("tick", 0, "tick length (overrides -tps)")
	clamp := fs.Duration("clamp", engine.DefaultMaxFrameTime, "frame-time clamp; 0 disables it")
	fs.IntVar(&o.cfg.MaxUpdatesPerFrame, "max-updates", 0, "updates per frame cap; 0 means the default (240), -1 no cap")
	overrun := fs.String("overrun", "slowmo", "overrun policy: slowmo, drop or catchup")
	fs.Float64Var(&o.cfg.TimeScale, "scale", 1, "time scale")
	fs.StringVar(&o.format, "format", "text", "output: text, jsonl or summary")
	fs.StringVar(&o.svg, "svg", "", "also draw the timeline of the first frames to this SVG file")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	o.cfg.TPS, o.cfg.Tick = *tps, *tick
	o.cfg.MaxFrameTime = *clamp
	if *clamp == 0 {
		o.cfg.MaxFrameTime = -1
	}
	var err error
	if o.cfg.Overrun, err = engine.ParseOverrun(*overrun); err != nil {
		return o, err
	}
	if err := o.cfg.Validate(); err != nil {
		return o, err
	}
	switch o.format {
	case "text", "jsonl", "summary":
	default:
		return o, fmt.Errorf("-format %q: want text, jsonl or summary", o.format)
	}
	if o.timestamps == "" && (o.frame < 0 || o.n < 0) {
		return o, fmt.Errorf("-frame %v -n %d: both must be non-negative", o.frame, o.n)
	}
	return o, nil
}

func run(args []string, stdout io.Writer) error {
	o, err := parseFlags(args, os.Stderr)
	if err != nil {
		return err
	}
	var frames engine.Frames
	if o.timestamps != "" {
		iv, err := readTimestamps(o.timestamps)
		if err != nil {
			return err
		}
		frames = &engine.ScriptFrames{Intervals: iv}
	} else {
		frames = &counted{d: o.frame, n: o.n}
	}
	ts, err := engine.NewTimestep(o.cfg)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	var tl *timeline
	if o.svg != "" {
		tl = &timeline{scale: ts.TimeScale(), dt: ts.Dt()}
	}
	var buf []byte
	for {
		d, ok := frames.Next()
		if !ok {
			break
		}
		f := ts.Advance(d)
		if tl != nil {
			tl.add(f)
		}
		switch o.format {
		case "jsonl":
			buf = appendJSONL(buf[:0], f)
			w.Write(buf)
		case "text":
			buf = appendText(buf[:0], f)
			w.Write(buf)
		}
	}
	if o.format == "summary" {
		t := ts.Totals()
		fmt.Fprintf(w, `{"frames":%d,"ticks":%d,"sim_ns":%d,"lag_ns":%d,"dropped_ns":%d,"overruns":%d}`+"\n",
			t.Frames, t.Ticks, int64(t.Sim), int64(t.Lag), int64(t.Dropped), t.Overruns)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if tl != nil {
		return tl.write(o.svg)
	}
	return nil
}

// counted is n frames of d.
type counted struct {
	d time.Duration
	n int
}

func (c *counted) Next() (time.Duration, bool) {
	if c.n <= 0 {
		return 0, false
	}
	c.n--
	return c.d, true
}

func appendJSONL(b []byte, f engine.Frame) []byte {
	for i := range f.Ticks {
		t := f.Tick(i)
		b = append(b, `{"frame":`...)
		b = strconv.AppendUint(b, f.Index, 10)
		b = append(b, `,"event":"tick","t_ns":`...)
		b = strconv.AppendInt(b, int64(t.Time), 10)
		b = append(b, `,"dt_ns":`...)
		b = strconv.AppendInt(b, int64(t.Dt), 10)
		b = append(b, `,"lag_ns":`...)
		b = strconv.AppendInt(b, int64(t.Lag), 10)
		b = append(b, "}\n"...)
	}
	b = append(b, `{"frame":`...)
	b = strconv.AppendUint(b, f.Index, 10)
	b = append(b, `,"event":"draw","ticks":`...)
	b = strconv.AppendInt(b, int64(f.Ticks), 10)
	b = append(b, `,"alpha":`...)
	b = strconv.AppendFloat(b, f.Alpha, 'g', -1, 64)
	b = append(b, `,"lag_ns":`...)
	b = strconv.AppendInt(b, int64(f.Lag), 10)
	b = append(b, `,"dropped_ns":`...)
	b = strconv.AppendInt(b, int64(f.Dropped), 10)
	b = append(b, `,"overrun":`...)
	b = strconv.AppendBool(b, f.Overrun)
	b = append(b, "}\n"...)
	return b
}

func appendText(b []byte, f engine.Frame) []byte {
	b = fmt.Appendf(b, "frame %d  +%v\n", f.Index, f.Elapsed)
	for i := range f.Ticks {
		t := f.Tick(i)
		b = fmt.Appendf(b, "  tick %-6d t=%-12v lag=%v\n", t.N, t.Time, t.Lag)
	}
	b = fmt.Appendf(b, "  draw ticks=%d alpha=%.4f lag=%v", f.Ticks, f.Alpha, f.Lag)
	if f.Dropped > 0 {
		b = fmt.Appendf(b, " dropped=%v", f.Dropped)
	}
	if f.Overrun {
		b = fmt.Appendf(b, " OVERRUN debt=%d", f.Debt)
	}
	return append(b, '\n')
}

// readTimestamps reads one timestamp in milliseconds per line and returns
// the intervals between them, in exact nanoseconds.
func readTimestamps(path string) ([]time.Duration, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var out []time.Duration
	var prev time.Duration
	first := true
	sc := bufio.NewScanner(fh)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		t, err := parseMillis(s)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if !first && t < prev {
			return nil, fmt.Errorf("%s:%d: timestamp %s ms is before the previous one", path, line, s)
		}
		if !first {
			out = append(out, t-prev)
		}
		prev, first = t, false
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if first {
		return nil, fmt.Errorf("%s: no timestamps", path)
	}
	return out, nil
}

// parseMillis parses a decimal number of milliseconds exactly, to the
// nanosecond; digits beyond the sixth decimal are truncated.
func parseMillis(s string) (time.Duration, error) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return 0, fmt.Errorf("%q is not a number of milliseconds", s)
	}
	ms := int64(0)
	if whole != "" {
		v, err := strconv.ParseInt(whole, 10, 64)
		if err != nil || v < 0 || v > int64(1<<62)/int64(time.Millisecond) {
			return 0, fmt.Errorf("%q is not a number of milliseconds", s)
		}
		ms = v
	}
	ns := int64(0)
	for i, c := range frac {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a number of milliseconds", s)
		}
		if i < 6 {
			ns = ns*10 + int64(c-'0')
		}
	}
	for i := len(frac); i < 6; i++ {
		ns *= 10
	}
	return time.Duration(ms)*time.Millisecond + time.Duration(ns), nil
}

package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSoak runs the demo offscreen for 20,000 frames (make soak; it is not
// part of make test) and fails on growth: resident memory after the
// warm-up may grow less than 5 %, and the run must end with gl_objects=0,
// allocs_per_frame=0.000 and gc_cycles=0.
func TestSoak(t *testing.T) {
	if os.Getenv("FIXSTEP_SOAK") != "1" {
		t.Skip("make soak runs it (FIXSTEP_SOAK=1)")
	}
	frames := 20000
	if v, err := strconv.Atoi(os.Getenv("FIXSTEP_SOAK_FRAMES")); err == nil {
		frames = v
	}
	cmd, out := startDemo(t, "-frames", strconv.Itoa(frames), "-fps-cap", "240", "-quality", "2")
	start := time.Now()
	var samples []int // RSS in KiB, every half second
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
loop:
	for {
		select {
		case err = <-done:
			break loop
		case <-time.After(500 * time.Millisecond):
			if kb := rssKiB(cmd.Process.Pid); kb > 0 {
				samples = append(samples, kb)
			}
		}
	}
	took := time.Since(start)
	if err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	stats := out.String()
	t.Logf("%d frames in %v; %s", frames, took.Round(time.Second), strings.TrimSpace(stats[strings.LastIndex(stats, "stats "):]))
	if len(samples) < 10 {
		t.Fatalf("only %d RSS samples", len(samples))
	}
	// The warm-up: the first fifth of the run.
	base, last := samples[len(samples)/5], samples[len(samples)-1]
	peak := 0
	for _, s := range samples[len(samples)/5:] {
		peak = max(peak, s)
	}
	t.Logf("RSS after warm-up %d KiB, at the end %d KiB (%+.2f %%), peak %d KiB", base, last, 100*float64(last-base)/float64(base), peak)
	if float64(last) >= 1.05*float64(base) {
		t.Errorf("RSS grew from %d to %d KiB after the warm-up: 5 %% or more", base, last)
	}
	for _, want := range []string{"gl_objects=0", "allocs_per_frame=0.000", "gc_cycles=0"} {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(want) + `\b`).MatchString(stats) {
			t.Errorf("stats line lacks %s", want)
		}
	}
}

// rssKiB reads a process's resident set size from /proc, 0 if it cannot.
func rssKiB(pid int) int {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return 0
}

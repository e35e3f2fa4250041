package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJSONL(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-frame", "25ms", "-n", "2", "-tick", "10ms", "-format", "jsonl"}, &out); err != nil {
		t.Fatal(err)
	}
	want := `{"frame":1,"event":"tick","t_ns":0,"dt_ns":10000000,"lag_ns":25000000}
{"frame":1,"event":"tick","t_ns":10000000,"dt_ns":10000000,"lag_ns":15000000}
{"frame":1,"event":"draw","ticks":2,"alpha":0.5,"lag_ns":5000000,"dropped_ns":0,"overrun":false}
{"frame":2,"event":"tick","t_ns":20000000,"dt_ns":10000000,"lag_ns":30000000}
{"frame":2,"event":"tick","t_ns":30000000,"dt_ns":10000000,"lag_ns":20000000}
{"frame":2,"event":"tick","t_ns":40000000,"dt_ns":10000000,"lag_ns":10000000}
{"frame":2,"event":"draw","ticks":3,"alpha":0,"lag_ns":0,"dropped_ns":0,"overrun":false}
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestTimestampsAndOverrun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ts.txt")
	// Clock starts at 1000 ms; frames of 16.5, 10000 (a stall) and 0.25 ms.
	os.WriteFile(path, []byte("# a stall\n1000\n1016.5\n\n11016.5\n11016.75\n"), 0o644)
	var out bytes.Buffer
	err := run([]string{"-timestamps", path, "-tps", "60", "-max-updates", "4", "-overrun", "drop", "-format", "summary"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	// Frame 1: 0 ticks. Frame 2: clamped to 250 ms (9.75 s dropped), lag
	// 266.5 ms = 15.99 ticks, cap 4 runs 4 and Drop discards the rest.
	// Frame 3: 0.25 ms of lag.
	want := `{"frames":3,"ticks":4,"sim_ns":66666666,"lag_ns":250000,"dropped_ns":9949833333,"overruns":1}` + "\n"
	if out.String() != want {
		t.Errorf("got  %swant %s", out.String(), want)
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("0\n16.6\nsixteen\n"), 0o644)
	back := filepath.Join(dir, "back.txt")
	os.WriteFile(back, []byte("5\n4\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-timestamps", bad}, "bad.txt:3: \"sixteen\" is not a number of milliseconds"},
		{[]string{"-timestamps", back}, "back.txt:2: timestamp 4 ms is before the previous one"},
		{[]string{"-timestamps", filepath.Join(dir, "none")}, "no such file"},
		{[]string{"-tps", "-3"}, "Config.TPS = -3"},
		{[]string{"-overrun", "panic"}, `unknown overrun policy "panic"`},
		{[]string{"-format", "xml"}, `-format "xml"`},
	} {
		err := run(c.args, &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%q) = %v, want an error containing %q", c.args, err, c.want)
		}
	}
}

func TestParseMillis(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"0": 0, "16": 16 * time.Millisecond, "16.5": 16_500_000, ".000001": 1,
		"16.6666667": 16_666_666, "1000000": 1000 * time.Second,
	} {
		if got, err := parseMillis(s); err != nil || got != want {
			t.Errorf("parseMillis(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", ".", "-1", "1e3", "1.2.3"} {
		if _, err := parseMillis(s); err == nil {
			t.Errorf("parseMillis(%q) accepted", s)
		}
	}
}

func TestSVG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.svg")
	if err := run([]string{"-frame", "7ms", "-n", "30", "-svg", path, "-format", "summary"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	// 30 frame boxes, 12 tick boxes (210 ms of 16.67 ms ticks), 30 alphas.
	if n := strings.Count(s, `stroke="#357"`); n != 30 {
		t.Errorf("%d frame boxes, want 30", n)
	}
	if n := strings.Count(s, `stroke="#363"`); n != 12 {
		t.Errorf("%d tick boxes, want 12", n)
	}
	if !strings.Contains(s, "α0.60") {
		t.Error("the last frame's alpha 0.60 is not marked")
	}
}

// BenchmarkSummary is the -format summary path over a million frames.
func BenchmarkSummary(b *testing.B) {
	for b.Loop() {
		if err := run([]string{"-frame", "7ms", "-n", "1000000", "-format", "summary"}, &bytes.Buffer{}); err != nil {
			b.Fatal(err)
		}
	}
}

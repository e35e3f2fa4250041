package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlapSettles runs the flapping scenario of the governor's issue: ten
// minutes in which level 4 costs 1.2x the budget and level 3 0.8x.
func TestFlapSettles(t *testing.T) {
	var out strings.Builder
	svg := filepath.Join(t.TempDir(), "flap.svg")
	if err := run([]string{"-scenario", "flap", "-svg", svg}, &out); err != nil {
		t.Fatal(err)
	}
	last := out.String()[strings.LastIndex(strings.TrimSpace(out.String()), "\n")+1:]
	if !strings.Contains(last, "seconds=600 budget_ms=16.667 changes=3 undone=1 final=3") {
		t.Errorf("summary %q: want 3 changes (the drop, one retry after the record is forgotten at 5 min), final level 3", last)
	}
	b, err := os.ReadFile(svg)
	if err != nil || !strings.HasPrefix(string(b), "<svg") || strings.Count(string(b), "over budget</text>") != 2 {
		t.Errorf("svg: %v, %d bytes, %d drops marked", err, len(b), strings.Count(string(b), "over budget</text>"))
	}
}

func TestScriptErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ script, want string }{
		{"5s 4\n", "bad.txt:1: want DURATION BASE_MS PER_LEVEL_MS"},
		{"# nothing\n", "bad.txt: no segments"},
		{"5s 4 2\n-1s 4 2\n", "bad.txt:2: duration \"-1s\": want 1ms to 1h"},
		{"5s 4 x\n", "bad.txt:1: \"x\": want milliseconds from 0 to 1000"},
	} {
		p := filepath.Join(dir, "bad.txt")
		os.WriteFile(p, []byte(c.script), 0o644)
		err := run([]string{"-script", p}, &strings.Builder{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("script %q: %v, want %q", c.script, err, c.want)
		}
	}
}

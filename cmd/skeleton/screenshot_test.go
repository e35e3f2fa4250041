package main

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScreenshotWhenTheRunEndsFirst: a windowed replay of a 30-tick
// recording ends long before -frames 100000, and -screenshot saves the
// state it ended on (whole, the window's size), saying so, instead of
// writing nothing.
func TestScreenshotWhenTheRunEndsFirst(t *testing.T) {
	dir := t.TempDir()
	rec, shot := filepath.Join(dir, "run.fxr"), filepath.Join(dir, "end.png")
	run(t, "-headless -ticks 30 -sim-frame 16ms -bot 2 -record "+rec)
	_, stderr := run(t, "-replay "+rec+" -frames 100000 -screenshot "+shot)
	if !strings.Contains(stderr, name+": -screenshot: the run ended after ") || !strings.Contains(stderr, " of its 100000 frames: saved the state it ended on to "+shot) {
		t.Errorf("the replay did not say it saved the state it ended on:\n%s", stderr)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("-screenshot wrote nothing: %v\n%s", err, stderr)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("-screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 64 || b.Dy() < 64 {
		t.Errorf("-screenshot is %v, want the window", b)
	}
}

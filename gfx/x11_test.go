//go:build cgo && unix

package gfx

import (
	"bufio"
	"image"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app/apptest"
)

// startXvfb starts a virtual X server for the test and returns its DISPLAY.
// Xvfb picks a free display number itself and writes it to -displayfd once
// it accepts connections: no guessing of numbers, and no race with a stale
// socket that a killed server left behind (CI once connected to such a
// socket before Xvfb had replaced it, and SDL said "x11 not available").
func startXvfb(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		apptest.Missing(t, "Xvfb not installed (make deps installs xvfb): %v", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var stderr strings.Builder
	cmd := exec.Command(path, "-displayfd", "3", "-screen", "0", "640x480x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w} // fd 3 in Xvfb
	cmd.Stderr = &stderr
	err = cmd.Start()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopXvfb(cmd) })
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(io.LimitReader(r, 32)).ReadString('\n')
		got <- line
	}()
	select {
	case line := <-got:
		if n, err := strconv.Atoi(strings.TrimSpace(line)); err == nil {
			return ":" + strconv.Itoa(n)
		}
		stopXvfb(cmd) // its stderr is complete once it has exited
		t.Fatalf("Xvfb gave no display number (%q): %s", line, stderr.String())
	case <-time.After(10 * time.Second):
		stopXvfb(cmd)
		t.Fatalf("Xvfb gave no display number in 10 s: %s", stderr.String())
	}
	return ""
}

// stopXvfb ends Xvfb with SIGTERM, on which it removes its socket and
// lock file, and kills it if it has not exited within 2 s. SIGKILL alone
// left both behind.
func stopXvfb(cmd *exec.Cmd) {
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// TestX11Window renders the golden scene in a real X11 window under Xvfb
// (GLX on llvmpipe), the path a desktop user takes.
func TestX11Window(t *testing.T) {
	display := startXvfb(t)
	t.Setenv("DISPLAY", display)
	t.Setenv("SDL_VIDEODRIVER", "x11")
	w := openWindow(t, WindowConfig{Width: 160, Height: 120})
	if w.Driver() != "x11" {
		t.Fatalf("driver %q, want x11", w.Driver())
	}
	var img *image.RGBA
	err := withRenderer(func(r *Renderer) error {
		renderScene(r, 160, 120)
		img = r.ReadPixels(160, 120)
		return w.Present()
	})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "scene", img)
}

// TestX11NotResizable checks SDL's resizable flag of a real X11 window made
// with and without NotResizable (SDL's X11 driver carries the flag out by
// setting the window's minimum and maximum size to its size).
func TestX11NotResizable(t *testing.T) {
	display := startXvfb(t)
	t.Setenv("DISPLAY", display)
	t.Setenv("SDL_VIDEODRIVER", "x11")
	checkResizable(t)
}

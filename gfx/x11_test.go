//go:build unix

package gfx

import (
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startXvfb starts a virtual X server for the test and returns its DISPLAY.
func startXvfb(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("Xvfb not installed in CI (make deps installs xvfb)")
		}
		t.Skip("Xvfb not installed")
	}
	for n := 90 + os.Getpid()%50; n < 200; n++ {
		sock := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		if _, err := os.Stat(sock); err == nil && xLive(n) {
			continue // a stale socket, its server gone, Xvfb replaces
		}
		cmd := exec.Command(path, fmt.Sprintf(":%d", n), "-screen", "0", "640x480x24", "-nolisten", "tcp")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stopXvfb(cmd) })
		for range 100 {
			if _, err := os.Stat(sock); err == nil {
				return fmt.Sprintf(":%d", n)
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("Xvfb :%d did not start", n)
	}
	t.Fatal("no free X display number")
	return ""
}

// stopXvfb ends Xvfb with SIGTERM, on which it removes its socket and
// lock file, and kills it if it has not exited within 2 s. SIGKILL alone
// left both behind: every run used up a display number for good, until
// startXvfb found none free.
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

// xLive reports whether the X server that holds display n's lock file is
// running: true also when the lock cannot be read, to leave it alone.
func xLive(n int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/tmp/.X%d-lock", n))
	if err != nil {
		return !os.IsNotExist(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return true
	}
	return syscall.Kill(pid, 0) == nil || errors.Is(syscall.Kill(pid, 0), syscall.EPERM)
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

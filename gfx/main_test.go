package gfx

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// calls carries GL work to the main goroutine, which holds the main OS
// thread (go-sdl2 locks it in init). go test runs each test on its own
// goroutine, so every SDL and GL call in these tests goes through onMain.
var calls = make(chan func())

func TestMain(m *testing.M) {
	flag.Parse()
	// The offscreen driver gives an EGL context on Mesa's llvmpipe with no
	// X server; tests of the X11 path ask for x11 themselves.
	if os.Getenv("SDL_VIDEODRIVER") == "" {
		os.Setenv("SDL_VIDEODRIVER", "offscreen")
	}
	done := make(chan int)
	go func() { done <- m.Run() }()
	for {
		select {
		case f := <-calls:
			f()
		case code := <-done:
			os.Exit(code)
		}
	}
}

// onMain runs f on the main thread and waits for it. f must not call
// t.Fatal or t.FailNow (they would stop the main goroutine): return values
// and assert outside.
func onMain(f func()) {
	done := make(chan struct{})
	calls <- func() {
		defer close(done)
		f()
	}
	<-done
}

// openWindow opens a hidden w×h window on the main thread. Without a GL
// context the test is skipped, except in CI (CI=true), where it fails: a GL
// test that cannot run there has not passed.
func openWindow(t *testing.T, cfg WindowConfig) *Window {
	t.Helper()
	cfg.Hidden = true
	var w *Window
	var err error
	onMain(func() { w, err = NewWindow(cfg) })
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no GL context in CI: %v", err)
		}
		t.Skipf("no GL context: %v", err)
	}
	t.Cleanup(func() { onMain(func() { w.Close() }) })
	return w
}

// withRenderer runs f on the main thread with a new renderer, closes the
// renderer after it, and returns the first error of the three.
func withRenderer(f func(r *Renderer) error) error {
	var err error
	onMain(func() {
		var r *Renderer
		if r, err = NewRenderer(); err != nil {
			return
		}
		defer func() {
			if cerr := r.Close(); err == nil {
				err = cerr
			}
		}()
		err = f(r)
	})
	return err
}

//go:build cgo

package gfx

import (
	"errors"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/app/apptest"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// streaming runs the GL tests in one streaming mode: go test ./gfx -args
// -streaming mapped (TestStreamingModes compares the modes whatever it
// is).
var streaming = flag.String("streaming", "auto", "the renderers' streaming mode: auto, persistent, mapped or copied")

// testConfig is the RendererConfig of the tests' renderers: -streaming's
// mode.
func testConfig() RendererConfig {
	m, err := ParseStreaming(*streaming)
	if err != nil {
		panic(err)
	}
	return RendererConfig{Streaming: m}
}

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
// test that cannot run there has not passed (apptest.SkipWithoutGL). Any
// other error fails it.
func openWindow(t *testing.T, cfg WindowConfig) *Window {
	t.Helper()
	cfg.Hidden = true
	var w *Window
	var err error
	onMain(func() { w, err = NewWindow(cfg) })
	// An X server that said it accepts connections (startXvfb) refused
	// SDL's once, on a machine busy compiling a cold make test ("x11 not
	// available"): it is tried again, three times in all, half a second
	// apart. No other error is.
	for try := 1; try < 3 && err != nil && strings.Contains(err.Error(), "x11 not available") && os.Getenv("DISPLAY") != ""; try++ {
		t.Logf("NewWindow, try %d: %v", try, err)
		time.Sleep(500 * time.Millisecond)
		onMain(func() { w, err = NewWindow(cfg) })
	}
	if err != nil {
		apptest.SkipWithoutGL(t, err.Error())
		t.Fatalf("NewWindow(%+v): %v", cfg, err)
	}
	t.Cleanup(func() { onMain(func() { w.Close() }) })
	return w
}

// withRenderer runs f on the main thread with a new renderer, closes the
// renderer after it, and returns the first error of the three.
func withRenderer(f func(r *Renderer) error) error { return withConfig(testConfig(), f) }

// withConfig is withRenderer with a renderer of cfg.
func withConfig(cfg RendererConfig, f func(r *Renderer) error) error {
	var err error
	onMain(func() {
		var r *Renderer
		if r, err = NewRenderer(cfg); err != nil {
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

// TestNoDisplayIsNoGL: the error NewWindow returns without a display is
// one apptest.SkipWithoutGL knows, so a game's test skips on it (outside
// CI) instead of failing.
func TestNoDisplayIsNoGL(t *testing.T) {
	err := noDisplay(errors.New("No available video device"))
	if !errors.Is(err, ErrNoDisplay) || !apptest.NoGL(err.Error()) {
		t.Errorf("%v: apptest.NoGL = false, want true", err)
	}
}

//go:build cgo

package gfx

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"
)

// TestLoadImageFile loads the image file that $GFX_LOAD_FILE names, when
// set, deletes the texture, and logs what came of it and the memory still
// held after a GC: run under /usr/bin/time -v, it measures what one file
// costs the process at its peak.
//
//	go test -c -o /tmp/gfx.test ./gfx
//	GFX_LOAD_FILE=bomb.png /usr/bin/time -v /tmp/gfx.test -test.run TestLoadImageFile -test.v
func TestLoadImageFile(t *testing.T) {
	path := os.Getenv("GFX_LOAD_FILE")
	if path == "" {
		t.Skip("GFX_LOAD_FILE is not set")
	}
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	var loadErr error
	var w, h, pages int
	var rss string
	start := time.Now()
	err := withRenderer(func(r *Renderer) error {
		tex, err := r.LoadTexture(os.DirFS(filepath.Dir(path)), filepath.Base(path), Linear)
		loadErr = err
		w, h = tex.Size()
		tex.Delete()
		pages = r.Pages()
		debug.FreeOSMemory()
		rss = vmRSS()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %dx%d in %v: %v", path, w, h, time.Since(start).Round(time.Millisecond), loadErr)
	t.Logf("after Delete and a GC: %d pages, resident %s", pages, rss)
}

// vmRSS returns the process's resident set size from /proc, or "unknown".
func vmRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	_, after, ok := bytes.Cut(b, []byte("VmRSS:"))
	if !ok {
		return "unknown"
	}
	line, _, _ := bytes.Cut(after, []byte("\n"))
	return string(bytes.TrimSpace(line))
}

//go:build cgo

package gfx

import (
	"strings"
	"testing"
)

func TestWindowContext(t *testing.T) {
	w := openWindow(t, WindowConfig{Width: 320, Height: 240, Vsync: VsyncOn})
	var version, renderer string
	var dw, dh int
	onMain(func() {
		version, renderer = w.GLVersion()
		dw, dh = w.DrawableSize()
	})
	t.Logf("driver %s, GL %s on %s, vsync %+v", w.Driver(), version, renderer, w.Vsync())
	if !strings.HasPrefix(version, "3.3") && !strings.HasPrefix(version, "4.") {
		t.Errorf("GL_VERSION %q, want 3.3 or later", version)
	}
	if dw != 320 || dh != 240 {
		t.Errorf("drawable %dx%d, want 320x240", dw, dh)
	}
}

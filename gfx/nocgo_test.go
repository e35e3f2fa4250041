//go:build !cgo

package gfx

import (
	"errors"
	"testing"
)

// TestNoCgoHasNoWindow: without cgo, Available is false and every
// constructor of a window or a GL object returns ErrNoCgo, which says
// which build this is.
func TestNoCgoHasNoWindow(t *testing.T) {
	if Available {
		t.Error("Available is true without cgo")
	}
	if ErrNoCgo.Error() != "gfx: this build has no window (built with CGO_ENABLED=0)" {
		t.Errorf("ErrNoCgo says %q", ErrNoCgo)
	}
	_, errWindow := NewWindow(WindowConfig{})
	_, errRenderer := NewRenderer(RendererConfig{})
	_, errTexture := NewTexture(1, 1, []byte{0, 0, 0, 0}, false)
	_, errFramebuffer := NewFramebuffer(1, 1)
	_, errProgram := NewProgram("a.vert", "", "a.frag", "")
	_, errMappings := LoadGamepadMappings("gamecontrollerdb.txt")
	var s Scaler
	_, _, errScaler := s.Begin(640, 480, 1, 0)
	for name, err := range map[string]error{"NewWindow": errWindow, "NewRenderer": errRenderer, "NewTexture": errTexture,
		"NewFramebuffer": errFramebuffer, "NewProgram": errProgram, "LoadGamepadMappings": errMappings, "Scaler.Begin": errScaler} {
		if !errors.Is(err, ErrNoCgo) {
			t.Errorf("%s: %v, want ErrNoCgo", name, err)
		}
	}
	// The plain values are the cgo build's.
	if c := RGBA(1, 0.5, 0, 0.5); c != (Color{128, 64, 0, 128}) {
		t.Errorf("RGBA(1, 0.5, 0, 0.5) = %v", c)
	}
	if m, err := ParseVsync("off"); err != nil || m != VsyncOff {
		t.Errorf("ParseVsync(off) = %v, %v", m, err)
	}
}

//go:build !cgo

package audio

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

// TestNoCgoOpenIsSilent: without cgo, Open returns a working silent Mixer
// and an error wrapping ErrNoDevice that names the build; loading checks
// files as the cgo build does, and Play counts.
func TestNoCgoOpenIsSilent(t *testing.T) {
	m, err := Open(Config{})
	if !errors.Is(err, ErrNoDevice) || !strings.Contains(err.Error(), "built with CGO_ENABLED=0") {
		t.Errorf("Open: %v, want ErrNoDevice and the build named", err)
	}
	if m == nil || m.Live() {
		t.Fatalf("Open returned %v, want a silent Mixer", m)
	}
	if _, err := Open(Config{Voices: 1000}); err == nil || !strings.Contains(err.Error(), "Config.Voices = 1000") {
		t.Errorf("Open with 1000 voices: %v, want the Config checked first", err)
	}
	s, err := m.LoadSound(os.DirFS("testdata"), "bounce.wav")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.LoadMusic(os.DirFS("testdata"), "blip.ogg"); err != nil {
		t.Fatal(err)
	}
	bad := fstest.MapFS{"x.wav": {Data: []byte("RIFF\x04\x00\x00\x00WAVE")}}
	if _, err := m.LoadSound(bad, "x.wav"); err == nil || !strings.HasPrefix(err.Error(), "audio: load x.wav: ") {
		t.Errorf("a broken WAV: %v, want it refused", err)
	}
	m.Play(s, 1, 0)
	m.Play(s, 1, 0)
	if m.Played != 2 || m.Dropped != 0 {
		t.Errorf("Played %d, Dropped %d after two plays, want 2 and 0", m.Played, m.Dropped)
	}
	s.Free()
	if err := m.Close(); err != nil {
		t.Error(err)
	}
}

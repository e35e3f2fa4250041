package soundfile

import (
	"errors"
	"io/fs"
	"maps"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/fixstep/fixstep/audio/internal/soundtest"
)

// load is what audio.LoadSound does before SDL_mixer sees a file.
func load(fsys fs.FS, name string) error {
	b, err := Read(fsys, name, 0)
	if err != nil {
		return err
	}
	s, err := Parse(b)
	if err != nil {
		return err
	}
	return s.CheckSound(mixer48k)
}

// TestBombs: the files that made SDL_mixer take gigabytes, and the ways to
// read forever, are refused by Read, Parse and CheckSound with their exact
// errors; what is too long for a sound passes as music.
func TestBombs(t *testing.T) {
	fsys, want := soundtest.Bombs(t)
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if err := load(fsys, name); err == nil || err.Error() != want[name] {
			t.Errorf("%s: %v\n\twant %s", name, err, want[name])
		}
	}
	for _, name := range []string{"7h.ogg", "8k.wav"} {
		b, err := Read(fsys, name, 0)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(b)
		if err == nil {
			err = s.CheckMusic(b)
		}
		if err != nil {
			t.Errorf("%s as music: %v", name, err)
		}
	}
}

// TestReadLimit: a file of the limit's size is read whole, one byte more
// is refused; a missing file is fs.ErrNotExist, named by fsys.
func TestReadLimit(t *testing.T) {
	fsys := fstest.MapFS{"a": {Data: make([]byte, 100)}}
	if b, err := Read(fsys, "a", 100); err != nil || len(b) != 100 {
		t.Errorf("100 bytes at a limit of 100: %d bytes, %v", len(b), err)
	}
	const want = "soundfile: 100 bytes, over the limit of 99 bytes"
	if _, err := Read(fsys, "a", 99); err == nil || err.Error() != want {
		t.Errorf("100 bytes at a limit of 99: %v, want %s", err, want)
	}
	_, err := Read(fsys, "missing.wav", 0)
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != "open missing.wav: file does not exist" {
		t.Errorf("missing: %v", err)
	}
}

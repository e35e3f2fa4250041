package soundfile

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/fixstep/fixstep/audio/internal/soundtest"
)

// TestWAVMusic: SDL_mixer's music loader is walked as it walks: its tag
// chunks are hidden, its loop chunks checked.
func TestWAVMusic(t *testing.T) {
	base := soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 8000, 16), -1).Chunk("data", make([]byte, 160), -1)
	// A title longer than the chunk: SDL_mixer reads past its buffer.
	list := append([]byte("INFOINAM"), 0xFF, 0xFF, 0, 0)
	b := base.Chunk("LIST", list, -1).Chunk("id3 ", []byte("ID3\x04"), -1).Done()
	if err := checkWAVMusic(b); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("JUNK")); n != 2 || bytes.Contains(b, []byte("LIST")) || bytes.Contains(b, []byte("id3 ")) {
		t.Errorf("LIST and id3 chunks left: %q", b)
	}
	smpl := func(loops uint32, size int) []byte {
		s := make([]byte, size)
		binary.LittleEndian.PutUint32(s[28:], loops)
		return s
	}
	for _, c := range []struct {
		name, want string
		b          []byte
	}{
		{"one loop", "", base.Chunk("smpl", smpl(1, 60), -1).Done()},
		{"loops past the chunk", "WAV smpl chunk at byte 204 of 60 bytes: 1000000 loops do not fit",
			base.Chunk("smpl", smpl(1000000, 60), -1).Done()},
		{"smpl past the end", "WAV smpl chunk at byte 204 runs past the end of the file",
			base.Chunk("smpl", smpl(1, 60), 1000).Done()},
		{"too many loops", "WAV smpl chunk at byte 204 with 300 loops, more than 256",
			base.Chunk("smpl", smpl(300, 36+24*300), -1).Done()},
		{"short smpl", "WAV smpl chunk at byte 204 of 30 bytes: 0 loops do not fit",
			base.Chunk("smpl", make([]byte, 30), -1).Done()},
		{"bad fmt", "WAV of 9 channels: want 1 to 8",
			base.Chunk("fmt ", soundtest.FmtPCM(1, 9, 8000, 16), -1).Done()},
	} {
		err := checkWAVMusic(c.b)
		if (err == nil) != (c.want == "") || err != nil && err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

package audio

import (
	"bytes"
	"encoding/binary"
	"testing"
	"testing/fstest"
)

// TestWAVMusic: SDL_mixer's music loader is walked as it walks: its tag
// chunks are hidden, its loop chunks checked.
func TestWAVMusic(t *testing.T) {
	base := newWAV().chunk("fmt ", fmtPCM(1, 1, 8000, 16), -1).chunk("data", make([]byte, 160), -1)
	// A title longer than the chunk: SDL_mixer reads past its buffer.
	list := append([]byte("INFOINAM"), 0xFF, 0xFF, 0, 0)
	b := base.chunk("LIST", list, -1).chunk("id3 ", []byte("ID3\x04"), -1).done()
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
		{"one loop", "", base.chunk("smpl", smpl(1, 60), -1).done()},
		{"loops past the chunk", "WAV smpl chunk at byte 204 of 60 bytes: 1000000 loops do not fit",
			base.chunk("smpl", smpl(1000000, 60), -1).done()},
		{"smpl past the end", "WAV smpl chunk at byte 204 runs past the end of the file",
			base.chunk("smpl", smpl(1, 60), 1000).done()},
		{"too many loops", "WAV smpl chunk at byte 204 with 300 loops, more than 256",
			base.chunk("smpl", smpl(300, 36+24*300), -1).done()},
		{"short smpl", "WAV smpl chunk at byte 204 of 30 bytes: 0 loops do not fit",
			base.chunk("smpl", make([]byte, 30), -1).done()},
		{"bad fmt", "WAV of 9 channels: want 1 to 8",
			base.chunk("fmt ", fmtPCM(1, 9, 8000, 16), -1).done()},
	} {
		err := checkWAVMusic(c.b)
		if (err == nil) != (c.want == "") || err != nil && err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestMusicChunksOnADevice: the smpl chunk that made LoadMusic crash
// (a 260-byte file: SDL_mixer read 2^32 loops past a 60-byte chunk) is
// refused, and a file whose LIST chunk SDL_mixer would read past loads.
func TestMusicChunksOnADevice(t *testing.T) {
	m, _ := openDisk(t)
	defer m.Close()
	base := newWAV().chunk("fmt ", fmtPCM(1, 1, 8000, 16), -1).chunk("data", make([]byte, 160), -1)
	smpl := make([]byte, 60)
	binary.LittleEndian.PutUint32(smpl[28:], 0xFFFFFFF0)
	list := append([]byte("INFO"), bytes.Repeat([]byte("A"), 4088)...)
	list = binary.LittleEndian.AppendUint32(append(list, "INAM"...), 4100)
	fsys := fstest.MapFS{
		"smpl.wav": {Data: base.chunk("smpl", smpl, -1).done()},
		"list.wav": {Data: base.chunk("LIST", list, -1).done()},
	}
	const want = "audio: load smpl.wav: WAV smpl chunk at byte 204 of 60 bytes: 4294967280 loops do not fit"
	if _, err := m.LoadMusic(fsys, "smpl.wav"); err == nil || err.Error() != want {
		t.Errorf("smpl.wav: %v, want %s", err, want)
	}
	mu, err := m.LoadMusic(fsys, "list.wav")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.PlayMusic(mu, 0); err != nil {
		t.Error(err)
	}
	mu.Free()
	if !bytes.Contains(fsys["list.wav"].Data, []byte("LIST")) {
		t.Error("LoadMusic changed the caller's file")
	}
}

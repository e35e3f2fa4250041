//go:build cgo

package audio

import (
	"bytes"
	"encoding/binary"
	"testing"
	"testing/fstest"

	"github.com/fixstep/fixstep/audio/internal/soundtest"
)

// TestMusicChunksOnADevice: the smpl chunk that made LoadMusic crash
// (a 260-byte file: SDL_mixer read 2^32 loops past a 60-byte chunk) is
// refused, and a file whose LIST chunk SDL_mixer would read past loads.
func TestMusicChunksOnADevice(t *testing.T) {
	m, _ := openDisk(t)
	defer m.Close()
	base := soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 8000, 16), -1).Chunk("data", make([]byte, 160), -1)
	smpl := make([]byte, 60)
	binary.LittleEndian.PutUint32(smpl[28:], 0xFFFFFFF0)
	list := append([]byte("INFO"), bytes.Repeat([]byte("A"), 4088)...)
	list = binary.LittleEndian.AppendUint32(append(list, "INAM"...), 4100)
	fsys := fstest.MapFS{
		"smpl.wav": {Data: base.Chunk("smpl", smpl, -1).Done()},
		"list.wav": {Data: base.Chunk("LIST", list, -1).Done()},
	}
	const want = "audio: load smpl.wav: soundfile: WAV smpl chunk at byte 204 of 60 bytes: 4294967280 loops do not fit"
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

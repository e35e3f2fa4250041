//go:build cgo

package audio

import (
	"encoding/binary"
	"maps"
	"os"
	"runtime"
	"slices"
	"testing"
	"testing/fstest"
	"time"
	"unsafe"

	"github.com/fixstep/fixstep/audio/internal/soundtest"
)

// TestBombs: the files and endless readers are refused, on a
// mixer with a device, before SDL_mixer sees them, each in well under a
// second. Run one under /usr/bin/time -v (-test.run TestBombs/7h.ogg) to
// see the peak memory it takes.
func TestBombs(t *testing.T) {
	m, _ := openDisk(t)
	defer m.Close()
	fsys, want := soundtest.Bombs(t)
	for _, name := range slices.Sorted(maps.Keys(want)) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := m.LoadSound(fsys, name)
			took := time.Since(start)
			want := "audio: load " + name + ": " + want[name]
			if err == nil || err.Error() != want {
				t.Errorf("%v\n\twant %s", err, want)
			}
			t.Logf("refused in %v", took.Round(time.Microsecond))
		})
	}
}

// TestRefusalKeepsNothing: a refused load keeps no memory: the Go heap is
// back where it was after 10 refusals of a 63 MiB file.
func TestRefusalKeepsNothing(t *testing.T) {
	fsys, _ := soundtest.Bombs(t)
	m := Silent()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 10 {
		if _, err := m.LoadSound(fsys, "8k.wav"); err == nil {
			t.Fatal("8k.wav loaded")
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 1<<20 {
		t.Errorf("the heap grew by %d bytes over 10 refused loads", grown)
	}
}

// TestMusicIsNotLimited: what is too long for a sound loads as music, on a
// silent mixer (the checks) and on a device; what is no WAV or Ogg Vorbis
// is refused as music too.
func TestMusicIsNotLimited(t *testing.T) {
	fsys, _ := soundtest.Bombs(t)
	for _, m := range []*Mixer{Silent(), func() *Mixer { m, _ := openDisk(t); return m }()} {
		for _, name := range []string{"7h.ogg", "8k.wav"} {
			mu, err := m.LoadMusic(fsys, name)
			if err != nil {
				t.Errorf("music %s: %v", name, err)
				continue
			}
			if m.Live() && mu.mus == nil {
				t.Errorf("music %s: no music on a live mixer", name)
			}
			mu.Free()
		}
		if _, err := m.LoadMusic(fsys, "boom.voc"); err == nil || err.Error() != "audio: load boom.voc: soundfile: a Creative Voice (VOC) file: want WAV or Ogg Vorbis" {
			t.Errorf("music boom.voc: %v", err)
		}
		if _, err := m.LoadMusic(fsys, "zero.wav"); err == nil {
			t.Error("music from an endless file")
		}
		if _, err := m.LoadMusic(fsys, "stack.ogg"); err == nil {
			t.Error("music of a codebook that overflows libvorbis's stack")
		}
		m.Close()
	}
	var mu *Music
	mu.Free() // a nil *Music, as a failed load returns
}

// chunkLen is the length in bytes of a sound's samples in the mixer's
// format (go-sdl2 keeps Mix_Chunk's fields unexported).
func chunkLen(s Sound) uint32 {
	return (*struct {
		allocated int32
		buf       *uint8
		len       uint32
		volume    uint8
	})(unsafe.Pointer(s.chunk)).len
}

// TestValidFilesLoad loads each valid file on the disk driver (48 kHz
// stereo 16-bit): the samples SDL_mixer holds are those the headers say,
// converted, and an Ogg Vorbis sound plays.
func TestValidFilesLoad(t *testing.T) {
	m, out := openDisk(t)
	odd := soundtest.NewWAV().
		Chunk("LIST", []byte("INFOx"), -1).
		Chunk("fmt ", append(soundtest.FmtPCM(1, 1, 48000, 16), 0, 0), -1).
		Chunk("fact", []byte{0x10, 0, 0, 0}, -1).
		Chunk("data", wav(100 * time.Millisecond)[44:], -1).
		Chunk("JUNK", []byte("odd"), -1).Done()
	past := soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 48000, 16), -1).Chunk("data", wav(10 * time.Millisecond)[44:], 0xFFFFFFF0).Done()
	float := soundtest.NewWAV().Chunk("fmt ", soundtest.FmtExtensible(3, 2, 48000, 32), -1).Chunk("data", make([]byte, 8*480), -1).Done()
	fsys := fstest.MapFS{
		"bounce.wav": {Data: soundtest.Testdata(t, "bounce.wav")},
		"blip.ogg":   {Data: soundtest.Testdata(t, "blip.ogg")},
		"odd.wav":    {Data: odd},
		"past.wav":   {Data: past},
		"float.wav":  {Data: float},
	}
	for _, c := range []struct {
		name     string
		min, max uint32 // bytes at 48 kHz stereo 16-bit
	}{
		{"odd.wav", 4800 * 4, 4800 * 4}, // same rate: exact
		{"past.wav", 480 * 4, 480 * 4},  // the 960 bytes the file holds
		{"float.wav", 480 * 4, 480 * 4},
		{"bounce.wav", 5760*4 - 64, 5760*4 + 64}, // 0.12 s resampled
		{"blip.ogg", 19200*4 - 512, 19200*4 + 512},
	} {
		s, err := m.LoadSound(fsys, c.name)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if n := chunkLen(s); n < c.min || n > c.max {
			t.Errorf("%s: %d bytes decoded, want %d to %d", c.name, n, c.min, c.max)
		}
		if c.name == "blip.ogg" {
			m.Play(s, 1, 0)
			time.Sleep(600 * time.Millisecond)
			m.Close()
		}
		defer s.Free()
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	loud := 0
	for i := 0; i+1 < len(raw); i += 2 {
		loud = max(loud, abs(int(int16(binary.LittleEndian.Uint16(raw[i:])))))
	}
	if loud < 8000 {
		t.Errorf("loudest sample %d in %d bytes of output: blip.ogg was not mixed", loud, len(raw))
	}
}

func abs(v int) int { return max(v, -v) }

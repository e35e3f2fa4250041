package audio

import (
	"bytes"
	"encoding/binary"
	"io"
	"io/fs"
	"maps"
	"os"
	"runtime"
	"slices"
	"testing"
	"testing/fstest"
	"time"
	"unsafe"
)

// genFS serves files made as they are read, so a test can offer a file of
// any size, or an endless one, without holding it.
type genFS map[string]genFile

// genFile is a file of genFS: head, then zeros up to size bytes, or zeros
// forever if endless; Stat says statSize and mode.
type genFile struct {
	head     []byte
	size     int64
	endless  bool
	statSize int64
	mode     fs.FileMode
}

func (g genFS) Open(name string) (fs.File, error) {
	f, ok := g[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	var r io.Reader = io.MultiReader(bytes.NewReader(f.head), zeros{})
	if !f.endless {
		r = io.LimitReader(r, f.size)
	}
	return &genOpen{Reader: r, name: name, f: f}, nil
}

type zeros struct{}

func (zeros) Read(b []byte) (int, error) { clear(b); return len(b), nil }

type genOpen struct {
	io.Reader
	name string
	f    genFile
}

func (o *genOpen) Stat() (fs.FileInfo, error) { return genInfo{o.name, o.f}, nil }
func (o *genOpen) Close() error               { return nil }

type genInfo struct {
	name string
	f    genFile
}

func (i genInfo) Name() string       { return i.name }
func (i genInfo) Size() int64        { return i.f.statSize }
func (i genInfo) Mode() fs.FileMode  { return i.f.mode }
func (i genInfo) ModTime() time.Time { return time.Time{} }
func (i genInfo) IsDir() bool        { return false }
func (i genInfo) Sys() any           { return nil }

// wavHeader is the 44-byte header of a PCM WAV of dataLen bytes.
func wavHeader(channels uint16, rate uint32, bits uint16, dataLen uint32) []byte {
	h := newWAV().chunk("fmt ", fmtPCM(1, channels, rate, bits), -1)
	h = append(h, "data"...)
	h = binary.LittleEndian.AppendUint32(h, dataLen)
	binary.LittleEndian.PutUint32(h[4:], 36+dataLen)
	return h
}

// bombs are the files of the issue, and the ways to read forever: each
// with the exact error LoadSound gives.
func bombs(t testing.TB) (genFS, map[string]string) {
	const tail = ", over the limit of 1m0s (256 MiB): play long audio as music (LoadMusic streams it)"
	blip := readTestdata(t, "blip.ogg")
	// 7 hours at 22050 Hz in packets of 512 samples, one byte each, as
	// the 1.66 MB file of silence.
	const packets7h = 7 * 3600 * 22050 / 512
	fsys := genFS{
		"boom.voc":    {head: []byte("Creative Voice File\x1a\x1a\x00\x0a\x01\x29\x11\x01\xff\xff\xff\xa5\x00"), size: 7 << 10},
		"7h.ogg":      {head: withLastGranule(t, blip, 7*3600*22050)},
		"silence.ogg": {head: oggBomb(t, 22050, 10, packets7h, 7*3600*22050)},
		"liar.ogg":    {head: oggBomb(t, 8000, 13, 9997, 8000)},
		"stack.ogg":   {head: withBooks(t, stackBook, 1)},
		"books.ogg":   {head: withBooks(t, valueBook, 200)},
		"8k.wav":      {head: wavHeader(1, 8000, 8, 63<<20), size: 44 + 63<<20},
		"64MiB.wav":   {head: wavHeader(1, 8000, 8, 64<<20), size: 44 + 64<<20},
		"zero.wav":    {endless: true},
		"dev":         {endless: true, mode: fs.ModeDevice | fs.ModeCharDevice},
		"fifo":        {endless: true, mode: fs.ModeNamedPipe},
	}
	for name, f := range fsys {
		if f.size == 0 && !f.endless {
			f.size = int64(len(f.head))
		}
		f.statSize = f.size
		fsys[name] = f
	}
	return fsys, map[string]string{
		"boom.voc":    "audio: load boom.voc: a Creative Voice (VOC) file: want WAV or Ogg Vorbis",
		"7h.ogg":      "audio: load 7h.ogg: 7h0m0s of sound decodes to 9.3 GiB" + tail,
		"silence.ogg": "audio: load silence.ogg: 7h0m0s of sound decodes to 9.4 GiB" + tail,
		"liar.ogg": "audio: load liar.ogg: 1s of sound by its granule positions, " +
			"but its 10000 packets could decode to 1h25m20s and 1.9 GiB" + tail,
		"stack.ogg": "audio: load stack.ogg: Vorbis setup header of the stream at byte 0: a codebook of 1048576 entries, " +
			"over the limit of 16384 (libvorbis puts 12 bytes an entry on the stack)",
		"books.ogg": "audio: load books.ogg: Vorbis setup header of the stream at byte 0: codebooks and residues " +
			"that take 12.5 GiB to decode with, over the limit of 16 MiB",
		"8k.wav":    "audio: load 8k.wav: 2h17m38s of sound decodes to 6.0 GiB" + tail,
		"64MiB.wav": "audio: load 64MiB.wav: 67108908 bytes, over the limit of 64 MiB",
		"zero.wav":  "audio: load zero.wav: more than the limit of 64 MiB, though its size says 0 bytes: reading stopped there",
		"dev":       "audio: load dev: a character device, not a regular file",
		"fifo":      "audio: load fifo: a named pipe (FIFO), not a regular file",
	}
}

// TestBombs: the files and endless readers are refused, on a
// mixer with a device, before SDL_mixer sees them, each in well under a
// second. Run one under /usr/bin/time -v (-test.run TestBombs/7h.ogg) to
// see the peak memory it takes.
func TestBombs(t *testing.T) {
	m, _ := openDisk(t)
	defer m.Close()
	fsys, want := bombs(t)
	for _, name := range slices.Sorted(maps.Keys(want)) {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := m.LoadSound(fsys, name)
			took := time.Since(start)
			if err == nil || err.Error() != want[name] {
				t.Errorf("%v\n\twant %s", err, want[name])
			}
			t.Logf("refused in %v", took.Round(time.Microsecond))
		})
	}
}

// TestRefusalKeepsNothing: a refused load keeps no memory: the Go heap is
// back where it was after 10 refusals of a 63 MiB file.
func TestRefusalKeepsNothing(t *testing.T) {
	fsys, _ := bombs(t)
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
	fsys, _ := bombs(t)
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
		if _, err := m.LoadMusic(fsys, "boom.voc"); err == nil || err.Error() != "audio: load boom.voc: a Creative Voice (VOC) file: want WAV or Ogg Vorbis" {
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
	odd := newWAV().
		chunk("LIST", []byte("INFOx"), -1).
		chunk("fmt ", append(fmtPCM(1, 1, 48000, 16), 0, 0), -1).
		chunk("fact", []byte{0x10, 0, 0, 0}, -1).
		chunk("data", wav(100 * time.Millisecond)[44:], -1).
		chunk("JUNK", []byte("odd"), -1).done()
	past := newWAV().chunk("fmt ", fmtPCM(1, 1, 48000, 16), -1).chunk("data", wav(10 * time.Millisecond)[44:], 0xFFFFFFF0).done()
	float := newWAV().chunk("fmt ", fmtExtensible(3, 2, 48000, 32), -1).chunk("data", make([]byte, 8*480), -1).done()
	fsys := fstest.MapFS{
		"bounce.wav": {Data: readTestdata(t, "bounce.wav")},
		"blip.ogg":   {Data: readTestdata(t, "blip.ogg")},
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

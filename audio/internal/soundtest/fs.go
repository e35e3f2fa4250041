package soundtest

import (
	"bytes"
	"io"
	"io/fs"
	"testing"
	"time"
)

// GenFS serves files made as they are read, so a test can offer a file of
// any size, or an endless one, without holding it.
type GenFS map[string]GenFile

// GenFile is a file of GenFS: Head, then zeros up to Size bytes, or zeros
// forever if Endless; Stat says StatSize and Mode.
type GenFile struct {
	Head     []byte
	Size     int64
	Endless  bool
	StatSize int64
	Mode     fs.FileMode
}

// Open opens the file name: fs.ErrNotExist when there is none.
func (g GenFS) Open(name string) (fs.File, error) {
	f, ok := g[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	var r io.Reader = io.MultiReader(bytes.NewReader(f.Head), zeros{})
	if !f.Endless {
		r = io.LimitReader(r, f.Size)
	}
	return &genOpen{Reader: r, name: name, f: f}, nil
}

type zeros struct{}

func (zeros) Read(b []byte) (int, error) { clear(b); return len(b), nil }

type genOpen struct {
	io.Reader
	name string
	f    GenFile
}

func (o *genOpen) Stat() (fs.FileInfo, error) { return genInfo{o.name, o.f}, nil }
func (o *genOpen) Close() error               { return nil }

type genInfo struct {
	name string
	f    GenFile
}

func (i genInfo) Name() string       { return i.name }
func (i genInfo) Size() int64        { return i.f.StatSize }
func (i genInfo) Mode() fs.FileMode  { return i.f.Mode }
func (i genInfo) ModTime() time.Time { return time.Time{} }
func (i genInfo) IsDir() bool        { return false }
func (i genInfo) Sys() any           { return nil }

// Bombs are the files that made SDL_mixer take gigabytes (a 7 KB VOC took
// 1.9 GB), Ogg Vorbis files that declare hours, setup headers that
// overflow libvorbis, and the ways to read forever, each with the exact error soundfile gives when
// it reads, parses and checks it as a sound for a 48 kHz stereo mixer
// (audio.LoadSound's error is "audio: load NAME: " and that).
func Bombs(t testing.TB) (GenFS, map[string]string) {
	const tail = ", over the limit of 1m0s (256 MiB): play long audio as music (LoadMusic streams it)"
	blip := Testdata(t, "blip.ogg")
	// 7 hours at 22050 Hz in packets of 512 samples, one byte each, as
	// the 1.66 MB file of silence.
	const packets7h = 7 * 3600 * 22050 / 512
	fsys := GenFS{
		"boom.voc":    {Head: []byte("Creative Voice File\x1a\x1a\x00\x0a\x01\x29\x11\x01\xff\xff\xff\xa5\x00"), Size: 7 << 10},
		"7h.ogg":      {Head: WithLastGranule(t, blip, 7*3600*22050)},
		"silence.ogg": {Head: OggBomb(t, 22050, 10, packets7h, 7*3600*22050)},
		"liar.ogg":    {Head: OggBomb(t, 8000, 13, 9997, 8000)},
		"stack.ogg":   {Head: WithBooks(t, StackBook, 1)},
		"books.ogg":   {Head: WithBooks(t, ValueBook, 200)},
		"8k.wav":      {Head: WAVHeader(1, 8000, 8, 63<<20), Size: 44 + 63<<20},
		"64MiB.wav":   {Head: WAVHeader(1, 8000, 8, 64<<20), Size: 44 + 64<<20},
		"zero.wav":    {Endless: true},
		"dev":         {Endless: true, Mode: fs.ModeDevice | fs.ModeCharDevice},
		"fifo":        {Endless: true, Mode: fs.ModeNamedPipe},
	}
	for name, f := range fsys {
		if f.Size == 0 && !f.Endless {
			f.Size = int64(len(f.Head))
		}
		f.StatSize = f.Size
		fsys[name] = f
	}
	return fsys, map[string]string{
		"boom.voc":    "soundfile: a Creative Voice (VOC) file: want WAV or Ogg Vorbis",
		"7h.ogg":      "soundfile: 7h0m0s of sound decodes to 9.3 GiB" + tail,
		"silence.ogg": "soundfile: 7h0m0s of sound decodes to 9.4 GiB" + tail,
		"liar.ogg": "soundfile: 1s of sound by its granule positions, " +
			"but its 10000 packets could decode to 1h25m20s and 1.9 GiB" + tail,
		"stack.ogg": "soundfile: Vorbis setup header of the stream at byte 0: a codebook of 1048576 entries, " +
			"over the limit of 16384 (libvorbis puts 12 bytes an entry on the stack)",
		"books.ogg": "soundfile: Vorbis setup header of the stream at byte 0: codebooks and residues " +
			"that take 12.5 GiB to decode with, over the limit of 16 MiB",
		"8k.wav":    "soundfile: 2h17m38s of sound decodes to 6.0 GiB" + tail,
		"64MiB.wav": "soundfile: 67108908 bytes, over the limit of 64 MiB",
		"zero.wav":  "soundfile: more than the limit of 64 MiB, though its size says 0 bytes: reading stopped there",
		"dev":       "soundfile: a character device, not a regular file",
		"fifo":      "soundfile: a named pipe (FIFO), not a regular file",
	}
}

package soundfile

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/fixstep/fixstep/audio/internal/soundtest"
)

// mixer48k is the default mixer's format: 48 kHz stereo, 512-sample
// buffer.
var mixer48k = Output{Rate: 48000, Channels: 2, Fragment: 2048}

// TestParseValid reads the headers of the valid files: what they say and
// what decoding them takes, by SDL's code (see cost).
func TestParseValid(t *testing.T) {
	odd := soundtest.NewWAV().
		Chunk("LIST", []byte("INFOx"), -1). // odd size: a pad byte follows
		Chunk("fmt ", append(soundtest.FmtPCM(1, 1, 48000, 16), 0, 0), -1).
		Chunk("fact", []byte{0x10, 0, 0, 0}, -1).
		Chunk("data", make([]byte, 2*4801), -1).
		Chunk("JUNK", []byte("odd"), -1).Done()
	for _, c := range []struct {
		name     string
		b        []byte
		ogg      bool
		channels int
		rate     int
		duration time.Duration
		cost     int64
	}{
		// 22050 Hz 16-bit mono to 48 kHz stereo: 2 (to float) × 2
		// (channels) × 3 × 2 (rate) = 24 times the samples, beside them.
		{"bounce.wav", soundtest.Testdata(t, "bounce.wav"), false, 1, 22050, 120000 * time.Microsecond, 5292 * 25},
		{"odd.wav", odd, false, 1, 48000, 100020833 * time.Nanosecond, 9602 * 5}, // 2 × 2, none for the rate
		{"float.wav", soundtest.NewWAV().Chunk("fmt ", soundtest.FmtExtensible(3, 2, 48000, 32), -1).Chunk("data", make([]byte, 8*480), -1).Done(),
			false, 2, 48000, 10 * time.Millisecond, 8 * 480 * 2},
		{"24bit.wav", soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 2, 96000, 24), -1).Chunk("data", make([]byte, 6*960), -1).Done(),
			false, 2, 96000, 10 * time.Millisecond, 8*960 + 8*960*2},
		// 22 packets (3 headers) of at most 512 samples at 22050 Hz: 0.51 s,
		// 2% and 65536 frames more for the resampler, twice (fragments and
		// the buffer), 64 bytes for each of 178 fragments, and 146774 bytes
		// of decoder tables.
		{"blip.ogg", soundtest.Testdata(t, "blip.ogg"), true, 1, 22050, 400 * time.Millisecond, 736469 + 146774},
	} {
		s, err := parseSound(c.b)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if s.ogg != c.ogg || s.channels != c.channels || s.rate != c.rate || s.duration != c.duration {
			t.Errorf("%s: ogg %v, %d channels at %d Hz, %v; want %v, %d at %d, %v",
				c.name, s.ogg, s.channels, s.rate, s.duration, c.ogg, c.channels, c.rate, c.duration)
		}
		if got := s.cost(mixer48k); got != c.cost {
			t.Errorf("%s: decoding takes %d bytes, want %d", c.name, got, c.cost)
		}
		if err := s.checkSound(mixer48k); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// TestParseRefusals: every kind of file but WAV and Ogg Vorbis, and every
// damaged header, is refused with its name.
func TestParseRefusals(t *testing.T) {
	blip := soundtest.Testdata(t, "blip.ogg")
	badCRC := bytes.Clone(blip)
	badCRC[100] ^= 1
	opus := soundtest.OggPage(2, 0, 1, 0, []byte{19}, []byte("OpusHead\x01\x02\x38\x01\x80\xbb\x00\x00\x00\x00\x00"))
	mod := append(make([]byte, 1080), "M.K."...)
	for _, c := range []struct{ name, b, want string }{
		{"empty", "", "an empty file: want WAV or Ogg Vorbis"},
		{"voc", "Creative Voice File\x1a\x1a\x00\x0a\x01\x29\x11\x01\x02\x30\x00", "a Creative Voice (VOC) file: want WAV or Ogg Vorbis"},
		{"aiff", "FORM\x00\x00\x00\x2eAIFFCOMM\x00\x00\x00\x12", "an AIFF file: want WAV or Ogg Vorbis"},
		{"aifc", "FORM\x00\x00\x00\x2eAIFC", "an AIFF-C file: want WAV or Ogg Vorbis"},
		{"mp3", "ID3\x04\x00\x00\x00\x00\x00\x00", "an MP3 file: want WAV or Ogg Vorbis"},
		{"mp3 frame", "\xff\xfb\x90\x64\x00", "an MP3 file: want WAV or Ogg Vorbis"},
		{"flac", "fLaC\x00\x00\x00\x22", "a FLAC file: want WAV or Ogg Vorbis"},
		{"midi", "MThd\x00\x00\x00\x06", "a MIDI file: want WAV or Ogg Vorbis"},
		{"mod", string(mod), "a tracker module (MOD, XM, S3M or IT): want WAV or Ogg Vorbis"},
		{"avi", "RIFF\x00\x00\x00\x00AVI LIST", `a RIFF file of form "AVI ", not WAVE: want WAV or Ogg Vorbis`},
		{"rf64", "RF64\xff\xff\xff\xffWAVEds64", "an RF64 (64-bit WAV) file: want WAV or Ogg Vorbis"},
		{"short riff", "RIFF\x10\x00", "a truncated RIFF header (6 bytes): want WAV or Ogg Vorbis"},
		{"bare wave", "WAVEfmt ", "a WAVE form without its RIFF header: want WAV or Ogg Vorbis"},
		{"text", "la la la", `not a WAV or Ogg Vorbis file (it begins "la la la")`},
		{"garbage", "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09", `not a WAV or Ogg Vorbis file (it begins "\x00\x01\x02\x03\x04\x05\x06\a"...)`},

		{"wav cut in fmt", "RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00", "WAV file without a data chunk (truncated at 22 bytes?)"},
		{"wav no data", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 8000, 8), -1).Done()), "WAV file without a data chunk (truncated at 36 bytes?)"},
		{"wav no fmt", string(soundtest.NewWAV().Chunk("data", []byte{1, 2}, -1).Done()), "WAV file without a fmt chunk"},
		{"wav fmt after data", string(soundtest.NewWAV().Chunk("data", []byte{1, 2}, -1).Chunk("fmt ", soundtest.FmtPCM(1, 1, 8000, 8), -1).Done()),
			"WAV file with its fmt chunk after its data chunk (at byte 22)"},
		{"wav short fmt", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 8000, 8)[:14], -1).Chunk("data", nil, -1).Done()),
			"WAV fmt chunk of 14 bytes (14 in the file), want 16 or more"},
		{"wav adpcm", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(2, 1, 8000, 4), -1).Chunk("data", nil, -1).Done()),
			"WAV of MS ADPCM (format tag 0x0002): want PCM or IEEE float"},
		{"wav tag 0x1234", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(0x1234, 1, 8000, 8), -1).Chunk("data", nil, -1).Done()),
			"WAV of format tag 0x1234: want PCM (1) or IEEE float (3)"},
		{"wav 12-bit", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 8000, 12), -1).Chunk("data", nil, -1).Done()),
			"WAV of 12-bit PCM: want 8, 16, 24 or 32 bits"},
		{"wav 64-bit float", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(3, 1, 8000, 64), -1).Chunk("data", nil, -1).Done()),
			"WAV of 64-bit float: want 32 bits"},
		{"wav 9 channels", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 9, 8000, 16), -1).Chunk("data", nil, -1).Done()),
			"WAV of 9 channels: want 1 to 8"},
		{"wav 10 Hz", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 10, 16), -1).Chunk("data", nil, -1).Done()),
			"WAV at 10 Hz: want 1000 to 384000 Hz"},
		{"wav block", string(soundtest.NewWAV().Chunk("fmt ", append(soundtest.FmtPCM(1, 2, 8000, 16)[:12], 1, 0, 16, 0), -1).Chunk("data", nil, -1).Done()),
			"WAV fmt chunk with a block of 1 bytes: 2 channels of 16 bits make 4"},
		{"wav extensible ADPCM", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtExtensible(2, 1, 8000, 4), -1).Chunk("data", nil, -1).Done()),
			"WAV of MS ADPCM (format tag 0x0002): want PCM or IEEE float"},
		{"wav extensible short", string(soundtest.NewWAV().Chunk("fmt ", soundtest.FmtExtensible(1, 1, 8000, 16)[:24], -1).Chunk("data", nil, -1).Done()),
			"WAV fmt chunk of WAVE_FORMAT_EXTENSIBLE in 24 bytes, want 40"},

		{"ogg opus", string(opus), "an Ogg Opus stream at byte 0: want Ogg Vorbis"},
		{"ogg cut in header", string(blip[:20]), "Ogg file truncated in the page header at byte 0"},
		{"ogg cut in body", string(blip[:3000]), "Ogg file truncated in the page at byte 58 (2942 of its 3366 bytes)"},
		{"ogg bad checksum", string(badCRC), "Ogg page at byte 58 with a wrong checksum (d06ff580, its bytes make 47876093)"},
		{"ogg junk after", string(blip) + "TAG", `Ogg file with no page at byte 5400 (it reads "TAG")`},
		{"ogg no bos", string(soundtest.OggPage(0, 0, 1, 0, []byte{30}, soundtest.VorbisIdent(1, 8000, 8, 11))), "Ogg file whose first page begins no stream"},
		{"ogg 0 channels", string(soundtest.OggPage(2, 0, 1, 0, []byte{30}, soundtest.VorbisIdent(0, 8000, 8, 11))),
			"Ogg Vorbis stream at byte 0 of 0 channels: want 1 to 8"},
		{"ogg blocks", string(soundtest.OggPage(2, 0, 1, 0, []byte{30}, soundtest.VorbisIdent(1, 8000, 8, 14))),
			"Vorbis identification header at byte 0 with blocks of 2^8 and 2^14 samples, or no framing bit"},
		{"ogg 1 Hz", string(soundtest.OggPage(2, 0, 1, 0, []byte{30}, soundtest.VorbisIdent(1, 1, 8, 11))),
			"Ogg Vorbis stream at byte 0 at 1 Hz: want 1000 to 384000 Hz"},
		{"ogg two packets first", string(soundtest.OggPage(2, 0, 1, 0, []byte{30, 1}, append(soundtest.VorbisIdent(1, 8000, 8, 11), 3))),
			"Ogg file whose first page is not one 30-byte identification header"},
		{"ogg chained opus", string(append(soundtest.OggBomb(t, 8000, 11, 1, 0), opus...)), "an Ogg Opus stream at byte 3453: want Ogg Vorbis"},
	} {
		_, err := parseSound([]byte(c.b))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v\n\twant %s", c.name, err, c.want)
		}
	}
}

// TestWAVDataPastTheEnd: a data chunk that declares more than the file
// holds is read for what it holds, and the size SDL reads is clamped.
func TestWAVDataPastTheEnd(t *testing.T) {
	b := soundtest.NewWAV().Chunk("fmt ", soundtest.FmtPCM(1, 1, 48000, 16), -1).Chunk("data", make([]byte, 960), 0xFFFFFFF0).Done()
	s, err := parseSound(b)
	if err != nil {
		t.Fatal(err)
	}
	if s.declared != 0xFFFFFFF0 || s.dataLen != 960 || s.frames != 480 || s.duration != 10*time.Millisecond {
		t.Errorf("declared %d, read %d bytes, %d frames, %v; want 4294967280, 960, 480, 10ms", s.declared, s.dataLen, s.frames, s.duration)
	}
	clampWAVData(b, s)
	if got := binary.LittleEndian.Uint32(b[40:]); got != 960 {
		t.Errorf("the data chunk's size reads %d after clamping, want 960", got)
	}
	again, err := parseSound(b)
	if err != nil || again.declared != 960 || again.frames != 480 {
		t.Errorf("after clamping: %+v, %v", again, err)
	}
}

// FuzzSoundHeader reads any bytes as a sound: no panic; either an error or
// a sound whose cost is a size, whose sizes fit in the file, and which
// reads the same after LoadSound's clamping; the check of WAV music
// never panics and leaves nothing to do a second time.
func FuzzSoundHeader(f *testing.F) {
	f.Add(soundtest.Testdata(f, "bounce.wav"))
	f.Add(soundtest.Testdata(f, "blip.ogg"))
	f.Add([]byte(soundtest.NewWAV().Chunk("LIST", []byte("INFOx"), -1).Chunk("fmt ", soundtest.FmtExtensible(3, 2, 44100, 32), -1).
		Chunk("data", make([]byte, 24), 1<<31).Done()))
	f.Add(soundtest.OggBomb(f, 8000, 11, 300, 1<<40))
	f.Add([]byte("Creative Voice File\x1a"))
	f.Add(soundtest.WithBooks(f, soundtest.StackBook, 1))
	f.Add(soundtest.WithBooks(f, soundtest.ValueBook, 2))
	f.Fuzz(func(t *testing.T, b []byte) {
		if music := bytes.Clone(b); checkWAVMusic(music) == nil {
			again := bytes.Clone(music)
			if err := checkWAVMusic(again); err != nil || !bytes.Equal(again, music) {
				t.Fatalf("checked twice: %v, or changed again", err)
			}
		}
		if bytes.HasPrefix(b, []byte("OggS")) {
			// Mutations break checksums: mend them, so the fuzzer gets past
			// them to the headers.
			b = soundtest.MendCRCs(b)
		}
		s, err := parseSound(b)
		if err != nil {
			if !strings.Contains(err.Error(), " ") {
				t.Errorf("error %q names nothing", err)
			}
			return
		}
		if s.channels < 1 || s.channels > maxChannels || s.rate < minRate || s.rate > maxRate || s.duration < 0 {
			t.Fatalf("accepted %d channels at %d Hz, %v", s.channels, s.rate, s.duration)
		}
		for _, o := range []Output{mixer48k, {8000, 1, 128}, {192000, 8, 16384 * 16}} {
			if c := s.cost(o); c < 0 {
				t.Fatalf("cost %d for %+v", c, o)
			}
			if err := s.checkSound(o); err == nil && (s.cost(o) > MaxSoundBytes || s.duration > MaxSoundDuration) {
				t.Fatalf("accepted %v costing %d", s.duration, s.cost(o))
			}
		}
		if s.ogg {
			if s.packets < 1 || s.maxSeconds < 0 {
				t.Fatalf("%d packets, %v s", s.packets, s.maxSeconds)
			}
			return
		}
		// What SDL reads: no more than the file holds past the data chunk's
		// start, all of it when the chunk declares more.
		if s.dataLen < 0 || int64(s.dataSize)+4+s.dataLen > int64(len(b)) ||
			s.dataLen > s.declared || s.dataLen < s.declared && int64(s.dataSize)+4+s.dataLen != int64(len(b)) {
			t.Fatalf("data of %d bytes at %d, declared %d, in %d", s.dataLen, s.dataSize+4, s.declared, len(b))
		}
		if s.cost(mixer48k) < s.dataLen {
			t.Fatalf("cost %d under the %d bytes read", s.cost(mixer48k), s.dataLen)
		}
		c := bytes.Clone(b)
		clampWAVData(c, s)
		again, err := parseSound(c)
		if err != nil || again.frames != s.frames || again.dataLen != s.dataLen || again.declared != s.dataLen {
			t.Fatalf("after clamping: %+v, %v; before %+v", again, err, s)
		}
	})
}

// FuzzVorbisSetup reads any bytes as a Vorbis setup header: no panic, and
// what it accepts it sizes.
func FuzzVorbisSetup(f *testing.F) {
	_, setup := soundtest.SplitHeaders(f, soundtest.OggPages(f, soundtest.Testdata(f, "blip.ogg"))[1])
	f.Add(setup)
	f.Add([]byte("\x05vorbis\x00BCV\x01\x00\x10\x00\x00\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := parseVorbisSetup(append([]byte("\x05vorbis"), b...))
		if err == nil && (s.bytes < 0 || s.maxEntries < 0) {
			t.Fatalf("%+v", s)
		}
	})
}

package soundfile

import (
	"bytes"
	"fmt"
	"math"
	"time"
)

// Info is what a sound file's headers say about it, read by Parse before
// SDL_mixer sees the file: enough to tell how much memory decoding it takes
// (Cost). The zero Info describes no file; Parse makes one.
type Info struct {
	ogg      bool // Ogg Vorbis; WAV otherwise
	channels int  // as stored (Ogg: the first stream's)
	rate     int  // Hz, as stored (Ogg: the first stream's)
	// duration is the sound's length by its headers: exact for a WAV, the
	// granule positions of an Ogg Vorbis file's last pages (which a file
	// can misstate: see maxSeconds).
	duration time.Duration

	// WAV only.
	bits     int   // bits per sample as stored: 8, 16, 24 or 32
	float    bool  // IEEE float samples
	frames   int64 // sample frames SDL reads
	dataLen  int64 // bytes of the data chunk SDL reads: its size, or what the file holds if less
	dataSize int   // offset of the data chunk's size field
	declared int64 // the data chunk's size field

	// Ogg only.
	packets    int64   // packets in the file, headers included
	maxSeconds float64 // the most audio its packets can decode to, in seconds
	tables     int64   // the decoder's tables, built from the setup headers, in bytes
}

// Sample rates and channel counts a sound or music file may have. SDL 2.26
// converts from 1 to 8 channels; the rates are every rate in use, from
// telephone audio to studio masters.
const (
	minRate     = 1000
	maxRate     = 384000
	maxChannels = 8
)

// parseSound identifies b by its content and reads its headers. It accepts
// a RIFF WAVE file of PCM or IEEE float samples and an Ogg Vorbis file; it
// names anything else. It never decodes audio and never allocates more than
// a few bytes per Ogg stream.
func parseSound(b []byte) (Info, error) {
	switch {
	case bytes.HasPrefix(b, []byte("RIFF")) && len(b) >= 12 && string(b[8:12]) == "WAVE":
		return parseWAV(b)
	case bytes.HasPrefix(b, []byte("OggS")):
		return parseOgg(b)
	}
	if what := fileKind(b); what != "" {
		return Info{}, fmt.Errorf("%s: want WAV or Ogg Vorbis", what)
	}
	return Info{}, fmt.Errorf("not a WAV or Ogg Vorbis file (it begins %s)", quoteStart(b))
}

// fileKind names the kinds of file people mistake for WAV or Ogg Vorbis, or
// that SDL_mixer would decode if asked, by their magic bytes; "" when b is
// none of them.
func fileKind(b []byte) string {
	has := func(off int, magic string) bool {
		return len(b) >= off+len(magic) && string(b[off:off+len(magic)]) == magic
	}
	switch {
	case len(b) == 0:
		return "an empty file"
	case has(0, "RIFF") && len(b) < 12:
		return fmt.Sprintf("a truncated RIFF header (%d bytes)", len(b))
	case has(0, "RIFF"):
		return fmt.Sprintf("a RIFF file of form %q, not WAVE", b[8:12])
	case has(0, "RIFX"):
		return "a big-endian RIFF (RIFX) file"
	case has(0, "RF64"), has(0, "BW64"):
		return "an RF64 (64-bit WAV) file"
	case has(0, "Creative Voice File"):
		return "a Creative Voice (VOC) file"
	case has(0, "FORM") && has(8, "AIFF"):
		return "an AIFF file"
	case has(0, "FORM") && has(8, "AIFC"):
		return "an AIFF-C file"
	case has(0, "FORM"):
		return "an IFF file"
	case has(0, "fLaC"):
		return "a FLAC file"
	case has(0, "ID3"), len(b) >= 2 && b[0] == 0xFF && b[1]&0xE0 == 0xE0:
		return "an MP3 file"
	case has(0, "MThd"):
		return "a MIDI file"
	case has(4, "ftyp"):
		return "an MP4 (AAC or ALAC) file"
	case has(0, "Extended Module: "), has(44, "SCRM"), has(0, "IMPM"), has(1080, "M.K."):
		return "a tracker module (MOD, XM, S3M or IT)"
	case has(0, "WAVE"):
		return "a WAVE form without its RIFF header"
	}
	return ""
}

// quoteStart quotes the first few bytes of b for an error message.
func quoteStart(b []byte) string {
	if len(b) > 8 {
		return fmt.Sprintf("%q...", b[:8])
	}
	return fmt.Sprintf("%q", b)
}

// seconds converts a length in seconds to a Duration, saturating.
func seconds(s float64) time.Duration {
	if s >= float64(math.MaxInt64)/float64(time.Second) {
		return math.MaxInt64
	}
	return time.Duration(s * float64(time.Second))
}

func le16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }
func le32(b []byte) uint32 { return uint32(le16(b)) | uint32(le16(b[2:]))<<16 }
func le64(b []byte) uint64 { return uint64(le32(b)) | uint64(le32(b[4:]))<<32 }

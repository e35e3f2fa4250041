// Package soundfile checks sound and music files before a decoder sees
// them: what package audio does before SDL2_mixer loads a file. It is pure
// Go (no cgo, no SDL), so its checks build, test and fuzz anywhere.
//
// It takes two kinds of file, told by their content, not by their name: a
// RIFF WAVE file of PCM samples (8, 16, 24 or 32 bits) or of 32-bit IEEE
// float samples, plain or WAVE_FORMAT_EXTENSIBLE; and an Ogg Vorbis file.
// Either has 1 to 8 channels at 1 to 384 kHz. Parse refuses anything else
// (VOC, AIFF, MP3, FLAC, Opus, MOD, MIDI, ADPCM or A-law WAV, a damaged Ogg
// page) with an error that says what the file is. It reads headers only:
// it never decodes audio, and allocates a few bytes per Ogg stream.
//
// A file of a few kilobytes can declare hours of audio, or a Vorbis setup
// header that makes libvorbis 1.3.7 put 12 MiB on the stack or allocate
// gigabytes of tables. Info.CheckSound bounds a sound by its length
// (MaxSoundDuration) and by the memory SDL_mixer 2.6 takes to decode it
// whole (MaxSoundBytes, worked out from SDL's code for a mixer's Output);
// Parse refuses a codebook of more than 16384 entries or decoder tables of
// more than 16 MiB for sounds and music alike; Info.CheckMusic walks a WAV
// as SDL_mixer's streaming loader does. Read reads at most MaxFileBytes of
// a regular file. See audio's package doc for why each limit is where it
// is.
//
// Errors begin "soundfile: " and say what is wrong with the file (its
// kind, the field, the value and the allowed range) but not its name,
// which the caller adds: audio.LoadSound's errors read "audio: load
// NAME: soundfile: ...".
package soundfile

import (
	"fmt"
	"time"
)

// Parse identifies the sound or music file b by its content and reads its
// headers: a WAV of PCM or float samples, or an Ogg Vorbis file, whose
// every page's checksum and every stream's Vorbis headers are checked. It
// names anything else.
func Parse(b []byte) (Info, error) {
	s, err := parseSound(b)
	if err != nil {
		return Info{}, fmt.Errorf("soundfile: %w", err)
	}
	return s, nil
}

// Vorbis reports whether the file is Ogg Vorbis; WAV otherwise.
func (s Info) Vorbis() bool { return s.ogg }

// Channels returns the file's channel count (an Ogg file's: its first
// stream's).
func (s Info) Channels() int { return s.channels }

// Rate returns the file's sample rate in Hz (an Ogg file's: its first
// stream's).
func (s Info) Rate() int { return s.rate }

// Duration returns the sound's length by its headers: exact for a WAV, the
// granule positions of its last pages for Ogg Vorbis (which a file can
// misstate: CheckSound bounds what its packets can decode to as well).
func (s Info) Duration() time.Duration { return s.duration }

// Cost returns the most memory, in bytes, SDL_mixer 2.6 (with SDL 2.26)
// holds at once while it loads the file as a sound for a mixer of format
// o, by its code. It saturates at math.MaxInt64.
func (s Info) Cost(o Output) int64 { return s.cost(o) }

// CheckSound refuses a sound longer than MaxSoundDuration, or whose
// decoding would take more than MaxSoundBytes on a mixer of format o, with
// an error that gives its length and that memory.
func (s Info) CheckSound(o Output) error {
	if err := s.checkSound(o); err != nil {
		return fmt.Errorf("soundfile: %w", err)
	}
	return nil
}

// ClampData writes into b, the file s was parsed from, the size of its
// WAV data chunk that s read, when the file holds less than the chunk
// declares: SDL allocates the declared size before it reads, so a 100-byte
// file could make it allocate 4 GiB. The samples SDL reads do not change.
// It does nothing to an Ogg Vorbis file or a whole WAV.
func (s Info) ClampData(b []byte) { clampWAVData(b, s) }

// CheckMusic checks b, the file s was parsed from, for SDL_mixer 2.6's
// streaming loader, which reads a WAV otherwise than SDL does: it walks
// every chunk to the end of the file, renames LIST and "id3 " chunks to
// JUNK in b (SDL_mixer's readers of their tags trust the file, and the
// mixer never shows them), and refuses an smpl chunk whose loops do not
// fit in it and any fmt chunk Parse would refuse. It does nothing to an
// Ogg Vorbis file, whose setup headers Parse has checked.
func (s Info) CheckMusic(b []byte) error {
	if s.ogg {
		return nil
	}
	if err := checkWAVMusic(b); err != nil {
		return fmt.Errorf("soundfile: %w", err)
	}
	return nil
}

package soundfile

import (
	"fmt"
	"math"
	"time"
)

// MaxSoundDuration is the longest sound CheckSound accepts, by the file's
// headers. SDL_mixer decodes a sound whole into memory at load time; longer
// audio is music, which audio.LoadMusic streams.
const MaxSoundDuration = 60 * time.Second

// MaxSoundBytes is the most memory, in bytes, that CheckSound lets
// SDL_mixer take at once to decode a sound: the samples as stored, and the
// buffer it converts them in to the mixer's rate, channels and 16 bits
// (SDL makes that buffer several times the samples' size: 8 times for
// 44.1 kHz 16-bit stereo on a 48 kHz mixer), and for Ogg Vorbis the
// decoded audio held twice and the decoder's tables. 256 MiB decodes 60 s
// of 44.1 kHz stereo on a 48 kHz mixer in 95 MB, or at 192 kHz in 222 MB;
// with the file's own bytes (at most MaxFileBytes) a load stays under
// 512 MB.
const MaxSoundBytes = 256 << 20

// MaxFileBytes is the largest sound or music file Read reads when its
// limit is zero, in bytes: it reads the file whole, and stops reading
// there, so a device, a pipe or a file that grows cannot make it read
// forever.
const MaxFileBytes = 64 << 20

// Output is a mixer's output format, to which SDL_mixer converts a sound
// at load: the sound's cost depends on it. The zero Output is not a
// format: fill every field.
type Output struct {
	// Rate is the mixer's rate in Hz.
	Rate int
	// Channels is how many channels it mixes (2 for stereo).
	Channels int
	// Fragment is the size in bytes of its buffer (samples × channels ×
	// 2 bytes), the fragment in which SDL_mixer decodes Ogg Vorbis sounds.
	Fragment int
}

// cost is the most memory, in bytes, SDL_mixer 2.6 (with SDL 2.26) holds at
// once while it loads s as a sound for a mixer of format o, by its code:
//
//   - WAV (Mix_LoadWAV_RW, SDL_LoadWAV_RW): the data chunk as read, grown
//     to 32 bits a sample for 24-bit PCM; then, unless s is already in the
//     mixer's format, a conversion buffer of the samples' size times the
//     converter's len_mult (see lenMult), beside the samples copied into it.
//   - Ogg Vorbis (Mix_LoadMusic_RW): the decoded audio in the mixer's
//     format, once in fragments of o.Fragment bytes (each a malloc of its
//     own and a list node) and once in the buffer they are copied into;
//     and the decoder's tables (see parseVorbisSetup).
//
// The result saturates at math.MaxInt64.
func (s Info) cost(o Output) int64 {
	if s.ogg {
		// What the packets can decode to, or what the granule positions say
		// when they say more (the decoder stops short then; a message about
		// the length the file says is clearer).
		secs := max(s.maxSeconds, s.duration.Seconds())
		frames := secs*float64(o.Rate)*1.02 + 4*float64(s.packets) + 65536
		out := frames * float64(o.Channels) * 2
		const overhead = 64 // malloc headers and the list node, per fragment
		frags := math.Ceil(out / float64(o.Fragment))
		return saturate(out + out + frags*overhead + float64(s.tables))
	}
	container := s.bits / 8
	if s.bits == 24 {
		container = 4 // SDL grows 24-bit samples to 32 bits, in place
	}
	samples := s.frames * int64(s.channels*container)
	held := s.dataLen
	if s.bits == 24 {
		held += samples // realloc may copy
	}
	if s.bits == 16 && !s.float && s.channels == o.Channels && s.rate == o.Rate {
		return held // already the mixer's format: no conversion
	}
	bits := 8 * container
	mult := lenMult(bits, s.float, s.channels, s.rate, o.Channels, o.Rate)
	return max(held, saturate(float64(samples)+float64(samples)*float64(mult)))
}

// lenMult is SDL 2.26's SDL_BuildAudioCVT len_mult: how many times the
// source's size the conversion buffer must be. Conversion goes through
// 32-bit float; more channels multiply it; resampling multiplies it by the
// rate's ratio rounded up, and by 2 for the resampler's scratch space.
func lenMult(bits int, float bool, channels, rate, outChannels, outRate int) int64 {
	m := int64(1)
	if !float && bits < 32 {
		m *= int64(32 / bits)
	}
	if channels < outChannels {
		m = (m*int64(outChannels) + int64(channels-1)) / int64(channels)
	}
	if rate != outRate {
		if rate < outRate {
			m *= int64(math.Ceil(float64(outRate) / float64(rate)))
		}
		m *= 2
	}
	return m
}

func saturate(v float64) int64 {
	if v >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// checkSound refuses a sound longer than MaxSoundDuration or whose
// decoding would take more than MaxSoundBytes on a mixer of format o.
func (s Info) checkSound(o Output) error {
	cost := s.cost(o)
	if s.duration <= MaxSoundDuration && cost <= MaxSoundBytes {
		return nil
	}
	what := fmt.Sprintf("%v of sound decodes to %s", roundDuration(s.duration), byteSize(cost))
	if s.ogg && s.duration <= MaxSoundDuration {
		// The granule positions say it is short; its packets say otherwise.
		what = fmt.Sprintf("%v of sound by its granule positions, but its %d packets could decode to %v and %s",
			roundDuration(s.duration), s.packets, roundDuration(seconds(s.maxSeconds)), byteSize(cost))
	}
	return fmt.Errorf("%s, over the limit of %v (%s): play long audio as music (LoadMusic streams it)",
		what, MaxSoundDuration, byteSize(MaxSoundBytes))
}

// roundDuration rounds d for a message: to the millisecond under a
// minute, to the second above.
func roundDuration(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Second)
}

// byteSize writes n bytes for a message, in binary units.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, suffix := float64(n), ""
	for _, suffix = range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		v /= unit
		if v < unit {
			break
		}
	}
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f %s", v, suffix)
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}

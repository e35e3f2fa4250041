// Package audio plays a game's sounds and music through SDL2_mixer: WAV and
// Ogg Vorbis files from any fs.FS, one-shot sounds with volume and pan on a
// fixed number of voices, looping music with fade in and out, and pausing
// while the window is suspended (minimized).
//
// Trigger sounds from Update, at the fixed tick, like everything that
// depends on the game's state: a replay and a headless run then trigger the
// same sounds on the same ticks. A Mixer made by Silent (headless, tests,
// or when Open finds no audio device) plays nothing and counts what it was
// asked to play, so the game runs the same with or without sound. A build
// without cgo (CGO_ENABLED=0) has no device at all: Open returns a silent
// Mixer and an error wrapping ErrNoDevice that says so, and every file
// check of LoadSound and LoadMusic runs as in the cgo build (the SDL2_mixer
// calls are device_sdl.go's, tagged cgo; device_none.go stands in).
//
// Latency: Play hands the sound to the mixer at once, and the mixer thread
// starts it at its next buffer: within the buffer's length, 512 samples at
// 48 kHz (10.7 ms) by default, after the Update that asked for it, which
// itself runs within a frame of the input.
//
// Call the Mixer's methods from the game's goroutine (the one that runs the
// loop); SDL2_mixer's own thread does the mixing. Play, SetVolume and the
// music calls allocate nothing.
//
// # Files
//
// LoadSound and LoadMusic take two kinds of file, told by their content,
// not by their name: a RIFF WAVE file of PCM samples (8, 16, 24 or 32 bits)
// or of 32-bit IEEE float samples, plain or WAVE_FORMAT_EXTENSIBLE; and an
// Ogg Vorbis file. Either has 1 to 8 channels at 1 to 384 kHz. They refuse
// anything else (VOC, AIFF, MP3, FLAC, Opus, MOD, MIDI, ADPCM or A-law WAV,
// a damaged Ogg page) with an error that names the file and what it is,
// before SDL2_mixer sees it: SDL2_mixer 2.6 would decode many of those too,
// with decoders a game never meant to expose to its files.
//
// # Limits, and why
//
// SDL2_mixer 2.6 decodes a sound whole into one buffer when it is loaded,
// then converts it to the mixer's rate and channels in a buffer several
// times larger, sizing both with 32-bit integers. A file of a few kilobytes
// can declare hours of audio: a 7 KB VOC took 1.9 GB, a 1.66 MB Ogg Vorbis
// of 7 hours of silence overflowed past 4 GiB and corrupted the heap. So
// LoadSound reads the file's headers first and refuses a sound longer than
// MaxSoundDuration (60 s), or whose decoding would take more than
// MaxSoundBytes (256 MiB), with an error that gives its length and the
// memory it would take. An Ogg Vorbis file's headers can understate its
// length, so the memory is bounded by what its packets can decode to, not
// by what its headers say. Longer audio is music: LoadMusic streams it,
// decoding as it plays, and has no length limit.
//
// An Ogg Vorbis file's setup header sizes the decoder's tables, and
// libvorbis 1.3.7 trusts it: 5 KB can make it put 12 MiB on the stack, or
// allocate 64 MiB a codebook for up to 256 codebooks. Both loaders refuse a
// codebook of more than 16384 entries or tables of more than 16 MiB (real
// files use a few hundred entries and about 150 KB).
//
// Both read at most MaxFileBytes (64 MiB) of a file, and refuse what is not
// a regular file (a device, a FIFO), so a load never reads forever; with
// those limits no file makes loading a sound take more than about 512 MB.
package audio

import (
	"errors"
	"fmt"
	"io/fs"
	"time"
	"unsafe"

	"github.com/fixstep/fixstep/audio/soundfile"
)

// MaxSoundDuration is the longest sound LoadSound accepts, by the file's
// headers. SDL_mixer decodes a sound whole into memory at load time; longer
// audio is music, which LoadMusic streams. See soundfile.MaxSoundDuration.
const MaxSoundDuration = soundfile.MaxSoundDuration

// MaxSoundBytes is the most memory, in bytes, that LoadSound lets SDL_mixer
// take at once to decode a sound, as soundfile.MaxSoundBytes counts it (the
// samples, SDL's conversion buffer, Ogg Vorbis's decoded audio and tables):
// 256 MiB.
const MaxSoundBytes = soundfile.MaxSoundBytes

// MaxFileBytes is the largest sound or music file LoadSound and LoadMusic
// read, in bytes: they read it whole, and stop reading there, so a device,
// a pipe or a file that grows cannot make them read forever.
const MaxFileBytes = soundfile.MaxFileBytes

// Config sets up a Mixer. Its zero value is 48 kHz stereo, a 512-sample
// buffer and 16 voices.
type Config struct {
	// Frequency is the output rate in Hz. Zero means 48000.
	Frequency int
	// Buffer is the mixer's buffer in samples, a power of two: the latency
	// from Play to sound is at most this long. Zero means 512.
	Buffer int
	// Voices is how many one-shot sounds play at once; a Play beyond that
	// is dropped and counted. Zero means 16.
	Voices int
}

func (c Config) withDefaults() (Config, error) {
	if c.Frequency == 0 {
		c.Frequency = 48000
	}
	if c.Buffer == 0 {
		c.Buffer = 512
	}
	if c.Voices == 0 {
		c.Voices = 16
	}
	switch {
	case c.Frequency < 8000 || c.Frequency > 192000:
		return c, fmt.Errorf("audio: Config.Frequency = %d: want 8000 to 192000 Hz", c.Frequency)
	case c.Buffer < 64 || c.Buffer > 16384 || c.Buffer&(c.Buffer-1) != 0:
		return c, fmt.Errorf("audio: Config.Buffer = %d: want a power of two from 64 to 16384 samples", c.Buffer)
	case c.Voices < 1 || c.Voices > 256:
		return c, fmt.Errorf("audio: Config.Voices = %d: want 1 to 256", c.Voices)
	}
	return c, nil
}

// ErrNoDevice is wrapped by Open's error when there is no audio device to
// play on. The Mixer Open returns with it is silent and works.
var ErrNoDevice = errors.New("audio: no audio device")

// Mixer plays sounds and music. Make it with Open (a device) or Silent
// (none); Close it at the end.
type Mixer struct {
	cfg       Config
	out       soundfile.Output // the format sounds are decoded to
	live      bool             // a device is open
	suspended bool

	// Counts: sounds asked for, dropped for want of a voice, and music
	// started.
	Played, Dropped, MusicStarted int
}

// Open opens the default audio device with cfg. Without a device (no sound
// card, a server, SDL_AUDIODRIVER set to nothing that works) it returns a
// silent Mixer and an error wrapping ErrNoDevice: report it and play on
// silently. The error gives SDL's reason and, on Linux, the first message
// of libasound, whose own printing to stderr Open silences while it looks
// for a device (see quietALSA). Call it on the main thread, after the
// window exists (SDL is initialised there) or before.
func Open(cfg Config) (*Mixer, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	m := &Mixer{cfg: c, out: soundfile.Output{Rate: c.Frequency, Channels: 2, Fragment: c.Buffer * 2 * 2}}
	if err := openDevice(m); err != nil {
		return m, err
	}
	m.live = true
	return m, nil
}

// Silent returns a Mixer that plays nothing and counts what it is asked to
// play: headless runs, replays, tests.
func Silent() *Mixer {
	c, _ := Config{}.withDefaults()
	return &Mixer{cfg: c, out: soundfile.Output{Rate: c.Frequency, Channels: 2, Fragment: c.Buffer * 2 * 2}}
}

// Live reports whether the mixer plays on a device.
func (m *Mixer) Live() bool { return m.live }

// Sound is a sound loaded into memory, decoded to the mixer's format, for
// one-shots. The zero Sound plays nothing.
type Sound struct{ chunk *chunk }

// Music is a streamed track: it is decoded as it plays.
type Music struct {
	mus *track
	mem unsafe.Pointer // the file's bytes, in C memory: SDL reads them as it plays
}

// LoadSound reads a sound, a WAV or Ogg Vorbis file, from fsys and
// decodes it for Play. It refuses, with an error naming the file and why,
// any other kind of file (told by its content), a sound longer than
// MaxSoundDuration or whose decoding would take more than MaxSoundBytes,
// and a file over MaxFileBytes or not a regular file: see the package doc.
// On a silent Mixer it makes the same checks and returns the zero Sound.
func (m *Mixer) LoadSound(fsys fs.FS, path string) (Sound, error) {
	b, err := soundfile.Read(fsys, path, MaxFileBytes)
	var info soundfile.Info
	if err == nil {
		info, err = soundfile.Parse(b)
	}
	if err == nil {
		err = info.CheckSound(m.out)
	}
	if err != nil {
		return Sound{}, fmt.Errorf("audio: load %s: %w", path, err)
	}
	if !m.live {
		return Sound{}, nil
	}
	info.ClampData(b)
	c, err := loadChunk(b)
	if err != nil {
		return Sound{}, fmt.Errorf("audio: load %s: %v", path, err)
	}
	return Sound{c}, nil
}

// LoadMusic reads a WAV or Ogg Vorbis file from fsys for PlayMusic. The
// track is decoded as it plays, so it may be of any length; the file is
// checked as LoadSound checks it, except for its length (see the package
// doc). Tags and cue lists (LIST and "id3 " chunks) of a WAV file are
// hidden from SDL_mixer, whose readers of them trust the file. On a silent
// Mixer it makes the same checks.
func (m *Mixer) LoadMusic(fsys fs.FS, path string) (*Music, error) {
	b, err := soundfile.Read(fsys, path, MaxFileBytes)
	var info soundfile.Info
	if err == nil {
		info, err = soundfile.Parse(b)
	}
	if err == nil {
		err = info.CheckMusic(b)
	}
	if err != nil {
		return nil, fmt.Errorf("audio: load %s: %w", path, err)
	}
	if !m.live {
		return &Music{}, nil
	}
	mu, err := loadMusic(b)
	if err != nil {
		return nil, fmt.Errorf("audio: load %s: %v", path, err)
	}
	return mu, nil
}

// Play starts a one-shot of s at volume 0..1 and pan -1 (left) .. 1
// (right). With every voice busy it is dropped (Dropped counts it). While
// the mixer is suspended it is not played either.
func (m *Mixer) Play(s Sound, volume, pan float32) {
	m.Played++
	if !m.live || s.chunk == nil || m.suspended {
		return
	}
	if !play(s.chunk, volume, pan) {
		m.Dropped++
	}
}

func clamp01(v float32) float32 { return min(max(v, 0), 1) }

// PlayMusic starts mu, looping, fading in over fade (0: at once), in place
// of the music playing.
func (m *Mixer) PlayMusic(mu *Music, fade time.Duration) error {
	m.MusicStarted++
	if !m.live || mu == nil || mu.mus == nil {
		return nil
	}
	if err := fadeInMusic(mu.mus, fade); err != nil {
		return fmt.Errorf("audio: play music: %v", err)
	}
	return nil
}

// FadeOutMusic fades the music out over fade, then stops it.
func (m *Mixer) FadeOutMusic(fade time.Duration) {
	if m.live {
		fadeOutMusic(fade)
	}
}

// SetMusicVolume sets the music's volume, 0..1.
func (m *Mixer) SetMusicVolume(v float32) {
	if m.live {
		setMusicVolume(v)
	}
}

// Suspend pauses every sound and the music (on true) or resumes them: the
// window's suspend policy (no sound while minimized). The loop tells the
// game through engine.Suspender's hook; the game calls this.
func (m *Mixer) Suspend(on bool) {
	if !m.live || on == m.suspended {
		m.suspended = on
		return
	}
	m.suspended = on
	pauseAll(on)
}

// Free frees a sound's memory. Free sounds after Close, or when none
// of their one-shots can still be playing.
func (s *Sound) Free() {
	if s.chunk != nil {
		freeChunk(s.chunk)
		s.chunk = nil
	}
}

// Free stops the music if it is mu and frees it. Freeing a nil *Music,
// as a failed LoadMusic returns, does nothing.
func (mu *Music) Free() {
	if mu == nil {
		return
	}
	freeMusic(mu)
}

// Close stops every sound and closes the device. Free sounds and music
// after it. Calling it twice is safe.
func (m *Mixer) Close() error {
	if !m.live {
		return nil
	}
	m.live = false
	closeDevice()
	return nil
}

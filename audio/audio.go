// Package audio plays a game's sounds and music through SDL2_mixer: WAV and
// OGG files from any fs.FS, one-shot sounds with volume and pan on a fixed
// number of voices, looping music with fade in and out, and pausing while
// the window is suspended (minimized).
//
// Trigger sounds from Update, at the fixed tick, like everything that
// depends on the game's state: a replay and a headless run then trigger the
// same sounds on the same ticks. A Mixer made by Silent (headless, tests,
// or when Open finds no audio device) plays nothing and counts what it was
// asked to play, so the game runs the same with or without sound.
//
// Latency: Play hands the sound to the mixer at once, and the mixer thread
// starts it at its next buffer: within the buffer's length, 512 samples at
// 48 kHz (10.7 ms) by default, after the Update that asked for it, which
// itself runs within a frame of the input.
//
// Call the Mixer's methods from the game's goroutine (the one that runs the
// loop); SDL2_mixer's own thread does the mixing. Play, SetVolume and the
// music calls allocate nothing.
package audio

// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"io/fs"
	"time"
	"unsafe"

	"github.com/veandco/go-sdl2/mix"
	"github.com/veandco/go-sdl2/sdl"
)

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
	live      bool // a device is open
	suspended bool

	// Counts: sounds asked for, dropped for want of a voice, and music
	// started.
	Played, Dropped, MusicStarted int
}

// Open opens the default audio device with cfg. Without a device (no sound
// card, a server, SDL_AUDIODRIVER set to nothing that works) it returns a
// silent Mixer and an error wrapping ErrNoDevice: report it and play on
// silently. Call it on the main thread, after the window exists (SDL is
// initialised there) or before.
func Open(cfg Config) (*Mixer, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	m := &Mixer{cfg: c}
	if err := sdl.InitSubSystem(sdl.INIT_AUDIO); err != nil {
		return m, fmt.Errorf("%w: %v (the game runs silent)", ErrNoDevice, err)
	}
	mix.Init(mix.INIT_OGG) // WAV needs no decoder; OGG is reported at load if missing
	if err := mix.OpenAudio(c.Frequency, mix.DEFAULT_FORMAT, 2, c.Buffer); err != nil {
		mix.Quit()
		sdl.QuitSubSystem(sdl.INIT_AUDIO)
		return m, fmt.Errorf("%w: %v (the game runs silent)", ErrNoDevice, err)
	}
	mix.AllocateChannels(c.Voices)
	m.live = true
	return m, nil
}

// Silent returns a Mixer that plays nothing and counts what it is asked to
// play: headless runs, replays, tests.
func Silent() *Mixer {
	c, _ := Config{}.withDefaults()
	return &Mixer{cfg: c}
}

// Live reports whether the mixer plays on a device.
func (m *Mixer) Live() bool { return m.live }

// Sound is a sound loaded into memory, decoded to the mixer's format, for
// one-shots. The zero Sound plays nothing.
type Sound struct{ chunk *mix.Chunk }

// Music is a streamed track: it is decoded as it plays.
type Music struct {
	mus *mix.Music
	mem unsafe.Pointer // the file's bytes, in C memory: SDL reads them as it plays
}

// maxFile bounds a sound or music file's size: the file is read whole.
const maxFile = 64 << 20

func readFile(fsys fs.FS, path string) ([]byte, error) {
	if st, err := fs.Stat(fsys, path); err == nil && st.Size() > maxFile {
		return nil, fmt.Errorf("audio: load %s: %d bytes, over the limit of %d", path, st.Size(), maxFile)
	}
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, fmt.Errorf("audio: load %s: %w", path, err)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("audio: load %s: empty file", path)
	}
	return b, nil
}

// LoadSound reads a WAV or OGG file from fsys and decodes it for Play. On
// a silent Mixer it checks the file exists and returns the zero Sound.
func (m *Mixer) LoadSound(fsys fs.FS, path string) (Sound, error) {
	b, err := readFile(fsys, path)
	if err != nil || !m.live {
		return Sound{}, err
	}
	rw, err := sdl.RWFromMem(b)
	if err != nil {
		return Sound{}, fmt.Errorf("audio: load %s: %v", path, err)
	}
	chunk, err := mix.LoadWAVRW(rw, true) // decoded during the call
	if err != nil {
		return Sound{}, fmt.Errorf("audio: load %s: %v (want WAV or OGG)", path, err)
	}
	return Sound{chunk}, nil
}

// LoadMusic reads a WAV or OGG file from fsys for PlayMusic. The track is
// decoded as it plays. On a silent Mixer it checks the file exists.
func (m *Mixer) LoadMusic(fsys fs.FS, path string) (*Music, error) {
	b, err := readFile(fsys, path)
	if err != nil || !m.live {
		return &Music{}, err
	}
	mem := C.CBytes(b)
	rw, err := sdl.RWFromMem(unsafe.Slice((*byte)(mem), len(b)))
	if err != nil {
		C.free(mem)
		return nil, fmt.Errorf("audio: load %s: %v", path, err)
	}
	mus, err := mix.LoadMUSRW(rw, 1)
	if err != nil {
		C.free(mem)
		return nil, fmt.Errorf("audio: load %s: %v (want WAV or OGG)", path, err)
	}
	return &Music{mus: mus, mem: mem}, nil
}

// Play starts a one-shot of s at volume 0..1 and pan -1 (left) .. 1
// (right). With every voice busy it is dropped (Dropped counts it). While
// the mixer is suspended it is not played either.
func (m *Mixer) Play(s Sound, volume, pan float32) {
	m.Played++
	if !m.live || s.chunk == nil || m.suspended {
		return
	}
	ch := mix.GroupAvailable(-1) // a free voice, or -1: no error value to allocate
	if ch < 0 {
		m.Dropped++
		return
	}
	mix.Volume(ch, int(clamp01(volume)*mix.MAX_VOLUME+0.5))
	p := min(max(pan, -1), 1)
	// Centre plays both sides at full volume; a pan fades the other side.
	mix.SetPanning(ch, uint8(255*clamp01(1-p)+0.5), uint8(255*clamp01(1+p)+0.5))
	s.chunk.Play(ch, 0)
}

func clamp01(v float32) float32 { return min(max(v, 0), 1) }

// PlayMusic starts mu, looping, fading in over fade (0: at once), in place
// of the music playing.
func (m *Mixer) PlayMusic(mu *Music, fade time.Duration) error {
	m.MusicStarted++
	if !m.live || mu == nil || mu.mus == nil {
		return nil
	}
	if err := mu.mus.FadeIn(-1, int(fade.Milliseconds())); err != nil {
		return fmt.Errorf("audio: play music: %v", err)
	}
	return nil
}

// FadeOutMusic fades the music out over fade, then stops it.
func (m *Mixer) FadeOutMusic(fade time.Duration) {
	if m.live {
		mix.FadeOutMusic(int(fade.Milliseconds()))
	}
}

// SetMusicVolume sets the music's volume, 0..1.
func (m *Mixer) SetMusicVolume(v float32) {
	if m.live {
		mix.VolumeMusic(int(clamp01(v)*mix.MAX_VOLUME + 0.5))
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
	if on {
		mix.Pause(-1)
		mix.PauseMusic()
	} else {
		mix.Resume(-1)
		mix.ResumeMusic()
	}
}

// Free frees a sound's memory. Free sounds after Close, or when none
// of their one-shots can still be playing.
func (s *Sound) Free() {
	if s.chunk != nil {
		s.chunk.Free()
		s.chunk = nil
	}
}

// Free stops the music if it is mu and frees it.
func (mu *Music) Free() {
	if mu.mus != nil {
		mu.mus.Free() // halts it if it plays
		mu.mus = nil
	}
	if mu.mem != nil {
		C.free(mu.mem)
		mu.mem = nil
	}
}

// Close stops every sound and closes the device. Free sounds and music
// after it. Calling it twice is safe.
func (m *Mixer) Close() error {
	if !m.live {
		return nil
	}
	m.live = false
	mix.HaltChannel(-1)
	mix.HaltMusic()
	mix.CloseAudio()
	mix.Quit()
	sdl.QuitSubSystem(sdl.INIT_AUDIO)
	return nil
}

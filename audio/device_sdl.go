//go:build cgo

package audio

// #include <stdlib.h>
import "C"

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"

	"github.com/veandco/go-sdl2/mix"
	"github.com/veandco/go-sdl2/sdl"

	"github.com/fixstep/fixstep/audio/soundfile"
)

// The device is SDL2_mixer's: this file is the only one that calls it. A
// build without cgo has device_none.go instead.

// chunk is a sound decoded into memory; track a streamed one.
type (
	chunk = mix.Chunk
	track = mix.Music
)

// openDevice opens the default audio device for m's Config and sets m's
// output format to the one the device took, or returns an error wrapping
// ErrNoDevice (see Open).
func openDevice(m *Mixer) error {
	c := m.cfg
	said, err := quietALSA(func() error {
		if err := sdl.InitSubSystem(sdl.INIT_AUDIO); err != nil {
			return err
		}
		mix.Init(mix.INIT_OGG) // WAV needs no decoder; OGG is reported at load if missing
		if err := mix.OpenAudio(c.Frequency, mix.DEFAULT_FORMAT, 2, c.Buffer); err != nil {
			mix.Quit()
			sdl.QuitSubSystem(sdl.INIT_AUDIO)
			return err
		}
		return nil
	})
	if err != nil {
		if said != "" {
			return fmt.Errorf("%w: %v; libasound: %s (the game runs silent)", ErrNoDevice, err, said)
		}
		return fmt.Errorf("%w: %v (the game runs silent)", ErrNoDevice, err)
	}
	mix.AllocateChannels(c.Voices)
	// The device may have another rate or channel count than asked for:
	// SDL_mixer converts sounds to the one it got.
	if rate, _, channels, _, err := mix.QuerySpec(); err == nil && rate > 0 && channels > 0 {
		m.out = soundfile.Output{Rate: rate, Channels: channels, Fragment: c.Buffer * channels * 2}
	}
	return nil
}

// loadChunk decodes a checked sound file's bytes for Play.
func loadChunk(b []byte) (*chunk, error) {
	rw, err := sdl.RWFromMem(b)
	if err != nil {
		return nil, err
	}
	c, err := mix.LoadWAVRW(rw, true) // decoded during the call
	runtime.KeepAlive(b)              // SDL read it through rw
	return c, err
}

// loadMusic copies a checked music file's bytes into C memory, where SDL
// reads them as it plays.
func loadMusic(b []byte) (*Music, error) {
	mem := C.CBytes(b)
	rw, err := sdl.RWFromMem(unsafe.Slice((*byte)(mem), len(b)))
	if err != nil {
		C.free(mem)
		return nil, err
	}
	mus, err := mix.LoadMUSRW(rw, 1)
	if err != nil {
		C.free(mem)
		return nil, err
	}
	return &Music{mus: mus, mem: mem}, nil
}

// play starts a one-shot of c on a free voice; false when every voice is
// busy.
func play(c *chunk, volume, pan float32) bool {
	ch := mix.GroupAvailable(-1) // a free voice, or -1: no error value to allocate
	if ch < 0 {
		return false
	}
	mix.Volume(ch, int(clamp01(volume)*mix.MAX_VOLUME+0.5))
	p := min(max(pan, -1), 1)
	// Centre plays both sides at full volume; a pan fades the other side.
	mix.SetPanning(ch, uint8(255*clamp01(1-p)+0.5), uint8(255*clamp01(1+p)+0.5))
	c.Play(ch, 0)
	return true
}

func fadeInMusic(t *track, fade time.Duration) error { return t.FadeIn(-1, int(fade.Milliseconds())) }

func fadeOutMusic(fade time.Duration) { mix.FadeOutMusic(int(fade.Milliseconds())) }

func setMusicVolume(v float32) { mix.VolumeMusic(int(clamp01(v)*mix.MAX_VOLUME + 0.5)) }

// pauseAll pauses (on) or resumes every voice and the music.
func pauseAll(on bool) {
	if on {
		mix.Pause(-1)
		mix.PauseMusic()
	} else {
		mix.Resume(-1)
		mix.ResumeMusic()
	}
}

func freeChunk(c *chunk) { c.Free() }

// freeMusic frees mu's track (halting it if it plays) and its bytes.
func freeMusic(mu *Music) {
	if mu.mus != nil {
		mu.mus.Free()
		mu.mus = nil
	}
	if mu.mem != nil {
		C.free(mu.mem)
		mu.mem = nil
	}
}

// closeDevice stops every sound and closes the device.
func closeDevice() {
	mix.HaltChannel(-1)
	mix.HaltMusic()
	mix.CloseAudio()
	mix.Quit()
	sdl.QuitSubSystem(sdl.INIT_AUDIO)
}

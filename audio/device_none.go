//go:build !cgo

package audio

import (
	"fmt"
	"time"
)

// A build without cgo (CGO_ENABLED=0) has no device: Open returns a silent
// Mixer and an error wrapping ErrNoDevice, as on a machine without sound,
// so a game plays on silently, the same code in both builds. Nothing below
// is reached: a silent Mixer never loads into or plays on a device.

// chunk is a sound decoded into memory; track a streamed one. Without cgo
// there are none.
type (
	chunk struct{}
	track struct{}
)

func openDevice(m *Mixer) error {
	return fmt.Errorf("%w: this build has no sound (built with CGO_ENABLED=0; the game runs silent)", ErrNoDevice)
}

func loadChunk(b []byte) (*chunk, error)             { return nil, nil }
func loadMusic(b []byte) (*Music, error)             { return &Music{}, nil }
func play(c *chunk, volume, pan float32) bool        { return true }
func fadeInMusic(t *track, fade time.Duration) error { return nil }
func fadeOutMusic(fade time.Duration)                {}
func setMusicVolume(v float32)                       {}
func pauseAll(on bool)                               {}
func freeChunk(c *chunk)                             {}
func freeMusic(mu *Music)                            {}
func closeDevice()                                   {}

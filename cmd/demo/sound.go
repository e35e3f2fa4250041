package main

import (
	"embed"
	"errors"
	"fmt"
	"io"

	"github.com/fixstep/fixstep/audio"
	"github.com/fixstep/fixstep/cmd/demo/arena"
)

// sounds are the demo's mixer and its bounce: a silent mixer that counts
// until the window opens the device.
type sounds struct {
	mixer  *audio.Mixer
	bounce audio.Sound
	stderr io.Writer
}

// newSounds starts silent and plays the scene's bounces.
func newSounds(sc *arena.Scene, stderr io.Writer) *sounds {
	s := &sounds{mixer: audio.Silent(), stderr: stderr}
	sc.Bounce = s.play
	return s
}

func (s *sounds) play(volume, pan float32) { s.mixer.Play(s.bounce, volume, pan) }

// open opens the audio device and loads the demo's sounds; without a
// device it says so and the demo plays on silently.
func (s *sounds) open() error {
	m, err := audio.Open(audio.Config{})
	if err != nil && !errors.Is(err, audio.ErrNoDevice) {
		return err
	}
	if err != nil {
		fmt.Fprintln(s.stderr, "demo:", err)
	}
	m.Played, m.Dropped = s.mixer.Played, s.mixer.Dropped // the counts so far
	s.mixer = m
	s.bounce, err = m.LoadSound(assets, "assets/bounce.wav")
	return err
}

func (s *sounds) close() {
	s.mixer.Close()
	s.bounce.Free()
}

// assets are the demo's sounds, in the binary.
//
//go:embed assets
var assets embed.FS

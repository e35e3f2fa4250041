//go:build cgo

package audio_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/fixstep/fixstep/audio"
)

// Loading sounds and playing one. The example asks for SDL's dummy audio
// driver, a device that plays to nowhere, so it runs the real path on a
// machine without sound; a game leaves SDL_AUDIODRIVER alone, and when
// Open finds no device it logs the error and plays on silently.
func ExampleMixer_LoadSound() {
	os.Setenv("SDL_AUDIODRIVER", "dummy")
	defer os.Unsetenv("SDL_AUDIODRIVER")

	m, err := audio.Open(audio.Config{})
	if err != nil {
		fmt.Println(err) // the game runs on, silent
	}
	defer m.Close()
	assets := os.DirFS("testdata") // or an embed.FS
	bounce, err := m.LoadSound(assets, "bounce.wav")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer bounce.Free()
	blip, err := m.LoadSound(assets, "blip.ogg")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer blip.Free()
	m.Play(bounce, 0.8, -0.5) // 80 % volume, half left; call it from Update
	_, err = m.LoadSound(assets, "missing.wav")
	fmt.Println("live:", m.Live(), "played:", m.Played)
	fmt.Println("missing.wav is missing:", errors.Is(err, fs.ErrNotExist))
	// Output:
	// live: true played: 1
	// missing.wav is missing: true
}

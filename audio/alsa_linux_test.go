//go:build cgo && linux

package audio

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/app/apptest"
	"github.com/veandco/go-sdl2/mix"
	"github.com/veandco/go-sdl2/sdl"
)

// alsaChild is the environment variable that makes TestALSAChild the
// child of TestALSANoise: "quiet" opens through Open, "loud" the way Open
// did before quietALSA.
const alsaChild = "FIXSTEP_ALSA_CHILD"

// TestALSANoise opens the audio device in a child process, on SDL's ALSA
// driver with ALSA_CARD naming a card that no machine has, so libasound
// fails as it does on a machine without a sound card, whatever this one
// has. The child's stderr must hold no "ALSA lib" line, and Open's error
// must still say why: SDL's reason and libasound's verdict. A control
// child opens the device as Open did before and must print the lines: the
// test would see them.
func TestALSANoise(t *testing.T) {
	run := func(mode string) (stdout, stderr string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestALSAChild$", "-test.count=1")
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "AUDIODEV=") { // SDL would open that device, not "default"
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, alsaChild+"="+mode, "SDL_AUDIODRIVER=alsa", "ALSA_CARD=97", "ALSA_PCM_CARD=97")
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s child: %v\nstdout:\n%s\nstderr:\n%s", mode, err, out.String(), errOut.String())
		}
		return out.String(), errOut.String()
	}
	_, loud := run("loud")
	if !strings.Contains(loud, "ALSA lib") {
		apptest.Missing(t, "the control child printed no ALSA lib lines (SDL without its ALSA driver?):\n%s", loud)
	}
	t.Logf("without quietALSA the child printed %d ALSA lib lines", strings.Count(loud, "ALSA lib"))
	stdout, stderr := run("quiet")
	if strings.Contains(stderr, "ALSA lib") {
		t.Errorf("Open printed ALSA's noise:\n%s", stderr)
	}
	for _, want := range []string{"ErrNoDevice", "Couldn't open audio device", "libasound: Unknown PCM default", "the game runs silent"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("Open's error lacks %q:\n%s", want, stdout)
		}
	}
}

// TestALSAChild is TestALSANoise's child; it does nothing on its own.
func TestALSAChild(t *testing.T) {
	switch os.Getenv(alsaChild) {
	case "quiet":
		m, err := Open(Config{})
		if errors.Is(err, ErrNoDevice) {
			fmt.Print("ErrNoDevice ")
		}
		fmt.Println(err)
		if m != nil && m.Live() {
			t.Error("a device opened")
		}
	case "loud":
		if err := sdl.InitSubSystem(sdl.INIT_AUDIO); err == nil {
			if err := mix.OpenAudio(48000, mix.DEFAULT_FORMAT, 2, 512); err == nil {
				mix.CloseAudio()
			}
			sdl.QuitSubSystem(sdl.INIT_AUDIO)
		}
	default:
		t.Skip("the child of TestALSANoise")
	}
}

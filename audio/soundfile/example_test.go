package soundfile_test

import (
	"fmt"
	"os"

	"github.com/fixstep/fixstep/audio/soundfile"
)

// Check a sound file as audio.LoadSound does before SDL2_mixer sees it:
// read it with a limit, identify it by its content, and bound what
// decoding it takes on a 48 kHz stereo mixer.
func Example() {
	b, err := soundfile.Read(os.DirFS("../testdata"), "bounce.wav", 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := soundfile.Parse(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	mixer := soundfile.Output{Rate: 48000, Channels: 2, Fragment: 2048}
	fmt.Printf("Vorbis %v, %d channel at %d Hz, %v\n", s.Vorbis(), s.Channels(), s.Rate(), s.Duration())
	fmt.Printf("decoding it as a sound takes %d bytes; refused: %v\n", s.Cost(mixer), s.CheckSound(mixer))
	// Output:
	// Vorbis false, 1 channel at 22050 Hz, 120ms
	// decoding it as a sound takes 132300 bytes; refused: <nil>
}

package soundfile

import (
	"bytes"
	"testing"
	"time"

	"github.com/fixstep/fixstep/audio/internal/soundtest"
)

// TestOggDuration: the 7-hour granule of a short file is read as 7 hours,
// chained streams add up, and a file whose granules say a second but
// whose packets say hours is judged by its packets.
func TestOggDuration(t *testing.T) {
	blip := soundtest.Testdata(t, "blip.ogg")
	long := soundtest.WithLastGranule(t, blip, 7*3600*22050)
	s, err := parseSound(long)
	if err != nil {
		t.Fatal(err)
	}
	if s.duration != 7*time.Hour {
		t.Errorf("7 hours read as %v", s.duration)
	}
	const want7h = "7h0m0s of sound decodes to 9.3 GiB, over the limit of 1m0s (256 MiB): play long audio as music (LoadMusic streams it)"
	if err := s.checkSound(mixer48k); err == nil || err.Error() != want7h {
		t.Errorf("7 hours: %v\n\twant %s", err, want7h)
	}

	chained, err := parseSound(append(bytes.Clone(blip), blip...))
	if err != nil || chained.duration != 800*time.Millisecond || chained.packets != 44 {
		t.Errorf("two links: %v, %d packets, %v; want 800ms, 44", chained.duration, chained.packets, err)
	}

	// 9997 packets of 4096 samples at 8 kHz and 3 headers: 5120 s.
	liar, err := parseSound(soundtest.OggBomb(t, 8000, 13, 9997, 8000))
	if err != nil {
		t.Fatal(err)
	}
	if liar.duration != time.Second || liar.maxSeconds != 5120 {
		t.Errorf("liar: %v by its granules, %v s by its packets; want 1s and 5120", liar.duration, liar.maxSeconds)
	}
	const wantLiar = "1s of sound by its granule positions, but its 10000 packets could decode to 1h25m20s and 1.9 GiB, " +
		"over the limit of 1m0s (256 MiB): play long audio as music (LoadMusic streams it)"
	if err := liar.checkSound(mixer48k); err == nil || err.Error() != wantLiar {
		t.Errorf("liar: %v\n\twant %s", err, wantLiar)
	}
}

// TestCostLimits: what the limits let through and what they stop, at the
// edges: 60 s of CD audio, a long 8 kHz WAV, a 192 kHz mixer.
func TestCostLimits(t *testing.T) {
	pcm := func(channels, rate, bits int, d time.Duration) Info {
		frames := int64(d.Seconds() * float64(rate))
		return Info{channels: channels, rate: rate, bits: bits, frames: frames,
			dataLen: frames * int64(channels*bits/8), duration: d}
	}
	for _, c := range []struct {
		name string
		s    Info
		o    Output
		want string // "" when accepted
	}{
		{"60 s of CD audio", pcm(2, 44100, 16, time.Minute), mixer48k, ""},
		{"60 s of CD audio at 192 kHz", pcm(2, 44100, 16, time.Minute), Output{192000, 2, 2048}, ""},
		{"60 s of 48 kHz stereo", pcm(2, 48000, 16, time.Minute), mixer48k, ""},
		{"61 s of 48 kHz stereo", pcm(2, 48000, 16, 61*time.Second), mixer48k,
			"1m1s of sound decodes to 11.2 MiB, over the limit of 1m0s (256 MiB): play long audio as music (LoadMusic streams it)"},
		{"8 kHz bytes of 64 MiB", pcm(1, 8000, 8, 8388*time.Second), mixer48k,
			"2h19m48s of sound decodes to 6.1 GiB, over the limit of 1m0s (256 MiB): play long audio as music (LoadMusic streams it)"},
		{"60 s of 8 channels of float at 192 kHz", Info{channels: 8, rate: 192000, bits: 32, float: true,
			frames: 60 * 192000, dataLen: 60 * 192000 * 32, duration: time.Minute}, mixer48k,
			"1m0s of sound decodes to 1.0 GiB, over the limit of 1m0s (256 MiB): play long audio as music (LoadMusic streams it)"},
	} {
		err := c.s.checkSound(c.o)
		if got := ""; err != nil {
			got = err.Error()
			if got != c.want {
				t.Errorf("%s: %s\n\twant %s", c.name, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("%s: accepted (%d bytes), want %s", c.name, c.s.cost(c.o), c.want)
		}
	}
}

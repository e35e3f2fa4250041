//go:build cgo

package audio

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fixstep/fixstep/app/apptest"
)

// wav returns a 16-bit mono WAV of a 440 Hz sine, d long, at 48 kHz.
func wav(d time.Duration) []byte {
	const rate = 48000
	n := int(d.Seconds() * rate)
	b := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	b = binary.LittleEndian.AppendUint32(b, 16)
	b = binary.LittleEndian.AppendUint16(b, 1) // PCM
	b = binary.LittleEndian.AppendUint16(b, 1) // mono
	b = binary.LittleEndian.AppendUint32(b, rate)
	b = binary.LittleEndian.AppendUint32(b, rate*2)
	b = binary.LittleEndian.AppendUint16(b, 2)
	b = binary.LittleEndian.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(2*n))
	for i := range n {
		v := int16(12000 * math.Sin(2*math.Pi*440*float64(i)/rate))
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

// openDisk opens a mixer on SDL's disk driver, which writes what it mixes
// to a file: the test hears by reading it.
func openDisk(t *testing.T) (*Mixer, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out.raw")
	t.Setenv("SDL_AUDIODRIVER", "disk")
	t.Setenv("SDL_DISKAUDIOFILE", out)
	t.Setenv("SDL_DISKAUDIODELAY", "1")
	m, err := Open(Config{})
	if err != nil {
		apptest.Missing(t, "no disk audio: %v", err)
	}
	return m, out
}

// TestPlayedSoundReachesTheOutput plays a sine on the disk driver: its
// samples appear in the file, and the silence before it does not.
func TestPlayedSoundReachesTheOutput(t *testing.T) {
	m, out := openDisk(t)
	fsys := fstest.MapFS{"beep.wav": {Data: wav(100 * time.Millisecond)}}
	s, err := m.LoadSound(fsys, "beep.wav")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // some silence first
	m.Play(s, 1, 0)
	time.Sleep(300 * time.Millisecond)
	m.Close()
	s.Free()
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Stereo 16-bit samples: find the loudest and where sound begins.
	loud, first := 0, -1
	for i := 0; i+1 < len(raw); i += 2 {
		v := int(int16(binary.LittleEndian.Uint16(raw[i:])))
		if v < 0 {
			v = -v
		}
		if v > 1000 && first < 0 {
			first = i / 4
		}
		loud = max(loud, v)
	}
	if loud < 8000 {
		t.Fatalf("loudest sample %d in %d bytes of output: the sound was not mixed", loud, len(raw))
	}
	if first <= 0 {
		t.Errorf("sound from the first sample: the silence before Play is missing")
	}
	if m.Played != 1 || m.Dropped != 0 {
		t.Errorf("played %d dropped %d", m.Played, m.Dropped)
	}
}

// TestVoiceLimitAndNoGarbage plays more one-shots than voices: the extra
// ones are dropped and counted, and playing allocates nothing.
func TestVoiceLimitAndNoGarbage(t *testing.T) {
	m, _ := openDisk(t)
	defer m.Close()
	s, err := m.LoadSound(fstest.MapFS{"b.wav": {Data: wav(2 * time.Second)}}, "b.wav")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Free()
	for range 20 {
		m.Play(s, 0.5, -0.5)
	}
	if m.Played != 20 || m.Dropped != 4 {
		t.Errorf("20 plays on 16 voices: played %d dropped %d, want 20 and 4", m.Played, m.Dropped)
	}
	if n := testing.AllocsPerRun(100, func() { m.Play(s, 1, 0.3) }); n != 0 {
		t.Errorf("Play allocates %v times, want 0", n)
	}
	m.Suspend(true)
	before := m.Dropped
	m.Play(s, 1, 0)
	if m.Dropped != before {
		t.Error("a play while suspended took a voice")
	}
	m.Suspend(false)
}

func TestMusicAndErrors(t *testing.T) {
	m, _ := openDisk(t)
	defer m.Close()
	fsys := fstest.MapFS{"song.wav": {Data: wav(time.Second)}, "notes.txt": {Data: []byte("la la la")}}
	mu, err := m.LoadMusic(fsys, "song.wav")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.PlayMusic(mu, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	m.FadeOutMusic(50 * time.Millisecond)
	mu.Free()
	for path, want := range map[string]string{
		"missing.wav": "audio: load missing.wav: open missing.wav: file does not exist",
		"notes.txt":   "audio: load notes.txt: soundfile: ",
	} {
		if _, err := m.LoadSound(fsys, path); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("LoadSound(%s) = %v, want %q", path, err, want)
		}
	}
	if _, err := Open(Config{Buffer: 500}); err == nil || !strings.Contains(err.Error(), "Config.Buffer = 500") {
		t.Errorf("a buffer of 500: %v", err)
	}
}

// TestNoDeviceRunsSilent: with no audio device Open says so, and the
// mixer it returns counts plays without sound.
func TestNoDeviceRunsSilent(t *testing.T) {
	t.Setenv("SDL_AUDIODRIVER", "nosuchdriver")
	m, err := Open(Config{})
	if !errors.Is(err, ErrNoDevice) || m == nil || m.Live() {
		t.Fatalf("Open without a device: %v, %v", m, err)
	}
	s, err := m.LoadSound(fstest.MapFS{"b.wav": {Data: wav(time.Millisecond)}}, "b.wav")
	if err != nil {
		t.Fatal(err)
	}
	m.Play(s, 1, 0)
	if m.Played != 1 {
		t.Errorf("a silent mixer counted %d plays", m.Played)
	}
	if m := Silent(); m.Live() {
		t.Error("Silent is live")
	}
}

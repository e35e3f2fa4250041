package soundfile

import (
	"strings"
	"testing"

	"github.com/fixstep/fixstep/audio/internal/soundtest"
)

// TestVorbisSetupBombs: setup headers of a few kilobytes whose codebooks
// would overflow libvorbis's stack or take gigabytes are refused, for
// sounds and music alike; blip.ogg's own books parse and take 147 KB.
func TestVorbisSetupBombs(t *testing.T) {
	blip, err := parseSound(soundtest.WithBooks(t, soundtest.ValueBook, 0))
	if err != nil {
		t.Fatal(err)
	}
	if blip.duration != 400e6 {
		t.Errorf("blip.ogg rebuilt lasts %v", blip.duration)
	}
	for _, c := range []struct {
		name string
		add  func(*soundtest.BitWriter)
		n    int
		want string
	}{
		{"stack", soundtest.StackBook, 1, "Vorbis setup header of the stream at byte 0: a codebook of 1048576 entries, " +
			"over the limit of 16384 (libvorbis puts 12 bytes an entry on the stack)"},
		{"values", soundtest.ValueBook, 200, "Vorbis setup header of the stream at byte 0: codebooks and residues " +
			"that take 12.5 GiB to decode with, over the limit of 16 MiB"},
	} {
		b := soundtest.WithBooks(t, c.add, c.n)
		_, err := parseSound(b)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s (%d bytes): %v\n\twant %s", c.name, len(b), err, c.want)
		}
	}
	for _, bad := range []string{"\x05vorbis", "\x05vorbis\x00BCV", "\x03vorbis"} {
		if _, err := parseVorbisSetup([]byte(bad)); err == nil || !strings.Contains(err.Error(), " ") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestBlipBooksEnd: soundtest.WithBooks appends codebooks where the parser
// finds blip.ogg's own end.
func TestBlipBooksEnd(t *testing.T) {
	_, setup := soundtest.SplitHeaders(t, soundtest.OggPages(t, soundtest.Testdata(t, "blip.ogg"))[1])
	r := &bitReader{b: setup[7:]}
	count, _ := r.read(8)
	var s vorbisSetup
	for range count + 1 {
		if _, err := parseVorbisBook(r, &s); err != nil {
			t.Fatal(err)
		}
	}
	if r.pos != soundtest.BlipBooksEnd {
		t.Errorf("blip.ogg's %d codebooks end at bit %d, soundtest.BlipBooksEnd says %d", count+1, r.pos, soundtest.BlipBooksEnd)
	}
}

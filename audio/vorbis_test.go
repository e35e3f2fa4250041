package audio

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// bitWriter writes a Vorbis packet's bits, least significant first.
type bitWriter struct {
	b []byte
	n int // bits written
}

func (w *bitWriter) write(v uint32, bits int) {
	for i := range bits {
		if w.n%8 == 0 {
			w.b = append(w.b, 0)
		}
		w.b[w.n/8] |= byte(v>>i&1) << (w.n % 8)
		w.n++
	}
}

// copyBits writes bits [from, to) of b.
func (w *bitWriter) copyBits(b []byte, from, to int) {
	for i := from; i < to; i++ {
		w.write(uint32(b[i/8]>>(i%8)&1), 1)
	}
}

// stackBook is a codebook of 2^20 entries of 20-bit codes and no values:
// libvorbis sorts its codes in 12 MiB of alloca.
func stackBook(w *bitWriter) {
	w.write(0x564342, 24)
	w.write(1, 16)     // dimension
	w.write(1<<20, 24) // entries
	w.write(1, 1)      // ordered lengths
	w.write(19, 5)     // from 20 bits
	w.write(1<<20, 21) // 2^20 codes of 20 bits
	w.write(0, 4)      // no values
}

// valueBook is a codebook of 4095 entries of dimension 4095 whose one
// quantized value libvorbis expands to 4095×4095 floats: 64 MiB.
func valueBook(w *bitWriter) {
	w.write(0x564342, 24)
	w.write(4095, 16)
	w.write(4095, 24)
	w.write(1, 1)
	w.write(10, 5)    // from 11 bits:
	w.write(1, 12)    // one code of 11 bits,
	w.write(4094, 12) // 4094 of 12
	w.write(1, 4)     // value mapping 1
	w.write(0, 32)    // minimum
	w.write(0, 32)    // delta
	w.write(0, 4)     // 1-bit values
	w.write(0, 1)     // not a sequence
	w.write(0, 1)     // the one value
}

// withBooks returns blip.ogg with books added to its setup header's
// codebooks (after its own, so the floors and residues still name theirs),
// repaged: the first two pages, then the headers, then the audio pages.
func withBooks(t testing.TB, add func(*bitWriter), n int) []byte {
	blip := readTestdata(t, "blip.ogg")
	pages := oggPages(t, blip)
	comment, setup := splitHeaders(t, pages[1])
	r := &bitReader{b: setup[7:]}
	count, _ := r.read(8)
	var s vorbisSetup
	for range count + 1 {
		if _, err := parseVorbisBook(r, &s); err != nil {
			t.Fatal(err)
		}
	}
	w := &bitWriter{}
	w.write(count+uint32(n), 8)
	w.copyBits(setup[7:], 8, r.pos)
	for range n {
		add(w)
	}
	w.copyBits(setup[7:], r.pos, 8*(len(setup)-7))
	packet := append([]byte("\x05vorbis"), w.b...)
	// The comment packet and the setup packet on one page: lacing values
	// of 255 and the rest for each.
	var lacing []byte
	for _, p := range [][]byte{comment, packet} {
		lacing = append(lacing, bytes.Repeat([]byte{255}, len(p)/255)...)
		lacing = append(lacing, byte(len(p)%255))
	}
	if len(lacing) > 255 {
		t.Fatalf("headers of %d segments", len(lacing))
	}
	serial := binary.LittleEndian.Uint32(pages[0][14:])
	b := append(bytes.Clone(pages[0]), oggPageOf(0, 0, serial, 1, lacing, append(bytes.Clone(comment), packet...))...)
	for _, p := range pages[2:] {
		b = append(b, p...)
	}
	return b
}

// splitHeaders returns the comment and setup packets of blip.ogg's second
// page, which holds both.
func splitHeaders(t testing.TB, page []byte) (comment, setup []byte) {
	lacing := page[27 : 27+int(page[26])]
	var packets [][]byte
	start, off := 27+len(lacing), 27+len(lacing)
	for _, l := range lacing {
		off += int(l)
		if l < 255 {
			packets = append(packets, page[start:off])
			start = off
		}
	}
	if len(packets) != 2 {
		t.Fatalf("%d packets on the header page", len(packets))
	}
	return packets[0], packets[1]
}

// TestVorbisSetupBombs: setup headers of a few kilobytes whose codebooks
// would overflow libvorbis's stack or take gigabytes are refused, for
// sounds and music alike; blip.ogg's own books parse and take 147 KB.
func TestVorbisSetupBombs(t *testing.T) {
	blip, err := parseSound(withBooks(t, valueBook, 0))
	if err != nil {
		t.Fatal(err)
	}
	if blip.duration != 400e6 {
		t.Errorf("blip.ogg rebuilt lasts %v", blip.duration)
	}
	for _, c := range []struct {
		name string
		add  func(*bitWriter)
		n    int
		want string
	}{
		{"stack", stackBook, 1, "Vorbis setup header of the stream at byte 0: a codebook of 1048576 entries, " +
			"over the limit of 16384 (libvorbis puts 12 bytes an entry on the stack)"},
		{"values", valueBook, 200, "Vorbis setup header of the stream at byte 0: codebooks and residues " +
			"that take 12.5 GiB to decode with, over the limit of 16 MiB"},
	} {
		b := withBooks(t, c.add, c.n)
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

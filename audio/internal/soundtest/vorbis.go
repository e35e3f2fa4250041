package soundtest

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// BitWriter writes a Vorbis packet's bits, least significant first.
type BitWriter struct {
	B []byte // the bytes written
	n int    // bits written
}

// Write writes the low bits bits of v.
func (w *BitWriter) Write(v uint32, bits int) {
	for i := range bits {
		if w.n%8 == 0 {
			w.B = append(w.B, 0)
		}
		w.B[w.n/8] |= byte(v>>i&1) << (w.n % 8)
		w.n++
	}
}

// CopyBits writes bits [from, to) of b.
func (w *BitWriter) CopyBits(b []byte, from, to int) {
	for i := from; i < to; i++ {
		w.Write(uint32(b[i/8]>>(i%8)&1), 1)
	}
}

// StackBook is a codebook of 2^20 entries of 20-bit codes and no values:
// libvorbis sorts its codes in 12 MiB of alloca.
func StackBook(w *BitWriter) {
	w.Write(0x564342, 24)
	w.Write(1, 16)     // dimension
	w.Write(1<<20, 24) // entries
	w.Write(1, 1)      // ordered lengths
	w.Write(19, 5)     // from 20 bits
	w.Write(1<<20, 21) // 2^20 codes of 20 bits
	w.Write(0, 4)      // no values
}

// ValueBook is a codebook of 4095 entries of dimension 4095 whose one
// quantized value libvorbis expands to 4095×4095 floats: 64 MiB.
func ValueBook(w *BitWriter) {
	w.Write(0x564342, 24)
	w.Write(4095, 16)
	w.Write(4095, 24)
	w.Write(1, 1)
	w.Write(10, 5)    // from 11 bits:
	w.Write(1, 12)    // one code of 11 bits,
	w.Write(4094, 12) // 4094 of 12
	w.Write(1, 4)     // value mapping 1
	w.Write(0, 32)    // minimum
	w.Write(0, 32)    // delta
	w.Write(0, 4)     // 1-bit values
	w.Write(0, 1)     // not a sequence
	w.Write(0, 1)     // the one value
}

// BlipBooksEnd is where blip.ogg's codebooks end in its setup packet, in
// bits from the packet's eighth byte (after "\x05vorbis"): its codebook
// count is the 8 bits at 0, its codebooks follow. soundfile's tests check
// it against the parser.
const BlipBooksEnd = 24773

// WithBooks returns blip.ogg with n books written by add appended to its
// setup header's codebooks (after its own, so the floors and residues
// still name theirs), repaged: the first two pages, then the headers,
// then the audio pages.
func WithBooks(t testing.TB, add func(*BitWriter), n int) []byte {
	blip := Testdata(t, "blip.ogg")
	pages := OggPages(t, blip)
	comment, setup := SplitHeaders(t, pages[1])
	count := uint32(setup[7])
	w := &BitWriter{}
	w.Write(count+uint32(n), 8)
	w.CopyBits(setup[7:], 8, BlipBooksEnd)
	for range n {
		add(w)
	}
	w.CopyBits(setup[7:], BlipBooksEnd, 8*(len(setup)-7))
	packet := append([]byte("\x05vorbis"), w.B...)
	// The comment packet and the setup packet on one page: lacing values
	// of 255 and the rest for each.
	var lacing []byte
	for _, p := range [][]byte{comment, packet} {
		lacing = append(lacing, bytes.Repeat([]byte{255}, len(p)/255)...)
		lacing = append(lacing, byte(len(p)%255))
	}
	if len(lacing) > 255 {
		t.Fatalf("soundtest: headers of %d segments", len(lacing))
	}
	serial := binary.LittleEndian.Uint32(pages[0][14:])
	b := append(bytes.Clone(pages[0]), OggPage(0, 0, serial, 1, lacing, append(bytes.Clone(comment), packet...))...)
	for _, p := range pages[2:] {
		b = append(b, p...)
	}
	return b
}

// SplitHeaders returns the comment and setup packets of blip.ogg's second
// page, which holds both.
func SplitHeaders(t testing.TB, page []byte) (comment, setup []byte) {
	t.Helper()
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
		t.Fatalf("soundtest: %d packets on the header page", len(packets))
	}
	return packets[0], packets[1]
}

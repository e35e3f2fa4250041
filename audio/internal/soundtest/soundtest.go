// Package soundtest builds WAV and Ogg Vorbis files for the tests of
// package audio and package soundfile: valid ones, damaged ones, and the
// bombs (a few kilobytes that declare hours of audio or gigabytes of
// decoder tables) their loaders must refuse. It imports no cgo, so the
// checks of soundfile are tested without SDL.
package soundtest

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Testdata returns the file name of audio/testdata (blip.ogg, bounce.wav),
// wherever the test runs from.
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("soundtest: no caller to find testdata by")
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// WAV is a WAV file in the making: a RIFF header and the chunks added.
type WAV []byte

// NewWAV starts a WAV file: its RIFF header, the size written by Done.
func NewWAV() WAV { return WAV("RIFF\x00\x00\x00\x00WAVE") }

// Chunk adds a chunk of id with data and its pad byte; size, when not -1,
// is written in place of the data's length.
func (w WAV) Chunk(id string, data []byte, size int64) WAV {
	w = append(w, id...)
	if size < 0 {
		size = int64(len(data))
	}
	w = binary.LittleEndian.AppendUint32(w, uint32(size))
	w = append(w, data...)
	if len(data)%2 == 1 {
		w = append(w, 0)
	}
	return w
}

// Done writes the RIFF size and returns the file.
func (w WAV) Done() []byte {
	binary.LittleEndian.PutUint32(w[4:], uint32(len(w)-8))
	return w
}

// FmtPCM is a 16-byte fmt chunk's data.
func FmtPCM(tag, channels uint16, rate uint32, bits uint16) []byte {
	f := binary.LittleEndian.AppendUint16(nil, tag)
	f = binary.LittleEndian.AppendUint16(f, channels)
	f = binary.LittleEndian.AppendUint32(f, rate)
	f = binary.LittleEndian.AppendUint32(f, rate*uint32(channels*bits/8))
	f = binary.LittleEndian.AppendUint16(f, channels*bits/8)
	return binary.LittleEndian.AppendUint16(f, bits)
}

// FmtExtensible is a 40-byte WAVE_FORMAT_EXTENSIBLE fmt chunk's data with
// the sub-format of tag.
func FmtExtensible(tag, channels uint16, rate uint32, bits uint16) []byte {
	f := FmtPCM(0xFFFE, channels, rate, bits)
	f = binary.LittleEndian.AppendUint16(f, 22)   // extension size
	f = binary.LittleEndian.AppendUint16(f, bits) // valid bits
	f = binary.LittleEndian.AppendUint32(f, 3)    // channel mask: front left and right
	f = binary.LittleEndian.AppendUint16(f, tag)  // the GUID's first bytes
	return append(f, "\x00\x00\x00\x00\x10\x00\x80\x00\x00\xAA\x00\x38\x9B\x71"...)
}

// WAVHeader is the 44-byte header of a PCM WAV of dataLen bytes.
func WAVHeader(channels uint16, rate uint32, bits uint16, dataLen uint32) []byte {
	h := NewWAV().Chunk("fmt ", FmtPCM(1, channels, rate, bits), -1)
	h = append(h, "data"...)
	h = binary.LittleEndian.AppendUint32(h, dataLen)
	binary.LittleEndian.PutUint32(h[4:], 36+dataLen)
	return h
}

// crcTable is Ogg's CRC-32: polynomial 0x04c11db7, not reflected, no
// final XOR (hash/crc32 has only reflected ones).
var crcTable = func() (t [256]uint32) {
	for i := range t {
		r := uint32(i) << 24
		for range 8 {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04c11db7
			} else {
				r <<= 1
			}
		}
		t[i] = r
	}
	return t
}()

// CRC is an Ogg page's checksum, counting its checksum field as zeros.
func CRC(page []byte) uint32 {
	var c uint32
	for i, b := range page {
		if i >= 22 && i < 26 {
			b = 0
		}
		c = c<<8 ^ crcTable[byte(c>>24)^b]
	}
	return c
}

// OggPage makes an Ogg page with its checksum.
func OggPage(flags byte, granule int64, serial, seq uint32, lacing, body []byte) []byte {
	p := append([]byte("OggS\x00"), flags)
	p = binary.LittleEndian.AppendUint64(p, uint64(granule))
	p = binary.LittleEndian.AppendUint32(p, serial)
	p = binary.LittleEndian.AppendUint32(p, seq)
	p = append(p, 0, 0, 0, 0, byte(len(lacing)))
	p = append(p, lacing...)
	p = append(p, body...)
	binary.LittleEndian.PutUint32(p[22:], CRC(p))
	return p
}

// VorbisIdent is a Vorbis identification header: blocks of 2^short and
// 2^long samples.
func VorbisIdent(channels byte, rate uint32, short, long byte) []byte {
	h := append([]byte("\x01vorbis\x00\x00\x00\x00"), channels)
	h = binary.LittleEndian.AppendUint32(h, rate)
	h = append(h, make([]byte, 12)...) // bit rates
	return append(h, long<<4|short, 1)
}

// OggBomb is an Ogg Vorbis stream of rate Hz with blocks of 2^8 and 2^long
// samples and packets one-byte audio packets, 255 a page, whose last page
// says lastGranule. Its comment and setup headers are blip.ogg's; nothing
// here is decoded.
func OggBomb(t testing.TB, rate uint32, long byte, packets int, lastGranule int64) []byte {
	const serial = 0x5EED
	b := OggPage(2, 0, serial, 0, []byte{30}, VorbisIdent(1, rate, 8, long))
	setup := bytes.Clone(OggPages(t, Testdata(t, "blip.ogg"))[1])
	binary.LittleEndian.PutUint32(setup[14:], serial)
	binary.LittleEndian.PutUint32(setup[22:], CRC(setup))
	b = append(b, setup...)
	per := int64(1) << long / 2
	seq := uint32(2)
	for done := 0; done < packets; seq++ {
		n := min(255, packets-done)
		done += n
		granule, flags := min(int64(done)*per, lastGranule), byte(0)
		if done == packets {
			granule, flags = lastGranule, 4
		}
		b = append(b, OggPage(flags, granule, serial, seq, bytes.Repeat([]byte{1}, n), make([]byte, n))...)
	}
	return b
}

// OggPages splits a well-formed Ogg file into its pages.
func OggPages(t testing.TB, b []byte) [][]byte {
	t.Helper()
	var pages [][]byte
	for p := 0; p < len(b); {
		if p+27 > len(b) || string(b[p:p+4]) != "OggS" || p+27+int(b[p+26]) > len(b) {
			t.Fatalf("soundtest: no whole Ogg page at byte %d", p)
		}
		size := 27 + int(b[p+26])
		for _, l := range b[p+27 : p+size] {
			size += int(l)
		}
		if p+size > len(b) {
			t.Fatalf("soundtest: Ogg page at byte %d cut short", p)
		}
		pages = append(pages, b[p:p+size])
		p += size
	}
	return pages
}

// WithLastGranule returns the Ogg file b with its last page's granule
// position set to g (and its checksum mended).
func WithLastGranule(t testing.TB, b []byte, g int64) []byte {
	pages := OggPages(t, b)
	last := bytes.Clone(pages[len(pages)-1])
	binary.LittleEndian.PutUint64(last[6:], uint64(g))
	binary.LittleEndian.PutUint32(last[22:], CRC(last))
	return append(bytes.Clone(b[:len(b)-len(last)]), last...)
}

// MendCRCs returns b with the checksum of every whole page from its start
// set right: a fuzzer's mutations then reach the headers.
func MendCRCs(b []byte) []byte {
	b = bytes.Clone(b)
	for p := 0; p+27 <= len(b) && string(b[p:p+4]) == "OggS"; {
		size := 27 + int(b[p+26])
		if p+size > len(b) {
			break
		}
		for _, l := range b[p+27 : p+size] {
			size += int(l)
		}
		if p+size > len(b) {
			break
		}
		binary.LittleEndian.PutUint32(b[p+22:], CRC(b[p:p+size]))
		p += size
	}
	return b
}

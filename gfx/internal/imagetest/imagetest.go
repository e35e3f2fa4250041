// Package imagetest builds PNG and JPEG files for the tests of package gfx
// and package imagefile: images of every kind the decoders allocate
// differently for, and files whose headers lie about their size.
package imagetest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Chunk appends a PNG chunk with its length and CRC.
func Chunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	start := len(b)
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// adam7 are the interlace passes: x and y offset, then x and y step.
var adam7 = [7][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}

// ZeroPNG returns a valid PNG of a w×h image of zeros, of the bit depth
// and color type given (as in IHDR; a paletted one gets a one-color
// palette), Adam7-interlaced or not. Go's encoder writes neither
// interlaced files nor every type.
func ZeroPNG(t testing.TB, w, h int, depth, colorType byte, interlaced bool) []byte {
	t.Helper()
	channels := map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colorType]
	b := []byte("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, uint32(w))
	ihdr = binary.BigEndian.AppendUint32(ihdr, uint32(h))
	ihdr = append(ihdr, depth, colorType, 0, 0, 0)
	passes := [][4]int{{0, 0, 1, 1}}
	if interlaced {
		ihdr[12] = 1
		passes = adam7[:]
	}
	b = Chunk(b, "IHDR", ihdr)
	if colorType == 3 {
		b = Chunk(b, "PLTE", []byte{0, 0, 0})
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	for _, p := range passes {
		pw, ph := (w-p[0]+p[2]-1)/p[2], (h-p[1]+p[3]-1)/p[3]
		if pw <= 0 || ph <= 0 {
			continue
		}
		row := make([]byte, 1+(channels*int(depth)*pw+7)/8) // filter byte, then the pixels
		for range ph {
			zw.Write(row)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	b = Chunk(b, "IDAT", z.Bytes())
	return Chunk(b, "IEND", nil)
}

// PatchPNG returns a copy of the PNG b whose IHDR says w×h, its CRC
// fixed: the pixel data is still that of the small image.
func PatchPNG(b []byte, w, h uint32) []byte {
	b = bytes.Clone(b)
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// PatchJPEG returns a copy of the JPEG b whose frame header says w×h.
func PatchJPEG(t testing.TB, b []byte, w, h uint16) []byte {
	b = bytes.Clone(b)
	for i := 0; i+9 < len(b); i++ {
		if b[i] == 0xff && b[i+1] >= 0xc0 && b[i+1] <= 0xc2 {
			binary.BigEndian.PutUint16(b[i+5:], h)
			binary.BigEndian.PutUint16(b[i+7:], w)
			return b
		}
	}
	t.Fatal("no frame header")
	return nil
}

// Testdata returns the file name of gfx/imagefile/testdata (Go's own
// JPEG test images), wherever the test runs from.
func Testdata(t testing.TB, name string) []byte {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("imagetest: no caller to find testdata by")
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "imagefile", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

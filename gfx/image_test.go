package gfx

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

// The JPEG files in testdata/video-*.jpeg are copies of Go's own
// image/testdata (BSD license): a progressive 4:2:0 file, a progressive
// gray one, a CMYK one and an RGB one, which Go's encoder cannot make.

// pngChunk appends a PNG chunk with its length and CRC.
func pngChunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	start := len(b)
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start:]))
}

// adam7 are the interlace passes: x and y offset, then x and y step.
var adam7 = [7][4]int{{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4}, {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}}

// zeroPNG returns a valid PNG of a w×h image of zeros, of the bit depth
// and color type given (as in IHDR; a paletted one gets a one-color
// palette), Adam7-interlaced or not. Go's encoder writes neither
// interlaced files nor every type.
func zeroPNG(t testing.TB, w, h int, depth, colorType byte, interlaced bool) []byte {
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
	b = pngChunk(b, "IHDR", ihdr)
	if colorType == 3 {
		b = pngChunk(b, "PLTE", []byte{0, 0, 0})
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
	b = pngChunk(b, "IDAT", z.Bytes())
	return pngChunk(b, "IEND", nil)
}

// patchPNG returns a copy of the PNG b whose IHDR says w×h, its CRC
// fixed: the pixel data is still that of the small image.
func patchPNG(b []byte, w, h uint32) []byte {
	b = bytes.Clone(b)
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

// patchJPEG returns a copy of the JPEG b whose frame header says w×h.
func patchJPEG(t testing.TB, b []byte, w, h uint16) []byte {
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

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLoadTextureBombs loads small files that say they are 16384×16384:
// each is refused from its header, with an error that names the file, its
// size, what loading it would cost and the limit, before the decoder
// allocates anything.
func TestLoadTextureBombs(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	progressive := patchJPEG(t, readTestdata(t, "video-001.q50.420.progressive.jpeg"), 16384, 16384)
	fsys := fstest.MapFS{
		"rgba.png":  {Data: patchPNG(zeroPNG(t, 4, 4, 8, 6, false), 16384, 16384)},
		"rgb16.png": {Data: patchPNG(zeroPNG(t, 4, 4, 16, 2, false), 16384, 16384)},
		"gray.png":  {Data: patchPNG(zeroPNG(t, 4, 4, 8, 0, true), 16384, 16384)},
		"pal.png":   {Data: patchPNG(zeroPNG(t, 4, 4, 8, 3, false), 16384, 16384)},
		"prog.jpg":  {Data: progressive},
		// 8192×8192 8-bit RGBA is 512 MiB, at the limit; 8193 rows is over.
		"over.png": {Data: patchPNG(zeroPNG(t, 4, 4, 8, 6, false), 8192, 8193)},
	}
	want := map[string]string{
		"rgba.png":  "gfx: load rgba.png (%d bytes): png image 16384x16384, 8-bit RGBA: decoding and uploading it costs 2.0 GiB, over the limit of 512.0 MiB (Renderer.SetMaxImageBytes)",
		"rgb16.png": "gfx: load rgb16.png (%d bytes): png image 16384x16384, 16-bit RGB: decoding and uploading it costs 3.0 GiB, over the limit of 512.0 MiB (Renderer.SetMaxImageBytes)",
		"gray.png":  "gfx: load gray.png (%d bytes): png image 16384x16384, 8-bit gray, interlaced: decoding and uploading it costs 3.0 GiB, over the limit of 512.0 MiB (Renderer.SetMaxImageBytes)",
		"pal.png":   "gfx: load pal.png (%d bytes): png image 16384x16384, 8-bit paletted: decoding and uploading it costs 1.3 GiB, over the limit of 512.0 MiB (Renderer.SetMaxImageBytes)",
		"prog.jpg":  "gfx: load prog.jpg (%d bytes): jpeg image 16384x16384, progressive, 3 components: decoding and uploading it costs 3.9 GiB, over the limit of 512.0 MiB (Renderer.SetMaxImageBytes)",
		"over.png":  "gfx: load over.png (%d bytes): png image 8192x8193, 8-bit RGBA: decoding and uploading it costs 512.1 MiB, over the limit of 512.0 MiB (Renderer.SetMaxImageBytes)",
	}
	var maxTex, pages, objects int
	errs := map[string]error{}
	var allocated uint64
	err := withRenderer(func(r *Renderer) error {
		maxTex, pages, objects = r.atlas.maxTex, r.Pages(), LiveObjects()
		if maxTex < 16384 {
			return nil
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for name := range want {
			_, errs[name] = r.LoadTexture(fsys, name, Linear)
		}
		runtime.ReadMemStats(&after)
		allocated = after.TotalAlloc - before.TotalAlloc
		if r.Pages() != pages || LiveObjects() != objects {
			t.Errorf("after the refusals: %d pages, %d GL objects; want %d, %d", r.Pages(), LiveObjects(), pages, objects)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if maxTex < 16384 {
		t.Skipf("the driver's maximum texture size, %d, refuses these files first", maxTex)
	}
	for name, w := range want {
		w = fmt.Sprintf(w, len(fsys[name].Data))
		if errs[name] == nil || errs[name].Error() != w {
			t.Errorf("LoadTexture(%s):\n got %v\nwant %s", name, errs[name], w)
		}
	}
	if allocated > 1<<20 {
		t.Errorf("refusing %d files allocated %d bytes", len(want), allocated)
	}
}

// TestMaxImageBytes lowers the limit to refuse a 256×256 PNG (256 KiB
// decoded plus 256 KiB of texture) and restores the default to load it.
func TestMaxImageBytes(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	data := encodePNG(t, solid(256, 256, color.NRGBA{10, 20, 30, 255}))
	fsys := fstest.MapFS{"a.png": {Data: data}}
	err := withRenderer(func(r *Renderer) error {
		if got := r.MaxImageBytes(); got != DefaultMaxImageBytes {
			t.Errorf("MaxImageBytes() = %d, want the default %d", got, DefaultMaxImageBytes)
		}
		// Go's encoder writes an opaque image as RGB: two rows of 1+3·256
		// bytes besides the pixels.
		r.SetMaxImageBytes(512<<10 + 2*(1+3*256) - 1)
		_, err := r.LoadTexture(fsys, "a.png", Nearest)
		want := fmt.Sprintf("gfx: load a.png (%d bytes): png image 256x256, 8-bit RGB: decoding and uploading it costs 0.5 MiB, over the limit of 0.5 MiB (Renderer.SetMaxImageBytes)", len(data))
		if err == nil || err.Error() != want {
			t.Errorf("over a lowered limit:\n got %v\nwant %s", err, want)
		}
		r.SetMaxImageBytes(512<<10 + 2*(1+3*256))
		if _, err := r.LoadTexture(fsys, "a.png", Nearest); err != nil {
			t.Errorf("at the limit: %v", err)
		}
		r.SetMaxImageBytes(0)
		if got := r.MaxImageBytes(); got != DefaultMaxImageBytes {
			t.Errorf("after SetMaxImageBytes(0): %d, want the default %d", got, DefaultMaxImageBytes)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// costFiles are images of every kind the decoders allocate differently
// for, with the cost imageCost gives each, the texture included.
func costFiles(t testing.TB) map[string][]byte {
	var gray, ycc bytes.Buffer
	if err := jpeg.Encode(&gray, image.NewGray(image.Rect(0, 0, 300, 200)), nil); err != nil {
		t.Fatal(err)
	}
	if err := jpeg.Encode(&ycc, solid(300, 200, color.NRGBA{1, 2, 3, 255}), nil); err != nil {
		t.Fatal(err)
	}
	var rgba64 bytes.Buffer
	if err := png.Encode(&rgba64, image.NewRGBA64(image.Rect(0, 0, 300, 200))); err != nil {
		t.Fatal(err)
	}
	prog := readTestdata(t, "video-001.q50.420.progressive.jpeg")
	return map[string][]byte{
		"gray.png":          zeroPNG(t, 300, 200, 8, 0, false),
		"gray16.png":        zeroPNG(t, 300, 200, 16, 0, false),
		"graya.png":         zeroPNG(t, 300, 200, 8, 4, false),
		"rgb.png":           zeroPNG(t, 300, 200, 8, 2, false),
		"rgba.png":          zeroPNG(t, 300, 200, 8, 6, false),
		"rgba64.png":        rgba64.Bytes(),
		"pal.png":           zeroPNG(t, 300, 200, 8, 3, false),
		"pal1.png":          zeroPNG(t, 300, 200, 1, 3, false),
		"interlaced.png":    zeroPNG(t, 300, 200, 8, 6, true),
		"interlaced16.png":  zeroPNG(t, 301, 203, 16, 2, true),
		"gray.jpg":          gray.Bytes(),
		"ycc.jpg":           ycc.Bytes(),
		"progressive.jpg":   prog,
		"progressive2k.jpg": patchJPEG(t, prog, 2000, 1500), // allocates all, then runs out of data
		"grayprog.jpg":      readTestdata(t, "video-005.gray.q50.progressive.jpeg"),
		"cmyk.jpg":          readTestdata(t, "video-001.cmyk.jpeg"),
		"rgb.jpg":           readTestdata(t, "video-001.rgb.jpeg"),
	}
}

// decoderSlack is what a decoder allocates whatever the image's size:
// zlib's window and tables, Huffman tables, buffers.
const decoderSlack = 96 << 10

// checkCost decodes data and fails if the decoder allocated more than
// imageCost counted for it (less the texture) plus decoderSlack. It
// returns the cost and what was allocated; ok is false when data is not a
// PNG or JPEG the header of which decodes, or costs more than max.
func checkCost(t *testing.T, name string, data []byte, max int64) (c cost, allocated int64, ok bool) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || format != "png" && format != "jpeg" {
		return c, 0, false
	}
	c = imageCost(cfg, format, data[:min(len(data), pngHeader)], bytes.NewReader(data))
	if c.bytes > max {
		return c, 0, false
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	image.Decode(bytes.NewReader(data))
	runtime.ReadMemStats(&after)
	allocated = int64(after.TotalAlloc - before.TotalAlloc)
	if decoder := c.bytes - rgbaBytes(cfg); allocated > decoder+decoderSlack {
		t.Errorf("%s: %s %dx%d (%s): decoding allocated %d bytes, more than the %d counted (+%d)",
			name, format, cfg.Width, cfg.Height, c.what, allocated, decoder, decoderSlack)
	}
	return c, allocated, true
}

// TestImageCostCoversDecoder decodes an image of each kind and checks that
// the decoder allocated no more than imageCost counted, and that the
// count is not wildly over (under 4× for the kinds it knows exactly).
func TestImageCostCoversDecoder(t *testing.T) {
	for name, data := range costFiles(t) {
		c, allocated, ok := checkCost(t, name, data, 1<<30)
		if !ok {
			t.Errorf("%s: not decodable", name)
			continue
		}
		cfg, _, _ := image.DecodeConfig(bytes.NewReader(data))
		decoder := c.bytes - rgbaBytes(cfg)
		t.Logf("%s (%s): counted %d, allocated %d", name, c.what, decoder, allocated)
		if allocated > 2*decoderSlack && decoder > 4*allocated {
			t.Errorf("%s (%s): counted %d bytes for a decode of %d", name, c.what, decoder, allocated)
		}
	}
}

// TestJPEGFrameNotFound: a JPEG whose frame header the walk cannot find as
// the decoder does is counted at the worst the decoder allows.
func TestJPEGFrameNotFound(t *testing.T) {
	cfg := image.Config{ColorModel: color.YCbCrModel, Width: 100, Height: 100}
	c := jpegCost(strings.NewReader("\xff\xd8\xff\xda"), cfg)
	want := cost{3*131*115*5 + 4*100*100 + 4*100*100, "3 components, frame not found: assumed progressive"}
	if c != want {
		t.Errorf("jpegCost = %+v, want %+v", c, want)
	}
}

// FuzzImageCost mutates PNG and JPEG files and checks, for every one whose
// header decodes, that the decoder allocates no more than imageCost
// counted from the header: the limit of LoadTexture holds for any file.
func FuzzImageCost(f *testing.F) {
	files := costFiles(f)
	for _, name := range []string{"progressive.jpg", "grayprog.jpg", "cmyk.jpg", "rgb.jpg", "ycc.jpg", "interlaced.png", "pal1.png", "gray16.png"} {
		f.Add(files[name])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkCost(t, "input", data, 64<<20)
	})
}

package imagefile

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"strings"
	"testing"

	"github.com/fixstep/fixstep/gfx/internal/imagetest"
)

// The JPEG files in testdata/video-*.jpeg are copies of Go's own
// image/testdata (BSD license): a progressive 4:2:0 file, a progressive
// gray one, a CMYK one and an RGB one, which Go's encoder cannot make.

// solid returns a w×h image of c.
func solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
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
	prog := imagetest.Testdata(t, "video-001.q50.420.progressive.jpeg")
	return map[string][]byte{
		"gray.png":          imagetest.ZeroPNG(t, 300, 200, 8, 0, false),
		"gray16.png":        imagetest.ZeroPNG(t, 300, 200, 16, 0, false),
		"graya.png":         imagetest.ZeroPNG(t, 300, 200, 8, 4, false),
		"rgb.png":           imagetest.ZeroPNG(t, 300, 200, 8, 2, false),
		"rgba.png":          imagetest.ZeroPNG(t, 300, 200, 8, 6, false),
		"rgba64.png":        rgba64.Bytes(),
		"pal.png":           imagetest.ZeroPNG(t, 300, 200, 8, 3, false),
		"pal1.png":          imagetest.ZeroPNG(t, 300, 200, 1, 3, false),
		"interlaced.png":    imagetest.ZeroPNG(t, 300, 200, 8, 6, true),
		"interlaced16.png":  imagetest.ZeroPNG(t, 301, 203, 16, 2, true),
		"gray.jpg":          gray.Bytes(),
		"ycc.jpg":           ycc.Bytes(),
		"progressive.jpg":   prog,
		"progressive2k.jpg": imagetest.PatchJPEG(t, prog, 2000, 1500), // allocates all, then runs out of data
		"grayprog.jpg":      imagetest.Testdata(t, "video-005.gray.q50.progressive.jpeg"),
		"cmyk.jpg":          imagetest.Testdata(t, "video-001.cmyk.jpeg"),
		"rgb.jpg":           imagetest.Testdata(t, "video-001.rgb.jpeg"),
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
	c = imageCost(cfg, format, data[:min(len(data), HeaderSize)], bytes.NewReader(data))
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

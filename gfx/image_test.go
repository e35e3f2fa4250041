//go:build cgo

package gfx

import (
	"fmt"
	"image/color"
	"runtime"
	"testing"
	"testing/fstest"

	"github.com/fixstep/fixstep/gfx/internal/imagetest"
)

// TestLoadTextureBombs loads small files that say they are 16384×16384:
// each is refused from its header, with an error that names the file, its
// size, what loading it would cost and the limit, before the decoder
// allocates anything.
func TestLoadTextureBombs(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	progressive := imagetest.PatchJPEG(t, imagetest.Testdata(t, "video-001.q50.420.progressive.jpeg"), 16384, 16384)
	fsys := fstest.MapFS{
		"rgba.png":  {Data: imagetest.PatchPNG(imagetest.ZeroPNG(t, 4, 4, 8, 6, false), 16384, 16384)},
		"rgb16.png": {Data: imagetest.PatchPNG(imagetest.ZeroPNG(t, 4, 4, 16, 2, false), 16384, 16384)},
		"gray.png":  {Data: imagetest.PatchPNG(imagetest.ZeroPNG(t, 4, 4, 8, 0, true), 16384, 16384)},
		"pal.png":   {Data: imagetest.PatchPNG(imagetest.ZeroPNG(t, 4, 4, 8, 3, false), 16384, 16384)},
		"prog.jpg":  {Data: progressive},
		// 8192×8192 8-bit RGBA is 512 MiB, at the limit; 8193 rows is over.
		"over.png": {Data: imagetest.PatchPNG(imagetest.ZeroPNG(t, 4, 4, 8, 6, false), 8192, 8193)},
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

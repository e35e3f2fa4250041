//go:build cgo

package gfx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-gl/gl/v3.3-core/gl"
)

// solid returns a w×h image of one straight (non-premultiplied) color.
func solid(w, h int, c color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// sheet is a 4×4 sprite sheet of four 2×2 frames: red, green (top row),
// blue, yellow (bottom row).
func sheet() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	cs := []color.NRGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}}
	for y := range 4 {
		for x := range 4 {
			img.SetNRGBA(x, y, cs[y/2*2+x/2])
		}
	}
	return img
}

// TestAtlasBatchesInterleavedTextures draws sprites of three textures and
// regions of a sprite sheet, interleaved with rects, circles and text: one
// draw call, in painter's order, and the picture of the golden image.
func TestAtlasBatchesInterleavedTextures(t *testing.T) {
	openWindow(t, WindowConfig{Width: 128, Height: 96})
	var img *image.RGBA
	var drawn FrameStats
	err := withRenderer(func(r *Renderer) error {
		var texs [3]Texture
		for i, im := range []image.Image{solid(8, 8, color.NRGBA{200, 60, 60, 255}), sheet(), solid(6, 3, color.NRGBA{60, 60, 220, 128})} {
			var err error
			if texs[i], err = r.TextureFromImage(im, Nearest); err != nil {
				return err
			}
		}
		frames := []Texture{texs[1].Sub(0, 0, 2, 2), texs[1].Sub(2, 0, 2, 2), texs[1].Sub(0, 2, 2, 2), texs[1].Sub(2, 2, 2, 2)}
		frame := func() {
			r.BeginFrame(128, 96, RGBA(0.1, 0.1, 0.15, 1))
			for i := range 4 {
				x := 16 + 28*float32(i)
				r.Draw(texs[0], Sprite{X: x, Y: 76, W: 16, H: 16, Color: White})
				r.Draw(frames[i], Sprite{X: x + 6, Y: 70, W: 12, H: 12, Color: White}) // over the last
				r.Rect(x, 50, 20, 4, 0, RGBA(0.9, 0.9, 0.2, 1))
				r.Draw(texs[1], Sprite{X: x, Y: 36, W: 16, H: 16, Color: White})
				r.Circle(x+6, 30, 5, RGBA(0.2, 0.9, 0.9, 1))
				r.Draw(texs[2], Sprite{X: x, Y: 14, W: 24, H: 12, Color: White})
			}
			r.DebugText(2, 94, 1, []byte("atlas"), White)
			r.EndFrame()
		}
		frame()
		drawn = r.LastFrame()
		img = r.ReadPixels(128, 96)
		if r.Pages() != 2 { // the first, linear, and one nearest page
			t.Errorf("%d atlas pages, want 2", r.Pages())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if drawn.DrawCalls != 1 || drawn.Sprites != 4*6+5 {
		t.Errorf("frame drew %d sprites in %d draw calls, want %d in 1", drawn.Sprites, drawn.DrawCalls, 4*6+5)
	}
	checkGolden(t, "atlas", img)
	// The sheet's regions: frame i's center is its color.
	for i, want := range []color.RGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}} {
		x := 16 + 28*i + 6
		if got := img.RGBAAt(x, 96-70); got != want {
			t.Errorf("region %d drawn as %v, want %v", i, got, want)
		}
	}
}

// TestAtlasLinearNoBleeding scales up a red texture packed next to a green
// one with linear filtering: the extruded border keeps every pixel of the
// sprite, its edges included, pure red (no green neighbour, no transparent
// gap blended in).
func TestAtlasLinearNoBleeding(t *testing.T) {
	openWindow(t, WindowConfig{Width: 96, Height: 96})
	var img *image.RGBA
	err := withRenderer(func(r *Renderer) error {
		red, err := r.TextureFromImage(solid(8, 8, color.NRGBA{255, 0, 0, 255}), Linear)
		if err != nil {
			return err
		}
		green, err := r.TextureFromImage(solid(8, 8, color.NRGBA{0, 255, 0, 255}), Linear)
		if err != nil {
			return err
		}
		if red.ID() != green.ID() {
			t.Errorf("two small linear textures on different pages")
		}
		r.BeginFrame(96, 96, Black)
		r.Draw(red, Sprite{X: 40.3, Y: 47.7, W: 70.2, H: 70.6, Angle: 0.2, Color: White})
		r.EndFrame()
		img = r.ReadPixels(96, 96)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reds := 0
	for y := range 96 {
		for x := range 96 {
			c := img.RGBAAt(x, y)
			if c.G > 2 || c.B > 2 {
				t.Fatalf("pixel (%d, %d) = %v: green bled in", x, y, c)
			}
			if c.R > 2 && c.R < 250 { // a blend with the page around the image
				t.Fatalf("pixel (%d, %d) = %v: the edge blended with what is around the image", x, y, c)
			}
			if c.R > 0 {
				reds++
			}
		}
	}
	if reds < 70*70*9/10 {
		t.Fatalf("only %d red pixels: the sprite was not drawn", reds)
	}
	checkGolden(t, "atlas_linear", img)
}

func encodePNG(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLoadTexture loads a PNG with alpha and a JPEG through an fs.FS: the
// PNG renders premultiplied and the right way up.
func TestLoadTexture(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	img := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	img.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255}) // top left: red
	img.SetNRGBA(1, 0, color.NRGBA{0, 255, 0, 128}) // top right: half green
	img.SetNRGBA(0, 1, color.NRGBA{0, 0, 255, 255}) // bottom left: blue
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, solid(8, 8, color.NRGBA{255, 255, 255, 255}), nil); err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{"a/b.png": {Data: encodePNG(t, img)}, "c.jpg": {Data: jpg.Bytes()}}
	var got *image.RGBA
	err := withRenderer(func(r *Renderer) error {
		tex, err := r.LoadTexture(fsys, "a/b.png", Nearest)
		if err != nil {
			return err
		}
		if w, h := tex.Size(); w != 2 || h != 2 {
			t.Errorf("size %dx%d, want 2x2", w, h)
		}
		if _, err := r.LoadTexture(fsys, "c.jpg", Linear); err != nil {
			return err
		}
		r.BeginFrame(4, 4, Black)
		r.Draw(tex, Sprite{X: 2, Y: 2, W: 4, H: 4, Color: White})
		r.EndFrame()
		got = r.ReadPixels(4, 4)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x, y int
		want color.RGBA
	}{
		{0, 0, color.RGBA{255, 0, 0, 255}},
		{3, 0, color.RGBA{0, 128, 0, 255}}, // premultiplied: 255·128/255 (straight would be 255)
		{0, 3, color.RGBA{0, 0, 255, 255}},
		{3, 3, color.RGBA{0, 0, 0, 255}}, // transparent over black
	} {
		if g := got.RGBAAt(c.x, c.y); g != c.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", c.x, c.y, g, c.want)
		}
	}
}

// hugePNG returns a valid PNG header (with a correct CRC) that says w×h,
// followed by nothing: the size must be refused before any pixel is read.
func hugePNG(t *testing.T, w, h uint32) []byte {
	b := encodePNG(t, solid(1, 1, color.NRGBA{}))
	// IHDR's data starts at byte 16: width, height, then 5 bytes.
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

func TestLoadTextureErrors(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	good := encodePNG(t, solid(4, 4, color.NRGBA{1, 2, 3, 255}))
	fsys := fstest.MapFS{
		"corrupt.png": {Data: append(good[:40:40], 0xde, 0xad)},
		"notes.txt":   {Data: []byte("not an image")},
		"huge.png":    {Data: hugePNG(t, 100000, 4)},
	}
	for _, c := range []struct{ path, want string }{
		{"missing.png", "gfx: load missing.png: open missing.png: file does not exist"},
		{"corrupt.png", "gfx: load corrupt.png: png: "},
		{"notes.txt", "gfx: load notes.txt: not a PNG or JPEG image (unknown format)"},
		{"huge.png", "gfx: load huge.png: png image 100000x4: each side must be 1 to "},
	} {
		var err error
		if e := withRenderer(func(r *Renderer) error {
			_, err = r.LoadTexture(fsys, c.path, Nearest)
			return nil
		}); e != nil {
			t.Fatal(e)
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("LoadTexture(%s) = %v, want an error starting %q", c.path, err, c.want)
		}
	}
}

// TestAtlasReusesSpaceAndPages checks the atlas as a data structure
// through the renderer: freed space is reused, a large image gets a page
// of its own that goes with it, and Close leaves no GL object.
func TestAtlasReusesSpaceAndPages(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	before := -1
	var after int
	onMain(func() { before = LiveObjects() })
	err := withRenderer(func(r *Renderer) error {
		a, err := r.TextureFromImage(solid(500, 300, color.NRGBA{A: 255}), Linear)
		if err != nil {
			return err
		}
		u0, v1 := a.u0, a.v1
		a.Delete()
		if w, _ := a.Size(); w != 0 {
			t.Errorf("Delete left the texture's size %d", w)
		}
		b, err := r.TextureFromImage(solid(500, 300, color.NRGBA{A: 255}), Linear)
		if err != nil {
			return err
		}
		if b.u0 != u0 || b.v1 != v1 {
			t.Errorf("after a delete, the same size went to (%v, %v), not the freed (%v, %v)", b.u0, b.v1, u0, v1)
		}
		pages := r.Pages()
		big, err := r.TextureFromImage(solid(r.atlas.pageSize, 4, color.NRGBA{A: 255}), Nearest)
		if err != nil {
			return err
		}
		if r.Pages() != pages+1 || big.ID() == b.ID() {
			t.Errorf("an image as wide as a page did not get a page of its own")
		}
		big.Delete()
		if r.Pages() != pages {
			t.Errorf("%d pages after deleting the large image, want %d", r.Pages(), pages)
		}
		s := b.Sub(0, 0, 10, 10)
		s.Delete() // a region's Delete leaves its parent alone
		r.BeginFrame(4, 4, Black)
		r.Draw(b, Sprite{W: 1, H: 1})
		r.EndFrame()
		_, err = r.TextureFromImage(solid(r.atlas.maxTex+1, 1, color.NRGBA{}), Nearest)
		if err == nil || !strings.Contains(err.Error(), "larger than the driver's maximum texture size") {
			t.Errorf("an image over the maximum size: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	onMain(func() { after = LiveObjects() })
	if after != before {
		t.Errorf("%d GL objects alive after Close, want %d", after, before)
	}
}

func TestDrawDeletedTexturePanics(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	var msg any
	err := withRenderer(func(r *Renderer) error {
		tex, err := r.TextureFromImage(solid(2, 2, color.NRGBA{A: 255}), Nearest)
		if err != nil {
			return err
		}
		stale := tex
		tex.Delete()
		func() {
			defer func() { msg = recover() }()
			r.Draw(stale, Sprite{W: 1, H: 1})
		}()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if msg != "gfx: Draw of a deleted texture" {
		t.Errorf("drawing a deleted texture: recovered %v", msg)
	}
}

func TestSubOutsidePanics(t *testing.T) {
	defer func() {
		if msg := recover(); msg != "gfx: Texture.Sub(3, 0, 2, 2) is outside the 4x4 texture" {
			t.Errorf("recovered %v", msg)
		}
	}()
	Texture{w: 4, h: 4, u1: 1, v1: 1}.Sub(3, 0, 2, 2)
}

// TestSubHugeRectanglesPanic: a region whose x+w or y+h overflows int is
// outside the texture too, not a region with wrapped-around coordinates.
func TestSubHugeRectanglesPanic(t *testing.T) {
	tex := Texture{w: 4, h: 4, u1: 1, v1: 1}
	for _, c := range [][4]int{
		{1, 0, math.MaxInt, 1},
		{0, 1, 1, math.MaxInt},
		{2, 2, math.MaxInt - 1, math.MaxInt - 1},
		{math.MaxInt, 0, 1, 1},
		{0, math.MaxInt32, 1, 1},
		{math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32},
		{4, 0, 1, 1},
	} {
		want := fmt.Sprintf("gfx: Texture.Sub(%d, %d, %d, %d) is outside the 4x4 texture", c[0], c[1], c[2], c[3])
		func() {
			defer func() {
				if msg := recover(); msg != want {
					t.Errorf("Sub%v: recovered %v, want %q", c, msg, want)
				}
			}()
			s := tex.Sub(c[0], c[1], c[2], c[3])
			t.Errorf("Sub%v returned a %dx%d region at u %v..%v", c, s.w, s.h, s.u0, s.u1)
		}()
	}
	if s := tex.Sub(3, 3, 1, 1); s.w != 1 || s.u0 != 0.75 || s.u1 != 1 || s.v0 != 0 || s.v1 != 0.25 {
		t.Errorf("Sub(3, 3, 1, 1) = %+v, want the bottom-right texel", s)
	}
}

// TestDrawCopyOfDeletedOwnTexture: a copy or a region of a NewTexture
// texture deleted through another copy does not draw (its GL name may be
// reused by the next texture made): it panics as the deleted texture does,
// and deleting it again deletes nothing.
func TestDrawCopyOfDeletedOwnTexture(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	var before, after int
	var msgs [2]any
	onMain(func() { before = LiveObjects() })
	err := withRenderer(func(r *Renderer) error {
		tex, err := NewTexture(2, 2, nil, false)
		if err != nil {
			return err
		}
		stale, region := tex, tex.Sub(0, 0, 1, 1)
		tex.Delete()
		for i, s := range []Texture{stale, region} {
			func() {
				defer func() { msgs[i] = recover() }()
				r.BeginFrame(4, 4, Black)
				r.Draw(s, Sprite{W: 1, H: 1})
			}()
			r.sprites.n = 0
			r.EndFrame()
		}
		live := LiveObjects()
		stale.Delete()
		region.Delete()
		if LiveObjects() != live {
			t.Errorf("deleting a copy of a deleted texture: %d live objects, want %d", LiveObjects(), live)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, msg := range msgs {
		if msg != "gfx: Draw of a deleted texture" {
			t.Errorf("drawing %s of a deleted texture: recovered %v", []string{"a copy", "a region"}[i], msg)
		}
	}
	onMain(func() { after = LiveObjects() })
	if after != before {
		t.Errorf("%d GL objects alive after Close, want %d", after, before)
	}
}

// TestFramebufferCopyDeleted: deleting a copy of a deleted framebuffer
// deletes nothing (the count of live GL objects does not go below its
// start), its ID and its color texture's are 0, and its color texture
// does not draw.
func TestFramebufferCopyDeleted(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	var before, afterDelete, afterCopy int
	var ids [2]uint32
	var msg any
	err := withRenderer(func(r *Renderer) error {
		before = LiveObjects()
		fb, err := NewFramebuffer(4, 4)
		if err != nil {
			return err
		}
		cp := fb
		fb.Delete()
		afterDelete = LiveObjects()
		ids = [2]uint32{cp.ID(), cp.Color.ID()}
		func() {
			defer func() { msg = recover() }()
			r.Draw(cp.Color, Sprite{W: 1, H: 1})
		}()
		r.sprites.n = 0
		cp.Delete()
		cp.Delete()
		afterCopy = LiveObjects()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if afterDelete != before || afterCopy != before {
		t.Errorf("live GL objects: %d before, %d after Delete, %d after deleting a copy", before, afterDelete, afterCopy)
	}
	if ids != [2]uint32{} {
		t.Errorf("a copy of a deleted framebuffer has IDs %v, want 0", ids)
	}
	if msg != "gfx: Draw of a deleted texture" {
		t.Errorf("drawing a deleted framebuffer's color through a copy: recovered %v", msg)
	}
}

// TestNewTextureTooLarge: a side beyond the driver's maximum is refused
// before anything is made, its size named.
func TestNewTextureTooLarge(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	var err error
	var before, after int
	onMain(func() {
		before = LiveObjects()
		_, err = NewTexture(math.MaxInt32+1, 1, nil, false)
		after = LiveObjects()
	})
	if err == nil || !strings.Contains(err.Error(), "texture size 2147483648x1: larger than the driver's maximum texture size") {
		t.Errorf("NewTexture(2^31, 1): %v", err)
	}
	if after != before {
		t.Errorf("refused texture left %d GL objects", after-before)
	}
}

// pattern returns a w×h opaque image whose every pixel differs from its
// neighbours: red and green are x and y, blue their high bits.
func pattern(w, h int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), uint8(x>>8 | y>>8<<4), 255})
		}
	}
	return img
}

// pagePixels reads texture t's page back from GL, rows top first as the
// atlas stores them, and returns it with t's rectangle on it.
func pagePixels(t Texture) (*image.RGBA, image.Rectangle) {
	p := t.page
	img := image.NewRGBA(image.Rect(0, 0, p.w, p.h))
	gl.BindTexture(gl.TEXTURE_2D, p.id)
	gl.PixelStorei(gl.PACK_ALIGNMENT, 1)
	gl.GetTexImage(gl.TEXTURE_2D, 0, gl.RGBA, gl.UNSIGNED_BYTE, glPtr(&img.Pix[0]))
	x, y := int(t.u0*float32(p.w)+0.5), int(t.v1*float32(p.h)+0.5)
	return img, image.Rect(x, y, x+int(t.w), y+int(t.h))
}

// checkTexels compares the page texels of tex with the opaque img (whose
// premultiplied pixels are its own) and, on a shared page, its border
// with img's edge pixels. It returns the first mismatch.
func checkTexels(tex Texture, img *image.NRGBA) error {
	page, r := pagePixels(tex)
	b := 0
	if tex.page.packer != nil {
		b = 1
	}
	w, h := r.Dx(), r.Dy()
	for y := -b; y < h+b; y++ {
		for x := -b; x < w+b; x++ {
			sx, sy := min(max(x, 0), w-1), min(max(y, 0), h-1)
			want := img.Pix[img.PixOffset(sx, sy):][:4]
			if got := page.Pix[page.PixOffset(r.Min.X+x, r.Min.Y+y):][:4]; !bytes.Equal(got, want) {
				return fmt.Errorf("texel (%d, %d) of the %dx%d image = %v, want %v", x, y, w, h, got, want)
			}
		}
	}
	return nil
}

// TestAtlasLegalSizes adds images of every size up to the page and past
// it, with both filters: up to 2046 (2048 with the border) they share a
// page, past it each gets its own page sized to it; every texel and
// border texel is the image's. Deleting them all leaves the first page and
// one spare Nearest page, and Close leaves no GL object.
func TestAtlasLegalSizes(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	var before, after int
	onMain(func() { before = LiveObjects() })
	err := withRenderer(func(r *Renderer) error {
		pages := r.Pages()
		for _, s := range [][2]int{{2046, 10}, {10, 2046}, {2000, 2000}, {2045, 2045}, {2046, 2046}, {2048, 2048}, {2047, 1}, {1, 2047}, {3000, 5}} {
			img := pattern(s[0], s[1])
			for _, f := range []Filter{Nearest, Linear} {
				tex, err := r.TextureFromImage(img, f)
				if err != nil {
					t.Errorf("%dx%d, filter %d: %v", s[0], s[1], f, err)
					continue
				}
				own := s[0] > 2046 || s[1] > 2046
				if p := tex.page; own != (p.packer == nil) || own && (p.w != s[0] || p.h != s[1]) || !own && p.w != 2048 {
					t.Errorf("%dx%d on a %dx%d page, shared %v", s[0], s[1], p.w, p.h, p.packer != nil)
				}
				if err := checkTexels(tex, img); err != nil {
					t.Errorf("%dx%d, filter %d: %v", s[0], s[1], f, err)
				}
				tex.Delete()
			}
		}
		if got := r.Pages(); got != pages+1 {
			t.Errorf("%d pages after deleting every texture, want %d (and a spare Nearest page)", got, pages+1)
		}
		if c := cap(r.atlas.scratch); c > uploadBytes {
			t.Errorf("upload buffer of %d bytes kept, want at most %d", c, uploadBytes)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	onMain(func() { after = LiveObjects() })
	if after != before {
		t.Errorf("%d GL objects alive after Close, want %d", after, before)
	}
}

// glErrImage is an image that makes a GL error (INVALID_ENUM) when its
// pixels are first read: during the upload.
type glErrImage struct {
	image.Image
	done bool
}

func (g *glErrImage) At(x, y int) color.Color {
	if !g.done {
		g.done = true
		gl.Enable(0xffff)
	}
	return g.Image.At(x, y)
}

// TestAtlasRefusalLeaksNothing makes adds fail every way they can: an
// empty image, one over the maximum texture size, and a GL error (an
// INVALID_ENUM, pending before the add or made during the upload) while
// making a shared page, making a page of its own and uploading to a page
// with room. Each refusal is an error naming
// the problem and leaves the pages, the GL objects and the packer as
// they were.
func TestAtlasRefusalLeaksNothing(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	err := withRenderer(func(r *Renderer) error {
		pages, objects, placed := r.Pages(), LiveObjects(), r.atlas.pages[0].packer.Len()
		maxTex := r.atlas.maxTex
		for _, c := range []struct {
			img      image.Image
			f        Filter
			glErr    bool
			want     string
			wantArgs []any
		}{
			{image.NewRGBA(image.Rect(0, 0, 0, 4)), Linear, false, "gfx: texture size 0x4: must be positive", nil},
			{image.NewRGBA(image.Rect(0, 0, maxTex+1, 1)), Linear, false, "gfx: image %dx1 is larger than the driver's maximum texture size, %d", []any{maxTex + 1, maxTex}},
			{pattern(8, 8), Nearest, true, "gfx: new 2048x2048 atlas page: GL error INVALID_ENUM", nil},
			{pattern(3000, 4), Linear, true, "gfx: new 3000x4 atlas page: GL error INVALID_ENUM", nil},
			{pattern(8, 8), Linear, true, "gfx: atlas: GL error INVALID_ENUM", nil},
			// A GL error during the upload: to a new page, a page of its
			// own, a page with room.
			{&glErrImage{Image: pattern(8, 8)}, Nearest, false, "gfx: atlas: GL error INVALID_ENUM", nil},
			{&glErrImage{Image: pattern(3000, 4)}, Linear, false, "gfx: atlas: GL error INVALID_ENUM", nil},
			{&glErrImage{Image: pattern(8, 8)}, Linear, false, "gfx: atlas: GL error INVALID_ENUM", nil},
		} {
			if c.glErr {
				gl.Enable(0xffff) // not a capability: INVALID_ENUM
			}
			want := c.want
			if c.wantArgs != nil {
				want = fmt.Sprintf(c.want, c.wantArgs...)
			}
			tex, err := r.TextureFromImage(c.img, c.f)
			if err == nil || err.Error() != want || tex != (Texture{}) {
				t.Errorf("add %v: %v, %+v; want %q and no texture", c.img.Bounds(), err, tex, want)
			}
			if r.Pages() != pages || LiveObjects() != objects || r.atlas.pages[0].packer.Len() != placed {
				t.Errorf("after refusing %v: %d pages, %d GL objects, %d rectangles on the first page; want %d, %d, %d",
					c.img.Bounds(), r.Pages(), LiveObjects(), r.atlas.pages[0].packer.Len(), pages, objects, placed)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAtlasSparePage checks the empty-page rule: a Nearest texture added
// and deleted leaves its page for the next one; an image of nearly a page
// gets a new page without room for the shapes, so Rect next to it is drawn
// from the first page's (two draw calls, the right colors); when that page
// empties it is the one kept and gets its own shapes, and the other empty
// Nearest page goes.
func TestAtlasSparePage(t *testing.T) {
	openWindow(t, WindowConfig{Width: 4, Height: 4})
	var img *image.RGBA
	var drawn FrameStats
	err := withRenderer(func(r *Renderer) error {
		pages := r.Pages()
		a, err := r.TextureFromImage(pattern(8, 8), Nearest)
		if err != nil {
			return err
		}
		id := a.ID()
		a.Delete()
		b, err := r.TextureFromImage(pattern(8, 8), Nearest)
		if err != nil {
			return err
		}
		if b.ID() != id || r.Pages() != pages+1 {
			t.Errorf("add, delete, add: page %d then %d, %d pages; want the same page, %d pages", id, b.ID(), r.Pages(), pages+1)
		}
		c, err := r.TextureFromImage(solid(2045, 2045, color.NRGBA{255, 0, 0, 255}), Nearest)
		if err != nil {
			return err
		}
		pc, first := c.page, r.atlas.pages[0]
		if pc == b.page || pc.shapes.white.page != first || pc.shapes.disc.page != first || pc.shapes.glyphs[0].page != first {
			t.Errorf("a 2045x2045 image did not get a page whose shapes are the first page's")
		}
		r.BeginFrame(4, 4, Black)
		r.Draw(c, Sprite{X: 1, Y: 2, W: 2, H: 4, Color: White})
		r.Rect(3, 2, 2, 4, 0, RGBA(0, 0, 1, 1))
		r.EndFrame()
		drawn = r.LastFrame()
		img = r.ReadPixels(4, 4)
		c.Delete()
		if r.Pages() != pages+2 || pc.shapes.white.page != pc || pc.shapes.disc.page != pc || pc.shapes.glyphs[95].page != pc {
			t.Errorf("the emptied page of the large image: %d pages, want %d, and its own shapes", r.Pages(), pages+2)
		}
		b.Delete()
		if r.Pages() != pages+1 || r.atlas.pages[len(r.atlas.pages)-1] != pc {
			t.Errorf("two empty Nearest pages: %d pages left, want %d, the large image's kept", r.Pages(), pages+1)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if drawn.DrawCalls != 2 {
		t.Errorf("a texture and a Rect drawn from another page: %d draw calls, want 2", drawn.DrawCalls)
	}
	if got := img.RGBAAt(0, 1); got != (color.RGBA{255, 0, 0, 255}) {
		t.Errorf("texture drawn as %v", got)
	}
	if got := img.RGBAAt(3, 1); got != (color.RGBA{0, 0, 255, 255}) {
		t.Errorf("Rect drawn as %v", got)
	}
}

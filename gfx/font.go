package gfx

import (
	"image"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The overlay's text is basicfont.Face7x13, a maintained bitmap face, baked
// at start into a texture of printable ASCII: 16 columns by 6 rows of 7×13
// cells.

const (
	glyphW, glyphH = 7, 13
	atlasCols      = 16
	firstGlyph     = 32
	numGlyphs      = 96
)

// fontImage bakes the glyphs into one premultiplied white image, which
// every atlas page holds.
func fontImage() *image.RGBA {
	rows := numGlyphs / atlasCols
	img := image.NewAlpha(image.Rect(0, 0, atlasCols*glyphW, rows*glyphH))
	face := basicfont.Face7x13
	d := font.Drawer{Dst: img, Src: image.Opaque, Face: face}
	for i := range numGlyphs {
		cx, cy := i%atlasCols*glyphW, i/atlasCols*glyphH
		d.Dot = fixed.P(cx, cy+face.Ascent)
		d.DrawString(string(rune(firstGlyph + i)))
	}
	// White, premultiplied: every channel is the coverage.
	rgba := image.NewRGBA(img.Bounds())
	for i, a := range img.Pix {
		copy(rgba.Pix[4*i:4*i+4], []byte{a, a, a, a})
	}
	return rgba
}

// TextWidth returns the width of the longest line of text in the bitmap
// font at scale: 7·scale per byte. Face.Measure measures a Face's text.
func TextWidth(text []byte, scale float32) float32 {
	longest, n := 0, 0
	for _, b := range text {
		if b == '\n' {
			n = 0
			continue
		}
		n++
		longest = max(longest, n)
	}
	return float32(longest*glyphW) * scale
}

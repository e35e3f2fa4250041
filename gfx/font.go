package gfx

import (
	"bytes"
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

// DebugText queues text in the overlay's 7×13 bitmap font, for debug
// overlays and quick HUDs, at (x, y), the top-left corner of its first
// line, in camera units of one pixel per font pixel at scale 1. Every glyph is a 7×13 cell scaled as blocks: each byte
// advances 7·scale, and the line height is 13·scale ('\n' starts a new
// line). Bytes outside printable ASCII draw as '?'. It batches with
// sprites and does not allocate. Like DrawText it is clipped to what the
// camera shows: a cell wholly outside is not queued, and with a positive
// scale a line stops at its first cell past the right edge and the text
// at its first line below the bottom. For proportional, smooth text at any
// size use a Face and DrawText.
func (r *Renderer) DebugText(x, y, scale float32, text []byte, c Color) {
	cw, ch := glyphW*scale, glyphH*scale
	v := &r.view
	px, py := x, y
	for i := 0; i < len(text); i++ {
		b := text[i]
		if b == '\n' {
			px, py = x, py-ch
			continue
		}
		if !v.all && scale > 0 && (px > v.maxX || py-ch > v.maxY) {
			// Past the right edge, or a line above the top: the rest of
			// the line is hidden.
			j := bytes.IndexByte(text[i:], '\n')
			if j < 0 {
				return
			}
			i += j - 1
			continue
		}
		if !v.all && scale > 0 && py < v.minY {
			return // this line and every later one are below the bottom
		}
		if b < firstGlyph || b >= firstGlyph+numGlyphs {
			b = '?'
		}
		if b != ' ' && !v.outside(min(px, px+cw), min(py, py-ch), max(px, px+cw), max(py, py-ch)) {
			r.Draw(r.shapes().glyphs[b-firstGlyph], Sprite{X: px + cw/2, Y: py - ch/2, W: cw, H: ch, Color: c})
		}
		px += cw
	}
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
